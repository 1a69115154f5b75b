"""The deck in a real browser: drag with the pointer, buttons, and a match
reaching two viewers. Oracles come from the README's deck contract (tantan),
not from the page's own code."""
import json
import math
import os
import shutil

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By

from conftest import PEOPLE, ROOT, screenshot, wait_for

REST_X, REST_Y, CARD_W, CARD_H = 187.5, 273.5, 350, 400


def answers(browser):
    return browser.execute_script("return window.swipeDebug ? window.swipeDebug.answers : []")


def signed_in(browser, served, viewer):
    browser.get(served.link(viewer))
    wait_for(lambda: any(a.get("cmd") == "deck" for a in answers(browser)), f"{viewer}'s first deck")
    # The token leaves the address bar once the cookie holds it.
    assert "token=" not in browser.current_url


def top_card(browser):
    return browser.find_element(By.CSS_SELECTOR, ".card[data-state='first']")


def matrix_of(browser, element):
    text = browser.execute_script("return getComputedStyle(arguments[0]).transform", element)
    assert text.startswith("matrix("), text
    return [float(v) for v in text[len("matrix("):-1].split(",")]


def expected_matrix(x, y, rotation_degrees, scale):
    """translate(x − w/2, y − h/2) rotate(r) scale(s) as a CSS matrix(a, b, c, d, e, f)."""
    r = math.radians(rotation_degrees)
    return [scale * math.cos(r), scale * math.sin(r), -scale * math.sin(r), scale * math.cos(r),
            x - CARD_W / 2, y - CARD_H / 2]


def test_a_pointer_drag_poses_the_card_as_the_deck_says(liked, browsers):
    browser = browsers()
    signed_in(browser, liked, "alice")
    card = top_card(browser)
    assert card.get_attribute("data-profile") == "bob"  # he likes her: likers come first
    # Profile text is text: the bio's markup is shown, not parsed.
    assert card.find_elements(By.TAG_NAME, "b") == []

    mouse = PointerInput(interaction.POINTER_MOUSE, "mouse")
    actions = ActionBuilder(browser, mouse=mouse, duration=50)
    actions.pointer_action.move_to(card).pointer_down()
    for step in range(1, 9):
        actions.pointer_action.move_by(8, -1)
    actions.perform()

    def settled_drag():
        sent = browser.execute_script("return window.swipeDebug.sent")
        drags = [c for c in sent if json.loads(c)["cmd"] == "drag"]
        got = [a for a in answers(browser) if a.get("cmd") == "drag"]
        return drags and got and got[-1]["command"] == drags[-1] and got[-1]
    answer = wait_for(settled_drag, "the answer to the last drag")
    path = screenshot(browser, "serve-drag.png")
    if os.environ.get("SWIPE_UPDATE_DOCS"):
        shutil.copy(path, ROOT / "docs" / "serve-drag.png")

    sent_drag = json.loads(answer["command"])
    dx, dy = float(sent_drag["dx"]), float(sent_drag["dy"])
    assert 40 < dx < 100, answer["command"]
    # The pose the server sent is the contract's tantan pose for that drag …
    top = answer["cards"][0]
    assert top["profile"] == "bob"
    assert math.isclose(top["x"], REST_X + dx, abs_tol=1e-3)
    assert math.isclose(top["y"], REST_Y + dy, abs_tol=1e-3)
    assert math.isclose(top["rotation"], (1 - (REST_X + dx) / REST_X) * 22.5, abs_tol=1e-3)
    assert math.isclose(answer["like"], min(max(dx / 100, 0), 1), abs_tol=1e-3)
    # … and the DOM shows exactly that pose, for all four cards.
    for card_json in answer["cards"]:
        element = browser.find_element(By.CSS_SELECTOR, f".card[data-slot='{card_json['slot']}']")
        if card_json["profile"] is None:
            continue
        got = matrix_of(browser, element)
        want = expected_matrix(card_json["x"], card_json["y"], card_json["rotation"], card_json["scale"])
        assert all(math.isclose(g, w, abs_tol=1e-3) for g, w in zip(got, want)), (card_json, got, want)
        opacity = float(browser.execute_script("return getComputedStyle(arguments[0]).opacity", element))
        assert math.isclose(opacity, card_json["alpha"], abs_tol=1e-3)
    stamp = float(browser.execute_script(
        "return getComputedStyle(arguments[0].querySelector('.stamp.like')).opacity", top_card(browser)))
    assert math.isclose(stamp, answer["like"], abs_tol=1e-3)
    # Chrome snaps computed border widths to whole pixels; the width set is exact.
    border = browser.execute_script("return document.getElementById('like').style.borderWidth")
    assert math.isclose(float(border[:-2]), 5 * (1 - answer["like"]), abs_tol=1e-3)

    # Let go under the threshold with no speed: the card springs back, nothing decided.
    release_actions = ActionBuilder(browser, mouse=mouse)
    release_actions.pointer_action.pointer_up()
    release_actions.perform()
    release = wait_for(lambda: [a for a in answers(browser) if a.get("cmd") == "release"],
                       "the release answer")[-1]
    assert "decision" not in release
    wait_for(lambda: matrix_of(browser, top_card(browser))[4] == REST_X - CARD_W / 2, "the card back at rest")
    assert liked.decisions("alice") == []


