"""Whole deals of random legal play in one call, written out from the plan (for simulation).

The step-by-step deal states serve players that think; a simulation of thousands of matches
with random play needs no views and no per-step calls from outside. For a trick contract the
plan (``plan.Plan``) says what the compiled engines play from (``Plan.tables``: the tables the
compiled core is made from); ``compile_tricks`` writes those tables out in Python as a
closure that plays a whole deal on per-suit 13-bit masks — no third engine, the plan's Python
rendering, where no core is built and for the heuristic player's whole deals. Which cards
are legal is the plan's legality kernel's (``legality.py``, shared with the step-by-step
state): its programs by trick number and hearts broken, as per-suit masks; scoring that
depends only on the trick number is the plan's table, and card penalties are counted once at
the end with popcounts over the cards each seat took. The play itself is a kernel written out
from those tables per trump and direction (``trickgen``); a player's ``choose`` function can
pick the cards instead of random draws (the heuristic player's whole-deal path). Which plans
the kernels play is the plan's own decision (``Plan.fast_kernel_reason``: the suit led or
the winning card read by a rule, as must-overtake; the cards played; dynamic scoring; a rank
order are left to the core or the interpreter — the same results). A layout contract has a
kernel of its own (``compile_layout``); the plan does not cover layouts.

After a call, ``play.ended[0]`` says how the deal ended: ``EARLY`` (the contract's early stop:
nothing left to score), ``BLOCKED`` (a layout where nobody could play) or 0 (played out).

Random protocol: the draw module's (``draws``): ``draw(n)`` of 32 random bits, the k-th legal
card in suit, then rank order (written out in the hot loops: ``draws.INLINED``).
"""

from __future__ import annotations

from typing import Callable, Optional

from ..cards import fill_suit_cards
from .actions import PASS
from .draws import pass_choices

RANKS = tuple(map(fill_suit_cards()[0].__getitem__, range(8192)))  # suit 0's card ids are its ranks
POP = tuple(len(t) for t in RANKS)
FULL13 = 8191
EARLY, BLOCKED = 1, 2  # values of ``play.ended[0]``


def _rule_tables(tables) -> tuple:
    """(lead, follow, discard) tables of the plan's legality programs by ``2 * trick number +
    hearts broken`` (``plan.Tables.by_trick``: the plan's gate has found them), each entry a
    program as ``(per-suit masks kept, True)`` pairs (the form ``trickgen`` writes out; an
    empty list where no rule ever applies)."""
    out = []
    for table in tables.by_trick():
        table = [tuple((keeps, True) for _, _, _, keeps in prog) for prog in table]
        out.append(table if any(table) else [])
    return tuple(out)


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


