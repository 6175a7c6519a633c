"""A widow (Tysiąc's *musik*, V8's face-up cards): cards dealt aside that one player takes.

A trick contract with ``widow: {cards: 3, then: give}`` deals the last ``cards`` cards of the
usual one-at-a-time dealing to a widow instead of the hands. Once the auction is over (and any
passing), the ``taken_by`` seat (default: the auction's winner, ``bidder``) takes the widow —
its cards are then shown to everybody — and puts as many cards out of his hand again, one at a
time: with ``then: discard`` he lays ``cards`` cards aside (they score for nobody); with
``then: give`` he gives ``each`` cards to every other player, the first ``each`` to the player
after him, the next ``each`` to the one after that, and so on (Tysiąc: one card to each of the
two others). Then the trump call (if any) and play follow. With ``face_up: true`` the widow
lies face up from the start (V8's four cards), so bidders see it.

A seat sees the widow once it is shown, the cards it gave or was given, and how many cards
lie aside that it cannot see (``aside``); records hold the taker's cards under ``exchange``.
"""

from __future__ import annotations

from typing import Optional

from ..cards import bits
from ..codes import Code, example, table
from ..expr.types import SEAT
from ..i18n import N_
from ..spec.schema import Bool, Enum, Expr, ExprSource, Field, Int, Obj
from ..values import frozen
from . import scopes
from .view import view_part

WIDOW = Obj(
    {
        "cards": Field(
            Int(1, 20),
            "how many cards are dealt to the widow instead of the hands (the last ones dealt)",
            required=True,
        ),
        "taken_by": Field(
            Expr("seat"), "who takes the widow once the auction is over (default: bidder, its winner)", default=None
        ),
        "then": Field(
            Enum(("discard", "give")),
            "discard: the taker lays as many cards aside; give: he gives `each` cards to every other player",
            default="discard",
        ),
        "each": Field(Int(1, 10), "with then: give, how many cards each other player gets", default=1),
        "face_up": Field(
            Bool(), "the widow lies face up from the start; otherwise it is shown when taken", default=False
        ),
        "raise_bid": Field(
            Bool(),
            "after putting his cards out, the auction's winner names his contract: his bid or "
            "a higher one the auction's steps and `allow` permit with his new hand (Tysiąc's "
            '"ustalenie poziomu gry")',
            default=False,
        ),
    },
    title="widow",
    doc="Cards dealt aside (Tysiąc's musik): after the auction the winner takes them and then discards as many, or "
    "gives some to every other player.",
)
#: Its part of a contract's format, under ``KEY``.
FIELD = Field(
    WIDOW,
    "cards dealt aside that the auction's winner takes, then discards or gives as many (Tysiąc's musik)",
    default=None,
)


@view_part("exchange")
@frozen
class WidowPart:
    """The widow's part of a seat view: what this seat may know of the widow and the exchange."""

    widow: tuple  # the widow's cards once shown (or lying face up): public
    taker: int  # the seat that took the widow (-1: not yet, or none)
    exchanged: tuple  # (card, seat it went to or -1) of the taker's cards this seat may know
    aside: int  # cards out of play this seat cannot see (a face-down widow, another's discards)


