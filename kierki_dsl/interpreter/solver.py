"""The perfect-information solver of trick play: the value of each legal card in a world
where every hand is known (``pimc``'s worlds, sampled consistently with a seat's view).

``solve(contract, view, hands)`` gives ``{card: points}``: the points the view's seat takes
from the position to the deal's end if it plays the card, it maximising them and every other
seat minimising them (the paranoid reduction: in a deal whose points all go to somebody, a
seat's own points against the rest), or None when the solver declines the contract
(``why_not_solved``). The search (alpha-beta with a canonically keyed transposition table, move
ordering, equivalent cards and MTD(f) null-window searches, as Kupferschmid and Helmert's Skat
solver and the bridge solvers: ``_solve.c``'s header) runs in C (``_solve.c``) where the
extension is built and ``KIERKI_NO_C`` is not set, else in Python (``solvepy``): the same values.
The tables count points in their greatest common divisor (``Scaled``); a solve may be given a
limit of positions to search, past which it answers ``{}``.

It reads the tables the step core reads (``contract.play_rules``: the cards beating each card,
the static points of each trick and card) and the play restrictions as keep masks by trick
number and hearts broken (``Legality.by_trick``). What those tables do not hold it declines:
dynamic trick points, an ``end_when`` rule, restrictions reading more than the trick number and
hearts broken (the suit led, the winning card, the hand, counted cards) or without a fallback,
a stock, a widow, declarations, exposures, scoring that reads the match. Bets (doubles settled
at the end) are left out of the value. Seat scorers (added at the deal's end) are valued where
they pay a sweep — one seat's taking every card of points, as Hearts' shooting the moon — and
``sweep(contract, view)`` reads that off the scoring (else they are left out: ``solve`` without
a sweep values the trick points alone, and ``seat_scoring_open`` says whether that leaves out
something that may still count).
"""

from __future__ import annotations

import functools
import importlib
import math
import os
from types import ModuleType
from typing import Optional

from ..cards import SUIT_MASK
from ..expr import RuleRuntimeError
from ..rankorder import rank_key
from .envs import add_seat_end_points
from .solvepy import PyTables
from .stock import StockPart
from .tricks import TrickContract
from .view import shown_part

_solve: Optional[ModuleType] = None
if not os.environ.get("KIERKI_NO_C"):
    try:
        _solve = importlib.import_module("._solve", __package__)
    except ImportError:  # not built (no C compiler at install): the Python search solves
        _solve = None

#: The contract fields whose cards or points the solver's tables do not hold.
_DECLINED = {"stock": "a stock", "widow": "a widow", "declarations": "declarations", "exposure": "exposures"}


def compiled() -> bool:
    """Whether the compiled solver is built and enabled."""
    return _solve is not None


def why_not_solved(contract) -> Optional[str]:
    """None if the solver values deals of ``contract``, else why not (in words)."""
    if not isinstance(contract, TrickContract):
        return "not a trick contract"
    for attr, words in _DECLINED.items():
        if getattr(contract, attr, None):
            return words
    if contract.reads_match():
        return "scoring that reads the match's totals"
    if contract.end_when is not None:
        return "an end_when rule"
    return None


