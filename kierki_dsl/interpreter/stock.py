"""A stock to draw from (PL-BOOK's *kierki dominowe*): a trick contract's ``stock``.

With ``stock: {hand: 6}`` each player is dealt only ``hand`` cards — the first ``hand`` cards
dealt to him in the usual one-at-a-time dealing — and the rest of the shuffled deck, in the
order it would have been dealt, is the stock, face down. Play is as in any trick deal except:

* a player who cannot follow the suit led draws from the top of the stock until he can (or
  the stock is empty); the drawing is a forced step done for him when his turn comes, so
  records need nothing beyond the deal (the stock's order is the deal's) and the cards played;
* a player whose hand is empty is out: he is skipped, a trick is complete when every player
  who held cards at its lead has played to it, and a winner who is out hands the lead on to
  the next player holding cards;
* the deal ends when fewer than two players hold cards (or by ``end_when``); with
  ``leftover: last_in`` (the default) the last player's cards and the stock count as taken
  by him, scored by the contract's card scoring as if won in one more trick; with ``none``
  they score for nobody.

A seat sees its own hand (with the cards it drew), how many cards every seat holds and has
drawn, and how many cards the stock holds — never the stock's cards.

One module: its part of the format, its rule and checks, its words for ``kierki explain``, its
part of the seat view, and its unit (``StockUnit``): drawing is forced, not a decision, so the
unit has no actions, only its panel (the stock's size, the draws, the cards this seat drew).
"""

from __future__ import annotations

import random
from typing import Optional

from ..cards import FULL_DECK, bits, popcount
from ..codes import Code, example, table
from ..i18n import L_, N_, tr, trn
from ..spec.schema import Enum, Field, Int, Obj
from ..values import frozen
from .phasekit.base import PhaseUnit, cards_text, row, seat
from .view import view_part

STOCK = Obj(
    {
        "hand": Field(Int(1, 26), N_("cards dealt to each player; the rest of the deck is the stock"), required=True),
        "leftover": Field(
            Enum(("last_in", "none")),
            "who takes the cards left when fewer than two players hold "
            "cards: the last player still in (default), or nobody",
            default="last_in",
        ),
    },
    title="stock",
    doc="A stock to draw from (kierki dominowe): players are dealt `hand` cards each; a player unable to follow "
    "suit draws from the stock until able; a player with no cards is out; the deal ends when fewer than two "
    "players hold cards.",
)
#: Its part of a contract's format, under ``KEY``.
FIELD = Field(
    STOCK, "deal part of the deck; players unable to follow suit draw from the rest (kierki dominowe)", default=None
)


@view_part("stock")
@frozen
class StockPart:
    """The stock's part of a seat view: its size and the draws, never the stock's cards."""

    stock: int  # how many cards the stock holds (never which)
    drawn: tuple  # per seat, how many cards it has drawn in this deal
    drew: tuple  # the cards this seat drew, in order


