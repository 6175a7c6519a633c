"""The trump call: a seat names trumps during the deal. The whole phase in one module: its part of
the format (the mapping form of a trick contract's ``trump``), its rule and its action numbers (a
caller names a suit trumps, or no trumps), its engine (``CallEngine``) and its unit (``UNIT``:
labels, typed words, panel, record, bot hooks)."""

from __future__ import annotations

from typing import Optional

from ..cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, CardError, bits, card_str, read_suit, suit_word
from ..diagnostics import quoted
from ..i18n import N_, R_, tr
from ..spec.schema import Enum, Expr, Field, Int, List, Obj
from ..values import frozen
from .numbering import Block
from .phaseengine import PhaseEngine
from .phasekit.base import PhaseUnit, row, seat
from .phases import EXPECTED, Phase

CALLS = Block("call", 53, 5, "name a suit trumps (base + suit 0..3), or no trumps (the last)")
#: The call's blocks of action numbers (``actions`` assembles every phase's).
NUMBERS = (CALLS,)
CALL_BASE = CALLS.base  # CALL_BASE + suit (0..3) names that suit trumps
NO_TRUMP = CALLS.end - 1  # the caller chose to play without trumps


def call(suit: int) -> int:
    """The action calling ``suit`` trumps (-1: no trumps)."""
    return NO_TRUMP if suit < 0 else CALL_BASE + suit


def called_suit(action: int) -> int:
    """The suit an action calls (-1 for no trumps)."""
    return -1 if action == NO_TRUMP else action - CALL_BASE


def is_call(action: int) -> bool:
    """A trump call (a suit or no trumps)."""
    return CALLS.holds(action)


def notation(action: int) -> str:
    """A call in the record notation: ``call:H``, ``call:none``."""
    return "call:none" if action == NO_TRUMP else "call:" + SUITS[called_suit(action)]


def read_notation(text: str) -> Optional[int]:
    """The call ``notation`` wrote, or None."""
    t = text.strip()
    if t.lower() == "call:none":
        return NO_TRUMP
    if t.lower().startswith("call:") and len(t) == 6 and t[5].upper() in SUITS:
        return call(SUITS.index(t[5].upper()))
    return None


#: What a trump call may name: no trumps, or a suit.
SUIT_CHOICES = ("none",) + SUIT_NAMES

#: Its part of the format: the mapping form of a trick contract's ``trump``.
TRUMP_CALL = Obj(
    {
        "called_by": Field(Expr("seat"), N_("who names trumps, e.g. dealer or left(dealer)"), required=True),
        "after": Field(
            Int(0, 52), "how many of his cards the caller sees first (the rest are dealt after the call)", default=5
        ),
        "choices": Field(
            List(Enum(SUIT_CHOICES), min_items=1, unique=True), "what may be called", default=list(SUIT_NAMES)
        ),
    },
    title="trump call",
    doc="Trumps named by a seat during the deal.",
)


@frozen(eq=False)
class TrumpCall:
    """The compiled trump call of a contract."""

    called_by: object  # Compiled seat expression
    after: int
    choices: tuple  # suits, -1 = no trumps


# -- its engine -----------------------------------------------------------------------------------


class CallEngine(PhaseEngine):
    """The trump call of ``contract.call`` (``TrumpCall``); its state is the deal's
    ``caller`` and, once called, ``trump``."""

    phase = Phase.CALL

    def at_deal(self, deal) -> None:
        """No trump is known until it is called."""
        deal.trump = -1

    def start(self, deal) -> int:
        deal.caller = self.rule.called_by.seat(deal._seat_env(), deal.players)
        return deal.caller

    def legal(self, deal) -> list:
        return [call(s) for s in self.rule.choices]

    def reason(self, deal, action: int) -> Optional[str]:
        if action in self.legal(deal):
            return None
        return R_("a trump call is expected ({choices})").format(
            choices=", ".join(R_("no trumps") if s < 0 else SUIT_NAMES[s] for s in self.rule.choices)
        )

    def apply(self, deal, action: int) -> int:
        deal.trump = called_suit(action)
        return -1

    def hand_seen(self, deal, seat: int) -> int:
        """Before any auction, every seat has been dealt only its first ``after`` cards so far."""
        if deal.auction is not None:
            return deal.hands[seat]
        return sum(1 << c for c in deal.dealt[seat][: self.rule.after])

    def resume(self, deal, view) -> bool:
        """A deal rebuilt from a view in the call (the auction, and a widow's exchange, done)
        goes on with the call."""
        deal.to_move = view.caller
        return True


# -- its unit -------------------------------------------------------------------------------------


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


class TrumpCallUnit(PhaseUnit):
    """The trump call as a person and a bot see it: a suit named trumps, or no trumps; its labels,
    typed words, record (the deal's ``trump``), adapter and bot hooks."""

    name = "call"
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
        if isinstance(entry, str) and len(entry) == 1 and entry.upper() in SUITS:
            return call(SUITS.index(entry.upper()))
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


UNIT = TrumpCallUnit()
