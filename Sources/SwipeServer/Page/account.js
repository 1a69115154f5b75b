// swipe serve: "Your data" in the Me view (Documentation/PersonalData.md).
// "Download my data" is a plain link to GET /me/export, which answers the
// signed-in viewer's document as a file (the one `swipe export` writes).
// "Erase my account…" opens a dialog that asks for the viewer's id, typed
// again (as the REPL's `me erase ID` does), and only then sends `me erase
// ID` over the page's socket (window.swipePage, from app.js); the server
// checks the id too. After the erasure the page says so and is signed out.
// Text reaches the page through textContent only.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const dialog = $("erase-dialog");
  let viewer = null;   // the signed-in id, from the socket's hello or `me`
  let erasing = false; // `me erase` sent, its answer awaited

  function setError(text) {
    $("erase-error").textContent = text || "";
    if (text) $("erase-confirm").setAttribute("aria-invalid", "true");
    else $("erase-confirm").removeAttribute("aria-invalid");
  }

  function openDialog() {
    if (!viewer) return;
    $("erase-id").textContent = viewer;
    $("erase-confirm").value = "";
    setError("");
    dialog.showModal();
    $("erase-confirm").focus();
  }

  function closeDialog() {
    if (dialog.open) dialog.close();
    $("me-erase").focus();
  }

  function confirm(event) {
    event.preventDefault();
    if (erasing) return;
    const typed = $("erase-confirm").value.trim();
    if (typed !== viewer) {
      setError(typed === "" ? `Type ${viewer} to confirm; nothing was erased.`
        : `That is not your id (${viewer}); nothing was erased.`);
      $("erase-confirm").focus();
      return;
    }
    erasing = true;
    $("erase-go").disabled = true;
    window.swipePage.send("me_erase", { id: typed });
  }

  function showErased() {
    window.swipePage.ended = "Your account was erased; this page is signed out.";
    if (dialog.open) dialog.close();
    for (const id of ["me-panel", "detail", "list-panel", "screen", "match-banner"]) {
      const el = $(id);
      if (el) el.hidden = true;
    }
    const nav = document.querySelector("#bar nav");
    if (nav) nav.hidden = true;
    $("who").textContent = "Signed out";
    $("account-erased").hidden = false;
    $("account-erased-title").focus();
    window.swipePage.status(window.swipePage.ended);
  }

  window.swipePage.on("hello", (event) => { viewer = event.viewer || viewer; });
  window.swipePage.onAnswer((answer) => {
    if (answer.me && answer.me.id) viewer = answer.me.id;
    if (answer.cmd !== "me_erase") return;
    if (answer.ok === false) {
      erasing = false;
      $("erase-go").disabled = false;
      // The server's words ("me erase takes your own id …").
      setError(answer.error || "Not erased.");
      return;
    }
    if (answer.erased) showErased();
  });

  $("me-erase").addEventListener("click", openDialog);
  $("erase-cancel").addEventListener("click", closeDialog);
  $("erase-form").addEventListener("submit", confirm);
  // Escape closes the dialog (the browser's own cancel), not the Me view
  // under it; no key reaches the deck.
  dialog.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Escape") { e.preventDefault(); closeDialog(); }
  });
})();
