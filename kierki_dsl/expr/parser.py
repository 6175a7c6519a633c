"""Text -> parse tree -> AST, with bounded cost and friendly, located syntax errors.

Limits are checked on the raw text before the LALR parser sees it, so no input can cost
more than a linear scan: length, bracket nesting and integer-literal size.
"""
from __future__ import annotations

import functools
from importlib import resources
from typing import Optional

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..cards import parse_card
from . import ast
from .errors import ExprError

MAX_LENGTH = 500
MAX_DEPTH = 32
MAX_DIGITS = 18

_FRIENDLY = {
    "OR": "'or'",
    "AND": "'and'",
    "NOT": "'not'",
    "IN": "'in'",
    "NOT_IN": "'not in'",
    "COMP_OP": "a comparison",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "MUL_OP": "'*', '/' or '%'",
    "INT": "a number",
    "CARD": "a card",
    "NAME": "a name",
    "STRING": "a string",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "TRUE": "'true'",
    "FALSE": "'false'",
    "IF": "'if'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "$END": "the end of the expression",
}


_LARK_OPTIONS = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False)
_CACHE_NAME = "expr.lark.cache"


def _grammar() -> str:
    return resources.files("kierki_dsl.grammar").joinpath("expr.lark").read_text("utf-8")


def _cache_header(grammar: str) -> bytes:
    import hashlib

    import lark

    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()
    return f"kierki-expr-parser {digest} lark-{lark.__version__}\n".encode("ascii")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    """The LALR parser: loaded from the table shipped in the package when it was made from
    this very grammar with this lark version (a few ms), else built from the grammar."""
    import io

    grammar = _grammar()
    try:
        data = resources.files("kierki_dsl.grammar").joinpath(_CACHE_NAME).read_bytes()
    except (FileNotFoundError, OSError):
        data = b""
    header = _cache_header(grammar)
    if data.startswith(header):
        try:
            return Lark.load(io.BytesIO(data[len(header):]))
        except Exception:  # a table lark cannot read: fall back to building it
            pass
    return Lark(grammar, **_LARK_OPTIONS)


def write_parser_cache(path) -> None:
    """Write the shipped parser table (``python -m kierki_dsl.expr.parser``)."""
    import io

    grammar = _grammar()
    buf = io.BytesIO()
    Lark(grammar, **_LARK_OPTIONS).save(buf)
    with open(path, "wb") as f:
        f.write(_cache_header(grammar) + buf.getvalue())


@v_args(meta=True)
class _ToAst(Transformer):
    """Builds AST nodes only; every check happens in a later pass."""

    def int_lit(self, meta, c):
        return ast.IntLit(meta.start_pos, meta.end_pos, int(c[0]))

    def card_lit(self, meta, c):
        return ast.CardLit(meta.start_pos, meta.end_pos, parse_card(str(c[0])))

    def string_lit(self, meta, c):
        return ast.StringLit(meta.start_pos, meta.end_pos, str(c[0])[1:-1])

    def bool_lit(self, meta, c):
        return ast.BoolLit(meta.start_pos, meta.end_pos, str(c[0]) == "true")

    def name(self, meta, c):
        return ast.Name(meta.start_pos, meta.end_pos, str(c[0]))

    def attribute(self, meta, c):
        obj, name = c
        return ast.Attribute(meta.start_pos, meta.end_pos, obj, str(name), name.start_pos)

    def call(self, meta, c):
        return ast.Call(meta.start_pos, meta.end_pos, str(c[0]), tuple(c[1:]))

    def list_lit(self, meta, c):
        return ast.ListLit(meta.start_pos, meta.end_pos, tuple(c))

    def unop(self, meta, c):
        op, operand = c
        return ast.UnOp(meta.start_pos, meta.end_pos, str(op), operand, op.start_pos)

    def binop(self, meta, c):
        left, op, right = c
        name = "not in" if op.type == "NOT_IN" else str(op)
        return ast.BinOp(meta.start_pos, meta.end_pos, name, left, right, op.start_pos)

    def ifexpr(self, meta, c):
        return ast.IfExpr(meta.start_pos, meta.end_pos, *c)


def _prescan(text: str) -> None:
    """Reject what would cost too much before the parser runs (all in one linear scan)."""
    if len(text) > MAX_LENGTH:
        raise ExprError(0, "E302", f"expression is {len(text)} characters long (limit {MAX_LENGTH})")
    depth = 0
    run_start: Optional[int] = None
    quote: Optional[str] = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        if ch in "([":
            depth += 1
            if depth > MAX_DEPTH:
                raise ExprError(i, "E303", f"expression nests deeper than {MAX_DEPTH} brackets")
        elif ch in ")]":
            depth -= 1
        if ch.isdigit():
            if run_start is None:
                run_start = i
        else:
            if run_start is not None and not (ch.isalpha() or ch == "_"):
                _check_digits(text, run_start, i)
            run_start = None
    if run_start is not None:
        _check_digits(text, run_start, len(text))


def _check_digits(text: str, start: int, end: int) -> None:
    if start > 0 and (text[start - 1].isalpha() or text[start - 1] == "_"):
        return  # part of a name
    if end - start > MAX_DIGITS:
        raise ExprError(start, "E304", f"integer has {end - start} digits (limit {MAX_DIGITS})")


def parse(text: str) -> ast.Node:
    """Parse an expression into an AST or raise ``ExprError`` at the offending offset."""
    _prescan(text)
    if not text.strip():
        raise ExprError(0, "E301", "expression is empty")
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(text, e) from None
    return _ToAst().transform(tree)


def _syntax_error(text: str, e: UnexpectedInput) -> ExprError:
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream]
        if ch in "\"'":
            return ExprError(e.pos_in_stream, "E301", f"unexpected {ch!r} (unterminated string)")
        if ch == "*" and text[e.pos_in_stream - 1 : e.pos_in_stream] == "*":
            return ExprError(e.pos_in_stream, "E301", "unexpected '*' (there is no '**' operator)")
        return ExprError(e.pos_in_stream, "E301", f"unexpected character {ch!r}")
    if isinstance(e, UnexpectedEOF):
        return ExprError(max(0, len(text.rstrip()) - 1), "E301", "unexpected end of expression")
    if isinstance(e, UnexpectedToken):
        tok: Token = e.token
        expected = sorted({_FRIENDLY.get(t, t) for t in (e.expected or ()) if not t.startswith("__")})
        hint = ""
        if expected and len(expected) <= 6:
            hint = "expected " + ", ".join(expected)
        if tok.type == "$END":
            return ExprError(max(0, len(text.rstrip()) - 1), "E301", "unexpected end of expression", hint)
        where = tok.start_pos if tok.start_pos is not None else 0
        extra = ""
        if str(tok) == "*" and text[where - 1 : where] == "*":
            extra = " (there is no '**' operator)"
        return ExprError(where, "E301", f"unexpected {str(tok)!r}{extra}", hint)
    return ExprError(0, "E301", "syntax error")


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    import sys
    from pathlib import Path

    target = Path(__file__).resolve().parent.parent / "grammar" / _CACHE_NAME
    write_parser_cache(target)
    sys.stdout.write(f"wrote {target}\n")
