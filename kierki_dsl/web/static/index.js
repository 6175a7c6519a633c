"use strict";
// The front page: rulesets (with their explain text), upload and lint, seats, creating a table.
let KINDS = ["human", "random", "heuristic", "search"]; // and the bots the server offers (kierki web --bot)
let chosen = null; // {id} of a listed ruleset or {upload: {name, text}}
let players = 4;

async function loadBots() {
  const r = await fetch("/api/bots");
  if (r.ok) KINDS = ["human", ...(await r.json()).bots];
}

async function loadRulesets() {
  await loadBots();
  const r = await fetch("/api/rulesets?lang=" + encodeURIComponent(lang));
  const list = await r.json();
  const box = document.getElementById("rulesets");
  box.textContent = "";
  for (const rs of list) {
    const radio = el("input", { type: "radio", name: "ruleset", value: rs.id, id: "rs-" + rs.id,
      onchange: () => choose({ ruleset: rs.id }, rs.players, div) });
    const div = el("div", { class: "ruleset", "data-id": rs.id },
      el("label", { for: "rs-" + rs.id }, radio, " ", el("strong", { text: rs.name }), " ", el("span", { class: "muted", text: rs.id })),
      el("div", { class: "muted", text: rs.description }),
      el("details", {}, el("summary", { text: t("the rules (kierki explain)") }), el("pre", { text: rs.explain })));
    box.append(div);
  }
}

function choose(what, n, div) {
  chosen = what;
  players = n;
  document.querySelectorAll(".ruleset").forEach(d => d.classList.remove("chosen"));
  if (div) div.classList.add("chosen");
  drawSeats();
}

function drawSeats() {
  const box = document.getElementById("seats");
  box.textContent = "";
  for (let s = 0; s < players; s++) {
    const sel = el("select", { id: "seat-" + s, "aria-label": t("seat {seat}", { seat: seatName(s, players) }) },
      KINDS.map(k => el("option", { value: k, text: kindName(k) })));
    sel.value = s === 0 ? "human" : "heuristic";
    box.append(el("div", {}, el("label", { for: "seat-" + s, text: seatName(s, players) + ": " }), sel));
  }
  document.getElementById("create").disabled = chosen === null;
}

function showFindings(findings) {
  const box = document.getElementById("findings");
  box.textContent = "";
  if (!findings || !findings.length) return;
  box.append(el("pre", { class: "error", text: findings.map(f => f.text).join("\n") }));
}

document.getElementById("upload").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  const text = await file.text();
  const { status, doc } = await postJSON("/api/lint?lang=" + encodeURIComponent(lang), { name: file.name, text });
  showFindings(doc.findings || [{ text: doc.error || t("error {status}", { status }) }]);
  if (doc.ok) {
    document.querySelectorAll("input[name=ruleset]").forEach(r => r.checked = false);
    choose({ upload: { name: file.name, text } }, doc.players, null);
    document.getElementById("findings").prepend(el("p", { text: t("✔ {name} lints clean and is chosen.", { name: doc.name }) }));
  } else {
    chosen = null;
    drawSeats();
  }
});

document.getElementById("create").addEventListener("click", async () => {
  const seats = [];
  for (let s = 0; s < players; s++) seats.push(document.getElementById("seat-" + s).value);
  const { status, doc } = await postJSON("/api/tables?lang=" + encodeURIComponent(lang), Object.assign({ seats, public: document.getElementById("public").checked }, chosen));
  const box = document.getElementById("created");
  box.textContent = "";
  if (status !== 200) {
    box.append(el("p", { class: "error", text: doc.error || t("error {status}", { status }) }));
    if (doc.findings) showFindings(doc.findings);
    return;
  }
  const ul = el("ul", { class: "links" });
  for (const [s, link] of Object.entries(doc.links)) {
    ul.append(el("li", {}, el("strong", { text: seatName(Number(s), players) + ": " }),
      el("a", { href: link, target: "_blank", class: "seat-link", "data-seat": s, text: link })));
  }
  box.append(el("p", { text: t("Table created. Send each person their own link (it is their seat's secret):") }), ul,
    el("p", {}, t("Manage the table (revoke a link): "), el("a", { href: doc.admin, id: "admin-link", text: doc.admin })));
});

async function loadMatches() {
  const list = await (await fetch("/api/matches")).json();
  const ul = document.getElementById("matches");
  ul.textContent = "";
  if (!list.length) ul.append(el("li", { class: "muted", text: t("none yet") }));
  for (const m of list) ul.append(el("li", {}, el("a", { href: "/m/" + m.id, text: (m.ruleset || t("match")) + " " + m.id }),
    " " + t("totals") + " " + (m.totals || []).join(" / ")));
}

withWords(() => { loadRulesets(); loadMatches(); });
