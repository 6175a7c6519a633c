"use strict";
// A finished match: the score sheet, the record, and every deal card by card.
const matchId = location.pathname.split("/").pop();
// a private match opens with a seat's (or the creator's) secret, after # in the link: sent as a header
const secret = decodeURIComponent(location.hash.slice(1));
const shown = secret ? { headers: { Authorization: "Bearer " + secret } } : {};
let match = null, deal = 0, step = 0;

async function download(path, name) {
  const r = await fetch(path, shown);
  if (r.status !== 200) return;
  const a = el("a", { href: URL.createObjectURL(await r.blob()), download: name });
  document.body.append(a); a.click(); a.remove();
}

function name(s) { return seatName(s, match.players); }

// What sat in a seat, as a person reads it (a person, or a bot by its name).
function kindWord(kind) {
  const known = { human: t("a person"), random: t("bot: random"), heuristic: t("bot: heuristic"), search: t("bot: search") };
  return known[kind] || t("bot: {name}", { name: kind });
}

async function load() {
  const r = await fetch("/api/matches/" + matchId + "?lang=" + encodeURIComponent(lang), shown);
  match = await r.json();
  if (r.status !== 200) { document.getElementById("title").textContent = match.error; return; }
  document.getElementById("title").textContent = t("{name} — seed {seed}", { name: match.ruleset.name, seed: match.seed });
  const n = match.players;
  const head = el("tr", {}, el("th", { text: t("deal") }), el("th", { text: t("contract") }), [...Array(n).keys()].map(s => el("th", { text: name(s) })));
  const rows = match.sheet.map(d => el("tr", {}, el("td", { text: d.deal }), el("td", { text: d.title || d.contract }), d.scores.map(x => el("td", { text: x }))));
  const tot = el("tr", {}, el("th"), el("th", { text: t("totals") }), match.totals.map(x => el("th", { text: x })));
  document.getElementById("sheet").append(el("table", { class: "sheet" }, head, rows, tot));
  const base = "/api/matches/" + matchId;
  const rulesetName = match.ruleset.path.split("/").pop();
  for (const [id, path, name] of [["record", base + "/record", "kierki-" + matchId + ".json"], ["ruleset", base + "/ruleset", rulesetName]]) {
    const a = document.getElementById(id);
    a.href = path;
    a.addEventListener("click", e => { e.preventDefault(); download(path, name); });
  }
  document.getElementById("replay-cmd").textContent = "kierki replay kierki-" + matchId + ".json --ruleset " +
    (match.ruleset_kind === "shipped" ? "rulesets/" : "") + match.ruleset.path;
  const sel = document.getElementById("deal");
  match.deals.forEach((d, i) => sel.append(el("option", { value: i, text: d.number + ": " + (d.title || d.contract) })));
  sel.onchange = () => { deal = Number(sel.value); step = 0; draw(); };
  draw();
}

function draw() {
  const d = match.deals[deal];
  if (!d) return;
  const f = d.frames[step];
  document.getElementById("deal").value = deal;
  document.getElementById("step").textContent = t("step {step} of {steps}", { step, steps: d.frames.length - 1 }) + " — " +
    (f.action ? name(f.seat) + ": " + (f.label || f.action) : t("the deal (dealer {seat})", { seat: name(d.dealer) }));
  const box = document.getElementById("frame");
  box.textContent = "";
  const board = el("div", { id: "board" });
  const pos = ["bottom", "left", "top", "right"];
  f.hands.forEach((h, s) => board.append(el("div", { class: "seat pos-" + (pos[s] || "top") },
    el("div", { class: "who", text: name(s) + " · " + kindWord(match.seats[s]) + " · " + t("{points} pts", { points: f.scores[s] }) }),
    h.map(c => cardEl(c)))));
  const center = el("div", { id: "center" });
  center.append(panelsEl(f.panels));
  center.append(el("div", {}, t("On the table: "), f.trick.map(([s, c]) => el("span", { class: "played" }, cardEl(c), el("small", { text: name(s) })))));
  if (f.last) center.append(el("div", {}, t("Last trick, taken by {seat}: ", { seat: name(f.last[0]) }),
    f.last[1].map(([s, c]) => el("span", { class: "played" }, cardEl(c), el("small", { text: name(s) })))));
  board.append(center);
  box.append(board);
}

function move(k) {
  const d = match.deals[deal];
  step = Math.max(0, Math.min(d.frames.length - 1, step + k));
  draw();
}
document.getElementById("prev").onclick = () => move(-1);
document.getElementById("next").onclick = () => move(1);
document.addEventListener("keydown", (ev) => {
  if (!match) return;
  if (ev.key === "ArrowRight") move(1);
  else if (ev.key === "ArrowLeft") move(-1);
  else if (ev.key === "PageDown" && deal < match.deals.length - 1) { deal++; step = 0; draw(); }
  else if (ev.key === "PageUp" && deal > 0) { deal--; step = 0; draw(); }
});
withWords(load);
