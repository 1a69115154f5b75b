"""Fixtures for the browser tests of `swipe serve`: a database made by the
built binary, a server on a free loopback port, and headless Chromium from
Debian's packages driven by selenium (driver path given, nothing downloaded).
"""
import csv
import io
import os
import pathlib
import queue
import re
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = pathlib.Path(os.environ.get("SWIPE_ARTIFACTS", ROOT / ".build" / "browser-artifacts"))
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")

# Nobody has acted yet, so only the ranking (Documentation/Discovery.md) orders
# these decks, and which card it puts on top is its business, not these
# tests'. A test that needs a given card on top either reads which one is
# (`top_card`, then `PEOPLE` for what it shows), or makes the order the
# product's contract: a like of the viewer (likers come first, `liked`), or
# nobody else to deal (`pair`: alice and bob are each other's whole deck).
PROFILES = """id,name,age,gender,city,bio,photos,interests
alice,Alice Example,31,f,Lisboa,"Likes long walks.
And <b>HTML</b> that must stay text.",,hiking;coffee
bob,Bob Builder,33,m,Porto,"<img src=x onerror=alert(1)>",,climbing;jazz;hiking
carol,Carol Singer,29,f,Braga,Sings.,,music;coffee
dave,Dave Diver,35,m,Faro,Dives.,,sea;boats
erin,Erin Runner,27,f,Coimbra,Runs.,,running
"""

# Each row of PROFILES by id: what a card of that person shows.
PEOPLE = {row["id"]: row for row in csv.DictReader(io.StringIO(PROFILES))}


def profiles_of(*ids):
    """PROFILES cut down to these people, as CSV text."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(PEOPLE[ids[0]]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(PEOPLE[i] for i in ids)
    return out.getvalue()


# bob liked alice before anyone opened a page: he is on top of her deck.
BOB_LIKES_ALICE = "viewer,profile,decision,decided_at\nbob,alice,like,2026-11-20T10:00:00.000Z\n"


def wait_for(condition, what, seconds=30):
    """Polls `condition` until it returns a truthy value or `seconds` pass."""
    deadline = time.monotonic() + seconds
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # a page mid-update; try again
            last_error = error
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}" + (f" (last error: {last_error})" if last_error else ""))


def swipe_binary():
    binary = os.environ.get("SWIPE_BIN")
    if not binary:
        out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
        binary = out.stdout.strip() + "/swipe"
    if not os.access(binary, os.X_OK):
        raise AssertionError(f"swipe binary not built: {binary} (run swift build first)")
    return binary


class Served:
    """A database (of `profiles`, CSV text) and a `swipe serve` over it."""

    def __init__(self, folder, profiles=PROFILES, decisions=None):
        self.binary = swipe_binary()
        self.db = str(pathlib.Path(folder) / "browser.sqlite")
        csv = pathlib.Path(folder) / "profiles.csv"
        csv.write_text(profiles)
        subprocess.run([self.binary, "import", "--db", self.db, str(csv), "--quiet"], check=True)
        if decisions:
            # Past decisions (viewer,profile,decision,decided_at): likers come
            # first in a deck, in the order they liked, whatever the ranking.
            path = pathlib.Path(folder) / "decisions.csv"
            path.write_text(decisions)
            subprocess.run([self.binary, "import", "--db", self.db, "--decisions", str(path), "--quiet"], check=True)
        # A crash reports only the crashed thread's frames, no registers or
        # images: the report then fits the tail of a CI log, which is all
        # that a failed run shows.
        environment = dict(os.environ, SWIFT_BACKTRACE=(
            "enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none"))
        self.process = subprocess.Popen(
            [self.binary, "serve", "--db", self.db, "--port", "0"], env=environment,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in self.process.stdout], daemon=True).start()
        self.stderr_lines = []
        threading.Thread(target=lambda: [self.stderr_lines.append(l) for l in self.process.stderr], daemon=True).start()
        try:
            line = lines.get(timeout=60)
        except queue.Empty:
            raise AssertionError("swipe serve printed no address: " + "".join(self.stderr_lines))
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        assert match, f"unexpected first line from swipe serve: {line!r}"
        self.base = match.group(1)

    def link(self, viewer):
        out = subprocess.run([self.binary, "link", "--db", self.db, "--as", viewer, "--base", self.base],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()

    def decisions(self, viewer):
        with sqlite3.connect(self.db) as db:
            return db.execute(
                "SELECT t.id, d.decision, d.via, d.undone_at FROM decisions d "
                "JOIN profiles v ON v.key = d.viewer JOIN profiles t ON t.key = d.profile "
                "WHERE v.id = ? ORDER BY d.key", (viewer,)).fetchall()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("swipe serve did not stop on SIGTERM within 30 s")


def serving(**arguments):
    with tempfile.TemporaryDirectory(prefix="swipe-browser-") as folder:
        server = Served(folder, **arguments)
        yield server
        server.stop()
        assert server.process.returncode == 0, "swipe serve exited %s: %s" % (
            server.process.returncode, "".join(server.stderr_lines))


@pytest.fixture
def served():
    """PROFILES, and nobody has decided anything."""
    yield from serving()


@pytest.fixture
def liked():
    """PROFILES, and bob likes alice: bob is her top card (likers come first)."""
    yield from serving(decisions=BOB_LIKES_ALICE)


@pytest.fixture
def pair():
    """alice and bob of PROFILES only: each is the other's one card."""
    yield from serving(profiles=profiles_of("alice", "bob"))


def make_browser(width=420, height=860):
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            raise AssertionError(f"{path} is missing: install Debian's chromium and chromium-driver (make deps)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--force-device-scale-factor=1",
                     "--disable-features=Translate", "--no-first-run"):
        options.add_argument(argument)
    # Chromium's own log of what crosses the network, WebSocket frames included
    # (test_protocol.py reads every frame the page sends).
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture
def browsers():
    opened = []

    def open_browser(**size):
        browser = make_browser(**size)
        opened.append(browser)
        return browser

    yield open_browser
    for browser in opened:
        browser.quit()


def screenshot(browser, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    browser.save_screenshot(str(path))
    return path
