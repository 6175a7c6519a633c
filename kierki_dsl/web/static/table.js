"use strict";
// The table page: one seat's view, sent whole by the server after every change.
// The seat's secret is after '#' in the link (never sent to the server in a URL).
const token = decodeURIComponent(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();
let ws = null;
let state = null;
let retry = 500;
let stopped = false;
// Why this page cannot play now (the banner's words), or null: the hand is disabled while it is set.
let down = null;
// The decision a click was sent for ({deal, ply}) until the server answers; lost: the connection dropped meanwhile.
let pending = null;
// The last finished deal whose end this person has seen (its last trick, its points): the next deal waits for "Next deal".
let seenEnd = null;

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(proto + "//" + location.host + "/ws/" + tableId + "?lang=" + encodeURIComponent(lang));
  ws.onopen = () => { retry = 500; setConn(t("connected")); ws.send(JSON.stringify({ type: "hello", token })); };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (pending) pending.lost = true;
    if (stopped) return;
    if (ev.code === 4003) { revoked(); return; }
    if (ev.code === 4000) { stop(t("This seat was opened in another tab or window, so this page no longer plays."), true); return; }
    if (ev.code === 1011) {
      setDown(t("The server cannot reach its database just now. Trying again; wait until this message goes away, then play."));
    } else {
      setDown(t("The connection to the server is lost (it may be down or restarting). Trying again; wait until this message goes away, then play."));
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function setConn(text) { document.getElementById("conn").textContent = text; }
function say(text) { document.getElementById("message").textContent = text || ""; }

// The page cannot play until further notice: the banner says why and what to do, the hand is disabled.
function setDown(text, reopen) {
  down = text;
  setConn(t("not connected"));
  const b = document.getElementById("banner");
  b.textContent = "";
  b.hidden = !text;
  if (text) b.append(el("span", { text }), " ");
  if (reopen) b.append(el("button", { type: "button", id: "reopen", onclick: () => location.reload(), text: t("Play here instead") }));
  if (state) draw();
}

// The link's secret was revoked (or never opened a seat): for good.
function revoked() { stop(t("This link no longer opens a seat: its invitation was revoked. Ask the table's creator for a new link.")); }

// For good: no reconnecting (a revoked link, the seat opened elsewhere).
function stop(text, reopen) { stopped = true; setDown(text, reopen); }

function receive(msg) {
  if (msg.type === "state") {
    if (down && !stopped) setDown(null);
    setConn(t("connected"));
    settle(msg);
    state = msg;
    if (seenEnd === null) seenEnd = msg.over || !msg.deal_end ? 0 : msg.deal_end.deal;  // opened mid-match: no old summary
    draw();
  } else if (msg.type === "error") {
    pending = null;
    say(msg.message);
    if (msg.code === "bad-token") revoked();
  } else if (msg.type === "closed") {
    stopped = true;
    setConn(msg.status);
    const s = document.getElementById("status");
    s.textContent = t("This table is ") + t(msg.status) + (msg.note ? ": " + msg.note : "") + ". ";
    if (msg.match_url) s.append(el("a", { href: msg.match_url + location.hash, text: t("See the finished match") }));
  }
}

// A click that the connection lost is told, never dropped in silence.
function settle(msg) {
  const v = msg.view;
  if (!pending) return;
  if (pending.lost && v && v.deal_number === pending.deal && v.ply === pending.ply) {
    say(t("Your last click was not played (the connection dropped before the server saved it): play it again."));
  }
  pending = null;
}

function send(action) {
  const v = state && state.view;
  if (down) { say(t("Not played: ") + down); return; }
  if (!v) { say(t("Not played: the match is over.")); return; }
  if (!ws || ws.readyState !== 1) { say(t("Not played: the page is not connected to the server yet; wait a moment and play again.")); return; }
  if (endShown()) { say(t("Not played: press Next deal first.")); return; }
  say("");
  pending = { deal: v.deal_number, ply: v.ply, lost: false };
  ws.send(JSON.stringify({ type: "act", action, deal: v.deal_number, ply: v.ply }));
}

// Whether the page shows the end of the last deal (its last trick and points) instead of the next deal.
function endShown() {
  const e = state && state.deal_end;
  return !!e && (state.over || e.deal > seenEnd);
}

function name(s) { return seatName(s, state.players); }

function draw() {
  const st = state, v = st.view, n = st.players;
  // which decision the page shows (deal:ply), and whether it is this seat's: for scripts and styles
  document.body.dataset.ply = v ? v.deal_number + ":" + v.ply : "over";
  document.body.dataset.turn = String(!!v && !st.paused && st.to_move === st.seat && !down && !endShown());
  document.body.dataset.down = String(!!down);
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
    s.append(t("The match is over. ") + winnersText(st) + " ", el("a", { href: st.match_url + location.hash, id: "match-link", text: t("Score sheet, record and replay") }));
    return;
  }
  if (down) {
    s.textContent = t("Not connected: you cannot play from this page now.");
  } else if (endShown()) {
    s.textContent = t("Deal {deal} is over. Press Next deal to go on.").replace("{deal}", st.deal_end.deal);
  } else if (st.paused) {
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
  const lines = [el("div", { class: "who", text: name(s) + (s === st.seat ? t(" (you)") : "") + " · " + kindName(info.kind, true) + (info.present ? "" : t(" · away")) })];
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
  if (endShown()) { center.append(dealEndEl(st)); return; }
  if (!v) return;
  center.append(panelsEl(st.panels));
  if (v.trick && v.trick.length) {
    center.append(el("div", { id: "trick" }, el("div", { text: t("On the table:") }),
      v.trick.map(([s, c]) => playedEl(s, c, c === st.winning))));
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

// A card on the table and who played it; the card winning the trick so far is marked.
function playedEl(s, c, winning) {
  const mark = winning ? el("small", { class: "winning-mark", text: t("winning") }) : null;
  return el("span", { class: "played" + (winning ? " winning" : "") }, cardEl(c), el("small", { text: name(s) }), mark);
}

function pointsText(scores) { return scores.map((x, s) => name(s) + " " + x).join(" · "); }

// The standings of a finished match, best first, and who won.
function winnersText(st) {
  if (!st.standings || !st.standings.length) return "";
  const first = st.standings.filter(r => r.place === 1).map(r => name(r.seat));
  return (first.length > 1 ? t("Winners: ") : t("Winner: ")) + first.join(", ") + ".";
}

// The end of the last deal: its last trick and taker, each seat's points, and (when the match is over) the standings.
function dealEndEl(st) {
  const e = st.deal_end;
  const box = el("div", { id: "deal-end" }, el("h3", { text: t("Deal {deal} ({title}) is over").replace("{deal}", e.deal).replace("{title}", e.title) }));
  if (e.last_trick) {
    const last = e.last_trick;
    box.append(el("div", { id: "final-trick" },
      el("div", { text: t("Last trick ({number}) taken by {seat}:").replace("{number}", last.number).replace("{seat}", name(last.winner)) }),
      last.plays.map(([s, c]) => playedEl(s, c, false))));
  }
  box.append(el("div", { id: "deal-points", text: t("Points this deal: ") + pointsText(e.scores) }));
  if (st.over) {
    box.append(el("div", { id: "winner", text: winnersText(st) }),
      el("ol", { id: "standings" }, st.standings.map(r => el("li", { value: r.place, text: name(r.seat) + " " + r.total }))));
  } else {
    box.append(el("div", { text: t("Totals: ") + pointsText(e.totals) }),
      el("button", { type: "button", id: "next-deal", onclick: () => { seenEnd = e.deal; say(""); draw(); }, text: t("Next deal") }));
  }
  return box;
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
  if (!v || endShown()) return;
  const legal = new Set(v.legal);
  for (const c of sortedHand(v, st.contract && st.contract.rank_order)) {
    const cls = (legal.has(c) ? "legal" : "") + (suitOf(c) === v.trump ? " trump" : "");
    hand.append(cardEl(c, "button", { type: "button", class: cls.trim(), "aria-label": cardCode(c) + (legal.has(c) ? t(" (legal)") : ""),
      disabled: !!down, onclick: () => send(c) }));
  }
}

// The seat's legal actions other than a card of its hand, labelled by their phase; what the phase advises.
function drawControls(st, v) {
  const box = document.getElementById("controls");
  box.textContent = "";
  if (!v || st.to_move !== st.seat || down || endShown()) return;
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

function start() {
  if (!token) { say(t("This link has no seat secret (the part after #).")); } else { connect(); }
}

withWords(start);
// another seat's link opened in this tab differs only after '#': start again with its secret
window.addEventListener("hashchange", () => location.reload());
