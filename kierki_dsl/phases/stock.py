"""A stock to draw from (*kierki dominowe*): drawing is forced, not a decision, so this unit has
no actions, only its part of the view: the stock's size, the draws, and the cards this seat drew."""

from __future__ import annotations

from ..i18n import tr, trn
from ..interpreter import stock
from .base import PhaseUnit, cards_text, row, seat


class Stock(PhaseUnit):
    name = "stock"
    fields = ("stock", "drawn", "drew")
    lint_codes = stock.LINT_CODES  # its codes, declared beside its checks (interpreter/stock.py)

    def matches(self, view) -> bool:
        return False

    def panel(self, view, rules=None) -> list:
        if not view.drawn:
            return []
        held = ", ".join(
            f"{seat(view, s)} {k}" + (tr(" (drew {count})").format(count=d) if d else "")
            for s, (k, d) in enumerate(zip(view.hand_sizes, view.drawn))
        )
        size = trn("{count} card", "{count} cards", view.stock).format(count=view.stock)
        rows = [row(tr("Stock"), tr("{size} · cards held: {held}").format(size=size, held=held))]
        if view.drew:
            rows.append(row("", tr("You drew {cards} from the stock.").format(cards=cards_text(view.drew))))
        return rows


UNIT = Stock()
