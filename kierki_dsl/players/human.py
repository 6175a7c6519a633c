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

from ..cards import SUIT_NAMES, SUIT_SYMBOLS, CardError, card_pretty, parse_card
from ..interpreter.actions import (DONE, DOUBLE_BASE, EXPOSE_BASE, NO_TRUMP, PASS, REDOUBLE_BASE, IllegalAction, call,
                                   called_suit, is_bet, is_call)
from ..rankorder import rank_key
from ..report import seat_name
from .base import Player, PlayerQuit, register_player
from .typed import read_card, read_suit


class HumanQuit(PlayerQuit):
    """The person ended the input (Ctrl-D / end of file): the match stops as on Ctrl-C."""


HELP = "Type a card such as QS, 10h, q♠, ♦8 or h5, or its number from the list ('last' shows the previous trick)."


def hand_lines(hand: int, trump: int = -1, order=None) -> list:
    """The hand by suit, highest card first (by the contract's rank ``order``); the trump suit is marked."""
    out = []
    rank = rank_key(order)
    for s in range(4):
        cards = sorted((c for c in range(s * 13, s * 13 + 13) if hand >> c & 1), key=rank, reverse=True)
        if cards:
            mark = "   ← trumps" if s == trump else ""
            out.append(f"  {SUIT_SYMBOLS[s]} " + " ".join(card_pretty(c)[:-1] for c in cards) + mark)
    return out


def declaration_text(made, players: int) -> str:
    """``N marriage (+100, trumps ♥)`` for a view's ``(seat, name, points, suit)``."""
    seat, name, points, suit = made
    what = [f"{points:+d}"] if points else []
    if suit >= 0:
        what.append(f"trumps {SUIT_SYMBOLS[suit]}")
    return f"{seat_name(seat, players)} {name}" + (f" ({', '.join(what)})" if what else "")


