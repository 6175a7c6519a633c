"""The perfect-information solver (``interpreter.solver``) and the ``pimc`` player.

The solver's value of every legal card equals a brute-force minimax over the interpreter's own
deal (``TrickDeal``: clone, apply, scores) — the view's seat maximising its points, the others
minimising them — on random endgames with few cards per hand; the Python search equals the
compiled one; contracts whose parts the tables do not hold are declined; ``pimc`` plays legal
cards and a seeded match is the same twice.

Under ``KIERKI_REQUIRE_C=1`` (CI) a compiled solver that was not built is a failure.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl import load_ruleset
from kierki_dsl.cards import FULL_DECK
from kierki_dsl.interpreter import solver
from kierki_dsl.interpreter.actions import DONE
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.interpreter.phases import Phase
from kierki_dsl.players.base import make_player

ROOT = Path(__file__).resolve().parent.parent
KIERKI = load_ruleset(str(ROOT / "rulesets" / "kierki_standard.yaml"))
BARBU = load_ruleset(str(ROOT / "rulesets" / "games" / "barbu.yaml"))
HEARTS = load_ruleset(str(ROOT / "rulesets" / "games" / "hearts.yaml"))
SOLVED = (
    [(KIERKI, n) for n in sorted(KIERKI.contracts) if n != "loteryjka"]
    + [(BARBU, n) for n in ("no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two")]
    + [(HEARTS, "hand")]
)


def test_the_solver_is_built_when_required():
    """CI sets KIERKI_REQUIRE_C=1: the compiled solver must have been built by ``pip install -e``."""
    if not os.environ.get("KIERKI_REQUIRE_C"):
        pytest.skip("KIERKI_REQUIRE_C not set")
    assert solver.compiled(), "KIERKI_REQUIRE_C=1 but kierki_dsl.interpreter._solve did not build/import"


def endgame(rs, name: str, seed: int, left: int):
    """(contract, interpreter deal) of a random deal played at random until about ``left``
    cards per hand remain (maybe in the middle of a trick)."""
    rng = random.Random(seed)
    contract = rs.contracts[name]
    deck = list(range(52))
    rng.shuffle(deck)
    n = rs.players
    k = 52 // n
    dealt = [sorted(deck[i * k : (i + 1) * k]) for i in range(n)]
    deal = contract.new_deal(n, FULL_DECK, seed % n, dealt, rs.direction, 1)
    target = rng.randrange(left * n - n + 1, left * n + 1)
    while not deal.is_terminal():
        if deal.phase is Phase.PLAY and sum(h.bit_count() for h in deal.hands) <= target:
            break
        legal = deal.legal_actions()
        deal.apply_action(DONE if DONE in legal else rng.choice(legal))  # no bets: the solver leaves them out
    return contract, deal


def position_of(which: int, seed: int, left: int):
    """(contract, deal, view of the seat on turn) of a random endgame of ``SOLVED[which]``, or
    None when the random play ended the deal."""
    rs, name = SOLVED[which]
    contract, deal = endgame(rs, name, seed, left)
    if deal.is_terminal():
        return None
    return contract, deal, deal.view(deal.current_player())


def minimax(deal, me: int) -> int:
    """The final score of ``me``, ``me`` maximising it and every other seat minimising it."""
    if deal.is_terminal():
        return deal.scores[me]
    values = []
    for a in deal.legal_actions():
        child = deal.clone()
        child.apply_action(a)
        values.append(minimax(child, me))
    return max(values) if deal.current_player() == me else min(values)


def brute_values(deal, seat_scoring: bool = False) -> dict:
    """Each legal card's points to come for the seat on turn, by brute force, without seat
    scoring at the deal's end (Hearts' shooting the moon), which the solver leaves out unless
    given a sweep (``seat_scoring``: with it)."""
    deal = deal.clone()
    if not seat_scoring:
        deal._seat_scorers = ()
    me = deal.current_player()
    out = {}
    for a in deal.legal_actions():
        child = deal.clone()
        child.apply_action(a)
        out[a] = minimax(child, me) - deal.scores[me]
    return out


@settings(max_examples=40, deadline=None)
@given(which=st.sampled_from(range(len(SOLVED))), seed=st.integers(0, 10**6), left=st.integers(1, 3))
def test_solved_values_equal_brute_force_minimax(which, seed, left):
    found = position_of(which, seed, left)
    if found is None:
        return
    contract, deal, view = found
    expected = brute_values(deal)
    got, nodes = solver.solve(contract, view, list(deal.hands))
    assert got == expected and nodes >= 0
    assert solver.solve(contract, view, list(deal.hands), python=True)[0] == expected


@pytest.mark.skipif(not solver.compiled(), reason="the compiled solver is not built here")
@settings(max_examples=15, deadline=None)
@given(which=st.sampled_from(range(len(SOLVED))), seed=st.integers(0, 10**6), left=st.integers(4, 7))
def test_python_search_equals_the_compiled_one(which, seed, left):
    found = position_of(which, seed, left)
    if found is None:
        return
    contract, deal, view = found
    compiled = solver.solve(contract, view, list(deal.hands))  # 7 cards: the enhanced cutoff runs too
    python = solver.solve(contract, view, list(deal.hands), python=True)
    assert compiled[0] == python[0]


@pytest.mark.skipif(not solver.compiled(), reason="the compiled solver is not built here")
@settings(max_examples=10, deadline=None)
@given(which=st.sampled_from(range(len(SOLVED))), seed=st.integers(0, 10**6), left=st.integers(4, 6))
def test_portable_bit_extraction_equals_the_processors(which, seed, left):
    """The packed table keys without BMI2 (a loop) give the values they give with it."""
    found = position_of(which, seed, left)
    if found is None:
        return
    contract, deal, view = found
    with_bmi2 = solver.solve(contract, view, list(deal.hands))
    was = solver._solve.use_bmi2(False)
    try:
        portable = solver.solve(contract, view, list(deal.hands))
    finally:
        solver._solve.use_bmi2(was)
    assert portable == with_bmi2


@settings(max_examples=25, deadline=None)
@given(which=st.sampled_from(range(len(SOLVED))), seed=st.integers(0, 10**6), left=st.integers(2, 3))
def test_a_node_limit_gives_up_or_answers_exactly(which, seed, left):
    """With a node limit the solve stops (an empty answer) or gives brute force's values: a
    search cut short never answers wrong."""
    found = position_of(which, seed, left)
    if found is None:
        return
    contract, deal, view = found
    expected = brute_values(deal)
    for limit in (1, 20, 200):
        for python in (False, True):
            got, nodes = solver.solve(contract, view, list(deal.hands), python=python, limit=limit)
            assert got in ({}, expected)
            assert got or nodes > limit


@settings(max_examples=15, deadline=None)
@given(which=st.sampled_from(range(len(SOLVED))), seed=st.integers(0, 10**6), left=st.integers(3, 5))
def test_canonical_keys_change_no_value(which, seed, left):
    """The transposition table's canonical keys (ranks among the unplayed cards) give the values
    the plain hands as keys give."""
    found = position_of(which, seed, left)
    if found is None:
        return
    contract, deal, view = found
    t = solver.tables(contract, view.players, view.tricks_total, view.trump, view.deck, python=True)
    position = solver.position(view, list(deal.hands))
    assert t.raw.canonical, "Kierki, Barbu and Hearts rank cards by suit: canonical keys apply"
    canonical = t.solve(view.seat, *position)
    t.raw.canonical = False
    try:
        plain = t.solve(view.seat, *position)
    finally:
        t.raw.canonical = True
    assert canonical[0] == plain[0]


@pytest.mark.skipif(not solver.compiled(), reason="the compiled solver is not built here")
def test_a_small_table_gives_the_same_values():
    """A table of 2^10 slots (every position fighting for a few) gives the values of 2^19."""
    contract, deal = endgame(KIERKI, "bez_kierow", 11, 5)
    view = deal.view(deal.current_player())
    big = solver.solve(contract, view, list(deal.hands))[0]
    was = solver._solve.table_bits(10)
    try:
        small = solver.solve(contract, view, list(deal.hands))[0]
        with pytest.raises(ValueError):
            solver._solve.table_bits(40)
    finally:
        solver._solve.table_bits(was)
    assert small == big and big


def test_declined_contracts():
    barbu_trumps = BARBU.contracts["trumps"]  # must overtrump: a rule reading the winning card
    t = solver.tables(barbu_trumps, 4, 13, 0, FULL_DECK)
    assert isinstance(t, str) and "restrictions" in t
    assert solver.why_not_solved(KIERKI.contracts["loteryjka"]) == "not a trick contract"
    assert solver.why_not_solved(KIERKI.contracts["bez_dam"]) is None


def test_bad_positions_are_refused():
    contract = KIERKI.contracts["bez_kierow"]
    t = solver.tables(contract, 4, 13, -1, FULL_DECK)
    with pytest.raises(ValueError):
        t.solve(0, 0, (1, 1, 0, 0), 1, False, (), 1)  # a card in two hands
    with pytest.raises(ValueError):
        t.solve(0, 9, (1, 2, 4, 8), 1, False, (), 1)  # no such seat


def _match(rs, names: list, seed: int) -> tuple:
    """The totals, every deal's plays and the players of one seeded match."""
    players = [make_player(n) for n in names]
    runner = MatchRunner(rs, players, seed)
    plays = [d.plays for d in runner.deals()]
    return runner.totals, plays, players


