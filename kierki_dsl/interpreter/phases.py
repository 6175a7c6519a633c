"""The phases of a deal, shared by every deal type (a ``str`` enum: views compare and
serialise them as their plain names)."""

from __future__ import annotations

from enum import Enum

from ..i18n import R_


class Phase(str, Enum):
    """What the seat on turn is asked for."""

    CHOOSE = "choose"  # a declarer names the contract
    NAME = "name"  # a declarer names the rank that opens a layout's rows (Barbu's domino)
    PASS = "pass"  # cards are passed before play (Hearts)
    AUCTION = "auction"  # seats bid for the right to play the deal
    EXCHANGE = "exchange"  # the taker of a widow puts cards out of his hand again
    CALL = "call"  # a seat names trumps
    DOUBLE = "double"  # the doubling round (Barbu)
    EXPOSE = "expose"  # cards are shown before play to double their cost (Trix)
    PLAY = "play"  # cards are played (or, in a layout, a pass)
    DONE = "done"  # the deal is over

    def __str__(self) -> str:
        return self.value


class Added(str):
    """The phase of a deal while a phase added by a module (``extensions``) decides: its name,
    with ``value`` as a ``Phase`` has (views and records say its plain name)."""

    __slots__ = ()

    @property
    def value(self) -> str:
        return str(self)


class _Private:
    """The phases whose actions only the seat that made them knows: the shipped ones, and the
    added phases that say so (``private``)."""

    def __init__(self, shipped: frozenset) -> None:
        self.shipped = shipped
        self.added: set = set()

    def __contains__(self, phase) -> bool:
        return phase in self.shipped or phase in self.added


#: Phases whose actions are known to the seat that made them only: a card passed (its
#: receiver learns it from its view once the passing is done), a card a widow's taker gives
#: or lays aside (likewise), an added phase's private action (a card laid face down).
PRIVATE = _Private(frozenset({Phase.PASS, Phase.EXCHANGE}))

#: What each phase expects, in words, for messages about an action out of place.
EXPECTED = {
    Phase.CHOOSE: R_("a contract is to be chosen"),
    Phase.NAME: R_("the rank that opens the rows is to be named"),
    Phase.PASS: R_("cards to pass are expected"),
    Phase.AUCTION: R_("a bid or a pass is expected"),
    Phase.EXCHANGE: R_("a card of your hand to give or lay aside is expected"),
    Phase.CALL: R_("a trump call is expected"),
    Phase.DOUBLE: R_("a bet is expected"),
    Phase.EXPOSE: R_("an exposure or 'done' is expected"),
    Phase.PLAY: R_("a card is expected"),
    Phase.DONE: R_("the deal is over"),
}
