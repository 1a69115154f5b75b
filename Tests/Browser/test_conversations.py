"""After the match, in a real browser (issue 21; Documentation/Serve.md,
"Conversations on the page"): the Matches panel is the inbox, a row opens
the conversation, messages go both ways between two signed-in viewers and
from the command line, the unread badge counts, Likes-you rows open the
person and like back, keys never act on the deck behind a panel, and a line
under the top card's name says why it is dealt. Oracles come from the
contract: what the database holds, and the text the people typed."""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, Served, screenshot, wait_for
from test_accessibility import violations

# alice and bob match (each liked the other); carol likes alice and waits.
DECISIONS = """viewer,profile,decision,decided_at
alice,bob,like,2026-11-20T10:00:00.000Z
bob,alice,like,2026-11-20T10:05:00.000Z
carol,alice,superlike,2026-11-20T11:00:00.000Z
"""


@pytest.fixture
def matched():
    with tempfile.TemporaryDirectory(prefix="swipe-browser-chat-") as folder:
        server = Served(folder, decisions=DECISIONS)
        yield server
        server.stop()
        assert server.process.returncode == 0, "".join(server.stderr_lines)


def debug(browser, what):
    return browser.execute_script(f"return window.swipeDebug ? window.swipeDebug.{what} : []")


def signed_in(browser, served, viewer):
    browser.get(served.link(viewer))
    wait_for(lambda: any(a.get("cmd") == "deck" for a in debug(browser, "answers")), f"{viewer}'s first deck")
    # chat.js asks for the inbox once the socket says hello: the badge is counted.
    wait_for(lambda: browser.execute_script("return window.swipeChat && 'unread' in window.swipeChat"), "chat.js")


def messages_in_db(served):
    with sqlite3.connect(served.db) as db:
        return db.execute(
            "SELECT s.id, r.id, m.seq, m.body, m.read_at IS NOT NULL FROM messages m "
            "JOIN profiles s ON s.key = m.sender JOIN profiles r ON r.key = m.recipient ORDER BY m.key").fetchall()


def chat_texts(browser):
    return [li.find_element(By.CSS_SELECTOR, ".text").text
            for li in browser.find_elements(By.CSS_SELECTOR, "#chat-log li[data-seq]")]


def open_inbox_row(browser, name):
    browser.find_element(By.ID, "show-matches").click()
    row = wait_for(lambda: next((b for b in browser.find_elements(By.CSS_SELECTOR, "#list .list-row")
                                 if name in b.text), None), f"{name} in the inbox")
    return row


