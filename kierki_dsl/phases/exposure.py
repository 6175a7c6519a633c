"""Exposure (Trix): before play a seat shows penalty cards of its hand to double their cost, then says done."""

from __future__ import annotations

from typing import Optional

from ..cards import CardError, bits, card_pretty, read_card
from ..i18n import N_, tr
from ..interpreter import exposure
from ..interpreter.actions import DONE, expose, exposed_card, is_expose
from ..interpreter.doubling import done_unless_forced
from ..interpreter.exposure import ExposurePart
from ..interpreter.phasekit.base import row, seat
from ..interpreter.phasekit.records import BetsSection
from ..interpreter.phases import EXPECTED, Phase


class Exposure(BetsSection):
    name = "expose"
    engine_half = exposure
    part_type = ExposurePart
    expected = EXPECTED[Phase.EXPOSE]
    task = N_("expose a card or say done")
    prompt_word = N_("expose")
    hint = N_("Type a number from the list, a card such as KH, or 'done'.")
    lint_codes = exposure.LINT_CODES  # its codes, declared beside its checks (interpreter/exposure.py)

    def owns(self, action: int) -> bool:
        return is_expose(action) or action == DONE

    def label(self, view, action: int, rules=None) -> str:
        return tr("done") if action == DONE else tr("expose {card}").format(card=card_pretty(exposed_card(action)))

    def word(self, view, text: str, rules=None) -> Optional[int]:
        if text in ("done", tr("done")):
            return DONE
        try:
            return expose(read_card(text.split()[-1]))
        except (CardError, IndexError):
            return None

    def advice(self, view, rules=None) -> list:
        return [
            tr(
                "Exposing a card doubles what it costs whoever takes it; you gain its value once if someone else "
                "takes it."
            )
        ]

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        word = tr("expose") + " "
        shown = text.split(" ", 1)[1] if text.lower().startswith(("expose ", word.lower())) else text
        return tr("You cannot expose {card}: {reason}.").format(card=shown, reason=reason or tr("not allowed now"))

    def shown_held(self, view) -> list:
        """Every card exposed: its exposer holds it until it is played."""
        p = self.part(view)
        return list(p.exposed) if p is not None else []

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None or not p.exposed:
            return []
        return [row(tr("Exposed so far"), ", ".join(f"{seat(view, s)} {card_pretty(c)}" for s, c in p.exposed))]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """Expose a card that three lower cards of its suit protect (it can be kept out of
        tricks it would lose), else done."""
        for a in view.legal:
            if is_expose(a):
                card = exposed_card(a)
                lower = sum(1 for c in bits(view.hand) if c // 13 == card // 13 and c % 13 < card % 13)
                if lower >= 3:
                    return a
        return DONE

    def rollout_action(self, state) -> Optional[int]:
        """No exposures (done, unless a duty forces one)."""
        return done_unless_forced(state.legal_actions())

    # adapter hooks: any card of the deck may be shown where the contract has exposures
    def action_end(self, contract) -> int:
        return expose(52) if contract.exposure is not None else 0


UNIT = Exposure()