def test_pimc_plays_legal_and_seeded_matches_repeat():
    """Every card pimc plays is legal (the match checks each action: an illegal one raises),
    it solves worlds in the deals' last tricks, and the same seed gives the same match."""
    rs = load_ruleset(str(ROOT / "rulesets" / "variants" / "short_kierki.yaml"))
    names = ["pimc:4:5", "heuristic", "pimc:4:5", "heuristic"]
    totals, plays, players = _match(rs, names, 3)
    assert players[0].stats["solved"] > 0 and players[0].stats["worlds"] == 4 * players[0].stats["solved"]
    again = _match(rs, names, 3)
    assert (totals, plays) == again[:2]


def test_the_python_search_answers_without_the_extension():
    """Under KIERKI_NO_C=1 the solver is the Python search, with the compiled one's values."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from tests.test_solver import KIERKI, endgame;"
        "from kierki_dsl.interpreter import solver; assert not solver.compiled();"
        "c, d = endgame(KIERKI, 'bez_dam', 5, 4); print(sorted(solver.solve(c, d.view(d.current_player()),"
        " list(d.hands))[0].items()))"
    )
    env = dict(os.environ, KIERKI_NO_C="1")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-500:]
    contract, deal = endgame(KIERKI, "bez_dam", 5, 4)
    expected = solver.solve(contract, deal.view(deal.current_player()), list(deal.hands))[0]
    assert out.stdout.strip() == str(sorted(expected.items()))


def test_pimc_setting():
    p = make_player("pimc:12:6")
    assert (p.worlds, p.solve_from, p.limit) == (12, 6, 400_000)
    assert make_player("pimc:12:13:5000").limit == 5000
    for bad in ("pimc:12:99", "pimc:12:13:5", "pimc:12:13:x"):
        with pytest.raises(KeyError):
            make_player(bad)


def test_pimc_gives_a_card_to_search_when_a_world_needs_more_positions():
    """With a budget of 1,000 positions a world, the first tricks of a 13-card deal do not
    solve: those cards are search's; the last ones solve; every card is legal."""
    rs = load_ruleset(str(ROOT / "benchmarks" / "kierki_negative.yaml"))
    players = [make_player("pimc:2:13:1000")] + [make_player("heuristic") for _ in range(3)]
    for _ in MatchRunner(rs, players, 5).deals():
        break
    stats = players[0].stats
    assert stats["given_up"] > 0 and stats["solved"] > 0