def test_the_inbox_shows_a_match_and_two_viewers_talk(matched, browsers):
    alice, bob = browsers(), browsers(width=375, height=667)
    signed_in(alice, matched, "alice")
    signed_in(bob, matched, "bob")

    row = open_inbox_row(alice, "Bob Builder")
    assert violations(alice, "inbox") == []
    assert "New match: say hello" in row.text
    # A relative time, not a raw timestamp.
    time = row.find_element(By.TAG_NAME, "time")
    assert time.get_attribute("datetime") == "2026-11-20T10:05:00.000Z"
    assert "2026-11-20T" not in time.text and time.text
    # Rows are reachable by keyboard: the first row has focus, Enter opens it.
    assert alice.switch_to.active_element == row
    row.send_keys(Keys.ENTER)
    wait_for(lambda: alice.find_element(By.ID, "chat-panel").is_displayed(), "alice's conversation with bob")
    assert alice.find_element(By.ID, "chat-name").text == "Bob Builder"
    assert alice.find_element(By.CSS_SELECTOR, ".chat-head .chat-photo").text == "B"  # the initial

    text = "hi <b>bob</b> \u202e ❤️"
    alice.find_element(By.ID, "chat-input").send_keys(text + Keys.ENTER)
    wait_for(lambda: messages_in_db(matched) == [("alice", "bob", 1, text, 0)], "alice's message stored once")
    wait_for(lambda: chat_texts(alice) == [text], "alice's message in her log")

    # bob hears of it: the badge counts it, the inbox shows it, the conversation shows it as text.
    badge = bob.find_element(By.CSS_SELECTOR, "#show-matches .badge")
    wait_for(lambda: badge.is_displayed() and badge.text == "1", "the unread badge on bob's Matches")
    row = open_inbox_row(bob, "Alice Example")
    assert text in row.text
    row.click()
    wait_for(lambda: chat_texts(bob) == [text], "alice's message in bob's conversation")
    assert bob.find_elements(By.CSS_SELECTOR, "#chat-log b") == []
    wait_for(lambda: messages_in_db(matched)[0][4] == 1, "reading marked it read")
    wait_for(lambda: not badge.is_displayed(), "bob's badge cleared")

    # bob answers; alice's open conversation shows it at once, and reads it.
    bob.find_element(By.ID, "chat-input").send_keys("hello alice" + Keys.ENTER)
    wait_for(lambda: chat_texts(alice) == [text, "hello alice"], "bob's answer pushed to alice")
    wait_for(lambda: [m[4] for m in messages_in_db(matched)] == [1, 1], "alice's open chat read it")
    assert violations(alice, "conversation") == []
    screenshot(alice, "serve-chat.png")
    if os.environ.get("SWIPE_UPDATE_DOCS"):
        shutil.copy(screenshot(alice, "serve-chat.png"), ROOT / "docs" / "serve-chat.png")

    # Another process: `swipe send` from the command line reaches bob's open page.
    subprocess.run([matched.binary, "send", "--db", matched.db, "--as", "alice", "bob", "from the terminal"],
                   check=True, capture_output=True)
    wait_for(lambda: chat_texts(bob)[-1:] == ["from the terminal"], "a CLI message pushed to bob's page")
    assert [m[2] for m in messages_in_db(matched)] == [1, 2, 3]


# The twelve hostile texts of Tests/Support/HostileTexts.swift (issue 37).
HOSTILE = [
    "I'm free at 8, aren't you?",
    'she said "maybe"  and "quoted"  x',
    'C:\\path\\to\\file and a \\" and \\\\ too',
    "runs   of     spaces   inside",
    "\u0301a leading combining mark",
    "family \U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466 and a flag \U0001F3F3\ufe0f\u200d\U0001F308",
    "\u05e9\u05dc\u05d5\u05dd \u05e2\u05dc\u05d9\u05db\u05dd and \u0645\u0631\u062d\u0628\u0627 \u0628\u0643\u0645",
    "see you --id 42 later",
    "/back is only a word here",
    "<script>alert('x')</script> & <b>bold</b>",
    "a\ttab inside",
    "0123456789" * 200,
]


def test_hostile_texts_sent_from_the_page_are_stored_as_typed(matched, browsers):
    # A burst of messages to one person: the rule messages-per-minute is test_moderation's.
    subprocess.run([matched.binary, "rules", "--db", matched.db, "set", "messages-per-minute", "1000000"], check=True)
    alice = browsers()
    signed_in(alice, matched, "alice")
    open_inbox_row(alice, "Bob Builder").click()
    wait_for(lambda: alice.find_element(By.ID, "chat-panel").is_displayed(), "alice's conversation with bob")
    for count, text in enumerate(HOSTILE, start=1):
        # Typed into the box as a person would paste it (send_keys cannot type outside the BMP).
        alice.execute_script(
            "const box = document.getElementById('chat-input'); box.value = arguments[0];"
            "box.form.requestSubmit();", text)
        wait_for(lambda: len(messages_in_db(matched)) == count, f"message {count} stored")
    assert [m[3] for m in messages_in_db(matched)] == HOSTILE


