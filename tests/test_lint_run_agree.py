"""Lint and run agree: a ruleset that ``kierki lint`` accepts plays whole matches without an
internal error (exit 70), whatever well-typed expressions it holds.

Rulesets are made by mutating shipped ones within the schema: expression fields get other
expressions of the right type, built from the names and functions of the field's scope.
Whatever lint accepts is played with random and heuristic players; a located run-time error
(exit 1, an X-code) is an answer, an internal error is a bug.
"""
from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
ACCEPTED: list = []
BASES = ["rulesets/kierki_standard.yaml", "rulesets/games/barbu.yaml", "rulesets/games/hearts.yaml",
         "rulesets/games/trix.yaml", "rulesets/variants/kierki_dominowe.yaml"]

CARDS = st.sampled_from(["QS", "2C", "KH", "AH", "7D", "JC", "TS"])
SUITS = st.sampled_from(["hearts", "spades", "clubs", "diamonds"])
RANKS = st.sampled_from(["2", "7", "10", "J", "Q", "K", "A"])

# names each scope offers, by type (see interpreter/scopes.py)
SEAT_NAMES = ["dealer", "caller"]
INT_NAMES = {
    "per_trick": ["trick.number", "tricks", "players", "in_trick(card.suit == hearts)"],
    "points": ["trick.number", "tricks", "players"],
    "per_seat": ["tricks_taken", "tricks", "players", "taken(card.suit == hearts)", "most_taken(card.rank == Q)"],
}
BOOL_NAMES = {
    "when": ["trick.is_last", "trick.is_first", "trick.number == 7"],
    "end_when": ["points_left", "tricks_played == 5", "not points_left"],
    "restriction_when": ["hearts_broken", "trick.is_first", "led_suit == trump", "winning.rank > 8"],
}


def seat_expr():
    leaf = st.sampled_from(SEAT_NAMES) | CARDS.map(lambda c: f"holder({c})")
    return st.recursive(leaf, lambda inner: st.builds(lambda f, x: f"{f}({x})", st.sampled_from(["left", "right"]), inner),
                        max_leaves=3)


def int_expr(field):
    leaf = st.sampled_from(INT_NAMES[field]) | st.integers(-50, 50).map(str)
    return st.recursive(
        leaf,
        lambda inner: st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(["+", "-", "*", "/"]), inner)
        | st.builds(lambda a, b: f"min({a}, {b})", inner, inner),
        max_leaves=4,
    )


def bool_expr(field):
    leaf = st.sampled_from(BOOL_NAMES[field])
    return st.recursive(leaf, lambda inner: st.builds(lambda a, op, b: f"({a} {op} {b})", inner,
                                                      st.sampled_from(["and", "or"]), inner)
                        | inner.map(lambda a: f"not {a}"), max_leaves=3)


def pred_expr():
    leaf = (SUITS.map(lambda s: f"card.suit == {s}") | RANKS.map(lambda r: f"card.rank >= {r}")
            | CARDS.map(lambda c: f"card == {c}") | st.just("card.suit == trump") | st.just("card.suit == led_suit"))
    return st.recursive(leaf, lambda inner: st.builds(lambda a, op, b: f"({a} {op} {b})", inner,
                                                      st.sampled_from(["and", "or"]), inner)
                        | inner.map(lambda a: f"not {a}"), max_leaves=3)


def _expression_slots(tree):
    """(container, key, kind) of every expression field of a ruleset tree that mutations may replace."""
    out = []
    match = tree.get("match", {})
    for entry in match.get("schedule", []):
        if isinstance(entry, dict) and isinstance(entry.get("choose"), dict):
            out.append((entry["choose"], "by", "seat"))
    for c in (tree.get("contracts") or {}).values():
        if c.get("type", "tricks") != "tricks":
            out.append((c, "first_turn", "seat"))
            continue
        out.append((c, "first_lead", "seat"))
        if isinstance(c.get("stock"), dict):
            out.append((c["stock"], "hand", "stock_hand"))
        if isinstance(c.get("trump"), dict):
            out.append((c["trump"], "called_by", "seat"))
        out.append((c, "lead_ban", "pred"))
        out.append((c, "end_when", "end_when"))
        for item in c.get("score", []):
            for key in ("per_trick", "points", "per_seat"):
                if key in item:
                    out.append((item, key, key))
            if "per_card" in item:
                out.append((item, "per_card", "pred"))
            out.append((item, "when", "when"))
        for r in c.get("restrictions", []):
            out.append((r, "forbid" if "forbid" in r else "require", "pred"))
            out.append((r, "when", "restriction_when"))
    return out


def _without_totals(tree):
    """The tree without declared totals: a mutated scoring no longer adds up to them."""
    if isinstance(tree, dict):
        return {k: _without_totals(v) for k, v in tree.items() if k != "total"}
    if isinstance(tree, list):
        return [_without_totals(v) for v in tree]
    return tree


def _strategy(kind):
    if kind == "stock_hand":  # any hand size the schema allows; lint refuses those the deck cannot deal
        return st.integers(1, 26)
    if kind == "seat":
        return seat_expr()
    if kind == "pred":
        return pred_expr()
    if kind in INT_NAMES:
        return int_expr(kind)
    return bool_expr(kind)


@st.composite
def mutated_ruleset(draw):
    base = draw(st.sampled_from(BASES))
    tree = _without_totals(yaml.safe_load((ROOT / base).read_text()))
    slots = _expression_slots(tree)
    for i in sorted(draw(st.sets(st.integers(0, len(slots) - 1), min_size=1, max_size=4))):
        container, key, kind = slots[i]
        if kind in ("when", "end_when") and key not in container and draw(st.booleans()):
            continue
        container[key] = draw(_strategy(kind))
    return base, tree


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=mutated_ruleset(), seed=st.integers(0, 1000), players=st.sampled_from(["random", "heuristic"]))
def _plays_if_lint_accepts(case, seed, players):
    import tempfile

    from kierki_dsl.entry import main

    base, tree = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / Path(base).name
        path.write_text(yaml.safe_dump(tree, allow_unicode=True, sort_keys=False))
        _lint_then_play(main, base, path, seed, players)


def _lint_then_play(main, base, path, seed, players):
    if main(["lint", str(path)]) != 0:
        return  # lint rejected it (with located findings, checked elsewhere)
    ACCEPTED.append(base)
    code = main(["run", str(path), "--seed", str(seed), "--players", players, "--format", "json"])
    assert code in (0, 1), f"exit {code} for a lint-clean ruleset:\n{path.read_text()}"


def test_what_lint_accepts_plays_without_an_internal_error(capsys):
    _plays_if_lint_accepts()
    # most mutated rulesets lint clean, so the property is exercised, not skipped
    assert len(ACCEPTED) >= 10, f"only {len(ACCEPTED)} mutated rulesets linted clean"
