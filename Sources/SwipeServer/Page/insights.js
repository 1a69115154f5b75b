// swipe serve: insights on the page (Documentation/Insights.md).
// - Me shows "Your activity": the person's own rows ({"cmd":"insights"}),
//   one measure drawn as bars, per day, week or month.
// - A moderator (the hello says so) gets an Insights view of the whole
//   market ({"cmd":"insights","all":true}); the server checks the role.
// Each chart is inline SVG drawn here (no library), with a title for screen
// readers and the numbers in a table beside it. Text reaches the page
// through textContent only.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const page = window.swipePage;
  const SVG = "http://www.w3.org/2000/svg";
  // The keys a chart can draw, with the words a person reads.
  const MEASURES = [
    ["matches", "matches"], ["likes", "likes"], ["superlikes", "superlikes"], ["hates", "nopes"],
    ["matches_per_100_likes", "matches per 100 likes"], ["like_rate", "share of decisions that are likes"],
    ["conversations", "conversations"], ["replied", "conversations with a reply"],
    ["median_hours_to_first_message", "median hours to a first message"],
    ["active", "people active"], ["exposure_gini", "exposure Gini (0 even, 1 on one person)"],
  ];
  const OWN = new Set(["matches", "likes", "superlikes", "hates", "matches_per_100_likes", "like_rate",
    "conversations", "replied", "median_hours_to_first_message"]);
  const PERIOD = { day: "day", week: "week", month: "month" };
  const views = {
    me: { root: $("me-insights"), all: false, rows: null },
    market: { root: $("insights-panel"), all: true, rows: null },
  };
  const panel = $("insights-panel");

  page.quiet.add("insights");
  const coveredBefore = page.covered;
  page.covered = () => coveredBefore() || !panel.hidden;

  for (const [name, view] of Object.entries(views)) {
    const select = view.root.querySelector(".insights-measure");
    for (const [key, words] of MEASURES) {
      if (name === "me" && !OWN.has(key)) continue;
      const option = document.createElement("option");
      option.value = key;
      option.textContent = words;
      select.append(option);
    }
    select.addEventListener("change", () => draw(view));
    view.root.querySelector(".insights-by").addEventListener("change", () => ask(name));
  }

  function ask(name) {
    const view = views[name];
    const by = view.root.querySelector(".insights-by").value;
    page.send("insights", view.all ? { by, all: true, tag: { insights: name } } : { by, tag: { insights: name } });
  }

  function el(tag, text) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
    return node;
  }

  function number(value) {
    if (value === null || value === undefined) return "–";
    return Number.isInteger(value) ? String(value) : value.toFixed(2);
  }

  function draw(view) {
    const rows = view.rows || [];
    const measure = view.root.querySelector(".insights-measure").value;
    const words = (MEASURES.find(([key]) => key === measure) || [measure, measure])[1];
    const by = PERIOD[view.root.querySelector(".insights-by").value] || "period";
    const chart = view.root.querySelector(".insights-chart");
    const values = rows.map((row) => row[measure]);
    const largest = Math.max(0, ...values.filter((v) => typeof v === "number"));
    chart.replaceChildren();
    if (!rows.length || largest <= 0) {
      chart.append(el("p", `No ${words} per ${by} in these ${rows.length} ${by}s yet.`));
    } else {
      const width = 320, height = 150, left = 30, bottom = 18, top = 8;
      const id = `${view.root.id}-chart-title`;
      const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": id });
      const top1 = rows[values.indexOf(largest)].period;
      const title = svg("title", { id });
      title.textContent = `${words} per ${by}, ${rows.length} ${by}s from ${rows[0].period} to `
        + `${rows[rows.length - 1].period}; the largest is ${number(largest)} (${top1}). The table lists each ${by}.`;
      picture.append(title);
      const room = (width - left) / rows.length;
      rows.forEach((row, index) => {
        const value = typeof values[index] === "number" ? values[index] : 0;
        const barHeight = (value / largest) * (height - top - bottom);
        const bar = svg("rect", {
          class: "bar", x: (left + index * room + room * 0.15).toFixed(1), width: (room * 0.7).toFixed(1),
          y: (height - bottom - barHeight).toFixed(1), height: barHeight.toFixed(1),
        });
        const tip = svg("title");
        tip.textContent = `${row.period}: ${number(values[index])} ${words}`;
        bar.append(tip);
        picture.append(bar);
      });
      picture.append(svg("line", { class: "axis", x1: left, y1: height - bottom, x2: width, y2: height - bottom }));
      const most = svg("text", { x: 0, y: top + 8 });
      most.textContent = number(largest);
      const first = svg("text", { x: left, y: height - 4 });
      first.textContent = rows[0].period;
      const last = svg("text", { x: width, y: height - 4, "text-anchor": "end" });
      last.textContent = rows[rows.length - 1].period;
      picture.append(most, first, last);
      chart.append(picture);
    }
    const table = view.root.querySelector(".insights-table");
    const columns = ["likes", "matches", "conversations"];
    if (!columns.includes(measure)) columns.push(measure);
    const head = el("tr");
    head.append(el("th", by));
    for (const key of columns) head.append(el("th", (MEASURES.find(([k]) => k === key) || [key, key])[1]));
    for (const cell of head.children) cell.setAttribute("scope", "col");
    const body = document.createElement("tbody");
    for (const row of rows) {
      const tr = el("tr");
      const th = el("th", row.period);
      th.setAttribute("scope", "row");
      tr.append(th);
      for (const key of columns) tr.append(el("td", number(row[key])));
      body.append(tr);
    }
    const thead = document.createElement("thead");
    thead.append(head);
    table.replaceChildren(el("caption", `${view.all ? "The market" : "You"}, per ${by}`), thead, body);
  }

  page.on("hello", (event) => { $("show-insights").hidden = !event.moderator; });
  page.onAnswer((answer) => {
    if (answer.cmd !== "insights") return;
    const name = answer.tag && answer.tag.insights;
    const view = views[name];
    if (!view) return;
    if (answer.ok === false) {
      const chart = view.root.querySelector(".insights-chart");
      chart.replaceChildren(el("p", answer.error || "Refused."));
      return;
    }
    view.rows = answer.insights || [];
    draw(view);
    if (name === "market") $("insights-summary").textContent = `${view.rows.length} periods.`;
  });

  $("show-me").addEventListener("click", () => ask("me"));
  $("show-insights").addEventListener("click", () => {
    panel.hidden = false;
    ask("market");
    $("insights-title").focus();
  });
  function close() {
    panel.hidden = true;
    page.focusDeck();
  }
  $("insights-close").addEventListener("click", close);
  panel.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
})();
