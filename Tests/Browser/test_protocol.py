"""Every frame the page sends is a command object valid against the
protocol's JSON Schema (Documentation/command.schema.json; issue 37): no
JavaScript builds a command line. The frames are read from Chromium's own
log of the WebSocket (Network.webSocketFrameSent), not from the page's
bookkeeping, while a person drags, likes, opens a card, chats, reports the
wording of a name and edits their profile."""
import json

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, wait_for
from test_conversations import matched  # noqa: F401 (a fixture)
from test_serve import answers, signed_in, top_card

SCHEMA = json.loads((ROOT / "Documentation" / "command.schema.json").read_text())
BRANCHES = {branch["properties"]["cmd"]["const"]: branch for branch in SCHEMA["oneOf"]}


def problems(frame):
    """Why `frame` (the text sent) is not a valid command object; [] when it is."""
    try:
        value = json.loads(frame)
    except ValueError:
        return [f"not JSON: {frame[:80]}"]
    if not isinstance(value, dict):
        return [f"not an object: {frame[:80]}"]
    branch = BRANCHES.get(value.get("cmd"))
    if branch is None:
        return [f"unknown cmd: {frame[:80]}"]
    found = [f"missing {key}: {frame[:80]}" for key in branch["required"] if key not in value]
    found += [f"unexpected {key}: {frame[:80]}" for key in value if key not in branch["properties"]]
    for key, item in value.items():
        kind = branch["properties"].get(key, {}).get("type")
        if kind == "string" and not isinstance(item, str):
            found.append(f"{key} is not a string: {frame[:80]}")
        if kind == "number" and (isinstance(item, bool) or not isinstance(item, (int, float))):
            found.append(f"{key} is not a number: {frame[:80]}")
    return found


def frames_sent(browser):
    sent = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.webSocketFrameSent":
            sent.append(message["params"]["response"]["payloadData"])
    return sent


def test_the_validator_refuses_what_the_schema_refuses():
    assert problems('{"cmd":"say","to":"p-2","text":"hi","tag":{"client":"k"}}') == []
    assert problems('say p-2 hi')
    assert problems('{"cmd":"fly"}')
    assert problems('{"cmd":"say","to":"p-2"}')
    assert problems('{"cmd":"drag","dx":"60","dy":0}')
    assert problems('{"cmd":"like","id":"x","color":"red"}')


def test_every_frame_the_page_sends_is_a_schema_valid_command(matched, browsers):
    alice = browsers()
    signed_in(alice, matched, "alice")
    frames = []
    # Open the card's detail page, close it, then drag it a little and let go (it
    # springs back), then like it.
    top_card(alice).click()
    wait_for(lambda: alice.find_element(By.ID, "detail").is_displayed(), "the detail page")
    alice.find_element(By.ID, "detail-back").click()
    wait_for(lambda: not alice.find_element(By.ID, "detail").is_displayed(), "the detail page closed")
    card = top_card(alice)
    ActionChains(alice).click_and_hold(card).move_by_offset(40, 0).release().perform()
    wait_for(lambda: any(a.get("cmd") == "release" for a in answers(alice)), "the release answered")
    alice.find_element(By.ID, "like").click()
    wait_for(lambda: any(a.get("cmd") == "like" for a in answers(alice)), "the like answered")
    # Chat: open the conversation with bob and send a message with quotes.
    alice.find_element(By.ID, "show-matches").click()
    row = wait_for(lambda: next((b for b in alice.find_elements(By.CSS_SELECTOR, "#list .list-row")
                                 if "Bob Builder" in b.text), None), "bob in the inbox")
    row.click()
    wait_for(lambda: alice.find_element(By.ID, "chat-panel").is_displayed(), "the conversation")
    alice.find_element(By.ID, "chat-input").send_keys("I'm free, \"really\"" + Keys.ENTER)
    wait_for(lambda: any(a.get("cmd") == "say" and a.get("ok") for a in answers(alice)), "the message sent")
    alice.find_element(By.ID, "chat-back").click()
    # Me: change the city.
    alice.find_element(By.ID, "show-me").click()
    city = wait_for(lambda: alice.find_element(By.ID, "me-city"), "the me form")
    wait_for(lambda: city.get_attribute("value") != "", "the form filled")
    city.clear()
    city.send_keys("Porto Novo" + Keys.ENTER)
    wait_for(lambda: any(a.get("cmd") == "me_set" and a.get("ok") for a in answers(alice)), "the city saved")
    frames += frames_sent(alice)

    cmds = {json.loads(frame)["cmd"] for frame in frames if not problems(frame)}
    for needed in ("deck", "drag", "release", "like", "open", "back", "inbox", "chat", "say", "me", "me_set"):
        assert needed in cmds, f"{needed} was not sent: {sorted(cmds)}"
    bad = [problem for frame in frames for problem in problems(frame)]
    assert bad == [], bad
