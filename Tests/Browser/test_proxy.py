"""Several servers behind a real proxy (Documentation/Serve.md, "Several
servers behind a proxy"): three `swipe serve` over one throwaway PostgreSQL,
Debian's HAProxy in front (scripts/serve-cluster.sh's configuration). 200
sockets, each a viewer of its own, like through the proxy; one server is
killed with SIGKILL mid-load; its clients reconnect through the proxy to the
others and go on. Every like a client saw acknowledged is stored exactly
once. A match and a message made through one server reach an open socket on
another (LISTEN/NOTIFY between the processes)."""
import base64
import hashlib
import hmac
import pathlib
import re
import signal
import socket
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, swipe_binary, wait_for

VIEWERS = 200
LIKES_EACH = 4
TARGETS = 30

# 200 sockets from one page, each signed in by its own token in the query
# (same origin: the page itself came through the proxy). Each asks for its
# deck and likes its top card LIKES_EACH times; an answer with a decision is
# acknowledged. After its first like each socket waits, still open, until the
# test calls window.load.release() (after the kill: every socket is open on
# its server when one server dies, however fast the machine). A socket that
# drops reconnects (with the same token) after a short random wait and goes
# on from a new deck.
LOAD = """
const [base, tokens, likesEach] = [arguments[0], arguments[1], arguments[2]];
window.load = { acknowledged: [], reconnects: 0, errors: [], done: 0, held: [], go: false };
window.load.release = () => { window.load.go = true; window.load.held.splice(0).forEach((next) => next()); };
for (const [viewer, token] of tokens) {
  let liked = 0;
  const open = () => {
    const ws = new WebSocket(base.replace("http", "ws") + "/ws?token=" + encodeURIComponent(token));
    ws.onmessage = (m) => {
      const data = JSON.parse(m.data);
      if (data.event === "hello") { ws.send(JSON.stringify({cmd: "deck"})); return; }
      if (data.event) return;
      if (data.ok && data.decision) {
        window.load.acknowledged.push([viewer, data.decision.profile]);
        liked += 1;
      } else if (data.ok === false && data.cmd === "like") {
        window.load.errors.push(viewer + ": " + (data.error || ""));
      }
      if (liked >= likesEach) { window.load.done += 1; ws.onclose = null; ws.close(); return; }
      const next = () => {
        if (data.cards === undefined && data.cmd === "like") { ws.send(JSON.stringify({cmd: "deck"})); return; }
        ws.send(JSON.stringify({cmd: "like"}));
      };
      // After its first like each socket waits, open, for the test's release.
      if (data.decision && liked === 1 && !window.load.go) { window.load.held.push(next); return; }
      next();
    };
    ws.onclose = () => {
      window.load.reconnects += 1;
      setTimeout(open, 100 + Math.random() * 400);
    };
  };
  open();
}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


class Cluster:
    def __init__(self, folder):
        self.binary = swipe_binary()
        lines = subprocess.run([str(ROOT / "scripts/pg-test-cluster.sh"), "start"], capture_output=True, text=True,
                               check=True).stdout
        env = dict(re.findall(r"export (\w+)='([^']*)'", lines))
        self.db, self.pg_dir = env["SWIPE_TEST_PG"], env["SWIPE_TEST_PG_DIR"]
        self.processes = []
        ids = [f"v{n:03d}" for n in range(VIEWERS)] + [f"t{n:02d}" for n in range(TARGETS)] + ["ana", "ben"]
        csv = pathlib.Path(folder) / "profiles.csv"
        csv.write_text("id,name,age\n" + "".join(f"{i},Name {i},30\n" for i in ids))
        self.swipe("import", str(csv), "--quiet")
        # ana liked ben: ben's deck starts with her (likers first).
        decisions = pathlib.Path(folder) / "decisions.csv"
        decisions.write_text("viewer,profile,decision,decided_at\nana,ben,like,2026-11-20T10:00:00Z\n")
        self.swipe("import", "--decisions", str(decisions), "--quiet")
        # The database's sign-in secret exists before the servers start (a link makes it): a server reads a
        # secret made later only at its next sign-in check.
        self.swipe("link", "--as", "ana")
        self.ports = [free_port() for _ in range(3)]
        self.servers = []
        for port in self.ports:
            process = subprocess.Popen([self.binary, "serve", "--db", self.db, "--port", str(port)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
            self.servers.append(process)
            self.processes.append(process)
        for port in self.ports:
            wait_for(lambda: healthy(port), f"server on {port} healthy")
        self.port = free_port()
        config = pathlib.Path(folder) / "haproxy.cfg"
        config.write_text("\n".join([
            "global", "    maxconn 4096",
            "defaults", "    mode http", "    timeout connect 2s", "    timeout client 1h", "    timeout server 1h",
            "    timeout tunnel 1h", "    option redispatch", "    retries 3",
            "frontend swipe", f"    bind 127.0.0.1:{self.port}", "    default_backend servers",
            "backend servers", "    balance roundrobin", "    option httpchk GET /healthz",
            "    default-server inter 200ms fall 1 rise 2",
        ] + [f"    server s{n} 127.0.0.1:{p} check" for n, p in enumerate(self.ports)]) + "\n")
        self.proxy = subprocess.Popen(["haproxy", "-f", str(config), "-db"], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.processes.append(self.proxy)
        self.base = f"http://127.0.0.1:{self.port}"
        wait_for(lambda: healthy(self.port), "the proxy answering")

    def swipe(self, *arguments):
        return subprocess.run([self.binary, *arguments, "--db", self.db], capture_output=True, text=True,
                              check=True).stdout

    def token(self, viewer, base=None):
        link = self.swipe("link", "--as", viewer, "--base", base or self.base).strip()
        return link.split("token=", 1)[1]

    def minted(self, viewer):
        """A token as `swipe link` makes one (Sources/SwipeServer/AccessToken.swift), minted here from
        the database's secret: 200 links without 200 processes."""
        secret = self.sql("SELECT value FROM settings WHERE name = 'access_secret'").strip()
        expiry = int(time.time()) + 3600
        mac = hmac.new(secret.encode(), f"swipe-link-v1\n{viewer}\n{expiry}".encode(), hashlib.sha256).digest()
        b64 = lambda data: base64.urlsafe_b64encode(data).decode().rstrip("=")
        return f"v1.{b64(viewer.encode())}.{expiry}.{b64(mac)}"

    def sql(self, query):
        psql = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1]
        return subprocess.run([str(psql), self.db, "-At", "-F", ",", "-c", query], capture_output=True, text=True,
                              check=True).stdout

    def stored_likes(self):
        psql = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1]
        out = subprocess.run([str(psql), self.db, "-At", "-F", ",", "-c",
                              "SELECT v.id, p.id, count(*) FROM decisions d JOIN profiles v ON v.key = d.viewer "
                              "JOIN profiles p ON p.key = d.profile WHERE d.undone_at IS NULL AND v.id LIKE 'v%' "
                              "GROUP BY 1, 2"], capture_output=True, text=True, check=True).stdout
        return [tuple(line.split(",")) for line in out.splitlines() if line]

    def stop(self):
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        subprocess.run([str(ROOT / "scripts/pg-test-cluster.sh"), "stop", self.pg_dir], check=False)


