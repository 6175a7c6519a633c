"""Passing (Hearts): each seat passes cards of its hand to another before play."""

from __future__ import annotations

from typing import Optional

from ..cards import card_str
from ..i18n import N_, tr, trn
from ..interpreter import passing
from ..interpreter.passing import PassingPart
from ..interpreter.phasekit.base import cards_text, contract_of, row, seat
from ..interpreter.phasekit.botplay import bot_contract
from ..interpreter.phasekit.cardpick import CardPhase
from ..interpreter.phases import EXPECTED, Phase
from ..interpreter.trickkernel import card_values, is_positive


def pass_order(contract, tricks_total: int, trump: int, players: int):
    """The heuristic passes its cards in this order (a sort key): where tricks pay its lowest
    cards, where they cost its most expensive ones, then its highest."""
    _, value = card_values(contract, tricks_total, trump, players, 1)
    if is_positive(contract, tricks_total, trump, players):
        return lambda x: (x % 13, x)
    return lambda x: (value[x], -(x % 13), x)


class Passing(CardPhase):
    name = "pass"
    engine_half = passing
    part_type = PassingPart
    expected = EXPECTED[Phase.PASS]
    task = N_("pass a card")
    prompt_word = N_("a card to pass")
    private = True  # a card passed is known to its giver; its receiver sees it once the passing is done
    lint_codes = passing.LINT_CODES  # its codes, declared beside its checks (interpreter/passing.py)

    # record hooks: the cards each seat passed, a list per seat
    record_key = "passes"
    record_rank = 10
    record_example = '[["QS", "KH", "AH"], ...]'
    record_shown_text = "passing {entry}"
    record_extra_text = "the passing is over but the record's passes have more: {entry}"
    record_absent_text = "the record has 'passes' but in deal {deal} ({contract}) no cards are passed"

    def record_section(self, result) -> Optional[list]:
        return [list(p) for p in result.passes] if result.passes else None

    def record_lanes(self, section, players: int) -> tuple:
        if not isinstance(section, list) or len(section) != players or not all(isinstance(p, list) for p in section):
            return None, f"'passes' must hold the cards each of the {players} seats passed"
        return dict(enumerate(section)), None

    def record_lane(self, seat: int):
        return seat

    def record_short(self, deal, seat: int, entries: list) -> str:
        return f"seat {seat} passed {len(entries)} cards; {deal.contract.passing.count} are passed"

    # adapter hooks: a card passed is its seat's secret; its receiver learns it when the passing ends
    drawn_in_worlds = True

    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        out = [(seat, f"p{seat} passes {card_str(action)}"), (None, f"p{seat} passes a card")]
        if deal.phase != self.name:  # the passing is over: each seat learns the cards it was given (not their order)
            n = len(dealt)
            for giver in range(n):
                to = (giver + deal.direction * deal.pass_offset) % n
                got = " ".join(card_str(c) for c in sorted(deal.passes[giver]))
                out.append((to, f"p{to} receives {got}"))
        return out

    def unseen_draw(self, contract, mine: list) -> Optional[tuple]:
        return list(mine), None

    def own_cards(self, deal, log: list, seat: int) -> tuple:
        if deal is None or not deal.pass_offset:
            return 0, 0
        count, n = deal.contract.passing.count, deal.players
        passed = sum(1 << a for a in [a for s, a in log if s == seat and a < 52][:count])
        received = 0
        if deal.phase != self.name:
            giver = (seat - deal.direction * deal.pass_offset) % n
            for s, a in log:
                if s == giver and a < 52:
                    received |= 1 << a
                    if received.bit_count() == count:
                        break
        return passed, received

    def advice(self, view, rules=None) -> list:
        """'Pass 3 cards to W: card 2 of 3' — where the cards go and how many are chosen."""
        contract = contract_of(rules, view.contract)
        if contract is None or contract.passing is None:
            return []
        passing = contract.passing
        n = view.players
        to = (view.seat + view.direction * passing.offset(view.deal_number, n)) % n
        chosen = view.hand_sizes[view.seat] - view.hand.bit_count() if view.hand_sizes else 0
        return [
            tr("Pass {count} cards to {seat}: card {number} of {count}").format(
                count=passing.count, seat=seat(view, to), number=chosen + 1
            )
        ]

    def panel(self, view, rules=None) -> list:
        """What this seat gave (how many cards, to whom) and what it received (from whom), once every pass is made."""
        p = self.part(view)
        if p is None or not p.received:
            return []
        giver = (2 * view.seat - p.passed_to) % view.players  # passing is a rotation: the seat passing to us
        return [
            row(
                "",
                tr(
                    "You passed {count} to {seat}: {cards}; you received {received_count} from {giver}: {received}."
                ).format(
                    count=_count(p.passed),
                    seat=seat(view, p.passed_to),
                    cards=cards_text(p.passed),
                    received_count=_count(p.received),
                    giver=seat(view, giver),
                    received=cards_text(p.received),
                ),
            )
        ]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The first card in ``pass_order``."""
        key = pass_order(bot_contract(rules, view.contract), view.tricks_total, view.trump, view.players)
        return min(view.legal, key=key)

    def shown_held(self, view) -> list:
        """The cards this seat passed: the seat that got them holds them until it plays them."""
        p = self.part(view)
        return [(p.passed_to, c) for c in p.passed] if p is not None else []


def _count(cards) -> str:
    """``3 cards``, ``1 card`` (in the language in force)."""
    return trn("{count} card", "{count} cards", len(cards)).format(count=len(cards))


UNIT = Passing()
