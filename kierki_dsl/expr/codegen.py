"""Checked AST -> the Python source of one function per expression, compiled once.

This is the evaluator the interpreter runs: each expression becomes a single Python function
of its environment dict (``def expression(env): return ...``), so evaluating it is one call
instead of a walk through a tree of closures. A card predicate becomes a function that loops
over the deck's cards and returns the mask of those that match (``CardPredicate``'s
``compute``). The closure compiler (``compile.py``) stays as the reference: a differential
test (tests/test_expr_codegen.py) generates random well-typed expressions over every scope
and checks both give the same values, the same free names, the same ``seen`` masks and the
same located run-time errors.

What the source is made of (no text of a ruleset is ever compiled or evaluated):

- this module's own templates (operators, ``if``/``else``, the loop of a predicate);
- integers and booleans written by ``repr`` of values the parser made (``int``/``bool``
  checked: card ids, ranks, suits, number literals) — never the text they were parsed from;
- environment keys of the checked scope (``env['trick.number']``): only keys the checker
  resolved a name to (``Var.key``, defined in ``interpreter/scopes.py``), each matched
  against ``KEY`` before it is written;
- names of constants handed in through the function's namespace (``_k0``, ``_f1``...,
  numbered by this module): strings, lists, built-in functions, memoised predicates, the rank
  order. Its ``__builtins__`` is empty.

Cost is bounded before this runs: the parser refuses an expression longer than 500
characters, nesting more than 32 brackets or 64 operators deep, or with an integer of more
than 18 digits (``parser.MAX_LENGTH``, ``MAX_DEPTH``, ``MAX_TREE_DEPTH``, ``MAX_DIGITS``), so
the source is at most a few kilobytes and its nesting stays far below Python's compiler
limits. Code objects are cached by source (rulesets repeat the same shapes: ``card.suit ==
hearts`` is one source whatever the suit, its constants being inline integers).
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..cards import FULL_DECK
from . import ast
from .builtins import FUNCTIONS, note_seen
from .check import Checked
from .compile import CardPredicate, divide
from .errors import EvalError
from .types import PRED, RANK

#: What an environment key written into the source may look like (``trick.number``, ``taken_all``).
KEY = re.compile(r"[a-z][a-z_]*(\.[a-z][a-z_]*)?\Z")

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_ORDERING = {"<", "<=", ">", ">="}
_ARITH = {"+", "-", "*"}
#: Operators whose result is always a bool (so ``and``/``or`` need no ``bool()`` of it).
_BOOL_OPS = _COMPARE | {"and", "or", "in", "not in"}

_LITERAL = re.compile(r"\d+|\(-\d+\)|True|False")
_CODE: dict = {}  # source -> code object
_CODE_LIMIT = 4096


def generate(
    node: ast.Node,
    info: Checked,
    deck: int = FULL_DECK,
    order: Optional[tuple] = None,
    predicate: bool = False,
    on_error: Optional[Callable] = None,
    params: Optional[tuple] = None,
    preds: Optional[dict] = None,
):
    """``(fn, free, seen, compute, located)`` for a checked expression, like
    ``compile.compile_tree``: ``fn(env)`` its value, ``free`` the env keys it reads, ``seen``
    what it sees of the masks it counts. With ``predicate``, ``compute(env)`` is the mask of
    the deck's cards for which it holds (``card`` taken from the loop, not from ``env``); else
    None. ``located``: with ``on_error``, ``fn`` raising ``on_error(e)`` for an ``EvalError``
    ``e`` instead (``fn`` itself when it cannot fail); without, None.

    With ``params`` (env keys), the functions take the values of those keys as positional
    arguments instead of an env dict (``Compiled.positional``); not for a predicate.
    ``preds``: the card predicates made so far for this tree, by node (each is made once: the
    expression and a predicate's loop are two writings of it, so remaking them would double
    the work at every level of predicates nested in predicates).
    """
    g = _Gen(info, deck, order, params)
    g.preds = preds if preds is not None else {}
    body, free = g.node(node)
    signature = "env" if params is None else ", ".join(f"_a{i}" for i in range(len(params)))
    lines = [f"def expression({signature}):", f"    return {body}"]
    names = ["expression"]
    if predicate:
        loop = _Gen.again(g)
        loop.card = "c"
        mbody, _ = loop.node(node)
        lines += [
            "def compute(env):",
            "    m = 0",
            "    for c in _cards:",
            f"        if {mbody}:",
            "            m |= 1 << c",
            "    return m",
        ]
        names.append("compute")
        g.space["_cards"] = tuple(c for c in range(52) if deck >> c & 1)
    if on_error is not None and g.divides:
        lines += [
            f"def located({signature}):",
            "    try:",
            f"        return {body}",
            "    except _EvalError as e:",
            "        raise _on_error(e) from None",
        ]
        names.append("located")
        g.space["_on_error"] = on_error
    fns = dict(zip(names, _compiled("\n".join(lines) + "\n", g.space, names)))
    located = fns.get("located", fns["expression"]) if on_error is not None else None
    return fns["expression"], free, g.seen, fns.get("compute"), located


def _compiled(source: str, space: dict, names: list) -> list:
    """The functions ``names`` defined by ``source`` run in ``space`` (the code compiled once per source)."""
    code = _CODE.get(source)
    if code is None:
        if len(_CODE) >= _CODE_LIMIT:
            _CODE.clear()
        code = _CODE[source] = compile(source, "<kierki expression>", "exec")
    space["__builtins__"] = {}
    space["_EvalError"] = EvalError
    exec(code, space)
    return [space[n] for n in names]


class _Gen:
    """Source text for one expression; constants it needs go into ``space``."""

    def __init__(self, info: Checked, deck: int, order: Optional[tuple], params: Optional[tuple] = None) -> None:
        self.params = params  # None: values are read from ``env``; else the keys of the positional arguments
        self.info = info
        self.deck = deck
        self.order = order
        self.space: dict = {}
        self.seen: dict = {}
        self.divides = False  # whether the expression can fail (a division, or a predicate that divides)
        self.card: Optional[str] = None  # in a predicate's loop: the variable holding the card
        self.preds: dict = {}  # id(node) -> (CardPredicate, its seen, whether it divides), shared

    @classmethod
    def again(cls, g: "_Gen") -> "_Gen":
        """A generator writing the same expression again into ``g``'s namespace (the predicate's
        loop), its ``seen`` and predicates already worked out."""
        other = cls(g.info, g.deck, g.order, g.params)
        other.space, other.preds = g.space, g.preds
        return other

    def constant(self, value) -> str:
        """The name in the namespace of a constant value."""
        for name, v in self.space.items():
            if v is value:
                return name
        name = f"_k{len(self.space)}"
        self.space[name] = value
        return name

    def node(self, n: ast.Node) -> tuple:
        """``(source, free keys)`` of a node."""
        nid = id(n)
        if nid in self.info.consts:
            return _literal(self.info.consts[nid]), frozenset()
        if nid in self.info.vars:
            key = self.info.vars[nid].key
            if key == "card" and self.card is not None:
                return self.card, frozenset({key})
            return self.read(key), frozenset({key})
        return getattr(self, "_" + type(n).__name__)(n)

    def read(self, key: str) -> str:
        """The source reading an environment key: ``env['key']``, or its positional argument."""
        if self.params is not None:
            return f"_a{self.params.index(key)}"
        if not KEY.match(key):
            raise ValueError(f"not an environment key: {key!r}")
        return f"env[{key!r}]"

    def _IntLit(self, n):
        return _literal(n.value), frozenset()

    _BoolLit = _IntLit

    def _CardLit(self, n):
        return _literal(n.card), frozenset()

    def _StringLit(self, n):
        return self.constant(n.value), frozenset()

    def _Attribute(self, n: ast.Attribute):
        src, free = self.node(n.obj)
        return (f"({src} // 13)" if n.name == "suit" else f"({src} % 13)"), free

    def _ListLit(self, n: ast.ListLit):
        parts = [self.node(i) for i in n.items]
        free = frozenset().union(*(p[1] for p in parts))
        if not free and all(_is_literal(p[0]) for p in parts):
            return self.constant(frozenset(_value(p[0]) for p in parts)), free
        self.space["_frozenset"] = frozenset
        return "_frozenset((" + "".join(p[0] + ", " for p in parts) + "))", free

    def _Call(self, n: ast.Call):
        fn = FUNCTIONS[n.func]
        free = set(fn.needs)
        args = []
        for a, p in zip(n.args, fn.params):
            if p == PRED:
                src, keys, const = self._predicate(a)
                free |= keys
            else:
                src, fr = self.node(a)
                free |= fr
                const = _value(src) if not fr and _is_literal(src) else None
            note_seen(self.seen, fn, const)
            args.append(src)
        if fn.counts:  # popcount(mask & env[counts]): what such a function is declared to do
            return f"({args[0]} & {self.read(fn.counts)}).bit_count()", frozenset(free)
        impl = self.constant(fn.impl)
        return f"{impl}({', '.join([self.read(k) for k in fn.needs] + args)})", frozenset(free)

    def _predicate(self, a: ast.Node) -> tuple:
        """A card predicate argument: its mask as a literal when constant, else a call of its
        memoised ``mask``; (source, keys it reads, its mask when constant else None)."""
        got = self.preds.get(id(a))
        if got is None:
            fn, fr, seen, compute, _ = generate(a, self.info, self.deck, self.order, predicate=True, preds=self.preds)
            got = self.preds[id(a)] = (CardPredicate(fn, fr, self.deck, compute=compute), seen, _divides(a))
        pred, seen, divides = got
        for k, m in seen.items():
            self.seen[k] = self.seen.get(k, 0) | m
        if divides:
            self.divides = True
        if pred.const is not None:
            return _literal(pred.const), frozenset(pred.keys), pred.const
        values = "".join(self.read(k) + ", " for k in pred.keys)
        return f"{self.constant(pred.mask_for)}(({values}))", frozenset(pred.keys), None

    def _UnOp(self, n: ast.UnOp):
        src, free = self.node(n.operand)
        return (f"(not {src})" if n.op == "not" else f"(-{src})"), free

    def _BinOp(self, n: ast.BinOp):
        left, lfree = self.node(n.left)
        right, rfree = self.node(n.right)
        free = lfree | rfree
        op = n.op
        if op == "and":
            return f"({_as_bool(n.right, right)} if {left} else False)", free
        if op == "or":
            return f"(True if {left} else {_as_bool(n.right, right)})", free
        if op in _ARITH:
            return f"({left} {op} {right})", free
        if op in ("/", "%"):
            self.divides = True
            self.space["_divide"] = divide
            return f"_divide({left}, {right}, {_literal(n.op_start)}, {op == '%'})", free
        if op in ("in", "not in"):
            return f"({left} {op} {right})", free
        ranks = RANK in (self.info.type_of(n.left), self.info.type_of(n.right))
        if self.order is not None and op in _ORDERING and ranks:
            strength = self.constant(self.order)  # ranks compare in the deck's trick order
            return f"({strength}[{left}] {op} {strength}[{right}])", free
        return f"({left} {op} {right})", free

    def _IfExpr(self, n: ast.IfExpr):
        c, cfree = self.node(n.cond)
        t, tfree = self.node(n.then)
        e, efree = self.node(n.other)
        return f"({t} if {c} else {e})", cfree | tfree | efree


def _literal(value) -> str:
    """An int or bool written out (a value the parser or checker made, never its text)."""
    if type(value) not in (int, bool):
        raise ValueError(f"not a literal: {value!r}")
    return f"({value!r})" if type(value) is int and value < 0 else repr(value)


def _is_literal(src: str) -> bool:
    """Whether ``src`` is exactly a literal ``_literal`` writes (``5``, ``(-5)``, ``True``)."""
    return _LITERAL.fullmatch(src) is not None


def _value(src: str):
    """The value of a literal written by ``_literal``."""
    if src in ("True", "False"):
        return src == "True"
    return int(src.strip("()"))


def _as_bool(node: ast.Node, src: str) -> str:
    """``src`` as a bool: as it is when the node always gives one, else converted."""
    if (
        isinstance(node, ast.BoolLit)
        or (isinstance(node, ast.BinOp) and node.op in _BOOL_OPS)
        or (isinstance(node, ast.UnOp) and node.op == "not")
    ):
        return src
    return f"(True if {src} else False)"


def _divides(node: ast.Node) -> bool:
    return any(isinstance(n, ast.BinOp) and n.op in ("/", "%") for n in ast.walk(node))


__all__ = ["generate", "KEY"]