def trick_text(plays, players: int) -> str:
    """``N 4♣, E 9♣, ...`` for ``(seat, card)`` pairs."""
    return ", ".join(f"{seat_name(s, players)} {card_pretty(c)}" for s, c in plays)


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
        if last is None or last.deal_number != number or last.layout is not None or not plays:
            return
        line = self._final_trick(last, [str(p) for p in plays])
        if line:
            self.say()
            self.say(line)

    def _final_trick(self, view, plays: list) -> Optional[str]:
        """The last trick of a deal (with its taker), from this seat's last decision in it."""
        n = view.players
        if view.phase != "play" or view.trick_number != view.tricks_total or view.hand.bit_count() != 1:
            return None
        seats, s = [], view.trick[0][0] if view.trick else view.seat
        for _ in range(n):
            seats.append(s)
            s = (s + view.direction) % n
        try:
            cards = [read_card(p) for p in plays[-n:]]
            hands = [0] * n
            for seat, c in zip(seats, cards):
                if all(seat != t for t, _ in view.trick):
                    hands[seat] |= 1 << c
            st = self.contract_of(view).from_view(view, hands)
            for c in cards[len(view.trick):]:
                st.apply_action(c)
            _, trick, winner = st.completed[-1]
        except (CardError, IllegalAction, IndexError, KeyError, ValueError):  # no usual ending: nothing to show
            return None
        return f"Last trick ({view.trick_number}): {trick_text(trick, n)} — taken by {seat_name(winner, n)}"

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

    def _passing_line(self, view) -> str:
        """'Pass 3 cards to W: card 2 of 3' — where the cards go and how many are chosen."""
        passing = self.contract_of(view).passing
        n = view.players
        to = (view.seat + view.direction * passing.offset(view.deal_number, n)) % n
        chosen = view.hand_sizes[view.seat] - view.hand.bit_count() if view.hand_sizes else 0
        return f"Pass {passing.count} cards to {seat_name(to, n)}: card {chosen + 1} of {passing.count}"

    def _reason(self, view, action: int) -> Optional[str]:
        """The rule an action breaks, from the view and the rules alone."""
        from ..interpreter.reasons import illegal_reason

        name = view.contract
        contract = self.rules.contracts.get(name) if self.rules is not None else None
        return illegal_reason(view, action, contract) if contract is not None or view.options else None

    # -- showing the table ---------------------------------------------------------------------
    def _deals_in_match(self) -> str:
        if self.match_length is not None or not self.length_known:
            return f" of {self.match_length}" if self.match_length else ""
        rs = self.rules
        if rs is None or rs.until is not None:
            return ""
        return f" of {len(rs.schedule) * rs.series}"

    def _contract_lines(self, view) -> list:
        c = self.contract_of(view)
        title = f"{c.pl} — {c.en}" if c.en else c.pl
        lines = [f"Deal {view.deal_number}{self._deals_in_match()}: {title}"]
        if self.rules is not None and c.name in self.rules.specs:
            from ..explain import aspects

            asp = aspects(self.rules, c.name)
            for key in ("scoring", "lead ban", "trumps") + tuple(k for k in asp if k.startswith("rule")):
                if key in asp:
                    lines.append(f"  {key}: {asp[key]}")
        return lines

    def _since_last_turn(self, view) -> list:
        """Tricks finished since this seat's last decision (with their takers), or in a layout
        deal who played and who passed since then."""
        n = view.players
        last = self.last_view
        same_deal = last is not None and last.deal_number == view.deal_number and last.phase == view.phase
        if view.layout is None:
            seen = len(last.completed) if same_deal else 0
            return [f"Trick {i + 1}: {trick_text(plays, n)} — taken by {seat_name(w, n)}"
                    for i, (_, plays, w) in enumerate(view.completed) if i >= seen]
        if not same_deal or not last.hand_sizes or view.ply <= last.ply + 1:  # nobody else moved (an extra turn)
            return []
        new = view.played & ~last.played
        moved = []
        s = last.seat
        for _ in range(n - 1):
            s = (s + view.direction) % n
            if last.hand_sizes[s] == 0:
                continue
            k = last.hand_sizes[s] - view.hand_sizes[s]
            moved.append(f"{seat_name(s, n)} " + ("passed" if k == 0 else f"played {k} card{'s' if k > 1 else ''}"))
        if not moved:
            return []
        cards = " ".join(card_pretty(c) for c in range(52) if new >> c & 1 and not last.hand >> c & 1)
        return ["Since your last turn: " + ", ".join(moved) + (f"; new on the table: {cards}" if cards else "")]

    def _table(self, view) -> None:
        n = view.players
        self.say()
        for line in self._since_last_turn(view):
            self.say(line)
        if view.received and getattr(self, "_exchange_shown", None) != view.deal_number:
            self._exchange_shown = view.deal_number  # said once a deal, at the first turn after it
            self.say(f"You passed {' '.join(card_pretty(c) for c in view.passed)} to {seat_name(view.passed_to, n)}; "
                     f"you received {' '.join(card_pretty(c) for c in view.received)}.")
        for line in self._contract_lines(view):
            self.say(line)
        trump = "none" if view.trump < 0 else SUIT_NAMES[view.trump]
        if view.caller >= 0:
            trump += f" (called by {seat_name(view.caller, n)})"
        if view.layout is None and view.phase == "play":
            of = "" if view.drawn else f" of {view.tricks_total}"  # with a stock the number of tricks varies
            self.say(f"Dealer {seat_name(view.dealer, n)} · trumps: {trump} · trick {view.trick_number}{of}")
            self.say(f"Trick so far: {trick_text(view.trick, n) or '(you lead)'}")
            if view.declarations:
                self.say("Declared: " + ", ".join(declaration_text(d, n) for d in view.declarations))
            if view.drawn:
                self._stock_lines(view)
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
        if self.totals is not None or view.deal_number == 1:
            totals = self.totals or (0,) * n
            self.say("Match totals:     " + "  ".join(f"{seat_name(s, n)} {t:+d}" if t else f"{seat_name(s, n)} 0"
                                                      for s, t in enumerate(totals)))
        self.say(f"Your hand ({seat_name(view.seat, n)}):")
        for line in hand_lines(view.hand, view.trump, self._order(view)):
            self.say(line)

    def _stock_lines(self, view) -> None:
        """The stock's size, every seat's cards and draws, and the cards this seat drew."""
        n = view.players
        self.say(f"Stock: {view.stock} card{'s' if view.stock != 1 else ''} · cards held: "
                 + ", ".join(f"{seat_name(s, n)} {k}" + (f" (drew {d})" if d else "")
                             for s, (k, d) in enumerate(zip(view.hand_sizes, view.drawn))))
        shown = getattr(self, "_drew_shown", (None, 0))
        since = len(view.drew) - shown[1] if shown[0] == view.deal_number else len(view.drew)
        if since > 0:
            self.say(f"You drew {' '.join(card_pretty(c) for c in view.drew[-since:])} from the stock.")
        self._drew_shown = (view.deal_number, len(view.drew))

    def _show_last_trick(self, view) -> None:
        if view.layout is None and view.completed:
            _, plays, w = view.completed[-1]
            self.say(f"Previous trick ({len(view.completed)}): {trick_text(plays, view.players)} — "
                     f"taken by {seat_name(w, view.players)}")
        else:
            self.say("No trick has been finished yet in this deal.")

    def _order(self, view):
        """The rank order of the contract being played (None: the usual one, or no ruleset given)."""
        return self.contract_of(view).order if self.rules is not None and view.phase != "choose" else None

    # -- decisions -----------------------------------------------------------------------------
    def act(self, view) -> int:
        try:
            return self._act(view)
        finally:
            self.last_view = view

    def _act(self, view) -> int:
        legal = list(view.legal)
        if view.phase == "choose":
            return self._choose(view, legal)
        self._table(view)
        if view.phase == "auction":
            return self._auction(view, legal)
        if view.phase == "expose":
            return self._expose(view, legal)
        if view.phase == "exchange":
            return self._exchange(view, legal)
        if is_call(legal[0]):
            return self._call(view, legal)
        if is_bet(legal[-1]):
            return self._bet(view, legal)
        if legal == [PASS]:
            self.say("You have nothing to play: you pass.")
            return PASS
        what = "a card to pass" if view.phase == "pass" else "your card"
        if view.phase == "pass":
            self.say(self._passing_line(view))
        rank = rank_key(self._order(view))
        options = sorted((a for a in legal if a != PASS), key=lambda c: (c // 13, -rank(c)))
        self.say("Legal: " + "  ".join(f"{i}) {card_pretty(c)}" for i, c in enumerate(options, start=1))
                 + ("  or 'pass'" if PASS in legal else ""))
        default = options[0] if len(options) == 1 and PASS not in legal else None
        prompt = f"{what} [Enter: {card_pretty(default)}]> " if default is not None else f"{what}> "
        while True:
            text = self.ask(prompt)
            if not text and default is not None:
                return default
            if text.lower() in ("last", "?"):
                self._show_last_trick(view)
                continue
            action, problem = self._parse(text, options, view)
            if problem:
                self.say(problem)
                continue
            if action in legal:
                return action
            if action < 52 and not view.hand >> action & 1:
                self.say(f"you do not hold {card_pretty(action)}")
                continue
            reason = self._reason(view, action)
            shown = card_pretty(action) if action < 52 else text
            self.say(f"{shown} is not allowed: {reason or 'not legal now'}")

    @staticmethod
    def _parse(text: str, options: list, view) -> tuple:
        """(action, None) for a card, a list number or 'pass'; (None, why not) otherwise."""
        t = text.strip()
        if not t:
            return None, HELP
        if t.lstrip("-").isdigit():
            k = int(t)
            if 1 <= k <= len(options):
                return options[k - 1], None
            span = "1" if len(options) == 1 else f"1 to {len(options)}"
            return None, f"{t} is not on the list: the legal cards are numbered {span}"
        if t.lower() == "pass":
            if view.layout is None:
                return None, "there is no passing in this deal: play a card"
            return PASS, None
        try:
            return read_card(t), None
        except CardError:
            return None, HELP

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
                a = call(read_suit(t))
            except CardError:
                self.say("Type a suit (S, H, D, C, ♠, hearts, kiery...) or its number.")
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
        if DONE not in legal:
            contract = self.rules.contracts.get(view.contract) if self.rules is not None else None
            if contract is not None and contract.doubling is not None and contract.doubling.duty_every:
                self.say("You owe a player doubles under the duty to double every player, and the deals he deals "
                         "are running out: you may not say done yet.")
            else:
                self.say(f"You owe the dealer ({seat_name(view.dealer, n)}) a double: you must double him in one "
                         "of his deals left, and this is the last chance to keep that duty.")
        self.say("Bets: " + "  ".join(f"{i}) {words(a)}" for i, a in enumerate(legal, start=1)))
        while True:
            t = " ".join(self.ask("bet> ").strip().lower().split())
            if t.isdigit() and 1 <= int(t) <= len(legal):
                return legal[int(t) - 1]
            for a in legal:
                if t in (words(a).lower(), words(a).lower().replace("double ", "d ").replace("red ", "r ")):
                    return a
            self.say("Type a number from the list, 'double E', 'redouble N' or 'done'.")

    def _exchange(self, view, legal) -> int:
        """A widow's taker gives a card (or lays one aside); a refused card is told why."""
        n = view.players
        contract = self.rules.contracts.get(view.contract) if self.rules is not None else None
        rule = contract.widow if contract is not None else None
        done = len(view.exchanged)
        to = rule.recipient(view.seat, done, n, view.direction) if rule is not None else -1
        self.say("You took the widow: " + " ".join(card_pretty(c) for c in view.widow) + ".")
        if view.exchanged:
            self.say("So far: " + ", ".join(f"{card_pretty(c)} to {seat_name(t, n)}" if t >= 0
                                            else f"{card_pretty(c)} laid aside" for c, t in view.exchanged))
        what = f"a card to give to {seat_name(to, n)}" if to >= 0 else "a card to lay aside"
        options = sorted(legal, key=lambda c: (c // 13, -(c % 13)))
        self.say("Legal: " + "  ".join(f"{i}) {card_pretty(c)}" for i, c in enumerate(options, start=1)))
        while True:
            t = self.ask(f"{what}> ").strip()
            if t.isdigit() and 1 <= int(t) <= len(options):
                return options[int(t) - 1]
            try:
                card = parse_card(t)
            except CardError:
                self.say("Type a number from the list or a card such as KH.")
                continue
            if card in legal:
                return card
            verb = "give" if to >= 0 else "lay aside"
            self.say(f"You cannot {verb} {t}: {self._reason(view, card) or 'not allowed now'}.")

    def _expose(self, view, legal) -> int:
        """Expose a card (doubling its cost to whoever takes it) or say done; a refused choice is told why."""
        from ..interpreter.actions import expose
        from ..interpreter.reasons import illegal_reason

        n = view.players
        if view.exposed:
            self.say("Exposed so far: " + ", ".join(f"{seat_name(s, n)} {card_pretty(c)}" for s, c in view.exposed))
        self.say("Exposing a card doubles what it costs whoever takes it; you gain its value once if someone "
                 "else takes it.")
        words = ["done" if a == DONE else f"expose {card_pretty(a - EXPOSE_BASE)}" for a in legal]
        self.say("Choices: " + "  ".join(f"{i}) {w}" for i, w in enumerate(words, start=1)))
        while True:
            t = self.ask("expose> ").strip()
            if t.isdigit() and 1 <= int(t) <= len(legal):
                return legal[int(t) - 1]
            if t.lower() == "done":
                return DONE
            try:
                action = expose(parse_card(t.split()[-1]))
            except (ValueError, IndexError):
                self.say("Type a number from the list, a card such as KH, or 'done'.")
                continue
            if action in legal:
                return action
            self.say(f"You cannot expose {t}: {illegal_reason(view, action, self.contract_of(view))}.")

    def _auction(self, view, legal) -> int:
        """Bid a number from the list of bids allowed, or pass (a seller: accept, refuse or
        decline); a refused choice is told why."""
        from ..interpreter.actions import SELLER_WORDS, bid, bid_value, is_bid, parse_action
        from ..interpreter.bidding import history_word

        n = view.players
        if view.auction:
            self.say("Auction so far: " + ", ".join(f"{seat_name(s, n)} {history_word(v)}" for s, v in view.auction))
        if PASS not in legal:
            return self._sell(view, legal)
        contract = self.rules.contracts.get(view.contract) if self.rules is not None else None
        again = contract is not None and contract.auction is not None and contract.auction.again
        values = [bid_value(a) for a in legal if is_bid(a)]
        standing = f"the bid standing is {view.bid} by {seat_name(view.bidder, n)}" if view.bidder >= 0 else "no bid yet"
        passing = "a player who passes may bid again later" if again else "a player who passes is out"
        self.say(f"You bid for the right to play this deal ({standing}); {passing}.")
        if view.bidder >= 0 and view.bid in values:
            self.say(f"You speak before {seat_name(view.bidder, n)}, so you may match the bid standing.")
        one_bids = contract is not None and contract.auction is not None and 1 in contract.auction.levels()
        word = "pass" if one_bids else "1) pass"  # "1" is the bid 1 where 1 can be bid
        shown = f"{values[0]}, {values[1]}, … {values[-1]}" if len(values) > 3 else ", ".join(map(str, values))
        self.say(f"Bids: {shown}  or  {word}" if values else f"You can only pass: {word}")
        while True:
            t = self.ask("bid> ").strip().lower()
            if t.isdigit() and len(t) <= 6 and bid(int(t)) in legal:
                return bid(int(t))
            if t in ("pass", "p") or (t == "1" and not one_bids):
                return PASS
            if t.isdigit() and len(t) <= 6:
                action = bid(int(t))
                reason = self._reason(view, action)
                self.say(f"{t} is not allowed: {reason or 'not a bid allowed now'}")
                continue
            if t in SELLER_WORDS.values():
                self.say(f"You cannot {t}: {self._reason(view, parse_action(t)) or 'not allowed now'}.")
                continue
            self.say("Type a bid from the list, or 'pass'.")

    def _sell(self, view, legal) -> int:
        """An auction's seller: accept the best offer, refuse it (and play), or decline the deal."""
        from ..interpreter.actions import ACCEPT, SELLER_WORDS, parse_action

        n = view.players
        offer = f"the best offer is {view.bid} by {seat_name(view.bidder, n)}" if view.bidder >= 0 else "nobody bid"
        self.say(f"You sell the right to play this deal: {offer}.")
        meaning = {"accept": "sell at the best offer", "refuse": "play the deal yourself, nothing paid",
                   "decline": "do not play the deal: it ends at its fixed scores"}
        self.say("  ".join(f"{i}) {SELLER_WORDS[a]} ({meaning[SELLER_WORDS[a]]})" for i, a in enumerate(legal, 1)))
        while True:
            t = self.ask("decide> ").strip().lower()
            if t.isdigit() and 1 <= int(t) <= len(legal) and len(t) <= 3:
                return legal[int(t) - 1]
            if t in SELLER_WORDS.values():
                action = parse_action(t)
                if action in legal:
                    return action
                self.say(f"You cannot {t}: {self._reason(view, action) or 'not allowed now'}.")
                continue
            self.say("Type a number from the list, or accept, refuse or decline." if ACCEPT in legal
                     else "Type a number from the list, or refuse or decline.")

    def _choose(self, view, legal) -> int:
        from ..interpreter.actions import CHOOSE_BASE

        self.say()
        self.say(f"Deal {view.deal_number}{self._deals_in_match()}: you choose the contract. Your hand:")
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