def test_pressing_like_stores_the_decision(served, browsers):
    """The decision is about the card on top, whichever the ranking put there."""
    browser = browsers()
    signed_in(browser, served, "alice")
    first = top_card(browser).get_attribute("data-profile")
    assert first in PEOPLE and first != "alice", first
    browser.find_element(By.ID, "like").click()
    rows = wait_for(lambda: served.decisions("alice"), "alice's like in the database")
    assert rows == [(first, "like", "button", None)]
    second = wait_for(lambda: top_card(browser).get_attribute("data-profile") not in (first, "")
                      and top_card(browser).get_attribute("data-profile"), "the next card on top")
    assert second in PEOPLE and second != "alice", second
    # Keys: ← passes on that card, Backspace undoes it.
    browser.find_element(By.TAG_NAME, "body").send_keys("\ue012")  # ArrowLeft
    wait_for(lambda: len(served.decisions("alice")) == 2, "the hate from ←")
    browser.find_element(By.TAG_NAME, "body").send_keys("\ue003")  # Backspace
    wait_for(lambda: served.decisions("alice")[-1][3] is not None, "the undo from Backspace")
    assert served.decisions("alice")[-1][:3] == (second, "hate", "button")
    screenshot(browser, "serve-after-like.png")


def test_two_viewers_who_like_each_other_both_see_the_match(pair, browsers):
    alice, bob = browsers(), browsers(width=375, height=667)
    signed_in(alice, pair, "alice")
    signed_in(bob, pair, "bob")
    bob.find_element(By.ID, "like").click()  # bob likes alice, his one card
    wait_for(lambda: pair.decisions("bob") == [("alice", "like", "button", None)], "bob's like stored")
    alice.find_element(By.ID, "like").click()  # alice likes bob, her one card: a match

    def banner(browser):
        element = browser.find_element(By.ID, "match-banner")
        return element.is_displayed() and element
    on_alice = wait_for(lambda: banner(alice), "the match on alice's page")
    on_bob = wait_for(lambda: banner(bob), "the match pushed to bob's page")
    assert on_alice.get_attribute("data-profile") == "bob"
    assert "Bob Builder" in on_alice.text
    assert on_bob.get_attribute("data-profile") == "alice"
    assert "Alice Example" in on_bob.text
    screenshot(alice, "serve-match-alice.png")
    screenshot(bob, "serve-match-bob.png")


def test_the_detail_page_shows_profile_text_as_text(liked, browsers):
    browser = browsers(width=375, height=667)
    signed_in(browser, liked, "alice")
    assert top_card(browser).get_attribute("data-profile") == "bob"  # he likes her: likers come first
    top_card(browser).click()
    wait_for(lambda: browser.find_element(By.ID, "detail").is_displayed(), "the detail page")
    bio = browser.find_element(By.ID, "detail-bio")
    assert bio.text == "<img src=x onerror=alert(1)>"
    assert bio.find_elements(By.TAG_NAME, "img") == []
    interests = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#detail-interests li")]
    assert interests == ["climbing", "jazz", "hiking"]
    screenshot(browser, "serve-detail.png")
    browser.find_element(By.ID, "detail-back").click()
    wait_for(lambda: not browser.find_element(By.ID, "detail").is_displayed(), "back to the deck")


