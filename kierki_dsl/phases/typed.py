"""Cards and suits as a person types them (``QS``, ``10h``, ``♦8``, ``h5``, ``10 kier``, ``as pik``),
for the phase modules that read typed words: the reading itself lives in ``kierki_dsl.cards``,
where lint reuses it to suggest a card's spelling."""

from __future__ import annotations

from ..cards import RANK_WORDS, SUIT_WORDS, read_card, read_suit

__all__ = ["RANK_WORDS", "SUIT_WORDS", "read_card", "read_suit"]
