"""Cards and suits as a person types them: kept in ``phases/typed.py``, with the phases whose words
they are (below the players, so the terminal player and the phase modules share them)."""
from __future__ import annotations

from ..phases.typed import RANK_WORDS, SUIT_WORDS, read_card, read_suit

__all__ = ["RANK_WORDS", "SUIT_WORDS", "read_card", "read_suit"]
