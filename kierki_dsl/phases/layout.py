"""Layout play (Rozbójnik's *układanka*, Fan Tan): a card to the rows on the table, or a pass."""

from __future__ import annotations

from typing import Optional

from ..cards import SUIT_SYMBOLS, card_pretty
from ..i18n import N_, tr
from ..interpreter.actions import PASS
from ..interpreter.phases import EXPECTED, Phase
from .base import row, seat
from .cardpick import CardPhase


class LayoutPlay(CardPhase):
    name = "layout"
    fields = ("layout", "opening_rank", "pool", "free_passes_left", "moves")
    expected = EXPECTED[Phase.PLAY]
    task = N_("play to the layout or pass")

    def matches(self, view) -> bool:
        return view.phase == "play" and view.layout is not None

    def owns(self, action: int) -> bool:
        return 0 <= action < 52 or action == PASS

    def label(self, view, action: int, rules=None) -> str:
        return tr("pass") if action == PASS else super().label(view, action, rules)

    def word(self, view, text: str, rules=None) -> Optional[int]:
        return PASS if text in ("pass", tr("pass")) else super().word(view, text, rules)

    def forced(self, view) -> Optional[tuple]:
        return (PASS, tr("You have nothing to play: you pass.")) if list(view.legal) == [PASS] else None

    def default(self, view) -> Optional[int]:
        return None

    def menu(self, view, rules=None) -> list:
        line = super().menu(view, rules)[0]
        return [line + (tr("  or 'pass'") if PASS in view.legal else "")]

    def panel(self, view, rules=None) -> list:
        if view.layout is None:
            return []
        if view.opening_rank < 0:
            rows = [
                row(tr("Layout"), tr("nothing played yet; the first card opens its row, and its rank opens every row"))
            ]
        else:
            rows = [row(tr("Layout"), tr("rows open with a {rank}").format(rank=card_pretty(view.opening_rank)[:-1]))]
        for s, r in enumerate(view.layout):
            shown = (
                tr("not open")
                if r is None
                else (card_pretty(r[0]) if r[0] == r[1] else f"{card_pretty(r[0])} … {card_pretty(r[1])}")
            )
            rows.append(row(SUIT_SYMBOLS[s], shown))
        rows.append(row(tr("Cards left"), ", ".join(f"{seat(view, s)} {k}" for s, k in enumerate(view.hand_sizes))))
        if view.pool:
            rows.append(row(tr("Pool"), tr("{points} points, for the next player to go out").format(points=view.pool)))
        if any(view.free_passes_left):
            rows.append(
                row(
                    tr("Free passes left"),
                    ", ".join(f"{seat(view, s)} {k}" for s, k in enumerate(view.free_passes_left)),
                )
            )
        return rows

    def news(self, view, last) -> list:
        """Who played which card and who passed since this seat's last turn (or, at its first
        turn of the deal, since the deal began)."""
        seen = len(last.moves) + 1 if last is not None else 0  # this seat's own move is not news
        if len(view.moves) <= seen:  # nobody else moved (an extra turn)
            return []
        moved = [f"{seat(view, s)} " + (tr("passed") if a == PASS else card_pretty(a)) for s, a in view.moves[seen:]]
        return [(tr("Since your last turn: ") if last is not None else tr("Played so far: ")) + ", ".join(moved)]

    def previous(self, view) -> str:
        return tr("No trick has been finished yet in this deal.")


UNIT = LayoutPlay()
