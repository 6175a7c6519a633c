"""``pimc``: perfect-information Monte Carlo — sampled worlds, each solved exactly.

For a card to play it deals the unseen cards at random consistently with what is public (the
``search`` player's sampler, ``search.sample_hands``: hand sizes, shown voids, passed cards,
exposed cards, a trump caller's trumps), solves each world with every hand known
(``interpreter.solver``: alpha-beta with a transposition table, move ordering and equivalent
cards; the view's seat maximises its own points from here to the deal's end, every other seat
minimises them) and plays the card with the best average solved value.

Each world's solve may search at most ``NODE_LIMIT`` positions (a budget in positions, not
seconds: the same decisions on a loaded machine as on an idle one; under 0.1 s of CPU at the
solver's 5 million positions a second measured on a loaded machine). A whole 13-card deal of four seats needs more than
that in most worlds (docs/performance.md, "The solver and pimc"), so ``pimc`` solves as deep as
the budget allows: it tries from the first card on (once every hand holds at most
``SOLVE_FROM`` cards, 13 by default); when a world's solve runs out of positions it decides
that card as ``search`` does (the positions spent are lost), and tries again at its next
card. The first world's solve may take only ``PROBE`` times that budget: a decision whose
first world needs more is seldom solved in every world (docs/bots.md, "third round"), and
most of the positions a decision gave up on were spent there. It also decides as ``search``
every decision that is not a card to play and every card of a contract the solver declines
(dynamic trick points, restrictions reading the winning card, a stock, ...:
``solver.why_not_solved``). Bets are left out of the solver's value. Seat scoring that pays a
sweep (Hearts' shooting the moon: one seat taking every card of points) is in it
(``solver.sweep``: while one seat has taken every card of points taken so far, the solve values
the sweep's end too); seat scoring of another shape, while it may still tell the deal's ends
apart (``solver.seat_scoring_open``), sends the card to ``search``, as every card of
seat scoring did before (``SWEEP_IN_SOLVE``).

Cards whose averaged solved values are within ``TIE_MARGIN`` steps of the contract's points
(``solver.Scaled.unit``, at most a seat's share of the deal's points: ``_step``) of the best
are near-ties: the solver, every other seat playing
against this one, often finds several cards equally bad; ``search``'s rollouts on the same
decision (``SearchPlayer.averages``) choose among them.

Settings, as ``search``'s: ``pimc:32`` solves 32 worlds per decision (reproducible for a seed),
``pimc:0.5s`` solves worlds for that long; ``pimc:32:9`` also sets ``SOLVE_FROM``;
``pimc:32:13:2000000`` also sets the positions a world may take; ``pimc:32:13:2000000:0.5``
also sets the near-tie margin; ``pimc:32:13:2000000:0.5:1`` also sets ``PROBE`` (1: the first
world as every other); ``pimc:32:13:2000000:0.5:1:0`` also sets ``SWEEP_IN_SOLVE`` (0: cards
of open seat scoring to ``search``; 1: every seat's sweep in the solve; 2, the default: the seat's own).
"""

from __future__ import annotations

import math
import time

from ..interpreter import solver
from .base import Player, register_player, setting_count, thinking_budget
from .search import SearchPlayer, sample_hands

DEFAULT_WORLDS = 20
#: The most cards per hand from which a world is solved (before: as ``search``).
SOLVE_FROM = 13
#: The most positions one world's solve may search.
NODE_LIMIT = 400_000
#: Cards whose solved values, averaged over the worlds, are within this many steps of the
#: contract's points (``solver.Scaled.unit``: Hearts' 1, a trick's 20 in Kierki's "no tricks")
#: of the best are near-ties: ``search``'s rollouts choose among them.
TIE_MARGIN = 1.0
#: Whether ``search`` decides a card while the seat scoring the solver leaves out (Hearts'
#: shooting the moon) may still tell the deal's ends apart (``solver.seat_scoring_open``).
SEAT_SCORING_TO_SEARCH = True
#: Which sweeps of the seat scoring (Hearts' shooting the moon) the solve values while one is
#: still open (``solver.sweep``): 0 none (such cards go to ``search`` as all open seat scoring
#: does), 1 every seat's, 2 (``OWN_SWEEP``) the seat's own only (another seat's to ``search``).
#: 2 by default: it beat ``search`` on fresh Hearts deals fixed in advance, where 0 drew (docs/bots.md).
OWN_SWEEP = 2
SWEEP_IN_SOLVE = OWN_SWEEP
#: Whether a near-tie's step of points is at most a seat's share of the deal's points (``_step``).
STEP_AT_MOST_A_SHARE = True
#: The share of ``NODE_LIMIT`` the first world's solve may take (a probe: past it the decision
#: goes to ``search``).
PROBE = 0.25


