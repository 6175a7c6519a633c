"""A widow's exchange (Tysiąc's *musik*): its taker gives cards of his hand away or lays them aside."""

from __future__ import annotations

from typing import Optional

from ..cards import CardError, card_pretty, card_str, read_card
from ..i18n import N_, tr
from ..interpreter import widow
from ..interpreter.actions import bid, bid_value, is_bid
from ..interpreter.phasekit.base import NotUnderstood, PhaseUnit, cards_text, contract_of, row, seat
from ..interpreter.phasekit.cardpick import CardPhase
from ..interpreter.phases import EXPECTED, Phase
from ..interpreter.widow import WidowPart


def lowest_card(cards) -> int:
    """A widow's taker's card to give or lay aside: the lowest rank (then the lowest suit)."""
    return min(cards, key=lambda c: (c % 13, c // 13))


def taker_action(legal) -> int:
    """The heuristic taker's action: his lowest card out; once his cards are out, his bid kept as his contract."""
    return lowest_card(legal) if legal[0] < 52 else legal[0]


def _raising(view) -> bool:
    """The taker, his cards out, names his contract (``raise_bid``): his bid or a higher one."""
    return bool(view.legal) and is_bid(view.legal[0])


class Exchange(CardPhase):
    name = "exchange"
    engine_half = widow
    part_type = WidowPart
    expected = EXPECTED[Phase.EXCHANGE]
    task = N_("give away or lay aside a card of your hand")
    hint = N_("Type a number from the list or a card such as KH.")
    private = True  # a card given or laid aside is known to the taker; its receiver sees it in his hand
    lint_codes = widow.LINT_CODES  # its codes, declared beside its checks (interpreter/widow.py)

    # record hooks: the cards the taker gave or laid aside, then the contract he named (``bid:130``)
    record_key = "exchange"
    record_rank = 40
    record_shown_text = "exchange {entry}"
    record_short_text = "the record's exchange ends before the widow's taker has put out all his cards"
    record_extra_text = "the exchange is over but the record has more: {entry}"
    record_absent_text = "the record has an 'exchange' but in deal {deal} ({contract}) no widow is taken"

    def record_section(self, result) -> Optional[list]:
        return list(result.exchange)

    # adapter hooks: a card put out is its taker's secret and its receiver's
    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        if not self.puts_out(action):  # the contract named after the exchange: public
            return super().reveal(deal, seat, action, dealt)
        out = [(seat, f"p{seat} puts out {card_str(action)}"), (None, f"p{seat} puts out a card")]
        for s in range(len(dealt)):
            if (action, s) in self.part(deal.view(s)).exchanged:
                out.append((s, f"p{s} receives {card_str(action)}"))
        return out

    def puts_out(self, action: int) -> bool:
        return action < 52

    def owns(self, action: int) -> bool:
        return super().owns(action) or is_bid(action)

    def label(self, view, action: int, rules=None) -> str:
        return str(bid_value(action)) if is_bid(action) else super().label(view, action, rules)

    def choices(self, view, rules=None) -> list:
        if _raising(view):
            return list(view.legal)
        return sorted(view.legal, key=lambda c: (c // 13, -(c % 13)))

    def read(self, view, text: str, rules=None) -> int:
        t = text.strip()
        if _raising(view) and t.isdigit() and len(t) <= 6 and int(t) > len(view.legal):
            return bid(int(t))  # a contract typed as its value, not its number on the list
        if _raising(view) and not t.isdigit():
            raise NotUnderstood(tr("Type a contract from the list, such as 120, or its number."))
        return super().read(view, text, rules)

    def word(self, view, text: str, rules=None) -> Optional[int]:
        try:
            return read_card(text)
        except CardError:
            return None

    def _to(self, view, rules) -> int:
        """The seat the next card goes to (-1: it is laid aside)."""
        contract = contract_of(rules, view.contract)
        rule = contract.widow if contract is not None else None
        return rule.recipient(view.seat, len(self.part(view).exchanged), view.players, view.direction) if rule else -1

    def advice(self, view, rules=None) -> list:
        if _raising(view):
            bid_standing = view.part("auction").bid  # the auction's: the bid he won
            return [tr("Name your contract: your bid, {bid}, or a higher one.").format(bid=bid_standing)]
        return [tr("You took the widow: {cards}.").format(cards=cards_text(self.part(view).widow))]

    def menu(self, view, rules=None) -> list:
        return PhaseUnit.menu(self, view, rules) if _raising(view) else super().menu(view, rules)

    def prompt(self, view, rules=None) -> str:
        if _raising(view):
            return tr("contract")
        to = self._to(view, rules)
        return tr("a card to give to {seat}").format(seat=seat(view, to)) if to >= 0 else tr("a card to lay aside")

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        if _raising(view):  # the rule's reason speaks of the exchange; the contracts are what matters
            named = ", ".join(self.label(view, a, rules) for a in view.legal)
            return tr("{typed} is not a contract you may name: name one of {named}.").format(typed=text, named=named)
        refused = (
            tr("You cannot give {typed}: {reason}.")
            if self._to(view, rules) >= 0
            else tr("You cannot lay aside {typed}: {reason}.")
        )
        return refused.format(typed=text, reason=reason or tr("not allowed now"))

    def panel(self, view, rules=None) -> list:
        p = self.part(view)
        if p is None:
            return []
        rows = []
        if p.widow:
            taker = tr(" (taken by {seat})").format(seat=seat(view, p.taker)) if p.taker >= 0 else ""
            rows.append(row(tr("Widow"), cards_text(p.widow) + taker))
        if p.exchanged:
            rows.append(
                row(
                    tr("So far"),
                    ", ".join(
                        tr("{card} to {seat}").format(card=card_pretty(c), seat=seat(view, t))
                        if t >= 0
                        else tr("{card} laid aside").format(card=card_pretty(c))
                        for c, t in p.exchanged
                    ),
                )
            )
        return rows

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """His lowest cards out, then his bid kept as his contract."""
        return taker_action(view.legal)

    def rollout_action(self, state) -> Optional[int]:
        """The taker puts out his lowest cards and keeps his bid, as the heuristic does."""
        return taker_action(state.legal_actions())

    # adapter hooks: the taker may put out as many cards as the deck holds
    def most_decisions(self, contract, players: int, cards: int) -> int:
        return cards if getattr(contract, "widow", None) is not None else 0

    # bot hooks: a face-up widow lies on the table, in nobody's hand, until it is taken; the
    # cards this seat laid aside lie out of every hand, those it gave away are with their receiver
    def out_of_hands(self, view) -> int:
        p = self.part(view)
        if p is None:
            return 0
        laid = sum(1 << c for c, to in p.exchanged if to < 0)
        return laid if p.taker >= 0 else laid | sum(1 << c for c in p.widow)

    def out_unseen(self, view) -> int:
        p = self.part(view)
        return p.aside if p is not None else 0

    def shown_held(self, view) -> list:
        p = self.part(view)
        return [(to, c) for c, to in p.exchanged if to >= 0] if p is not None else []


UNIT = Exchange()
