"use strict";
// The creator's page: who is connected, and revoking a seat's link (the creator's secret is after '#').
const creator = decodeURIComponent(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();

async function load() {
  const { status, doc } = await postJSON("/api/tables/" + tableId + "/admin", { creator });
  const box = document.getElementById("seats");
  box.textContent = "";
  if (status !== 200) { document.getElementById("message").textContent = doc.error; return; }
  box.append(el("p", { text: "Table " + doc.id + ": " + doc.status + (doc.note ? " (" + doc.note + ")" : "") }));
  const n = doc.seats.length;
  for (const s of doc.seats) {
    const row = el("div", { class: "ruleset" }, el("strong", { text: seatName(s.seat, n) + " " }), s.kind,
      s.kind === "human" ? (s.connected ? " · connected" : " · not connected") : "");
    if (s.kind === "human" && doc.status === "playing") {
      row.append(" ", el("button", { type: "button", "data-seat": s.seat, text: "revoke link", onclick: () => revoke(s.seat, row) }));
    }
    box.append(row);
  }
}

async function revoke(seat, row) {
  const { status, doc } = await postJSON("/api/tables/" + tableId + "/revoke", { creator, seat });
  if (status !== 200) { document.getElementById("message").textContent = doc.error; return; }
  row.append(el("div", {}, "new link: ", el("a", { href: doc.link, class: "new-link", text: doc.link })));
}

load();
