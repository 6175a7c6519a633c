"use strict";
// The creator's page: who is connected, and revoking a seat's link (the creator's secret is after '#').
const creator = decodeURIComponent(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();

// A table's status as the page says it.
function statusName(status) {
  const known = { playing: t("being played"), finished: t("finished"), closed: t("closed") };
  return known[status] || status;
}

async function api(what, body) {
  return postJSON("/api/tables/" + tableId + "/" + what + "?lang=" + encodeURIComponent(lang), body);
}

async function load() {
  const { status, doc } = await api("admin", { creator });
  const box = document.getElementById("seats");
  box.textContent = "";
  if (status !== 200) { document.getElementById("message").textContent = doc.error; return; }
  box.append(el("p", { text: t("Table {id}: {status}", { id: doc.id, status: statusName(doc.status) }) + (doc.note ? " (" + doc.note + ")" : "") }));
  const n = doc.seats.length;
  for (const s of doc.seats) {
    const row = el("div", { class: "ruleset" }, el("strong", { text: seatName(s.seat, n) + " " }), kindName(s.kind, true),
      s.kind === "human" ? " · " + (s.connected ? t("connected") : t("not connected")) : "");
    if (s.kind === "human" && doc.status === "playing") {
      row.append(" ", el("button", { type: "button", "data-seat": s.seat, text: t("revoke link"), onclick: () => revoke(s.seat, row) }));
    }
    box.append(row);
  }
}

async function revoke(seat, row) {
  const { status, doc } = await api("revoke", { creator, seat });
  if (status !== 200) { document.getElementById("message").textContent = doc.error; return; }
  row.append(el("div", {}, t("new link: "), el("a", { href: doc.link, class: "new-link", text: doc.link })));
}

withWords(load);
