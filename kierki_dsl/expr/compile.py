"""Checked AST -> Python closures (never ``eval``), with constant folding; and the compiled
expression types (``Compiled``, ``CardPredicate``) every evaluator fills.

The interpreter runs the generated functions of ``codegen.py``; these closures are their
reference, held to them by a differential test (tests/test_expr_codegen.py).

Every compiled piece knows the env keys it reads (``free``). A piece that reads nothing is
folded to a constant at load time. A card predicate becomes a ``CardPredicate`` whose
52-bit mask is computed once per combination of the context values it reads (e.g. once
per led suit) and then reused: the engine's hot loop only ever ANDs masks.

Both also know what they ``see`` of the masks they count cards in (``played``, ``hand``, ...):
``seen[name]`` is the union of the card predicates such a mask is counted against, so the
expression's value depends on ``env[name] & seen[name]`` only (the play-legality kernel keys
its memo that way). A mask counted against a predicate that is not constant is seen whole.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Optional

from ..cards import FULL_DECK
from ..i18n import L_
from . import ast
from .builtins import FUNCTIONS, note_seen
from .check import Checked
from .errors import EvalError
from .types import PRED, RANK

_NOTHING = object()

_CMP = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Compiled:
    """A compiled expression: call it with an env dict; ``const`` is set when it is constant.

    An evaluation error (division by zero) leaves as ``RuleRuntimeError`` naming the
    expression's field and file position, through ``on_error`` set by whoever compiled it.
    """

    __slots__ = ("fn", "free", "const", "on_error", "seen", "call", "binder", "bound", "bounds")

    def __init__(
        self,
        fn: Callable[[dict], Any],
        free: frozenset,
        on_error: Optional[Callable] = None,
        seen: Optional[dict] = None,
        located: Optional[Callable[[dict], Any]] = None,
        binder: Optional[Callable[[tuple], Callable]] = None,
    ) -> None:
        """``fn(env)``: the value, an ``EvalError`` as it is; ``located``: the same whose errors
        already leave through ``on_error`` (generated code, ``codegen``), if there is one;
        ``binder(params)``: ``positional(params)`` made anew (generated), if it can be."""
        self.binder = binder
        self.bound: dict = {}  # params -> positional function
        #: an int expression's (lo, hi, where it can pass SCORE_LIMIT or None): ``bounds.value_range``
        self.bounds: Optional[tuple] = None
        self.fn = fn
        self.free = free
        self.const = _NOTHING
        self.on_error = on_error
        self.seen = seen or {}
        #: ``call(env)``: the value, an error located (what ``compiled(env)`` does, one call less)
        self.call = located if located is not None else (fn if on_error is None else self._located)
        if not free:
            self.const = fn({})
            value = self.const
            self.fn = self.call = lambda env: value

    @property
    def is_const(self) -> bool:
        return self.const is not _NOTHING

    def __call__(self, env: dict) -> Any:
        return self.call(env)

    def positional(self, params: tuple) -> Callable:
        """``f(*values)``: the value in the environment ``dict(zip(params, values))``, errors
        located, without building that dict when the code is generated (hot paths: a deal's
        seat scoring passes the arguments of its environment's constructor)."""
        got = self.bound.get(params)
        if got is None:
            if self.is_const:
                value = self.const
                got = lambda *values: value  # noqa: E731
            elif self.binder is not None:
                got = self.binder(params)
            else:
                call = self.call
                got = lambda *values: call(dict(zip(params, values)))  # noqa: E731
            self.bound[params] = got
        return got

    def _located(self, env: dict) -> Any:
        try:
            return self.fn(env)
        except EvalError as e:
            on_error = self.on_error
            assert on_error is not None  # ``call`` is this method only when there is one
            raise on_error(e) from None

    def seat(self, env: dict, players: int) -> int:
        """The seat a seat expression names, ``% players``; a located run-time error (X701) when it
        names none (-1: ``holder()`` of a card nobody holds, ``caller`` or ``bidder`` where there is none)."""
        return self.as_seat(self.call(env), players)

    def as_seat(self, value: int, players: int) -> int:
        """``seat``'s answer for the value this seat expression gave (from ``positional``)."""
        if value < 0:
            e = EvalError(
                0,
                "the seat expression names no seat here (holder() of a card nobody holds, or "
                "caller/bidder in a deal that has none)",
            )
            if self.on_error is None:
                raise e
            raise self.on_error(e)
        return value % players


class CardPredicate:
    """A bool expression over ``card`` evaluated into masks, memoised by the context it reads."""

    __slots__ = ("fn", "keys", "deck", "memo", "const", "on_error", "seen", "compute")

    def __init__(
        self,
        fn: Callable[[dict], bool],
        free: frozenset,
        deck: int = FULL_DECK,
        on_error=None,
        seen: Optional[dict] = None,
        compute: Optional[Callable[[dict], int]] = None,
    ) -> None:
        """``fn(env)``: whether the card ``env["card"]`` matches; ``compute(env)``: the mask of the
        deck's cards that match at once (generated code, ``codegen``), if there is one."""
        self.fn = fn
        self.compute = compute
        self.keys = tuple(sorted(free - {"card"}))
        self.deck = deck
        self.memo: dict = {}
        self.on_error = on_error
        self.seen = seen or {}
        self.const = self._compute({}) if not self.keys else None

    def _compute(self, env: dict) -> int:
        if self.compute is not None:
            return self.compute(env)
        env = dict(env)
        m = 0
        c = 0
        d = self.deck
        fn = self.fn
        while d:
            if d & 1:
                env["card"] = c
                if fn(env):
                    m |= 1 << c
            d >>= 1
            c += 1
        return m

    def mask(self, env: dict) -> int:
        if self.const is not None:
            return self.const
        values = tuple(env[k] for k in self.keys)
        try:
            m = self.memo.get(values)
        except TypeError:  # a list among them (``hands``, ``taken_all``): keyed by its contents
            return self._missed(values, env)
        return m if m is not None else self._missed(values, env)

    def mask_for(self, values: tuple) -> int:
        """``mask`` of an environment whose values of ``keys`` are ``values``, in that order
        (what generated code calls: it has the values at hand)."""
        try:
            m = self.memo.get(values)
        except TypeError:
            return self._missed(values, None)
        return m if m is not None else self._missed(values, None)

    def _missed(self, values: tuple, env: Optional[dict]) -> int:
        """The mask of values not remembered yet (``env``: their environment, None: made of them)."""
        key = tuple(tuple(v) if isinstance(v, list) else v for v in values)
        m = self.memo.get(key)
        if m is not None:
            return m
        if len(self.memo) > 4096:
            self.memo.clear()
        try:
            m = self.memo[key] = self._compute(env if env is not None else dict(zip(self.keys, values)))
        except EvalError as e:
            if self.on_error is None:
                raise
            raise self.on_error(e) from None
        return m


def divide(a: int, b: int, where: int, remainder: bool) -> int:
    """``a / b`` truncated toward zero (``a % b`` its remainder, of the sign of ``a``); an
    ``EvalError`` at offset ``where`` (the operator) when ``b`` is 0."""
    if b == 0:
        raise EvalError(where, L_("division by zero"))
    q = abs(a) // abs(b) * (1 if (a >= 0) == (b > 0) else -1)
    return a - q * b if remainder else q


def compile_node(node: ast.Node, info: Checked, deck: int = FULL_DECK) -> tuple[Callable, frozenset]:
    """Closure and free env keys for a checked node."""
    return _Compiler(info, deck).node(node)


def compile_tree(
    node: ast.Node, info: Checked, deck: int = FULL_DECK, order: Optional[tuple] = None
) -> tuple[Callable, frozenset, dict]:
    """Closure, free env keys and what it ``seen`` of the masks it counts, for a checked node;
    ``order`` (a rank's strength by id, ``rankorder``) is the trick order rank comparisons follow."""
    c = _Compiler(info, deck, order)
    fn, free = c.node(node)
    return fn, free, c.seen


def _folded(fn: Callable, free: frozenset):
    """The value of a compiled piece that reads nothing (None if it reads something, or fails:
    then it fails where it is evaluated, with its location)."""
    if free:
        return None
    try:
        return fn({})
    except EvalError:
        return None


class _Compiler:
    def __init__(self, info: Checked, deck: int, order: Optional[tuple] = None) -> None:
        self.info = info
        self.deck = deck
        self.order = order
        self.seen: dict = {}  # counted mask name -> union of the predicates it is counted against

    def _written(self, n: ast.Node) -> bool:
        """Whether a node is a value written out (a literal or a named constant): what ``seen``
        takes as a known argument, as the generated code does (``codegen._is_literal``), so both
        compilers see the same; a folded expression is seen as unknown."""
        return id(n) in self.info.consts or isinstance(n, (ast.IntLit, ast.BoolLit, ast.CardLit))

    def node(self, n: ast.Node) -> tuple[Callable, frozenset]:
        nid = id(n)
        if nid in self.info.consts:
            v = self.info.consts[nid]
            return (lambda env: v), frozenset()
        if nid in self.info.vars:
            key = self.info.vars[nid].key
            return (lambda env: env[key]), frozenset({key})
        return getattr(self, "_" + type(n).__name__)(n)

    def _IntLit(self, n):
        v = n.value
        return (lambda env: v), frozenset()

    _BoolLit = _IntLit

    def _CardLit(self, n):
        v = n.card
        return (lambda env: v), frozenset()

    _StringLit = _IntLit

    def _Attribute(self, n: ast.Attribute):
        f, free = self.node(n.obj)
        if n.name == "suit":
            return (lambda env: f(env) // 13), free
        return (lambda env: f(env) % 13), free

    def _ListLit(self, n: ast.ListLit):
        parts = [self.node(i) for i in n.items]
        free = frozenset().union(*(p[1] for p in parts))
        fns = [p[0] for p in parts]
        if not free:
            values = frozenset(f({}) for f in fns)
            return (lambda env: values), free
        return (lambda env: frozenset(f(env) for f in fns)), free

    def _Call(self, n: ast.Call):
        fn = FUNCTIONS[n.func]
        args = []
        free = set(fn.needs)
        consts = []  # per argument, its value when constant (a constant predicate: its mask)
        for a, p in zip(n.args, fn.params):
            f, fr = self.node(a)
            if p == PRED:
                pred = CardPredicate(f, fr, self.deck)
                args.append(pred.mask)
                consts.append(pred.const)
                free |= set(pred.keys)
            else:
                args.append(f)
                consts.append(_folded(f, fr))
                free |= fr
            note_seen(self.seen, fn, consts[-1] if p == PRED or self._written(a) else None)
        impl = fn.impl
        needs = fn.needs  # the values of these keys come first
        if len(args) == 1:
            (a0,) = args
            if consts[0] is not None:  # e.g. taken(card.suit == hearts): the mask is passed as it is
                c0 = consts[0]
                return (lambda env: impl(*[env[k] for k in needs], c0)), frozenset(free)
            return (lambda env: impl(*[env[k] for k in needs], a0(env))), frozenset(free)
        return (lambda env: impl(*[env[k] for k in needs], *[a(env) for a in args])), frozenset(free)

    def _UnOp(self, n: ast.UnOp):
        f, free = self.node(n.operand)
        if n.op == "not":
            return (lambda env: not f(env)), free
        return (lambda env: -f(env)), free

    def _BinOp(self, n: ast.BinOp):
        lf, lfree = self.node(n.left)
        rf, rfree = self.node(n.right)
        free = lfree | rfree
        op = n.op
        if op == "and":
            return (lambda env: bool(lf(env)) and bool(rf(env))), free
        if op == "or":
            return (lambda env: bool(lf(env)) or bool(rf(env))), free
        if op == "+":
            return (lambda env: lf(env) + rf(env)), free
        if op == "-":
            return (lambda env: lf(env) - rf(env)), free
        if op == "*":
            return (lambda env: lf(env) * rf(env)), free
        if op in ("/", "%"):
            where, remainder = n.op_start, op == "%"
            return (lambda env: divide(lf(env), rf(env), where, remainder)), free
        if op == "in":
            return (lambda env: lf(env) in rf(env)), free
        if op == "not in":
            return (lambda env: lf(env) not in rf(env)), free
        cmp = _CMP[op]
        if (
            self.order is not None
            and op in ("<", "<=", ">", ">=")
            and RANK in (self.info.type_of(n.left), self.info.type_of(n.right))
        ):
            strength = self.order  # ranks compare in the deck's trick order
            return (lambda env: cmp(strength[lf(env)], strength[rf(env)])), free
        rv = _folded(rf, rfree)
        if rv is not None:  # a comparison with a constant (taken(...) == 13)
            return (lambda env: cmp(lf(env), rv)), free
        return (lambda env: cmp(lf(env), rf(env))), free

    def _IfExpr(self, n: ast.IfExpr):
        cf, cfree = self.node(n.cond)
        tf, tfree = self.node(n.then)
        ef, efree = self.node(n.other)
        return (lambda env: tf(env) if cf(env) else ef(env)), cfree | tfree | efree
