"""Whole deals of random legal play in one call, compiled from a contract (for simulation).

The step-by-step deal states serve players that think; a simulation of thousands of matches
with random play needs no views and no per-step calls from outside. ``compile_fast`` turns
a compiled contract into a closure that plays a whole deal on per-suit 13-bit masks. Which
cards are legal is the legality kernel's (``legality.py``, shared with the step-by-step
state): its programs by trick number and hearts broken, applied to per-suit masks; scoring
that depends only on the trick number becomes a table, and card penalties are counted once
at the end with popcounts over the cards each seat took. Contracts whose rules read more of
the state (the suit led or the winning card, as must-overtake; the cards played; dynamic
scoring; bets) return None and are played by the general interpreter instead — the same
results, slower.

After a call, ``play.ended[0]`` says how the deal ended: ``EARLY`` (the contract's early stop:
nothing left to score), ``BLOCKED`` (a layout where nobody could play) or 0 (played out).

Random protocol: ``draw(n) = (getrandbits(32) * n) >> 32``, the k-th legal card in suit,
then rank order.
"""
from __future__ import annotations

from typing import Callable, Optional

from .legality import DISCARD, FOLLOW, LEAD, narrow_suit, narrow_suits
from .trickkernel import add_seat_scores

RANKS = tuple(tuple(r for r in range(13) if m >> r & 1) for m in range(8192))
POP = tuple(len(t) for t in RANKS)
FULL13 = 8191
EARLY, BLOCKED = 1, 2  # values of ``play.ended[0]``


def _pick(m0: int, m1: int, m2: int, m3: int, grb) -> tuple:
    """(suit, rank) of the k-th card, k = draw(count), over four per-suit 13-bit masks."""
    c0, c1, c2 = POP[m0], POP[m1], POP[m2]
    k = (grb(32) * (c0 + c1 + c2 + POP[m3])) >> 32
    if k < c0:
        return 0, RANKS[m0][k]
    k -= c0
    if k < c1:
        return 1, RANKS[m1][k]
    k -= c1
    if k < c2:
        return 2, RANKS[m2][k]
    return 3, RANKS[m3][k - c2]


def compile_fast(contract, players: int, tricks: int, deck: int) -> Optional[Callable]:
    """The contract's whole-deal player ``play(hands, leader, trump, grb, direction, ...) -> scores``,
    or None (each deal type compiles its own: ``contract.fast_player``)."""
    return contract.fast_player(players, tricks, deck)


