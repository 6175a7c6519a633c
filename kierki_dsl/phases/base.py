"""What every phase module declares, and the defaults most phases share.

A phase module (``passing.py``, ``auction.py``, ...) defines one ``PhaseUnit`` subclass and an
instance of it named ``UNIT``. The unit says, in one place, everything a front end needs to
show the phase and to take a person's decision in it:

- ``name``: the phase (a ``Phase`` value of the interpreter, or ``layout`` for layout play);
  ``fields``: the ``SeatView`` fields it owns; ``expected`` and ``task``: what the seat on turn
  is asked for, in words;
- ``owns(action)``: the actions it numbers; ``label(view, action)``: the label a person reads
  (``120``, ``pass``, ``expose K♥``, ``trumps: hearts``);
- ``read(view, text)``: the words a person may type, read as an action (``NotUnderstood``
  with a hint for anything else); ``choices(view)`` the legal actions in the order a menu
  lists them; ``menu``, ``advice`` and ``prompt``: the terminal's lines for the decision;
  ``refusal``: how a refused action is told, with the rule's reason;
- ``panel(view)``: its named part of the seat view as plain rows (``{"label", "text"}``) that
  any front end shows as they are — the standing bid, the widow, the cards received...

Front ends never ask which phase is playing: they call the registry (``kierki_dsl.phases``),
which finds the unit for a view.
"""

from __future__ import annotations

import functools
from typing import Optional

from ..cards import card_pretty
from ..interpreter.actions import action_str
from ..report import seat_name


class NotUnderstood(ValueError):
    """Typed text that names no action of the phase; the message says what may be typed."""


def row(label: str, text: str) -> dict:
    """One line of a panel: ``label: text`` (a front end shows the label apart, or not at all when empty)."""
    return {"label": label, "text": text}


def cards_text(cards) -> str:
    """``K♥ 10♠`` for card ids."""
    return " ".join(card_pretty(c) for c in cards)


def seat(view, s: int) -> str:
    """A seat's name at the view's table (``N``, ``P2``)."""
    return seat_name(s, view.players)


def contract_of(rules, name: str):
    """The compiled contract ``name`` of ``rules`` (None without rules, or for a schedule slot)."""
    return rules.contracts.get(name) if rules is not None else None


def contract_name(c) -> str:
    """A contract's short name as a person reads it: its Polish name, or its English one where the
    ruleset gives no Polish name (Barbu's ``No tricks``, never the key ``no_tricks``)."""
    return c.en if c.en and c.pl == c.name else (c.pl or c.name)


