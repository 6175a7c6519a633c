"""Property tests over random seeded matches of the standard ruleset.

The checks here re-walk each deal's record independently of the engine's own legality code.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import STANDARD

RS = Ruleset.load(str(STANDARD))
DEAL_TOTALS = [-260, -260, -240, -240, -150, -150, -1300, 325, 325, 325, 325, 1300]
HEART_BAN = {2, 5, 7}
players_st = st.lists(st.sampled_from(["random", "simple"]), min_size=4, max_size=4)


def play(seed, names):
    runner = MatchRunner(RS, [make_player(n) for n in names], seed)
    results = list(runner.deals())
    return runner, results


def _walk_tricks(result):
    """Yield (trick number, leader, plays) by re-deriving turns: follow suit, winner leads."""
    hands = [set(h) for h in result.dealt]
    plays = [parse_card(p) for p in result.plays]
    leader = (result.dealer + 1) % 4
    trump = result.trump
    for t in range(0, len(plays), 4):
        trick = plays[t : t + 4]
        seats = [(leader + i) % 4 for i in range(4)]
        yield t // 4 + 1, leader, list(zip(seats, trick)), [set(h) for h in hands]
        for s, c in zip(seats, trick):
            hands[s].discard(c)
        led = trick[0] // 13
        trumps = [(c, s) for s, c in zip(seats, trick) if trump >= 0 and c // 13 == trump]
        if trumps:
            leader = max(trumps)[1]
        else:
            leader = max((c, s) for s, c in zip(seats, trick) if c // 13 == led)[1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), names=players_st)
def test_random_matches_keep_the_rules(seed, names):
    runner, results = play(seed, names)
    assert len(results) == 12
    for k, r in enumerate(results, start=1):
        assert sum(r.scores) == DEAL_TOTALS[k - 1], (k, r.scores)
        dealt = [c for h in r.dealt for c in h]
        assert sorted(dealt) == list(range(52)), "every card dealt once"
        cards = [parse_card(p) for p in r.plays if p != "pass"]
        assert len(cards) == len(set(cards)), "no card played twice"
        if r.contract.type == "tricks":
            assert sorted(cards) == list(range(52)), "every card played once"
            for number, leader, trick, hands in _walk_tricks(r):
                led = trick[0][1] // 13
                for seat, c in trick:
                    assert c in hands[seat], "a seat plays only its own cards"
                    if seat != leader and any(x // 13 == led for x in hands[seat]):
                        assert c // 13 == led, f"deal {k} trick {number}: seat {seat} revoked"
                lead_seat, lead_card = trick[0]
                if k in HEART_BAN and lead_card // 13 == 1:
                    assert all(x // 13 == 1 for x in hands[lead_seat]), f"deal {k}: heart led while holding another suit"
    assert sum(results[-1].totals) == 0
    callers = sorted(r.caller for r in results[7:11])
    assert callers == [0, 1, 2, 3], "each player calls trumps exactly once"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_same_seed_same_match(seed):
    names = ["simple", "random", "simple", "random"]
    a = play(seed, names)[1]
    b = play(seed, names)[1]
    assert [(r.dealt, r.plays, r.scores) for r in a] == [(r.dealt, r.plays, r.scores) for r in b]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), names=players_st)
def test_record_replays_to_the_same_scores(seed, names):
    runner, results = play(seed, names)
    rec = match_record(RS, seed, runner.first_dealer, results)
    report = replay(RS, rec)
    assert report.ok, [str(v) for v in report.violations]
    assert [d["scores"] for d in report.deals] == [list(r.scores) for r in results]
    assert report.totals == list(results[-1].totals)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), deal=st.integers(0, 10), data=st.data())
def test_a_revoke_is_refused(seed, deal, data):
    runner, results = play(seed, ["random"] * 4)
    rec = match_record(RS, seed, runner.first_dealer, results)
    r = results[deal]
    # find a play where the player held the led suit, and swap in a card of another suit he held
    candidates = []
    for number, leader, trick, hands in _walk_tricks(r):
        led = trick[0][1] // 13
        for i, (seat, c) in enumerate(trick[1:], start=1):
            others = sorted(x for x in hands[seat] if x // 13 != led)
            if c // 13 == led and others:
                candidates.append((number, i, seat, others))
    if not candidates:
        return
    number, i, seat, others = data.draw(st.sampled_from(candidates))
    bad = data.draw(st.sampled_from(others))
    corrupt = copy.deepcopy(rec)
    plays = corrupt["deals"][deal]["plays"]
    idx = (number - 1) * 4 + i
    j = plays.index(next(p for p in plays if parse_card(p) == bad))
    plays[idx], plays[j] = plays[j], plays[idx]
    report = replay(RS, corrupt)
    assert not report.ok
    v = report.violations[0]
    assert (v.deal, v.trick, v.seat) == (deal + 1, number, seat)
    assert "you must follow" in v.message


def test_a_wrong_score_is_refused():
    runner, results = play(5, ["simple"] * 4)
    rec = match_record(RS, 5, runner.first_dealer, results)
    rec["deals"][3]["scores"][0] += 30
    report = replay(RS, rec)
    assert [(v.deal, "disagree" in v.message) for v in report.violations] == [(4, True)]


@pytest.mark.parametrize("mutate,fragment", [
    (lambda d: d["hands"][0].append(d["hands"][1][0]), "hands are not a valid deal"),
    (lambda d: d["hands"][0].pop(), "hands are not a valid deal"),
    (lambda d: d["plays"].pop(), "the record ends before the deal is over"),
    (lambda d: d.update(dealer=7), "'dealer' must be a seat"),
    (lambda d: d.update(trump="H"), "this contract has no trumps"),
    (lambda d: d["plays"].__setitem__(0, "ZZ"), "not a card"),
])
def test_broken_deals_are_named(mutate, fragment):
    runner, results = play(9, ["random"] * 4)
    rec = match_record(RS, 9, runner.first_dealer, results)
    mutate(rec["deals"][1])
    report = replay(RS, rec)
    assert report.violations and report.violations[0].deal == 2
    assert fragment in str(report.violations[0])


@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.integers(-2000, 2000), min_size=4, max_size=4),
       bets=st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda p: p[0] != p[1]),
                            st.sampled_from([1, 2]), max_size=12))
def test_settling_bets_moves_points_between_the_two_players_only(scores, bets):
    from kierki_dsl.interpreter.doubling import BettingRound

    rnd = BettingRound.settled(tuple((a, b, f) for (a, b), f in bets.items()), 4)
    after = rnd.settle(scores)
    assert sum(after) == sum(scores), "a bet never makes or loses points in all"
    for (a, b), f in bets.items():  # each bet alone pays the better of the two
        alone = BettingRound.settled(((a, b, f),), 4).settle(scores)
        diff = abs(scores[a] - scores[b]) * f
        better, worse = (a, b) if scores[a] >= scores[b] else (b, a)
        assert alone[better] - scores[better] == diff and scores[worse] - alone[worse] == diff
