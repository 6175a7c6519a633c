"""The phases whose decision is a card of the hand (trick play, layout play, passing, a widow's
exchange): a card's label, the words that name a card, and the menu of legal cards."""

from __future__ import annotations

from typing import Optional

from ...cards import CardError, card_pretty, read_card
from ...i18n import N_, tr
from ...rankorder import rank_key
from .base import PhaseUnit, contract_of

HELP = N_(
    "Type a card such as QS, 10h, q♠, ♦8, h5 or D♠ (dama), or its number from the list ('last' shows the previous trick)."
)


class CardPhase(PhaseUnit):
    """A phase whose actions are cards (0..51) of the seat's hand."""

    hint = HELP
    prompt_word = N_("your card")
    off_list = N_("{typed} is not on the list: the legal cards are numbered {span}")

    def owns(self, action: int) -> bool:
        return 0 <= action < 52

    def default(self, view) -> Optional[int]:
        """A single legal card is played with Enter (a trick's or the layout's alike)."""
        return view.legal[0] if len(view.legal) == 1 and 0 <= view.legal[0] < 52 else None

    def label(self, view, action: int, rules=None) -> str:
        return card_pretty(action) if 0 <= action < 52 else super().label(view, action, rules)

    def order(self, view, rules):
        """The contract's rank order (None: the usual one)."""
        contract = contract_of(rules, view.contract)
        return contract.order if contract is not None else None

    def choices(self, view, rules=None) -> list:
        rank = rank_key(self.order(view, rules))
        return sorted((a for a in view.legal if 0 <= a < 52), key=lambda c: (c // 13, -rank(c)))

    def word(self, view, text: str, rules=None) -> Optional[int]:
        try:
            return read_card(text)
        except CardError:
            return None

    def menu(self, view, rules=None) -> list:
        options = self.choices(view, rules)
        return [tr("Legal: ") + "  ".join(f"{i}) {card_pretty(c)}" for i, c in enumerate(options, start=1))]

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        if 0 <= action < 52 and not view.hand >> action & 1:
            return tr("you do not hold {card}").format(card=card_pretty(action))
        shown = card_pretty(action) if 0 <= action < 52 else text
        return tr("{typed} is not allowed: {reason}").format(typed=shown, reason=reason or tr("not legal now"))