@frozen(eq=False)
class Widow:
    """A contract's compiled widow rule."""

    cards: int
    taken_by: object  # compiled seat expression
    give: bool
    each: int
    face_up: bool
    raise_bid: bool = False  # the taker may raise his winning bid once his cards are out

    def split(self, dealt: list, dealer: int, players: int, direction: int) -> tuple[list, list]:
        """(each seat's hand, the widow) from a whole deal: the widow is the last ``cards``
        cards in dealing order."""
        per_seat = len(dealt[0]) if dealt else 0
        keep = per_seat - self.cards // players
        hands = [list(d[:keep]) for d in dealt]
        widow = [
            dealt[(dealer + direction * (1 + i)) % players][i // players]
            for i in range(keep * players, per_seat * players)
        ]
        return hands, widow

    def tricks(self, hand_size: int, players: int) -> int:
        """Cards each player holds when play starts (so tricks in the deal): a widow given away
        evens the hands out again; one laid aside leaves everybody ``cards / players`` short."""
        return hand_size if self.give else hand_size - self.cards // players

    def out_count(self, players: int) -> int:
        """How many cards the taker puts out of his hand after taking the widow."""
        return self.each * (players - 1) if self.give else self.cards

    def recipient(self, taker: int, i: int, players: int, direction: int) -> int:
        """Who gets the taker's ``i``-th card (0-based): a seat, or -1 (laid aside)."""
        if not self.give:
            return -1
        return (taker + direction * (1 + i // self.each)) % players


def build_widow(spec, ctx, where: tuple, has_auction: bool) -> tuple[Optional[Widow], bool]:
    """(the rule or None, whether it compiled); M633 for a widow that cannot work."""
    if spec is None:
        return None, True

    taker = ctx.expr(spec.taken_by or ExprSource("bidder"), scopes.SEAT_EXPR, SEAT, where + ("taken_by",))
    if taker is None:
        return None, False
    players = max(1, ctx.players)
    cards, ok = spec.cards, True
    if cards % players:
        ctx.error(
            where + ("cards",),
            "M633",
            f"a widow of {cards} cards leaves {players} hands unequal: it must be a multiple of {players}",
            "the widow takes the last cards dealt, the same number from each hand",
        )
        ok = False
    elif cards >= ctx.deck.bit_count():
        ctx.error(where + ("cards",), "M633", f"a widow of {cards} cards leaves no hands to deal")
        ok = False
    elif spec.then == "give" and spec.each * players != cards:
        ctx.error(
            where + ("each",),
            "M633",
            f"taking {cards} cards and giving {spec.each} to each of the {players - 1} others leaves the hands unequal",
            f"give {cards // players} to each",
        )
        ok = False
    if "bidder" in taker.free and not has_auction:
        ctx.error(
            where + ("taken_by",),
            "M633",
            "the widow goes to `bidder`, but this contract has no auction",
            "add an auction, or say who takes it (taken_by: dealer)",
        )
        ok = False
    if spec.raise_bid and (not has_auction or spec.taken_by is not None and spec.taken_by.text.strip() != "bidder"):
        ctx.error(
            where + ("raise_bid",),
            "M633",
            "raise_bid lets the auction's winner raise his bid after taking "
            "the widow: the contract needs an auction, and the widow must go to its winner",
            "add an auction and leave taken_by out (it is the bidder)",
        )
        ok = False
    if not ok:
        return None, False
    return Widow(cards, taker, spec.then == "give", spec.each, spec.face_up, spec.raise_bid), True


#: The trick contract's key that brings the phase into a deal, and where its words stand (``kierki explain``).
KEY = "widow"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("widow")
WORDS_AT = "setup"


def explain(spec, contract, rs) -> dict:
    """The deal and the widow in words."""
    cards = contract.widow.cards
    dealt = rs.hand_size - cards // rs.players
    return {
        "deal": f"{dealt} cards each and {cards} to the widow, dealt one at a time starting with the "
        "dealer's left-hand neighbour",
        ASPECT: words(spec),
    }


def words(spec) -> str:
    """The widow in words (``kierki explain``, ``kierki diff``)."""
    from ..words import seat

    who = seat(spec.taken_by.text) if spec.taken_by is not None else "its winner"
    lies = "face up" if spec.face_up else "face down"
    after = (
        f"gives {spec.each} card{'s' if spec.each != 1 else ''} to every other player"
        if spec.then == "give"
        else f"lays {spec.cards} cards aside, which score for nobody"
    )
    shown = "" if spec.face_up else ", shows them"
    raised = "; then he names his contract: his bid, or a higher one he could bid" if spec.raise_bid else ""
    return (
        f"the last {spec.cards} cards dealt lie {lies} as a widow; after the auction {who} takes them{shown} "
        f"and {after}{raised}"
    )


def mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M633",
        "a widow that cannot work",
        "A `widow` takes the last cards dealt, the same number from each hand, so "
        "its `cards` must be a multiple of the number of players and leave cards to deal; with `then: give` the taker "
        "gives `each` cards to every other player, which leaves equal hands only when `cards` is `each` times the "
        "players; a widow taken by `bidder` needs an auction, and a contract has a stock or a widow, not both. "
        "`raise_bid` (the winner names his contract after the exchange) needs an auction whose winner takes the widow.",
        example(
            "  bez_lew:\n    auction: {min: 1, max: 13}\n    widow: {cards: 3}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        example(
            "  bez_lew:\n    auction: {min: 1, max: 13}\n    widow: {cards: 4}\n    first_lead: bidder\n"
            "    score: [{per_trick: -20}]\n"
        ),
        (7, 20),
    ),
)


__all__ = ["WIDOW", "Widow", "build_widow", "words", "mask", "bits"]
