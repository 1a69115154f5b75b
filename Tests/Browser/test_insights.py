"""Insights on the page (Documentation/Insights.md): a person's Me view
shows their own rows; a moderator's Insights view shows the whole market's,
each drawn as inline SVG by the page with its numbers in a table, matching
what `swipe insights` prints for the same question. axe-core finds no
violation in either; someone without the role has no Insights view."""
import datetime
import json
import pathlib
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import screenshot, wait_for
from test_accessibility import violations
from test_serve import signed_in

ROOT = pathlib.Path(__file__).resolve().parents[2]


def swipe(served, *arguments):
    return subprocess.run([served.binary, *arguments, "--db", served.db], capture_output=True, text=True, check=True)


def ledger(served):
    """Today: alice and bob like each other, alice likes carol who superlikes
    her back (two matches), dave likes alice, erin nopes her; bob writes
    first and alice replies."""
    now = datetime.datetime.now(datetime.timezone.utc)
    # Seconds apart, ending now: the same UTC day unless run in the day's first 7 s.
    at = lambda seconds: (now - datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    rows = [("alice", "bob", "like", 6), ("bob", "alice", "like", 5), ("alice", "carol", "like", 4),
            ("carol", "alice", "superlike", 3), ("dave", "alice", "like", 2), ("erin", "alice", "hate", 1)]
    path = pathlib.Path(served.db).parent / "today.csv"
    path.write_text("viewer,profile,decision,decided_at\n" + "".join(f"{v},{p},{d},{at(m)}\n" for v, p, d, m in rows))
    swipe(served, "import", "--decisions", str(path), "--quiet")
    subprocess.run([served.binary, "send", "--db", served.db, "--as", "bob", "alice", "hi"], check=True)
    subprocess.run([served.binary, "send", "--db", served.db, "--as", "alice", "bob", "hello"], check=True)


def table(browser, root):
    """The view's table as {period: {column: text}}."""
    head = [th.text for th in browser.find_elements(By.CSS_SELECTOR, f"#{root} .insights-table thead th")]
    out = {}
    for tr in browser.find_elements(By.CSS_SELECTOR, f"#{root} .insights-table tbody tr"):
        cells = [tr.find_element(By.TAG_NAME, "th").text] + [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        out[cells[0]] = dict(zip(head[1:], cells[1:]))
    return out


def test_me_shows_a_persons_own_rows_as_swipe_insights_counts_them(served, browsers):
    ledger(served)
    expected = json.loads(swipe(served, "insights", "--as", "alice", "--by", "week", "--format", "json").stdout)
    alice = browsers()
    signed_in(alice, served, "alice")
    assert not alice.find_element(By.ID, "show-insights").is_displayed(), "alice holds no role"
    alice.find_element(By.ID, "show-me").click()
    shown = wait_for(lambda: table(alice, "me-insights") or None, "the Me view's activity table")
    assert list(shown) == [row["period"] for row in expected], "every week of the range, as swipe insights lists"
    this_week = expected[-1]
    assert this_week["likes"] == 2 and this_week["matches"] == 2 and this_week["conversations"] == 1, this_week
    assert shown[this_week["period"]] == {"likes": "2", "matches": "2", "conversations": "1"}, shown
    title = alice.find_element(By.CSS_SELECTOR, "#me-insights svg title").get_attribute("textContent")
    assert title.startswith("matches per week, 12 weeks from ") and "the largest is 2" in title, title
    assert len(alice.find_elements(By.CSS_SELECTOR, "#me-insights svg rect.bar")) == 12
    assert violations(alice, "me-insights") == []


def test_a_moderator_reads_the_market_and_picks_the_measure(served, browsers):
    ledger(served)
    swipe(served, "moderate", "grant", "dave")
    expected = json.loads(swipe(served, "insights", "--by", "day", "--format", "json").stdout)
    dave = browsers()
    signed_in(dave, served, "dave")
    button = wait_for(lambda: (lambda b: b if b.is_displayed() else None)(dave.find_element(By.ID, "show-insights")),
                      "the Insights button for a moderator")
    button.click()
    shown = wait_for(lambda: table(dave, "insights-panel") or None, "the market's table")
    assert list(shown) == [row["period"] for row in expected]
    today = expected[-1]
    # The market today: 4 likes, 1 superlike, 1 nope; two matches.
    assert (today["likes"], today["superlikes"], today["hates"], today["matches"]) == (4, 1, 1, 2), today
    assert shown[today["period"]]["likes"] == "4" and shown[today["period"]]["matches"] == "2"
    Select(dave.find_element(By.ID, "insights-measure")).select_by_value("superlikes")
    title = dave.find_element(By.CSS_SELECTOR, "#insights-panel svg title").get_attribute("textContent")
    assert title.startswith("superlikes per day, 12 days from ") and "the largest is 1" in title, title
    assert shown.keys() == table(dave, "insights-panel").keys()
    assert table(dave, "insights-panel")[today["period"]]["superlikes"] == "1"
    screenshot(dave, "insights-view.png")
    assert violations(dave, "insights-panel") == []
