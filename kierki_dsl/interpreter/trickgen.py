"""Whole-deal trick kernels written out per contract, trump and direction (for simulation).

``fastplay.compile_tricks`` reads a trick contract's plan's tables (``plan.Plan.tables``:
legality per trick and hearts-broken, scoring per trick number); this module turns them
into the Python source of a loop specialised to it and compiles that once: the followers
unrolled for the number of players, a rule that is the same in every trick written in as
constant masks, a fixed trump compared as a constant, and no bookkeeping the scoring does
not read (no taken cards in a deal scored by tricks alone, no hearts-broken flag where no
rule asks). A second kernel of the same plan also logs every card (``log=True``, for the
differential test); the plain one carries no such check. A third lets a player's
``choose`` function pick every card among the legal ones instead of a random draw
(``choose=True``: the heuristic player's whole-deal path, ``players/heuristic.py``).

The source is made of this module's own text and integers only (masks, points, seat
numbers), never of text from a ruleset, so compiling it runs nothing a user wrote. Same
random protocol as ``fastplay``: a lead or a discard draws among all its legal cards, a
follow draws only when there is a choice.
"""

from __future__ import annotations

from .draws import BELOW

FULL13 = 8191
EARLY = 1  # ``fastplay.EARLY``: the deal stopped when nothing was left to score


def _constant(table, tricks: int):
    """The single entry of a rule table used in every trick (the same whether hearts are
    broken or not), else None."""
    entries = {table[i] for i in range(2, 2 * tricks + 2)}
    return entries.pop() if len(entries) == 1 else None


def _effective(rules) -> list:
    """Per rule, the four per-suit masks a hand is ANDed with (a ban as its complement)."""
    return [tuple(int(m) if req else FULL13 ^ int(m) for m in masks) for masks, req in rules]


