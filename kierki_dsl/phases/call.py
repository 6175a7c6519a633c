"""The trump call: a seat names trumps (or no trumps) for the deal."""

from __future__ import annotations

from typing import Optional

from ..cards import SUIT_SYMBOLS, CardError, bits, card_str, read_suit, suit_word
from ..diagnostics import quoted
from ..i18n import N_, tr
from ..interpreter import calling
from ..interpreter.actions import NO_TRUMP, call, called_suit, is_call
from ..interpreter.phasekit.base import PhaseUnit, row, seat
from ..interpreter.phases import EXPECTED, Phase


def call_by_length(cards) -> int:
    """Trump-call policy: the suit with most of the cards seen, then the highest ones."""
    best, best_key = 0, None
    for s in range(4):
        ranks = [c % 13 for c in cards if c // 13 == s]
        key = (len(ranks), sum(ranks), -s)
        if best_key is None or key > best_key:
            best, best_key = s, key
    return best


def call_for(hand: int, legal) -> int:
    """The heuristic's call with ``hand``: its suit by ``call_by_length`` if allowed, else the first call."""
    action = call(call_by_length(list(bits(hand))))
    return action if action in legal else legal[0]


class TrumpCall(PhaseUnit):
    name = "call"
    engine_half = calling
    expected = EXPECTED[Phase.CALL]
    task = N_("call trumps")
    prompt_word = N_("trumps")
    hint = N_("Type a suit (S, H, D, C, ♠, hearts, kiery...) or its number.")

    # record hooks: the record's ``trump`` (a suit letter, or null for no trumps) is the call; a
    # deal's head holds it, and the record's reader checks it against every deal's trump
    record_key = "trump"

    def record_lanes(self, section, players: int) -> tuple:
        return {None: [section]}, None

    def record_action(self, entry) -> int:
        if entry is None:
            return call(-1)
        if isinstance(entry, str) and len(entry) == 1 and entry.upper() in "SHDC":
            return call("SHDC".index(entry.upper()))
        raise ValueError(f"'trump' must be a suit letter S/H/D/C or null, got {quoted(entry)}")

    def record_shown(self, entry) -> str:
        return f"the trump call {'none' if entry is None else entry}"

    def record_absent(self, section, contract: str, number: int) -> Optional[str]:
        return None  # a deal without a call: its trump is checked with every deal's

    # adapter hooks: the caller has seen only the first cards of his dealing when he calls
    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        seen = " ".join(card_str(c) for c in sorted(dealt[seat][: deal.contract.call.after]))
        return [(seat, f"p{seat} saw {seen}"), *super().reveal(deal, seat, action, dealt)]

    def dealt_seen(self, hand: int, dealt) -> list:
        return [c for c in dealt if hand >> c & 1]

    def unseen_draw(self, contract, mine: list) -> Optional[tuple]:
        return mine[: contract.call.after], len(mine)

    def owns(self, action: int) -> bool:
        return is_call(action)

    def label(self, view, action: int, rules=None) -> str:
        suit = called_suit(action)
        return tr("no trumps") if suit < 0 else tr("trumps: {suit}").format(suit=suit_word(suit))

    def word(self, view, text: str, rules=None) -> Optional[int]:
        if text in ("none", "no trumps", "nt", tr("no trumps")):
            return NO_TRUMP
        try:
            return call(read_suit(text.removeprefix("trumps:").removeprefix(tr("trumps:")).strip()))
        except CardError:
            return None

    def menu(self, view, rules=None) -> list:
        names = [tr("no trumps") if called_suit(a) < 0 else suit_word(called_suit(a)) for a in view.legal]
        return [tr("You name trumps. Choices: ") + ", ".join(f"{i}) {x}" for i, x in enumerate(names, start=1))]

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        return tr("{typed} may not be called here: {reason}").format(typed=text, reason=reason or tr("not allowed now"))

    def panel(self, view, rules=None) -> list:
        """The trumps: called, fixed, none, or still to be called."""
        if self.matches(view):
            who = view.caller if view.caller >= 0 else view.seat
            return [row(tr("Trumps"), tr("not called yet: {seat} calls").format(seat=seat(view, who)))]
        text = tr("none") if view.trump < 0 else f"{SUIT_SYMBOLS[view.trump]} {suit_word(view.trump)}"
        if view.caller >= 0:
            text += tr(" (called by {seat})").format(seat=seat(view, view.caller))
        return [row(tr("Trumps"), text)]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The suit of which the seat holds most cards (then the highest ones)."""
        return call_for(view.hand, view.legal)

    def rollout_action(self, state) -> Optional[int]:
        """The caller calls as the heuristic does."""
        return call_for(state.hands[state.caller], state.legal_actions())


UNIT = TrumpCall()
