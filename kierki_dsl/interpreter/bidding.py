"""An auction: players bid for the right to play the deal (PL-BOOK's trump auction, V8;
Brazilian King's leilão).

A trick contract with ``auction`` opens each deal (after any passing, before the trump call)
with a round of bids. Starting with ``first`` (a seat expression, default the dealer's left)
and going round in playing order, each bidder either bids — a number from ``min`` to ``max``
on the grid of ``step``, higher than the bid standing — or passes. With ``passes: out`` (the
default) a seat that passes is out, and the auction ends when every other seat has passed
after a bid; with ``passes: again`` a seat that passed may bid again on its next turn, and the
bidding ends when every other bidder has passed in turn since the last bid. With ``hold:
true`` a seat that speaks earlier in the bidding order than the standing bidder may match his
bid (Brazilian King's "pela mão", Skat's "hold"). The bidding also ends once no other seat
can make a legal bid. ``allow`` (a bool expression over ``value``, the bid considered, ``seat``,
``dealer``, ``players`` and the bidder's hand through ``held(...)``) keeps only the bids it
allows — Tysiąc's "above 120 only with a marriage in hand" — and ``allow_reason`` says why a
refused one is refused.

Without a ``seller``, if everybody passes, the ``if_all_pass`` seat (default: the dealer)
plays at the minimum. With a ``seller`` (a seat that does not bid, Brazilian King's
beneficiary), the seller then decides: ``accept`` the best bid (its bidder wins the auction
at his bid), or ``refuse`` it and play himself (he is ``bidder``, ``bid`` is 0); with
``decline: {up_to, score}`` he may, while the best offer is at most ``up_to`` (0: nobody
bid), decline to play the deal, which then ends unplayed with ``score`` per seat.

The winner is ``bidder`` and his bid ``bid``: seat expressions (who calls trumps, who leads)
and scoring expressions read them, so a ruleset says in its own data what the winner gets and
what the bid costs or earns.

Actions: ``pass`` (``PASS``), ``bid(value)``, and the seller's ``accept`` / ``refuse`` /
``decline``; records hold them as ``"pass"``, ``"bid:VALUE"``, ``"accept"`` ... under the
deal's ``auction`` key, and views as ``(seat, value)`` with 0 for a pass and -1, -2, -3 for
accept, refuse, decline.

The whole phase is this module: its part of the format, its rule and checks, its action numbers,
its round of bids and its part of the seat view; its engine (``AuctionEngine``: how a trick deal
steps it) and its unit (``UNIT``: labels, typed words, panel, record, bot hooks) at the end.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..cards import bits
from ..codes import Code, example, table
from ..diagnostics import quoted
from ..expr import RuleRuntimeError
from ..expr.types import BOOL, INT, SEAT
from ..exprwords import words as expr_words
from ..i18n import L_, N_, R_, tr
from ..spec.schema import Bool, Enum, Expr, ExprSource, Field, Int, Obj, Str
from ..values import frozen
from ..words import seat as seat_words
from . import scopes
from .envs import NOBODY, bid_env, seat_end_env
from .numbering import Block
from .phaseengine import RoundEngine
from .phasekit.base import NotUnderstood, PhaseUnit, contract_of, row, seat
from .phasekit.botplay import bot_contract, hand_strength
from .phases import EXPECTED, Phase
from .view import part_of, shown_part, view_part

# its action numbers: a pass, a seller's word and the bids (``actions`` assembles every phase's)
PASSES = Block("auction", 52, 1, "pass (a layout's player passes with it too)")
SELLING = Block("auction", 75, 3, "a seller's word: accept, refuse, decline")
MAX_BID = 100_000  # the highest bid an auction may allow (its schema's bound)
BIDS = Block("auction", 1000, MAX_BID + 1, "a bid of base + value (Tysiąc's raise after the musik too)")
NUMBERS = (PASSES, SELLING, BIDS)
PASS = PASSES.base
ACCEPT, REFUSE, DECLINE = range(SELLING.base, SELLING.end)  # a seller accepts the best bid, plays, or declines
SELLER_WORDS = {ACCEPT: "accept", REFUSE: "refuse", DECLINE: "decline"}
BID_BASE = BIDS.base
#: The trick contract's key that brings the phase into a deal, and where its words stand (``kierki explain``).
KEY = "auction"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("auction")
WORDS_AT = "setup"


def bid(value: int) -> int:
    """The action bidding ``value`` in an auction."""
    return BID_BASE + value


def bid_value(action: int) -> int:
    """The value an auction's bid bids."""
    return action - BID_BASE


def is_bid(action: int) -> bool:
    """An auction bid (not a pass)."""
    return action >= BID_BASE


def notation(action: int) -> str:
    """An action of the auction in the record notation: ``pass``, ``accept`` ..., ``bid:120``."""
    if action == PASS:
        return "pass"
    return SELLER_WORDS[action] if action in SELLER_WORDS else f"bid:{bid_value(action)}"


