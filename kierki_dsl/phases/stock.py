"""A stock to draw from (*kierki dominowe*): drawing is forced, not a decision, so this unit has
no actions, only its part of the view: the stock's size, the draws, and the cards this seat drew."""

from __future__ import annotations

from .base import PhaseUnit, cards_text, row, seat


class Stock(PhaseUnit):
    name = "stock"
    fields = ("stock", "drawn", "drew")

    def matches(self, view) -> bool:
        return False

    def panel(self, view, rules=None) -> list:
        if not view.drawn:
            return []
        held = ", ".join(
            f"{seat(view, s)} {k}" + (f" (drew {d})" if d else "")
            for s, (k, d) in enumerate(zip(view.hand_sizes, view.drawn))
        )
        rows = [row("Stock", f"{view.stock} card{'s' if view.stock != 1 else ''} · cards held: {held}")]
        if view.drew:
            rows.append(row("", f"You drew {cards_text(view.drew)} from the stock."))
        return rows


UNIT = Stock()
