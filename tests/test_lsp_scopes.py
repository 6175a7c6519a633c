"""Issue #25 item 6: ``kierki lsp`` completes an expression with the names of its own scope —
``trick.*`` in trick scoring, ``seat``/``match.*`` in seat scoring, ``card.*`` in a card
predicate — not every expression name; and the scope it reads from the keys above the cursor
is the one the ruleset compiler uses, for every expression of every shipped ruleset."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from kierki_dsl.lsp.scoping import key_path, scope_at, scope_names
from kierki_dsl.lsp.server import completions
from kierki_dsl.ruleset import build
from kierki_dsl.ruleset.model import Ruleset

RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").rglob("*.yaml"))

HOUSE = """kierki: 1
name: house
match:
  schedule: [deal]
  until: lowest_total < -500
contracts:
  deal:
    pl: Rozdanie
    total: -100
    lead_ban: card.suit == hearts
    restrictions:
      - when: trick.is_first
        forbid: card.suit == hearts
    score:
      - per_trick: -10
        when: trick.number > 3
      - {per_card: card == QS, points: -60}
      - per_seat: 0 if seat == dealer else match.total
"""


def _labels(line: int, col: int = 1000) -> set:
    text_lines = HOUSE.splitlines()
    return {i.label for i in completions(HOUSE, line, min(col, len(text_lines[line])))}


def _line(start: str) -> int:
    return next(k for k, line in enumerate(HOUSE.splitlines()) if line.strip().startswith(start))


def test_the_keys_above_the_cursor():
    assert key_path(HOUSE, _line("when: trick.number"), 30) == ("contracts", "deal", "score", "when")
    assert key_path(HOUSE, _line("forbid:"), 20) == ("contracts", "deal", "restrictions", "forbid")
    flow = _line("- {per_card")
    assert key_path(HOUSE, flow, HOUSE.splitlines()[flow].index("QS")) == ("contracts", "deal", "score", "per_card")
    assert key_path(HOUSE, flow, HOUSE.splitlines()[flow].index("-60")) == ("contracts", "deal", "score", "points")


def test_trick_scoring_offers_trick_names_not_seat_or_card_names():
    got = _labels(_line("when: trick.number"))
    assert {"trick.number", "trick.is_last", "trick.winner", "tricks", "trump", "dealer", "hearts", "QS"} <= got
    assert not {"seat", "match.total", "tricks_taken", "card", "card.suit", "led_suit"} & got


def test_seat_scoring_offers_seat_and_match_names():
    got = _labels(_line("- per_seat"))
    assert {"seat", "match.total", "match.highest_total", "tricks_taken", "declared", "dealer"} <= got
    assert not {"trick.number", "trick.winner", "card", "led_suit", "winning"} & got


def test_a_card_predicate_offers_the_card_and_its_scope():
    ban = _labels(_line("lead_ban:"))
    assert {"card", "card.suit", "card.rank", "led_suit", "hearts_broken", "trick.is_first", "KH"} <= ban
    assert not {"seat", "match.total", "tricks_taken", "trick.winner", "dealer"} & ban
    restriction_when = _labels(_line("- when: trick.is_first"))
    assert "led_suit" in restriction_when and "card" not in restriction_when, "the condition reads no card"
    match_end = _labels(_line("until:"))
    assert {"lowest_total", "deals_played"} <= match_end and not {"dealer", "card", "trick.number"} & match_end


def test_functions_are_offered_only_where_their_inputs_are():
    from kierki_dsl.expr.builtins import FUNCTIONS
    from kierki_dsl.interpreter import scopes

    everywhere = set(FUNCTIONS)
    seat_end = set(scope_names(scopes.SEAT_END, False)) & everywhere
    match_end = set(scope_names(scopes.MATCH_END, False)) & everywhere
    assert seat_end and match_end < seat_end, "a match-end condition has no taken cards or hands to ask about"


def test_outside_an_expression_keys_or_constants():
    assert "lead_ban" in _labels(_line("pl:"), 0), "at the start of a line: the format's keys"
    got = _labels(_line("pl:"))
    assert "KH" in got and "trick.number" not in got and "seat" not in got


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_the_scope_at_every_expression_is_the_compilers(path, monkeypatch):
    """Each expression the compiler reads from this file: the language server's scope at its
    first character is the compiler's (the same names, the same card predicate or not)."""
    seen = []
    real = build.BuildContext.expr

    def record(self, src, scope, expected, where, predicate=False):
        if src is not None and src.pos is not None:
            seen.append((build.node_path(src.node, self.path), src.pos, scope, predicate, where))
        return real(self, src, scope, expected, where, predicate)

    monkeypatch.setattr(build.BuildContext, "expr", record)
    Ruleset.load(str(path))
    text = path.read_text(encoding="utf-8")
    here = [x for x in seen if os.path.realpath(x[0]) == os.path.realpath(path)]
    for _, pos, scope, predicate, where in here:
        got = scope_at(text, pos.line - 1, pos.col - 1)
        assert got is not None, where
        assert (got[0].vars, got[1]) == (scope.vars, predicate), where
