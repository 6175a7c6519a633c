"""``search``: determinised Monte Carlo over the compiled rules (works for any ruleset).

For each decision it deals the unseen cards at random *consistently with what is public* —
every seat gets as many cards as it holds, and a seat that showed out of a suit gets none of
it — then plays every candidate action out to the end of the deal on the same sampled deals
(common random numbers) and picks the one with the best average own score. Rollouts use the
real rules (``from_view`` + ``clone``), so variants and other games need nothing extra: card
play of a contract the compiled step core carries runs on it (``stepper.deal_from_view``, the
same draws and results as the interpreter), anything else on the interpreter. In rollouts
every seat follows a rule of thumb read from the contract's scoring tables (duck
where tricks cost, win cheaply where they pay, throw the dearest card when void), with one
move in four at random.

Strength/time knob: ``search:64`` plays 64 sampled deals per decision (reproducible for a
seed); ``search:0.2s`` samples for that long (not reproducible, as it depends on speed). The
default, 24 samples, takes well under a second per decision on a 2-core machine.

Bets are searched too: each candidate (double a seat, redouble one, or done) is settled at the
end of the sampled, played-out deals, assuming nobody bets after it; once play starts,
rollouts settle the bets made. Auction bids are searched the same way: passing and the lowest
few bids allowed are each played out on sampled deals, assuming everybody else passes after
it (the winner's trump call, if any, by the heuristic's rule, and an auction's seller deciding
as the heuristic does; with passing cards before the auction, the sampled hands are those after
it). A seller weighs accept, refuse and decline the same way. The auction is continued from what the view
shows (who bid what, who passed), never replayed on a sampled deal, so a first bidder that
depends on hidden cards is the real one. Trump calls, passes and contract choices are left to
the heuristic player (searching trump calls by playing out whole sampled deals was tried and
measured no stronger on the ladder: −5 ± 75 points in the positive part over 40 seeds).
"""

from __future__ import annotations

import time
from typing import Optional

from ..cards import SUIT_MASK, card_list
from ..interpreter.stepper import deal_from_view
from ..phases import UNITS, phase_of
from .base import WithFallback, register_player, thinking_budget
from .sampling import deal_out, draws

DEFAULT_SAMPLES = 24
#: Seconds a decision with a sample count may take at most: a ruleset whose rules make each
#: playout slow (dozens of long restrictions) stops sampling there instead of taking minutes.
#: Normal rulesets stay far below it, so a seeded match is reproducible; ``stats["capped"]``
#: counts the decisions that hit it.
TIME_CAP = 5.0


@register_player
class SearchPlayer(WithFallback):
    name = "search"

    def __init__(self, setting: str = "") -> None:
        super().__init__()
        count, self.seconds = thinking_budget("search", setting, "a sample count", 100_000)
        self.samples = count or DEFAULT_SAMPLES
        self.cap = TIME_CAP
        self.stats = {"decisions": 0, "playouts": 0, "seconds": 0.0, "capped": 0}

    def act(self, view) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        unit = phase_of(view)
        got = self._candidate_totals(view, unit)
        if got is None:  # a phase not searched: the heuristic's rule of thumb
            return self.fallback.act(view)
        return best_of(got[0], unit.search_tie)

    def averages(self, view) -> Optional[dict]:
        """Each candidate action's own score averaged over the sampled, played-out deals — what
        ``act`` chooses by (the same samples: the same values ``act`` compares) — or None when
        ``search`` does not search the actions of the view's phase."""
        got = self._candidate_totals(view, phase_of(view))
        if got is None:
            return None
        totals, n = got
        return {a: t / max(1, n) for a, t in totals.items()}

    def _candidate_totals(self, view, unit) -> Optional[tuple]:
        """``(totals, samples)`` of the phase's search candidates (``_totals``), or None: no
        candidates searched in that phase."""
        candidates = unit.search_candidates(view)
        if candidates is None:
            return None
        contract = self.contract_of(view)

        def sample(rng):  # the deal as the view shows it, on sampled hidden hands
            return deal_from_view(contract, view, sample_hands(view, rng))

        def take(st, action):  # the candidate, then every phase before card play by its rule
            unit.search_try(st, view, action)
            before_play(st)

        return self._totals(view, candidates, sample, take)

    def _totals(self, view, legal, sample, apply) -> tuple:
        """``(totals, samples)``: each legal action's own score summed over the states
        ``sample(rng)`` draws, the action taken by ``apply(state, action)`` and the deal played
        out, and how many states were drawn."""
        rng = self.rng(view)
        start = time.perf_counter()
        totals = dict.fromkeys(legal, 0)
        n = 0
        me = view.seat
        while True:
            if self.seconds:
                if n and time.perf_counter() - start >= self.seconds:
                    break
            elif n >= self.samples or (n and time.perf_counter() - start >= self.cap):
                break  # the samples asked for, or the time cap of a pathological ruleset
            base = sample(rng)
            for a in legal:
                st = base.clone()
                apply(st, a)
                st.playout(rng)
                totals[a] += st.scores[me]
            n += 1
        self.stats["decisions"] += 1
        self.stats["capped"] += int(not self.seconds and n < self.samples)
        self.stats["playouts"] += n * len(legal)
        self.stats["seconds"] += time.perf_counter() - start
        return totals, n


