"""The page reconnects by itself (Documentation/Serve.md): when its server
goes away it says so and tries again with a growing, jittered wait; when a
server answers on the same address again (a restart, or another server
behind the proxy), the page signs in with its cookie, gets a new hello and
deals again, and a like made then is stored."""
import subprocess

from selenium.webdriver.common.by import By

from conftest import wait_for
from test_serve import answers, signed_in, top_card


def hellos(browser):
    return [e for e in browser.execute_script("return window.swipeDebug.events") if e.get("event") == "hello"]


def test_the_page_reconnects_when_its_server_comes_back(served, browsers):
    browser = browsers()
    signed_in(browser, served, "alice")
    assert len(hellos(browser)) == 1
    port = served.base.rsplit(":", 1)[1]
    served.stop()
    wait_for(lambda: "Reconnecting in" in browser.find_element(By.ID, "status").text,
             "the page saying it will reconnect")
    restarted = subprocess.Popen([served.binary, "serve", "--db", served.db, "--port", port],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        wait_for(lambda: len(hellos(browser)) == 2, "a second hello from the restarted server", seconds=60)
        decks = sum(1 for a in answers(browser) if a.get("cmd") == "deck")
        assert decks >= 2, "the page asked for its deck again on the new socket"
        wait_for(lambda: browser.find_element(By.ID, "status").text == "Connected.", "connected again")
        top = top_card(browser).get_attribute("data-profile")
        assert top and top != "alice", top
        browser.execute_script("window.swipeDebug.send('like')")
        wait_for(lambda: served.decisions("alice") == [(top, "like", "button", None)],
                 "a like of the top card after the reconnect stored")
    finally:
        restarted.terminate()
        restarted.wait(timeout=30)