def compile_tricks(plan, players: int, tricks: int, deck: int) -> Callable:
    """The fast path of a trick contract's ``plan`` (``plan.Plan``), written from the plan's
    tables alone (``Plan.tables``, the ones the compiled core is made from) for a plan whose
    gate leaves it to the kernels (``Plan.fast_kernel_reason`` is None: ``contract.fast_player``
    asks)."""
    trumps = plan.trumps
    tables = {t: plan.tables(players, tricks, t, deck) for t in trumps}
    tabs: dict = {t: _rule_tables(tables[t]) for t in trumps}  # per trump
    seat_scorers = tables[trumps[0]].seat_scorers
    passing = plan.passing
    plans = {}
    for t, got in tables.items():
        trick_points, card_tables = got.points, got.cards
        final = []  # card penalties counted at the end: (mask, points)
        per_trick = []  # card penalties that depend on the trick number
        for m, pts in card_tables:
            values = set(pts[1 : tricks + 1])
            if len(values) == 1:
                final.append((m, values.pop()))
            else:
                per_trick.append((m, pts))
        tp = list(trick_points)
        # for the early stop (as ``TrickDeal.points_left``), from trick n on: any trick points
        # still to come, and the cards that still carry points
        rest = [0] * (tricks + 2)
        penalty = [0] * (tricks + 2)
        for n in range(tricks, 0, -1):
            rest[n] = rest[n + 1] or (1 if tp[n] else 0)
            penalty[n] = penalty[n + 1]
            for m, pts in card_tables:
                if pts[n]:
                    penalty[n] |= m
        plans[t] = (tp if any(tp) else None, final, per_trick, rest, tuple(penalty))
    # the plan's early end is the early stop here (its gate leaves no end condition to the kernels)
    # seat scoring may change a score whatever is left (``TrickDeal.points_left``): never early
    early = tables[trumps[0]].early and not seat_scorers
    ended = [0]
    kernels: dict = {}

    def kernel(trump: int, direction: int, log: bool, choose: bool = False):
        """The kernel of this trump and direction; ``choose``: one whose cards a player's
        ``choose`` function picks (``trickgen``), not random draws."""
        key = (trump, direction, log, choose)
        got = kernels.get(key)
        if got is None:
            from .trickgen import build

            got = kernels[key] = build(
                players,
                tricks,
                deck,
                trump,
                direction,
                plans[trump],
                tabs[trump],
                early,
                seat_scorers,
                log,
                ended,
                choose,
            )
        return got

    def play(hands, leader, trump, grb, direction=1, number=1, lead_of=None, dealer=0, caller=-1, log=None):
        """``lead_of(hands)`` gives the first leader after cards are passed (e.g. holder(2C));
        ``log``, a list, receives every card played in order (for the differential test).
        The play itself is a kernel written for this contract, trump and direction
        (``trickgen``)."""
        if passing is not None:
            offset = passing.offset(number, players)
            if offset:
                hands = _pass_cards(hands, passing.count, offset * direction, players, grb)
                if lead_of is not None:
                    leader = lead_of(hands)
        got = kernels.get((trump, direction, log is not None, False)) or kernel(trump, direction, log is not None)
        return got(hands, leader, grb, dealer, caller, log)

    play.ended = ended  # type: ignore[attr-defined]  # the fast path's callers read how the deal ended
    play.kernel = kernel  # type: ignore[attr-defined]  # ... and build the kernels a player picks cards in
    return play


def _pass_cards(hands: list, count: int, offset: int, players: int, grb) -> list:
    """Every seat passes ``count`` random cards to the seat ``offset`` places on, at once (drawn
    as the draw protocol says: ``draws.pass_choices``)."""
    given = [sum(1 << c for c in picks) for picks in pass_choices(hands, [count] * len(hands), grb)]
    return exchange(hands, given, offset, players)


def exchange(hands: list, given: list, offset: int, players: int) -> list:
    """The hands once every seat has passed the cards ``given[seat]`` (masks) to the seat
    ``offset`` places on."""
    return [(hands[s] & ~given[s]) | given[(s - offset) % players] for s in range(players)]


def compile_layout(contract, players: int) -> Optional[Callable]:
    """The fast path of a layout contract, or None when its rules need the interpreter."""
    if contract.doubling is not None:
        return None
    if (
        not contract.must_play
        or contract.start_rank is None
        or contract.free_passes
        or contract.pass_cost
        or contract.pass_fine
        or contract.again_optional
        or contract.first_card is not None
    ):  # the general interpreter plays these
        return None
    opening, adds = contract.tables()
    prizes = contract.prizes
    places = len(prizes)
    again = contract.again
    ended = [0]

    def play(hands, leader, trump, grb, direction=1, log=None, choose=None):
        """``choose(legal, hand)``, when given, picks the card (as a bit) instead of a draw;
        ``log``, a list, receives every action in order (a card, or ``PASS`` of a seat that
        has none to play)."""
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
                    if choose is not None:
                        bit = choose(legal, h)
                    else:
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
                    if log is not None:  # the seat on turn passes: it has no card to play
                        log.append(PASS)
                    idle += 1
                    if idle >= active:
                        ended[0] = BLOCKED
                        return scores
            p = (p + direction) % players

    play.ended = ended  # type: ignore[attr-defined]  # the fast path's callers read how the deal ended
    return play
