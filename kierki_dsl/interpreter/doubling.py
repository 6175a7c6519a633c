"""Doubling: side bets between two players on which of them scores better in a deal (Barbu).

A contract with ``doubling`` opens each deal (after any trump call, before the first card)
with a round of bets. Starting left of the dealer, every seat in turn may double any seats
that ``may_double`` allows (``doubler``, ``target``, ``dealer``, ``players``), one at a
time, then says ``done`` (a seat with no choice left is passed over). Then, in the same order, every seat that was doubled may redouble
any of its doublers (``redouble: true``). When the deal ends, each pair that has a bet
settles it: the one who scored more takes the difference of their two scores from the other,
twice the difference if it was redoubled. Settling moves points between two players, so the
deal's total does not change.
"""
from __future__ import annotations

from typing import Optional

from ..expr.types import BOOL
from ..ruleset.schema import Bool, Expr, Field, Obj
from ..values import frozen
from . import scopes
from .actions import DONE, DOUBLE_BASE, REDOUBLE_BASE, action_str, double, redouble
from .envs import double_env

DOUBLING = Obj(
    {
        "may_double": Field(Expr("bool"), "whether `doubler` may double `target` (seats; also dealer, players); "
                            "default: any seat but the dealer may double any other seat", default=None),
        "redouble": Field(Bool(), "a doubled seat may redouble each seat that doubled it", default=True),
    },
    title="doubling",
    doc="Side bets on the difference between two players' scores in the deal (Barbu).",
)


def bet_of(seat: int, action: int) -> Optional[tuple]:
    """((doubler, target), factor) of a double or redouble taken by ``seat``; None for done."""
    if DOUBLE_BASE <= action < REDOUBLE_BASE:
        return (seat, action - DOUBLE_BASE), 1
    if REDOUBLE_BASE <= action < DONE:
        return (action - REDOUBLE_BASE, seat), 2
    return None


@frozen(eq=False)
class Doubling:
    """A contract's compiled doubling rule."""

    may_double: object  # compiled bool expression, or None for "anyone but the dealer"
    redouble: bool = True

    def allows(self, doubler: int, target: int, dealer: int, players: int) -> bool:
        if doubler == target:
            return False
        if self.may_double is None:
            return doubler != dealer
        return bool(self.may_double(double_env(doubler, target, dealer, players)))


def build_doubling(spec, ctx, where: tuple) -> tuple[Optional[Doubling], bool]:
    """(the rule or None, whether it compiled)."""
    if spec is None:
        return None, True
    may = None
    if spec.may_double is not None:
        may = ctx.expr(spec.may_double, scopes.DOUBLE_EXPR, BOOL, where + ("may_double",))
        if may is None:
            return None, False
    return Doubling(may, spec.redouble), True


class BettingRound:
    """The bets of one deal: who doubled whom, and which bets were redoubled."""

    def __init__(self, rule: Doubling, players: int, dealer: int, direction: int) -> None:
        self.rule = rule
        self.players = players
        self.dealer = dealer
        self.order = [(dealer + direction * (i + 1)) % players for i in range(players)]
        self.bets: dict = {}  # (doubler, target) -> 1, or 2 once redoubled
        self.stage = "double"
        self.turn = 0  # index into order
        self.finished = False
        self._skip()

    @classmethod
    def settled(cls, bets: tuple, players: int) -> "BettingRound":
        """A finished round holding these bets (for states rebuilt from a view)."""
        r = object.__new__(cls)
        r.rule, r.players, r.dealer, r.order = None, players, -1, []
        r.bets = {(a, b): f for a, b, f in bets}
        r.stage, r.turn, r.finished = "done", 0, True
        return r

    def copy(self) -> "BettingRound":
        other = object.__new__(BettingRound)
        other.__dict__.update(self.__dict__)
        other.bets = dict(self.bets)
        return other

    @property
    def seat(self) -> int:
        return -1 if self.finished else self.order[self.turn]

    def legal(self) -> list[int]:
        if self.finished:
            return []
        me = self.seat
        if self.stage == "double":
            out = [double(t) for t in range(self.players)
                   if (me, t) not in self.bets and self.rule.allows(me, t, self.dealer, self.players)]
        else:
            out = [redouble(a) for (a, b), f in sorted(self.bets.items()) if b == me and f == 1]
        return out + [DONE]

    def why_illegal(self, action: int) -> Optional[str]:
        legal = self.legal()
        if action in legal:
            return None
        return "a bet is expected: " + ", ".join(action_str(a) for a in legal)

    def apply(self, action: int) -> None:
        bet = bet_of(self.seat, action)
        if bet is None:
            self.turn += 1
        else:
            self.bets[bet[0]] = bet[1]
        self._skip()  # a seat with nothing left to choose has finished its turn

    def _skip(self) -> None:
        """Move on to the next seat that has a choice to make."""
        while True:
            if self.turn >= len(self.order):
                if self.stage == "double" and self.rule.redouble and self.bets:
                    self.stage, self.turn = "redouble", 0
                else:
                    self.finished, self.stage = True, "done"
                    return
            if len(self.legal()) > 1:
                return
            self.turn += 1

    def public(self) -> tuple:
        """Every bet as (doubler, target, factor), for views and records."""
        return tuple((a, b, f) for (a, b), f in sorted(self.bets.items()))

    def settle(self, scores: list) -> list:
        """The scores after every bet is paid."""
        out = list(scores)
        for (a, b), factor in self.bets.items():
            diff = (scores[a] - scores[b]) * factor
            out[a] += diff
            out[b] -= diff
        return out
