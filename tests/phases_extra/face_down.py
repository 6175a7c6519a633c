"""A phase that changes play, added from this one module (imported by the tests only).

"Before play, every player lays one card face down from the hand; the face-down cards go to
whoever takes the last trick and score for them." A trick contract plays it when it holds

    face_down: {points_each: -10}

Everything the phase is lives here: its schema part and lint code, its actions (a block of 52
numbers handed out at registration, written ``face_down:KH`` in records), the deal state's part
(who lays next, which cards lie face down), its part of the seat view and its panel, its labels
and typed words, its bot's choice. No engine, front-end, player or adapter file names it.

The ``kierki`` command finds it through ``KIERKI_PHASES=phases_extra.face_down`` (with the
tests folder on ``PYTHONPATH``).
"""

from __future__ import annotations

from typing import Optional

from kierki_dsl import phases
from kierki_dsl.cards import CardError, bits, card_pretty, card_str, parse_card, read_card
from kierki_dsl.phases import CardPhase, row
from kierki_dsl.spec.schema import Field, Int, Obj

SCHEMA = Field(
    Obj(
        {
            "points_each": Field(
                Int(-1000, 1000), "points for each face-down card, to whoever takes the last trick", required=True
            )
        },
        title="face down",
        doc="Before play every player lays one card face down; they go to whoever takes the last trick.",
    ),
    "before play every player lays one card of the hand face down; the cards score for whoever takes the last trick",
    default=None,
)


class Laid:
    """The face-down cards of one deal: the seats in the order they lay, and each seat's card."""

    def __init__(self, order: list, players: int, points_each: int) -> None:
        self.order = order
        self.cards = [-1] * players  # per seat, its face-down card (-1: not yet, or not known)
        self.turn = 0
        self.points_each = points_each
        self.count = 0  # how many cards lie face down

    def copy(self) -> "Laid":
        other = Laid(list(self.order), len(self.cards), self.points_each)
        other.cards, other.turn, other.count = list(self.cards), self.turn, self.count
        return other


class FaceDown(CardPhase):
    """Lay one card face down before play; the face-down cards score for the last trick's taker."""

    name = "face_down"
    expected = "a card to lay face down is expected"
    task = "lay a card face down"
    prompt_word = "a card to lay face down"

    # engine hooks
    schema_key = "face_down"
    schema = SCHEMA
    action_width = 52
    private = True
    lint_codes = {
        "M690": (
            "face-down cards that score nothing",
            "With `points_each: 0` the cards laid face down change no score: the phase only shortens the deal.",
        )
    }

    def card(self, action: int) -> int:
        return action - self.action_base

    def owns(self, action: int) -> bool:
        return self.action_base <= action < self.action_base + 52

    def label(self, view, action: int, rules=None) -> str:
        return f"lay {card_pretty(self.card(action))} face down" if self.owns(action) else super().label(view, action)

    def choices(self, view, rules=None) -> list:
        return sorted(view.legal, key=lambda a: (self.card(a) // 13, -(self.card(a) % 13)))

    def word(self, view, text: str, rules=None) -> Optional[int]:
        text = text.removeprefix("lay ").removesuffix(" face down")
        try:
            return self.action_base + read_card(text)
        except CardError:
            return None

    def menu(self, view, rules=None) -> list:
        return [
            "Legal: "
            + "  ".join(f"{i}) {card_pretty(self.card(a))}" for i, a in enumerate(self.choices(view), start=1))
        ]

    def refusal(self, view, text, action, reason, rules=None) -> str:
        return f"You cannot lay {text} face down: {reason or 'not allowed now'}."

    def advice(self, view, rules=None) -> list:
        return ["Lay one card face down: it leaves your hand, and the face-down cards go to the last trick's taker."]

    def panel(self, view, rules=None) -> list:
        part = dict(view.parts).get(self.name)
        if part is None:
            return []
        mine, count = part
        text = f"{count} card{'s' if count != 1 else ''}, for whoever takes the last trick"
        if mine >= 0:
            text += f" (yours: {card_pretty(mine)})"
        return [row("Face down", text)]

    def notation(self, action: int) -> str:
        return f"{self.name}:{card_str(self.card(action))}"

    def read_notation(self, text: str) -> Optional[int]:
        head, _, tail = text.strip().lower().partition(":")
        if head != self.name:
            return None
        try:
            return self.action_base + parse_card(tail)
        except CardError:
            return None

    def build_rule(self, value, ctx, where: tuple) -> tuple:
        return value.points_each, True

    def check_rule(self, contract, rule, where: tuple, bctx) -> None:
        if rule == 0:
            bctx.warning(where + ("points_each",), "M690", "face-down cards with points_each: 0 score nothing")

    def cards_laid(self, rule) -> int:
        return 1

    def total_change(self, contract, rule, players: int) -> Optional[int]:
        if any(s.kind == "card" for s in contract.scorers):  # which cards escape the tricks is not fixed
            return None
        return rule * players

    def explain(self, rule) -> dict:
        return {
            "face down": "before play every player, starting left of the dealer, lays one card of his hand face down; "
            f"the face-down cards go to whoever takes the last trick, {rule} points each"
        }

    def engine_start(self, rule, deal) -> Laid:
        n = deal.players
        return Laid([(deal.dealer + deal.direction * (i + 1)) % n for i in range(n)], n, rule)

    def engine_seat(self, state: Laid) -> int:
        return state.order[state.turn] if state.turn < len(state.order) else -1

    def engine_legal(self, state: Laid, deal) -> list:
        return [self.action_base + c for c in bits(deal.hands[self.engine_seat(state)])]

    def engine_reason(self, state: Laid, deal, action: int) -> Optional[str]:
        if not self.owns(action):
            return self.expected
        if not deal.hands[self.engine_seat(state)] >> self.card(action) & 1:
            return f"{card_str(self.card(action))} is not in your hand"
        return None

    def engine_apply(self, state: Laid, deal, action: int) -> None:
        s = self.engine_seat(state)
        deal.hands[s] &= ~(1 << self.card(action))
        state.cards[s] = self.card(action)
        state.turn += 1
        state.count += 1
        if self.engine_seat(state) < 0:  # every hand is one card shorter: one trick fewer
            deal.tricks_total -= 1

    def engine_view(self, state: Laid, deal, seat: int) -> tuple:
        return (state.cards[seat], state.count)

    def engine_settle(self, state: Laid, deal) -> None:
        if not deal.completed:
            return
        taker = deal.completed[-1][2]
        deal.scores[taker] += state.points_each * state.count
        for c in state.cards:
            if c >= 0:
                deal.taken[taker] |= 1 << c

    def engine_copy(self, state: Laid) -> Laid:
        return state.copy()

    def engine_from_view(self, rule, view) -> Optional[Laid]:
        part = dict(view.parts).get(self.name)
        if part is None:
            return None
        state = Laid([], view.players, rule)
        state.cards[view.seat], state.count = part
        return state

    def view_reason(self, view, action: int, rule) -> Optional[str]:
        if self.owns(action) and not view.hand >> self.card(action) & 1:
            return f"{card_str(self.card(action))} is not in your hand"
        return None

    # bot hooks
    def bot_action(self, view, rules) -> int:
        """The lowest card of the hand."""
        return min(view.legal, key=lambda a: (self.card(a) % 13, self.card(a) // 13))


UNIT = phases.register(FaceDown())
