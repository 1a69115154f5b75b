"""Every view of the page passes axe-core (from axe-selenium-python, which
ships it: nothing is fetched) with no violation of any impact: the deck, the
detail view, the Matches and Likes-you panels, and the pages a browser gets
without a sign-in or with another viewer's link. The keyboard reaches every
action, and what a screen reader hears is checked where sighted users see it.
"""
import json

from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, PEOPLE, wait_for
from test_serve import answers, signed_in, top_card


def violations(browser, view):
    """axe-core's violations on the page as it is now, all rules, all impacts."""
    axe = Axe(browser)
    axe.inject()
    result = axe.run()
    found = result["violations"]
    if found:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"axe-{view}.json").write_text(json.dumps(found, indent=2))
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found]


def test_the_deck_and_its_views_have_no_axe_violations(served, browsers):
    browser = browsers()
    signed_in(browser, served, "alice")
    assert violations(browser, "deck") == []
    # The top card is one keyboard stop that says who it is, as the picture
    # does: whoever the ranking put on top (conftest's PEOPLE).
    card = top_card(browser)
    assert card.get_attribute("tabindex") == "0"
    person = PEOPLE[card.get_attribute("data-profile")]
    label = card.get_attribute("aria-label")
    assert person["name"] in label and person["age"] in label, (person, label)

    # A drag past the threshold is heard as the stamp is seen (a live region).
    browser.execute_script("window.swipeDebug.send('drag', {dx: 160, dy: 0})")
    wait_for(lambda: browser.find_element(By.ID, "status").text.startswith("LIKE"), "LIKE announced")
    browser.execute_script("window.swipeDebug.send('drag', {dx: -320, dy: 0})")
    wait_for(lambda: browser.find_element(By.ID, "status").text.startswith("NOPE"), "NOPE announced")
    browser.execute_script("window.swipeDebug.send('cancel')")

    top_card(browser).send_keys(Keys.ENTER)
    wait_for(lambda: browser.find_element(By.ID, "detail").is_displayed(), "the detail view")
    assert violations(browser, "detail") == []
    browser.find_element(By.ID, "detail-back").click()
    wait_for(lambda: not browser.find_element(By.ID, "detail").is_displayed(), "the deck again")

    browser.find_element(By.ID, "show-matches").click()
    wait_for(lambda: browser.find_element(By.ID, "list-panel").is_displayed(), "the matches panel")
    assert violations(browser, "matches") == []
    browser.find_element(By.ID, "list-close").click()

    browser.find_element(By.ID, "show-likes").click()
    wait_for(lambda: browser.find_element(By.ID, "list-panel").is_displayed(), "the likes panel")
    assert violations(browser, "likes") == []


def test_the_pages_without_a_sign_in_have_no_axe_violations(served, browsers):
    browser = browsers()
    browser.get(served.base + "/")
    wait_for(lambda: "swipe link" in browser.find_element(By.TAG_NAME, "main").text, "the sign-in page")
    assert violations(browser, "signed-out") == []

    signed_in(browser, served, "alice")
    browser.get(served.link("bob"))
    wait_for(lambda: "sign out" in browser.find_element(By.TAG_NAME, "body").text.lower(), "the other-viewer page")
    assert violations(browser, "other-viewer") == []