def test_a_send_that_failed_is_retried_with_the_same_client_id(matched, browsers):
    alice = browsers()
    signed_in(alice, matched, "alice")
    open_inbox_row(alice, "Bob Builder").click()
    wait_for(lambda: alice.find_element(By.ID, "chat-input").is_enabled(), "the composer")
    # The first attempt's answer is lost: the page is told it failed (as after a dropped
    # connection), though the server stored it. The push that tells the sender's own
    # pages of the stored message is lost on the same wire.
    alice.execute_script("""
      const parse = JSON.parse;
      JSON.parse = function (text, ...rest) {
        const value = parse.call(this, text, ...rest);
        if (value && value.event === 'message' && value.mine && !window.lostPush) {
          window.lostPush = true;
          return { event: 'lost' };
        }
        return value;
      };""")
    alice.execute_script("""
      const page = window.swipePage, original = page.claim;
      page.claim = (answer) => {
        if (answer.cmd === 'say' && !window.lostOnce) {
          window.lostOnce = true;
          window.swipePage.claim = original;
          const failed = Object.assign({}, answer, { ok: false, error: 'the connection was lost' });
          delete failed.message;
          setTimeout(() => window.swipeDebugChat(failed), 0);
          return true;
        }
        return original(answer);
      };""")
    alice.execute_script("window.swipeDebugChat = (a) => window.swipeChat.answer(a)")
    alice.find_element(By.ID, "chat-input").send_keys("only once" + Keys.ENTER)
    retry = wait_for(lambda: alice.find_element(By.CSS_SELECTOR, "#chat-log .retry"), "the retry button")
    assert messages_in_db(matched) == [("alice", "bob", 1, "only once", 0)]
    retry.click()
    wait_for(lambda: chat_texts(alice) == ["only once"], "the retry answered with the stored message")
    assert messages_in_db(matched) == [("alice", "bob", 1, "only once", 0)], "stored once"
    sends = debug(alice, "sent")
    says = [json.loads(s) for s in sends if json.loads(s)["cmd"] == "say"]
    assert len(says) == 2 and says[0] == says[1], "the retry sends the same client id"
    assert says[0]["client_id"] and says[0]["text"] == "only once"


def test_keys_never_act_on_the_deck_behind_a_panel(matched, browsers):
    alice = browsers()
    signed_in(alice, matched, "alice")
    body = alice.find_element(By.TAG_NAME, "body")

    def sent_decisions():
        return [s for s in debug(alice, "sent") if json.loads(s)["cmd"] in ("like", "hate", "superlike", "undo")]

    # The inbox open: → ← ↑ Backspace do nothing to the deck.
    open_inbox_row(alice, "Bob Builder")
    for key in (Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_UP, Keys.BACKSPACE):
        alice.switch_to.active_element.send_keys(key)
    # A conversation open, focus off the composer: the same.
    alice.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(lambda: alice.find_element(By.ID, "chat-panel").is_displayed(), "the conversation")
    alice.find_element(By.ID, "chat-name").click()
    for key in (Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_UP):
        body.send_keys(key)
    # Escape leaves the conversation for the inbox, and the inbox for the deck.
    body.send_keys(Keys.ESCAPE)
    wait_for(lambda: not alice.find_element(By.ID, "chat-panel").is_displayed(), "the conversation closed")
    wait_for(lambda: alice.find_element(By.ID, "list-panel").is_displayed(), "back in the inbox")
    alice.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(lambda: not alice.find_element(By.ID, "list-panel").is_displayed(), "the inbox closed")
    # A command that goes through the same socket after the keys: had a key
    # sent anything, its answer would have come first.
    count = len(debug(alice, "answers"))
    alice.execute_script("window.swipeDebug.send('deck')")
    wait_for(lambda: len(debug(alice, "answers")) > count, "the deck answered")
    assert sent_decisions() == []
    assert matched.decisions("alice") == [("bob", "like", "import", None)]
    # In front of nothing, → likes the top card again.
    body.send_keys(Keys.ARROW_RIGHT)
    wait_for(lambda: len(matched.decisions("alice")) == 2, "→ on the deck likes")


