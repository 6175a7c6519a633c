"""The range of values an int expression can take (interval arithmetic over its checked AST).

``value_range(tree, info)`` gives ``(lo, hi)``: no evaluation of the expression, in any
position a ruleset can reach, gives a value outside it (nor any part of it: intermediate
values are bounded too). Names are bounded by what they stand for (``NAME_RANGES``: a
number of tricks is at most 52, a bid at most the schema's 100000); an int name not listed
there is bounded by ``SCORE_LIMIT`` (a score of a deal cannot be larger). Lint holds the
points of a deal to ``SCORE_LIMIT`` with it (``interpreter/scorebound.py``, docs/engine.md).
"""

from __future__ import annotations

from typing import Callable, Optional

from . import ast
from .check import Checked
from .types import BOOL, CARD, RANK, SEAT, SUIT

#: The largest |points| one seat may score in one deal (docs/engine.md, "The score limit").
SCORE_LIMIT = 10**12
#: The largest |points| a seat's declarations may credit it in one deal (``declared``).
DECLARED_LIMIT = 10**9

_CARDS = (0, 52)
#: The range of each int name, by its env key.
NAME_RANGES = {
    "players": (1, 8),
    "tricks": (0, 52),
    "trick.number": (1, 52),
    "tricks_taken": (0, 52),
    "tricks_played": (0, 52),
    "players_holding": (0, 8),
    "bid": (0, 100_000),
    "value": (0, 100_000),
    "declared": (-DECLARED_LIMIT, DECLARED_LIMIT),
}
#: The range of a value of each type (a seat, suit or card may be -1: none).
TYPE_RANGES = {SEAT: (-1, 7), SUIT: (-1, 3), CARD: (-1, 63), RANK: (0, 12), BOOL: (0, 1)}
_UNKNOWN = (-SCORE_LIMIT, SCORE_LIMIT)
#: Functions whose value is a number of cards or suits.
_COUNTS = {
    "count": _CARDS,
    "taken": _CARDS,
    "most_taken": _CARDS,
    "in_trick": _CARDS,
    "played": _CARDS,
    "held": _CARDS,
    "suit_count": (0, 4),
}


def value_range(tree: ast.Node, info: Checked, known: Optional[Callable[[ast.Node], Optional[tuple]]] = None) -> tuple:
    """``(lo, hi)`` of every value of the int expression ``tree`` (checked: ``info``).

    ``known(node)``: a range the value of a part is known to lie in where ``tree`` is evaluated
    (what a guard around it says, a name the ruleset fixes), or None; each part's range is cut to it.
    An empty range (``lo > hi``) means no evaluation there gives a value at all."""
    return _Ranges(info, known).of(tree)


def measure(tree: ast.Node, info: Checked, limit: int = SCORE_LIMIT) -> tuple:
    """``(lo, hi, part)``: ``value_range`` and the innermost part of ``tree`` that can pass
    ``limit`` in size (the place to point at when the expression is too large), or None."""
    r = _Ranges(info)
    lo, hi = r.of(tree)
    return lo, hi, r.first_past(limit)


class _Ranges:
    """Ranges of the nodes of one checked tree (each node's remembered)."""

    def __init__(self, info: Checked, known=None) -> None:
        self.info = info
        self.known = known
        self.seen: list = []  # (node, range), innermost first

    def first_past(self, limit: int):
        for node, (lo, hi) in self.seen:
            if max(-lo, hi) > limit:
                return node
        return None

    def of(self, n: ast.Node) -> tuple:
        got = self._of(n)
        cut = self.known(n) if self.known is not None else None
        if cut is not None:
            got = max(got[0], cut[0]), min(got[1], cut[1])
        self.seen.append((n, got))
        return got

    def _of(self, n: ast.Node) -> tuple:
        nid = id(n)
        if nid in self.info.consts and isinstance(self.info.consts[nid], int):
            v = int(self.info.consts[nid])
            return v, v
        var = self.info.vars.get(nid)
        if var is not None:
            return NAME_RANGES.get(var.key) or TYPE_RANGES.get(var.type) or _UNKNOWN
        meth = getattr(self, "_" + type(n).__name__, None)
        if meth is None:
            return TYPE_RANGES.get(self.info.type_of(n), _UNKNOWN)
        return meth(n)

    def _IntLit(self, n: ast.IntLit) -> tuple:
        v = int(n.value)
        return v, v

    def _BoolLit(self, n) -> tuple:
        return 0, 1

    def _CardLit(self, n: ast.CardLit) -> tuple:
        return n.card, n.card

    def _Attribute(self, n: ast.Attribute) -> tuple:
        self.of(n.obj)
        return TYPE_RANGES[SUIT] if n.name == "suit" else TYPE_RANGES[RANK]

    def _Call(self, n: ast.Call) -> tuple:
        args = [self.of(a) for a in n.args]
        if n.func in _COUNTS:
            return _COUNTS[n.func]
        if n.func == "min":
            return min(args[0][0], args[1][0]), min(args[0][1], args[1][1])
        if n.func == "max":
            return max(args[0][0], args[1][0]), max(args[0][1], args[1][1])
        if n.func == "abs":
            lo, hi = args[0]
            return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
        if n.func == "round":  # to a multiple of |step|: at most one step further out
            (lo, hi), step = args[0], max(abs(args[1][0]), abs(args[1][1]))
            return lo - step, hi + step
        return TYPE_RANGES.get(self.info.type_of(n), _UNKNOWN)

    def _ListLit(self, n: ast.ListLit) -> tuple:
        for i in n.items:
            self.of(i)
        return 0, 1

    def _UnOp(self, n: ast.UnOp) -> tuple:
        lo, hi = self.of(n.operand)
        return (0, 1) if n.op == "not" else (-hi, -lo)

    def _BinOp(self, n: ast.BinOp) -> tuple:
        (a, b), (c, d) = self.of(n.left), self.of(n.right)
        op = n.op
        if op == "+":
            return a + c, b + d
        if op == "-":
            return a - d, b - c
        if op == "*":
            products = (a * c, a * d, b * c, b * d)
            return min(products), max(products)
        if op == "/":  # truncated toward zero: never larger in size than the dividend
            size = max(abs(a), abs(b))
            return -size, size
        if op == "%":  # of the dividend's sign, smaller in size than the divisor
            size = min(max(abs(a), abs(b)), max(abs(c), abs(d), 1) - 1)
            return (-size if a < 0 else 0), (size if b > 0 else 0)
        return 0, 1

    def _IfExpr(self, n: ast.IfExpr) -> tuple:
        self.of(n.cond)
        (a, b), (c, d) = self.of(n.then), self.of(n.other)
        return min(a, c), max(b, d)


__all__ = ["SCORE_LIMIT", "DECLARED_LIMIT", "NAME_RANGES", "value_range", "measure"]
