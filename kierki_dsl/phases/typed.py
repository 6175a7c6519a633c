"""Cards and suits as a person types them at the terminal: English or Polish words, letters
or symbols, rank first or suit first (``QS``, ``10h``, ``♦8``, ``h5``, ``10 kier``, ``as pik``)."""
from __future__ import annotations

from ..cards import SUIT_NAMES, CardError, card, parse_rank, parse_suit

#: Suit words a person may type, English and Polish, plural and singular (lower case).
SUIT_WORDS = {
    **{name: i for i, name in enumerate(SUIT_NAMES)},
    **{name[:-1]: i for i, name in enumerate(SUIT_NAMES)},
    "piki": 0, "pik": 0, "kiery": 1, "kier": 1, "karo": 2, "kara": 2, "trefle": 3, "trefl": 3,
}
#: Rank words, English and Polish.
RANK_WORDS = {"ace": 12, "as": 12, "king": 11, "król": 11, "krol": 11, "queen": 10, "dama": 10, "jack": 9, "walet": 9}


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
    for split in range(1, len(t)):
        for rank, suit in ((t[:split], t[split:]), (t[-split:], t[:-split])):
            try:
                return card(read_suit(suit), RANK_WORDS[rank.lower()] if rank.lower() in RANK_WORDS else parse_rank(rank))
            except CardError:
                continue
    raise CardError(f"not a card: {text!r}")