@functools.lru_cache(maxsize=64)
def tables(contract, players: int, tricks: int, trump: int, deck: int, python: bool = False):
    """The solver's tables of (players, tricks, trump, deck) — ``_solve.Tables``, or
    ``solvepy.PyTables`` with ``python`` or without the extension — or the reason (a str)
    the solver declines them."""
    why = why_not_solved(contract)
    if why is not None:
        return why
    if not 2 <= players <= 8 or not 1 <= tricks <= 52:
        return "more seats or tricks than the solver holds"
    try:
        (trick_points, _, dynamic), values, kernel, _, beats, _, _ = contract.play_rules(tricks, trump, players, deck)
    except RuleRuntimeError:
        return "play rules that fail to evaluate"
    if dynamic:
        return "trick points that read the trick (dynamic scoring)"
    programs = [kernel.by_trick(phase) for phase in range(3)]
    if any(p is None for p in programs):
        return "play restrictions that read more than the trick number and hearts broken"
    rows = [tuple(values[n][0]) if 1 <= n <= tricks else (0,) * 52 for n in range(tricks + 2)]
    keeps = [[tuple(keep for keep, _, _, _ in prog) for prog in phase] for phase in programs]
    args = (
        players,
        tricks,
        contract.follow_suit,
        tuple(sum(1 << c for c in b) for b in beats),
        tuple(trick_points[n] if n < len(trick_points) else 0 for n in range(tricks + 2)),
        rows,
        keeps,
        _classes(rows, keeps),
        _order(contract),
    )
    unit = _unit(args[4], rows)
    stake = _stake(args[4], rows, tricks, deck)
    sweep_cards = _sweep_cards(args[4], rows, tricks)
    args = (*args[:4], tuple(p // unit for p in args[4]), [tuple(v // unit for v in r) for r in rows], *args[6:])
    raw = PyTables(*args) if _solve is None or python else _solve.Tables(*args)
    return Scaled(raw, unit, stake, sweep_cards, rows[1])


class Scaled:
    """A contract's solver tables with its points counted in ``unit`` (their greatest common
    divisor: "no tricks" counts tricks, not 20s of points; the null-window searches bisect
    fewer values), answering ``solve`` in points again."""

    def __init__(self, raw, unit: int, stake: int, sweep_cards: Optional[int] = None, sweep_row: tuple = ()) -> None:
        self.raw, self.unit = raw, unit
        #: The most points a deal's tricks and cards can hand out in all (``_stake``).
        self.stake = stake
        #: The cards of points where a sweep can be valued (``_sweep_cards``), or None.
        self.sweep_cards = sweep_cards
        #: Each card's points where a sweep can be valued (the same in every trick).
        self.sweep_row = sweep_row

    def solve(self, me, to_move, hands, trick_no, broken, trick, direction, limit=0, sweep=(0, ())) -> tuple:
        """``([(card, points), ...], nodes)``, or ``(None, nodes)`` once more than ``limit``
        positions (if > 0) were searched; ``sweep``: ``(state, values)`` of ``solver.sweep``."""
        got, nodes = self.raw.solve(me, to_move, hands, trick_no, broken, trick, direction, limit, *sweep)
        if got is None:
            return None, nodes
        return [(c, v * self.unit) for c, v in got], nodes


def _unit(trick_points: tuple, rows: list) -> int:
    """The greatest common divisor of every trick's and card's points (1 if none)."""
    return math.gcd(*trick_points, *(v for r in rows for v in r)) or 1


def _stake(trick_points: tuple, rows: list, tricks: int, deck: int) -> int:
    """The points a deal hands out in all, in size: every trick's, and each card of the deck at
    its largest in any trick (Kierki's "no king of hearts" 150, its "robber" 1,300)."""
    cards = sum(max(abs(r[c]) for r in rows[1 : tricks + 1]) for c in range(52) if deck >> c & 1)
    return sum(abs(p) for p in trick_points[1 : tricks + 1]) + cards


def _sweep_cards(trick_points: tuple, rows: list, tricks: int) -> Optional[int]:
    """The cards giving points where a sweep can be valued: no trick gives points of its own and
    every trick's cards of points are the same (Hearts' hearts and queen of spades); else None."""
    if any(trick_points[1 : tricks + 1]):
        return None
    masks = {sum(1 << c for c in range(52) if r[c]) for r in rows[1 : tricks + 1]}
    return masks.pop() if len(masks) == 1 else None


def _order(contract) -> tuple:
    """The cards of each suit from the weakest to the strongest (the contract's rank order)."""
    rank = rank_key(contract.order)
    return tuple(tuple(sorted(range(13 * s, 13 * s + 13), key=rank)) for s in range(4))


def _classes(rows: list, keeps: list) -> tuple:
    """Each card's class: cards of one suit with the same points in every trick and the same
    bit in every keep mask share one (equivalent when next to each other in play)."""
    ids: dict = {}
    out = []
    for c in range(52):
        key = (c // 13, tuple(r[c] for r in rows), tuple(k >> c & 1 for phase in keeps for p in phase for k in p))
        out.append(ids.setdefault(key, len(ids)))
    return tuple(out)


def tables_of(contract, view, python: bool = False):
    """``tables`` of the deal a seat's view shows (its seats, tricks, trump and deck)."""
    return tables(contract, view.players, view.tricks_total, view.trump, view.deck, python)


def position(view, hands: list) -> tuple:
    """``Tables.solve``'s position arguments (but ``me``) of a seat's view in play with the
    other hands assumed: (seat on turn, hands, trick number, hearts broken, trick, direction)."""
    return (
        view.seat,
        tuple(hands),
        view.trick_number,
        bool(view.played & SUIT_MASK[1]),
        tuple(tuple(p) for p in view.trick),
        view.direction,
    )


def solvable(view) -> bool:
    """Whether a view is a card to play in trick play the solver can start from."""
    return (
        view.phase == "play"
        and view.part("layout") is None
        and not shown_part(view, StockPart).stock
        and 1 <= view.trick_number <= view.tricks_total
        and view.players >= 2
    )


def _seat_exprs(contract) -> list:
    """The contract's seat scoring expressions (``per_seat``)."""
    return [s.points for s in contract.scorers if s.kind == "seat"]


def _taken(view) -> tuple:
    """Per seat, the cards taken and the tricks won in the view's completed tricks."""
    taken, won = [0] * view.players, [0] * view.players
    for _, plays, winner in view.completed:
        won[winner] += 1
        for _, card in plays:
            taken[winner] |= 1 << card
    return taken, won


def _end_scores(exprs: list, view, taken: list, won: list) -> tuple:
    """Each seat's seat-scoring points at a deal's end of ``taken`` cards and ``won`` tricks
    (raises ``RuleRuntimeError`` where an expression fails)."""
    scores = [0] * view.players
    args = (view.dealer, view.players, view.caller, view.trump, won, view.tricks_total, taken, view.deck)
    add_seat_end_points(scores, exprs, *args)
    return tuple(scores)


def _end(view, taken: list, won: list, gets: dict) -> tuple:
    """``taken`` and ``won`` with more: ``gets`` maps a seat to (cards, tricks) it also takes."""
    end_taken, end_won = list(taken), list(won)
    for seat, (cards, tricks) in gets.items():
        end_taken[seat] |= cards
        end_won[seat] += tricks
    return end_taken, end_won


def seat_scoring_open(contract, view) -> bool:
    """Whether the seat scoring the solver leaves out of its value (``per_seat``: Hearts'
    shooting the moon) may still tell the deal's ends apart: the seats' end-of-deal points differ
    between the ends where one seat takes every card and trick left (one end a seat; an
    expression that fails counts as open). Hearts' moon is open while one seat has taken
    every point card taken so far."""
    exprs = _seat_exprs(contract)
    if not exprs:
        return False
    taken, won = _taken(view)
    left = view.deck & ~functools.reduce(int.__or__, taken, 0)
    tricks_left = view.tricks_total - len(view.completed)
    try:
        ends = {
            _end_scores(exprs, view, *_end(view, taken, won, {s: (left, tricks_left)})) for s in range(view.players)
        }
    except RuleRuntimeError:
        return True
    return len(ends) > 1


def sweep(contract, view) -> Optional[tuple]:
    """The sweep ``solve`` values for the view's seat: ``(state, values)`` — the state 1 where
    no card of points was taken yet, 2 + s where seat s took every one taken so far, and per seat
    s what the view's seat gets at the deal's end (in the tables' unit) if s takes every card of
    points, over what it gets where two seats share them; ``(0, ())`` where nothing is to track
    (no seat scoring, or two seats took points). None where the seat scoring is not a sweep's as
    far as the ends tried show (a sweep's points must not depend on where the other cards and
    tricks go, and every end where two seats share the points must score alike), or where the
    tables cannot value one (trick points, cards of points that change by trick)."""
    exprs = _seat_exprs(contract)
    t = tables_of(contract, view)
    if not exprs:
        return 0, ()
    if isinstance(t, str) or t.sweep_cards is None:
        return None
    taken, won = _taken(view)
    takers = [s for s in range(view.players) if taken[s] & t.sweep_cards]
    left = view.deck & ~functools.reduce(int.__or__, taken, 0)
    points_left = left & t.sweep_cards
    if len(takers) > 1 or not points_left:
        return 0, ()
    try:
        values = _sweep_values(exprs, view, taken, won, left, points_left, takers, t.sweep_row)
    except RuleRuntimeError:
        return None
    if values is None or any(v % t.unit for v in values):
        return None
    return (2 + takers[0] if takers else 1), tuple(v // t.unit for v in values)


def _kinds(cards: int, row: tuple) -> list:
    """One card (as a mask) of each kind among ``cards``: each suit's cards of each value in ``row``."""
    kinds: dict = {}
    for c in range(52):
        if cards >> c & 1:
            kinds.setdefault((c // 13, row[c]), 1 << c)
    return list(kinds.values())


def _sweep_values(exprs: list, view, taken: list, won: list, left: int, points_left: int, takers: list, row: tuple):
    """Per seat, what the view's seat gets if that seat takes every card of points, over an end
    where two seats share them (0 for a seat that cannot sweep any more); None where the ends
    tried say the seat scoring is not a sweep's (``sweep``)."""
    n, me = view.players, view.seat
    tricks_left = view.tricks_total - len(view.completed)
    first = min(1, tricks_left)
    shared = set()  # ends where another seat takes ``one`` (a card of each kind) and a seat the rest
    for one in _kinds(points_left, row):
        for other in range(n):
            for rest in range(n):
                if other != (takers[0] if takers else rest) and (takers or points_left != one):
                    gets = {rest: (left & ~one, tricks_left - first), other: (one, first)}
                    if other == rest:
                        gets = {other: (left, tricks_left)}
                    shared.add(_end_scores(exprs, view, *_end(view, taken, won, gets)))
    if len(shared) > 1:
        return None
    base = shared.pop() if shared else (0,) * n
    values = []
    for s in range(n):
        if takers and takers[0] != s:
            values.append(0)  # another seat has taken points: s cannot sweep
            continue
        whole = _end_scores(exprs, view, *_end(view, taken, won, {s: (left, tricks_left)}))
        other, rest = (s + 1) % n, left & ~points_left
        split = {s: (points_left, first), other: (rest, tricks_left - first)}
        if rest and _end_scores(exprs, view, *_end(view, taken, won, split)) != whole:
            return None  # the sweep's points depend on where the other cards go
        values.append(whole[me] - base[me])
    return values


def solve(contract, view, hands: list, python: bool = False, limit: int = 0, sweep=(0, ())) -> Optional[tuple]:
    """``({card: points}, nodes)`` of the view's seat in the world of ``hands`` (see the module's
    docstring), or None when the solver declines the contract or the position; ``({}, nodes)``
    when ``limit`` > 0 positions did not suffice (the solve stopped there). ``sweep``: the view's
    ``solver.sweep`` to value the seat scoring's sweep too (the default leaves it out)."""
    if not solvable(view):
        return None
    t = tables_of(contract, view, python)
    if isinstance(t, str):
        return None
    got, nodes = t.solve(view.seat, *position(view, hands), limit, sweep)
    return (dict(got) if got is not None else {}), nodes


__all__ = [
    "compiled",
    "why_not_solved",
    "tables",
    "tables_of",
    "Scaled",
    "position",
    "solvable",
    "seat_scoring_open",
    "sweep",
    "solve",
]
