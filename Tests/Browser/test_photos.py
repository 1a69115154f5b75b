"""Photos on the page (Documentation/Photos.md): stored photos show on the
card and in the detail view, where a tap on the right half, the › button or
→ moves to the next; a JPEG whose EXIF (GPS) swipe stripped still decodes;
no request leaves the server's origin."""
import os
import pathlib
import shutil
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import Served, wait_for, screenshot, ROOT
import images
from test_serve import signed_in, top_card
from test_accessibility import violations


@pytest.fixture
def pictured():
    """bob has two stored photos (a PNG, then a JPEG that carried GPS) and likes alice."""
    with tempfile.TemporaryDirectory(prefix="swipe-browser-") as folder:
        (pathlib.Path(folder) / "pictures").mkdir()
        (pathlib.Path(folder) / "pictures" / "bob-1.png").write_bytes(images.png("bob/1", "B"))
        (pathlib.Path(folder) / "pictures" / "bob-2.jpg").write_bytes(images.jpeg())
        profiles = """id,name,age,gender,city,bio,photos,interests
alice,Alice Example,31,f,Lisboa,Walks.,,hiking
bob,Bob Builder,33,m,Porto,Builds.,pictures/bob-1.png;pictures/bob-2.jpg,jazz
carol,Carol Singer,29,f,Braga,Sings.,,music
"""
        server = Served(folder, profiles=profiles,
                        decisions="viewer,profile,decision,decided_at\nbob,alice,like,2026-11-01T00:00:00.000Z\n")
        yield server
        server.stop()


def shown(browser):
    """The detail's visible photo: its img src and whether it decoded."""
    return browser.execute_script("""
        const tile = Array.from(document.querySelectorAll('#detail-photos .tile')).find(t => !t.hidden);
        const img = tile && tile.querySelector('img');
        return img ? [new URL(img.src).pathname, img.complete && img.naturalWidth > 0] : null;""")


def test_stored_photos_show_on_the_card_and_page_through_in_the_detail(pictured, browsers):
    browser = browsers()
    signed_in(browser, pictured, "alice")
    wait_for(lambda: top_card(browser).get_attribute("data-profile") == "bob", "bob on top")
    # The card shows his first photo, loaded from this server.
    card_image = wait_for(lambda: top_card(browser).find_element(By.CSS_SELECTOR, ".photo img"), "the card's photo")
    wait_for(lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0",
                                            card_image), "the card's photo decoded")
    first = browser.execute_script("return new URL(arguments[0].src).pathname", card_image)
    assert first.startswith("/photos/") and len(first) == len("/photos/") + 32, first

    top_card(browser).click()
    wait_for(lambda: browser.find_element(By.ID, "detail").is_displayed(), "bob's detail page")
    assert wait_for(lambda: shown(browser), "the first photo")[0] == first
    assert browser.find_element(By.CSS_SELECTOR, ".photo-count").text == "1 / 2"
    # A tap on the right half: the second photo, the JPEG whose GPS was stripped, decoded.
    box = browser.find_element(By.ID, "detail-photos")
    ActionChains(browser).move_to_element_with_offset(box, box.size["width"] // 4, 0).click().perform()
    second = wait_for(lambda: shown(browser) if shown(browser)[0] != first else None, "the second photo")
    assert second[0].startswith("/photos/") and second[0] != first
    wait_for(lambda: shown(browser)[1], "the stripped JPEG decoded")
    assert browser.find_element(By.CSS_SELECTOR, ".photo-count").text == "2 / 2"
    # ← goes back, and does not nope bob (the detail is still open, nothing decided).
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait_for(lambda: shown(browser)[0] == first, "back to the first photo")
    assert browser.find_element(By.ID, "detail").is_displayed()
    assert pictured.decisions("alice") == []
    # The › button and the dots too.
    browser.find_element(By.CSS_SELECTOR, ".photo-next").click()
    wait_for(lambda: shown(browser)[0] == second[0], "› shows the second")
    browser.find_elements(By.CSS_SELECTOR, ".photo-dot")[0].click()
    wait_for(lambda: shown(browser)[0] == first, "the first dot shows the first")
    wait_for(lambda: shown(browser)[1], "the first photo decoded")
    path = screenshot(browser, "serve-photos.png")
    if os.environ.get("SWIPE_UPDATE_DOCS"):
        shutil.copy(path, ROOT / "docs" / "serve-photos.png")

    # The carousel's controls pass axe-core as every view does.
    assert violations(browser, "detail-photos") == []

    # Nothing was asked of another origin.
    origins = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => new URL(e.name).origin)")
    assert origins and set(origins) == {pictured.base}, origins
