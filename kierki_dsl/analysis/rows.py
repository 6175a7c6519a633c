"""The data one simulated match leaves behind: a row per deal, a result per match.

Rows are ``NamedTuple``s rather than attrs classes: a simulation makes one per deal by the
million, and a tuple is several times cheaper to build; both are immutable plain values.
"""

from __future__ import annotations

import gc
from itertools import repeat
from typing import NamedTuple, Optional


class DealRow(NamedTuple):
    """One deal: the contract played, who dealt, played first, called trumps and won the
    auction, the points."""

    contract: str  # the contract's name (the one played, also when a declarer chose it)
    dealer: int
    first: int  # the seat that played first (-1 unknown)
    caller: int  # the seat that named trumps (-1 none)
    trump: int  # -1 none
    scores: tuple  # points per seat
    early: bool = False  # the deal stopped before every card was played (nothing left to score)
    blocked: bool = False  # a layout deal that stopped because nobody could play
    declarer: int = -1  # the seat that won the deal's auction (-1 none)


class GameResult(NamedTuple):
    """One match: its index in the simulation, seed, players per seat, deals and totals."""

    index: int  # type: ignore[assignment]  # a field named like tuple.index: kept, records and callers use it
    names: tuple  # player name per seat
    deals: tuple  # DealRow per deal
    totals: tuple
    record: Optional[dict] = None
    seed: int = 0
    first_dealer: int = 0


class Batch(NamedTuple):
    """What a worker hands over for a batch of game indices (or a whole simulation, merged):
    per game a tuple of GameResults (one per ruleset, in game order), and per ruleset the
    measures of those games as ``measures.Measured`` column blocks (None: not made)."""

    games: list
    measured: Optional[tuple] = None

    def __reduce__(self):
        """Pickled with its rows as plain tuples: a named tuple pickles and unpickles through
        Python-level methods, one call per deal of every match a worker hands over."""
        return _unpack, ([tuple(map(_plain, game)) for game in self.games], self.measured)


def _plain(g: GameResult) -> tuple:
    return g[:2] + (tuple(map(tuple, g[2])),) + g[3:]


_new = tuple.__new__


def _unpack(games: list, measured) -> Batch:
    """A ``Batch`` from its pickled form (``Batch.__reduce__``), the cyclic garbage collector
    held back meanwhile: rows hold no cycles, and it would scan the command's growing
    results again and again as they are made (most of the unpickling's cost)."""
    held = gc.isenabled()
    gc.disable()
    try:
        return Batch(
            [
                tuple(_new(GameResult, g[:2] + (tuple(map(_new, repeat(DealRow), g[2])),) + g[3:]) for g in game)
                for game in games
            ],
            measured,
        )
    finally:
        if held:
            gc.enable()
