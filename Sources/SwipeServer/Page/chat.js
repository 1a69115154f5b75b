// swipe serve: after the match (Documentation/Serve.md, "Conversations on
// the page"). The Matches panel is the inbox (last message, unread count,
// "3 min ago"); a row opens the conversation: the person's initial or photo
// and name, the messages, a composer. Each send carries a client id of its
// own, and a retry sends the same id again, so a message is stored once
// whatever the network did. Messages that arrive ({"event":"message"}) are
// shown at once and marked read when the conversation is open; otherwise
// they count on the Matches button. Likes-you rows open the person, who can
// be liked back from there. Under each card's name, a line says why it is
// dealt (`why`).
//
// It drives the page through app.js's hook points (window.swipePage) and
// only ever sets text through textContent: message text is data.
"use strict";

(() => {
  const page = window.swipePage;
  if (!page) return;
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("aria-") || key === "role" || key === "for") node.setAttribute(key, value);
      else node[key] = value;
    }
    node.append(...children);
    return node;
  };

  // What tests can read.
  const debug = { chat: null, unread: 0, sends: [] };
  window.swipeChat = debug;

  // Answers of these commands are this script's alone (not drawn by app.js).
  for (const verb of ["inbox", "chat", "/back", "say", "why"]) page.quiet.add(verb);

  // ---- relative times ----------------------------------------------------------
  function ago(iso) {
    const then = Date.parse(iso);
    if (Number.isNaN(then)) return "";
    const seconds = Math.max(0, (Date.now() - then) / 1000);
    if (seconds < 45) return "just now";
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return `${minutes} min ago`;
    const hours = Math.round(minutes / 60);
    if (hours < 24) return `${hours} h ago`;
    const days = Math.round(hours / 24);
    if (days < 7) return `${days} d ago`;
    // A date as everything else on the page and in swipe writes it: ISO, UTC.
    return new Date(then).toISOString().slice(0, 10);
  }

  function timeElement(iso) {
    const time = el("time", { dateTime: iso, title: iso, text: ago(iso) });
    time.dataset.at = iso;
    return time;
  }

  setInterval(() => {
    document.querySelectorAll("time[data-at]").forEach((time) => { time.textContent = ago(time.dataset.at); });
  }, 30000);

  function newClientID() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // ---- the unread badge on the Matches button -------------------------------------
  const matchesButton = $("show-matches");
  const badge = el("span", { class: "badge", hidden: true, "aria-hidden": "true" });
  matchesButton.append(badge);

  function setUnread(count) {
    debug.unread = count;
    badge.textContent = String(count);
    badge.hidden = count <= 0;
    matchesButton.setAttribute("aria-label", count > 0 ? `Matches, ${count} unread` : "Matches");
  }

  // ---- the conversation view --------------------------------------------------------
  const panel = el("section", { id: "chat-panel", hidden: true, role: "dialog", "aria-modal": "true",
                                "aria-labelledby": "chat-name" });
  const back = el("button", { type: "button", id: "chat-back", text: "← Inbox" });
  const photo = el("div", { class: "chat-photo", "aria-hidden": "true" });
  const title = el("h2", { id: "chat-name" });
  const profileButton = el("button", { type: "button", id: "chat-profile", text: "Profile" });
  const unmatch = el("button", { type: "button", id: "chat-unmatch", text: "Unmatch" });
  const reportButton = el("button", { type: "button", id: "chat-report", text: "Report",
                                      "aria-expanded": "false", "aria-controls": "chat-report-form" });
  const head = el("div", { class: "chat-head" }, back, photo, title, profileButton, unmatch, reportButton);
  const list = el("ol", { class: "chat-list" });
  const log = el("div", { id: "chat-log", role: "log", "aria-live": "polite", "aria-label": "Messages" }, list);
  const notice = el("p", { id: "chat-notice", role: "status" });
  const input = el("input", { id: "chat-input", type: "text", maxLength: 2000, autocomplete: "off" });
  input.placeholder = "Message";
  input.setAttribute("aria-label", "Message");
  const sendButton = el("button", { type: "submit", id: "chat-send", text: "Send" });
  const form = el("form", { id: "chat-form", "aria-label": "Write a message" }, input, sendButton);
  // Report: asks for a reason (a form of its own under the head), then
  // `report ID REASON`: the moderators get the report with the last 50
  // messages, the person is blocked, the conversation ends for both, and
  // the chat closes.
  const reportReason = el("input", { id: "chat-report-reason", type: "text", maxLength: 500, autocomplete: "off",
                                     required: true });
  const reportLabel = el("label", { for: "chat-report-reason", id: "chat-report-label" });
  const reportSend = el("button", { type: "submit", id: "chat-report-send", text: "Send report" });
  const reportCancel = el("button", { type: "button", id: "chat-report-cancel", text: "Cancel" });
  const reportHint = el("p", { id: "chat-report-hint" });
  const reportStatus = el("p", { id: "chat-report-status", role: "alert" });
  reportReason.setAttribute("aria-describedby", "chat-report-hint");
  const reportForm = el("form", { id: "chat-report-form", hidden: true, "aria-labelledby": "chat-report-label" },
                        reportLabel, reportHint, reportReason, el("div", { class: "row" }, reportSend, reportCancel),
                        reportStatus);
  panel.append(head, reportForm, log, notice, form);
  $("stage").append(panel);

  let chat = null;          // { id, name, messages: Map(seq -> message), pending: Map(clientID -> send), ended }
  let inboxWanted = false;  // the next inbox answer is shown (the Matches button was pressed)
  let inboxShown = false;   // the list panel shows the inbox now
  let lastInbox = [];

  page.covered = () => !panel.hidden || !person.hidden;

  function openChat(id, name) {
    chat = { id, name: name || id, messages: new Map(), pending: new Map(), ended: null };
    debug.chat = chat;
    const profile = page.profiles.get(id) || { name: chat.name, photos: [] };
    photo.replaceChildren();
    page.fillPhoto(photo, { name: chat.name, photos: profile.photos || [] });
    title.textContent = chat.name;
    input.setAttribute("aria-label", `Message to ${chat.name}`);
    notice.textContent = "";
    unmatch.dataset.armed = "";
    unmatch.textContent = "Unmatch";
    hideReport();
    reportButton.disabled = false;
    input.value = "";
    input.disabled = false;
    sendButton.disabled = false;
    $("list-panel").hidden = true;
    inboxShown = false;
    panel.hidden = false;
    drawMessages();
    input.focus();
    read(id);
  }

  // Reads the conversation (its last 20 messages) and marks it read: `chat`
  // enters it and `/back` leaves at once, in one go, so no other command of
  // the page is ever taken for a message.
  function read(id) {
    page.send("chat", { id, tag: { chat: id } });
    page.send("back", { tag: { verb: "/back" } });
  }

  function closeChat(toInbox) {
    if (panel.hidden) return;
    panel.hidden = true;
    const id = chat && chat.id;
    chat = null;
    debug.chat = null;
    if (toInbox) {
      showInbox(id);
    } else {
      page.focusDeck();
    }
  }

  function endChat(reason) {
    if (!chat) return;
    chat.ended = reason;
    notice.textContent = reason;
    input.disabled = true;
    sendButton.disabled = true;
    hideReport();
    reportButton.disabled = true;
    chat.pending.clear();
    drawMessages();
    back.focus();
  }

  function drawMessages() {
    if (!chat) return;
    const rows = [...chat.messages.values()].sort((a, b) => a.seq - b.seq).map((message) => {
      const mine = message.sender !== chat.id;
      const li = el("li", { class: mine ? "mine" : "theirs" });
      li.dataset.seq = String(message.seq);
      li.append(el("span", { class: "visually-hidden", text: mine ? "You: " : `${chat.name}: ` }),
                el("span", { class: "text", text: message.text }), timeElement(message.sent_at));
      return li;
    });
    for (const [clientID, pending] of chat.pending) {
      const li = el("li", { class: `mine pending ${pending.failed ? "failed" : ""}` });
      li.dataset.clientId = clientID;
      li.append(el("span", { class: "text", text: pending.text }));
      if (pending.failed) {
        const retry = el("button", { type: "button", class: "retry", text: "Retry" });
        retry.setAttribute("aria-label", `Not sent (${pending.error}). Retry`);
        retry.addEventListener("click", () => transmit(clientID));
        li.append(el("span", { class: "state", text: `Not sent: ${pending.error}` }), retry);
      } else {
        li.append(el("span", { class: "state", text: "sending…" }));
      }
      rows.push(li);
    }
    if (!rows.length) rows.push(el("li", { class: "empty", text: chat.ended ? "" : "No messages yet: say hello." }));
    list.replaceChildren(...rows);
    log.scrollTop = log.scrollHeight;
  }

  function transmit(clientID) {
    const pending = chat && chat.pending.get(clientID);
    if (!pending || chat.ended) return;
    pending.failed = false;
    drawMessages();
    debug.sends.push(clientID);
    page.send("say", { to: chat.id, text: pending.text, client_id: clientID, tag: { client: clientID } });
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || !chat || chat.ended) return;
    const clientID = newClientID();
    chat.pending.set(clientID, { text, failed: false, error: "" });
    input.value = "";
    transmit(clientID);
  });

  back.addEventListener("click", () => closeChat(true));
  profileButton.addEventListener("click", () => { if (chat) openPerson(chat.id, "chat"); });
  // Two presses: the first asks, the second unmatches.
  unmatch.addEventListener("click", () => {
    if (!chat || chat.ended) return;
    if (unmatch.dataset.armed !== "yes") {
      unmatch.dataset.armed = "yes";
      unmatch.textContent = "Unmatch for good?";
      return;
    }
    page.send("unmatch", { id: chat.id });
  });

  // ---- reporting from the conversation -------------------------------------------
  let reporting = null;   // the id a report was sent about, until its answer

  function showReport() {
    if (!chat || chat.ended) return;
    reportLabel.textContent = `Why are you reporting ${chat.name}?`;
    reportHint.textContent = `The moderators get your reason and your last 50 messages. ${chat.name} is blocked and the conversation ends for both of you.`;
    reportStatus.textContent = "";
    reportReason.value = "";
    reportForm.hidden = false;
    reportButton.setAttribute("aria-expanded", "true");
    reportReason.focus();
  }

  function hideReport(focusButton) {
    reportForm.hidden = true;
    reportButton.setAttribute("aria-expanded", "false");
    reportStatus.textContent = "";
    if (focusButton) reportButton.focus();
  }

  reportButton.addEventListener("click", () => {
    if (reportForm.hidden) showReport();
    else hideReport(true);
  });
  reportCancel.addEventListener("click", () => hideReport(true));
  reportForm.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      // Escape leaves the question, not the conversation.
      e.preventDefault();
      e.stopPropagation();
      hideReport(true);
    }
  });
  reportForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const reason = reportReason.value.trim();
    if (!chat || chat.ended) return;
    if (!reason) {
      reportStatus.textContent = "Say why in a few words: the moderators read it.";
      reportReason.focus();
      return;
    }
    reporting = chat.id;
    reportSend.disabled = true;
    debug.reports = (debug.reports || 0) + 1;
    page.send("report", { id: chat.id, reason });
  });

  // The answer to a report sent from here: closes the chat, or says why not.
  function reported(answer) {
    const id = reporting;
    reporting = null;
    reportSend.disabled = false;
    if (!chat || chat.id !== id) return;
    if (!answer.ok) {
      reportStatus.textContent = `Not reported: ${answer.error || "that did not work"}.`;
      reportReason.focus();
      return;
    }
    const name = chat.name;
    hideReport();
    chat.ended = "reported";
    closeChat(true);
    page.status(`Reported ${name}: they are blocked and your conversation has ended.`);
  }

  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !panel.hidden && person.hidden) {
      e.preventDefault();
      closeChat(true);
    }
  });

  // ---- a person's page (opened from a list) ------------------------------------------
  // `open ID` then `back` at once: the session shows the profile (`opened`)
  // and goes straight back to the deck, so a key pressed later acts on the
  // deck's top card, never on this person. The buttons name the person.
  const person = el("section", { id: "person-panel", hidden: true, role: "dialog", "aria-modal": "true",
                                 "aria-labelledby": "person-name" });
  const personPhoto = el("div", { class: "person-photo", role: "img" });
  const personName = el("h2", { id: "person-name" });
  const personMeta = el("p", { class: "person-meta" });
  const personBio = el("p", { class: "person-bio" });
  const personInterests = el("ul", { class: "person-interests", "aria-label": "Interests" });
  const personRow = el("div", { class: "row" });
  person.append(personPhoto, personName, personMeta, personBio, personInterests, personRow);
  $("stage").append(person);
  let personShown = null;   // { id, name, from }
  let backsToClaim = 0;

  page.claim = (answer) => {
    if (page.verbOf(answer) === "back" && backsToClaim > 0) {
      backsToClaim--;
      return true;
    }
    return false;
  };

  function openPerson(id, from) {
    personShown = { id, name: id, from };
    backsToClaim++;
    page.send("open", { id });
    page.send("back");
  }

  function showPerson(profile) {
    if (!personShown || personShown.id !== profile.id) return;
    personShown.name = profile.name;
    page.profiles.set(profile.id, Object.assign({}, page.profiles.get(profile.id) || {}, profile));
    personPhoto.replaceChildren();
    personPhoto.setAttribute("aria-label", `Photo of ${profile.name}`);
    page.fillPhoto(personPhoto, profile);
    personName.textContent = profile.name;
    personMeta.textContent = page.describe(profile);
    personBio.textContent = profile.bio || "";
    personInterests.replaceChildren(...(profile.interests || []).map((text) => el("li", { text })));
    const button = (text, label, action) => {
      const b = el("button", { type: "button", text });
      if (label) b.setAttribute("aria-label", label);
      b.addEventListener("click", action);
      return b;
    };
    const id = profile.id;
    const isMatch = lastInbox.some((entry) => entry.profile === id);
    const buttons = [button("Back", null, () => closePerson())];
    if (isMatch) {
      buttons.push(button("Message", `Message ${profile.name}`, () => { closePerson(true); openChat(id, profile.name); }));
    } else {
      buttons.push(button("✕ Nope", `Nope ${profile.name}`, () => page.send("hate", { id })),
                   button("★ Superlike", `Superlike ${profile.name}`, () => page.send("superlike", { id })),
                   button("♥ Like back", `Like ${profile.name} back`, () => page.send("like", { id })));
    }
    buttons.push(button("Block", `Block ${profile.name}`, () => page.send("block", { id })));
    personRow.replaceChildren(...buttons);
    $("list-panel").hidden = true;
    person.hidden = false;
    buttons[buttons.length > 2 ? buttons.length - 2 : 0].focus();
  }

  function closePerson(quietly) {
    if (person.hidden) return;
    person.hidden = true;
    const from = personShown && personShown.from;
    personShown = null;
    if (quietly) return;
    if (from === "likes") page.send("likes");
    else if (from === "inbox") showInbox();
    else if (from === "chat" && chat) input.focus();
    else page.focusDeck();
  }

  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !person.hidden) {
      e.preventDefault();
      closePerson();
    }
  });

  // ---- the inbox (the Matches panel) --------------------------------------------
  page.showMatches = () => {
    inboxWanted = true;
    page.send("inbox");
  };

  function showInbox(focusID) {
    inboxWanted = true;
    pendingFocus = focusID || null;
    page.send("inbox");
  }
  let pendingFocus = null;

  function rowButton(id, name, lines, onOpen) {
    const button = el("button", { type: "button", class: "list-row" });
    button.dataset.profile = id;
    const face = el("span", { class: "list-photo", "aria-hidden": "true" });
    const profile = page.profiles.get(id) || { name, photos: [] };
    page.fillPhoto(face, { name, photos: profile.photos || [] });
    const body = el("span", { class: "list-body" }, el("span", { class: "list-name", text: name }), ...lines);
    button.append(face, body);
    button.addEventListener("click", onOpen);
    return el("li", {}, button);
  }

  function drawInbox(entries) {
    $("list-title").textContent = "Matches";
    const rows = entries.map((entry) => {
      const lines = [];
      if (entry.last) {
        const from = entry.last.sender === entry.profile ? "" : "You: ";
        lines.push(el("span", { class: "list-last", text: from + entry.last.text }));
      } else if (entry.expired) {
        lines.push(el("span", { class: "list-last", text: "Expired with no message" }));
      } else {
        lines.push(el("span", { class: "list-last", text: "New match: say hello" }));
      }
      const meta = el("span", { class: "list-meta" }, timeElement(entry.last ? entry.last.sent_at : entry.matched_at));
      if (entry.unread > 0) meta.append(el("span", { class: "badge", text: String(entry.unread) }));
      lines.push(meta);
      const li = rowButton(entry.profile, entry.name, lines, () => openChat(entry.profile, entry.name));
      const button = li.firstChild;
      button.setAttribute("aria-label", `${entry.name}${entry.unread ? `, ${entry.unread} unread` : ""}. Open the conversation.`);
      return li;
    });
    if (!rows.length) rows.push(el("li", { text: "No matches yet." }));
    $("list").replaceChildren(...rows);
    $("list-panel").hidden = false;
    inboxShown = true;
    const focus = pendingFocus && [...$("list").querySelectorAll("button.list-row")]
      .find((b) => b.dataset.profile === pendingFocus);
    pendingFocus = null;
    (focus || $("list").querySelector("button") || $("list-close")).focus();
  }

  // Likes you: each row opens the person (`open ID`), liked back from there.
  function drawLikes(answer) {
    if (!answer.ok) return false;
    $("list-title").textContent = "Likes you";
    const rows = (answer.likes || []).map((liker) => {
      const name = liker.name || liker.profile;
      const lines = [el("span", { class: "list-last", text: liker.decision === "superlike" ? "Superliked you ★" : "Likes you" })];
      if (liker.decided_at) lines.push(el("span", { class: "list-meta" }, timeElement(liker.decided_at)));
      const li = rowButton(liker.profile, name, lines, () => openPerson(liker.profile, "likes"));
      li.firstChild.setAttribute("aria-label", `${name}. Open the profile.`);
      return li;
    });
    if (!rows.length) rows.push(el("li", { text: "No one is waiting for you right now." }));
    $("list").replaceChildren(...rows);
    $("list-panel").hidden = false;
    inboxShown = false;
    ($("list").querySelector("button") || $("list-close")).focus();
    return true;
  }

  page.lists = (answer) => {
    const verb = page.verbOf(answer);
    if (verb === "likes") return drawLikes(answer);
    return false;
  };

  // ---- answers and events ------------------------------------------------------------
  function merge(messages) {
    if (!chat) return;
    for (const message of messages || []) chat.messages.set(message.seq, message);
  }

  page.on("answer", (answer) => onAnswer(answer));
  debug.answer = (answer) => onAnswer(answer);

  function onAnswer(answer) {
    const verb = page.verbOf(answer);
    if (verb === "inbox" && answer.ok) {
      lastInbox = answer.inbox || [];
      setUnread(lastInbox.reduce((sum, entry) => sum + (entry.unread || 0), 0));
      if (chat && !lastInbox.some((entry) => entry.profile === chat.id)) endChat("This conversation has ended.");
      if (inboxWanted) {
        inboxWanted = false;
        drawInbox(lastInbox);
      } else if (inboxShown && !$("list-panel").hidden) {
        drawInbox(lastInbox);
      }
    } else if (verb === "chat") {
      if (!chat || !answer.chat || answer.chat.profile !== chat.id) {
        if (chat && answer.ok === false && answer.tag && answer.tag.chat === chat.id) {
          endChat(answer.error || "This conversation has ended.");
        }
        return;
      }
      merge(answer.messages);
      drawMessages();
      // Reading marked them read: the badge counts again.
      page.send("inbox");
    } else if (verb === "say") {
      const clientID = answer.tag && answer.tag.client;
      if (!chat || !clientID || !chat.pending.has(clientID)) return;
      if (answer.ok && answer.message) {
        chat.pending.delete(clientID);
        chat.messages.set(answer.message.seq, answer.message);
      } else {
        const error = answer.error || "not sent";
        if (/has ended|no match|not matched|expired|blocked/i.test(error)) {
          endChat(error);
          return;
        }
        const pending = chat.pending.get(clientID);
        pending.failed = true;
        pending.error = error;
      }
      drawMessages();
    } else if (verb === "why" && answer.ok && answer.why) {
      showWhy(answer.why.profile, answer.why.reasons || []);
    } else if (verb === "open" && answer.opened) {
      showPerson(answer.opened);
    } else if (personShown && answer.ok && answer.decision && answer.decision.profile === personShown.id) {
      closePerson(true);
      page.focusDeck();
    } else if (verb === "report" && reporting !== null) {
      reported(answer);
    } else if (verb === "unmatch" || verb === "block" || verb === "report") {
      if (answer.ok && personShown) {
        closePerson(true);
        page.focusDeck();
      }
      if (answer.ok && chat) {
        endChat(`You ended the match with ${chat.name}.`);
        page.send("inbox");
      }
    }
    if (answer.cards && !page.quiet.has(verb)) {
      tidyWhy();
      askWhy(answer);
    }
  }

  page.on("event", (event) => {
    if (event.event === "hello") {
      page.send("inbox");
    } else if (event.event === "message" && event.mine) {
      // The viewer's own message, sent from elsewhere (another tab, swipe
      // send, a REPL) or from here (its pending line is this one).
      if (chat && event.profile === chat.id && !chat.ended) {
        chat.pending.delete(event.client_id);
        chat.messages.set(event.seq, { seq: event.seq, sender: "", text: event.text, sent_at: event.sent_at });
        drawMessages();
      } else if (inboxShown && !$("list-panel").hidden) {
        page.send("inbox");
      }
    } else if (event.event === "message") {
      if (chat && event.profile === chat.id && !chat.ended) {
        chat.messages.set(event.seq, { seq: event.seq, sender: event.profile, text: event.text, sent_at: event.sent_at });
        drawMessages();
        read(chat.id);
      } else {
        setUnread(debug.unread + 1);
        if (inboxShown && !$("list-panel").hidden) page.send("inbox");
      }
    } else if (event.event === "match") {
      if (inboxShown && !$("list-panel").hidden) page.send("inbox");
    } else if (event.event === "match-ended" || event.event === "unmatched") {
      if (chat && event.profile === chat.id) endChat(`The match with ${chat.name} has ended.`);
      page.send("inbox");
    } else if (event.event === "deck-changed" && chat) {
      // A block either way withdraws cards; the inbox says whether this conversation still stands.
      page.send("inbox");
    }
  });

  // ---- why this card ---------------------------------------------------------------
  // The top card's reasons, from `why` (what the viewer's `likes` shows and
  // the ranking's words), on a line under its name.
  let whyFor = null;
  for (const caption of document.querySelectorAll(".card .caption")) {
    caption.append(el("p", { class: "why" }));
  }

  function askWhy(answer) {
    if (answer.mode !== "deck" || !Array.isArray(answer.cards) || !answer.cards.length) return;
    const top = answer.cards[0].profile;
    if (!top || top === whyFor) return;
    const verb = page.verbOf(answer);
    if (verb === "drag") return;
    whyFor = top;
    page.send("why");
  }

  function showWhy(profile, reasons) {
    for (const card of document.querySelectorAll(".card")) {
      const line = card.querySelector(".why");
      if (line && card.dataset.profile === profile) {
        line.textContent = reasons.join(" · ");
        line.dataset.profile = profile;
      }
    }
    tidyWhy();
  }

  // A card that now shows someone else drops the line it had.
  function tidyWhy() {
    for (const card of document.querySelectorAll(".card")) {
      const line = card.querySelector(".why");
      if (line && line.dataset.profile !== card.dataset.profile) {
        line.textContent = "";
        line.dataset.profile = "";
      }
    }
  }
})();
