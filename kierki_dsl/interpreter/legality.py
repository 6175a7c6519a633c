"""Which cards a hand may play in a trick deal, written once: the step-by-step deal state,
the whole-deal fast path (``fastplay``) and the bots (through the state) all ask this kernel.

A contract's play restrictions are compiled, once per (tricks, trump, deck), into
*programs*: for one situation (leading, following the suit led, or unable to follow) the
restrictions that apply there, in order, each as ``(keep mask, fallback, rule, keep mask
per suit)`` (the last for players that hold hands as four 13-bit masks, as ``fastplay``). The legal
cards are then the hand (or its cards of the suit led) narrowed by the program: each rule
keeps ``legal & keep``, unless that leaves nothing and the rule falls back (``fallback``,
the default) — a rule without fallback that leaves nothing is a located run-time error.

A program depends on what its rules read (``scopes.PLAY_WHEN``): the trick number, whether
hearts are broken, the cards already played (only the cards the rules count: a compiled
expression knows what it ``seen``), the suit led, the card winning the trick, the hand. The
first three change once a trick: ``Legality.at`` gives a trick's programs, memoised on what
the rules read of them, so a deal state asks once per trick and then only ANDs masks. Rules
that read the winning card are memoised per winning card, rules that read the hand are
evaluated per decision (``live``).
"""

from __future__ import annotations

from typing import Optional

from ..cards import FULL_DECK, SUIT_MASK, SUIT_NAMES, card_list, fill_suit_cards
from ..expr import RuleRuntimeError
from ..i18n import R_
from .envs import play_env

LEAD, FOLLOW, DISCARD = 0, 1, 2
PHASES = ("lead", "follow", "discard")
_NUMBER_NAMES = {"trick.number", "trick.is_first", "trick.is_last"}
#: Cards the play rules never count: a position's programs are keyed on none of its played cards.
NOTHING = 0


