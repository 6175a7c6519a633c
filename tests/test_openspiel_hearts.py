"""Conformance with OpenSpiel's Hearts: random games played by OpenSpiel's C++ ``hearts``,
written as ``kierki-record/1`` records and replayed against ``rulesets/games/hearts_openspiel.yaml``
give every player the same points (ours are negative: OpenSpiel's return is 26 + ours)."""
from __future__ import annotations

import random

import pytest

from conftest import RULESETS

pyspiel = pytest.importorskip("pyspiel")

from kierki_dsl.cards import card_str  # noqa: E402
from kierki_dsl.record import replay  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402

RULESET = RULESETS / "games" / "hearts_openspiel.yaml"
# the ruleset's pass rotation by deal number (left, right, across, none) in OpenSpiel's numbers
PASS_DIRECTION = {1: 1, 2: 3, 3: 2, 4: 0}
FIRST_DEALER = 3  # OpenSpiel deals the first card to North (seat 0): West deals
QS, TWO_OF_CLUBS = 10 * 4 + 3, 0  # OpenSpiel's card numbers: rank * 4 + suit (C D H S)


def ours(card: int) -> str:
    """An OpenSpiel card (rank * 4 + suit, suits C D H S) in record notation."""
    return card_str((3 - card % 4) * 13 + card // 4)


def play_openspiel(game, deal_number: int, rng: random.Random):
    """One random game of OpenSpiel's Hearts with the pass direction of our deal number:
    (the record's deal entry, our expected scores, whether a heart was led after the queen of
    spades but before any heart was played)."""
    state = game.new_initial_state()
    state.apply_action(PASS_DIRECTION[deal_number])
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    actions = [a for a in state.history()[1:]]
    hands = [[ours(c) for c in actions[s:52:4]] for s in range(4)]
    rest = actions[52:]
    passes = [[ours(c) for c in rest[3 * s: 3 * s + 3]] for s in range(4)] if deal_number != 4 else None
    plays = rest[12:] if passes else rest
    hearts = [i for i, c in enumerate(plays) if c % 4 == 2]
    first_heart = hearts[0] if hearts else 52
    qs_broke = first_heart % 4 == 0 and QS in plays[:first_heart]  # a heart led after the Q♠, before any heart
    entry = {"dealer": (FIRST_DEALER + deal_number - 1) % 4, "hands": hands, "trump": None,
             "plays": [ours(c) for c in plays]}
    if passes:
        entry["passes"] = passes
    expected = [int(r) - 26 for r in state.returns()]
    return entry, expected, qs_broke


def records(params: dict, games: int, seed: int):
    """Records of four deals each (one per pass direction) with the expected scores."""
    game = pyspiel.load_game("hearts", params)
    rng = random.Random(seed)
    for _ in range(games // 4):
        deals, expected = [], []
        for number in (1, 2, 3, 4):
            entry, scores, _ = play_openspiel(game, number, rng)
            deals.append(entry)
            expected.append(scores)
        yield {"format": "kierki-record/1", "deals": deals}, expected


def test_openspiel_hearts_games_replay_with_the_same_points():
    rs = Ruleset.load(str(RULESET))
    count = 0
    for record, expected in records({}, 400, seed=1):
        report = replay(rs, record)
        assert report.ok, [str(v) for v in report.violations]
        assert [d["scores"] for d in report.deals] == expected
        count += len(expected)
    assert count == 400


def test_hearts_yaml_is_openspiel_hearts_without_the_queen_breaking_hearts():
    """rulesets/games/hearts.yaml plays OpenSpiel's hearts(qs_breaks_hearts=false) exactly."""
    rs = Ruleset.load(str(RULESET.with_name("hearts.yaml")))
    count = 0
    for record, expected in records({"qs_breaks_hearts": False}, 200, seed=2):
        report = replay(rs, record)
        assert report.ok, [str(v) for v in report.violations]
        assert [d["scores"] for d in report.deals] == expected
        count += len(expected)
    assert count == 200
