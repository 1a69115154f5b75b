"""What a page is told of other people, and what it asks for (issue 23
items 1 to 4): cards carry what the page shows and a distance rounded on
the server, never a place or preferences; photos never reach a third party;
a block from the other side withdraws the card; the Block button blocks the
person shown, whatever their id holds."""
import math
import socket
import sqlite3
import tempfile
import threading

import pytest
from selenium.webdriver.common.by import By

from conftest import Served, wait_for
from test_serve import answers, signed_in, top_card

HIDDEN = {"lat", "lon", "seeking", "age_min", "age_max", "max_km"}


class Listener:
    """A TCP port that counts the connections made to it (a tracking pixel's host)."""

    def __init__(self):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(16)
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()

    def close(self):
        self.socket.close()


@pytest.fixture
def pixel():
    listener = Listener()
    yield listener
    listener.close()


def serve(profiles, decisions=None):
    folder = tempfile.TemporaryDirectory(prefix="swipe-browser-")
    server = Served(folder.name, profiles=profiles, decisions=decisions)
    return folder, server


@pytest.fixture
def placed(pixel):
    """alice in Lisbon; bob 4.3 km north-east of her, with a photo on a third party's host."""
    profiles = f"""id,name,age,gender,city,bio,photos,interests,lat,lon,seeking,age_min,age_max,max_km
alice,Alice Example,31,f,Lisboa,Walks.,,hiking,38.7223,-9.1393,,18,99,
bob,Bob Builder,33,m,Lisboa,Builds.,https://127.0.0.1:{pixel.port}/bob.png,jazz,38.7500,-9.1100,f,25,40,30
carol,Carol Singer,29,f,Braga,Sings.,,music,,,,,,
"""
    # bob likes alice: he is on top of her deck (likers first).
    folder, server = serve(profiles, "viewer,profile,decision,decided_at\nbob,alice,like,2026-11-01T00:00:00.000Z\n")
    yield server
    server.stop()
    folder.cleanup()


def haversine_km(a, b):
    r = math.radians
    h = math.sin(r(b[0] - a[0]) / 2) ** 2 + math.cos(r(a[0])) * math.cos(r(b[0])) * math.sin(r(b[1] - a[1]) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(h)))


def test_cards_carry_what_the_page_shows_and_a_rounded_distance(placed, browsers, pixel):
    browser = browsers()
    signed_in(browser, placed, "alice")
    wait_for(lambda: top_card(browser).get_attribute("data-profile") == "bob", "bob on top")
    top_card(browser).click()
    wait_for(lambda: browser.find_element(By.ID, "detail").is_displayed(), "bob's detail page")
    told = [p for a in answers(browser) for p in a.get("profiles", [])]
    told += [a["detail"] for a in answers(browser) if a.get("detail")]
    assert {p["id"] for p in told} >= {"bob", "carol"}
    for profile in told:
        assert not HIDDEN & set(profile), profile
    bob = next(p for p in told if p["id"] == "bob")
    true_km = haversine_km((38.7223, -9.1393), (38.7500, -9.1100))
    assert isinstance(bob["distance_km"], int) and bob["distance_km"] >= 1
    assert abs(bob["distance_km"] - true_km) <= 2.5, (bob["distance_km"], true_km)
    carol = next(p for p in told if p["id"] == "carol")
    assert carol["distance_km"] is None  # carol has no place
    meta = browser.find_element(By.ID, "detail-meta").text
    assert f"{bob['distance_km']} km away" in meta, meta
    # bob's photo lives on a third party's host: the page never asks it (no
    # tracking pixel); it shows his initial instead.
    assert pixel.connections == 0
    tile = browser.find_element(By.CSS_SELECTOR, "#detail-photos .tile")
    assert tile.find_elements(By.TAG_NAME, "img") == []
    assert tile.text == "B"


@pytest.fixture
def odd_ids():
    profiles = '''id,name,age,gender,city,bio,photos,interests
alice,Alice Example,31,f,Lisboa,,,
"""bob""",Quoted Bob,33,m,Porto,,,
bob,Plain Bob,34,m,Porto,,,
sp ace,Spacey,29,f,Braga,,,
it's,Apostrophe,30,f,Faro,,,
back\\slash,Backslash,30,f,Faro,,,
'''
    # The odd ids like alice in the order the test blocks them: her deck
    # deals them first, in that order (likers first), before plain bob.
    decisions = '''viewer,profile,decision,decided_at
"""bob""",alice,like,2026-11-01T00:00:01.000Z
sp ace,alice,like,2026-11-01T00:00:02.000Z
it's,alice,like,2026-11-01T00:00:03.000Z
back\\slash,alice,like,2026-11-01T00:00:04.000Z
'''
    folder, server = serve(profiles, decisions)
    yield server
    server.stop()
    folder.cleanup()


def at_rest(browser):
    return browser.execute_script("return document.getAnimations().length === 0")


def settled_top(browser):
    """The profile on top once the deck is at rest, on the deck (not a detail page); else None."""
    if not at_rest(browser) or browser.find_element(By.ID, "detail").is_displayed():
        return None
    return top_card(browser).get_attribute("data-profile") or None


def blocked_by(server, viewer):
    with sqlite3.connect(server.db) as db:
        return [row[0] for row in db.execute(
            "SELECT t.id FROM blocks b JOIN profiles v ON v.key = b.blocker JOIN profiles t ON t.key = b.blocked "
            "WHERE v.id = ? ORDER BY b.blocked_at, t.id", (viewer,))]


def test_the_block_button_blocks_the_person_shown_whatever_their_id_holds(odd_ids, browsers):
    browser = browsers()
    signed_in(browser, odd_ids, "alice")
    expected = []
    for person in ['"bob"', "sp ace", "it's", "back\\slash"]:
        # Pass on whoever comes before `person`, then open them and block.
        while (top := wait_for(lambda: settled_top(browser), "a settled deck")) != person:
            browser.find_element(By.ID, "hate").click()
            wait_for(lambda: settled_top(browser) not in (None, top), f"past {top}")
        top_card(browser).click()
        wait_for(lambda: browser.find_element(By.ID, "detail").is_displayed()
                 and browser.find_element(By.ID, "detail").get_attribute("data-profile") == person,
                 f"{person}'s detail page")
        browser.find_element(By.ID, "detail-block").click()
        expected.append(person)
        wait_for(lambda: sorted(blocked_by(odd_ids, "alice")) == sorted(expected), f"{person} blocked")
        last = answers(browser)[-1]
        assert last["ok"] is True, last
    assert "bob" not in blocked_by(odd_ids, "alice")


def test_a_block_from_the_other_side_withdraws_the_card_from_an_open_page(liked, browsers):
    alice, bob = browsers(), browsers()
    signed_in(alice, liked, "alice")
    signed_in(bob, liked, "bob")
    # He liked her before: likers come first.
    wait_for(lambda: top_card(alice).get_attribute("data-profile") == "bob", "bob on top of alice's deck")
    # bob blocks alice from his page (by command, as the REPL would).
    bob.execute_script("window.swipeDebug.send('block', {id: 'alice'})")
    wait_for(lambda: blocked_by(liked, "bob") == ["alice"], "bob's block stored")
    # alice's open page loses bob's card without her doing anything.
    wait_for(lambda: top_card(alice).get_attribute("data-profile") not in ("bob", ""), "bob's card withdrawn")
    shown = [c.get_attribute("data-profile") for c in alice.find_elements(By.CSS_SELECTOR, ".card")
             if c.is_displayed()]
    assert "bob" not in shown
    for answer in answers(alice):
        assert "blocked" not in answer.get("error", ""), answer