def best_of(totals: dict, tie=None) -> int:
    """The action of the highest total; among equal totals the highest ``tie(action)`` (by
    default the lowest action)."""
    return max(totals, key=lambda a: (totals[a], tie(a) if tie else -a))


def before_play(st) -> None:
    """Play the phases left before card play on a rollout's state, each by its phase's
    ``rollout_action`` (after an auction: everybody else passes, the winner calls trumps by the
    heuristic's rule, nobody doubles, unless a duty says so, or exposes); the state is then
    ready for a playout."""
    while True:
        unit = UNITS.get(str(st.phase))  # the phase registered under the state's phase
        action = unit.rollout_action(st) if unit is not None else None
        if action is None:
            return
        st.apply_action(action)


def public_voids(view) -> list:
    """Per seat, a 4-bit mask of the suits it has shown it does not hold."""
    void = [0] * view.players
    tricks = [t for _, t, _ in view.completed] + ([view.trick] if view.trick else [])
    for t in tricks:
        led = t[0][1] // 13
        for seat, card in t[1:]:
            if card // 13 != led:
                void[seat] |= 1 << led
    return void


def caller_trumps_needed(view) -> int:
    """Trumps the caller must still hold for a sample to agree with his call.

    He named trumps after seeing his first cards; a caller naming his longest suit among five
    cards held at least two of it, so his hand now plus the trumps he has played since must
    come to two (none is required when he chose no trumps or when the caller is this seat).
    """
    if view.caller < 0 or view.caller == view.seat or view.trump < 0:
        return 0
    played = 0
    for _, t, _ in view.completed:
        played += sum(1 for s, c in t if s == view.caller and c // 13 == view.trump)
    played += sum(1 for s, c in view.trick if s == view.caller and c // 13 == view.trump)
    return max(0, 2 - played)


def sample_hands(view, rng) -> list:
    """The other seats' hands drawn at random, consistent with sizes, shown voids and the call
    (with a stock to draw from, the cards left over are the stock's)."""
    need_trumps = caller_trumps_needed(view)
    for _ in range(16):
        hands = _sample(view, rng)
        if not need_trumps or (hands[view.caller] & SUIT_MASK[view.trump]).bit_count() >= need_trumps:
            return hands
    return hands


def _sample(view, rng) -> list:
    me, n = view.seat, view.players
    trick_mask = 0
    for _, c in view.trick:
        trick_mask |= 1 << c
    lying = 0  # cards out of every hand that the view shows (a face-up widow not yet taken, cards laid aside)
    held: dict = {}  # card -> the seat the view shows holds it (a card passed, exposed, given by a widow's taker)
    out = 0  # how many cards lie out of every hand unseen (a stock, a face-down widow, discards)
    void = public_voids(view)
    for unit in UNITS.values():
        lying |= unit.out_of_hands(view)
        for s, c in unit.shown_held(view):
            held.setdefault(c, s)
        out += unit.out_unseen(view)
        for s in unit.voids_undone(view):  # a seat that drew from a stock may hold a suit it showed out of
            void[s] = 0
    unseen = card_list(view.deck & ~view.hand & ~view.played & ~trick_mask & ~lying)
    sizes = list(view.hand_sizes)
    stock = n  # the cards no seat holds (a stock, a face-down widow, discards): one more place, of their number

    by_suit: dict = {}  # (suit, ignore_voids) -> the places of any other card of the suit

    def able(card, ignore_voids):
        if card in held:  # a card the view shows with a seat is still with it
            return [held[card]]
        key = (card // 13, ignore_voids)
        places = by_suit.get(key)
        if places is None:
            places = by_suit[key] = [
                s for s in range(n + 1) if s != me and (s == stock or ignore_voids or not void[s] >> key[0] & 1)
            ]
        return places

    room = [0 if s == me else sizes[s] for s in range(n)]
    # the cards no seat holds: a stock, a widow laid aside, and any other unseen card out of play
    # (a phase added by a module that takes cards out of the hands before play)
    room.append(max(out, len(unseen) - sum(room)))
    hands = deal_out(unseen, room, able, draws(rng))
    if hands is None:  # pragma: no cover - the last try ignores voids and always fits
        hands = [0] * (n + 1)
    hands[me] = view.hand
    return hands[:n]


__all__ = ["SearchPlayer", "sample_hands", "public_voids", "caller_trumps_needed"]
