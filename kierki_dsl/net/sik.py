"""The SIK Kierki wire format: cards, card lists, seats and every message, both directions.

Numbers and cards run together on the wire (``TAKEN18C6C2C3CS``), so messages are parsed with
the counts they must have (1 card in a client's ``TRICK``, 0-3 in a server's, 4 in ``TAKEN``,
13 in ``DEAL``) and, where two readings remain, the trick number the receiver expects.
Every parser returns ``None`` for a message it cannot read; none raises.
"""

from __future__ import annotations

from typing import Optional

from ..values import frozen

SEATS = "NESW"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = "SHDC"  # the kierki-dsl suit order (card id = suit * 13 + rank)
MAX_LINE = 256  # longest message accepted, without CRLF (a DEAL is under 50 bytes)


def card_text(card: int) -> str:
    """A card as the protocol writes it: rank then suit, ``10`` for ten (``10C``, ``QH``)."""
    return RANKS[card % 13] + SUITS[card // 13]


def cards_text(cards) -> str:
    return "".join(card_text(c) for c in cards)


def _card_at(text: str, i: int) -> Optional[tuple[int, int]]:
    """(card, next index) of the card starting at ``text[i]``, or None."""
    if text.startswith("10", i):
        rank, i = 8, i + 2
    elif i < len(text) and text[i] in "23456789JQKA":
        rank, i = RANKS.index(text[i]), i + 1
    else:
        return None
    if i < len(text) and text[i] in SUITS:
        return SUITS.index(text[i]) * 13 + rank, i + 1
    return None


def parse_cards(text: str) -> Optional[list[int]]:
    """Cards written one after another (``10CQH2S``), or None if the text is not only cards."""
    out, i = [], 0
    while i < len(text):
        got = _card_at(text, i)
        if got is None:
            return None
        card, i = got
        out.append(card)
    return out


def _trick_splits(rest: str, expected: Optional[int]):
    """Every (trick number, text after it) reading of ``rest``; the expected number first."""
    out = []
    for width in (1, 2):
        head = rest[:width]
        if len(head) == width and head.isdigit() and head[0] != "0" and 1 <= int(head) <= 13:
            out.append((int(head), rest[width:]))
    out.sort(key=lambda x: x[0] != expected)
    return out


# -- messages from a client ----------------------------------------------------------------------
def parse_iam(line: str) -> Optional[int]:
    """The seat an ``IAM<seat>`` asks for, or None."""
    if len(line) == 4 and line.startswith("IAM") and line[3] in SEATS:
        return SEATS.index(line[3])
    return None


def parse_play(line: str, expected: Optional[int] = None) -> Optional[tuple[int, int]]:
    """(trick number, card) of a client's ``TRICK<n><card>``, or None."""
    if not line.startswith("TRICK"):
        return None
    for n, tail in _trick_splits(line[5:], expected):
        cards = parse_cards(tail)
        if cards is not None and len(cards) == 1:
            return n, cards[0]
    return None


# -- messages from a server ----------------------------------------------------------------------
@frozen
class Deal:
    type: int
    leader: int
    cards: tuple


@frozen
class TrickRequest:
    number: int
    cards: tuple  # on the table already, in playing order


@frozen
class Wrong:
    number: int


@frozen
class Taken:
    number: int
    cards: tuple  # in playing order
    winner: int


@frozen
class Points:
    kind: str  # "SCORE" or "TOTAL"
    points: tuple  # by seat


@frozen
class Busy:
    seats: tuple


def parse_server(line: str, expected: Optional[int] = None):
    """A server's message as a value (``Deal``, ``TrickRequest``, ...), or None.

    ``expected``: the trick the client expects next, to choose between two readings."""
    if line.startswith("DEAL"):
        body = line[4:]
        if len(body) >= 2 and body[0] in "1234567" and body[1] in SEATS:
            cards = parse_cards(body[2:])
            if cards is not None and len(cards) == 13 and len(set(cards)) == 13:
                return Deal(int(body[0]), SEATS.index(body[1]), tuple(cards))
        return None
    if line.startswith("TRICK"):
        for n, tail in _trick_splits(line[5:], expected):
            cards = parse_cards(tail)
            if cards is not None and len(cards) <= 3:
                return TrickRequest(n, tuple(cards))
        return None
    if line.startswith("WRONG"):
        body = line[5:]
        return Wrong(int(body)) if body.isdigit() and body[0] != "0" and 1 <= int(body) <= 13 else None
    if line.startswith("TAKEN"):
        if not line[-1:] or line[-1] not in SEATS:
            return None
        for n, tail in _trick_splits(line[5:-1], expected):
            cards = parse_cards(tail)
            if cards is not None and len(cards) == 4:
                return Taken(n, tuple(cards), SEATS.index(line[-1]))
        return None
    if line.startswith("SCORE") or line.startswith("TOTAL"):
        points = parse_points(line[5:])
        return None if points is None else Points(line[:5], points)
    if line.startswith("BUSY"):
        body = line[4:]
        if body and all(c in SEATS for c in body) and len(set(body)) == len(body):
            return Busy(tuple(SEATS.index(c) for c in body))
        return None
    return None


def parse_points(text: str) -> Optional[tuple]:
    """Seat-points pairs in any order (``N0E5S13W2``), each seat once, as points by seat."""
    got: dict = {}
    i = 0
    while i < len(text):
        seat = text[i]
        j = i + 1 + (text[i + 1 : i + 2] == "-")  # tolerated: rulesets with negative points
        while j < len(text) and text[j].isdigit():
            j += 1
        if seat not in SEATS or not text[i + 1 : j].lstrip("-") or seat in got or j - i > 10:
            return None
        got[seat] = int(text[i + 1 : j])
        i = j
    if len(got) != 4:
        return None
    return tuple(got[s] for s in SEATS)


# -- writing ---------------------------------------------------------------------------------------
def busy(seats) -> str:
    return "BUSY" + "".join(SEATS[s] for s in sorted(seats))


def deal(kind: int, leader: int, cards) -> str:
    return f"DEAL{kind}{SEATS[leader]}{cards_text(cards)}"


def trick(number: int, cards) -> str:
    return f"TRICK{number}{cards_text(cards)}"


def wrong(number: int) -> str:
    return f"WRONG{number}"


def taken(number: int, cards, winner: int) -> str:
    return f"TAKEN{number}{cards_text(cards)}{SEATS[winner]}"


def points(kind: str, values) -> str:
    return kind + "".join(f"{SEATS[s]}{p}" for s, p in enumerate(values))


def iam(seat: int) -> str:
    return f"IAM{SEATS[seat]}"
