"""Cards as small ints, sets of cards as 52-bit masks.

A card is ``suit * 13 + rank`` with suits ``S H D C`` (0..3) and ranks ``2 .. A``
(0..12), so every suit occupies one 13-bit field of a mask. ``CardSet`` is a tidy,
immutable set-like view over such a mask; the engine itself works on bare ints.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from .i18n import N_, language, tr

SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "23456789TJQKA"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES_PL = RANK_NAMES[:9] + ("W", "D", "K", "A")

FULL_DECK = (1 << 52) - 1
SUIT_MASK = tuple(8191 << (13 * s) for s in range(4))
RANK_MASK = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
BIT = tuple(1 << c for c in range(52))


class CardError(ValueError):
    """A card, rank or suit written in a way that cannot be read."""


def card(suit: int, rank: int) -> int:
    """The card id of ``rank`` (0 = '2' .. 12 = 'A') in ``suit`` (0 = S .. 3 = C)."""
    return suit * 13 + rank


def suit_of(c: int) -> int:
    """The suit of card ``c`` (0..3, the order of ``SUITS``)."""
    return c // 13


def rank_of(c: int) -> int:
    """The rank of card ``c`` (0: the two .. 12: the ace)."""
    return c % 13


_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)}
_SUIT_ALIASES.update({sym: i for i, sym in enumerate(SUIT_SYMBOLS)})
_SUIT_ALIASES.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})


def parse_rank(text: str) -> int:
    """Read a rank: ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A`` (any case)."""
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) == 1 and t in RANKS:
        return RANKS.index(t)
    raise CardError(f"not a rank: {shown(text)}")


def parse_suit(text: str) -> int:
    """Read a suit letter (``S H D C``), symbol (``♠♥♦♣``) or name (``hearts``)."""
    t = str(text).strip()
    if t.upper() in _SUIT_ALIASES:
        return _SUIT_ALIASES[t.upper()]
    if t in _SUIT_ALIASES:
        return _SUIT_ALIASES[t]
    if t.lower() in SUIT_NAMES:
        return SUIT_NAMES.index(t.lower())
    raise CardError(f"not a suit: {shown(text)}")


def shown(text, limit: int = 40) -> str:
    """``repr`` of what was given for a card or suit, cut to ``limit`` characters for a message."""
    text = str(text)
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def parse_card(text: str) -> int:
    """Read a card such as ``KH``, ``10h``, ``tc`` or ``q♠`` into its id."""
    t = str(text).strip()
    if len(t) < 2:
        raise CardError(f"not a card: {shown(text)}")
    try:
        return card(parse_suit(t[-1]), parse_rank(t[:-1]))
    except CardError:
        raise CardError(f"not a card: {shown(text)} (write rank then suit, e.g. KH, 10S, qd)") from None


# Cards and suits as a person types them: English or Polish words, letters or symbols, rank
# first or suit first (the terminal reads them; lint suggests the card an author meant).
#: Suit words a person may type, English and Polish, plural and singular (lower case).
SUIT_WORDS = {
    **{name: i for i, name in enumerate(SUIT_NAMES)},
    **{name[:-1]: i for i, name in enumerate(SUIT_NAMES)},
    "piki": 0,
    "pik": 0,
    "kiery": 1,
    "kier": 1,
    "karo": 2,
    "kara": 2,
    "trefle": 3,
    "trefl": 3,
}
#: Rank words, English and Polish, and the Polish rank letters ``D`` (dama, the queen) and ``W``
#: (walet, the jack); ``K`` (król) and ``A`` (as) are the English letters. Neither ``D`` nor ``W``
#: is a rank letter in English and ``W`` is no suit letter, so ``DS``/``D♠`` (queen) and ``DD``
#: (queen of diamonds) read one way only.
RANK_WORDS = {
    "ace": 12,
    "as": 12,
    "king": 11,
    "król": 11,
    "krol": 11,
    "queen": 10,
    "dama": 10,
    "d": 10,
    "jack": 9,
    "walet": 9,
    "w": 9,
}


def read_suit(text: str) -> int:
    """A suit typed by a person: letter, symbol, or English or Polish name (``kiery``, ``heart``)."""
    t = " ".join(text.strip().lower().split())
    if t in SUIT_WORDS:
        return SUIT_WORDS[t]
    return parse_suit(t)


def read_card(text: str) -> int:
    """A card typed by a person: rank then suit or suit then rank, the suit as a letter, a
    symbol or a name, with or without a space (``QS``, ``10h``, ``♦8``, ``h5``, ``10 kier``)."""
    t = "".join(text.strip().split())
    if len(t) > 20:  # no card is named at such length ("10 kier", "dama pik"); never tried split by split
        raise CardError(f"not a card: {shown(text)}")
    for split in range(1, len(t)):
        for rank, suit in ((t[:split], t[split:]), (t[-split:], t[:-split])):
            try:
                return card(
                    read_suit(suit), RANK_WORDS[rank.lower()] if rank.lower() in RANK_WORDS else parse_rank(rank)
                )
            except CardError:
                continue
    raise CardError(f"not a card: {shown(text)}")


_RECORD_CARD = re.compile(r"\b([2-9TJQKA])([SHDC])\b")


def pretty_cards(text: str) -> str:
    """``text`` with every card in record notation (``AS``, ``TD``) written as people read
    cards (``A♠``, ``10♦``): one notation in what a person is told."""
    return _RECORD_CARD.sub(lambda m: card_pretty(parse_card(m.group(0))), text)


def card_str(c: int) -> str:
    """The record notation of a card: rank then suit letter, e.g. ``TC``."""
    return RANKS[c % 13] + SUITS[c // 13]


def card_pretty(c: int) -> str:
    """A card for people, in their language's letters: ``10♥``, ``Q♠`` (Polish: ``D♠``, dama)."""
    return rank_names()[c % 13] + SUIT_SYMBOLS[c // 13]


#: The suits' names as message ids (``suit_word`` reads them in the language in force).
SHOWN_SUIT_NAMES = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))


