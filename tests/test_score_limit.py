"""The score limit (docs/engine.md): lint bounds every score a trick contract can give (M642),
play stops with a located error past it (X703), and neither engine wraps or overflows.

Issue #28 item 6: ``points: 999999999 * 999999999 * 5`` and ``points: 999999999999999999``
linted clean and the compiled core wrapped them; ``per_trick: 999999999999999999 * 999999999``
ended in ``internal error: OverflowError`` in simulate, compare and ``run --players search``.
"""
from __future__ import annotations

import random

import pytest

from kierki_dsl.expr import CARD_SCOPE, INT, ExprText, compile_expr
from kierki_dsl.expr.bounds import SCORE_LIMIT, value_range
from kierki_dsl.expr.check import check
from kierki_dsl.expr.parser import parse
from kierki_dsl.interpreter import scopes, trickstate
from kierki_dsl.interpreter.match import deal_masks
from kierki_dsl.lint import lint_file
from kierki_dsl.ruleset.model import Ruleset

from conftest import ROOT, run_cli

HEAD = "kierki: 1\nname: big\nplayers: 4\nmatch:\n  schedule: [c]\ncontracts:\n  c:\n    score:\n"
BIG = {  # the rulesets: (score component, where lint points)
    "card_product": ("      - per_card: card.suit == hearts\n        points: 999999999 * 999999999 * 5\n", (10, 17)),
    "card_literal": ("      - per_card: card.suit == hearts\n        points: 999999999999999999\n", (10, 17)),
    "trick_product": ("      - per_trick: 999999999999999999 * 999999999\n", (9, 20)),
    "seat_sum": ("      - per_seat: 600000000000\n      - per_seat: tricks_taken * 10000000000\n", (9, 19)),
}


def _write(tmp_path, name: str) -> str:
    p = tmp_path / f"{name}.yaml"
    p.write_text(HEAD + BIG[name][0])
    return str(p)


@pytest.mark.parametrize("name", sorted(BIG))
def test_points_past_the_limit_are_a_located_lint_error(tmp_path, name):
    found = [d for d in lint_file(_write(tmp_path, name)) if d.code == "M642"]
    assert found and found[0].severity == "error"
    assert (found[0].pos.line, found[0].pos.col) == BIG[name][1]
    assert f"±{SCORE_LIMIT:,}" in found[0].message


@pytest.mark.parametrize("text,expected", [
    ("-20", (-20, -20)),
    ("tricks_taken * -20", (-1040, 0)),
    ("max(0, tricks_taken - 3) * 10", (0, 490)),
    ("taken(card.suit == hearts) * 2 + bid", (0, 100104)),
    ("if tricks_taken > 3 then -bid else 5", (-100000, 5)),
    ("abs(declared) % 7", (0, 6)),
    ("round(tricks_taken * 11, 10)", (-10, 582)),
    ("100 / max(1, tricks_taken)", (-100, 100)),
])
def test_value_ranges_hold_every_value(text, expected):
    scope = scopes.SEAT_END
    tree = parse(text)
    info = check(tree, scope, CARD_SCOPE, INT)
    assert not info.errors
    assert value_range(tree, info) == expected
    compiled, diags = compile_expr(ExprText(text, "x"), scope, INT)
    assert compiled.bounds[:2] == expected and compiled.bounds[2] is None


def test_the_bound_sees_through_every_shipped_ruleset():
    """No shipped ruleset comes near the limit (lint is clean on them)."""
    for path in sorted((ROOT / "rulesets").rglob("*.yaml")):
        assert not [d for d in lint_file(str(path)) if d.code == "M642"], path


def test_play_past_the_limit_stops_with_a_located_error(monkeypatch):
    """The interpreter's guard (X703): with the limit lowered to 50 points, a deal of "no tricks"
    (-20 a trick) stops at the third trick a seat takes, located at the contract's score."""
    from kierki_dsl.expr import RuleRuntimeError

    monkeypatch.setattr(trickstate, "SCORE_LIMIT", 50)
    path = ROOT / "rulesets/kierki_standard.yaml"
    rs = Ruleset.load(str(path))
    contract = rs.contracts["bez_lew"]
    dealt = [[c for c in range(52) if h >> c & 1]
             for h in deal_masks(random.Random(1), list(range(52)), 0, 4, 1)]
    deal = contract.new_deal(4, rs.deck, 0, dealt, 1, 1)
    rng = random.Random(2)
    with pytest.raises(RuleRuntimeError) as got:
        while not deal.is_terminal():
            legal = deal.legal_actions()
            deal.apply_action(legal[rng.randrange(len(legal))])
    d = got.value.diagnostic
    assert d.code == "X703" and d.path == str(path) and d.pos is not None
    assert min(deal.scores) == -60  # the third trick a seat took passed the limit


@pytest.mark.parametrize("command", [("simulate", "--games", "2"), ("compare", "STANDARD", "--games", "2"),
                                     ("run", "--players", "search,random,random,random")])
def test_commands_refuse_the_ruleset_located(tmp_path, command):
    args = [str(ROOT / "rulesets/kierki_standard.yaml") if a == "STANDARD" else a for a in command[1:]]
    rc, out, err, _ = run_cli(command[0], _write(tmp_path, "trick_product"), *args, "--seed", "1")
    assert rc == 1, err
    assert "M642" in err and "internal error" not in err and "Traceback" not in err
