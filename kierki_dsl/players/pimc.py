"""``pimc``: perfect-information Monte Carlo — sampled worlds, each solved exactly.

For a card to play it deals the unseen cards at random consistently with what is public (the
``search`` player's sampler: hand sizes, shown voids, passed cards, a trump caller's trumps),
solves each world with every hand known (``interpreter.solver``: alpha-beta with a
transposition table, move ordering and equivalent cards; the view's seat maximises its own
points from here to the deal's end, every other seat minimises them) and plays the card with
the best average solved value.

An exact solve of a whole 13-card hand of four seats takes too long for a decision (see
docs/performance.md, "The solver and pimc"), so the worlds are solved once every hand holds at
most ``SOLVE_FROM`` cards (7: 5–55 ms a world, measured by benchmarks/bench_solver.py;
``pimc:20:8`` sets it); before that, and for every decision that is not
a card to play or in a contract the solver declines (dynamic trick points, restrictions reading
the winning card, a stock, ...: ``solver.why_not_solved``), ``pimc`` decides as ``search`` does.
The solver values the trick points alone: seat scorers (Hearts' shooting the moon) and bets are
left out of its value.

Strength/time knob, as ``search``: ``pimc:32`` solves 32 worlds per decision (reproducible for
a seed), ``pimc:0.5s`` solves worlds for that long; ``pimc:32:9`` also sets ``SOLVE_FROM``.
"""

from __future__ import annotations

import time

from ..interpreter import solver
from .base import Player, register_player, thinking_budget
from .search import SearchPlayer, sample_hands

DEFAULT_WORLDS = 20
#: The most cards per hand from which a world is solved (before: as ``search``).
SOLVE_FROM = 7


@register_player
class PimcPlayer(Player):
    name = "pimc"

    def __init__(self, setting: str = "") -> None:
        budget, _, depth = setting.partition(":")
        count, self.seconds = thinking_budget("pimc", budget, "a world count", 10_000)
        self.worlds = count or DEFAULT_WORLDS
        if depth and (not depth.isdigit() or not 1 <= int(depth) <= 13):
            raise ValueError(f"pimc: the cards per hand to solve from must be 1..13, got {depth[:20]!r}")
        self.solve_from = int(depth) if depth else SOLVE_FROM
        self.search = SearchPlayer(budget)
        self.stats = {"decisions": 0, "solved": 0, "worlds": 0, "nodes": 0, "seconds": 0.0}

    def reset(self, seed: int, seat: int, rules=None) -> None:
        super().reset(seed, seat, rules)
        self.search.reset(seed, seat, rules)

    def act(self, view) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not self._solves(view):
            return self.search.act(view)
        return self._solve(view, legal, self.contract_of(view))

    def _solves(self, view) -> bool:
        """Whether this decision is a card the solver values (else ``search`` decides)."""
        if not solver.solvable(view) or view.hand.bit_count() > self.solve_from:
            return False
        t = solver.tables(self.contract_of(view), view.players, view.tricks_total, view.trump, view.deck)
        return not isinstance(t, str)

    def _solve(self, view, legal: list, contract) -> int:
        """The legal card with the best solved value averaged over the sampled worlds."""
        rng = self.rng(view)
        start = time.perf_counter()
        totals = dict.fromkeys(legal, 0)
        n = 0
        while self._more(n, start):
            solved = solver.solve(contract, view, sample_hands(view, rng))
            if solved is None:  # pragma: no cover - ``_solves`` said the solver takes it
                return self.search.act(view)
            got, nodes = solved
            for card in legal:
                totals[card] += got[card]
            self.stats["nodes"] += nodes
            n += 1
        self.stats["decisions"] += 1
        self.stats["solved"] += 1
        self.stats["worlds"] += n
        self.stats["seconds"] += time.perf_counter() - start
        return max(legal, key=lambda a: (totals[a], -a))

    def _more(self, n: int, start: float) -> bool:
        """Whether to solve another world: fewer than the count asked, or time left."""
        if self.seconds:
            return not n or time.perf_counter() - start < self.seconds
        return n < self.worlds


__all__ = ["PimcPlayer", "DEFAULT_WORLDS", "SOLVE_FROM"]
