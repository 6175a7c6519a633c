"""The perfect-information solver in Python: the same search as the compiled ``_solve.c``
(read its header for the method), used when the extension is not built or ``KIERKI_NO_C=1``,
and the reference the compiled one is tested against (equal values).

``PyTables`` takes ``_solve.Tables``'s arguments and answers ``solve`` the same way:
``([(card, value), ...] for every legal card of the seat on turn, nodes searched)``, the value
being the points ``me`` takes from the position to the deal's end, ``me`` maximising and
every other seat minimising them.
"""

from __future__ import annotations

from ..cards import SUIT_MASK, card_list

INF = 1 << 60
#: The most a card's, trick's or sweep's points may be (``_solve.c``'s ``POINTS_MAX``).
POINTS_MAX = 1 << 40
HEARTS = SUIT_MASK[1]
LEAD, FOLLOW, DISCARD = 0, 1, 2
EXACT, LOWER, UPPER = 0, 1, 2


class PyTables:
    """A trick contract's tables for the solver (``_solve.Tables``'s arguments)."""

    def __init__(self, players, tricks, follow_suit, beats, trick_points, values, programs, classes, order) -> None:
        if not 2 <= players <= 8 or not 1 <= tricks <= 52:
            raise ValueError("players 2..8 and tricks 1..52 expected")
        self.players, self.tricks, self.follow_suit = players, tricks, bool(follow_suit)
        self.beats = tuple(beats)
        self.trick_points = tuple(trick_points)
        self.values = tuple(tuple(row) for row in values)
        self.programs = tuple(tuple(tuple(p) for p in phase) for phase in programs)
        self.classes = tuple(classes)
        self.order = tuple(tuple(s) for s in order)
        self.most, self.least, self.most_tp, self.least_tp = _bounds(self)
        #: The cards giving points in each trick (a sweep: one seat takes every trick of points).
        self.pointy = tuple(
            sum(1 << c for c in range(52) if row[c]) if 1 <= n <= tricks else 0 for n, row in enumerate(self.values)
        )
        self.canonical = _ranked_beats(self) and all(len(set(classes[13 * s : 13 * s + 13])) <= 4 for s in range(4))

    def solve(self, me, to_move, hands, trick_no, broken, trick, direction, limit=0, sweep=0, adj=()) -> tuple:
        """The value of every legal card of the seat on turn (see the module's docstring);
        ``(None, nodes)`` once more than ``limit`` (if > 0) positions were searched. ``sweep``
        and ``adj``: the sweep's state and what it adds for ``me`` (``_Search``)."""
        if not 0 <= sweep <= self.players + 1 or (sweep and len(adj) != self.players):
            raise ValueError("sweep: 0, 1 or 2 + a seat, with a value per seat, expected")
        if sweep and any(abs(a) > POINTS_MAX for a in adj):
            raise ValueError("sweep values: too large")
        s = _Search(self, me, list(hands), trick_no, bool(broken), trick, direction)
        s.sweep, s.adj = sweep, tuple(adj) if sweep else (0,) * self.players
        s.limit = limit
        legal = s.legal(to_move)
        reps = s.representatives(legal)
        lo, hi = s.value_range()
        try:
            value = {c: s.exact(to_move, c, lo, hi) for c in card_list(reps)}
        except _Stopped:
            return None, s.nodes
        out = []
        for c in card_list(legal):
            rep = c
            if not reps >> c & 1:  # the next lower representative of its class
                alive = s.alive()
                for d in self.order[c // 13]:
                    if d == c:
                        break
                    if alive >> d & 1 and reps >> d & 1:
                        rep = d
            out.append((c, value[rep]))
        return out, s.nodes


class _Stopped(Exception):
    """The node limit is reached."""


def _ranked_beats(t: PyTables) -> bool:
    """Whether each card's beaters are the higher cards of its suit and whole other suits
    (``_solve.c``'s ``ranked_beats``: then ranks among the unplayed cards say who beats whom)."""
    for suit, order in enumerate(t.order):
        if len(order) != 13:
            return False
        for i, c in enumerate(order):
            if t.beats[c] & SUIT_MASK[suit] != sum(1 << d for d in order[i + 1 :]):
                return False
            if any(t.beats[c] & SUIT_MASK[o] not in (0, SUIT_MASK[o]) for o in range(4) if o != suit):
                return False
    return True


def _bounds(t: PyTables) -> tuple:
    """From each trick number on: the most and the least a card can give its taker, the sums
    of the positive and of the negative trick points (``_solve.c``'s ``bounds``)."""
    rows = t.tricks + 2
    most, least = [[0] * 52 for _ in range(rows)], [[0] * 52 for _ in range(rows)]
    most_tp, least_tp = [0] * (rows + 1), [0] * (rows + 1)
    for n in range(rows - 1, -1, -1):
        tp = t.trick_points[n] if 1 <= n <= t.tricks else 0
        most_tp[n], least_tp[n] = most_tp[n + 1] + max(tp, 0), least_tp[n + 1] + min(tp, 0)
        for c in range(52):
            v = t.values[n][c] if 1 <= n <= t.tricks else 0
            later = n + 1 < rows
            most[n][c] = max(v, most[n + 1][c] if later else 0)
            least[n][c] = min(v, least[n + 1][c] if later else 0)
    return most, least, most_tp, least_tp


class _Search:
    """One solve: the position, searched by play and take-back. ``sweep``: 0 none to track
    (off, or two seats have taken points), 1 no points taken yet, 2 + s seat s has taken every
    trick of points so far; ``adj[s]``: what ``me`` gets at the deal's end if seat s took every
    one (``_solve.c``'s ``Search``)."""

    def __init__(self, t: PyTables, me, hands, trick_no, broken, trick, direction) -> None:
        n = t.players
        self.t, self.me, self.hands = t, me, hands
        self.next = [(p + direction) % n for p in range(n)]
        self.trick_no, self.broken = trick_no, broken
        self.trick = [tuple(p) for p in trick]
        self.led = self.win = -1
        for i, (_, c) in enumerate(self.trick):
            if i == 0:
                self.led, self.win = c // 13, c
            elif t.beats[self.win] >> c & 1:
                self.win = c
        self.nodes = self.limit = 0
        self.tt: dict = {}
        self.sweep, self.adj = 0, (0,) * n

    def sweep_range(self) -> tuple:
        """The least and the most the sweep can still add (0 included)."""
        if self.sweep == 0:
            return 0, 0
        ends = self.adj if self.sweep == 1 else (self.adj[self.sweep - 2],)
        return min(0, *ends), max(0, *ends)

    def next_sweep(self, trick_no: int, tm: int, winner: int) -> int:
        """The sweep's state after trick ``trick_no`` of cards ``tm`` went to ``winner``."""
        t = self.t
        if not self.sweep or (not t.trick_points[trick_no] and not tm & t.pointy[trick_no]):
            return self.sweep
        return 2 + winner if self.sweep in (1, 2 + winner) else 0

    def value_range(self) -> tuple:
        """The least and the most ``me`` can take from here (``_solve.c``'s ``value_range``)."""
        t, n, cards = self.t, self.trick_no, card_list(self.alive())
        lo, hi = self.sweep_range()
        return (
            t.least_tp[n] + sum(t.least[n][c] for c in cards) + lo,
            t.most_tp[n] + sum(t.most[n][c] for c in cards) + hi,
        )

    def key(self, seat: int) -> tuple:
        """The position's key at a trick's start (``_solve.c``'s ``make_key``): each card as its
        rank among the unplayed cards of its suit and the classes in order, where the tables
        allow; and the map of a canonical card back to its card."""
        t = self.t
        if not t.canonical:
            return (seat, self.trick_no, self.broken, self.sweep, *self.hands), list(range(52))
        owner = {c: p for p, h in enumerate(self.hands) for c in card_list(h)}
        hands, classes, card_of = [0] * t.players, [], []
        for order in t.order:
            alive = [c for c in order if c in owner]
            for r, c in enumerate(alive):
                hands[owner[c]] |= 1 << (13 * (c // 13) + r)
            classes.append(tuple(t.classes[c] for c in alive))
            card_of += alive + [-1] * (13 - len(alive))
        return (seat, self.trick_no, self.broken, self.sweep, *hands, *classes), card_of

    def legal(self, seat: int) -> int:
        t = self.t
        hand = legal = self.hands[seat]
        phase = LEAD
        if self.led >= 0:
            suited = hand & SUIT_MASK[self.led]
            phase = FOLLOW if suited else DISCARD
            if suited and t.follow_suit:
                legal = suited
        for keep in t.programs[phase][2 * self.trick_no + self.broken]:
            m = legal & keep
            if m:
                legal = m
        return legal

    def alive(self) -> int:
        m = 0
        for h in self.hands:
            m |= h
        for _, c in self.trick:
            m |= 1 << c
        return m

    def representatives(self, legal: int) -> int:
        t, alive, out = self.t, self.alive(), legal
        for suit in range(4):
            if not legal & SUIT_MASK[suit]:
                continue
            prev = -1
            for c in t.order[suit]:
                if not alive >> c & 1:
                    continue
                if prev >= 0 and legal >> c & 1 and legal >> prev & 1 and t.classes[c] == t.classes[prev]:
                    out &= ~(1 << c)
                prev = c
        return out

    def exact(self, seat: int, card: int, lo: int, hi: int) -> int:
        """The value of ``card`` for ``seat`` in ``lo..hi`` by null-window searches bisecting it
        (``_solve.c``'s ``exact``)."""
        while lo < hi:
            mid = lo + (hi - lo) // 2
            v = self.play(seat, card, mid, mid + 1)
            if v > mid:
                lo = max(v, mid + 1)
            else:
                hi = min(v, mid)
        return lo

    def play(self, seat: int, card: int, alpha: int, beta: int) -> int:
        t = self.t
        led, win, broken, trick_no, sweep = self.led, self.win, self.broken, self.trick_no, self.sweep
        self.hands[seat] &= ~(1 << card)
        if not self.trick:
            self.led, self.win = card // 13, card
        elif t.beats[self.win] >> card & 1:
            self.win = card
        self.trick.append((seat, card))
        if len(self.trick) < t.players:
            v = self.search(self.next[seat], alpha, beta)
        else:
            row = t.values[trick_no]
            pts = t.trick_points[trick_no] + sum(row[c] for _, c in self.trick)
            winner = next(s for s, c in self.trick if c == self.win)
            tm = sum(1 << c for _, c in self.trick)
            got = pts if winner == self.me else 0
            trick = self.trick
            self.trick, self.led, self.win = [], -1, -1
            self.broken = broken or bool(tm & HEARTS)
            self.sweep = self.next_sweep(trick_no, tm, winner)
            self.trick_no = trick_no + 1
            if self.trick_no > t.tricks:
                v = got + (self.adj[self.sweep - 2] if self.sweep >= 2 else 0)
            else:
                v = got + self.search(winner, alpha - got, beta - got)
            self.trick, self.trick_no, self.broken, self.sweep = trick, trick_no, broken, sweep
        self.trick.pop()
        self.led, self.win = led, win
        self.hands[seat] |= 1 << card
        return v

    def promise(self, seat: int, card: int) -> int:
        """How good ``card`` looks for ``seat`` (``_solve.c``'s ``promise``)."""
        t, n = self.t, self.trick_no
        pts = t.trick_points[n] + t.values[n][card] + sum(t.values[n][c] for _, c in self.trick)
        winner = next((s for s, c in self.trick if c == self.win), -1)
        if not self.trick or t.beats[self.win] >> card & 1:
            winner = seat
        for_me = pts if winner == self.me else 0
        return (for_me if seat == self.me else -for_me) * 64 + (-(card % 13) if winner == seat else card % 13)

    def ordered(self, seat: int, moves: int, first: int) -> list:
        cards = card_list(moves)
        head = [first] if first >= 0 and moves >> first & 1 else []
        rest = [c for c in cards if c not in head]
        rest.sort(key=lambda c: -self.promise(seat, c))  # stable: ties stay lowest first, as in C
        return head + rest

    def search(self, seat: int, alpha: int, beta: int) -> int:
        t = self.t
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            raise _Stopped
        key = None
        first = -1
        alpha0, beta0 = alpha, beta
        if not self.trick:  # the points left bound the value: outside the window, no search
            n, left = self.trick_no, 0
            for h in self.hands:
                left |= h
            most, least = t.most[n], t.least[n]
            cards = card_list(left)
            sweep_lo, sweep_hi = self.sweep_range()
            hi = t.most_tp[n] + sum(most[c] for c in cards) + sweep_hi
            lo = t.least_tp[n] + sum(least[c] for c in cards) + sweep_lo
            if hi <= alpha or lo == hi:
                return hi
            if lo >= beta:
                return lo
            key, card_of = self.key(seat)
            got = self.tt.get(key)
            if got is not None:
                flag, value, best = got
                first = card_of[best]
                if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                    return value
                if flag == LOWER and value > alpha:
                    alpha = value
                if flag == UPPER and value < beta:
                    beta = value
        cards = self.ordered(seat, self.representatives(self.legal(seat)), first)
        maxing = seat == self.me
        best = -INF if maxing else INF
        best_card = cards[0] if cards else 0
        for c in cards:
            v = self.play(seat, c, alpha, beta)
            if v > best if maxing else v < best:
                best, best_card = v, c
            if maxing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                break
        if not cards:
            best = 0
        if key is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
            self.tt[key] = (flag, best, card_of.index(best_card))
        return best


__all__ = ["PyTables"]
