"""The deal is over: no decision, nothing of its own to show."""

from __future__ import annotations

from ..i18n import N_
from ..interpreter.phasekit.base import PhaseUnit
from ..interpreter.phases import EXPECTED, Phase


class DealOver(PhaseUnit):
    name = "done"
    expected = EXPECTED[Phase.DONE]
    task = N_("wait: the deal is over")


UNIT = DealOver()