class Legality:
    """The play restrictions of one contract for (tricks, trump, deck), as programs."""

    def __init__(self, contract, tricks: int, trump: int, deck: int) -> None:
        self.follow_suit = contract.follow_suit
        self.tricks, self.trump, self.deck = tricks, trump, deck
        self.rules = tuple(tuple(r for r in contract.restrictions if r.phase in (p, "any")) for p in PHASES)
        reads: list = [set() for _ in PHASES]
        played = NOTHING
        for phase, rules in enumerate(self.rules):
            for r in rules:
                for part in (r.when, r.cards):
                    if part is None:
                        continue
                    names = set(getattr(part, "free", ())) | set(getattr(part, "keys", ()))
                    reads[phase] |= names
                    if "played" in names:
                        played |= part.seen.get("played", FULL_DECK)
        every = set().union(*reads)
        self.played_seen = played  # the played cards any rule counts
        self.number_read = "trick.number" in every
        self.first_last_read = bool(every & {"trick.is_first", "trick.is_last"})
        self.broken_read = "hearts_broken" in every
        #: per phase: its programs depend on the hand (worked out per decision) / on the winning card
        self.per_decision = tuple("hand" in r for r in reads)
        self.per_card = tuple("winning" in r for r in reads)
        self.led_read = tuple("led_suit" in r or "winning" in r for r in reads)
        self.all_fallback = all(r.fallback for rules in self.rules for r in rules)
        # when a deal must ask ``at`` again: a trick took ``watched`` cards, or the trick number
        # changes what the rules see (every trick, or on reaching ``turning``)
        self.every_trick = self.number_read
        self.turning = frozenset((2, tricks)) if self.first_last_read else frozenset()
        self._memo: dict = {}
        self._live: dict = {}
        self._cards = fill_suit_cards()

    # -- programs -------------------------------------------------------------------------
    def key(self, number: int, broken: bool, played: int) -> tuple:
        """What the rules read of a trick's situation: equal keys, equal programs."""
        if self.number_read:
            n = number
        elif self.first_last_read:
            n = (number == 1) + 2 * (number == self.tricks)
        else:
            n = 0
        return n, broken and self.broken_read, played & self.played_seen

    def watched(self, broken: bool, played: int) -> int:
        """The cards whose play in a trick may change the next trick's programs (beyond the
        trick number): hearts until broken, the counted played cards not played yet."""
        return (SUIT_MASK[1] if self.broken_read and not broken else 0) | (self.played_seen & ~played)

    def at(self, number: int, broken: bool, played: int) -> list:
        """The programs of trick ``number`` (``broken``: hearts broken before it; ``played``:
        the cards of the finished tricks) as ``[lead, [follow by led suit], [discard by led
        suit]]``; an entry is None until first asked for (``program_for``), and stays None
        where it depends on the winning card or the hand (then ``live`` works it out)."""
        key = self.key(number, broken, played)
        progs = self._memo.get(key)
        if progs is None:
            if len(self._memo) > 4096:
                self._memo.clear()
            progs = self._memo[key] = [None, [None] * 4, [None] * 4]
        return progs

    def program(self, phase: int, env: dict) -> tuple:
        """The program of ``phase`` in the situation of ``env`` (a ``play_env``)."""
        out = []
        for r in self.rules[phase]:
            if r.when is not None and not r.when(env):
                continue
            pm = r.cards.mask(env)
            keep = pm if r.require else FULL_DECK & ~pm
            out.append((keep, r.fallback, r, tuple(keep >> (13 * s) & 8191 for s in range(4))))
        return tuple(out)

    def program_for(self, progs: list, phase: int, led: int, st) -> tuple:
        """The program of ``phase`` (led suit ``led``) in the position of deal state ``st``,
        filling ``progs`` (from ``at``) where it holds for the whole trick."""
        if self.per_decision[phase]:
            return self.program(phase, st.play_env())
        if self.per_card[phase]:
            env = st.play_env()
            key = (phase, self.key(env["trick.number"], env["hearts_broken"], env["played"]), led, env["winning"])
            prog = self._live.get(key)
            if prog is None:
                if len(self._live) > 4096:
                    self._live.clear()
                prog = self._live[key] = self.program(phase, env)
            return prog
        prog = self.program(phase, st.play_env())
        if phase == LEAD:
            progs[LEAD] = prog
        else:
            progs[phase][led] = prog
        return prog

    # -- the legal cards --------------------------------------------------------------------
    def situation(self, hand: int, led: int) -> tuple:
        """(phase, the cards the rules narrow) of a hand: the suit led must be followed."""
        if led < 0:
            return LEAD, hand
        suited = hand & SUIT_MASK[led]
        if not suited:
            return DISCARD, hand
        return FOLLOW, suited if self.follow_suit else hand

    def mask(self, hand: int, led: int, progs: list, number: int, st) -> int:
        """The legal cards of ``hand`` with ``led`` the suit led (-1: leading) in trick
        ``number``, ``progs`` the trick's programs (``at``), ``st`` the deal state (read only
        when a program depends on more than the trick: ``st.play_env()``)."""
        phase, legal = self.situation(hand, led)
        prog = progs[LEAD] if phase == LEAD else progs[phase][led]
        if prog is None:
            prog = self.program_for(progs, phase, led, st)
        return narrow(legal, prog, number) if prog else legal

    def legal(self, hand: int, led: int, progs: list, number: int, st) -> tuple:
        """``(mask, card ids)`` of the legal cards, as ``mask`` gives them (the ids a tuple,
        ascending: one table lookup per suit)."""
        if led >= 0:
            if self.follow_suit:
                shift = 13 * led
                ranks = hand >> shift & 8191
                if ranks:
                    prog = progs[FOLLOW][led]
                    if prog is None:
                        prog = self.program_for(progs, FOLLOW, led, st)
                    if prog:
                        ranks = narrow_suit(ranks, led, prog, number)
                    return ranks << shift, self._cards[led][ranks]
                prog = progs[DISCARD][led]
                if prog is None:
                    prog = self.program_for(progs, DISCARD, led, st)
            else:
                legal = self.mask(hand, led, progs, number, st)
                return legal, card_list(legal)
        else:
            prog = progs[LEAD]
            if prog is None:
                prog = self.program_for(progs, LEAD, led, st)
        if prog:
            hand = narrow(hand, prog, number)
        s0, s1, s2, s3 = self._cards
        return hand, s0[hand & 8191] + s1[hand >> 13 & 8191] + s2[hand >> 26 & 8191] + s3[hand >> 39]

    def reason(self, hand: int, led: int, progs: list, number: int, st, card: int) -> Optional[str]:
        """The rule that makes ``card`` (held in ``hand``) illegal, in words, or None."""
        if led >= 0 and self.follow_suit and hand & SUIT_MASK[led] and not SUIT_MASK[led] >> card & 1:
            return R_("you must follow {suit}").format(suit=SUIT_NAMES[led])
        phase, legal = self.situation(hand, led)
        prog = progs[LEAD] if phase == LEAD else progs[phase][led]
        if prog is None:
            prog = self.program_for(progs, phase, led, st)
        return narrow(legal, prog, number, card)

    def by_trick(self, phase: int) -> Optional[list]:
        """For a player that tracks only the trick number and hearts broken (``fastplay``):
        the programs of ``phase`` by ``2 * trick number + hearts broken``, or None when they
        read more (the suit led, the played cards, the winning card, the hand) or a rule has
        no fallback (its error needs the interpreter). A rule that fails to evaluate in some
        trick (division by zero) leaves it to the interpreter too: a deal that stops early
        never reaches the trick, and one that does reports the error where it happens."""

        if (
            self.per_decision[phase]
            or self.per_card[phase]
            or self.led_read[phase]
            or self.played_seen
            or not self.all_fallback
        ):
            return None
        table = [()] * (2 * self.tricks + 4)
        try:
            for n in range(1, self.tricks + 1):
                for broken in (0, 1):
                    env = play_env(-1, self.trump, -1, n, self.tricks, bool(broken), 0, self.deck, 0)
                    table[2 * n + broken] = self.program(phase, env)
        except RuleRuntimeError:
            return None
        return table


