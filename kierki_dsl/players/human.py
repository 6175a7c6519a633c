"""``human``: a person at the terminal plays a seat.

Each decision shows the contract and what it penalises or rewards, the trick so far with who
played what, the hand grouped by suit and sorted, the scores, and the legal cards numbered.
Cards are typed as ``QS``, ``10h``, ``q♠`` or by their number. An illegal card is refused
with the rule it breaks, taken from the ruleset, and the prompt comes back. Trump calls show
the cards seen so far; in a layout deal the rows are shown and a player with nothing legal
passes automatically.
"""
from __future__ import annotations

import sys
from typing import Optional

from ..cards import SUIT_NAMES, SUIT_SYMBOLS, CardError, card_pretty, parse_card, parse_suit
from ..interpreter.actions import DONE, DOUBLE_BASE, NO_TRUMP, PASS, REDOUBLE_BASE, call, called_suit, is_bet, is_call
from ..report import seat_name
from .base import Player, register_player


class HumanQuit(Exception):
    """The person ended the input (Ctrl-D / end of file): the match stops as on Ctrl-C."""


def hand_lines(hand: int) -> list:
    out = []
    for s in range(4):
        cards = [c for c in range(s * 13 + 12, s * 13 - 1, -1) if hand >> c & 1]
        if cards:
            out.append(f"  {SUIT_SYMBOLS[s]} " + " ".join(card_pretty(c)[:-1] for c in cards))
    return out