def compile_tricks(contract, players: int, tricks: int, deck: int) -> Optional[Callable]:
    """The fast path of a trick contract, or None when its rules need the interpreter."""
    if contract.doubling is not None:  # bets are decisions: the interpreter plays them
        return None
    if contract.end_when is not None or not contract.follow_suit:
        return None
    trumps = contract.call.choices if contract.call is not None else (contract.trump,)
    tables = {t: contract.tables(tricks, t, players) for t in trumps}
    if any(dyn for _, _, dyn in tables.values()):
        return None
    rules = {}  # per trump: the legality kernel's programs by (trick, hearts broken), per phase
    for t in trumps:
        kernel = contract.legality(tricks, t, deck)
        rules[t] = tuple(kernel.by_trick(phase) for phase in (LEAD, FOLLOW, DISCARD))
        if None in rules[t]:
            return None  # the rules read more than the trick number and hearts broken

    seat_scorers = [s for s in contract.scorers if s.kind == "seat"]
    passing = contract.passing
    plans = {}
    for t, (trick_points, card_tables, _) in tables.items():
        final = []  # card penalties counted at the end: (mask, points)
        per_trick = []  # card penalties that depend on the trick number
        for m, pts in card_tables:
            values = set(pts[1 : tricks + 1])
            if len(values) == 1:
                final.append((m, values.pop()))
            else:
                per_trick.append((m, pts))
        tp = list(trick_points)
        rest = [0] * (tricks + 2)  # any trick points still to come from trick n on
        for n in range(tricks, 0, -1):
            rest[n] = rest[n + 1] or (1 if tp[n] else 0) or (1 if any(p[n] for _, p in per_trick) else 0)
        penalty = 0
        for m, _ in final + per_trick:
            penalty |= m
        plans[t] = (tp if any(tp) else None, final, per_trick, rest, penalty)
    early = contract.early_stop
    step = 1
    orders = [[((leader + step * i) % players) * 4 for i in range(players)] for leader in range(players)]
    ended = [0]

    def play(hands, leader, trump, grb, direction=1, number=1, lead_of=None, dealer=0, caller=-1, log=None):
        """``lead_of(hands)`` gives the first leader after cards are passed (e.g. holder(2C));
        ``log``, a list, receives every card played in order (for the differential test)."""
        tp, final, per_trick, rest, penalty = plans[trump]
        lead_tab, follow_tab, discard_tab = rules[trump]
        ended[0] = 0
        order = orders if direction == 1 else [[((ld - i) % players) * 4 for i in range(players)] for ld in range(players)]
        if passing is not None:
            offset = passing.offset(number, players)
            if offset:
                hands = _pass_cards(hands, passing.count, offset * direction, players, grb)
                if lead_of is not None:
                    leader = lead_of(hands)
        hs = []
        for h in hands:
            hs.extend((h & FULL13, h >> 13 & FULL13, h >> 26 & FULL13, h >> 39 & FULL13))
        scores = [0] * players
        taken = [0] * players
        won = [0] * players
        left = deck
        broken = 0
        for n in range(1, tricks + 1):
            seats = order[leader]
            b = seats[0]
            m0, m1, m2, m3 = hs[b], hs[b + 1], hs[b + 2], hs[b + 3]
            prog = lead_tab[2 * n + broken]
            if prog:
                m0, m1, m2, m3 = narrow_suits(m0, m1, m2, m3, prog, n)
            s, r = _pick(m0, m1, m2, m3, grb)
            hs[b + s] ^= 1 << r
            if log is not None:
                log.append(13 * s + r)
            led = s
            tm = 1 << (13 * s + r)
            best, win, trumped = r, b, False
            for fb in seats[1:]:
                m = hs[fb + led]
                if m:
                    prog = follow_tab[2 * n + broken]
                    if prog:
                        m = narrow_suit(m, led, prog, n)
                    c = POP[m]
                    r = RANKS[m][(grb(32) * c) >> 32] if c > 1 else RANKS[m][0]
                    hs[fb + led] ^= 1 << r
                    tm |= 1 << (13 * led + r)
                    if log is not None:
                        log.append(13 * led + r)
                    if not trumped and r > best:
                        best, win = r, fb
                    continue
                m0, m1, m2, m3 = hs[fb], hs[fb + 1], hs[fb + 2], hs[fb + 3]
                prog = discard_tab[2 * n + broken]
                if prog:
                    m0, m1, m2, m3 = narrow_suits(m0, m1, m2, m3, prog, n)
                s, r = _pick(m0, m1, m2, m3, grb)
                hs[fb + s] ^= 1 << r
                tm |= 1 << (13 * s + r)
                if log is not None:
                    log.append(13 * s + r)
                if s == trump and (not trumped or r > best):
                    best, win, trumped = r, fb, True
            w = win >> 2
            if tp is not None:
                scores[w] += tp[n]
            taken[w] |= tm
            won[w] += 1
            if tm >> 13 & FULL13:
                broken = 1
            if per_trick:
                for pm, pts in per_trick:
                    if tm & pm:
                        scores[w] += (tm & pm).bit_count() * pts[n]
            leader = w
            if early:
                left &= ~tm
                if not rest[n + 1] and not left & penalty:
                    ended[0] = EARLY
                    break
        for pm, p in final:
            for seat in range(players):
                got = taken[seat] & pm
                if got:
                    scores[seat] += got.bit_count() * p
        if seat_scorers:
            add_seat_scores(scores, seat_scorers, dealer, players, caller, trump, won, tricks, taken, deck)
        return scores

    play.ended = ended
    return play


def _pass_cards(hands: list, count: int, offset: int, players: int, grb) -> list:
    """Every seat passes ``count`` random cards to the seat ``offset`` places on, at once."""
    given = []
    kept = []
    for h in hands:
        g = 0
        for _ in range(count):
            n = (h & ~g).bit_count()
            k = (grb(32) * n) >> 32
            m = h & ~g
            while k:
                m &= m - 1
                k -= 1
            g |= m & -m
        given.append(g)
        kept.append(h & ~g)
    return [kept[s] | given[(s - offset) % players] for s in range(players)]


def compile_layout(contract, players: int) -> Optional[Callable]:
    """The fast path of a layout contract, or None when its rules need the interpreter."""
    if contract.doubling is not None:
        return None
    if (not contract.must_play or contract.start_rank is None or contract.free_passes or contract.pass_cost
            or contract.pass_fine or contract.again_optional):  # the general interpreter plays these
        return None
    opening, adds = contract.tables()
    prizes = contract.prizes
    places = len(prizes)
    again = contract.again
    ended = [0]

    def play(hands, leader, trump, grb, direction=1, log=None):
        ended[0] = 0
        H = list(hands)
        P = opening
        scores = [0] * players
        out = 0
        p = leader
        idle = 0
        active = sum(1 for h in H if h)
        while True:
            h = H[p]
            if h:
                legal = h & P
                if legal:
                    idle = 0
                    n = legal.bit_count()
                    if n > 1:
                        k = (grb(32) * n) >> 32
                        while k:
                            legal &= legal - 1
                            k -= 1
                    bit = legal & -legal
                    if log is not None:
                        log.append(bit.bit_length() - 1)
                    h ^= bit
                    H[p] = h
                    P = (P ^ bit) | adds[bit.bit_length() - 1]
                    if not h:
                        if out < places:
                            scores[p] += prizes[out]
                        out += 1
                        active -= 1
                        if out >= places:
                            return scores
                        if active == 1:
                            last = next(s for s in range(players) if H[s])
                            if out < places:
                                scores[last] += prizes[out]
                            return scores
                    elif bit & again:  # an extra turn
                        continue
                else:
                    idle += 1
                    if idle >= active:
                        ended[0] = BLOCKED
                        return scores
            p = (p + direction) % players

    play.ended = ended
    return play
