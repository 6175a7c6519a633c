"""In-process players cannot cheat through the engine's doors (issue 23, point 1): a fake int
is refused, a player's seed says nothing of the deal, and the rules a player gets are its own."""
from __future__ import annotations

import random

import pytest

from kierki_dsl.interpreter.actions import IllegalAction
from kierki_dsl.interpreter.fairplay import bot_seed, exact_action
from kierki_dsl.interpreter.match import Match, MatchRunner, deal_out, shuffled
from kierki_dsl.players.base import Player, RandomPlayer
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.table.core import Table

from conftest import STANDARD

RS = Ruleset.load(str(STANDARD))


class Liar(int):
    """An int equal to everything: a card the bot does not hold would pass ``in legal``."""

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class FakeCardBot(Player):
    """Answers with a lying int for a card it does not hold (the ace of spades when it can)."""

    name = "fake-card"

    def act(self, view):
        return Liar(_not_held(view))


def _not_held(view) -> int:
    return next(c for c in range(52) if not view.hand >> c & 1 and c not in view.legal)


def _fair(seat_of_liar: int = 0) -> list:
    players = [RandomPlayer() for _ in range(4)]
    players[seat_of_liar] = FakeCardBot()
    return players


def test_a_lying_int_is_refused_by_the_match():
    runner = MatchRunner(RS, _fair(), seed=7)
    with pytest.raises(IllegalAction):  # the lie is taken at its int value: a card not held
        list(runner.deals())


def test_a_lying_int_is_refused_by_the_table():
    table = Table(Match(RS, 7), {})
    seat = table.match.to_move()
    table.sit(seat, lambda event: None)
    for other in set(range(4)) - {seat}:
        table.sit(other, lambda event: None)
    before = table.view(seat)
    reason = table.act(seat, Liar(_not_held(before)))
    assert reason is not None
    assert table.view(seat).hand == before.hand and table.match.to_move() == seat


def test_exact_action_refuses_what_is_not_a_whole_number():
    for bad in ("3", 3.0, None, [3]):
        with pytest.raises(IllegalAction):
            exact_action(bad)
    assert exact_action(12) == 12 and type(exact_action(True)) is int


class SeedOracle(Player):
    """Rebuilds every hand of the first deal from its own seed, as ``seed*16 + seat + 1`` allowed."""

    name = "oracle"
    guesses: list = []

    def reset(self, seed, seat, rules=None):
        super().reset(seed, seat, rules)
        match_seed = (seed - seat - 1) // 16
        rng = random.Random(match_seed)
        fd = rules.first_dealer
        dealer = fd if fd is not None else (rng.getrandbits(32) * rules.players) >> 32
        SeedOracle.guesses.append(deal_out(shuffled(rng, rules.deck), dealer, rules.players, rules.direction))

    def act(self, view):
        return view.legal[0]


def test_a_players_seed_does_not_rebuild_the_deal():
    SeedOracle.guesses = []
    hits = 0
    for seed in range(1, 13):
        runner = MatchRunner(RS, [SeedOracle(), RandomPlayer(), RandomPlayer(), RandomPlayer()], seed=seed)
        guess = SeedOracle.guesses[-1]
        hits += [sorted(h) for h in guess] == [sorted(h) for h in runner.match.dealt]
    assert hits == 0


def test_bot_seeds_are_one_way_distinct_and_stable():
    seeds = {bot_seed(s, seat) for s in range(50) for seat in range(4)}
    assert len(seeds) == 200 and all(0 <= x < 2**63 for x in seeds)
    assert bot_seed(1, 0) == bot_seed(1, 0) != bot_seed(1, 1)


class RuleBreaker(Player):
    """Changes the rules it was handed: the ruleset's players, and a contract removed."""

    name = "rule-breaker"

    def reset(self, seed, seat, rules=None):
        super().reset(seed, seat, rules)
        object.__setattr__(rules, "hand_size", 1)
        object.__setattr__(rules, "total", -1)
        rules.contracts.clear()

    def act(self, view):
        return view.legal[0]


def test_a_player_changing_its_rules_changes_nothing_the_engine_plays_by():
    before = (RS.hand_size, RS.total, dict(RS.contracts))
    runner = MatchRunner(RS, [RuleBreaker(), RandomPlayer(), RandomPlayer(), RandomPlayer()], seed=3)
    assert (RS.hand_size, RS.total, dict(RS.contracts)) == before
    assert runner.match.ruleset is RS and len(list(runner.deals())) == len(RS.schedule)


def test_a_table_bot_changing_its_rules_changes_nothing():
    before = dict(RS.contracts)
    Table(Match(RS, 3), {0: RuleBreaker()})
    assert dict(RS.contracts) == before