class _Writer:
    def __init__(self):
        self.lines: list = []

    def __call__(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def _narrow4(w, d: int, table, const, name: str, at: str) -> None:
    """Narrow the four masks ``m0..m3`` by a lead or discard table (entry ``at``), each rule
    yielding when it would leave nothing (``legality.narrow_suits``)."""
    if const is not None:
        for eff in _effective(const):
            _narrow_constant(w, d, eff)
        return
    w(d, f"for masks, req in {name}[{at}]:")
    w(d + 1, "if req:")
    w(d + 2, "a0, a1, a2, a3 = m0 & masks[0], m1 & masks[1], m2 & masks[2], m3 & masks[3]")
    w(d + 1, "else:")
    w(d + 2, "a0, a1, a2, a3 = m0 & ~masks[0], m1 & ~masks[1], m2 & ~masks[2], m3 & ~masks[3]")
    w(d + 1, "if a0 | a1 | a2 | a3:")
    w(d + 2, "m0, m1, m2, m3 = a0, a1, a2, a3")


def _narrow_constant(w, d: int, eff: tuple) -> None:
    """One rule as constant per-suit masks: only the suits it narrows are written (a suit it
    bans wholly becomes 0), and they change only when some card is left."""
    changed = [i for i in range(4) if eff[i] != FULL13]
    if not changed:
        return
    for i in changed:
        if eff[i]:
            w(d, f"a{i} = m{i} & {eff[i]}")
    left = " | ".join(f"a{i}" if i in changed else f"m{i}" for i in range(4) if i not in changed or eff[i])
    w(d, f"if {left or 0}:")
    w(d + 1, "; ".join(f"m{i} = a{i}" if eff[i] else f"m{i} = 0" for i in changed))


def _pick4(w, d: int, base: str, count: str) -> None:
    """``j, r`` = the slot and rank of the k-th card of the four masks ``hs[base..base+3]``,
    k = draw(count), lowest suit and rank first (``fastplay._pick``); ``count`` is an
    expression of the number of cards (``held``: every card the seat holds)."""
    w(d, "k = " + BELOW.format(n=count))
    w(d, f"j = {base}; m = hs[j]; c = POP[m]")
    w(d, "while k >= c:")
    w(d + 1, "k -= c; j += 1; m = hs[j]; c = POP[m]")
    w(d, "r = RANKS[m][k]")
    w(d, "hs[j] = m ^ (1 << r)")


def _choose4(w, d: int, table, const, name: str, base: str, at: str) -> None:
    """Draw a lead or a discard from the seat's slots at ``base``: from every card it holds
    when no rule narrows the choice, else from ``m0..m3`` narrowed."""
    if not table or const == ():
        _pick4(w, d, base, "held")
        return
    w(d, f"m0 = hs[{base}]; m1 = hs[{base} + 1]; m2 = hs[{base} + 2]; m3 = hs[{base} + 3]")
    _narrow4(w, d, table, const, name, at)
    w(d, "c0 = POP[m0]; c1 = POP[m1]; c2 = POP[m2]")
    w(d, "k = " + BELOW.format(n="(c0 + c1 + c2 + POP[m3])"))
    w(d, "if k < c0:")
    w(d + 1, f"j = {base}; r = RANKS[m0][k]")
    w(d, "elif k < c0 + c1:")
    w(d + 1, f"j = {base} + 1; r = RANKS[m1][k - c0]")
    w(d, "elif k < c0 + c1 + c2:")
    w(d + 1, f"j = {base} + 2; r = RANKS[m2][k - c0 - c1]")
    w(d, "else:")
    w(d + 1, f"j = {base} + 3; r = RANKS[m3][k - c0 - c1 - c2]")
    w(d, "hs[j] ^= 1 << r")


def _hand(base: str) -> str:
    """The whole hand of the seat whose slots start at ``base``, as one mask."""
    return f"hs[{base}] | hs[{base} + 1] << 13 | hs[{base} + 2] << 26 | hs[{base} + 3] << 39"


def _win(trump: int) -> str:
    """The card winning the trick so far."""
    return f"({13 * trump} + best if trumped else s13 + best)" if trump >= 0 else "s13 + best"


def _chosen4(w, d: int, table, const, name: str, base: str, trick: str, at: str) -> None:
    """``j, r`` = the slot and rank of the card ``choose`` picks among the legal ones."""
    w(d, f"m0 = hs[{base}]; m1 = hs[{base} + 1]; m2 = hs[{base} + 2]; m3 = hs[{base} + 3]")
    hand = "m0 | m1 << 13 | m2 << 26 | m3 << 39"
    if table and const != ():
        w(d, f"hand = {hand}")
        _narrow4(w, d, table, const, name, at)
        hand = "hand"
    w(d, f"x = choose(m0 | m1 << 13 | m2 << 26 | m3 << 39, {hand}, n, {trick})")
    w(d, f"j = {base} + x // 13; r = x % 13")
    w(d, "hs[j] ^= 1 << r")


def source(
    players: int,
    tricks: int,
    trump: int,
    plan: tuple,
    tabs: tuple,
    early: bool,
    seat_scoring: bool,
    log: bool,
    choose: bool = False,
) -> str:
    """The text of ``kernel(hands, leader, grb, dealer, caller, log, choose)``: one deal's
    play, its per-seat points returned; ``ended[0]`` set to EARLY when the deal stopped early.
    With ``choose`` every card is ``choose(legal, hand, n, trick, win, led, last)`` (masks
    of the legal cards, the hand and the trick so far; the winning card, -1 on a lead; the
    suit led; whether the seat plays last) instead of a random draw."""
    tp, final, per_trick, rest, penalty = plan
    lead_tab, follow_tab, discard_tab = tabs
    lead_c = _constant(lead_tab, tricks) if lead_tab else ()
    discard_c = _constant(discard_tab, tricks) if discard_tab else ()
    follow_c = _constant(follow_tab, tricks) if follow_tab else ()
    broken_needed = any(
        t and any(t[2 * n] != t[2 * n + 1] for n in range(1, tricks + 1)) for t in (lead_tab, follow_tab, discard_tab)
    )
    at = "2 * n + broken" if broken_needed else "2 * n"  # a rule table's entry for this trick
    need_taken = bool(final or per_trick or seat_scoring)
    need_tm = need_taken or broken_needed or early or choose
    tp_const = None
    if tp is not None and len(set(tp[1 : tricks + 1])) == 1:
        tp_const = int(tp[1])
    trump = int(trump)
    w = _Writer()
    w(0, "def kernel(hands, leader, grb, dealer, caller, log, choose=None, RANKS=RANKS, POP=POP, FOLLOW=FOLLOW):")
    w(1, "ended[0] = 0")
    w(1, ", ".join(f"h{p}" for p in range(players)) + (",", "")[players > 1] + " = hands")
    w(
        1,
        "hs = ["
        + ", ".join(
            f"h{p} & {FULL13}, h{p} >> 13 & {FULL13}, h{p} >> 26 & {FULL13}, h{p} >> 39" for p in range(players)
        )
        + "]",
    )
    # the points counted trick by trick (trick points that vary, card penalties by trick number)
    # need ``scores`` before the loop; the others are added after it
    scores_early = (tp is not None and tp_const is None) or bool(per_trick)
    if scores_early:
        w(1, f"scores = [0] * {players}")
    need_won = tp_const is not None or seat_scoring  # the tricks won: read by the scoring only
    if need_won:
        w(1, f"won = [0] * {players}")
    if need_taken:
        w(1, f"taken = [0] * {players}")
    if broken_needed:
        w(1, "broken = 0")
    if early:
        w(1, "left = DECK")
    w(1, f"for n in range(1, {tricks + 1}):")
    d = 2
    w(d, "b = leader << 2")
    w(d, f"held = {tricks + 1} - n")
    if choose:
        _chosen4(w, d, lead_tab, lead_c, "LEAD", "b", "0, -1, -1, False", at)
    else:
        _choose4(w, d, lead_tab, lead_c, "LEAD", "b", at)
    w(d, "s = j - b")
    if log:
        w(d, "log.append(13 * s + r)")
    if need_tm:
        w(d, "s13 = 13 * s")
        w(d, "tm = 1 << (s13 + r)")
    w(d, "best = r; w = b")
    if trump >= 0:
        w(d, "trumped = False")
    followers = ", ".join(f"i{f}" for f in range(1, players))
    w(d, f"{followers}{',' if players == 2 else ''} = FOLLOW[j]")
    for f in range(1, players):
        i = f"i{f}"
        w(d, f"m = hs[{i}]")
        w(d, "if m:")
        if follow_tab:
            if follow_c is not None:
                for eff in _effective(follow_c):
                    w(d + 1, f"a = m & {eff}[s]")
                    w(d + 1, "if a:")
                    w(d + 2, "m = a")
            else:
                w(d + 1, f"for masks, req in FOLLOWRULES[{at}]:")
                w(d + 2, "a = m & masks[s] if req else m & ~masks[s]")
                w(d + 2, "if a:")
                w(d + 3, "m = a")
        if choose:
            w(d + 1, f"r = choose(m << s13, {_hand(i + ' - s')}, n, tm, {_win(trump)}, s, {f == players - 1}) - s13")
        else:
            w(d + 1, "c = POP[m]")
            w(d + 1, f"r = RANKS[m][{BELOW.format(n='c')}] if c > 1 else RANKS[m][0]")
        w(d + 1, f"hs[{i}] ^= 1 << r" if follow_tab or choose else f"hs[{i}] = m ^ (1 << r)")
        if need_tm:
            w(d + 1, "tm |= 1 << (s13 + r)")
        if log:
            w(d + 1, "log.append(13 * s + r)")
        w(d + 1, f"if r > best{' and not trumped' if trump >= 0 else ''}:")
        w(d + 2, f"best = r; w = {i}")
        w(d, "else:")
        w(d + 1, f"jb = {i} - s")
        if choose:
            _chosen4(w, d + 1, discard_tab, discard_c, "DISCARD", "jb", f"tm, {_win(trump)}, s, {f == players - 1}", at)
        else:
            _choose4(w, d + 1, discard_tab, discard_c, "DISCARD", "jb", at)
        if need_tm or log or trump >= 0:
            w(d + 1, "s2 = j - jb")
        if need_tm:
            w(d + 1, "tm |= 1 << (13 * s2 + r)")
        if log:
            w(d + 1, "log.append(13 * s2 + r)")
        if trump >= 0:
            w(d + 1, f"if s2 == {trump} and (not trumped or r > best):")
            w(d + 2, "best = r; w = jb; trumped = True")
    w(d, "leader = w >> 2")
    if need_won:
        w(d, "won[leader] += 1")
    if tp is not None and tp_const is None:
        w(d, "scores[leader] += TP[n]")
    if need_taken:
        w(d, "taken[leader] |= tm")
    if broken_needed:
        w(d, f"if tm >> 13 & {FULL13}:")
        w(d + 1, "broken = 1")
    for idx, _ in enumerate(per_trick):
        w(d, f"got = tm & PTM{idx}")
        w(d, "if got:")
        w(d + 1, f"scores[leader] += got.bit_count() * PTP{idx}[n]")
    if early:
        w(d, "left &= ~tm")
        # a deal that stops after its last trick was played out, not stopped early
        w(d, f"if n < {tricks} and not REST[n + 1] and not left & PENALTY[n + 1]:")
        w(d + 1, f"ended[0] = {EARLY}")
        w(d + 1, "break")
    # the points counted at the end, written out per seat (one list, no loop)
    per_seat = []
    for seat in range(players):
        terms = [f"scores[{seat}]"] if scores_early else []
        if tp_const is not None:
            terms.append(f"{tp_const} * won[{seat}]")
        terms += [f"(taken[{seat}] & {int(pm)}).bit_count() * {int(p)}" for pm, p in final]
        per_seat.append(" + ".join(terms) or "0")
    w(1, "scores = [" + ", ".join(per_seat) + "]")
    if seat_scoring:
        w(1, f"add_seat_scores(scores, SEAT_SCORERS, dealer, {players}, caller, {trump}, won, {tricks}, taken, DECK)")
    w(1, "return scores")
    return "\n".join(w.lines) + "\n"


def build(
    players: int,
    tricks: int,
    deck: int,
    trump: int,
    direction: int,
    plan: tuple,
    tabs: tuple,
    early: bool,
    seat_scorers: list,
    log: bool,
    ended: list,
    choose: bool = False,
):
    """Compile the kernel of one (trump, direction, log, choose) for this plan."""
    from .fastplay import POP, RANKS
    from .trickkernel import add_seat_scores

    tp, final, per_trick, rest, penalty = plan
    follow: list[tuple] = [()] * (4 * players)
    for leader in range(players):
        for s in range(4):
            follow[4 * leader + s] = tuple(((leader + direction * i) % players) * 4 + s for i in range(1, players))
    space = {
        "RANKS": RANKS,
        "POP": POP,
        "FOLLOW": tuple(follow),
        "ended": ended,
        "TP": tp,
        "REST": rest,
        "PENALTY": penalty,
        "LEAD": tabs[0],
        "FOLLOWRULES": tabs[1],
        "DISCARD": tabs[2],
        "DECK": deck,
        "SEAT_SCORERS": tuple(seat_scorers),
        "add_seat_scores": add_seat_scores,
    }
    for idx, (pm, pts) in enumerate(per_trick):
        space[f"PTM{idx}"] = pm
        space[f"PTP{idx}"] = tuple(pts)
    text = source(players, tricks, trump, plan, tabs, early, bool(seat_scorers), log, choose)
    exec(compile(text, f"<trick kernel t={trump} d={direction}>", "exec"), space)  # noqa: S102 - our own text
    return space["kernel"]
