"""The rules' refusals in Polish (issue 22, item 5): a reason stays English wherever it travels
(records, logs, the SIK protocol, the tests that compare it), built from a sentence marked ``R_``;
where a person reads it -- the terminal prompt, the web table -- ``said`` words it in their language."""

from __future__ import annotations

import contextlib
import os
import subprocess

from kierki_dsl import i18n
from kierki_dsl.i18n import R_, said
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.ruleset.model import Ruleset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STANDARD = os.path.join(ROOT, "rulesets", "kierki_standard.yaml")
KIERKI = "/work/venv/bin/kierki" if os.path.exists("/work/venv/bin/kierki") else "kierki"
CODES = [r + s for s in "SHDC" for r in "23456789TJQKA"]


def _refusals(rs, deals: int = 2) -> dict:
    """English reason -> its Polish words, for every card held but illegal in the first ``deals`` deals."""
    m = Match(rs, 3)
    out = {}
    while not m.over and m.view(0).deal_number <= deals:
        view = m.view(m.to_move())
        for card in range(52):
            if card not in view.legal and view.hand >> card & 1:
                reason = illegal_reason(view, card, rs.contracts[view.contract])
                with i18n.using("pl"):
                    out[reason] = said(reason)
        m.apply(view.legal[0])
    return out


def test_a_reason_is_english_and_said_in_polish():
    reasons = _refusals(Ruleset.load(STANDARD))
    assert "you must follow hearts" in reasons, reasons
    assert reasons["you must follow hearts"] == "musisz dołożyć do koloru wyjścia (kiery)"
    for english, polish in reasons.items():
        assert polish != english, english
    with i18n.using("en"):
        assert said("you must follow hearts") == "you must follow hearts"


def test_reasons_with_fields_are_read_back_and_nested():
    assert R_("a bid must be higher than {bid}, the bid standing").format(bid=120) == (
        "a bid must be higher than 120, the bid standing"
    )
    with i18n.using("pl"):
        assert (
            said("a bid must be higher than 120, the bid standing")
            == "odzywka musi być wyższa niż 120, najwyższa dotąd"
        )
        assert said("a card is expected: AS, KD") == "oczekiwana jest karta: AS, KD"  # '{expected}: {choices}'
        built = R_("{card} is not in the hand of seat {seat}").format(card="QS", seat=2)  # as the engine builds it
        assert said(built) == "karty QS nie ma na ręce miejsca 2"
        assert said("a sentence no one marked") == "a sentence no one marked"
        assert said(None) is None


def test_every_marked_reason_has_polish_words():
    """Every sentence marked ``R_`` that was registered (as its module was imported or a reason was
    built) reads in Polish (``tests/test_polish.py`` checks every marked one through the catalogue)."""
    Ruleset.load(STANDARD)
    from kierki_dsl.interpreter import bidding, doubling, exposure, layout, widowstate  # noqa: F401  (their reasons)

    assert len(i18n._REASONS) > 10
    with i18n.using("pl"):
        untranslated = [t for t in i18n._REASONS if i18n.tr(t) == t and t != "{expected}: {choices}"]
    assert not untranslated, untranslated


def test_a_refused_card_at_the_polish_terminal():
    """``kierki run --lang pl``: a person types cards in order, held or not; each refused one is told
    the rule in Polish (follow suit, a card not held), never in English."""
    typed = "\n".join((CODES + ["1"]) * 4) + "\n"
    done = subprocess.run(
        [KIERKI, "run", STANDARD, "--seed", "5", "--human", "S", "--players", "random", "--lang", "pl"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 70, done.stderr
    out = done.stdout
    assert "jest niedozwolona: musisz dołożyć do koloru wyjścia (" in out, out[-2000:]
    assert "nie masz karty " in out
    assert "you must follow" not in out and "is not in your hand" not in out


def test_a_refused_card_at_a_polish_web_table(tmp_path):
    """At a web table whose browser asks for Polish, an illegal card is refused with the rule in Polish
    (its cards in Polish letters); the same refusal in English stays the reason the engine gives."""
    from web_support import Client, create_table, need_web, running_server, send

    need_web()
    with running_server(str(tmp_path / "web.sqlite3")) as base, contextlib.ExitStack() as stack:
        client = Client(base)
        stack.callback(client.close)
        table = create_table(client, ["human", "random", "random", "random"])
        ws = stack.enter_context(client.websocket_connect(f"/ws/{table['id']}", headers={"Accept-Language": "pl-PL"}))
        send(ws, {"type": "hello", "token": table["tokens"][0]})
        said_pl = {}
        while "follow" not in said_pl:
            msg = ws.receive_json()
            if msg["type"] != "state" or msg["to_move"] != 0 or msg["over"] or not msg["view"]:
                continue
            v = msg["view"]
            at = {"type": "act", "deal": v["deal_number"], "ply": v["ply"]}
            if "illegal" not in said_pl:
                said_pl["illegal"] = _refused(ws, dict(at, action=next(c for c in range(52) if not v["hand"] >> c & 1)))
            held = [c for c in range(52) if v["hand"] >> c & 1 and c not in v["legal"]]
            if held:
                said_pl["follow"] = _refused(ws, dict(at, action=held[0]))
            send(ws, dict(at, action=v["legal"][0]))
        assert said_pl["illegal"].startswith("nie masz na ręce karty "), said_pl
        assert said_pl["illegal"][-1] in "♠♥♦♣", said_pl
        assert said_pl["follow"].startswith(("musisz dołożyć do koloru wyjścia", "nie wolno")), said_pl


def _refused(ws, doc) -> str:
    """Send an illegal action; the words of the refusal that answers it."""
    from web_support import send

    send(ws, doc)
    reply = ws.receive_json()
    while reply["type"] != "error":
        reply = ws.receive_json()
    assert reply["code"] == "illegal", reply
    return reply["message"]