def suit_word(s: int) -> str:
    """Suit ``s``'s name for people in the language in force (``hearts``; Polish ``kiery``)."""
    return tr(SHOWN_SUIT_NAMES[s])


def rank_names() -> tuple:
    """The ranks' letters in the language in force (Polish: ``W`` walet, ``D`` dama, ``K``, ``A``)."""
    return RANK_NAMES_PL if language() == "pl" else RANK_NAMES


def bits(mask: int) -> Iterator[int]:
    """The card ids in a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: Per suit, its 13-bit field of a mask -> the card ids (tuples); filled whole when first used.
SUIT_CARDS: tuple = ({}, {}, {}, {})
_S0, _S1, _S2, _S3 = SUIT_CARDS


def fill_suit_cards() -> tuple:
    """Every rank pattern of every suit (4 x 8192 tuples, built in a few milliseconds):
    ``SUIT_CARDS``, filled."""
    if 8191 in _S3:  # the last entry written: a fill another thread has begun is not done
        return SUIT_CARDS
    for suit, table in enumerate(SUIT_CARDS):
        base = 13 * suit
        table[0] = ()
        for m in range(1, 8192):
            top = m.bit_length() - 1
            table[m] = table[m ^ (1 << top)] + (base + top,)
    return SUIT_CARDS


def suit_cards(suit: int, ranks: int) -> tuple:
    """The card ids of ``suit`` whose ranks are the bits of ``ranks`` (13 bits), ascending."""
    try:
        return SUIT_CARDS[suit][ranks]
    except KeyError:
        fill_suit_cards()
        return SUIT_CARDS[suit][ranks]


def card_list(mask: int) -> list[int]:
    """The card ids in a mask as a list, ascending (a table lookup per suit)."""
    try:
        return [*_S0[mask & 8191], *_S1[mask >> 13 & 8191], *_S2[mask >> 26 & 8191], *_S3[mask >> 39 & 8191]]
    except KeyError:
        fill_suit_cards()
        return card_list(mask)


def mask_of(cards: Iterable[int]) -> int:
    """The 52-bit mask of these cards (bit ``c`` set for card ``c``)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class CardSet:
    """An immutable set of cards backed by a 52-bit mask: the public face of the masks the
    engine works on inside (as python-chess's ``SquareSet``). ``SeatView.hand_cards`` gives one;
    iterating yields card ids in ascending order, ``str()`` the cards in record notation."""

    __slots__ = ("mask",)

    def __init__(self, mask: int = 0) -> None:
        self.mask = mask

    @classmethod
    def parse(cls, items: Iterable[str]) -> "CardSet":
        return cls(mask_of(parse_card(t) for t in items))

    def __iter__(self) -> Iterator[int]:
        return bits(self.mask)

    def __len__(self) -> int:
        return popcount(self.mask)

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 52 and bool(self.mask >> c & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __and__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask & other.mask)

    def __or__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask | other.mask)

    def __sub__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask & ~other.mask)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __repr__(self) -> str:
        return "CardSet(" + " ".join(card_str(c) for c in self) + ")"

    def __str__(self) -> str:
        return " ".join(card_str(c) for c in self)

    def suit(self, s: int) -> "CardSet":
        """The cards of suit ``s`` (0..3: S H D C)."""
        return CardSet(self.mask & SUIT_MASK[s])


popcount = int.bit_count  # the number of cards in a mask (Python >= 3.10)


def meant_card(word: str) -> str:
    """What an author who wrote ``word`` (``HK``, ``K♥``, ``kh``, ``kier``) most likely meant,
    in the language's own spelling (``KH``, ``hearts``), or '' when it reads as neither."""
    try:
        return card_str(read_card(word))
    except CardError:
        pass
    try:
        return SUIT_NAMES[read_suit(word)]
    except CardError:
        return ""
