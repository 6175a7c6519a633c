"""Trick play: a card to the trick in progress (the phase ``play`` of a trick deal)."""

from __future__ import annotations

from typing import Optional

from ..cards import CardError, card_pretty
from ..interpreter.actions import PASS, IllegalAction
from ..interpreter.phases import EXPECTED, Phase
from .base import NotUnderstood, row, seat
from .cardpick import CardPhase
from .typed import read_card


def trick_text(view, plays) -> str:
    """``N 4♣, E 9♣, ...`` for ``(seat, card)`` pairs."""
    return ", ".join(f"{seat(view, s)} {card_pretty(c)}" for s, c in plays)


def taken_text(view, number: int, plays, winner: int) -> str:
    """``(3): N 4♣, E 9♣, S 5♣, W 2♣ — taken by E``."""
    return f"({number}): {trick_text(view, plays)} — taken by {seat(view, winner)}"


class TrickPlay(CardPhase):
    name = "play"
    fields = ("trick", "led_suit", "trick_number", "tricks_total", "completed", "played")
    expected = EXPECTED[Phase.PLAY]
    task = "play a card"

    # adapter hooks: a resampled world may force a card its drawn hands make illegal
    forced_in_worlds = True

    def matches(self, view) -> bool:
        return view.phase == "play" and view.layout is None

    def read(self, view, text: str, rules=None) -> int:
        if text.strip().lower() == "pass":
            raise NotUnderstood("there is no passing in this deal: play a card")
        return super().read(view, text, rules)

    def default(self, view) -> Optional[int]:
        return view.legal[0] if len(view.legal) == 1 and view.legal[0] != PASS else None

    def panel(self, view, rules=None) -> list:
        if not self.matches(view):
            return []
        of = "" if view.drawn else f" of {view.tricks_total}"  # with a stock the number of tricks varies
        return [
            row("Trick", f"{view.trick_number}{of}"),
            row("Trick so far", trick_text(view, view.trick) or "(you lead)"),
        ]

    def news(self, view, last) -> list:
        seen = len(last.completed) if last is not None else 0
        return [
            f"Trick {i + 1}: {trick_text(view, plays)} — taken by {seat(view, w)}"
            for i, (_, plays, w) in enumerate(view.completed)
            if i >= seen
        ]

    def previous(self, view) -> str:
        if not view.completed:
            return super().previous(view)
        _, plays, w = view.completed[-1]
        return "Previous trick " + taken_text(view, len(view.completed), plays, w)

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
        return "Last trick " + taken_text(view, view.trick_number, trick, winner)


UNIT = TrickPlay()
