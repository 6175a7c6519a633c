"""``human``: a person at the terminal plays a seat.

Each decision shows "deal k of N", the contract and what it penalises or rewards, every trick
finished since the player's last turn and who took it (in a layout deal: who played or passed
since then), the trick so far with who played what, the hand grouped by suit and sorted with
the trumps marked, the points of the deal and of the match, and the legal cards numbered (a
single legal card is the default: Enter plays it). Cards are typed as ``QS``, ``10h``,
``q♠``, ``♦8``, ``h5``, ``10 kier`` or by their number; ``last`` (or ``?``) shows the
previous trick again. An illegal card is refused with the rule it breaks, taken from the
ruleset, and the prompt comes back. Trump calls show the cards seen so far and take suit
names in English or Polish; in a layout deal the rows are shown and a player with nothing
legal passes automatically.
"""

from __future__ import annotations

import sys
from typing import Optional

from ..cards import SUIT_SYMBOLS, card_pretty, pretty_cards, read_card, read_suit  # noqa: F401  (the words a person types, for callers of this module)
from ..i18n import said, tr, using
from ..phases import NotUnderstood, panel_lines, phase_of
from ..phases import label as phase_label
from ..rankorder import rank_key
from ..report import seat_name
from ..words import aspect_name, contract_title
from .base import Player, PlayerQuit, register_player


class HumanQuit(PlayerQuit):
    """The person ended the input (Ctrl-D / end of file): the match stops as on Ctrl-C."""


def hand_lines(hand: int, trump: int = -1, order=None) -> list:
    """The hand by suit, highest card first (by the contract's rank ``order``); the trump suit is marked."""
    out = []
    rank = rank_key(order)
    for s in range(4):
        cards = sorted((c for c in range(s * 13, s * 13 + 13) if hand >> c & 1), key=rank, reverse=True)
        if cards:
            mark = "   ← " + tr("trumps") if s == trump else ""
            out.append(f"  {SUIT_SYMBOLS[s]} " + " ".join(card_pretty(c)[:-1] for c in cards) + mark)
    return out


MAX_ANSWER = 80  # characters of an answer at the prompt that are read


