"""The "Me" view (Documentation/PersonalData.md) in a real browser: one's own
profile edited with labelled fields from the keyboard, a good value saved in
the database, a bad one refused next to its field in the importer's words
(the wording is the contract's, written here by hand), and no axe-core
violation."""
import os
import shutil
import sqlite3

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, screenshot, wait_for
from test_accessibility import violations
from test_serve import answers, signed_in


def stored(served, viewer):
    with sqlite3.connect(served.db) as db:
        return db.execute("SELECT name, age, city FROM profiles WHERE id = ?", (viewer,)).fetchone()


def test_editing_ones_profile_saves_it_and_shows_a_refusal_next_to_its_field(served, browsers):
    browser = browsers()
    signed_in(browser, served, "alice")
    browser.find_element(By.ID, "show-me").click()
    wait_for(lambda: browser.find_element(By.ID, "me-name").get_attribute("value") == "Alice Example",
             "the form filled with alice's profile")
    assert browser.switch_to.active_element.get_attribute("id") == "me-name", "the view opens on its first field"
    assert browser.find_element(By.ID, "me-city").get_attribute("value") == "Lisboa"
    assert violations(browser, "me") == []

    city = browser.find_element(By.ID, "me-city")
    city.clear()
    city.send_keys("Porto Novo")
    age = browser.find_element(By.ID, "me-age")
    age.clear()
    age.send_keys("17")
    # Keyboard only: Enter in a field submits the form.
    age.send_keys(Keys.ENTER)

    wait_for(lambda: stored(served, "alice")[2] == "Porto Novo", "the city saved in the database")
    error = wait_for(lambda: browser.find_element(By.ID, "me-error-age").text, "the age refused next to its field")
    assert error == 'age must be a whole number from 18 to 120, not "17"', error
    assert browser.find_element(By.ID, "me-age").get_attribute("aria-invalid") == "true"
    assert "me-error-age" in browser.find_element(By.ID, "me-age").get_attribute("aria-describedby")
    assert browser.find_element(By.ID, "me-error-city").text == ""
    assert stored(served, "alice") == ("Alice Example", 31, "Porto Novo"), "the refused age changed nothing"
    assert any(a.get("cmd") == "me_set" and a.get("tag") == {"field": "city"} and a.get("ok")
               for a in answers(browser))
    assert browser.find_element(By.ID, "me-saved").text == "Saved: city."
    # The page says who it acts as by name, not by id.
    assert browser.find_element(By.ID, "who").text == "Signed in as Alice Example"

    assert violations(browser, "me-refused") == []
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", browser.find_element(By.ID, "me-title"))
    path = screenshot(browser, "serve-me.png")
    if os.environ.get("SWIPE_UPDATE_DOCS"):
        shutil.copy(path, ROOT / "docs" / "serve-me.png")

    # Two fields saved at once are both said (it said "Saved: bio." alone).
    browser.find_element(By.ID, "me-age").clear()
    browser.find_element(By.ID, "me-age").send_keys("32")
    bio = browser.find_element(By.ID, "me-bio")
    bio.clear()
    bio.send_keys("I'm a \"night\" owl")
    browser.find_element(By.ID, "me-save").click()
    wait_for(lambda: browser.find_element(By.ID, "me-saved").text == "Saved: age, bio.", "both fields said saved")
    with sqlite3.connect(served.db) as db:
        assert db.execute("SELECT age, bio FROM profiles WHERE id = 'alice'").fetchone() == (32, "I'm a \"night\" owl")

    # Keys typed in the view never reach the deck behind it.
    browser.find_element(By.ID, "me-save").send_keys(Keys.ARROW_RIGHT)
    browser.find_element(By.ID, "me-save").send_keys(Keys.ESCAPE)
    wait_for(lambda: not browser.find_element(By.ID, "me-panel").is_displayed(), "the view closed by Escape")
    assert served.decisions("alice") == []
