"""The solver values a sweep of the seat scoring (Hearts' shooting the moon) while one is open.

``solver.sweep(contract, view)`` reads the sweep off the seat scoring; ``solver.solve`` given it
equals a brute-force minimax over the interpreter's own deal *with* its seat scoring (the
moon scored at the deal's end) on Hearts and Omnibus positions where one seat has taken every
card of points so far; the Python search equals the compiled one; seat scoring of another shape
is not taken for a sweep (``sweep`` is None: ``pimc`` gives the card to ``search``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl import load_ruleset
from kierki_dsl.cards import FULL_DECK
from kierki_dsl.interpreter import solver
from kierki_dsl.interpreter.actions import DONE
from kierki_dsl.interpreter.phases import Phase
from kierki_dsl.players.base import make_player
from tests.test_solver import HEARTS, brute_values

ROOT = Path(__file__).resolve().parent.parent
OMNIBUS = load_ruleset(str(ROOT / "rulesets" / "games" / "omnibus.yaml"))
MOON_GAMES = [HEARTS, OMNIBUS]


def moon_endgame(rs, seed: int, left: int):
    """(contract, deal) of a random Hearts-like deal played until about ``left`` cards a hand
    are left, one seat (the shooter, dealt mostly high cards) playing its highest legal card and
    the others their lowest but now and then a random one: the shooter often holds every point
    taken so far."""
    rng = random.Random(seed)
    contract = rs.contracts["hand"]
    shooter = rng.randrange(4)
    deck = sorted(range(52), key=lambda c: c % 13 + 9 * rng.random(), reverse=True)  # high cards first
    rest = deck[13:]
    rng.shuffle(rest)
    hands = [rest[:13], rest[13:26], rest[26:]]
    hands.insert(shooter, deck[:13])
    dealt = [sorted(h) for h in hands]
    deal = contract.new_deal(4, FULL_DECK, seed % 4, dealt, rs.direction, 1)
    target = rng.randrange(left * 4 - 3, left * 4 + 1)
    while not deal.is_terminal():
        if deal.phase is Phase.PLAY and sum(h.bit_count() for h in deal.hands) <= target:
            break
        legal = deal.legal_actions()
        if DONE in legal:
            deal.apply_action(DONE)
        elif deal.phase is not Phase.PLAY or rng.random() < 0.1:
            deal.apply_action(rng.choice(legal))
        else:
            pick = max if deal.current_player() == shooter else min
            deal.apply_action(pick(legal, key=lambda c: c % 13))
    return contract, deal


def open_sweep(which: int, seed: int, left: int):
    """(contract, deal, view, sweep) of a moon endgame whose sweep is open, or None."""
    contract, deal = moon_endgame(MOON_GAMES[which], seed, left)
    if deal.is_terminal():
        return None
    view = deal.view(deal.current_player())
    sweep = solver.sweep(contract, view)
    if sweep is None or not sweep[0]:
        return None
    return contract, deal, view, sweep


def test_the_sweep_of_hearts_is_the_moon():
    """No points taken yet: state 1, the seat on turn +26 if it shoots, -26 if another does."""
    found = None
    for seed in range(50):
        contract, deal = moon_endgame(HEARTS, seed, 12)
        view = deal.view(deal.current_player())
        if not any(c in range(13, 26) or c == 36 for _, plays, _ in view.completed for _, c in plays):
            found = view
            break
    assert found is not None
    me = found.seat
    assert solver.sweep(contract, found) == (1, tuple(26 if s == me else -26 for s in range(4)))


@settings(max_examples=120, deadline=None)
@given(which=st.sampled_from(range(len(MOON_GAMES))), seed=st.integers(0, 10**6), left=st.integers(1, 3))
def test_swept_values_equal_brute_force_minimax_with_the_moon(which, seed, left):
    found = open_sweep(which, seed, left)
    if found is None:
        return
    contract, deal, view, sweep = found
    expected = brute_values(deal, seat_scoring=True)
    assert solver.solve(contract, view, list(deal.hands), sweep=sweep)[0] == expected
    assert solver.solve(contract, view, list(deal.hands), python=True, sweep=sweep)[0] == expected


def test_the_moon_endgames_are_often_open():
    """The generator finds open sweeps (else the tests above would show nothing)."""
    found = sum(open_sweep(w, seed, left) is not None for w in range(2) for seed in range(40) for left in (1, 3))
    assert found >= 25


@pytest.mark.slow  # a long property or cluster run (README: the quick suite stays within 8 minutes)
@pytest.mark.skipif(not solver.compiled(), reason="the compiled solver is not built here")
@settings(max_examples=40, deadline=None)
@given(which=st.sampled_from(range(len(MOON_GAMES))), seed=st.integers(0, 10**6), left=st.integers(4, 7))
def test_python_sweep_equals_the_compiled_one(which, seed, left):
    found = open_sweep(which, seed, left)
    if found is None:
        return
    contract, deal, view, sweep = found
    compiled = solver.solve(contract, view, list(deal.hands), sweep=sweep)
    assert compiled[0] == solver.solve(contract, view, list(deal.hands), python=True, sweep=sweep)[0]


def _hearts_with_seat_scoring(tmp_path, per_seat: str):
    text = (ROOT / "rulesets" / "games" / "hearts.yaml").read_text(encoding="utf-8")
    start = text.index("      - per_seat: >")
    end = text.index("        label: shooting the moon")
    path = tmp_path / "variant.yaml"
    path.write_text(text[:start] + f"      - per_seat: {per_seat}\n" + text[end:], encoding="utf-8")
    return load_ruleset(str(path))


@pytest.mark.parametrize(
    "per_seat",
    [
        "if taken(card.suit == hearts) == 13 then 26 else 0",  # the queen of spades not needed
        "if tricks_taken == 0 then 5 else 0",  # reads the tricks, not the cards of points
    ],
)
def test_seat_scoring_of_another_shape_is_no_sweep(tmp_path, per_seat):
    rs = _hearts_with_seat_scoring(tmp_path, per_seat)
    contract, deal = moon_endgame(rs, 3, 12)
    view = deal.view(deal.current_player())
    assert solver.seat_scoring_open(contract, view)
    assert solver.sweep(contract, view) is None


def test_a_broken_moon_has_nothing_to_track():
    for seed in range(200):
        contract, deal = moon_endgame(HEARTS, seed, 3)
        if deal.is_terminal():
            continue
        view = deal.view(deal.current_player())
        takers = {w for _, plays, w in view.completed if any(13 <= c < 26 or c == 36 for _, c in plays)}
        if len(takers) > 1:
            assert solver.sweep(contract, view) == (0, ())
            return
    pytest.fail("no deal with the moon broken")


def test_bad_sweeps_are_refused():
    contract, deal = moon_endgame(HEARTS, 1, 3)
    view = deal.view(deal.current_player())
    t = solver.tables_of(contract, view)
    args = solver.position(view, list(deal.hands))
    for bad in ((6, (0, 0, 0, 0)), (-1, (0, 0, 0, 0)), (1, (0, 0)), (1, (1 << 50, 0, 0, 0))):
        with pytest.raises(ValueError):
            t.solve(view.seat, *args, 0, bad)


def test_pimc_solves_hearts_cards_with_the_moon_open():
    """pimc:...:1 values the moon in the solve; with the setting's seventh part 0 (the default), such cards
    go to ``search`` as before."""
    from tests.test_pimc import _point_takers, _recorded

    rs = load_ruleset(str(ROOT / "benchmarks" / "hearts_short.yaml"))
    me = _recorded(rs, "4:7:400000:1:0.25:1", 4)  # from 7 cards a hand: whole solves
    assert me.stats["sweeps"] > 0 and me.stats["seat_scoring"] == 0
    assert sum(len(_point_takers(view)) <= 1 for view, *_ in me.seen) >= 5  # solved with the moon open
    old = _recorded(rs, "4:7:400000:1:0.25:0", 4)
    assert old.stats["sweeps"] == 0 and old.stats["seat_scoring"] > 0
    assert all(len(_point_takers(view)) > 1 for view, *_ in old.seen)
    assert make_player("pimc:4:13:20000:1:0.25:1").sweeps
    with pytest.raises(KeyError):
        make_player("pimc:4:13:20000:1:0.25:3")


def test_the_own_sweep_setting_values_only_the_seat_s_own_moon():
    """``pimc:...:2``: another seat's moon is not in the solve (the others would feed it every
    point); where another seat holds every point taken so far the card is ``search``'s."""
    from types import SimpleNamespace

    from kierki_dsl.players.pimc import PimcPlayer

    assert make_player("pimc:4:13:20000:1:0.25:2").sweeps == 2
    # the default since the preregistered Hearts test (benchmarks/journals/2026-12-03)
    assert make_player("pimc:4").sweeps == make_player("pimc").sweeps == 2
    assert make_player("pimc:4:13:20000:1:0.25:0").sweeps == 0
    view = SimpleNamespace(seat=1)
    values = (-26, 26, -26, -26)
    assert PimcPlayer._own(view, (1, values)) == (1, (0, 26, 0, 0))
    assert PimcPlayer._own(view, (3, values)) == (3, (0, 26, 0, 0))
    assert PimcPlayer._own(view, (2, values)) is None
    rs = load_ruleset(str(ROOT / "benchmarks" / "hearts_short.yaml"))
    from tests.test_pimc import _recorded

    me = _recorded(rs, "4:7:400000:1:0.25:2", 4)
    assert me.stats["sweeps"] > 0
    for view, *_ in me.seen:  # every solved card: no other seat holds every point taken
        takers = {w for _, plays, w in view.completed if any(13 <= c < 26 or c == 36 for _, c in plays)}
        assert len(takers) > 1 or takers <= {view.seat}
