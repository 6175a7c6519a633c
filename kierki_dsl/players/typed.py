"""Cards and suits as a person types them at the terminal (``QS``, ``10h``, ``♦8``, ``h5``,
``10 kier``, ``as pik``): the reading lives in ``kierki_dsl.cards``, where lint reuses it."""

from __future__ import annotations

from ..cards import RANK_WORDS, SUIT_WORDS, read_card, read_suit

__all__ = ["RANK_WORDS", "SUIT_WORDS", "read_card", "read_suit"]
