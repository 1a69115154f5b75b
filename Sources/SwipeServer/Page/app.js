// swipe serve: draws the deck from the server's answers (README "JSON mode")
// and sends what the pointer, the buttons and the keys do as REPL commands.
// Profile text only ever reaches the page through textContent / alt / src
// properties, never as HTML.
"use strict";

(() => {
  const W = 375, H = 667, CARD_W = 350, CARD_H = 400;
  const $ = (id) => document.getElementById(id);
  const screen = $("screen"), cardsBox = $("cards"), stage = $("stage");
  const profiles = new Map();          // id -> profile, from answers' `profiles` and `detail`
  const cardEls = [];                  // by physical slot (0-3)
  let socket = null;
  let scale = 1;
  let last = null;                     // the last answer (the deck as it is)
  let renderChain = Promise.resolve(); // answers are drawn in order, animations first
  let animating = 0;
  let gesture = null;                  // the pointer drag in progress
  let pendingLists = [];

  // What tests (and curious people) can read: the answers and the commands sent.
  const debug = { answers: [], sent: [], events: [], send: (cmd, args) => send(cmd, args) };
  window.swipeDebug = debug;

  // Hook points for the page's other scripts (me.js, chat.js): they send
  // commands, hear every answer (`onAnswer`, before it is drawn; `on("answer")`,
  // after), every event (`on("event")`) or one kind of event
  // (`on("me-changed")`), claim the answers of their own commands (`quiet`:
  // not drawn here), draw the lists (`lists`) and say when something covers
  // the deck (`covered`): then no key acts on it.
  const listeners = { answer: [], event: [] };
  const hooks = { answers: [], events: {} };
  const page = {
    send: (cmd, args) => send(cmd, args),
    verbOf: (answer) => verbOf(answer),
    on: (kind, fn) => {
      if (kind in listeners) listeners[kind].push(fn);
      else (hooks.events[kind] = hooks.events[kind] || []).push(fn);
    },
    onAnswer: (fn) => { hooks.answers.push(fn); },
    quiet: new Set(),
    claim: () => false,
    lists: null,
    showMatches: null,
    covered: () => false,
    fillPhoto: (box, profile) => fillPhoto(box, profile),
    describe: (profile) => describe(profile),
    profiles,
    status: (text, isError) => status(text, isError),
    focusDeck: () => focusDeck(),
    // Set by account.js once the viewer erased themself: the words the
    // status line keeps when the server then closes the socket.
    ended: null,
  };
  window.swipePage = page;

  // ---- the virtual screen, scaled to the window ----------------------------
  function fit() {
    const w = stage.clientWidth, h = stage.clientHeight - 28; // keep the status line clear
    scale = Math.max(0.2, Math.min(w / W, h / H));
    const left = Math.max(0, (w - W * scale) / 2);
    screen.style.transform = `translate(${left}px, 0px) scale(${scale})`;
  }
  window.addEventListener("resize", fit);

  // ---- cards ----------------------------------------------------------------
  function makeCard(slot) {
    const el = document.createElement("div");
    el.className = "card";
    el.dataset.slot = String(slot);
    el.hidden = true;
    const photo = document.createElement("div");
    photo.className = "photo";
    photo.setAttribute("aria-hidden", "true");
    const caption = document.createElement("div");
    caption.className = "caption";
    const name = document.createElement("p");
    name.className = "name";
    const meta = document.createElement("p");
    meta.className = "meta";
    caption.append(name, meta);
    const like = document.createElement("div");
    like.className = "stamp like";
    like.textContent = "LIKE";
    like.setAttribute("aria-hidden", "true");
    const nope = document.createElement("div");
    nope.className = "stamp nope";
    nope.textContent = "NOPE";
    nope.setAttribute("aria-hidden", "true");
    el.append(photo, caption, like, nope);
    el.addEventListener("pointerdown", pointerDown);
    el.addEventListener("keydown", (e) => {
      if ((e.key === "Enter" || e.key === " ") && el.dataset.state === "first") { e.preventDefault(); send("open"); }
    });
    cardsBox.append(el);
    return el;
  }
  for (let slot = 0; slot < 4; slot++) cardEls.push(makeCard(slot));

  // Only photos this server serves itself (same-origin paths) are loaded:
  // a photo on another host would tell that host who was shown whom, and
  // when (a tracking pixel). Others show the person's initial; the CSP
  // (img-src 'self') refuses them as well.
  function photoURL(text) {
    return typeof text === "string" && /^\/(?![\/\\])/.test(text) ? text : null;
  }

  function fillPhoto(box, profile) {
    box.textContent = (profile.name || "?").trim().charAt(0).toUpperCase();
    const url = photoURL((profile.photos || [])[0]);
    if (url) {
      const img = document.createElement("img");
      img.alt = "";
      img.referrerPolicy = "no-referrer";
      img.addEventListener("error", () => img.remove());
      img.src = url;
      box.append(img);
    }
  }

  function describe(profile) {
    const away = Number.isInteger(profile.distance_km) ? `${profile.distance_km} km away` : null;
    return [profile.age, profile.gender, profile.city, away]
      .filter((v) => v !== null && v !== undefined && v !== "").join(" · ");
  }

  // A status line ends in one full stop: a name that ends in one
  // ("Luca Jensen B.") is not given a second.
  function sentence(text) {
    return /[.!?…]$/.test(text) ? text : `${text}.`;
  }

  function setFace(el, id) {
    if (el.dataset.profile === (id || "")) return;
    el.dataset.profile = id || "";
    const profile = id ? profiles.get(id) : null;
    const photo = el.querySelector(".photo");
    photo.replaceChildren();
    if (!profile) {
      el.querySelector(".name").textContent = id || "";
      el.querySelector(".meta").textContent = "";
      return;
    }
    fillPhoto(photo, profile);
    el.querySelector(".name").textContent = profile.name;
    el.querySelector(".meta").textContent = describe(profile);
  }

  function transformOf(card) {
    return `translate(${card.x - CARD_W / 2}px, ${card.y - CARD_H / 2}px) rotate(${card.rotation}deg) scale(${card.scale})`;
  }

  function pose(el, card) {
    el.style.transform = transformOf(card);
    el.style.opacity = String(card.alpha);
  }

  /// Draws the deck of `answer` (its cards, stamps, buttons and mode) at rest.
  function drawDeck(answer) {
    if (!Array.isArray(answer.cards)) return;
    answer.cards.forEach((card, rank) => {
      const el = cardEls[card.slot];
      if (!el) return;
      setFace(el, card.profile);
      el.hidden = !card.profile;
      el.dataset.state = card.state;
      el.style.zIndex = String(10 - rank);
      pose(el, card);
      const top = rank === 0 && !!card.profile;
      el.tabIndex = top ? 0 : -1;
      el.setAttribute("aria-hidden", top ? "false" : "true");
      el.setAttribute("role", top ? "button" : "presentation");
      const profile = card.profile ? profiles.get(card.profile) : null;
      el.setAttribute("aria-label", top && profile ? `${profile.name}, ${describe(profile)}. Open profile.` : "");
      el.querySelector(".stamp.like").style.opacity = String(top ? answer.like || 0 : 0);
      el.querySelector(".stamp.nope").style.opacity = String(top ? answer.hate || 0 : 0);
    });
    announceStamp(answer);
    const clamp = (v) => Math.min(1, Math.max(0, v || 0));
    $("like").style.borderWidth = `${5 * (1 - clamp(answer.like))}px`;
    $("hate").style.borderWidth = `${5 * (1 - clamp(answer.hate))}px`;
    $("empty").hidden = answer.mode !== "empty";
    drawDetail(answer);
  }

  // ---- animations: the deck's own timelines, with Web Animations -------------
  const EASING = { "linear": "linear", "ease-in-out": "ease-in-out", "ease-out": "ease-out",
                   "spring": "cubic-bezier(0.34, 1.45, 0.64, 1)" };

  function play(animation) {
    const frames = animation.keyframes || [];
    const duration = (animation.duration || 0) * 1000;
    if (frames.length < 2 || duration <= 0 || matchMedia("(prefers-reduced-motion: reduce)").matches) {
      return Promise.resolve();
    }
    const bySlot = new Map();
    frames.forEach((frame, index) => {
      const next = frames[index + 1];
      frame.cards.forEach((card, rank) => {
        if (!bySlot.has(card.slot)) bySlot.set(card.slot, []);
        bySlot.get(card.slot).push({
          offset: frame.time / animation.duration,
          transform: transformOf(card),
          opacity: card.alpha,
          easing: next ? EASING[next.curve] || "linear" : "linear",
          rank, profile: card.profile,
        });
      });
    });
    const runs = [];
    for (const [slot, keys] of bySlot) {
      const el = cardEls[slot];
      if (!el || !keys[0].profile) continue;
      setFace(el, keys[0].profile);
      el.hidden = false;
      el.style.zIndex = String(10 - keys[0].rank);
      const run = el.animate(keys.map(({ offset, transform, opacity, easing }) => ({ offset, transform, opacity, easing })),
                             { duration, fill: "forwards" });
      runs.push(run);
    }
    return Promise.all(runs.map((run) => run.finished.catch(() => {}))).then(() => runs);
  }

  async function playAll(answer) {
    const animations = answer.animations || [];
    if (!animations.length) return;
    animating++;
    try {
      for (const animation of animations) {
        const runs = await play(animation);
        if (runs) runs.forEach((run) => run.cancel());
      }
    } finally {
      animating--;
    }
  }

  // ---- detail page and lists -------------------------------------------------
  function drawDetail(answer) {
    const panel = $("detail");
    if (answer.mode !== "detail" || !answer.detail) {
      panel.hidden = true;
      return;
    }
    const profile = answer.detail;
    profiles.set(profile.id, profile);
    const photos = $("detail-photos");
    photos.replaceChildren();
    const urls = profile.photos && profile.photos.length ? profile.photos : [null];
    urls.forEach((url) => {
      const tile = document.createElement("div");
      tile.className = "tile";
      tile.setAttribute("role", "img");
      tile.setAttribute("aria-label", `Photo of ${profile.name}`);
      fillPhoto(tile, { name: profile.name, photos: url ? [url] : [] });
      photos.append(tile);
    });
    $("detail-name").textContent = profile.name;
    $("detail-meta").textContent = describe(profile);
    $("detail-bio").textContent = profile.bio || "";
    const interests = $("detail-interests");
    interests.replaceChildren(...(profile.interests || []).map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
    panel.dataset.profile = profile.id;
    if (panel.hidden) {
      panel.hidden = false;
      $("detail-back").focus();
    }
  }

  function showList(title, rows, empty) {
    $("list-title").textContent = title;
    const list = $("list");
    list.replaceChildren(...rows.map((row) => {
      const li = document.createElement("li");
      li.textContent = row;
      return li;
    }));
    if (!rows.length) {
      const li = document.createElement("li");
      li.textContent = empty;
      list.append(li);
    }
    $("list-panel").hidden = false;
    $("list-close").focus();
  }

  function nameOf(row) {
    const profile = profiles.get(row.profile || row.id);
    return row.name || (profile && profile.name) || row.profile || row.id || "?";
  }

  function showLists(answer) {
    if (page.lists && page.lists(answer)) return;
    const verb = verbOf(answer);
    if (verb === "matches" && Array.isArray(answer.matches)) {
      showList("Matches", answer.matches.map((m) => `${nameOf(m)} — matched ${m.matched_at || ""}`), "No matches yet.");
    } else if (verb === "likes") {
      const rows = answer.likes || answer.profiles_liking || [];
      if (answer.ok) showList("Likes you", rows.map((r) => `${nameOf(r)}${r.decision === "superlike" ? " ★" : ""}`),
                             "No one is waiting for you right now.");
    }
  }

  // A screen reader hears what a sighted user sees as a drag passes the
  // threshold: the LIKE or NOPE stamp at full strength, once per crossing.
  let stamp = null;
  function announceStamp(answer) {
    const now = (answer.like || 0) >= 1 ? "like" : (answer.hate || 0) >= 1 ? "nope" : null;
    if (now === stamp) return;
    stamp = now;
    if (now) status(now === "like" ? "LIKE: let go to like." : "NOPE: let go to pass.");
  }

  // ---- status, matches ---------------------------------------------------------
  function status(text, isError) {
    const el = $("status");
    el.textContent = text;
    el.classList.toggle("error", !!isError);
  }

  let bannerTimer = null;
  function banner(text, profile) {
    const el = $("match-banner");
    el.textContent = text;
    el.dataset.profile = profile || "";
    el.hidden = false;
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(() => { el.hidden = true; }, 6000);
  }

  // ---- the socket -------------------------------------------------------------
  // Every command is one JSON object (Documentation/command.schema.json): its
  // name and its arguments by name, text as typed. The page never builds a
  // command line, so nothing a person writes is ever quoted or split.
  function send(cmd, args = {}) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      status("Not connected.", true);
      return;
    }
    const frame = JSON.stringify(Object.assign({ cmd }, args));
    debug.sent.push(frame);
    socket.send(frame);
  }

  // The verb an answer answers: the `verb` its tag names (a chat's /back),
  // else its `cmd`, else the first word of a command line.
  function verbOf(answer) {
    return (answer.tag && answer.tag.verb) || answer.cmd || (answer.command || "").split(/\s+/)[0];
  }

  function onAnswer(answer) {
    debug.answers.push(answer);
    if (debug.answers.length > 500) debug.answers.splice(0, 250);
    for (const fn of hooks.answers) fn(answer);
    for (const profile of answer.profiles || []) profiles.set(profile.id, profile);
    const verb = verbOf(answer);
    if (page.claim(answer)) return;
    if (page.quiet.has(verb)) {
      listeners.answer.forEach((fn) => fn(answer));
      return;
    }
    if (verb === "drag") {
      // A drag answer is the live pose: draw it at once, unless a release's
      // animation is already queued behind it.
      if (gesture || !animating) drawDeck(answer);
      last = answer;
      return;
    }
    renderChain = renderChain.then(async () => {
      if (page.ended) return; // erased (account.js): nothing left to draw
      await playAll(answer);
      drawDeck(answer);
      last = answer;
      if (answer.ok === false) {
        status(answer.error || "That did not work.", true);
      } else if (answer.decision) {
        const profile = profiles.get(answer.decision.profile);
        const who = profile ? profile.name : answer.decision.profile;
        const verbed = answer.decision.decision === "hate" ? "Passed on"
          : answer.decision.decision === "superlike" ? "Superliked" : "Liked";
        status(sentence(`${verbed} ${who}`));
        if (answer.match) banner(`It's a match with ${who}!`, answer.decision.profile);
      } else if (answer.undone) {
        status("Undone.");
      } else if (verb !== "deck") {
        status("");
      }
      showLists(answer);
      listeners.answer.forEach((fn) => fn(answer));
    });
  }

  // The deck changed elsewhere (a card withdrawn): ask for it, once no
  // gesture is under way.
  let deckWanted = false;
  function askForDeck() {
    deckWanted = !!gesture;
    if (!gesture) send("deck");
  }

  function onEvent(event) {
    debug.events.push(event);
    for (const fn of hooks.events[event.event] || []) fn(event);
    listeners.event.forEach((fn) => fn(event));
    if (event.event === "deck-changed") {
      askForDeck();
    } else if (event.event === "hello") {
      $("who").textContent = `Signed in as ${event.name || event.viewer}`;
    } else if (event.event === "match") {
      banner(`${event.name || event.profile} liked you back: it's a match!`, event.profile);
    }
  }

  // Reconnecting (Documentation/Serve.md): when the socket drops for any
  // reason but a sign-out (4001), a suspension (4003) or too many sockets
  // (4029), the page asks the server whether it still signs in (GET /, with
  // the cookie) after a wait that doubles from 0.5 s to 30 s, each drawn
  // from its upper half at random (jitter), so that the pages of a server
  // that went away do not all return in the same instant. Behind a proxy
  // the next socket may reach another server; the cookie signs in there too.
  let retries = 0;
  let retryTimer = null;

  function reconnectLater(why) {
    const ceiling = Math.min(30000, 500 * 2 ** retries);
    const wait = ceiling / 2 + Math.random() * (ceiling / 2);
    retries += 1;
    status(`Disconnected: ${why}. Reconnecting in ${Math.max(1, Math.round(wait / 1000))} s…`, true);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(async () => {
      let answer;
      try {
        answer = await fetch("/", { cache: "no-store", credentials: "same-origin" });
      } catch {
        reconnectLater(why.endsWith("cannot be reached yet") ? why : `${why}; it cannot be reached yet`);
        return;
      }
      if (answer.status === 401) {
        status("Signed out: this page needs a new sign-in link.", true);
      } else if (answer.status === 403 || answer.status === 409) {
        status("This page cannot sign in again: reload it to see why.", true);
      } else if (!answer.ok) {
        reconnectLater(`${why.replace(/; .*$/, "")}; the server answered ${answer.status}`);
      } else {
        status("Reconnecting…");
        connect();
      }
    }, wait);
  }

  function connect() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    socket = new WebSocket(url);
    socket.addEventListener("open", () => { retries = 0; status("Connected."); send("deck"); });
    socket.addEventListener("message", (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data.event) onEvent(data); else onAnswer(data);
    });
    socket.addEventListener("close", (close) => {
      if (page.ended) {
        status(page.ended);
        return;
      }
      if (close.code === 4003) {
        // Suspended: moderation.js heard why ({"event":"suspended"}) unless that was lost.
        onEvent({ event: "suspended", reason: (close.reason || "").replace(/^suspended: /, ""), until: null });
        return;
      }
      if (close.code === 4001) {
        status("Signed out: this page needs a new sign-in link.", true);
        return;
      }
      if (close.code === 4029) {
        status(`Disconnected: ${close.reason || "too many sockets"}. Close another tab, then reload.`, true);
        return;
      }
      const why = close.reason
        || (close.code === 1000 || close.code === 1001 ? "the server closed the connection"
          : close.code === 1006 ? "the connection was lost" : `code ${close.code}`);
      reconnectLater(why);
    });
  }

  // ---- the pointer: drag, release with velocity, tap ---------------------------
  function pointerDown(e) {
    const el = e.currentTarget;
    if (el.dataset.state !== "first" || animating || gesture || (last && last.mode !== "deck")) return;
    if (e.button !== undefined && e.button !== 0) return;
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    gesture = { id: e.pointerId, el, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0, sentDx: null, sentDy: null,
                moved: false, frame: 0, samples: [{ t: e.timeStamp, dx: 0, dy: 0 }] };
    el.addEventListener("pointermove", pointerMove);
    el.addEventListener("pointerup", pointerUp);
    el.addEventListener("pointercancel", pointerUp);
  }

  function round1(v) { return Math.round(v * 10) / 10; }

  function flushDrag() {
    if (!gesture) return;
    gesture.frame = 0;
    const dx = round1(gesture.dx), dy = round1(gesture.dy);
    if (dx === gesture.sentDx && dy === gesture.sentDy) return;
    gesture.sentDx = dx;
    gesture.sentDy = dy;
    send("drag", { dx, dy });
  }

  function pointerMove(e) {
    if (!gesture || e.pointerId !== gesture.id) return;
    // Coalesced events carry every point the pointer passed; the last is where it is.
    const events = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
    const at = events.length ? events[events.length - 1] : e;
    gesture.dx = (at.clientX - gesture.x0) / scale;
    gesture.dy = (at.clientY - gesture.y0) / scale;
    if (Math.hypot(gesture.dx, gesture.dy) > 4) gesture.moved = true;
    gesture.samples.push({ t: e.timeStamp, dx: gesture.dx, dy: gesture.dy });
    while (gesture.samples.length > 2 && e.timeStamp - gesture.samples[0].t > 100) gesture.samples.shift();
    if (gesture.moved && !gesture.frame) gesture.frame = requestAnimationFrame(flushDrag);
  }

  /// Points per second over the last 100 ms of the gesture.
  function velocity(g, now) {
    const first = g.samples[0], lastSample = g.samples[g.samples.length - 1];
    const dt = (lastSample.t - first.t) / 1000;
    if (dt <= 0 || now - lastSample.t > 100) return [0, 0];
    return [(lastSample.dx - first.dx) / dt, (lastSample.dy - first.dy) / dt];
  }

  function pointerUp(e) {
    const g = gesture;
    if (!g || e.pointerId !== g.id) return;
    g.el.removeEventListener("pointermove", pointerMove);
    g.el.removeEventListener("pointerup", pointerUp);
    g.el.removeEventListener("pointercancel", pointerUp);
    if (g.frame) cancelAnimationFrame(g.frame);
    if (deckWanted) setTimeout(askForDeck, 0);
    if (!g.moved) {
      gesture = null;
      if (e.type === "pointerup") send("open");
      return;
    }
    flushDrag();
    gesture = null;
    if (e.type === "pointercancel") {
      send("release", { vx: 0, vy: 0 });
      return;
    }
    const [vx, vy] = velocity(g, e.timeStamp);
    send("release", { vx: Math.round(vx), vy: Math.round(vy) });
  }

  // ---- buttons and keys ----------------------------------------------------------
  const click = (id, action) => $(id).addEventListener("click", action);
  const whenDeck = (command) => () => { if (!gesture) send(command); };
  click("like", whenDeck("like"));
  click("hate", whenDeck("hate"));
  click("superlike", whenDeck("superlike"));
  click("undo", whenDeck("undo"));
  click("reload", () => send("reload"));
  click("detail-back", () => send("back"));
  click("detail-like", () => send("like"));
  click("detail-hate", () => send("hate"));
  click("detail-superlike", () => send("superlike"));
  click("detail-block", () => {
    const id = $("detail").dataset.profile;
    if (id) send("block", { id });
  });
  click("show-matches", () => (page.showMatches ? page.showMatches() : send("matches")));
  click("show-likes", () => send("likes"));
  click("list-close", () => { $("list-panel").hidden = true; focusDeck(); });
  click("sign-out", async () => {
    try {
      await fetch("/logout", { method: "POST", credentials: "same-origin" });
    } finally {
      location.replace("/");
    }
  });

  // Where focus goes back to when a panel closes: the top card, else the deck.
  function focusDeck() {
    const top = cardEls.find((el) => el.tabIndex === 0 && !el.hidden);
    (top || screen).focus();
  }
  screen.tabIndex = -1;

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || gesture) return;
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    const keys = { ArrowLeft: "hate", ArrowRight: "like", ArrowUp: "superlike", Backspace: "undo" };
    // Keys act only on what is in front: with a list or a conversation open
    // they leave the deck behind it alone (Escape closes what is open).
    const listOpen = !$("list-panel").hidden;
    if (listOpen || page.covered()) {
      if (e.key === "Escape" && listOpen && !page.covered()) {
        $("list-panel").hidden = true;
        focusDeck();
      }
      return;
    }
    if (e.key === "Escape") {
      if (last && last.mode === "detail") send("back");
      return;
    }
    const command = keys[e.key];
    if (!command) return;
    e.preventDefault();
    send(command);
  });

  // The token came in the link; the server moved it into a cookie, so it
  // leaves the address bar (and the history) now.
  if (location.search.includes("token=")) history.replaceState(null, "", location.pathname);
  fit();
  connect();
})();
