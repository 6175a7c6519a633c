// Shared by every page: cards, seats, small DOM helpers. No build step, no library.
"use strict";
const SUITS = "SHDC";
const SUIT_SYMBOLS = "♠♥♦♣";
const SUIT_NAMES = ["spades", "hearts", "diamonds", "clubs"];
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

function suitOf(c) { return Math.floor(c / 13); }
function rankOf(c) { return c % 13; }
function cardText(c) { return RANKS[rankOf(c)] + SUIT_SYMBOLS[suitOf(c)]; }
function cardCode(c) { return "23456789TJQKA"[rankOf(c)] + SUITS[suitOf(c)]; }
function isRed(c) { return suitOf(c) === 1 || suitOf(c) === 2; }
function seatName(s, n) { return n === 4 ? "NESW"[s] : "P" + s; }
function cardsOf(mask) {
  // a 52-bit mask (a JSON number is exact up to 2^53) -> card ids, ascending
  const out = [];
  let m = BigInt(mask);
  for (let c = 0; m > 0n; c++, m >>= 1n) if (m & 1n) out.push(c);
  return out;
}
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}
function cardEl(c, tag, attrs) {
  const extra = (attrs && attrs.class) || "";
  const a = Object.assign({ "data-card": cardCode(c) }, attrs || {});
  a.class = ["card", extra, isRed(c) ? "red" : ""].filter(Boolean).join(" ");
  return el(tag || "span", a, cardText(c));
}
// Every phase's part of the view, as its phase module declares it: rows of "label: text".
function panelsEl(panels) {
  return el("div", { class: "panels" }, (panels || []).map(p => el("div", { class: "panel", "data-phase": p.phase },
    p.rows.map(r => el("div", { class: "panel-row" }, r.label ? el("strong", { text: r.label + ": " }) : null, r.text)))));
}
async function postJSON(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let doc = null;
  try { doc = await r.json(); } catch (e) { doc = { error: t("the server sent no JSON ({status})", { status: r.status }) }; }
  return { status: r.status, doc };
}
// A seat's kind as a person reads it: a person (``short``: without "(link)"), or a bot by its name.
function kindName(kind, short) {
  const known = { human: short ? t("a person") : t("a person (link)"), random: t("bot: random"),
    heuristic: t("bot: heuristic"), search: t("bot: search") };
  return known[kind] || t("bot: {name}", { name: kind });
}
// The page's words: English as written, or their Polish from the server's catalogue (/api/i18n).
let words = {};
let lang = "";
// ``text`` (an English message id) in the page's language, each {name} filled from ``args``.
function t(text, args) {
  const said = words[text] || text;
  return args ? said.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : said;
}
// The page speaks the language chosen on it (kept in this browser), else the browser's.
function languageSwitch() {
  const pick = el("select", { id: "lang", "aria-label": t("language") },
    [["en", "English"], ["pl", "Polski"]].map(([code, label]) => el("option", { value: code, text: label })));
  pick.value = lang;
  pick.onchange = () => { localStorage.setItem("kierki-lang", pick.value); location.reload(); };
  document.querySelector("header").append(pick);
}
// Load the page's words, translate its marked elements (data-t) and add the switch; then ``start()``.
function withWords(start) {
  const picked = localStorage.getItem("kierki-lang");
  fetch("/api/i18n" + (picked ? "?lang=" + encodeURIComponent(picked) : ""))
    .then(r => r.json())
    .then(d => { words = d.messages || {}; lang = d.lang || "en"; })
    .catch(() => { lang = "en"; })
    .finally(() => {
      document.documentElement.lang = lang;
      for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.textContent);
      languageSwitch();
      start();
    });
}