def test_without_a_link_the_page_is_401(served, browsers):
    browser = browsers()
    browser.get(served.base + "/")
    assert "swipe link" in browser.find_element(By.TAG_NAME, "body").text


def test_stopping_the_server_closes_open_pages_and_exits_0(served, browsers):
    browser = browsers()
    signed_in(browser, served, "alice")
    served.stop()  # SIGTERM with a socket open: it must close it and exit, not wait for the page
    assert served.process.returncode == 0
    status = wait_for(lambda: "Disconnected" in browser.find_element(By.ID, "status").text
                      and browser.find_element(By.ID, "status").text, "the page told of the closed socket")
    assert "the server closed the connection" in status


OPEN_SOCKET = """
const [url, done] = [arguments[0], arguments[arguments.length - 1]];
const seen = {opened: false, closed: false, messages: []};
const socket = new WebSocket(url);
socket.addEventListener("open", () => { seen.opened = true; });
socket.addEventListener("message", (m) => { seen.messages.push(m.data); socket.close(); });
socket.addEventListener("close", () => { seen.closed = true; done(seen); });
"""


def open_socket(browser, served):
    """What a page's own script sees of a WebSocket to the server: whether it
    opened, and the first message (the hello) if any. A refused upgrade (401,
    403) shows only as a socket that closes without opening."""
    browser.set_script_timeout(30)
    return browser.execute_async_script(OPEN_SOCKET, served.base.replace("http://", "ws://") + "/ws")


class OtherSite:
    """An empty page on another port of 127.0.0.1: same-site to the browser,
    so it sends the sign-in cookie with a socket opened from there, the way
    a hostile page on the same host would (cross-site WebSocket hijacking)."""

    def __enter__(self):
        import http.server
        import threading

        class Empty(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = b"<!doctype html><title>another site</title>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Empty)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def test_sockets_open_only_for_a_signed_in_page_of_this_site(served, browsers):
    browser = browsers()
    signed_in(browser, served, "alice")
    # Signed in (the cookie) on the server's own page: a socket opens and says who it acts as.
    mine = open_socket(browser, served)
    assert mine["opened"] and '"viewer":"alice"' in mine["messages"][0], mine

    # The same browser, cookie and all, on another site: the upgrade is refused (403).
    with OtherSite() as other:
        browser.get(other + "/")
        theirs = open_socket(browser, served)
    assert theirs == {"opened": False, "closed": True, "messages": []}, theirs
    wait_for(lambda: any("refused websocket: cross-origin" in line for line in served.stderr_lines),
             "the server's log line for the cross-origin upgrade")

    # A browser that never signed in, on the server's own 401 page: refused too (401).
    stranger = browsers()
    stranger.get(served.base + "/")
    assert "swipe link" in stranger.find_element(By.TAG_NAME, "body").text
    refused = open_socket(stranger, served)
    assert refused == {"opened": False, "closed": True, "messages": []}, refused
    wait_for(lambda: any("refused websocket: no sign-in token" in line for line in served.stderr_lines),
             "the server's log line for the upgrade without sign-in")


def test_sign_out_ends_the_sign_in_and_a_link_for_someone_else_is_refused(served, browsers):
    alice = browsers()
    signed_in(alice, served, "alice")
    old_link = served.link("alice")
    # Signed in as alice, a link for bob (a page could plant one) does not switch accounts: it says why.
    alice.get(served.link("bob"))
    assert "signed in as someone else" in alice.find_element(By.TAG_NAME, "body").text
    signed_in(alice, served, "alice")
    # Another browser of alice's stays open until she signs out here.
    other = browsers()
    signed_in(other, served, "alice")
    alice.find_element(By.ID, "sign-out").click()
    wait_for(lambda: "swipe link" in alice.find_element(By.TAG_NAME, "body").text, "the sign-in page after Sign out")
    # Her other page's socket is closed with 4001 and says so.
    wait_for(lambda: "Signed out" in other.find_element(By.ID, "status").text, "the other page signed out")
    # The links made before no longer sign in; now bob's link works in this browser.
    alice.get(old_link)
    assert "swipe link" in alice.find_element(By.TAG_NAME, "body").text
    signed_in(alice, served, "bob")
