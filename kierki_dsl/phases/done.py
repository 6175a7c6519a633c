"""The deal is over: no decision, nothing of its own to show."""

from __future__ import annotations

from ..interpreter.phases import EXPECTED, Phase
from .base import PhaseUnit


class DealOver(PhaseUnit):
    name = "done"
    expected = EXPECTED[Phase.DONE]
    task = "wait: the deal is over"


UNIT = DealOver()