class PhaseUnit:
    """A phase: its actions, words and part of the view. Subclasses override what differs."""

    name = ""
    fields: tuple = ()
    expected = ""
    task = ""
    prompt_word = "choice"
    #: False while the contract is not known yet (a declarer's choice): no contract lines, no rank order.
    contract_known = True
    #: True: a number typed picks from the numbered menu of ``choices``.
    numbered = True
    hint = "Type a number from the list."

    def matches(self, view) -> bool:
        """Whether this phase is the one deciding in ``view`` (False for a phase with no decisions)."""
        return view.phase == self.name

    # -- actions ---------------------------------------------------------------------------------
    def owns(self, action: int) -> bool:
        """Whether this phase numbers ``action``."""
        return False

    def label(self, view, action: int, rules=None) -> str:
        """The label a person reads for ``action``."""
        return action_str(action)

    def choices(self, view, rules=None) -> list:
        """The legal actions in the order a menu lists them."""
        return list(view.legal)

    def read(self, view, text: str, rules=None) -> int:
        """The action typed ``text`` names (legal or not); ``NotUnderstood`` when it names none."""
        t = " ".join(text.strip().lower().split())
        options = self.choices(view, rules)
        if self.numbered and t.isdigit() and len(t) <= 6:
            k = int(t)
            if 1 <= k <= len(options):
                return options[k - 1]
            span = "1" if len(options) == 1 else f"1 to {len(options)}"
            raise NotUnderstood(f"{t} is not on the list: the choices are numbered {span}")
        action = self.word(view, t, rules)
        if action is None:
            raise NotUnderstood(self.hint)
        return action

    def word(self, view, text: str, rules=None) -> Optional[int]:
        """The action a typed word (lower case, single spaces) names, or None. By default: a label of a legal action."""
        for a in view.legal:
            if text == self.label(view, a, rules).lower():
                return a
        return None

    def default(self, view) -> Optional[int]:
        """The action Enter takes (None: Enter asks again)."""
        return None

    def forced(self, view) -> Optional[tuple]:
        """``(action, words)`` when the seat has no choice worth asking (said, then taken), else None."""
        return None

    # -- words for the terminal ------------------------------------------------------------------
    def advice(self, view, rules=None) -> list:
        """Lines explaining the decision (shown before the menu; the browser shows them too)."""
        return []

    def menu(self, view, rules=None) -> list:
        """The numbered choices, as lines."""
        return [
            "Choices: "
            + "  ".join(f"{i}) {self.label(view, a, rules)}" for i, a in enumerate(self.choices(view, rules), start=1))
        ]

    def prompt(self, view, rules=None) -> str:
        """The word before ``>`` at the terminal prompt."""
        return self.prompt_word

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        """How a refused action is told (``reason``: the rule it breaks, None if unknown)."""
        return f"{text} is not allowed: {reason or 'not allowed now'}"

    # -- the view --------------------------------------------------------------------------------
    def panel(self, view, rules=None) -> list:
        """This phase's part of the view as rows to show (empty: nothing to show now)."""
        return []

    def news(self, view, last) -> list:
        """Lines on what happened since ``last`` (this seat's previous view in this phase)."""
        return []

    def previous(self, view) -> str:
        """The previous trick in words (the terminal's ``last``)."""
        return "No trick has been finished yet in this deal."

    def final_trick(self, view, plays: list, contract) -> Optional[str]:
        """The last trick of a deal in words, from this seat's last view and the deal's plays."""
        return None

    # adapter hooks ---------------------------------------------------------------------------
    # What the OpenSpiel/PettingZoo adapters (``adapters/``) ask of the phase an action was taken
    # in; the defaults are those of a public action (a card played, a bid, a double).

    #: The seat's actions are cards only it sees (a pass): a resampled world draws them anew.
    drawn_in_worlds = False
    #: A card of this phase may be forced in a resampled world whose drawn hands break a rule.
    forced_in_worlds = False

    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        """The events ``seat`` taking ``action`` writes, ``(who may see it, None: every seat; text)``,
        read from ``deal`` just after the action (``dealt``: the cards each seat was dealt)."""
        return [(None, said(seat, action))]

    def puts_out(self, action: int) -> bool:
        """Whether ``action`` lays a card out of the play that only its seat (and a receiver) sees."""
        return False

    def dealt_seen(self, hand: int, dealt) -> list:
        """The cards of ``dealt`` (the seat's dealing) the seat has seen in this phase (``hand``: its view's hand)."""
        return list(dealt)

    def unseen_draw(self, contract, mine: list) -> Optional[tuple]:
        """Before any card is played: ``(cards of its dealing the seat has seen, how many it is dealt or
        None)`` when the other hands may be drawn from every other card; None to draw from the play."""
        return None

    def own_cards(self, deal, log: list, seat: int) -> tuple:
        """``(cards the seat gave in this phase, cards it received)`` as masks, from the deal's ``log``
        of ``(seat, action)`` (the seat's own knowledge)."""
        return 0, 0

    def observation_lines(self, view) -> list:
        """This phase's lines of the adapters' observation string (empty: nothing to add)."""
        return []


@functools.lru_cache(maxsize=4096)
def said(seat: int, action: int) -> str:
    """The public event of ``seat`` taking ``action`` (made once per seat and action)."""
    return f"p{seat} {action_str(action)}"
