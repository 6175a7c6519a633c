"""Why an action is illegal, from what the seat may see: a function of the view and the rules.

The terminal prompt, the network tables and the browser table explain a refused card with
``illegal_reason(view, action, contract)``. It reads only the seat's own view (its hand and
the public plays) and the compiled contract; it never needs the deal state, so a seat can be
told the rule it broke without being handed anything that points at other hands.
"""

from __future__ import annotations

from functools import partial
from typing import Optional

from ..i18n import R_
from . import extensions, phasecatalogue
from .actions import action_str
from .phaseengine import ANOTHER, AddedEngine
from .phaselist import phase_list
from .phases import EXPECTED, Phase
from .view import SeatView

EXPECTED_ONE_OF = R_("{expected}: {choices}")


def illegal_reason(view: SeatView, action: int, contract, name=None) -> Optional[str]:
    """None when ``action`` is legal for the seat of ``view``, else the rule it breaks, in words.

    ``contract`` is the compiled contract named by ``view.contract`` (for a declarer's-choice
    phase, whose view names a schedule slot, the slot or None: it is not read there). ``name(action)`` words the legal actions a
    reason lists (default: their record notation; a front end passes its phase labels).
    """
    if action in view.legal:
        return None
    if not view.legal:
        return R_("the deal is over") if view.phase == Phase.DONE else R_("it is not your turn")
    engine = _engine(contract, view.phase)
    if engine is not None:  # a phase before play says why, from the view, or lists the legal actions
        reason = engine.view_reason(view, action)
        if reason:
            return reason
    elif view.phase == Phase.PLAY:
        if 0 <= action < 52 and not view.hand >> action & 1:
            return R_("{card} is not in your hand").format(card=action_str(action))
        hands = [0] * view.players
        hands[view.seat] = view.hand
        reason = contract.from_view(view, hands).why_illegal(action)
        if reason:
            return reason
    expected = engine.expected if engine is not None else _expected(view.phase)
    return EXPECTED_ONE_OF.format(
        expected=expected, choices=", ".join((name or partial(_names, view, engine))(a) for a in view.legal)
    )


def _expected(phase) -> str:
    """What a phase without an engine expects (card play), in words; ANOTHER: a phase unknown here."""
    return EXPECTED[Phase(phase)] if phase in EXPECTED else ANOTHER


def _engine(contract, phase):
    """The engine of the phase ``phase`` of ``contract``'s list of phases before play; with no
    rule, of a phase added by a module the contract does not play (its unit's) or of a schedule
    slot's phase (the declarer's choice, whose view names no contract); or None."""
    engine = phase_list(contract).engine(phase)
    if engine is None:
        added = extensions.named(phase)
        if added is not None:
            engine = AddedEngine(added, None, -1)
        elif (slot := phasecatalogue.slot_engine(str(phase))) is not None:
            engine = slot(None)
    return engine


def _names(view: SeatView, engine, action: int) -> str:
    """A legal action as a reason lists it: as the phase's engine names it, else its notation."""
    return (engine is not None and engine.view_name(view, action)) or action_str(action)


__all__ = ["illegal_reason"]