def test_a_liker_opens_from_likes_you_and_is_liked_back(matched, browsers):
    alice = browsers()
    signed_in(alice, matched, "alice")
    alice.find_element(By.ID, "show-likes").click()
    row = wait_for(lambda: next((b for b in alice.find_elements(By.CSS_SELECTOR, "#list .list-row")
                                 if "Carol Singer" in b.text), None), "carol in Likes you")
    assert "Superliked you" in row.text
    row.send_keys(Keys.ENTER)
    panel = wait_for(lambda: alice.find_element(By.ID, "person-panel").is_displayed()
                     and alice.find_element(By.ID, "person-panel"), "carol's page")
    assert panel.find_element(By.ID, "person-name").text == "Carol Singer"
    assert violations(alice, "person") == []
    assert "Sings." in panel.text
    # Keys do not reach the deck behind her page either.
    alice.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    panel.find_element(By.XPATH, ".//button[normalize-space()='♥ Like back']").click()
    # (By the deck's button when carol is its top card, as likers come first; else by detail.)
    wait_for(lambda: [d for d in matched.decisions("alice") if d[0] == "carol" and d[1] == "like" and d[3] is None],
             "the like back stored")
    assert [d for d in matched.decisions("alice") if d[1] == "hate"] == []
    banner = wait_for(lambda: alice.find_element(By.ID, "match-banner").is_displayed()
                      and alice.find_element(By.ID, "match-banner"), "the match banner")
    assert "Carol Singer" in banner.text


def test_a_line_under_the_name_says_why_the_card_is_dealt(liked, browsers):
    """bob is alice's top card because he likes her (likers come first), and
    the line says so first, as `why` does (README "Ranking")."""
    alice = browsers()
    signed_in(alice, liked, "alice")
    top = wait_for(lambda: alice.find_element(By.CSS_SELECTOR, ".card[data-state='first']"), "the top card")
    assert top.get_attribute("data-profile") == "bob"
    why = wait_for(lambda: top.find_element(By.CSS_SELECTOR, ".why").text, "the why line")
    assert why.split(" · ")[0] == "likes you", why
    assert "<" not in why


def test_an_unmatch_closes_the_conversation_on_the_other_page(matched, browsers):
    alice, bob = browsers(), browsers(width=375, height=667)
    signed_in(alice, matched, "alice")
    signed_in(bob, matched, "bob")
    open_inbox_row(bob, "Alice Example").click()
    wait_for(lambda: bob.find_element(By.ID, "chat-input").is_enabled(), "bob's conversation")
    open_inbox_row(alice, "Bob Builder").click()
    wait_for(lambda: alice.find_element(By.ID, "chat-panel").is_displayed(), "alice's conversation")
    unmatch = alice.find_element(By.ID, "chat-unmatch")
    unmatch.click()
    unmatch.click()  # the second press confirms
    wait_for(lambda: not bob.find_element(By.ID, "chat-input").is_enabled(), "bob's composer closed")
    assert "ended" in bob.find_element(By.ID, "chat-notice").text
    assert not alice.find_element(By.ID, "chat-input").is_enabled()


def test_a_match_made_by_a_repl_in_another_process_reaches_the_open_page(pair, browsers):
    """The issue's case: the page open as bob on `swipe serve --db x.sqlite`, and
    `printf 'like\\n' | swipe --db x.sqlite --as alice` in another process."""
    bob = browsers()
    signed_in(bob, pair, "bob")
    bob.find_element(By.ID, "like").click()  # bob likes alice, his one card
    wait_for(lambda: pair.decisions("bob") == [("alice", "like", "button", None)], "bob's like stored")
    out = subprocess.run([pair.binary, "--db", pair.db, "--as", "alice"], input="like\n",
                         capture_output=True, text=True, check=True)
    assert "It's a match!" in out.stdout, out.stdout
    banner = wait_for(lambda: bob.find_element(By.ID, "match-banner").is_displayed()
                      and bob.find_element(By.ID, "match-banner"), "the match pushed to bob's page")
    assert banner.get_attribute("data-profile") == "alice"
    assert "Alice Example" in banner.text


