"""A stock to draw from (*kierki dominowe*): drawing is forced, not a decision, so this unit has
no actions, only its part of the view: the stock's size, the draws, and the cards this seat drew."""

from __future__ import annotations

from ..i18n import tr, trn
from ..interpreter import stock
from ..interpreter.phasekit.base import PhaseUnit, cards_text, row, seat
from ..interpreter.stock import StockPart


class Stock(PhaseUnit):
    name = "stock"
    engine_half = stock
    part_type = StockPart
    lint_codes = stock.LINT_CODES  # its codes, declared beside its checks (interpreter/stock.py)

    rebuilt_in_worlds = True  # the draws interleave the stock's order with every hand

    def matches(self, view) -> bool:
        return False

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None:
            return []
        held = ", ".join(
            f"{seat(view, s)} {k}" + (tr(" (drew {count})").format(count=d) if d else "")
            for s, (k, d) in enumerate(zip(view.hand_sizes, p.drawn))
        )
        size = trn("{count} card", "{count} cards", p.stock).format(count=p.stock)
        rows = [row(tr("Stock"), tr("{size} · cards held: {held}").format(size=size, held=held))]
        if p.drew:
            rows.append(row("", tr("You drew {cards} from the stock.").format(cards=cards_text(p.drew))))
        return rows

    # bot hooks: the stock's cards are in no hand; a seat that drew may hold a suit it showed out of
    def out_unseen(self, view) -> int:
        p = self.part(view)
        return p.stock if p is not None else 0

    def voids_undone(self, view) -> list:
        p = self.part(view)
        return [s for s, count in enumerate(p.drawn) if count] if p is not None else []


UNIT = Stock()
