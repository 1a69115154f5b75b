""""Your data" in the Me view (Documentation/PersonalData.md): "Download my
data" gives the browser the signed-in viewer's export document as a file,
and "Erase my account…" erases them only after a dialog in which their id is
typed again; the page then says it is erased and signed out, and the
sign-in link no longer opens it. axe-core finds no violation in the view,
the dialog, or the page once erased."""
import json
import os
import shutil
import sqlite3
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, screenshot, wait_for
from test_accessibility import violations
from test_serve import answers, signed_in

FETCH_EXPORT = """
const done = arguments[arguments.length - 1];
fetch('/me/export').then(async (r) => done({
  status: r.status, type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'),
  cache: r.headers.get('cache-control'), body: await r.text()
})).catch((e) => done({error: String(e)}));
"""


def open_me(browser):
    browser.find_element(By.ID, "show-me").click()
    wait_for(lambda: browser.find_element(By.ID, "me-name").get_attribute("value") == "Alice Example",
             "the Me view filled with alice's profile")


def test_download_my_data_is_the_viewers_export_document(served, browsers):
    browser = browsers()
    signed_in(browser, served, "alice")
    open_me(browser)
    link = browser.find_element(By.ID, "me-export")
    assert link.text == "Download my data"
    assert link.get_attribute("href") == served.base + "/me/export"
    assert link.get_attribute("download") is not None
    got = browser.execute_async_script(FETCH_EXPORT)
    assert got.get("status") == 200, got
    assert got["type"] == "application/json; charset=utf-8"
    assert got["disposition"] == 'attachment; filename="swipe-export-alice.json"'
    assert got["cache"] == "no-store"
    document = json.loads(got["body"])
    assert document["format"] == "swipe-personal-data"
    assert document["viewer"] == "alice"
    assert document["profile"]["name"] == "Alice Example"
    assert document["profile"]["bio"] == "Likes long walks.\nAnd <b>HTML</b> that must stay text."
    # The same document the command line writes for alice, but for the moment it was read.
    out = subprocess.run([served.binary, "export", "--db", served.db, "--as", "alice"],
                         capture_output=True, text=True, check=True)
    cli = json.loads(out.stdout)
    for document_ in (document, cli):
        del document_["exported_at"]
    assert document == cli
    # The link is reached from the keyboard: Tab from the form's last control.
    browser.find_element(By.ID, "me-close").send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("id") == "me-export"


def test_erasing_asks_for_the_id_then_the_profile_is_gone(served, browsers):
    browser = browsers()
    link = served.link("alice")
    signed_in(browser, served, "alice")
    open_me(browser)
    assert violations(browser, "account") == []
    erase = browser.find_element(By.ID, "me-erase")
    erase.send_keys(Keys.ENTER)
    dialog = browser.find_element(By.ID, "erase-dialog")
    wait_for(lambda: dialog.is_displayed(), "the confirmation dialog")
    assert browser.switch_to.active_element.get_attribute("id") == "erase-confirm", "the dialog opens on its field"
    assert browser.find_element(By.ID, "erase-id").text == "alice"
    assert violations(browser, "erase-dialog") == []

    # Escape cancels: the dialog closes, the Me view stays, nothing is erased.
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(lambda: not dialog.is_displayed(), "the dialog closed by Escape")
    assert browser.find_element(By.ID, "me-panel").is_displayed()
    assert browser.switch_to.active_element.get_attribute("id") == "me-erase"

    # Enter on an empty field, then a wrong id: refused on the page, nothing sent.
    erase.send_keys(Keys.ENTER)
    wait_for(lambda: dialog.is_displayed(), "the dialog again")
    field = browser.find_element(By.ID, "erase-confirm")
    field.send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "erase-error").text == "Type alice to confirm; nothing was erased."
    field.send_keys("bob", Keys.ENTER)
    assert browser.find_element(By.ID, "erase-error").text == "That is not your id (alice); nothing was erased."
    assert field.get_attribute("aria-invalid") == "true"
    assert not any(a.get("cmd") == "me_erase" for a in answers(browser))
    with sqlite3.connect(served.db) as db:
        assert db.execute("SELECT count(*) FROM profiles WHERE id = 'alice'").fetchone() == (1,)
    assert violations(browser, "erase-refused") == []
    path = screenshot(browser, "serve-account.png")
    if os.environ.get("SWIPE_UPDATE_DOCS"):
        shutil.copy(path, ROOT / "docs" / "serve-account.png")

    field.clear()
    field.send_keys("alice", Keys.ENTER)
    wait_for(lambda: browser.find_element(By.ID, "account-erased").is_displayed(), "the page saying it is erased")
    erased = [a for a in answers(browser) if a.get("cmd") == "me_erase"]
    assert erased and erased[0]["ok"] and erased[0]["erased"]["viewer"] == "alice", erased
    assert browser.switch_to.active_element.get_attribute("id") == "account-erased-title"
    assert not browser.find_element(By.ID, "me-panel").is_displayed()
    wait_for(lambda: "signed out" in browser.find_element(By.ID, "status").text, "the status line saying so")
    assert violations(browser, "erased") == []

    # Gone for the store (the command line) and for the sign-in (a second browser with alice's link).
    profile = subprocess.run([served.binary, "profile", "--db", served.db, "alice"], capture_output=True, text=True)
    assert profile.returncode == 64, profile
    with sqlite3.connect(served.db) as db:
        assert db.execute("SELECT count(*) FROM profiles WHERE id = 'alice'").fetchone() == (0,)
    second = browsers()
    second.get(link)
    assert "swipe link" in second.find_element(By.TAG_NAME, "body").text
