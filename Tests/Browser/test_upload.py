"""Uploading one's own photos from the Me view (Documentation/Photos.md,
"Uploading from the page"): files chosen in the labelled file input reach
the database through POST /photos, stripped of their metadata, and show in
the view's list at once; a refused file is told as text under the input, in
the words of `me photo add` (written here by hand); the list's buttons move
and remove photos from the keyboard; axe-core finds nothing."""
import json
import os
import pathlib
import shutil
import sqlite3
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import images
from conftest import ROOT, screenshot, wait_for
from test_accessibility import violations
from test_serve import signed_in


def stored(served, viewer="alice"):
    """The viewer's photos as the database holds them: (media type, bytes), in the profile's order."""
    with sqlite3.connect(served.db) as db:
        listed = db.execute("SELECT photos FROM profiles WHERE id = ?", (viewer,)).fetchone()[0]
        rows = dict((("/photos/" + i), (t, b)) for i, t, b in db.execute("SELECT id, media_type, bytes FROM photos"))
    return [rows[item] for item in json.loads(listed or "[]")]


def rows(browser):
    """The Me view's photo rows: the path each shows and whether its image decoded."""
    return browser.execute_script("""
        return Array.from(document.querySelectorAll('#me-photo-list li')).map(li => {
            const img = li.querySelector('img');
            return [li.dataset.photo, !!img && img.complete && img.naturalWidth > 0];
        });""")


def test_uploading_photos_from_the_me_view_stores_them_stripped_and_shows_them(served, browsers):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="swipe-upload-"))
    try:
        portrait = folder / "portrait.png"
        portrait.write_bytes(images.png("alice/1", "A"))
        phone = folder / "from my phone.jpg"
        phone.write_bytes(images.jpeg())
        assert images.GPS_LATITUDE in phone.read_bytes()
        gif = folder / "cat.gif"
        gif.write_bytes(b"GIF89a" + bytes([1, 0, 1, 0, 0, 0, 0]))

        browser = browsers()
        signed_in(browser, served, "alice")
        browser.find_element(By.ID, "show-me").click()
        wait_for(lambda: browser.find_element(By.ID, "me-name").get_attribute("value") == "Alice Example",
                 "the Me view filled")
        assert browser.find_element(By.ID, "me-photo-none").is_displayed(), "no photos yet, said so"
        file_input = browser.find_element(By.ID, "me-photo-file")
        label = browser.find_element(By.CSS_SELECTOR, "label[for='me-photo-file']").text
        assert label == "Add a photo (JPEG, PNG or WebP, up to 5 MB)", label

        # A PNG: stored, listed, and the list's image decodes from this server.
        file_input.send_keys(str(portrait))
        wait_for(lambda: len(stored(served)) == 1, "the PNG stored")
        wait_for(lambda: len(rows(browser)) == 1 and rows(browser)[0][1], "the PNG listed and decoded")
        assert rows(browser)[0][0].startswith("/photos/")
        assert browser.find_element(By.ID, "me-photo-status").text == "Photo added: portrait.png."
        assert not browser.find_element(By.ID, "me-photo-none").is_displayed()

        # A phone's JPEG: its GPS tags never reach the database.
        browser.find_element(By.ID, "me-photo-file").send_keys(str(phone))
        wait_for(lambda: len(stored(served)) == 2, "the JPEG stored")
        kind, data = stored(served)[1]
        assert kind == "image/jpeg" and images.GPS_LATITUDE not in data
        wait_for(lambda: len(rows(browser)) == 2 and all(decoded for _, decoded in rows(browser)),
                 "both listed and decoded")

        # Not an image: refused under the input, in `me photo add`'s words; nothing stored.
        browser.find_element(By.ID, "me-photo-file").send_keys(str(gif))
        error = wait_for(lambda: browser.find_element(By.ID, "me-photo-error").text, "the GIF refused")
        assert error == "cat.gif: not a JPEG, PNG or WebP image (13 bytes of GIF)", error
        assert browser.find_element(By.ID, "me-photo-file").get_attribute("aria-invalid") == "true"
        assert "me-photo-error" in browser.find_element(By.ID, "me-photo-file").get_attribute("aria-describedby")
        assert len(stored(served)) == 2
        assert violations(browser, "me-photos") == []
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})",
                               browser.find_element(By.ID, "me-photos"))
        path = screenshot(browser, "serve-upload.png")
        if os.environ.get("SWIPE_UPDATE_DOCS"):
            shutil.copy(path, ROOT / "docs" / "serve-upload.png")

        # From the keyboard: the JPEG moved first, then the PNG (now second) removed.
        jpeg_path = rows(browser)[1][0]
        move = browser.find_element(By.CSS_SELECTOR, "button[aria-label='Move photo 2 earlier']")
        move.send_keys(Keys.ENTER)
        wait_for(lambda: [p for p, _ in rows(browser)][0] == jpeg_path, "the JPEG listed first")
        assert stored(served)[0][0] == "image/jpeg"
        remove = browser.find_element(By.CSS_SELECTOR, "button[aria-label='Remove photo 2']")
        remove.send_keys(Keys.ENTER)
        wait_for(lambda: len(stored(served)) == 1, "the PNG removed")
        wait_for(lambda: [p for p, _ in rows(browser)] == [jpeg_path], "one photo listed")
        assert browser.find_element(By.ID, "me-photo-error").text == ""
        # The file input is the next keyboard stop after the list's last button.
        browser.find_element(By.CSS_SELECTOR, "button[aria-label='Remove photo 1']").send_keys(Keys.TAB)
        assert browser.switch_to.active_element.get_attribute("id") == "me-photo-file"
        assert violations(browser, "me-photos-after") == []
        # Nothing typed or done in the view reached the deck behind it.
        assert served.decisions("alice") == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)
