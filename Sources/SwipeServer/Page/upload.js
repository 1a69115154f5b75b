// swipe serve: one's own photos in the "Me" view (Documentation/Photos.md).
// A photo is added by uploading the file (POST /photos, the file's bytes as
// the body: the server checks and strips it as `me photo add FILE` does and
// answers as the socket would); it is removed or moved earlier with the
// REPL's own `me photo remove N` / `me photo move N M` over the page's
// socket (window.swipePage, from app.js). Every refusal is shown as text
// under the file input. Text goes in through textContent only, and only
// same-origin photo paths are ever loaded.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const list = $("me-photo-list"), none = $("me-photo-none"), input = $("me-photo-file");
  const error = $("me-photo-error"), said = $("me-photo-status");
  if (!list || !input || !window.swipePage) return;
  let uploading = false;

  function setError(text) {
    error.textContent = text || "";
    if (text) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }

  function button(text, label, onClick) {
    const el = document.createElement("button");
    el.type = "button";
    el.textContent = text;
    el.setAttribute("aria-label", label);
    el.addEventListener("click", onClick);
    return el;
  }

  // The list as the profile holds it: one row per photo, in order.
  function draw(me, focusAt) {
    const photos = me.photos || [];
    const rows = photos.map((item, index) => {
      const n = index + 1;
      const row = document.createElement("li");
      row.className = "me-photo";
      row.dataset.photo = item;
      const face = document.createElement("div");
      face.className = "me-photo-face";
      if (typeof item === "string" && /^\/photos\/[A-Za-z0-9_-]+$/.test(item)) {
        const img = document.createElement("img");
        img.alt = `Photo ${n}`;
        img.referrerPolicy = "no-referrer";
        img.src = item;
        face.append(img);
      } else {
        // An https:// photo is not loaded here (it would tell its host who looked).
        face.textContent = `Photo ${n}: a web address`;
      }
      const actions = document.createElement("div");
      actions.className = "me-photo-actions";
      if (n > 1) {
        actions.append(button("Move earlier", `Move photo ${n} earlier`,
          () => act("me_photo_move", { from: n, to: n - 1 }, n - 1)));
      }
      actions.append(button("Remove", `Remove photo ${n}`, () => act("me_photo_remove", { n }, n)));
      row.append(face, actions);
      return row;
    });
    list.replaceChildren(...rows);
    list.hidden = rows.length === 0;
    none.hidden = rows.length > 0;
    if (focusAt !== undefined) {
      // Focus stays where the person was: the row now at that place, else the file input.
      const row = rows[Math.min(focusAt, rows.length) - 1];
      const target = row ? row.querySelector("button:last-child") : input;
      target.focus();
    }
  }

  let focusAfter;
  function act(cmd, args, focusAt) {
    setError("");
    said.textContent = "";
    focusAfter = focusAt;
    window.swipePage.send(cmd, args);
  }

  window.swipePage.onAnswer((answer) => {
    const verb = window.swipePage.verbOf(answer);
    if (verb === "me" && answer.me) { draw(answer.me); return; }
    if (!verb.startsWith("me_photo")) return;
    if (answer.ok === false) {
      setError(answer.error || "That did not work.");
      return;
    }
    if (answer.me) {
      draw(answer.me, focusAfter);
      focusAfter = undefined;
      said.textContent = answer.notice ? answer.notice.charAt(0).toUpperCase() + answer.notice.slice(1) + "." : "";
    }
  });

  async function upload(file) {
    uploading = true;
    setError("");
    said.textContent = `Uploading ${file.name}…`;
    try {
      const response = await fetch(`/photos?name=${encodeURIComponent(file.name)}`, {
        method: "POST",
        body: file,
        credentials: "same-origin",
        headers: { "Content-Type": file.type || "application/octet-stream" },
      });
      const text = await response.text();
      let answer = null;
      try { answer = JSON.parse(text); } catch { answer = null; }
      if (answer && answer.ok && answer.me) {
        draw(answer.me);
        said.textContent = `Photo added: ${file.name}.`;
      } else {
        said.textContent = "";
        // The server's words ("me photo add: cat.gif: not a JPEG, PNG or WebP image …").
        const why = answer && answer.error ? answer.error : text.trim() || `the server answered ${response.status}`;
        setError(why.replace(/^me photo add: /, ""));
      }
    } catch (failure) {
      said.textContent = "";
      setError(`The upload did not reach the server (${failure.message}); try again.`);
    } finally {
      uploading = false;
      input.value = "";
    }
  }

  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    if (file && !uploading) upload(file);
  });
})();