def read_notation(text: str) -> Optional[int]:
    """The action ``notation`` wrote, or None."""
    low = text.strip().lower()
    if low == "pass":
        return PASS
    for action, word in SELLER_WORDS.items():
        if low == word:
            return action
    if low.startswith("bid:") and low[4:].isdecimal() and len(low) <= 10:
        return bid(int(low[4:]))
    return None


DECLINE_SPEC = Obj(
    {
        "up_to": Field(
            Int(0, 100000),
            N_("the seller may decline while the best bid is at most this (0: nobody bid)"),
            required=True,
        ),
        "score": Field(
            Expr("int"),
            N_("each seat's points when the deal is declined (a seat scoring expression: `seat`, `dealer`, `players`)"),
            required=True,
        ),
    },
    title="decline",
    doc="The seller may decline to play the deal while the best bid is low; it then ends unplayed with fixed scores.",
)

AUCTION = Obj(
    {
        "first": Field(
            Expr("seat"), "the first bidder; bidding goes round in playing order (default: left(dealer))", default=None
        ),
        "min": Field(Int(1, MAX_BID), N_("the lowest bid"), required=True),
        "max": Field(Int(1, MAX_BID), N_("the highest bid"), required=True),
        "step": Field(Int(1, 100000), "bids go up by multiples of this", default=1),
        "if_all_pass": Field(
            Expr("seat"),
            "who plays at the minimum bid when everybody passes (default: dealer; not with a seller)",
            default=None,
        ),
        "passes": Field(
            Enum(("out", "again")),
            "out: a seat that passes is out of the auction; again: it may bid again on its next turn",
            default="out",
        ),
        "hold": Field(Bool(), "a seat that speaks earlier than the standing bidder may match his bid", default=False),
        "seller": Field(
            Expr("seat"),
            "a seat that does not bid but accepts or refuses the best bid when the "
            "bidding ends (refusing, he plays himself and `bid` is 0)",
            default=None,
        ),
        "decline": Field(
            DECLINE_SPEC, "the seller may decline to play the deal when the best bid is low", default=None
        ),
        "allow": Field(
            Expr("bool"),
            "which bids a seat may make, given its hand: a bool expression over `value` "
            "(the bid), `seat`, `dealer`, `players` and held(...), e.g. value <= 120 or <a marriage "
            "held>",
            default=None,
        ),
        "allow_reason": Field(Str(), "why a bid `allow` refuses is refused, in words", default=None),
    },
    title="auction",
    doc="An auction for the right to play the deal: bid (higher than the bid standing) or pass. "
    "Expressions read the winner as `bidder` and his bid as `bid`.",
)
#: Its part of a contract's format, under ``KEY``.
FIELD = Field(AUCTION, "players bid for the right to play the deal; expressions read `bidder` and `bid`", default=None)

#: Most bid levels an auction may offer (``(max - min) / step + 1``), so a turn's choices stay few.
MAX_LEVELS = 200
#: How a seller's decision appears in views' ``auction`` history (a bid is its value, a pass 0).
SELLER_VALUES = {ACCEPT: -1, REFUSE: -2, DECLINE: -3}
_VALUE_ACTIONS = {v: a for a, v in SELLER_VALUES.items()}


def history_action(value: int) -> int:
    """The action a ``(seat, value)`` entry of a view's auction history stands for."""
    if value == 0:
        return PASS
    return _VALUE_ACTIONS[value] if value < 0 else bid(value)


def history_word(value: int) -> str:
    """A history entry's value in words: the bid, ``pass``, ``accept`` ..."""
    return str(value) if value > 0 else notation(history_action(value))


@frozen(eq=False)
class Decline:
    """The seller's option not to play the deal: allowed while the best bid is at most ``up_to``."""

    up_to: int
    score: Callable[[dict], Any]  # compiled seat-scoring expression

    def scores(self, dealer: int, players: int, tricks: int, deck: int, seller: int) -> list[int]:
        """Every seat's points for a declined deal."""
        taken = [0] * players
        return [
            self.score(seat_end_env(s, dealer, players, NOBODY, NOBODY, 0, tricks, 0, taken, deck, seller, 0))
            for s in range(players)
        ]


@frozen(eq=False)
class Auction:
    """A contract's compiled auction rule."""

    first: Callable[[dict], Any]  # compiled seat expression
    low: int
    high: int
    step: int
    all_pass: Callable[[dict], Any]  # compiled seat expression
    again: bool = False  # a seat that passed may bid again
    hold: bool = False  # an earlier seat may match the standing bid
    seller: Optional[Callable[[dict], Any]] = None  # compiled seat expression, or None
    decline: Optional[Decline] = None
    allow: Optional[Callable[[dict], Any]] = None  # compiled bool expression over the bid and the hand, or None
    allow_reason: str = ""

    def allows(self, value: int, seat: int, dealer: int, players: int, hand: int, deck: int) -> bool:
        """Whether ``seat``, holding ``hand``, may bid ``value`` (``allow``)."""
        return self.allow is None or bool(self.allow(bid_env(value, seat, dealer, players, hand, deck)))

    def levels(self) -> range:
        """Every bid the rule allows, lowest first."""
        return range(self.low, self.high + 1, self.step)

    @property
    def top(self) -> int:
        """The highest bid anyone can make."""
        return self.low + (self.high - self.low) // self.step * self.step