@frozen(eq=False)
class Stock:
    """A contract's compiled stock rule."""

    hand: int
    leftover: str  # "last_in" | "none"

    def split(self, dealt: list, dealer: int, players: int, direction: int) -> tuple[list, list]:
        """(each seat's first ``hand`` cards, the stock in dealing order) from a whole deal."""
        per_seat = len(dealt[0]) if dealt else 0
        hands = [list(d[: self.hand]) for d in dealt]
        stock = []
        for i in range(self.hand * players, per_seat * players):
            stock.append(dealt[(dealer + direction * (1 + i)) % players][i // players])
        return hands, stock

    @staticmethod
    def most_tricks(deck: int) -> int:
        """The most tricks a deal can have (each trick holds at least two cards)."""
        return popcount(deck) // 2


def build_stock(spec, ctx, where: tuple, follow_suit: bool) -> tuple[Optional[Stock], bool]:
    """(the rule or None, whether it compiled); M630 for a stock that cannot work."""
    if spec is None:
        return None, True
    hand = spec.hand
    cards = ctx.deck.bit_count()
    players = max(1, ctx.players)
    if hand * players > cards:
        ctx.error(
            where + ("hand",),
            "M630",
            L_(
                "{players} hands of {hand} cards need {need} cards; the deck has {cards}",
                players=players,
                hand=hand,
                need=hand * players,
                cards=cards,
            ),
        )
        return None, False
    if hand * players == cards:
        ctx.warning(
            where + ("hand",),
            "M630",
            L_(
                "{players} hands of {hand} cards take the whole deck: the stock is always empty",
                players=players,
                hand=hand,
            ),
            L_("deal fewer cards to each player"),
        )
    if not follow_suit:
        ctx.warning(
            where,
            "M630",
            L_("players draw from the stock when unable to follow suit, but this contract has follow_suit: false"),
            L_("drop follow_suit: false, or the stock"),
        )
    return Stock(hand, spec.leftover), True


def check_stock(contract, where: tuple, bctx, deck: int) -> None:
    """M630: with a stock the number of tricks is not fixed; rules that count on it are warned."""
    pieces = [(s.where, e) for s in contract.scorers if s.kind != "seat" for e in (s.points, s.when) if e is not None]
    pieces += [((where + ("end_when",)), contract.end_when)] if contract.end_when is not None else []
    for at, e in pieces:
        names = {"trick.is_last", "tricks"} & set(getattr(e, "free", ()))
        if names:
            bctx.warning(
                at or where,
                "M630",
                L_(
                    "with a stock the number of tricks is not known in advance: {names} read the most a deal can have, {most}",
                    names=" and ".join(sorted(names)),
                    most=Stock.most_tricks(deck),
                ),
                L_("score by card or by trick number from the start instead"),
            )


def stock_order(unseen: int, ply: int) -> list:
    """An order for stock cards a seat cannot see (a state rebuilt from a view): a shuffle
    fixed by the cards and the ply, so search stays reproducible."""
    cards = list(bits(unseen))
    random.Random(unseen * 1_000_003 + ply).shuffle(cards)
    return cards


def unseen_rest(view, hands: list) -> int:
    """The cards of a view's deal in no hand, trick or finished trick: the stock, assumed."""
    rest = view.deck & FULL_DECK & ~view.played
    for _, c in view.trick:
        rest &= ~(1 << c)
    for h in hands:
        rest &= ~h
    return rest


#: The trick contract's key that brings the phase into a deal, and where its words stand (``kierki explain``).
KEY = "stock"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("stock")
WORDS_AT = "setup"


def explain(stock, contract, rs) -> dict:
    """The deal and the stock in words."""
    return {
        "deal": f"{stock.hand} cards each, dealt one at a time starting with the dealer's left-hand "
        "neighbour; the rest of the deck, in the order it would be dealt, is the stock",
        ASPECT: words(stock),
    }


def words(spec) -> str:
    """The stock in words (``kierki explain``, ``kierki diff``)."""
    left = (
        "the last player still holding cards takes them and the stock"
        if spec.leftover == "last_in"
        else "the cards left score for nobody"
    )
    return (
        f"each player is dealt {spec.hand} cards and the rest is a face-down stock; a player who cannot "
        "follow suit draws from it until he can; a player with no cards is out; the deal ends when fewer "
        f"than two players hold cards, and {left}"
    )


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M630",
        "a stock that cannot work",
        "A `stock` deals `hand` cards to each player and keeps the rest to draw "
        "from. More cards than the deck holds is an error; hands that take the whole deck leave the stock always empty, "
        "a contract that does not follow suit never draws, and with a stock the number of tricks varies, so "
        "`trick.is_last` and `tricks` read only the most tricks a deal can have (warnings).",
        example("  bez_lew:\n    stock: {hand: 14}\n    score: [{per_trick: -20}]\n"),
        example("  bez_lew:\n    stock: {hand: 6}\n    score: [{per_trick: -20}]\n"),
        (6, 19),
    ),
)


# -- its unit: what a person and a bot see of it ----------------------------------------------


class StockUnit(PhaseUnit):
    """The stock's unit: no actions, its panel and its bot and adapter hooks."""

    name = "stock"
    part_type = StockPart
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    rebuilt_in_worlds = True  # the draws interleave the stock's order with every hand

    def matches(self, view) -> bool:
        return False

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None:
            return []
        held = ", ".join(
            f"{seat(view, s)} {k}" + (tr(" (drew {count})").format(count=d) if d else "")
            for s, (k, d) in enumerate(zip(view.hand_sizes, p.drawn))
        )
        size = trn("{count} card", "{count} cards", p.stock).format(count=p.stock)
        rows = [row(tr("Stock"), tr("{size} · cards held: {held}").format(size=size, held=held))]
        if p.drew:
            rows.append(row("", tr("You drew {cards} from the stock.").format(cards=cards_text(p.drew))))
        return rows

    # bot hooks: the stock's cards are in no hand; a seat that drew may hold a suit it showed out of
    def out_unseen(self, view) -> int:
        p = self.part(view)
        return p.stock if p is not None else 0

    def voids_undone(self, view) -> list:
        p = self.part(view)
        return [s for s, count in enumerate(p.drawn) if count] if p is not None else []


UNIT = StockUnit()


__all__ = ["STOCK", "UNIT", "Stock", "StockUnit", "build_stock", "check_stock", "stock_order", "unseen_rest", "words"]