def narrow(legal: int, program: tuple, number: int, card: int = -1):
    """``legal`` narrowed by ``program`` in trick ``number``; with ``card``, instead the reason
    of the first rule that takes ``card`` away (None if none does)."""
    for keep, fallback, rule, _ in program:
        m = legal & keep
        if m or not fallback:
            if not m and legal:
                raise rule.leaves_nothing(number)
            if card >= 0 and legal >> card & 1 and not m >> card & 1:
                return rule.reason
            legal = m
    return None if card >= 0 else legal


def narrow_suits(m0: int, m1: int, m2: int, m3: int, program: tuple, number: int) -> tuple:
    """``narrow`` of a hand held as four per-suit 13-bit masks (spades first)."""
    for _, fallback, rule, (k0, k1, k2, k3) in program:
        a0, a1, a2, a3 = m0 & k0, m1 & k1, m2 & k2, m3 & k3
        if a0 | a1 | a2 | a3:
            m0, m1, m2, m3 = a0, a1, a2, a3
        elif not fallback:
            if m0 | m1 | m2 | m3:
                raise rule.leaves_nothing(number)
            m0 = m1 = m2 = m3 = 0
    return m0, m1, m2, m3


def narrow_suit(m: int, suit: int, program: tuple, number: int) -> int:
    """``narrow`` of the 13-bit mask ``m`` of cards of one ``suit`` (following it)."""
    for _, fallback, rule, keeps in program:
        a = m & keeps[suit]
        if a or not fallback:
            if not a and m:
                raise rule.leaves_nothing(number)
            m = a
    return m


__all__ = ["Legality", "narrow", "narrow_suits", "narrow_suit", "LEAD", "FOLLOW", "DISCARD", "PHASES"]
