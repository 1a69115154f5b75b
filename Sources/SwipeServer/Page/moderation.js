// swipe serve: moderation on the page (Documentation/Moderation.md).
// - A moderator (the socket's hello says so) gets a Moderation view: the
//   queue of open reports and flags, one item with its evidence (the profile
//   as reported, the last messages), and Suspend, Warn and Resolve, each sent
//   as a command object {"cmd":"moderate",…}; the server asks the store for
//   the role again on every one.
// - Anyone warned sees the warnings until they press "I have read this"
//   ({"cmd":"acknowledge"}).
// - A suspended person's page is told why ({"event":"suspended"}, then the
//   socket closes with 4003) and shows it instead of the deck.
// Text reaches the page through textContent only.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const page = window.swipePage;
  const panel = $("moderation-panel");
  let shown = null; // the queue item on display, with its evidence

  for (const verb of ["moderate", "acknowledge"]) page.quiet.add(verb);
  const coveredBefore = page.covered;
  page.covered = () => coveredBefore() || !panel.hidden;

  function say(text, isError) {
    $("moderation-summary").textContent = text;
    $("moderation-summary").classList.toggle("error", !!isError);
  }

  function openPanel() {
    panel.hidden = false;
    showQueue();
    $("moderation-title").focus();
  }

  function closePanel() {
    panel.hidden = true;
    page.focusDeck();
  }

  function showQueue() {
    shown = null;
    $("moderation-item").hidden = true;
    $("moderation-queue").hidden = false;
    page.send("moderate", { action: "queue" });
  }

  function drawQueue(items) {
    const list = $("moderation-queue");
    list.replaceChildren();
    say(items.length === 0 ? "The queue is empty: no open reports or flags."
      : `${items.length} open, oldest first.`);
    for (const item of items) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "moderation-open";
      button.dataset.item = item.item;
      const who = item.reporter ? `reported by ${item.reporter}` : "flagged by the store";
      button.textContent = `${item.kind === "flag" ? item.item : "Report " + item.item}: ${item.profile}, ${who}`;
      const reason = document.createElement("p");
      reason.textContent = item.reason;
      const facts = document.createElement("p");
      facts.className = "moderation-counts";
      facts.textContent = `${item.at.slice(0, 10)} · open reports about them: ${item.reports}`
        + (item.flags.length ? ` · flags: ${item.flags.length}` : "") + (item.suspended ? " · suspended" : "");
      button.addEventListener("click", () => page.send("moderate", { action: "show", item: item.item }));
      li.append(button, reason, facts);
      list.append(li);
    }
  }

  function drawEvidence(evidence) {
    shown = evidence;
    const item = evidence.item;
    $("moderation-queue").hidden = true;
    $("moderation-item").hidden = false;
    $("moderation-item-title").textContent = item.kind === "flag"
      ? `${item.item}: ${item.profile}` : `Report ${item.item}: ${item.profile}`;
    const facts = $("moderation-facts");
    facts.replaceChildren();
    const rows = [
      ["Reason", item.reason], ["When", item.at], ["Reported by", item.reporter],
      ["Open reports about them", String(item.reports)], ["Name", evidence.name], ["Bio", evidence.bio],
      ["Status", evidence.resolved_at ? `resolved by ${evidence.resolved_by}: ${evidence.note}`
        : item.suspended ? "open; they are suspended" : "open"],
    ];
    for (const [term, value] of rows) {
      if (value === null || value === undefined || value === "") continue;
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.textContent = value;
      facts.append(dt, dd);
    }
    const messages = $("moderation-messages");
    messages.replaceChildren();
    for (const message of evidence.messages) {
      const li = document.createElement("li");
      li.textContent = `${message.sent_at.slice(0, 16).replace("T", " ")} ${message.sender}: ${message.text}`;
      messages.append(li);
    }
    $("moderation-messages-title").hidden = evidence.messages.length === 0;
    $("moderation-reason").value = "";
    $("moderation-days").value = "";
    setError("");
    $("moderation-item-title").focus();
  }

  function setError(text) {
    $("moderation-error").textContent = text || "";
    if (text) $("moderation-reason").setAttribute("aria-invalid", "true");
    else $("moderation-reason").removeAttribute("aria-invalid");
  }

  function act(action) {
    if (!shown) return;
    const text = $("moderation-reason").value.trim();
    if (text === "") {
      setError(action === "resolve" ? "Write a note saying what was done." : "Write the reason: the person is shown it.");
      $("moderation-reason").focus();
      return;
    }
    const id = shown.item.profile;
    if (action === "ban") {
      const daysText = $("moderation-days").value.trim();
      const args = { action: "ban", id, reason: text };
      if (daysText !== "") {
        const days = Number(daysText);
        if (!Number.isInteger(days) || days < 1 || days > 36500) {
          setError("Days: a whole number from 1 to 36500, or empty for good.");
          $("moderation-days").focus();
          return;
        }
        args.days = days;
      }
      page.send("moderate", args);
    } else if (action === "warn") {
      page.send("moderate", { action: "warn", id, reason: text });
    } else {
      page.send("moderate", { action: "resolve", item: shown.item.item, note: text });
    }
  }

  // ---- warnings and suspension, for everyone ----------------------------------
  function showWarnings(warnings) {
    if (!warnings || warnings.length === 0) return;
    const list = $("warning-list");
    list.replaceChildren();
    for (const warning of warnings) {
      const li = document.createElement("li");
      li.textContent = `${warning.warned_at.slice(0, 10)}: ${warning.reason}`;
      list.append(li);
    }
    $("warning-banner").hidden = false;
  }

  function showSuspended(reason, until) {
    const words = `Your account is suspended ${until ? "until " + until.slice(0, 10) : "for good"}: ${reason}`;
    page.ended = words;
    for (const id of ["me-panel", "detail", "list-panel", "screen", "match-banner", "moderation-panel",
      "warning-banner"]) {
      const el = $(id);
      if (el) el.hidden = true;
    }
    const nav = document.querySelector("#bar nav");
    if (nav) nav.hidden = true;
    $("who").textContent = "Suspended";
    $("suspended-reason").textContent = words;
    $("suspended-panel").hidden = false;
    $("suspended-title").focus();
    page.status(words, true);
  }

  page.on("hello", (event) => {
    $("show-moderation").hidden = !event.moderator;
    showWarnings(event.warnings);
  });
  page.on("suspended", (event) => showSuspended(event.reason, event.until));
  page.onAnswer((answer) => {
    if (answer.cmd === "acknowledge") {
      if (answer.ok !== false) $("warning-banner").hidden = true;
      return;
    }
    if (answer.cmd !== "moderate") return;
    if (answer.ok === false) {
      if (shown) setError(answer.error || "Refused.");
      else say(answer.error || "Refused.", true);
      return;
    }
    if (answer.queue) drawQueue(answer.queue);
    else if (answer.evidence) drawEvidence(answer.evidence);
    else if (answer.message) {
      page.status(answer.message);
      showQueue();
      say(answer.message);
    }
  });

  $("show-moderation").addEventListener("click", openPanel);
  $("moderation-close").addEventListener("click", closePanel);
  $("moderation-back").addEventListener("click", showQueue);
  $("moderation-ban").addEventListener("click", () => act("ban"));
  $("moderation-warn").addEventListener("click", () => act("warn"));
  $("moderation-resolve").addEventListener("click", () => act("resolve"));
  $("warning-ack").addEventListener("click", () => page.send("acknowledge"));
  panel.addEventListener("keydown", (e) => { if (e.key === "Escape") closePanel(); });
})();
