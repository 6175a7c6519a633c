"""Declarations (Tysiąc's marriages): made by leading a card, public, shown to every seat.

Not a decision of its own (declaring follows from the card led): this unit has no actions,
only its part of the view."""

from __future__ import annotations

from ..cards import SUIT_SYMBOLS
from ..i18n import tr
from ..interpreter import declarations
from ..interpreter.declarations import DeclarationsPart
from ..interpreter.phasekit.base import PhaseUnit, row, seat


def declaration_text(view, made) -> str:
    """``N marriage (+100, trumps ♥)`` for a view's ``(seat, name, points, suit)``."""
    who, name, points, suit = made
    what = [f"{points:+d}"] if points else []
    if suit >= 0:
        what.append(tr("trumps {suit}").format(suit=SUIT_SYMBOLS[suit]))
    return f"{seat(view, who)} {name}" + (f" ({', '.join(what)})" if what else "")


class Declarations(PhaseUnit):
    name = "declarations"
    engine_half = declarations
    part_type = DeclarationsPart
    lint_codes = declarations.LINT_CODES  # its codes, declared beside its checks (interpreter/declarations.py)

    def matches(self, view) -> bool:
        return False

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None or not p.declarations:
            return []
        return [row(tr("Declared"), ", ".join(declaration_text(view, d) for d in p.declarations))]


UNIT = Declarations()
