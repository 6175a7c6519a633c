"""What one seat is shown: its own ``SeatView`` (plain data) plus facts public to every seat.

``seat_state`` is the only source of the table messages a browser receives. It reads the
seat's view and public facts (the contract's description, the finished deals' scores, who is
on turn, which seats are filled); never the deal state, another hand or the seed.
"""

from __future__ import annotations

from functools import lru_cache

from .. import phases
from ..i18n import language, tr
from ..phases import contract_name
from ..report import contract_title, seat_name, standings
from ..words import aspect_name


def contract_info(ruleset, name: str) -> dict:
    """The contract's names and rules in words (the scoring sentence lists every penalty), in the
    language in force."""
    return _contract_info(ruleset, name, language())


@lru_cache(maxsize=256)
def _contract_info(ruleset, name: str, lang: str) -> dict:
    from ..explain import aspects

    slot = ruleset.contracts.get(name) or next((c for c in ruleset.schedule if c.name == name), None)
    try:
        rules = aspects(ruleset, name)
    except (KeyError, AttributeError, TypeError):
        rules = {}
    return {
        "name": name,
        "pl": (slot.pl if slot is not None else name) or name,
        "en": (slot.en if slot is not None else "") or "",
        "title": contract_title(slot) if slot is not None else name,  # as a person reads it (no key such as no_tricks)
        "scoring": rules.get("scoring", ""),
        "rules": [[aspect_name(k), v] for k, v in rules.items()],
        "rank_order": _rank_order(ruleset.contracts.get(name)),
    }


def _rank_order(contract):
    """Each rank's strength in tricks (13 ints, by rank id) when the deck has an order (``deck.order``),
    so the browser sorts a hand as it plays; None for the usual order."""
    return list(contract.order) if contract is not None and contract.order is not None else None


def deals_in_match(ruleset):
    """The number of deals of a match, or None when it is played until a condition holds."""
    return None if ruleset.until is not None else len(ruleset.schedule) * ruleset.series


def action_label(view, action: int, ruleset=None) -> str:
    """The label a person reads for an action, as its phase declares it (``120``, ``expose K♥``)."""
    return phases.label(view, action, ruleset)


def score_sheet(table) -> list:
    """Every finished deal: its contract, the points and the running totals (public)."""
    return [
        {
            "deal": r.number,
            "contract": r.contract.name,
            "title": contract_name(r.contract),
            "pl": r.contract.pl,
            "en": r.contract.en,
            "scores": list(r.scores),
            "totals": list(r.totals),
        }
        for r in table.results
    ]


def deal_end(table, seat: int):
    """The last finished deal as ``seat`` saw it end: its number and title, its last trick and who
    took it (public once played), each seat's points of that deal and the running totals; None
    before the first deal ends."""
    if not table.results:
        return None
    r = table.results[-1]
    end = {
        "deal": r.number,
        "title": contract_name(r.contract),
        "scores": list(r.scores),
        "totals": list(r.totals),
        "last_trick": None,
    }
    view = table.ended.view(seat) if table.ended is not None else None
    if view is not None and view.deal_number == r.number and view.completed:
        _, plays, winner = view.completed[-1]
        end["last_trick"] = {"number": len(view.completed), "plays": [list(p) for p in plays], "winner": winner}
    return end


def final_standings(totals, players: int) -> list:
    """The match's standings, best first: ``{"place", "seat", "total"}`` (equal totals share a place)."""
    return [{"place": p, "seat": s, "total": t} for p, s, t in standings(totals, players)]


def seat_state(room, seat: int) -> dict:
    """The whole table as ``seat`` may see it now, as a JSON-ready document."""
    table, rs = room.table, room.ruleset
    m = table.match
    n = rs.players
    seats = [
        {"seat": s, "name": seat_name(s, n), "kind": room.kinds[s], "present": s in table.occupied()} for s in range(n)
    ]
    doc = {
        "type": "state",
        "table": room.id,
        "seat": seat,
        "players": n,
        "ruleset": rs.name,
        "seats": seats,
        "deals": deals_in_match(rs),
        "totals": list(m.totals),
        "sheet": score_sheet(table),
        "paused": table.paused,
        "over": table.over,
        "failure": room.failure,
        "deal_end": deal_end(table, seat),
    }
    if table.over or room.failure:
        doc.update(view=None, to_move=None, contract=None, actions=[], panels=[], task="", advice=[])
        if table.over:
            doc["match_url"] = f"/m/{room.id}"
            doc["standings"] = final_standings(m.totals, n)
        return doc
    view = table.view(seat)
    doc["view"] = view.to_json()
    doc["to_move"] = m.to_move()
    doc["contract"] = contract_info(rs, view.contract)
    unit = phases.phase_of(view)
    doc["actions"] = phases.actions(view, rs)  # each legal action with its label, in the phase's order
    doc["panels"] = phases.panels(view, rs)  # every phase's part of the view with something to show
    doc["task"] = tr(unit.task_of(view))
    doc["winning"] = unit.winning(view, rs)  # the card the trick in progress goes to so far, or None
    doc["advice"] = unit.advice(view, rs) if view.legal else []
    doc["recent"] = [[s, a, action_label(view, a, rs)] for s, a in room.logs.get(seat, ())]
    return doc