def test_a_report_from_the_conversation_reports_blocks_and_closes_it(matched, browsers):
    """The conversation's Report button (issue 21, "report from a chat"): a
    keyboard stop after Unmatch, it asks for a reason (Escape leaves the
    question, not the chat), and sending it stores the report with the
    conversation, blocks bob, closes alice's chat and bob's open composer."""
    alice, bob = browsers(), browsers(width=375, height=667)
    subprocess.run([matched.binary, "send", "--db", matched.db, "--as", "bob", "alice", "a line to report"],
                   check=True, capture_output=True)
    signed_in(alice, matched, "alice")
    signed_in(bob, matched, "bob")
    open_inbox_row(bob, "Alice Example").click()
    wait_for(lambda: bob.find_element(By.ID, "chat-input").is_enabled(), "bob's conversation")
    open_inbox_row(alice, "Bob Builder").click()
    wait_for(lambda: chat_texts(alice) == ["a line to report"], "alice's conversation with bob")

    # Reached by Tab from Unmatch, labelled, and Enter opens the question.
    alice.find_element(By.ID, "chat-unmatch").send_keys(Keys.TAB)
    report = alice.switch_to.active_element
    assert report.get_attribute("id") == "chat-report" and report.text == "Report"
    assert report.get_attribute("aria-expanded") == "false"
    report.send_keys(Keys.ENTER)
    reason = wait_for(lambda: alice.find_element(By.ID, "chat-report-reason").is_displayed()
                      and alice.find_element(By.ID, "chat-report-reason"), "the reason asked")
    assert alice.switch_to.active_element == reason
    label = alice.find_element(By.CSS_SELECTOR, "label[for='chat-report-reason']").text
    assert label == "Why are you reporting Bob Builder?"
    assert report.get_attribute("aria-expanded") == "true"
    assert violations(alice, "report") == []
    screenshot(alice, "serve-chat-report.png")

    # Escape leaves the question and keeps the conversation open.
    reason.send_keys(Keys.ESCAPE)
    wait_for(lambda: not reason.is_displayed(), "the question closed")
    assert alice.find_element(By.ID, "chat-panel").is_displayed()
    assert alice.switch_to.active_element == report
    with sqlite3.connect(matched.db) as db:
        assert db.execute("SELECT count(*) FROM reports").fetchone() == (0,)

    report.send_keys(Keys.ENTER)
    wait_for(lambda: reason.is_displayed(), "the question again")
    reason.send_keys("rude <b>messages</b>" + Keys.ENTER)
    wait_for(lambda: not alice.find_element(By.ID, "chat-panel").is_displayed(), "alice's chat closed")
    wait_for(lambda: "Reported Bob Builder" in alice.find_element(By.ID, "status").text, "the report announced")
    with sqlite3.connect(matched.db) as db:
        assert db.execute(
            "SELECT a.id, b.id, r.reason FROM reports r JOIN profiles a ON a.key = r.reporter "
            "JOIN profiles b ON b.key = r.reported").fetchall() == [("alice", "bob", "rude <b>messages</b>")]
        assert db.execute(
            "SELECT a.id, b.id FROM blocks k JOIN profiles a ON a.key = k.blocker "
            "JOIN profiles b ON b.key = k.blocked").fetchall() == [("alice", "bob")]
    out = subprocess.run([matched.binary, "reports", "--db", matched.db, "--messages", "--format", "jsonl"],
                         check=True, capture_output=True, text=True).stdout
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["a line to report"]
    # bob's open conversation ends too (the match is over); alice's inbox no longer lists him.
    wait_for(lambda: not bob.find_element(By.ID, "chat-input").is_enabled(), "bob's composer closed")
    wait_for(lambda: alice.find_element(By.ID, "list-panel").is_displayed(), "alice back in her inbox")
    wait_for(lambda: "Bob Builder" not in alice.find_element(By.ID, "list").text, "bob gone from alice's inbox")
