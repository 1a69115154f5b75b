// Photos in the detail view (Documentation/Photos.md): app.js draws one tile
// per photo in #detail-photos; this file turns them into a carousel that
// shows one photo at a time. A tap on the left half goes back, on the right
// half forward; so do the ‹ › buttons, the dots, and ←/→ while the detail is
// open (with one photo the arrows keep their deck meaning: nope, like).
// Only same-origin paths are ever loaded (app.js's photoURL; CSP img-src
// 'self'), and every text goes in through textContent.
"use strict";
(() => {
  const box = document.getElementById("detail-photos");
  const panel = document.getElementById("detail");
  if (!box || !panel) return;

  const nav = document.createElement("div");
  nav.className = "photo-nav";
  const prev = document.createElement("button");
  prev.type = "button";
  prev.className = "photo-prev";
  prev.textContent = "‹";
  prev.setAttribute("aria-label", "Previous photo");
  const next = document.createElement("button");
  next.type = "button";
  next.className = "photo-next";
  next.textContent = "›";
  next.setAttribute("aria-label", "Next photo");
  const dots = document.createElement("div");
  dots.className = "photo-dots";
  const count = document.createElement("span");
  count.className = "photo-count";
  count.setAttribute("aria-live", "polite");
  nav.append(prev, dots, count, next);
  box.after(nav);
  box.classList.add("carousel");
  box.setAttribute("role", "group");

  let profile = null;
  let index = 0;

  function tiles() { return Array.from(box.querySelectorAll(".tile")); }

  function show(at) {
    const all = tiles();
    if (all.length === 0) return;
    index = (at + all.length) % all.length;
    all.forEach((tile, i) => {
      tile.hidden = i !== index;
      tile.setAttribute("aria-label", `Photo ${i + 1} of ${all.length}`);
    });
    count.textContent = `${index + 1} / ${all.length}`;
    Array.from(dots.children).forEach((dot, i) => {
      dot.setAttribute("aria-current", i === index ? "true" : "false");
    });
    box.dataset.photo = String(index + 1);
  }

  // app.js redraws the tiles on every answer while the detail is open: the
  // carousel stays on its photo for the same profile, starts at 1 for another.
  function redraw() {
    const all = tiles();
    const name = document.getElementById("detail-name").textContent || "";
    box.setAttribute("aria-label", name ? `Photos of ${name}` : "Photos");
    if (panel.dataset.profile !== profile) {
      profile = panel.dataset.profile || null;
      index = 0;
    }
    nav.hidden = all.length < 2;
    dots.replaceChildren(...all.map((_, i) => {
      const dot = document.createElement("button");
      dot.type = "button";
      dot.className = "photo-dot";
      dot.setAttribute("aria-label", `Photo ${i + 1} of ${all.length}`);
      dot.addEventListener("click", () => show(i));
      return dot;
    }));
    show(Math.min(index, Math.max(0, all.length - 1)));
  }

  new MutationObserver(redraw).observe(box, { childList: true });
  new MutationObserver(redraw).observe(panel, { attributes: true, attributeFilter: ["data-profile", "hidden"] });
  prev.addEventListener("click", () => show(index - 1));
  next.addEventListener("click", () => show(index + 1));
  box.addEventListener("click", (e) => {
    if (tiles().length < 2) return;
    const rect = box.getBoundingClientRect();
    show(e.clientX - rect.left < rect.width / 2 ? index - 1 : index + 1);
  });
  // Before app.js's own keys (which listen on document): ←/→ page through
  // the photos while the detail is open and has more than one.
  window.addEventListener("keydown", (e) => {
    if (panel.hidden || tiles().length < 2 || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    show(e.key === "ArrowLeft" ? index - 1 : index + 1);
  }, true);
})();
