"use strict";
// The table page: one seat's view, sent whole by the server after every change.
// The seat's secret is after '#' in the link (never sent to the server in a URL).
const token = decodeURIComponent(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();
let ws = null;
let state = null;
let retry = 500;
let stopped = false;
// The page's words: English as written, or their Polish from the server's catalogue (/api/i18n).
let words = {};
let lang = "";
function t(text) { return words[text] || text; }

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(proto + "//" + location.host + "/ws/" + tableId + "?lang=" + encodeURIComponent(lang));
  ws.onopen = () => { retry = 500; setConn(t("connected")); ws.send(JSON.stringify({ type: "hello", token })); };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (stopped || ev.code === 4003 || ev.code === 4000) { setConn(ev.reason || t("disconnected")); return; }
    setConn(t("reconnecting…"));
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function setConn(text) { document.getElementById("conn").textContent = text; }
function say(text) { document.getElementById("message").textContent = text || ""; }

function receive(msg) {
  if (msg.type === "state") { state = msg; say(""); draw(); }
  else if (msg.type === "error") {
    say(msg.message);
    if (msg.code === "bad-token") { stopped = true; setConn(t("not seated")); }
  } else if (msg.type === "closed") {
    stopped = true;
    setConn(msg.status);
    const s = document.getElementById("status");
    s.textContent = t("This table is ") + t(msg.status) + (msg.note ? ": " + msg.note : "") + ". ";
    if (msg.match_url) s.append(el("a", { href: msg.match_url + location.hash, text: t("See the finished match") }));
  }
}

function send(action) {
  const v = state && state.view;
  if (!v || !ws || ws.readyState !== 1) return;
  ws.send(JSON.stringify({ type: "act", action, deal: v.deal_number, ply: v.ply }));
}

function name(s) { return seatName(s, state.players); }

function draw() {
  const st = state, v = st.view, n = st.players;
  // which decision the page shows (deal:ply), and whether it is this seat's: for scripts and styles
  document.body.dataset.ply = v ? v.deal_number + ":" + v.ply : "over";
  document.body.dataset.turn = String(!!v && !st.paused && st.to_move === st.seat);
  document.getElementById("title").textContent = st.ruleset + t(" — you are ") + name(st.seat);
  const total = st.deals === null ? "" : t(" of ") + st.deals;
  document.getElementById("dealno").textContent = v ? t("deal ") + v.deal_number + total : "";
  drawContract(st, v);
  drawStatus(st, v);
  drawBoard(st, v, n);
  drawHand(st, v);
  drawControls(st, v);
  drawSheet(st, n);
}

function drawContract(st, v) {
  const box = document.getElementById("contract");
  box.textContent = "";
  if (!v) return;
  const c = st.contract;
  box.append(el("h2", { id: "contract-name", text: c.title }));
  if (c.scoring) box.append(el("div", { id: "scoring" }, el("strong", { text: t("Scores: ") }), c.scoring));
  box.append(el("div", { id: "dealer", text: t("dealer ") + name(v.dealer) }));
  const rules = el("details", {}, el("summary", { text: t("the rules of this deal") }),
    el("ul", {}, c.rules.map(([k, t]) => el("li", {}, el("strong", { text: k + ": " }), t))));
  box.append(rules);
}

function drawStatus(st, v) {
  const s = document.getElementById("status");
  s.textContent = "";
  if (st.failure) { s.textContent = t("The match stopped: ") + st.failure; return; }
  if (st.over) {
    s.append(t("The match is over. "), el("a", { href: st.match_url + location.hash, id: "match-link", text: t("Score sheet, record and replay") }));
    return;
  }
  if (st.paused) {
    const away = st.seats.filter(x => !x.present).map(x => name(x.seat)).join(", ");
    s.textContent = t("Waiting for ") + away + t(" to open their link.");
  } else if (st.to_move === st.seat) {
    s.textContent = t("Your turn: ") + st.task + ".";
  } else {
    s.textContent = t("Waiting for ") + name(st.to_move) + ".";
  }
}

function seatBox(st, v, s, pos) {
  const info = st.seats[s];
  const cls = "seat pos-" + pos + (st.to_move === s && !st.over ? " turn" : "") + (info.present ? "" : " away");
  const lines = [el("div", { class: "who", text: name(s) + (s === st.seat ? t(" (you)") : "") + " · " + t(info.kind) + (info.present ? "" : t(" · away")) })];
  if (v) {
    if (v.hand_sizes && v.hand_sizes.length) lines.push(el("div", { class: "count", text: v.hand_sizes[s] + t(" cards") }));
    lines.push(el("div", { text: t("this deal: ") + v.scores[s] + t(" · total: ") + st.totals[s] }));
  }
  return el("div", { class: cls, id: "seat-" + s }, lines);
}

function drawBoard(st, v, n) {
  const board = document.getElementById("board");
  board.textContent = "";
  const positions = n === 4 ? ["bottom", "left", "top", "right"] : n === 3 ? ["bottom", "left", "right"] : ["bottom", "top"];
  for (let i = 0; i < n; i++) board.append(seatBox(st, v, (st.seat + i) % n, positions[i] || "top"));
  const center = el("div", { id: "center" });
  board.append(center);
  if (!v) return;
  center.append(panelsEl(st.panels));
  if (v.trick && v.trick.length) {
    center.append(el("div", { id: "trick" }, el("div", { text: t("On the table:") }),
      v.trick.map(([s, c]) => el("span", { class: "played" }, cardEl(c), el("small", { text: name(s) })))));
  }
  if (st.recent && st.recent.length) {
    const shown = st.recent.slice(-n).map(([s, a, label]) => name(s) + " " + label);
    center.append(el("div", { id: "recent", class: "muted", text: t("Latest: ") + shown.join(" · ") }));
  }
  if (v.completed && v.completed.length) {
    const [, plays, winner] = v.completed[v.completed.length - 1];
    center.append(el("div", { id: "last-trick" },
      el("div", { text: t("Last trick (") + v.completed.length + t(") taken by ") + name(winner) + ":" }),
      plays.map(([s, c]) => el("span", { class: "played" }, cardEl(c), el("small", { text: name(s) })))));
  }
}

function sortedHand(v, strength) {
  const order = [0, 1, 3, 2];
  if (v.trump >= 0) { order.splice(order.indexOf(v.trump), 1); order.unshift(v.trump); }
  const rank = c => (strength ? strength[rankOf(c)] : rankOf(c));  // the deck's order (deck.order), if it has one
  return cardsOf(v.hand).sort((a, b) => order.indexOf(suitOf(a)) - order.indexOf(suitOf(b)) || rank(b) - rank(a));
}

function drawHand(st, v) {
  const hand = document.getElementById("hand");
  hand.textContent = "";
  if (!v) return;
  const legal = new Set(v.legal);
  for (const c of sortedHand(v, st.contract && st.contract.rank_order)) {
    const cls = (legal.has(c) ? "legal" : "") + (suitOf(c) === v.trump ? " trump" : "");
    hand.append(cardEl(c, "button", { type: "button", class: cls.trim(), "aria-label": cardCode(c) + (legal.has(c) ? t(" (legal)") : ""),
      onclick: () => send(c) }));
  }
}

// The seat's legal actions other than a card of its hand, labelled by their phase; what the phase advises.
function drawControls(st, v) {
  const box = document.getElementById("controls");
  box.textContent = "";
  if (!v || st.to_move !== st.seat) return;
  for (const line of st.advice || []) box.append(el("p", { class: "advice muted", text: line }));
  let i = 1;
  const held = new Set(cardsOf(v.hand));
  for (const { action, label, code } of st.actions || []) {
    if (held.has(action)) continue;  // a card of the hand is played from the hand
    box.append(el("button", { type: "button", "data-action": code, onclick: () => send(action), text: i++ + ". " + label }));
  }
}

function drawSheet(st, n) {
  const box = document.getElementById("sheet");
  box.textContent = "";
  const head = el("tr", {}, el("th", { text: t("deal") }), el("th", { text: t("contract") }),
    [...Array(n).keys()].map(s => el("th", { text: name(s) })));
  const rows = st.sheet.map(d => el("tr", {}, el("td", { text: d.deal }), el("td", { text: d.title || d.contract }),
    d.scores.map(x => el("td", { text: x }))));
  const totals = el("tr", {}, el("th", { text: "" }), el("th", { text: t("totals") }), st.totals.map(x => el("th", { text: x })));
  box.append(el("table", { class: "sheet", id: "sheet-table" }, head, rows, totals));
}

document.addEventListener("keydown", (ev) => {
  const cards = [...document.querySelectorAll("#hand button")];

  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    if (!cards.length) return;
    const step = ev.key === "ArrowRight" ? 1 : -1;
    const legal = cards.filter(b => b.classList.contains("legal"));
    const pool = legal.length ? legal : cards;
    const k = pool.indexOf(document.activeElement);
    pool[(k + step + pool.length) % pool.length].focus();
    ev.preventDefault();
  } else if (/^[1-9]$/.test(ev.key)) {
    const b = document.querySelectorAll("#controls button")[Number(ev.key) - 1];
    if (b) { b.click(); ev.preventDefault(); }
  }

});

// The page speaks the language chosen on it (kept in this browser), else the browser's.
function languageSwitch() {
  const pick = el("select", { id: "lang", "aria-label": t("language") },
    [["en", "English"], ["pl", "Polski"]].map(([code, label]) => el("option", { value: code, text: label })));
  pick.value = lang;
  pick.onchange = () => { localStorage.setItem("kierki-lang", pick.value); location.reload(); };
  document.querySelector("header").append(pick);
}

function start() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.textContent);
  languageSwitch();
  if (!token) { say(t("This link has no seat secret (the part after #).")); } else { connect(); }
}

const chosen = localStorage.getItem("kierki-lang");
fetch("/api/i18n" + (chosen ? "?lang=" + encodeURIComponent(chosen) : ""))
  .then(r => r.json())
  .then(d => { words = d.messages || {}; lang = d.lang || "en"; })
  .catch(() => { lang = "en"; })
  .finally(start);
// another seat's link opened in this tab differs only after '#': start again with its secret
window.addEventListener("hashchange", () => location.reload());