def build_auction(spec, ctx, where: tuple) -> tuple[Optional[Auction], bool]:
    """(the rule or None, whether it compiled); range mistakes are lint's M620 at their key,
    seller mistakes M622."""
    if spec is None:
        return None, True

    first = ctx.expr(spec.first or ExprSource("left(dealer)"), scopes.SEAT_EXPR, SEAT, where + ("first",))
    all_pass = ctx.expr(spec.if_all_pass or ExprSource("dealer"), scopes.SEAT_EXPR, SEAT, where + ("if_all_pass",))
    seller = ctx.expr(spec.seller, scopes.SEAT_EXPR, SEAT, where + ("seller",)) if spec.seller is not None else None
    decline, ok = None, first is not None and all_pass is not None and (spec.seller is None or seller is not None)
    if spec.decline is not None:
        score = ctx.expr(spec.decline.score, scopes.SEAT_END, INT, where + ("decline", "score"))
        ok = ok and score is not None
        decline = Decline(spec.decline.up_to, score) if score is not None else None
        if spec.seller is None:
            ctx.error(
                where + ("decline",),
                "M622",
                L_("only a seller can decline the deal, and this auction has none"),
                L_("add seller: dealer (the seat that sells the right to play)"),
            )
            ok = False
    allow = ctx.expr(spec.allow, scopes.AUCTION_BID, BOOL, where + ("allow",)) if spec.allow is not None else None
    ok = ok and (spec.allow is None or allow is not None)
    if allow is not None and allow.is_const:
        ctx.warning(
            where + ("allow",),
            "M620",
            L_("`allow` is always true: it refuses no bid")
            if allow.const
            else L_("`allow` is always false: no bid can ever be made"),
            L_("make it read the bid (`value`) and the hand (held(...))"),
        )
    if spec.allow_reason is not None and spec.allow is None:
        ctx.warning(
            where + ("allow_reason",),
            "M620",
            L_("`allow_reason` without `allow` is never shown"),
            L_("add the rule it explains, or remove it"),
        )
    if spec.seller is not None and spec.if_all_pass is not None:
        ctx.warning(
            where + ("if_all_pass",),
            "M622",
            L_("with a seller, nobody plays at the minimum when everybody passes: the seller decides"),
            L_("remove if_all_pass"),
        )
    low, high, step = spec.min, spec.max, spec.step
    if high < low:
        ctx.error(where + ("max",), "M620", L_("the highest bid {high} is below the lowest {low}", high=high, low=low))
        ok = False
    elif (high - low) // step + 1 > MAX_LEVELS:
        ctx.error(
            where + ("step",),
            "M620",
            L_("{levels} bid levels; at most {limit} are allowed", levels=(high - low) // step + 1, limit=MAX_LEVELS),
            L_("raise the step or narrow min..max"),
        )
        ok = False
    elif (high - low) % step:
        ctx.warning(
            where + ("max",),
            "M620",
            L_(
                "the highest bid {high} is not on the grid of {step} from {low}: the highest bid anyone can make is {best}",
                high=high,
                step=step,
                low=low,
                best=low + (high - low) // step * step,
            ),
        )
    elif allow is not None and not allow.is_const and set(allow.free) <= {"value", "players"}:
        _check_some_bid_allowed(allow, low, high, step, ctx, where)
    if not ok:
        return None, False
    reason = spec.allow_reason or (f"this bid needs {expr_words(spec.allow.text)}" if spec.allow else "")
    return Auction(
        first, low, high, step, all_pass, spec.passes == "again", spec.hold, seller, decline, allow, reason
    ), True


def _check_some_bid_allowed(allow, low: int, high: int, step: int, ctx, where: tuple) -> None:
    """M620 when an `allow` that reads only the bid refuses every level: nobody could ever bid,
    and the seat that plays when everybody passes would play at a bid the rule forbids."""

    players, deck = max(1, ctx.players), ctx.deck
    try:
        none = not any(allow(bid_env(v, 0, 0, players, 0, deck)) for v in range(low, high + 1, step))
    except RuleRuntimeError:  # a bid it cannot judge (e.g. a division by zero) is for run time to report
        return
    if none:
        ctx.warning(
            where + ("allow",),
            "M620",
            L_("`allow` refuses every bid from {low} to {high}: no bid can ever be made", low=low, high=high),
            L_("let it allow some bid in min..max, or narrow min and max to the bids it allows"),
        )


@view_part("auction")
@frozen
class AuctionPart:
    """The auction's part of a seat view (all of it public)."""

    auction: tuple  # (seat, value) of every bid so far, value 0 for a pass
    bid: int  # the bid standing (the winning bid once the auction is over)
    bidder: int  # the seat that made it (-1: none yet)
    seller: int  # an auction's seller, who accepts or refuses the best bid (-1: none)


def bid_standing(view) -> tuple[int, int]:
    """``(bid, bidder)`` of the auction ``view`` shows (``(0, -1)``: no bid yet, or no auction): what
    a deal rebuilt from the view plays for."""
    shown = shown_part(view, AuctionPart)
    return shown.bid, shown.bidder


class AuctionRound:
    """The bids of one deal: who is still in, the bid standing and who made it, and (with a
    seller) his decision."""

    def __init__(
        self,
        rule: Auction,
        players: int,
        first: int,
        direction: int,
        fallback: int,
        seller: int = NOBODY,
        hands: Optional[list] = None,
        dealer: int = NOBODY,
        deck: int = 0,
    ) -> None:
        self.rule = rule
        self.hands = hands  # the deal's hands (masks), read by ``allow``; shared with the deal state
        self.dealer = dealer
        self.deck = deck
        self.players = players
        self.direction = direction
        self.fallback = fallback % players  # the seat that plays at the minimum if all pass (no seller)
        self.seller = seller % players if seller >= 0 else NOBODY
        self.order = tuple(s for s in ((first + direction * i) % players for i in range(players)) if s != self.seller)
        self.seat = self.order[0]
        self.out = [False] * players
        self.bid = 0
        self.bidder = NOBODY
        self.history: list = []  # (seat, value): a bid, 0 for a pass, SELLER_VALUES for the seller
        self.quiet = 0  # passes since the last bid (or the start)
        self.selling = False  # the bidding is over and the seller decides
        self.declined = False
        self.finished = False

    @classmethod
    def settled(cls, history: tuple, bid_: int, bidder: int, players: int, seller: int = NOBODY) -> "AuctionRound":
        """A finished round with this outcome (for states rebuilt from a view)."""
        r = object.__new__(cls)
        r.rule = None  # type: ignore[assignment]  # a settled round is finished: nothing reads its rule
        r.players, r.direction, r.fallback, r.seller = players, 1, bidder, seller
        r.hands, r.dealer, r.deck = None, NOBODY, 0
        r.order, r.seat, r.out, r.quiet, r.selling = (), NOBODY, [True] * players, 0, False
        r.bid, r.bidder, r.history, r.finished = bid_, bidder, [tuple(h) for h in history], True
        r.declined = any(v == SELLER_VALUES[DECLINE] for _, v in r.history)
        return r

    @classmethod
    def at(cls, rule: Auction, view, fallback: int = NOBODY) -> "AuctionRound":
        """The round as a seat's view shows it, on that seat's turn (for reasons, and for search,
        which continues it): the bids and passes so far replayed from the first bidder the view
        shows, so a ``first`` that reads hidden cards is taken from what happened, never
        re-evaluated. ``fallback``: the seat that plays if everybody passes (worked out by the
        caller, who may have to assume hidden cards for it); the seller is the view's."""
        shown = shown_part(view, AuctionPart)
        first = shown.auction[0][0] if shown.auction else view.seat
        own = [view.hand if s == view.seat else 0 for s in range(view.players)]
        r = cls(
            rule,
            view.players,
            first,
            view.direction,
            fallback if fallback >= 0 else view.seat,
            shown.seller,
            own,
            view.dealer,
            view.deck,
        )
        for _, value in shown.auction:
            r.apply(history_action(value))
        return r

    def copy(self) -> "AuctionRound":
        other = object.__new__(AuctionRound)
        other.__dict__.update(self.__dict__)
        other.out = list(self.out)
        other.history = list(self.history)
        return other

    # -- what may be done --------------------------------------------------------------------
    def legal(self) -> list[int]:
        if self.finished:
            return []
        if self.selling:
            return self._seller_choices()
        hold = self._may_hold(self.seat)
        return [PASS] + [
            bid(v) for v in self.rule.levels() if (v > self.bid or (hold and v == self.bid)) and self._allowed(v)
        ]

    def _allowed(self, value: int) -> bool:
        r = self.rule
        if r.allow is None:
            return True
        hand = self.hands[self.seat] if self.hands is not None else 0
        return r.allows(value, self.seat, self.dealer, self.players, hand, self.deck)

    def _seller_choices(self) -> list[int]:
        d = self.rule.decline
        return (
            ([ACCEPT] if self.bidder >= 0 else [])
            + [REFUSE]
            + ([DECLINE] if d is not None and self.bid <= d.up_to else [])
        )

    def _may_hold(self, seat: int) -> bool:
        """Whether ``seat`` may match the bid standing: it speaks before the standing bidder."""
        return (
            self.rule.hold
            and self.bidder >= 0
            and seat != self.bidder
            and self.order.index(seat) < self.order.index(self.bidder)
        )

    def why_illegal(self, action: int) -> Optional[str]:
        if action in self.legal():
            return None
        if self.finished:
            return R_("the auction is over")
        if self.selling:
            return self._why_not_sold(action)
        if action in SELLER_WORDS:
            return R_("only the seller decides ({word}), once the bidding is over").format(word=SELLER_WORDS[action])
        if is_bid(action):
            r = self.rule
            if bid_value(action) not in r.levels():
                return R_("bids go from {low} to {high} in steps of {step}").format(low=r.low, high=r.high, step=r.step)
            if not self._allowed(bid_value(action)):
                return r.allow_reason
            if r.hold and bid_value(action) == self.bid and self.bidder != self.seat:
                return R_(
                    "a bid must be higher than {bid}, the bid standing (only a player who speaks before "
                    "its bidder may match it)"
                ).format(bid=self.bid)
            return R_("a bid must be higher than {bid}, the bid standing").format(bid=self.bid)
        return R_("a bid or 'pass' is expected")

    def _why_not_sold(self, action: int) -> str:
        d = self.rule.decline
        if action == ACCEPT:
            return R_("nobody has bid: there is no offer to accept")
        if action == DECLINE:
            if d is None:
                return R_("this auction's seller may not decline the deal")
            return R_("the deal may be declined only while the best offer is at most {up_to}, and it is {bid}").format(
                up_to=d.up_to, bid=self.bid
            )
        return R_("the seller accepts or refuses the best offer ({choices})").format(
            choices=", ".join(SELLER_WORDS[a] for a in self.legal())
        )

    # -- doing it ----------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        seat = self.seat
        if self.selling:
            self._decide(action)
            return
        if action == PASS:
            self.out[seat] = not self.rule.again
            self.quiet += 1
            self.history.append((seat, 0))
        else:
            self.bid, self.bidder, self.quiet = bid_value(action), seat, 0
            self.history.append((seat, self.bid))
        if self._bidding_over():
            self._close()
        else:
            self.seat = self._next_bidder(seat)

    def _bidding_over(self) -> bool:
        active = [s for s in self.order if not self.out[s]]
        if not active:
            return True
        if self.bidder < 0:
            return self.rule.again and self.quiet >= len(self.order)
        others = [s for s in active if s != self.bidder]
        if not others or (self.rule.again and self.quiet >= len(self.order) - 1):
            return True
        return self.bid >= self.rule.top and not any(self._may_hold(s) for s in others)

    def _next_bidder(self, seat: int) -> int:
        i = self.order.index(seat)
        for k in range(1, len(self.order) + 1):
            s = self.order[(i + k) % len(self.order)]
            if not self.out[s]:
                return s
        return seat

    def _close(self) -> None:
        """The bidding is over: the seller decides, or the auction is won."""
        if self.seller >= 0:
            self.selling, self.seat = True, self.seller
            return
        if self.bidder < 0:  # everybody passed: the fallback seat plays at the minimum
            self.bid, self.bidder = self.rule.low, self.fallback
        self.finished, self.seat = True, NOBODY

    def _decide(self, action: int) -> None:
        """The seller accepts (the bidder wins at his bid), refuses or declines (he keeps the deal, ``bid`` 0)."""
        self.history.append((self.seller, SELLER_VALUES[action]))
        if action != ACCEPT:
            self.bid, self.bidder = 0, self.seller
        self.declined = action == DECLINE
        self.selling, self.finished, self.seat = False, True, NOBODY

    def public(self) -> tuple:
        """Every bid, pass and decision as (seat, value), for views."""
        return tuple(self.history)

    def part(self) -> AuctionPart:
        """The auction's part of every seat's view."""
        return AuctionPart(tuple(self.history), self.bid, self.bidder, self.seller)

    def record(self) -> list:
        """The actions as records write them: "bid:120", "pass", "accept"."""
        return [notation(history_action(v)) for _, v in self.history]


def explain(a, contract, rs) -> dict:
    """The auction in words: who starts, the range of bids, passing again, holding, the seller
    and what happens when everybody passes."""
    return {ASPECT: _words(a)}


def _words(a) -> str:
    first = seat_words(a.first.text) if a.first is not None else seat_words("left(dealer)")
    step = a.step
    grid = tr(" in steps of {step}").format(step=step) if step != 1 else ""
    hold = tr(", or matches it if he speaks before its bidder") if a.hold else ""
    if a.passes == "again":
        passing = tr(
            "or passes and may bid again on his next turn; the bidding ends when every other bidder has "
            "passed in turn since the last bid"
        )
    else:
        passing = tr("or passes and is out; the bidding ends when every other bidder has passed")
    text = tr(
        "before play, starting with {first} and going round, each player bids more than the bid standing"
        "{hold} (from {min} to {max}{grid}) {passing}"
    ).format(first=first, hold=hold, min=a.min, max=a.max, grid=grid, passing=passing)
    if a.allow is not None:
        why = f" ({tr(a.allow_reason)})" if a.allow_reason else ""
        text += tr("; a bid is allowed only where {condition}{why}").format(condition=expr_words(a.allow.text), why=why)
    if a.seller is None:
        fallback = seat_words(a.if_all_pass.text) if a.if_all_pass is not None else seat_words("dealer")
        return text + tr(
            "; the last bidder left wins the auction with his bid; if everybody passes, {seat} plays at {bid}"
        ).format(seat=fallback, bid=a.min)
    text += (
        f"; {seat_words(a.seller.text)} does not bid but sells: he accepts the best bid (its bidder wins the auction "
        "with it) or refuses it and plays himself (as the auction's winner, with a bid of 0)"
    )
    if a.decline is not None:
        low = "nobody bid" if a.decline.up_to == 0 else f"the best bid is at most {a.decline.up_to}"
        text += (
            f"; when {low} he may instead decline the deal, which is not played and scores "
            f"{expr_words(a.decline.score.text)} for each seat"
        )
    return text


def check_auction(contract, where: tuple, bctx) -> None:
    """M621: an auction whose outcome no rule of the contract reads decides nothing."""
    pieces = [contract.first_lead] + ([contract.call.called_by] if contract.call is not None else [])
    for s in contract.scorers:
        pieces += [s.points] + ([s.when] if s.when is not None else [])
    if not any({"bid", "bidder"} & set(getattr(p, "free", ())) for p in pieces):
        bctx.warning(
            where + ("auction",),
            "M621",
            L_("nothing reads the auction's outcome: no rule of this contract uses `bidder` or `bid`"),
            L_("say what the winner gets, e.g. trump: {called_by: bidder}, or score the bid in a per_seat component"),
        )


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M620",
        "auction range",
        "An auction's bids run from `min` to `max` in steps of `step`: `max` below `min` "
        "leaves no bid (an error), too many levels make every turn a long list (an error), and a `max` off the grid of "
        "`step` can never be bid (a warning). An `allow` rule that is always false leaves no bid, one always true "
        "refuses none, and an `allow_reason` without `allow` is never shown (warnings).",
        example(
            "  bez_lew:\n    auction: {min: 100, max: 50, step: 10}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        example(
            "  bez_lew:\n    auction: {min: 50, max: 100, step: 10}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        (6, 30),
    ),
    Code(
        "M621",
        "auction that decides nothing",
        "An auction is played for something: a rule of the contract must read "
        "its outcome (`bidder` calls trumps or leads, or the scoring reads `bid`). Otherwise the bids change nothing.",
        example("  bez_lew:\n    auction: {min: 50, max: 100, step: 10}\n    score: [{per_trick: -20}]\n"),
        example(
            "  bez_lew:\n    auction: {min: 50, max: 100, step: 10}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        (6, 14),
        severity="warning",
    ),
    Code(
        "M622",
        "auction seller that cannot work",
        "Only an auction's `seller` (a seat that does not bid but accepts "
        "or refuses the best bid) can `decline` the deal, so `decline` without a seller is an error; with a seller, "
        "`if_all_pass` is never used (the seller decides when nobody bids), a warning.",
        example(
            "  bez_lew:\n    auction: {min: 1, max: 13, decline: {up_to: 1, score: 0}}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        example(
            "  bez_lew:\n    auction: {min: 1, max: 13, seller: dealer, decline: {up_to: 1, score: 0}}\n"
            "    first_lead: bidder\n    score: [{per_trick: -20}]\n"
        ),
        (6, 41),
    ),
)


# -- its engine -----------------------------------------------------------------------------------


class AuctionEngine(RoundEngine):
    """The auction of ``contract.auction`` (``Auction``); its state is ``deal.auction``."""

    phase = Phase.AUCTION
    field = "auction"

    def start(self, deal) -> int:
        rule, n = self.rule, deal.players
        env = deal._seat_env()
        seller = rule.seller.seat(env, n) if rule.seller is not None else -1
        deal.auction = AuctionRound(
            rule,
            n,
            rule.first.seat(env, n),
            deal.direction,
            rule.all_pass.seat(env, n),
            seller,
            deal.hands,
            deal.dealer,
            deal.deck,
        )
        return deal.auction.seat

    def apply(self, deal, action: int) -> int:
        seat = super().apply(deal, action)
        if deal.auction.finished:  # its outcome: the winner and his bid
            deal.bid, deal.bidder = deal.auction.bid, deal.auction.bidder
        return seat

    def ends_unplayed(self, deal) -> bool:
        """The seller would not play: the deal ends unplayed, at fixed scores."""
        if deal.auction is None or not deal.auction.declined:
            return False
        deal.scores = self.rule.decline.scores(deal.dealer, deal.players, deal.tricks_total, deal.deck, deal.bidder)
        return True

    def copy(self, deal, other) -> None:
        if deal.auction is not None:
            other.auction = deal.auction.copy()
            other.auction.hands = other.hands

    def from_view(self, deal, view) -> None:
        p = part_of(view, AuctionPart)
        deal.auction = (
            AuctionRound.settled(p.auction, p.bid, p.bidder, view.players, p.seller)
            if p is not None and p.auction
            else None
        )

    def resume(self, deal, view) -> bool:
        """The deal goes on with the view's auction (any passing done): the seat on turn and the
        bids are the view's, never worked out again from the assumed hands; only the seat that
        plays if all pass is read from them, as the deal worked it out when the auction began."""
        deal.bid, deal.bidder = 0, -1  # not known before the auction ends
        deal.dealt = [list(bits(h)) for h in deal.hands]
        fallback = self.rule.all_pass.seat(deal._seat_env(), deal.players)
        deal.auction = AuctionRound.at(self.rule, view, fallback)
        deal.auction.hands = deal.hands
        deal.actions = [history_action(value) for _, value in shown_part(view, AuctionPart).auction]
        deal.to_move = view.seat
        return True

    def view_reason(self, view, action: int) -> Optional[str]:
        return AuctionRound.at(self.rule, view).why_illegal(action)


# -- its unit -------------------------------------------------------------------------------------


#: What a seller's words do.
SELLER_MEANING = {
    "accept": N_("sell at the best offer"),
    "refuse": N_("play the deal yourself, nothing paid"),
    "decline": N_("do not play the deal: it ends at its fixed scores"),
}
#: Most bids (besides a pass) the search player weighs in an auction: the lowest ones allowed.
BIDS_WEIGHED = 3
_SELLER_WORDS_SHOWN = (N_("accept"), N_("refuse"), N_("decline"))  # a seller's words, read through tr


def _selling(view) -> bool:
    """The seat on turn is the seller (it may not pass: it accepts, refuses or declines)."""
    return PASS not in view.legal


def _rule(view, rules):
    contract = contract_of(rules, view.contract)
    return contract.auction if contract is not None else None


def _one_bids(view, rules) -> bool:
    """1 is a bid of this auction (so "1" typed is a bid, not the first choice, pass)."""
    rule = _rule(view, rules)
    return rule is not None and 1 in rule.levels()


class AuctionUnit(PhaseUnit):
    """The auction as a person and a bot see it: bids, a pass, a seller's accept, refuse or decline;
    its labels, typed words, menu, panel, record and bot hooks."""

    name = "auction"
    part_type = AuctionPart
    expected = EXPECTED[Phase.AUCTION]
    task = N_("bid or pass")
    numbered = False  # a number typed is a bid
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    def owns(self, action: int) -> bool:
        return action == PASS or is_bid(action) or action in SELLER_WORDS

    def task_of(self, view) -> str:
        """A bidder bids or passes; the seller (Brazilian King's) accepts, refuses or declines."""
        if any(a in SELLER_WORDS for a in view.legal):
            return N_("accept, refuse or decline the best bid")
        return self.task

    # record hooks: the bids, passes and a seller's word, in order
    record_key = "auction"
    record_rank = 30
    record_example = '["bid:100", "pass"]'
    record_shown_text = "bid {entry}"
    record_short_text = "the record's auction ends before the auction is over"
    record_extra_text = "the auction is over but the record has more: {entry}"
    record_absent_text = "the record has an 'auction' but deal {deal} ({contract}) has no auction"

    def record_section(self, result) -> Optional[list]:
        return list(result.auction)

    def record_action(self, entry) -> int:
        try:
            action: Optional[int] = read_notation(str(entry))
        except ValueError:
            action = None
        if action is None or not self.owns(action):
            raise ValueError(
                f"auction: {quoted(entry)} is not a bid (bid:VALUE, pass, or a seller's accept, refuse or decline)"
            )
        return action

    def label(self, view, action: int, rules=None) -> str:
        if is_bid(action):
            return str(bid_value(action))
        if action == PASS:
            return tr("pass")
        return tr(SELLER_WORDS[action]) if action in SELLER_WORDS else super().label(view, action, rules)

    def choices(self, view, rules=None) -> list:
        return list(view.legal)

    def prompt(self, view, rules=None) -> str:
        return tr("decide") if _selling(view) else tr("bid")

    def read(self, view, text: str, rules=None) -> int:
        t = " ".join(text.strip().lower().split())
        for a, w in SELLER_WORDS.items():
            if t in (w, tr(w)):
                return a
        if _selling(view):
            legal = list(view.legal)
            if t.isdecimal() and len(t) <= 3 and 1 <= int(t) <= len(legal):
                return legal[int(t) - 1]
            raise NotUnderstood(
                tr("Type a number from the list, or accept, refuse or decline.")
                if ACCEPT in legal
                else tr("Type a number from the list, or refuse or decline.")
            )
        if t in ("pass", "p", tr("pass")) or (t == "1" and not _one_bids(view, rules)):
            return PASS
        if t.isdecimal() and len(t) <= 6:
            return bid(int(t))
        raise NotUnderstood(tr("Type a bid from the list, or 'pass'."))

    def advice(self, view, rules=None) -> list:
        p = self.part(view)
        if _selling(view):
            offer = (
                tr("the best offer is {bid} by {seat}").format(bid=p.bid, seat=seat(view, p.bidder))
                if p.bidder >= 0
                else tr("nobody bid")
            )
            return [tr("You sell the right to play this deal: {offer}.").format(offer=offer)]
        rule = _rule(view, rules)
        values = [bid_value(a) for a in view.legal if is_bid(a)]
        standing = (
            tr("the bid standing is {bid} by {seat}").format(bid=p.bid, seat=seat(view, p.bidder))
            if p.bidder >= 0
            else tr("no bid yet")
        )
        passing = (
            tr("a player who passes may bid again later")
            if rule is not None and rule.again
            else tr("a player who passes is out")
        )
        lines = [
            tr("You bid for the right to play this deal ({standing}); {passing}.").format(
                standing=standing, passing=passing
            )
        ]
        if p.bidder >= 0 and p.bid in values:
            lines.append(
                tr("You speak before {seat}, so you may match the bid standing.").format(seat=seat(view, p.bidder))
            )
        return lines

    def menu(self, view, rules=None) -> list:
        if _selling(view):
            return [
                "  ".join(
                    f"{i}) {tr(SELLER_WORDS[a])} ({tr(SELLER_MEANING[SELLER_WORDS[a]])})"
                    for i, a in enumerate(view.legal, 1)
                )
            ]
        values = [bid_value(a) for a in view.legal if is_bid(a)]
        word = tr("pass") if _one_bids(view, rules) else "1) " + tr("pass")  # "1" is the bid 1 where 1 can be bid
        shown = f"{values[0]}, {values[1]}, … {values[-1]}" if len(values) > 3 else ", ".join(map(str, values))
        if not values:
            return [tr("You can only pass: {word}").format(word=word)]
        return [tr("Bids: {bids}  or  {word}").format(bids=shown, word=word)]

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        if action in SELLER_WORDS:
            return tr("You cannot {word}: {reason}.").format(
                word=tr(SELLER_WORDS[action]), reason=reason or tr("not allowed now")
            )
        return tr("{typed} is not allowed: {reason}").format(typed=text, reason=reason or tr("not a bid allowed now"))

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None:
            return []
        rows = []
        if p.auction:
            rows.append(
                row(tr("Auction so far"), ", ".join(f"{seat(view, s)} {history_word(v)}" for s, v in p.auction))
            )
        if p.bidder >= 0:
            rows.append(row(tr("Highest bid"), tr("{bid} by {seat}").format(bid=p.bid, seat=seat(view, p.bidder))))
        if p.seller >= 0:
            rows.append(row(tr("Seller"), seat(view, p.seller)))
        return rows

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The lowest bid allowed while the hand is strong enough, else pass: strength is the
        high cards (Q, K, A) and the longest suit against an average hand, less one for every
        bid the others have made; never a bid more steps above the lowest than the strength.
        A seller decides by ``seller_choice``."""
        rule = bot_contract(rules, view.contract).auction
        p = self.part(view)
        legal = view.legal
        if PASS not in legal:
            return seller_choice(view.hand, legal, p.bid, rule)
        strength = hand_strength(view.hand)
        raised = sum(1 for s, v in p.auction if v > 0 and s != view.seat)
        bids = [a for a in legal if a != PASS]
        if not bids or strength - raised < 1 or (bid_value(bids[0]) - rule.low) // rule.step + 1 > strength:
            return PASS
        return bids[0]

    def search_candidates(self, view) -> Optional[list]:
        """A pass and the lowest few bids (a seller: each of its choices)."""
        legal = view.legal
        return [PASS] + [a for a in legal if a != PASS][:BIDS_WEIGHED] if PASS in legal else list(legal)

    def search_tie(self, action: int):
        """On a tie, pass."""
        return action == PASS

    def rollout_action(self, state) -> Optional[int]:
        """Everybody passes; a seller decides by ``seller_choice``."""
        legal = state.legal_actions()
        if PASS in legal:
            return PASS
        return seller_choice(state.hands[state.current_player()], legal, state.auction.bid, state.contract.auction)

    # adapter hooks: the bids run up to the auction's highest; every level bid twice at most
    def action_end(self, contract) -> int:
        rule = contract.auction
        return 0 if rule is None else bid(rule.high) + 1

    def most_decisions(self, contract, players: int, cards: int) -> int:
        """Every level bid twice (raised to, then held) with every other seat passing in between,
        a last round of passes, and the seller's word."""
        rule = contract.auction
        return 0 if rule is None else 2 * len(rule.levels()) * players + players + 1


def seller_choice(hand: int, legal, offer: int, rule) -> int:
    """An auction seller's decision: decline (when allowed) with a hand no better than
    average, accept an offer of at least as many steps (above the lowest bid) as the hand's
    edge, else refuse and play."""
    strength = hand_strength(hand)
    if DECLINE in legal and strength <= 0:
        return DECLINE
    steps = (offer - rule.low) // rule.step + 1 if offer else 0
    if ACCEPT in legal and steps >= strength:
        return ACCEPT
    return REFUSE if REFUSE in legal else legal[0]


UNIT = AuctionUnit()