@pytest.fixture(scope="module")
def cluster():
    """One cluster for the module: the first test kills its second server, the second uses the other two."""
    with tempfile.TemporaryDirectory(prefix="swipe-proxy-") as folder:
        made = Cluster(folder)
        try:
            yield made
        finally:
            made.stop()


def test_a_server_killed_mid_load_loses_no_acknowledged_like(cluster, browsers):
    browser = browsers()
    browser.get(cluster.base + "/?token=" + cluster.token("ana"))
    tokens = [[f"v{n:03d}", cluster.minted(f"v{n:03d}")] for n in range(VIEWERS)]
    wait_for(lambda: browser.execute_script("return window.swipeDebug && window.swipeDebug.answers.length > 0"),
             "the page through the proxy")
    browser.execute_script(LOAD, cluster.base, tokens, LIKES_EACH)
    wait_for(lambda: browser.execute_script("return window.load.held.length") == VIEWERS,
             "every socket's first like acknowledged, each socket held open", seconds=120)
    victim = cluster.servers[1]
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=10)
    browser.execute_script("window.load.release()")
    wait_for(lambda: browser.execute_script("return window.load.done") == VIEWERS,
             "every client done after the kill", seconds=180)
    load = browser.execute_script("return window.load")
    assert load["reconnects"] > 0, "the killed server's sockets reconnected"
    acknowledged = [tuple(pair) for pair in load["acknowledged"]]
    assert len(acknowledged) == VIEWERS * LIKES_EACH
    assert len(set(acknowledged)) == len(acknowledged), "no like acknowledged twice"
    stored = cluster.stored_likes()
    counts = {(viewer, profile): int(count) for viewer, profile, count in stored}
    assert all(count == 1 for count in counts.values()), "nothing stored twice"
    missing = [pair for pair in acknowledged if pair not in counts]
    assert missing == [], f"acknowledged but not stored: {missing[:5]}"
    # At most the likes in flight when the server died are stored unacknowledged.
    assert len(counts) - len(acknowledged) <= VIEWERS


def test_a_match_and_a_message_made_on_one_server_reach_a_socket_on_another(cluster, browsers):
    browser = browsers()
    first, third = cluster.ports[0], cluster.ports[2]
    browser.get(f"http://127.0.0.1:{first}/?token=" + cluster.token("ana", f"http://127.0.0.1:{first}"))
    wait_for(lambda: browser.execute_script("return window.swipeDebug && window.swipeDebug.answers.length > 0"),
             "ana's page on the first server")
    # ben's page is served by the third server, and its socket goes there.
    ben_page = browsers()
    ben_page.get(f"http://127.0.0.1:{third}/?token=" + cluster.token("ben", f"http://127.0.0.1:{third}"))
    wait_for(lambda: ben_page.execute_script("return window.swipeDebug && window.swipeDebug.answers.length > 0"),
             "ben's page on the third server")
    events_before = len(browser.execute_script("return window.swipeDebug.events"))
    ben_page.execute_script("window.swipeDebug.send('like')")
    wait_for(lambda: any(e.get("event") == "match"
                         for e in browser.execute_script("return window.swipeDebug.events")[events_before:]),
             "ana's page on the first server hearing of the match made on the third")
    ben_page.execute_script("window.swipeDebug.send('say', {to: 'ana', text: 'hi from another server'})")
    wait_for(lambda: any(e.get("event") == "message" and e.get("text") == "hi from another server"
                         for e in browser.execute_script("return window.swipeDebug.events")[events_before:]),
             "ana's page on the first server hearing ben's message sent on the third")