@register_player
class HumanPlayer(Player):
    name = "human"

    def __init__(self, setting: str = "", stdin=None, stdout=None, ruleset=None) -> None:
        self.inp = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.ruleset = self.rules = ruleset

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise HumanQuit()
        return line.strip()

    def _reason(self, view, action: int) -> Optional[str]:
        """The rule an action breaks, from the view and the rules alone."""
        from ..interpreter.reasons import illegal_reason

        name = view.contract
        contract = self.rules.contracts.get(name) if self.rules is not None else None
        return illegal_reason(view, action, contract) if contract is not None or view.options else None

    # -- showing the table ---------------------------------------------------------------------
    def _contract_lines(self, view) -> list:
        c = self.contract_of(view)
        title = f"{c.pl} — {c.en}" if getattr(c, "en", "") else c.pl
        lines = [f"Deal {view.deal_number}: {title}"]
        if self.ruleset is not None and getattr(c, "name", None) in getattr(self.ruleset, "specs", {}):
            from ..explain import aspects

            asp = aspects(self.ruleset, c.name)
            for key in ("scoring", "lead ban", "trumps") + tuple(k for k in asp if k.startswith("rule")):
                if key in asp:
                    lines.append(f"  {key}: {asp[key]}")
        return lines

    def _table(self, view) -> None:
        n = view.players
        self.say()
        for line in self._contract_lines(view):
            self.say(line)
        trump = "none" if view.trump < 0 else SUIT_NAMES[view.trump]
        if view.caller >= 0:
            trump += f" (called by {seat_name(view.caller, n)})"
        if view.layout is None and view.phase == "play":
            self.say(f"Dealer {seat_name(view.dealer, n)} · trumps: {trump} · trick {view.trick_number} of {view.tricks_total}")
            played = ", ".join(f"{seat_name(s, n)} {card_pretty(c)}" for s, c in view.trick) or "(you lead)"
            self.say(f"Trick so far: {played}")
        elif view.layout is not None:
            if view.opening_rank < 0:
                self.say("Layout: nothing played yet; the first card opens its row, and its rank opens every row")
            else:
                self.say(f"Layout: rows open with a {card_pretty(view.opening_rank)[:-1]}")
            for s, row in enumerate(view.layout):
                shown = "not open" if row is None else f"{card_pretty(row[0])} … {card_pretty(row[1])}"
                self.say(f"  {SUIT_SYMBOLS[s]} {shown}")
            self.say("Cards left: " + ", ".join(f"{seat_name(s, n)} {k}" for s, k in enumerate(view.hand_sizes)))
            if view.pool:
                self.say(f"Pool: {view.pool} points, for the next player to go out")
        self.say("Points this deal: " + "  ".join(f"{seat_name(s, n)} {p:+d}" if p else f"{seat_name(s, n)} 0"
                                                  for s, p in enumerate(view.scores)))
        self.say(f"Your hand ({seat_name(view.seat, n)}):")
        for line in hand_lines(view.hand):
            self.say(line)

    # -- decisions -----------------------------------------------------------------------------
    def act(self, view) -> int:
        legal = list(view.legal)
        if view.phase == "choose":
            return self._choose(view, legal)
        self._table(view)
        if is_call(legal[0]):
            return self._call(view, legal)
        if is_bet(legal[-1]):
            return self._bet(view, legal)
        if legal == [PASS]:
            self.say("You have nothing to play: you pass.")
            return PASS
        what = "a card to pass" if view.phase == "pass" else "your card"
        options = sorted((a for a in legal if a != PASS), key=lambda c: (c // 13, -(c % 13)))
        self.say("Legal: " + "  ".join(f"{i}) {card_pretty(c)}" for i, c in enumerate(options, start=1))
                 + ("  or 'pass'" if PASS in legal else ""))
        while True:
            text = self.ask(f"{what}> ")
            action = self._parse(text, options, PASS in legal)
            if action is None:
                self.say("Type a card such as QS, 10h or q♠, or its number from the list.")
                continue
            if action in legal:
                return action
            if action < 52 and not view.hand >> action & 1:
                self.say(f"you do not hold {card_pretty(action)}")
                continue
            reason = self._reason(view, action)
            self.say(f"{card_pretty(action) if action < 52 else text} is not allowed: {reason or 'not legal now'}")

    @staticmethod
    def _parse(text: str, options: list, may_pass: bool) -> Optional[int]:
        t = text.strip()
        if not t:
            return None
        if t.isdigit() and 1 <= int(t) <= len(options):
            return options[int(t) - 1]
        if t.lower() == "pass" and may_pass:
            return PASS
        try:
            return parse_card(t)
        except CardError:
            return None

    def _call(self, view, legal) -> int:
        names = ["no trumps" if called_suit(a) < 0 else SUIT_NAMES[called_suit(a)] for a in legal]
        self.say("You name trumps. Choices: " + ", ".join(f"{i}) {x}" for i, x in enumerate(names, start=1)))
        while True:
            t = self.ask("trumps> ").strip().lower()
            if t.isdigit() and 1 <= int(t) <= len(legal):
                return legal[int(t) - 1]
            if t in ("none", "no trumps", "nt") and NO_TRUMP in legal:
                return NO_TRUMP
            try:
                a = call(parse_suit(t))
            except Exception:
                self.say("Type a suit (S, H, D, C, ♠, hearts...) or its number.")
                continue
            if a in legal:
                return a
            self.say("That suit may not be called here.")

    def _bet(self, view, legal) -> int:
        n = view.players

        def words(a: int) -> str:
            if a == DONE:
                return "done"
            if a >= REDOUBLE_BASE:
                return f"redouble {seat_name(a - REDOUBLE_BASE, n)}"
            return f"double {seat_name(a - DOUBLE_BASE, n)}"

        if view.trump >= 0:
            self.say(f"Trumps: {SUIT_NAMES[view.trump]}")
        if view.bets:
            self.say("Bets so far: " + ", ".join(f"{seat_name(a, n)} {'redoubled' if f == 2 else 'doubled'} "
                                                 f"{seat_name(b, n)}" for a, b, f in view.bets))
        self.say("A double is a side bet that you outscore that player in this deal: the difference of "
                 "your two scores is paid, twice if redoubled.")
        self.say("Bets: " + "  ".join(f"{i}) {words(a)}" for i, a in enumerate(legal, start=1)))
        while True:
            t = " ".join(self.ask("bet> ").strip().lower().split())
            if t.isdigit() and 1 <= int(t) <= len(legal):
                return legal[int(t) - 1]
            for a in legal:
                if t in (words(a).lower(), words(a).lower().replace("double ", "d ").replace("red ", "r ")):
                    return a
            self.say("Type a number from the list, 'double E', 'redouble N' or 'done'.")

    def _choose(self, view, legal) -> int:
        from ..interpreter.actions import CHOOSE_BASE

        self.say()
        self.say(f"Deal {view.deal_number}: you choose the contract. Your hand:")
        for line in hand_lines(view.hand):
            self.say(line)
        opts = [(a, self.contract_of(view, view.options[a - CHOOSE_BASE])) for a in legal]
        self.say("Choices: " + ", ".join(f"{i}) {c.pl}" for i, (_, c) in enumerate(opts, start=1)))
        while True:
            t = self.ask("contract> ").strip()
            if t.isdigit() and 1 <= int(t) <= len(opts):
                return opts[int(t) - 1][0]
            for a, c in opts:
                if t.lower() in (c.name, c.pl.lower()):
                    return a
            self.say("Type the contract's number or name.")