def _number(text: str, lo: float, hi: float, what: str) -> float:
    """A setting's number between ``lo`` and ``hi`` (``what`` names it in the error)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not lo <= value <= hi:
        raise ValueError(f"pimc: {what} must be {lo:g}..{hi:g}, got {text[:20]!r}")
    return value


@register_player
class PimcPlayer(Player):
    name = "pimc"

    def __init__(self, setting: str = "") -> None:
        budget, _, rest = setting.partition(":")
        depth, _, rest = rest.partition(":")
        limit, _, rest = rest.partition(":")
        margin, _, rest = rest.partition(":")
        probe, _, sweeps = rest.partition(":")
        count, self.seconds = thinking_budget("pimc", budget, "a world count", 10_000)
        self.worlds = count or DEFAULT_WORLDS
        cards, positions = setting_count(depth), setting_count(limit)
        if depth and (cards is None or not 1 <= cards <= 13):
            raise ValueError(f"pimc: the cards per hand to solve from must be 1..13, got {depth[:20]!r}")
        if limit and (positions is None or not 1_000 <= positions <= 10**9):
            raise ValueError(f"pimc: the positions a world may take must be 1000..10^9, got {limit[:20]!r}")
        self.solve_from = cards if cards is not None else SOLVE_FROM
        self.limit = positions if positions is not None else NODE_LIMIT
        self.margin = _number(margin, 0, 1000, "the near-tie margin in steps of points") if margin else TIE_MARGIN
        #: The share of ``limit`` the first world may take.
        self.probe = _number(probe, 0.01, 1, "the first world's share of the positions") if probe else PROBE
        #: Whether a card whose deal's seat scoring is still open goes to ``search``.
        self.seat_scoring = SEAT_SCORING_TO_SEARCH
        if sweeps not in ("", "0", "1", "2"):
            raise ValueError(f"pimc: the sweep in the solve must be 0, 1 or 2, got {sweeps[:20]!r}")
        #: Which open sweeps the solve values (``SWEEP_IN_SOLVE``).
        self.sweeps = int(sweeps) if sweeps else SWEEP_IN_SOLVE
        self.search = SearchPlayer(budget)
        counts = ("decisions", "solved", "given_up", "worlds", "nodes", "ties", "seat_scoring", "sweeps")
        self.stats: dict = {**dict.fromkeys(counts, 0), "seconds": 0.0}

    def reset(self, seed: int, seat: int, rules=None) -> None:
        super().reset(seed, seat, rules)
        self.search.reset(seed, seat, rules)

    def act(self, view) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        sweep = self._sweep(view)
        if sweep is None:
            return self.search.act(view)
        choice = self._solve(view, legal, self.contract_of(view), sweep)
        return self.search.act(view) if choice is None else choice

    def _sweep(self, view):
        """The sweep the solver values on this decision (``solver.sweep``), or None where it is
        not a card the solver values (``search`` decides)."""
        if not solver.solvable(view) or view.hand.bit_count() > self.solve_from:
            return None
        contract = self.contract_of(view)
        if isinstance(solver.tables_of(contract, view), str):
            return None
        if not self.seat_scoring or not solver.seat_scoring_open(contract, view):
            return 0, ()
        sweep = solver.sweep(contract, view) if self.sweeps else None
        if sweep is not None and self.sweeps == OWN_SWEEP:
            sweep = self._own(view, sweep)
        if sweep is None or not sweep[0]:
            self.stats["seat_scoring"] += 1  # the solver's value would leave out what may still count
            return None
        self.stats["sweeps"] += 1
        return sweep

    @staticmethod
    def _own(view, sweep: tuple):
        """The sweep with only the view's seat's own valued (the solve's other seats, all playing
        against it, would otherwise feed one of them every card of points); None where another
        seat has taken every card of points so far (that sweep is ``search``'s)."""
        state, values = sweep
        if state >= 2 and state - 2 != view.seat:
            return None
        return state, tuple(v if s == view.seat else 0 for s, v in enumerate(values))

    def _solve(self, view, legal: list, contract, sweep=(0, ())):
        """The legal card with the best solved value averaged over the sampled worlds, or None
        when a world's solve ran out of positions."""
        rng = self.rng(view)
        start = time.perf_counter()
        totals = dict.fromkeys(legal, 0)
        n = 0
        self.stats["decisions"] += 1
        while self._more(n, start):
            limit = self.limit if n else max(1, int(self.limit * self.probe))
            solved = solver.solve(contract, view, sample_hands(view, rng), limit=limit, sweep=sweep)
            if solved is None:  # pragma: no cover - ``_sweep`` said the solver takes it
                return None
            got, nodes = solved
            self.stats["nodes"] += nodes
            if not got:  # out of positions: ``search`` decides this card
                self.stats["given_up"] += 1
                self.stats["seconds"] += time.perf_counter() - start
                return None
            for card in legal:
                totals[card] += got[card]
            n += 1
        self.stats["solved"] += 1
        self.stats["worlds"] += n
        choice = self._best(view, legal, totals, n * self._step(view, contract))
        self.stats["seconds"] += time.perf_counter() - start
        return choice

    @staticmethod
    def _step(view, contract) -> float:
        """The contract's step of points (the greatest common divisor of its trick's and cards'
        points: a heart's 1 in Hearts, a trick's 20 in Kierki's "no tricks"), but at most a
        seat's share of the deal's points (``STEP_AT_MOST_A_SHARE``): where one card holds every
        point (Kierki's king of hearts, 150) a step is not the whole stake."""
        t = solver.tables_of(contract, view)
        if not STEP_AT_MOST_A_SHARE:
            return t.unit
        return min(t.unit, t.stake / view.players)

    def _best(self, view, legal: list, totals: dict, scale: float) -> int:
        """The card of the best solved total; where several are within ``margin`` times
        ``scale`` (the worlds times the contract's step of points) of the best, the one of them
        ``search`` values most on the same decision (its rollouts' average), then the best
        solved, then the lowest card."""
        top = max(totals.values())
        near = [a for a in legal if totals[a] >= top - self.margin * scale]
        if len(near) > 1:
            self.stats["ties"] += 1
            averages = self.search.averages(view)
            if averages is not None:
                return max(near, key=lambda a: (averages.get(a, -math.inf), totals[a], -a))
        return max(legal, key=lambda a: (totals[a], -a))

    def _more(self, n: int, start: float) -> bool:
        """Whether to solve another world: fewer than the count asked, or time left."""
        if self.seconds:
            return not n or time.perf_counter() - start < self.seconds
        return n < self.worlds


__all__ = ["PimcPlayer", "DEFAULT_WORLDS", "SOLVE_FROM", "NODE_LIMIT", "TIE_MARGIN", "PROBE", "SWEEP_IN_SOLVE"]
