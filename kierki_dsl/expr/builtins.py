"""Built-in functions of the expression language.

Each function is registered once with its signature; the same ``Builtin`` drives type
checking (arity, parameter and result types, which context it needs) and calling. A
parameter of type ``card predicate`` receives a bool expression over ``card``, checked in
the card scope and handed to the implementation as a 52-bit mask.

Adding a function is one decorated Python function; it receives the values of the env keys
it ``needs``, in that order, then its arguments::

    @builtin("trumps_taken", (), INT, needs=("taken", "trump"),
             example="trumps_taken() * 5")
    def _trumps_taken(taken, trump): ...
"""

from __future__ import annotations

from typing import Callable

from ..cards import FULL_DECK, SUIT_MASK, popcount
from ..values import frozen
from .types import CARD, INT, PRED, SEAT, Type


@frozen
class Builtin:
    name: str
    params: tuple
    result: Type
    impl: Callable
    doc: str
    needs: tuple = ()
    example: str = ""
    counts: str = ""  # the env mask whose cards matching the predicate it counts (and reads no other way)
    counts_each: str = ""  # the env list of masks it reads each only as such a count (``most_taken``)
    locates: str = ""  # the env list of hands it reads only as which holds its card (``holder``)


FUNCTIONS: dict[str, Builtin] = {}


def builtin(
    name: str,
    params: tuple,
    result: Type,
    needs: tuple = (),
    example: str = "",
    counts: str = "",
    counts_each: str = "",
    locates: str = "",
):
    """Register ``fn(*needed, *args)`` as the expression function ``name`` (``needed``: the
    values of the env keys ``needs``); ``counts`` names the env mask it reads only as
    ``popcount(mask & predicate)`` (what an expression sees of it; the generated code writes
    that count out instead of calling it); ``counts_each`` the env list of masks it reads
    each only so; ``locates`` the env list of hands it reads only as which holds its card."""

    def deco(fn: Callable) -> Callable:
        doc = (fn.__doc__ or "").strip()
        FUNCTIONS[name] = Builtin(name, params, result, fn, doc, needs, example, counts, counts_each, locates)
        return fn

    return deco


def note_seen(seen: dict, fn: Builtin, const) -> None:
    """Add to ``seen`` what a call of ``fn`` reads of the masks it counts or the hands it
    locates a card in, ``const`` its argument's value when constant (a predicate's mask, a
    card), else None: under the mask's name the union of the cards read (a constant card or
    predicate; a non-constant one: all), and for a counted predicate also ``("count", mask)``
    (``("count", None)`` when not constant), so that the value is known to depend on the
    counts of each predicate only (``plan.Plan.seat_key`` keys seat scoring on them)."""
    name = fn.counts or fn.counts_each or fn.locates
    if not name:
        return
    cards = FULL_DECK if const is None else (1 << const if fn.locates else const)
    seen[name] = seen.get(name, 0) | cards
    if not fn.locates:
        seen[("count", const)] = cards


@builtin("count", (PRED,), INT, example="count(card.rank == Q) * 60")
def _count(mask):
    """Number of cards in the deck that match the predicate (masks never hold cards outside it)."""
    return popcount(mask)


@builtin("taken", (PRED,), INT, needs=("taken",), example="taken(card.suit == hearts) == 13", counts="taken")
def _taken(taken, mask):
    """Number of cards this seat took in the deal that match the predicate."""
    return popcount(mask & taken)


@builtin(
    "most_taken",
    (PRED,),
    INT,
    needs=("taken_all",),
    example="most_taken(card.suit == hearts) == 13",
    counts_each="taken_all",
)
def _most_taken(taken_all, mask):
    """The most cards matching the predicate that any one seat took in the deal."""
    most = 0
    for t in taken_all:
        n = popcount(mask & t)
        if n > most:
            most = n
    return most


@builtin(
    "in_trick", (PRED,), INT, needs=("trick.cards",), example="in_trick(card.suit == hearts)", counts="trick.cards"
)
def _in_trick(cards, mask):
    """Number of cards in the current trick that match the predicate."""
    return popcount(mask & cards)


@builtin("played", (PRED,), INT, needs=("played",), example="played(card == QS) > 0", counts="played")
def _played(played, mask):
    """Number of cards matching the predicate played in the finished tricks of this deal."""
    return popcount(mask & played)


@builtin("held", (PRED,), INT, needs=("hand",), example="held(card.suit == trump) > 0", counts="hand")
def _held(hand, mask):
    """Number of cards in the hand of the seat concerned that match the predicate."""
    return popcount(mask & hand)


@builtin("left", (SEAT,), SEAT, needs=("players",), example="left(dealer)")
def _left(players, seat):
    """The seat to the left of a seat (the next one in playing order)."""
    return (seat + 1) % players


@builtin("right", (SEAT,), SEAT, needs=("players",), example="right(dealer)")
def _right(players, seat):
    """The seat to the right of a seat (the previous one in playing order)."""
    return (seat - 1) % players


@builtin("holder", (CARD,), SEAT, needs=("holders",), example="holder(2C)", locates="holders")
def _holder(holders, c):
    """The seat holding the card when the expression is evaluated (-1 if the card is out of play)."""
    seat = 0
    for hand in holders:  # the hands, as masks
        if hand >> c & 1:
            return seat
        seat += 1
    return -1  # nobody holds it (a card out of play)


@builtin("suit_count", (SEAT,), INT, needs=("hands",), example="suit_count(dealer)")
def _suit_count(hands, seat):
    """Number of suits present in a seat's current hand."""
    h = hands[seat]
    return sum(1 for m in SUIT_MASK if h & m)


@builtin("min", (INT, INT), INT, example="min(tricks_taken, 5) * -20")
def _min(a, b):
    """The smaller of two numbers."""
    return a if a <= b else b


@builtin("max", (INT, INT), INT, example="max(0, tricks_taken - 3) * 10")
def _max(a, b):
    """The larger of two numbers."""
    return a if a >= b else b


@builtin("abs", (INT,), INT, example="abs(-5)")
def _abs(a):
    """The absolute value of a number."""
    return -a if a < 0 else a


@builtin("round", (INT, INT), INT, example="round(taken(card.rank == A) * 11, 10)")
def _round(value, step):
    """``value`` rounded to the nearest multiple of ``step``, a half away from zero (Tysiąc's card
    points to the nearest 10: 85 -> 90, 84 -> 80, -85 -> -90); a step of 0 leaves it as it is."""
    step = abs(step)
    if step == 0:
        return value
    q, r = divmod(abs(value), step)
    out = (q + (1 if 2 * r >= step else 0)) * step
    return out if value >= 0 else -out