@pytest.mark.skipif(not solver.compiled(), reason="the compiled solver is not built here")
@settings(max_examples=40, deadline=None)
@given(
    which=st.sampled_from(range(len(SOLVED))),
    seed=st.integers(0, 10**6),
    left=st.integers(3, 7),
    swaps=st.integers(0, 2),
)
def test_a_seat_below_every_other_takes_nothing_more(which, seed, left, swaps):
    """Endgames where the seat on turn holds the lowest cards of each suit (but for a swap or
    two): the compiled search, which ends a search where that seat can take no trick more (it
    holds no trump, does not lead and each of its cards ranks below the others' of its suit),
    gives the values of the Python search, which has no such rule."""
    found = position_of(which, seed, left)
    if found is None:
        return
    contract, deal, view = found
    rng = random.Random(seed)
    rank = {c: i for suit in solver._order(contract) for i, c in enumerate(suit)}
    me, hands = view.seat, list(deal.hands)
    pool = sorted((c for h in hands for c in range(52) if h >> c & 1), key=lambda c: (rank[c], rng.random()))
    sizes = [h.bit_count() for h in hands]
    mine, rest = pool[: sizes[me]], pool[sizes[me] :]
    for _ in range(swaps):
        if mine and rest:
            i, j = rng.randrange(len(mine)), rng.randrange(len(rest))
            mine[i], rest[j] = rest[j], mine[i]
    rng.shuffle(rest)
    new = []
    for seat, size in enumerate(sizes):
        cards = mine if seat == me else [rest.pop() for _ in range(size)]
        new.append(sum(1 << c for c in cards))
    compiled = solver.solve(contract, view, new)
    assert compiled is not None and compiled[0] == solver.solve(contract, view, new, python=True)[0]


@pytest.mark.slow  # a long property or cluster run (README: the quick suite stays within 8 minutes)
@pytest.mark.skipif(not solver.compiled(), reason="the compiled solver is not built here")
@settings(max_examples=30, deadline=None)
@given(which=st.sampled_from(range(len(SOLVED))), seed=st.integers(0, 10**6), left=st.integers(4, 7))
def test_leads_ordered_by_who_must_win_give_the_python_values(which, seed, left):
    """In a deal whose points are none above 0 the compiled search tries first the leads that
    another seat must beat (the solved seat's) or that the solved seat must win (the others'):
    an order of moves, no value changes — the Python search's values, with hearts broken
    before the position either way."""
    found = position_of(which, seed, left)
    if found is None:
        return
    contract, deal, view = found
    args = (view.players, view.tricks_total, view.trump, view.deck)
    compiled, python = solver.tables(contract, *args), solver.tables(contract, *args, python=True)
    seat, hands, trick_no, broken, trick, direction = solver.position(view, list(deal.hands))
    for flag in (False, True):
        got = compiled.solve(view.seat, seat, hands, trick_no, flag, trick, direction)[0]
        assert got == python.solve(view.seat, seat, hands, trick_no, flag, trick, direction)[0]