@register_player
class HumanPlayer(Player):
    name = "human"

    def __init__(self, setting: str = "", stdin=None, stdout=None, ruleset=None) -> None:
        self.inp = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.ruleset = self.rules = ruleset
        self.totals: Optional[tuple] = None  # match totals before this deal (told by the runner)
        self.last_view = None  # the previous decision's view, to say what happened since
        self.match_length: Optional[int] = None  # deals in the match, when not the ruleset's schedule
        self.length_known = True  # False: nobody knows how many deals come (a SIK server decides)
        self.rules_shown: Optional[tuple] = None  # (deal, contract) whose rules were shown in full

    def set_match_length(self, deals: Optional[int]) -> None:
        """The match has ``deals`` deals (a match file's), or an unknown number (``None``: a
        server that says only when the match is over); "Deal k of n" follows."""
        self.match_length = deals
        self.length_known = deals is not None

    def deal_over(self, number: int, totals, plays=()) -> None:
        """The runner's word that deal ``number`` is over, its ``plays`` in record notation
        (public) and the match totals: shows the deal's last trick if this seat played in it."""
        self.totals = tuple(totals)
        last = self.last_view
        if last is None or last.deal_number != number or not plays or self.rules is None:
            return
        with using(None, self._words()):
            line = phase_of(last).final_trick(last, [str(p) for p in plays], self.rules.contracts.get(last.contract))
        if line:
            self.say()
            self.say(line)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:
            self.say()  # what is said next ("kierki: interrupted ...") starts a line, not after the prompt
            raise
        if not line:
            self.say()
            raise HumanQuit()
        return line.strip()[:MAX_ANSWER]  # no answer is longer; a pasted flood is cut, not parsed

    def _reason(self, view, action: int) -> Optional[str]:
        """The rule an action breaks, from the view and the rules alone."""
        from ..interpreter.reasons import illegal_reason

        name = view.contract
        contract = self.rules.contracts.get(name) if self.rules is not None else None
        if contract is None and phase_of(view).contract_known:  # no rules given: no reason to tell
            return None
        reason = illegal_reason(view, action, contract, lambda a: phase_label(view, a, self.rules))
        return (
            pretty_cards(said(reason) or reason) if reason else reason
        )  # in the language in force (the ruleset's own words too)

    # -- showing the table ---------------------------------------------------------------------
    def _deals_in_match(self) -> str:
        if self.match_length is not None or not self.length_known:
            return tr(" of {deals}").format(deals=self.match_length) if self.match_length else ""
        rs = self.rules
        if rs is None or rs.until is not None:
            return ""
        return tr(" of {deals}").format(deals=len(rs.schedule) * rs.series)

    def _contract_lines(self, view, full: bool = False) -> list:
        """The deal's title, and its rules (scoring, lead ban, trumps...) the first time in a deal
        or when ``full``; after that a short reminder."""
        c = self.contract_of(view)
        lines = [
            tr("Deal {number}{of}: {title}").format(
                number=view.deal_number, of=self._deals_in_match(), title=contract_title(c)
            )
        ]
        seen = (view.deal_number, view.contract)
        if self.rules_shown == seen and not full:
            return lines[:1] + ["  " + tr("(its rules as shown above; 'rules' shows them again)")]
        self.rules_shown = seen
        if self.rules is not None and c.name in self.rules.specs:
            from ..explain import aspects

            asp = aspects(self.rules, c.name)
            for key in ("scoring", "lead ban", "trumps") + tuple(k for k in asp if k.startswith("rule")):
                if key in asp:
                    lines.append(f"  {aspect_name(key)}: {asp[key]}")
        return lines

    def _since_last_turn(self, view) -> list:
        """What happened since this seat's last decision in this phase of this deal (tricks and their
        takers, or who played and passed to a layout)."""
        last = self.last_view
        unit = phase_of(view)
        same = last is not None and last.deal_number == view.deal_number and phase_of(last) is unit
        return unit.news(view, last if same else None)

    def _table(self, view, unit=None) -> None:
        unit = unit or phase_of(view)
        n = view.players
        self.say()
        for line in self._since_last_turn(view):
            self.say(line)
        if unit.contract_known:
            for line in self._contract_lines(view):
                self.say(line)
        else:
            self.say(
                tr("Deal {number}{of}: the contract is still to be chosen.").format(
                    number=view.deal_number, of=self._deals_in_match()
                )
            )
        self.say(tr("Dealer {seat}").format(seat=seat_name(view.dealer, n)))
        for line in panel_lines(view, self.rules):
            self.say(line)
        self.say(
            tr("Points this deal: ")
            + "  ".join(f"{seat_name(s, n)} {p:+d}" if p else f"{seat_name(s, n)} 0" for s, p in enumerate(view.scores))
        )
        if self.totals is not None or view.deal_number == 1:
            totals = self.totals or (0,) * n
            self.say(
                tr("Match totals:     ")
                + "  ".join(f"{seat_name(s, n)} {t:+d}" if t else f"{seat_name(s, n)} 0" for s, t in enumerate(totals))
            )
        self.say(tr("Your hand ({seat}):").format(seat=seat_name(view.seat, n)))
        for line in hand_lines(view.hand, view.trump, self._order(view, unit)):
            self.say(line)

    def _order(self, view, unit):
        """The rank order of the contract being played (None: the usual one, or no ruleset given)."""
        return self.contract_of(view).order if self.rules is not None and unit.contract_known else None

    # -- decisions -----------------------------------------------------------------------------
    def act(self, view) -> int:
        try:
            with using(None, self._words()):  # the ruleset's own sentences in its words
                return self._act(view)
        finally:
            self.last_view = view

    def _words(self) -> dict:
        return self.rules.words if self.rules is not None else {}

    def _act(self, view) -> int:
        """Show the table and the phase's choices, then read until a legal action is typed."""
        unit = phase_of(view)
        self._table(view, unit)
        forced = unit.forced(view)
        if forced is not None:
            self.say(forced[1])
            return forced[0]
        for line in unit.advice(view, self.rules) + unit.menu(view, self.rules):
            self.say(line)
        default = unit.default(view)
        shown = (
            tr(" [Enter: {label}]").format(label=unit.label(view, default, self.rules)) if default is not None else ""
        )
        prompt = f"{unit.prompt(view, self.rules)}{shown}> "
        while True:
            text = self.ask(prompt)
            if not text and default is not None:
                return default
            if text.lower() in ("last", "?", tr("last")):
                self.say(unit.previous(view))
                continue
            if text.lower() in ("rules", tr("rules")) and unit.contract_known:
                for line in self._contract_lines(view, full=True):
                    self.say(line)
                continue
            try:
                action = unit.read(view, text, self.rules)
            except NotUnderstood as e:
                self.say(str(e))
                continue
            if action in view.legal:
                return action
            self.say(unit.refusal(view, text, action, self._reason(view, action), self.rules))
