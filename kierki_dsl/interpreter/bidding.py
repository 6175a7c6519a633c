"""An auction: players bid for the right to play the deal (PL-BOOK's trump auction, V8).

A trick contract with ``auction`` opens each deal (after any passing, before the trump call)
with a round of bids. Starting with ``first`` (a seat expression, default the dealer's left)
and going round in playing order, each seat still in the auction either bids — a number from
``min`` to ``max`` on the grid of ``step``, higher than the bid standing — or passes, and a
seat that passes is out. The auction ends when every other seat has passed after a bid, or
when the highest possible bid is made; if everybody passes, the ``if_all_pass`` seat (default:
the dealer) plays at the minimum. The winner is ``bidder`` and his bid ``bid``: seat
expressions (who calls trumps, who leads) and scoring expressions read them, so a ruleset
says in its own data what the winner gets and what the bid costs or earns.

Actions: ``pass`` (``PASS``) and ``bid(value)``; records hold them as ``"pass"`` and
``"bid:VALUE"`` under the deal's ``auction`` key.
"""
from __future__ import annotations

from typing import Optional

from ..expr.types import SEAT
from ..ruleset.schema import Expr, Field, Int, Obj
from ..values import frozen
from . import scopes
from .actions import PASS, bid, bid_value, is_bid
from .envs import NOBODY

AUCTION = Obj(
    {
        "first": Field(Expr("seat"), "the first bidder; bidding goes round in playing order (default: "
                       "left(dealer))", default=None),
        "min": Field(Int(1, 100000), "the lowest bid", required=True),
        "max": Field(Int(1, 100000), "the highest bid", required=True),
        "step": Field(Int(1, 100000), "bids go up by multiples of this", default=1),
        "if_all_pass": Field(Expr("seat"), "who plays at the minimum bid when everybody passes (default: dealer)",
                             default=None),
    },
    title="auction",
    doc="An auction for the right to play the deal: bid (higher than the bid standing) or pass and be out. "
        "Expressions read the winner as `bidder` and his bid as `bid`.",
)

#: Most bid levels an auction may offer (``(max - min) / step + 1``), so a turn's choices stay few.
MAX_LEVELS = 200


@frozen(eq=False)
class Auction:
    """A contract's compiled auction rule."""

    first: object  # compiled seat expression
    low: int
    high: int
    step: int
    all_pass: object  # compiled seat expression

    def levels(self) -> range:
        """Every bid the rule allows, lowest first."""
        return range(self.low, self.high + 1, self.step)


def build_auction(spec, ctx, where: tuple) -> tuple[Optional[Auction], bool]:
    """(the rule or None, whether it compiled); range mistakes are lint's M620 at their key."""
    if spec is None:
        return None, True
    from ..ruleset.schema import ExprSource

    first = ctx.expr(spec.first or ExprSource("left(dealer)"), scopes.SEAT_EXPR, SEAT, where + ("first",))
    all_pass = ctx.expr(spec.if_all_pass or ExprSource("dealer"), scopes.SEAT_EXPR, SEAT,
                        where + ("if_all_pass",))
    low, high, step = spec.min, spec.max, spec.step
    ok = first is not None and all_pass is not None
    if high < low:
        ctx.error(where + ("max",), "M620", f"the highest bid {high} is below the lowest {low}")
        ok = False
    elif (high - low) // step + 1 > MAX_LEVELS:
        ctx.error(where + ("step",), "M620", f"{(high - low) // step + 1} bid levels; at most {MAX_LEVELS} are allowed",
                  "raise the step or narrow min..max")
        ok = False
    elif (high - low) % step:
        ctx.warning(where + ("max",), "M620", f"the highest bid {high} is not on the grid of {step} from {low}: "
                    f"the highest bid anyone can make is {low + (high - low) // step * step}")
    return (Auction(first, low, high, step, all_pass) if ok else None), ok


class AuctionRound:
    """The bids of one deal: who is still in, the bid standing and who made it."""

    def __init__(self, rule: Auction, players: int, first: int, direction: int, fallback: int) -> None:
        self.rule = rule
        self.players = players
        self.direction = direction
        self.fallback = fallback % players  # the seat that plays at the minimum if all pass
        self.seat = first % players
        self.out = [False] * players
        self.bid = 0
        self.bidder = NOBODY
        self.history: list = []  # (seat, value), 0 for a pass
        self.finished = False

    @classmethod
    def settled(cls, history: tuple, bid_: int, bidder: int, players: int) -> "AuctionRound":
        """A finished round with this outcome (for states rebuilt from a view)."""
        r = object.__new__(cls)
        r.rule, r.players, r.direction, r.fallback = None, players, 1, bidder
        r.seat, r.out = NOBODY, [True] * players
        r.bid, r.bidder, r.history, r.finished = bid_, bidder, [tuple(h) for h in history], True
        return r

    @classmethod
    def at(cls, rule: Auction, view) -> "AuctionRound":
        """The round as a seat's view shows it, on that seat's turn (for reasons)."""
        r = cls.settled(view.auction, view.bid, view.bidder, view.players)
        r.rule, r.seat, r.finished = rule, view.seat, False
        return r

    def copy(self) -> "AuctionRound":
        other = object.__new__(AuctionRound)
        other.__dict__.update(self.__dict__)
        other.out = list(self.out)
        other.history = list(self.history)
        return other

    def legal(self) -> list[int]:
        if self.finished:
            return []
        return [PASS] + [bid(v) for v in self.rule.levels() if v > self.bid]

    def why_illegal(self, action: int) -> Optional[str]:
        if action in self.legal():
            return None
        if is_bid(action):
            r = self.rule
            if bid_value(action) not in r.levels():
                return f"bids go from {r.low} to {r.high} in steps of {r.step}"
            return f"a bid must be higher than {self.bid}, the bid standing"
        return "a bid or 'pass' is expected"

    def apply(self, action: int) -> None:
        seat = self.seat
        if action == PASS:
            self.out[seat] = True
            self.history.append((seat, 0))
        else:
            self.bid, self.bidder = bid_value(action), seat
            self.history.append((seat, self.bid))
        still = [s for s in range(self.players) if not self.out[s]]
        if not still:  # everybody passed: the fallback seat plays at the minimum
            self.bid, self.bidder, self.finished = self.rule.low, self.fallback, True
        elif self.bidder >= 0 and (still == [self.bidder] or self.bid + self.rule.step > self.rule.high):
            self.finished = True
        else:
            s = seat
            while True:
                s = (s + self.direction) % self.players
                if not self.out[s]:
                    break
            self.seat = s
        if self.finished:
            self.seat = NOBODY

    def public(self) -> tuple:
        """Every bid and pass as (seat, value, 0 for a pass), for views."""
        return tuple(self.history)

    def record(self) -> list:
        """The actions as records write them: "bid:120", "pass"."""
        return ["pass" if v == 0 else f"bid:{v}" for _, v in self.history]


def check_auction(contract, where: tuple, bctx) -> None:
    """M621: an auction whose outcome no rule of the contract reads decides nothing."""
    pieces = [contract.first_lead] + ([contract.call.called_by] if contract.call is not None else [])
    for s in contract.scorers:
        pieces += [s.points] + ([s.when] if s.when is not None else [])
    if not any({"bid", "bidder"} & set(getattr(p, "free", ())) for p in pieces):
        bctx.warning(where + ("auction",), "M621", "nothing reads the auction's outcome: no rule of this contract "
                     "uses `bidder` or `bid`", "say what the winner gets, e.g. trump: {called_by: bidder}, or "
                     "score the bid in a per_seat component")
