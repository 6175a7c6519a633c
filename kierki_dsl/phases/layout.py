"""Layout play (Rozbójnik's *układanka*, Fan Tan): a card to the rows on the table, or a pass."""

from __future__ import annotations

from typing import Optional

from ..cards import SUIT_SYMBOLS, card_pretty
from ..i18n import N_, tr
from ..interpreter import layout
from ..interpreter.actions import PASS
from ..interpreter.layout import LayoutPart
from ..interpreter.phasekit.base import row, seat
from ..interpreter.phasekit.botplay import bot_contract
from ..interpreter.phasekit.cardpick import CardPhase
from ..interpreter.phasekit.records import PlaysSection
from ..interpreter.phases import EXPECTED, Phase


def lays_out(view) -> bool:
    """Whether ``view``'s deal is played to a layout (in any of its phases)."""
    return view.part("layout") is not None


def layout_card(c, cards, hand: int, opening_rank: int) -> int:
    """The heuristic's card in a layout deal (``cards`` the playable ones): the card that
    frees its own cards while holding back those that would open rows for the others."""
    free = opening_rank < 0  # a free start: the card played now sets the opening rank

    def score(x: int) -> tuple:
        # cards of ours this one leads to, minus the gap it opens for the others
        suit, pos = x // 13, c.position(x)
        start = pos if free else c.position(opening_rank)
        step = -1 if pos < start else 1
        ours = 0
        p = pos + step
        while 0 <= p <= 12 and hand >> c.card_at(suit, p) & 1:
            ours += 1
            p += step
        if pos == start:
            ours = max(ours, sum(1 for q in range(13) if hand >> c.card_at(suit, q) & 1))
        if free:  # holding the other rows' openers keeps them under our control
            ours += sum(1 for s in range(4) if s != suit and hand >> (s * 13 + x % 13) & 1)
        opens = 0 if (0 <= pos + step <= 12 and hand >> c.card_at(suit, pos + step) & 1) else 1
        far = abs(pos - start)
        return (ours - 2 * opens, far, -x)

    return max(cards, key=score)


class LayoutPlay(PlaysSection, CardPhase):
    name = "layout"
    engine_half = layout
    part_type = LayoutPart
    expected = EXPECTED[Phase.PLAY]
    task = N_("play to the layout or pass")
    searched = True
    card_play = True
    lint_codes = layout.LINT_CODES  # its codes, declared beside its checks (interpreter/layout.py)

    def matches(self, view) -> bool:
        return view.phase == "play" and lays_out(view)

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
        p = self.part(view)
        if p is None:
            return []
        if p.opening_rank < 0:
            rows = [
                row(tr("Layout"), tr("nothing played yet; the first card opens its row, and its rank opens every row"))
            ]
        else:
            rows = [row(tr("Layout"), tr("rows open with a {rank}").format(rank=card_pretty(p.opening_rank)[:-1]))]
        for s, r in enumerate(p.layout):
            shown = (
                tr("not open")
                if r is None
                else (card_pretty(r[0]) if r[0] == r[1] else f"{card_pretty(r[0])} … {card_pretty(r[1])}")
            )
            rows.append(row(SUIT_SYMBOLS[s], shown))
        rows.append(row(tr("Cards left"), ", ".join(f"{seat(view, s)} {k}" for s, k in enumerate(view.hand_sizes))))
        if p.pool:
            rows.append(row(tr("Pool"), tr("{points} points, for the next player to go out").format(points=p.pool)))
        if any(p.free_passes_left):
            rows.append(
                row(
                    tr("Free passes left"),
                    ", ".join(f"{seat(view, s)} {k}" for s, k in enumerate(p.free_passes_left)),
                )
            )
        return rows

    def news(self, view, last) -> list:
        """Who played which card and who passed since this seat's last turn (or, at its first
        turn of the deal, since the deal began)."""
        p = self.part(view)
        seen = len(self.part(last).moves) + 1 if last is not None else 0  # this seat's own move is not news
        if len(p.moves) <= seen:  # nobody else moved (an extra turn)
            return []
        moved = [f"{seat(view, s)} " + (tr("passed") if a == PASS else card_pretty(a)) for s, a in p.moves[seen:]]
        return [(tr("Since your last turn: ") if last is not None else tr("Played so far: ")) + ", ".join(moved)]

    def previous(self, view) -> str:
        return tr("No trick has been finished yet in this deal.")

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The card ``layout_card`` picks, or a pass when the seat has none to play."""
        cards = [a for a in view.legal if a != PASS]
        if not cards:
            return PASS
        return layout_card(bot_contract(rules, view.contract), cards, view.hand, self.part(view).opening_rank)


UNIT = LayoutPlay()
