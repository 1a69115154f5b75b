// swipe serve: the "Me" view (Documentation/PersonalData.md). One's own
// profile, edited one field at a time with the REPL's own `me set` commands
// over the page's socket (window.swipePage, from app.js); the server checks
// each value as `swipe import` checks that column and its refusal is shown
// next to the field. Text reaches the page through .value / textContent only.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  // Field name (me set FIELD) -> how the form shows it, from the `me` object.
  const FIELDS = {
    name: (me) => me.name || "",
    age: (me) => String(me.age ?? ""),
    gender: (me) => me.gender || "",
    city: (me) => me.city || "",
    bio: (me) => me.bio || "",
    interests: (me) => (me.interests || []).join("; "),
    place: (me) => (me.lat == null ? "" : `${me.lat},${me.lon}`),
    seeking: (me) => ((me.seeking || []).length ? me.seeking.join(";") : "any"),
    ages: (me) => `${me.age_min}-${me.age_max}`,
    km: (me) => (me.max_km == null ? "off" : String(me.max_km)),
  };
  // An empty box means "none" where the field has a word for it.
  const EMPTY = { place: "none", seeking: "any", km: "off" };
  let shown = null;          // the `me` object the form was filled from
  const pending = [];        // fields sent, in order, awaiting their answers
  const saved = [];          // fields of this Save that were saved, in order


  function fill(me) {
    shown = me;
    for (const [field, value] of Object.entries(FIELDS)) $(`me-${field}`).value = value(me);
  }

  function setError(field, text) {
    const box = $(`me-${field}`), error = $(`me-error-${field}`);
    error.textContent = text || "";
    if (text) box.setAttribute("aria-invalid", "true"); else box.removeAttribute("aria-invalid");
  }

  function open() {
    for (const field of Object.keys(FIELDS)) setError(field, "");
    $("me-saved").textContent = "";
    $("me-panel").hidden = false;
    window.swipePage.send("me");
    $("me-name").focus();
  }

  function close() {
    $("me-panel").hidden = true;
    $("show-me").focus();
  }

  function save(event) {
    event.preventDefault();
    if (!shown) return;
    $("me-saved").textContent = "";
    saved.length = 0;
    for (const [field, value] of Object.entries(FIELDS)) {
      const typed = $(`me-${field}`).value;
      if (typed === value(shown)) continue;
      setError(field, "");
      pending.push(field);
      const text = typed.trim() === "" && EMPTY[field] ? EMPTY[field] : typed;
      // The value as typed (free text); an empty box clears a field that may be empty.
      window.swipePage.send("me_set", { field, value: text, tag: { field } });
    }
    if (!pending.length) $("me-saved").textContent = "Nothing changed.";
  }

  window.swipePage.onAnswer((answer) => {
    const verb = window.swipePage.verbOf(answer);
    if (verb === "me" && answer.me) { fill(answer.me); return; }
    if (verb !== "me_set") return;
    const field = pending.shift() || (answer.tag && answer.tag.field);
    if (answer.ok === false) {
      // The server's words ("me set age: age must be …"), next to the field.
      setError(field, (answer.error || "Not saved.").replace(/^me set \w+: /, ""));
      $(`me-${field}`).focus();
    } else if (answer.me) {
      setError(field, "");
      shown = answer.me;
      $(`me-${field}`).value = FIELDS[field](answer.me);
      saved.push(field);
      $("me-saved").textContent = `Saved: ${saved.join(", ")}.`;
    }
  });
  // Another page of this viewer changed the profile: show it as it now is.
  window.swipePage.on("me-changed", () => { if (!$("me-panel").hidden && !pending.length) window.swipePage.send("me"); });
  window.swipePage.on("unmatched", (event) => {
    const status = $("status");
    if (status) status.textContent = `${event.profile} left swipe: your match with them ended.`;
  });

  $("show-me").addEventListener("click", open);
  $("me-close").addEventListener("click", close);
  $("me-form").addEventListener("submit", save);
  // Keys typed in the view are the view's: the deck's arrows and Backspace
  // must not like, pass or undo behind it.
  $("me-panel").addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Escape") close();
  });
})();
