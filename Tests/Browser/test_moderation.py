"""Moderation on the page (Documentation/Moderation.md): a moderator's
Moderation view lists the queue, shows a report with its evidence and
suspends the reported person, whose open page then shows "suspended" with
the reason (the socket closes with 4003); a warned person sees the warning
until they acknowledge it; someone without the role has no Moderation view.
axe-core finds no violation in the view or on the suspended page."""
import json
import subprocess

from selenium.webdriver.common.by import By

from conftest import screenshot, wait_for
from test_accessibility import violations
from test_serve import answers, signed_in


def swipe(served, *arguments):
    return subprocess.run([served.binary, *arguments, "--db", served.db], capture_output=True, text=True, check=True)


def test_a_moderator_suspends_a_signed_in_person_whose_page_says_why(served, browsers):
    swipe(served, "moderate", "grant", "alice")
    swipe(served, "report", "--as", "carol", "bob", "sends", "spam", "links")

    bob = browsers()
    signed_in(bob, served, "bob")
    assert not bob.find_element(By.ID, "show-moderation").is_displayed(), "bob holds no role"

    alice = browsers()
    signed_in(alice, served, "alice")
    moderation = wait_for(lambda: (lambda b: b if b.is_displayed() else None)(
        alice.find_element(By.ID, "show-moderation")), "the Moderation button for a moderator")
    moderation.click()
    item = wait_for(lambda: alice.find_elements(By.CSS_SELECTOR, ".moderation-open"), "the queue's one report")
    assert len(item) == 1
    assert item[0].text == "Report 1: bob, reported by carol"
    assert "sends spam links" in alice.find_element(By.ID, "moderation-queue").text
    assert violations(alice, "moderation-queue") == []
    item[0].click()
    wait_for(lambda: alice.find_element(By.ID, "moderation-item").is_displayed(), "the report with its evidence")
    facts = alice.find_element(By.ID, "moderation-facts").text
    assert "sends spam links" in facts and "Bob Builder" in facts, facts
    # The bio is evidence as the reported person wrote it: text, never HTML.
    assert "<img src=x onerror=alert(1)>" in facts
    assert violations(alice, "moderation-item") == []

    # No reason: refused on the page, nothing sent.
    alice.find_element(By.ID, "moderation-ban").click()
    assert alice.find_element(By.ID, "moderation-error").text == "Write the reason: the person is shown it."
    alice.find_element(By.ID, "moderation-reason").send_keys("Spam links in every message")
    alice.find_element(By.ID, "moderation-ban").click()
    wait_for(lambda: "bob is suspended for good: Spam links in every message"
             in alice.find_element(By.ID, "status").text, "the ban's answer on the moderator's page")
    screenshot(alice, "moderation-view.png")

    # bob's open page is told, and shows it instead of the deck.
    panel = wait_for(lambda: (lambda p: p if p.is_displayed() else None)(
        bob.find_element(By.ID, "suspended-panel")), "bob's page saying he is suspended")
    assert "Your account is suspended for good: Spam links in every message" in panel.text
    assert not bob.find_element(By.ID, "screen").is_displayed()
    screenshot(bob, "suspended.png")
    assert violations(bob, "suspended") == []

    # Every act is in the log, as alice; bob's link is void.
    log = json.loads(swipe(served, "moderate", "log", "--format", "json").stdout)
    assert [(e["moderator"], e["action"], e["target"]) for e in log] == [
        ("operator", "grant", "alice"), ("alice", "ban", "bob")]
    again = browsers()
    again.get(served.link("bob"))
    heading = wait_for(lambda: again.find_element(By.TAG_NAME, "h1"), "the page a new link for bob opens")
    assert heading.text == "Your account is suspended"
    assert "Spam links in every message" in again.find_element(By.TAG_NAME, "p").text


def test_a_warning_shows_until_acknowledged(served, browsers):
    swipe(served, "moderate", "warn", "erin", "--reason", "Be kind in your messages")
    erin = browsers()
    signed_in(erin, served, "erin")
    banner = wait_for(lambda: (lambda b: b if b.is_displayed() else None)(
        erin.find_element(By.ID, "warning-banner")), "the warning banner")
    assert "Be kind in your messages" in banner.text
    assert violations(erin, "warning") == []
    erin.find_element(By.ID, "warning-ack").click()
    wait_for(lambda: not erin.find_element(By.ID, "warning-banner").is_displayed(), "the banner gone")
    assert any(a.get("cmd") == "acknowledge" and a.get("ok") for a in answers(erin))
    erin.refresh()
    wait_for(lambda: any(a.get("cmd") == "deck" for a in answers(erin)), "the deck after a reload")
    assert not erin.find_element(By.ID, "warning-banner").is_displayed(), "acknowledged: not shown again"
