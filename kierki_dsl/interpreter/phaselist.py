"""A contract's list of phases before play, in the order play reaches them.
``phase_list(contract)`` makes the list once per contract; the deal steps it
(``phasesteps.PhaseSteps``, one stepper for every deal type; ``phaseengine`` says how a phase is
stepped): a trick deal's (and a stock-drawing deal's) whole list, a layout's after its own naming
of the opening rank (``LayoutContract.steps``).

The list holds the shipped phases before play, in ``phasecatalogue.PLAY_ORDER`` (``SHIPPED``, made
from the catalogue: its engines and the contract attributes holding their rules), then the phases
added by a module (``extensions``), in the order they were registered. A phase is in a
contract's list when the contract has its rule; in a deal it may still have nothing to decide
(no passing in a deal of the rotation's ``none``, nobody with a card to expose): it is skipped.
"""

from __future__ import annotations

from . import phasecatalogue
from .phaseengine import AddedEngine
from .phasesteps import PhaseList  # (declared there, below the engines; named from here too)

#: (engine, the contract's field holding its rule) of each shipped phase before play, in order
#: (``phasecatalogue.PLAY_ORDER``).
SHIPPED = phasecatalogue.engines()


def phase_list(contract) -> PhaseList:
    """The list of ``contract``'s phases before play (made once per contract); an empty list for
    a contract of another deal type (it steps its phases itself)."""
    cache = getattr(contract, "_tables", None)
    if not isinstance(cache, dict):
        return _build(contract)
    got = cache.get("phase list")
    if got is None:
        got = cache["phase list"] = _build(contract)
    return got


def _build(contract) -> PhaseList:
    engines: list = [
        engine(getattr(contract, field)) for engine, field in SHIPPED if getattr(contract, field, None) is not None
    ]
    engines += [AddedEngine(unit, rule, i) for i, (unit, rule) in enumerate(getattr(contract, "added", ()))]
    return PhaseList(engines)


__all__ = ["SHIPPED", "PhaseList", "phase_list"]
