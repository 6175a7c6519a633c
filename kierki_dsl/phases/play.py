"""Trick play: a card to the trick in progress (the phase ``play`` of a trick deal)."""

from __future__ import annotations

from typing import Optional

from ..cards import CardError, card_pretty, read_card
from ..i18n import N_, tr
from ..interpreter import tricks
from ..interpreter.actions import PASS, IllegalAction
from ..interpreter.phasekit.base import NotUnderstood, contract_of, row, seat
from ..interpreter.phasekit.cardpick import CardPhase
from ..interpreter.phasekit.records import PlaysSection
from ..interpreter.phases import EXPECTED, Phase
from ..interpreter.trickkernel import winning_play


def trick_text(view, plays) -> str:
    """``N 4♣, E 9♣, ...`` for ``(seat, card)`` pairs."""
    return ", ".join(f"{seat(view, s)} {card_pretty(c)}" for s, c in plays)


def taken_text(view, number: int, plays, winner: int) -> str:
    """``(3): N 4♣, E 9♣, S 5♣, W 2♣ — taken by E``."""
    return tr("({number}): {plays} — taken by {seat}").format(
        number=number, plays=trick_text(view, plays), seat=seat(view, winner)
    )


def winning_text(view, rules=None) -> str:
    """``W Q♠``: the seat and card winning the trick in progress (by the contract's rank order
    and the trumps; the usual order when no rules are given)."""
    contract = contract_of(rules, view.contract)
    card = winning_play(view.trick, view.trump, contract.order if contract is not None else None)
    return next(f"{seat(view, s)} {card_pretty(c)}" for s, c in view.trick if c == card)


class TrickPlay(PlaysSection, CardPhase):
    name = "play"
    engine_half = tricks
    expected = EXPECTED[Phase.PLAY]
    task = N_("play a card")
    searched = True
    card_play = True

    # adapter hooks: a resampled world may force a card its drawn hands make illegal
    forced_in_worlds = True

    def matches(self, view) -> bool:
        return view.phase == "play" and view.part("layout") is None

    def read(self, view, text: str, rules=None) -> int:
        if text.strip().lower() == "pass":
            raise NotUnderstood(tr("there is no passing in this deal: play a card"))
        return super().read(view, text, rules)

    def default(self, view) -> Optional[int]:
        return view.legal[0] if len(view.legal) == 1 and view.legal[0] != PASS else None

    def panel(self, view, rules=None) -> list:
        if not self.matches(view):
            return []
        of = (
            "" if view.part("stock") is not None else tr(" of {deals}").format(deals=view.tricks_total)
        )  # with a stock it varies
        rows = [
            row(tr("Trick"), f"{view.trick_number}{of}"),
            row(tr("Trick so far"), trick_text(view, view.trick) or tr("(you lead)")),
        ]
        if len(view.trick) > 1:
            rows.append(row(tr("Winning so far"), winning_text(view, rules)))
        return rows

    def winning(self, view, rules=None) -> Optional[int]:
        """The card the trick in progress goes to so far: the highest trump, else the highest of the suit led
        (by the contract's rank order)."""
        if not self.matches(view) or not view.trick:
            return None
        contract = contract_of(rules, view.contract)
        return winning_play(view.trick, view.trump, contract.order if contract is not None else None)

    def news(self, view, last) -> list:
        seen = len(last.completed) if last is not None else 0
        return [
            tr("Trick {number}: {plays} — taken by {seat}").format(
                number=i + 1, plays=trick_text(view, plays), seat=seat(view, w)
            )
            for i, (_, plays, w) in enumerate(view.completed)
            if i >= seen
        ]

    def previous(self, view) -> str:
        if not view.completed:
            return super().previous(view)
        _, plays, w = view.completed[-1]
        return tr("Previous trick ") + taken_text(view, len(view.completed), plays, w)

    def final_trick(self, view, plays: list, contract) -> Optional[str]:
        """The deal's last trick, played on from this seat's last view with the deal's last plays."""
        n = view.players
        if view.trick_number != view.tricks_total or view.hand.bit_count() != 1:
            return None
        seats, s = [], view.trick[0][0] if view.trick else view.seat
        for _ in range(n):
            seats.append(s)
            s = (s + view.direction) % n
        try:
            cards = [read_card(p) for p in plays[-n:]]
            hands = [0] * n
            for who, c in zip(seats, cards):
                if all(who != t for t, _ in view.trick):
                    hands[who] |= 1 << c
            st = contract.from_view(view, hands)
            for c in cards[len(view.trick) :]:
                st.apply_action(c)
            _, trick, winner = st.completed[-1]
        except (CardError, IllegalAction, IndexError, KeyError, ValueError, AttributeError):
            return None  # no usual ending: nothing to show
        return tr("Last trick ") + taken_text(view, view.trick_number, trick, winner)

    # -- bot hooks -------------------------------------------------------------------------------
    def plain_tricks(self, view) -> bool:
        """Cards to a trick, and no stock to draw from."""
        return view.part("stock") is None and all(0 <= a < 52 for a in view.legal)


UNIT = TrickPlay()
