"""Text -> parse tree -> AST, with bounded cost and friendly, located syntax errors.

Limits are checked on the raw text before the LALR parser sees it, so no input can cost
more than a linear scan: length, bracket nesting and integer-literal size; the tree's depth
(chains of ``-`` or ``not``, long operator chains) is bounded after parsing, so the
recursive passes that follow (checking, compiling, evaluating) never run out of stack.
Reserved words (``and``, ``in``, ``if``...) are never names: one written where a name is
expected is a syntax error at the word itself.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ..cards import SUIT_SYMBOLS, parse_card
from ..i18n import L_
from . import ast
from .errors import ExprError, card_hint
from .lalr import LalrParser, UnexpectedCharacters, UnexpectedToken

MAX_LENGTH = 500
MAX_DEPTH = 32
MAX_DIGITS = 18
MAX_TREE_DEPTH = 64

#: Words of the language that can never be names (the grammar's keywords).
RESERVED = frozenset({"and", "or", "not", "in", "if", "then", "else", "true", "false"})

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
    "_IF": "'if'",
    "_THEN": "'then'",
    "_ELSE": "'else'",
    "$END": "the end of the expression",
}


def _int_lit(start, end, c):
    return ast.IntLit(start, end, int(c[0].value))


def _card_lit(start, end, c):
    return ast.CardLit(start, end, parse_card(c[0].value))


def _string_lit(start, end, c):
    return ast.StringLit(start, end, c[0].value[1:-1])


def _bool_lit(start, end, c):
    return ast.BoolLit(start, end, c[0].value == "true")


def _name(start, end, c):
    return ast.Name(start, end, c[0].value)


def _attribute(start, end, c):
    obj, name = c
    return ast.Attribute(start, end, obj, name.value, name.start_pos)


def _call(start, end, c):
    return ast.Call(start, end, c[0].value, tuple(c[1:]))


def _list_lit(start, end, c):
    return ast.ListLit(start, end, tuple(c))


def _unop(start, end, c):
    op, operand = c
    return ast.UnOp(start, end, op.value, operand, op.start_pos)


def _binop(start, end, c):
    left, op, right = c
    name = "not in" if op.type == "NOT_IN" else op.value
    return ast.BinOp(start, end, name, left, right, op.start_pos)


def _ifexpr(start, end, c):
    return ast.IfExpr(start, end, *c)


#: One builder per grammar rule name (``grammar/expr.lark``): AST nodes only, every check
#: happens in a later pass.
BUILDERS = {
    "int_lit": _int_lit,
    "card_lit": _card_lit,
    "string_lit": _string_lit,
    "bool_lit": _bool_lit,
    "name": _name,
    "attribute": _attribute,
    "call": _call,
    "list_lit": _list_lit,
    "unop": _unop,
    "binop": _binop,
    "ifexpr": _ifexpr,
}


class _Parser(LalrParser):
    """The table driver, noting every reserved word its contextual lexer took for a name."""

    def __init__(self, tables, builders: dict) -> None:
        super().__init__(tables, builders)
        self.misused: list = []

    def _next(self, text: str, pos: int, state: int):
        token = super()._next(text, pos, state)
        if token is not None and token.type == "NAME" and token.value in RESERVED:
            self.misused.append(token)
        return token


_parser: Optional[_Parser] = None


def _lalr() -> _Parser:
    global _parser
    if _parser is None:
        from ..grammar import expr_tables

        _parser = _Parser(expr_tables, BUILDERS)
    return _parser


def _prescan(text: str) -> None:
    """Reject what would cost too much before the parser runs (all in one linear scan)."""
    if len(text) > MAX_LENGTH:
        raise ExprError(
            0,
            "E302",
            L_("expression is {length} characters long (limit {limit})", length=len(text), limit=MAX_LENGTH),
        )
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
                raise ExprError(i, "E303", L_("expression nests deeper than {limit} brackets", limit=MAX_DEPTH))
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
        raise ExprError(
            start, "E304", L_("integer has {digits} digits (limit {limit})", digits=end - start, limit=MAX_DIGITS)
        )


def parse_tree(text: str) -> ast.Node:
    """The grammar alone: the tree of ``text`` or its ``ExprError`` (exactly as lark parses)."""
    _prescan(text)
    if not text.strip():
        raise ExprError(0, "E301", L_("expression is empty"))
    try:
        return _lalr().parse(text)
    except (UnexpectedCharacters, UnexpectedToken) as e:
        raise syntax_error(text, e) from None


def parse(text: str) -> ast.Node:
    """Parse an expression into an AST or raise ``ExprError`` at the offending offset:
    the grammar, then reserved words used as names, then the depth of the tree."""
    lalr = _lalr()
    lalr.misused = []
    try:
        tree = parse_tree(text)
    except ExprError as e:
        _reserved(lalr.misused, e.offset)
        raise
    _reserved(lalr.misused, len(text))
    _check_depth(tree)
    return tree


def _reserved(misused: list, before: int) -> None:
    """Raise at the first reserved word taken for a name at or before offset ``before``."""
    for tok in misused:
        if tok.start_pos <= before:
            raise ExprError(
                tok.start_pos,
                "E301",
                L_("unexpected {value!r}: a reserved word cannot be a name", value=tok.value),
                L_("reserved words: {names}", names=", ".join(sorted(RESERVED))),
                end=tok.end_pos,
            )


def _check_depth(tree: ast.Node) -> None:
    """Refuse a tree deeper than ``MAX_TREE_DEPTH`` (walked without recursion), located where
    the run of nested operators of one kind that crosses the limit starts (the first of 70
    unary minus signs, not the 65th)."""
    stack = [(tree, 1, tree.start)]
    while stack:
        node, depth, run_start = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise ExprError(
                run_start,
                "E303",
                L_(
                    "expression nests deeper than {limit} operators (e.g. a long chain of '-' or 'not')",
                    limit=MAX_TREE_DEPTH,
                ),
                L_("split it, or use brackets and fewer operators"),
            )
        stack.extend(
            (child, depth + 1, run_start if type(child) is type(node) else child.start) for child in ast.children(node)
        )


#: An operator of another language an author may type, and what an expression writes instead.
_OTHER_LANGUAGES = {
    "=": L_("to compare, write '==' (card.suit == hearts)"),
    "&": L_("write 'and' (card.suit == hearts and trick.is_last)"),
    "|": L_("write 'or' (card.rank == Q or card.rank == K)"),
    "!": L_("write 'not' (not hearts_broken), or '!=' to compare"),
}


def _symbol_hint(text: str, at: int) -> str:
    """``K♥`` or ``♥K``: the card an author typed with a suit symbol, as an expression writes it."""

    if text[at] not in SUIT_SYMBOLS + "♤♡♢♧":
        return ""
    before = re.search(r"[0-9A-Za-z]*$", text[:at])
    after = re.match(r"[0-9A-Za-z]*", text[at + 1 :])
    assert before is not None and after is not None  # a starred pattern always matches (if only "")
    return card_hint(before.group() + text[at] + after.group())


def syntax_error(text: str, e: Any) -> ExprError:
    """A friendly ``ExprError`` for a parse failure (the table driver's or lark's own: alike in
    their attributes, not in their classes)."""
    tok = getattr(e, "token", None)
    if tok is None:  # no terminal matches here
        at = e.pos_in_stream
        ch = text[at]
        if ch in "\"'":
            return ExprError(at, "E301", L_("unexpected {ch!r} (unterminated string)", ch=ch))
        if ch == "*" and text[at - 1 : at] == "*":
            return ExprError(at, "E301", L_("unexpected '*' (there is no '**' operator)"))
        return ExprError(
            at, "E301", L_("unexpected character {ch!r}", ch=ch), _symbol_hint(text, at) or _OTHER_LANGUAGES.get(ch, "")
        )
    expected = sorted({_FRIENDLY.get(t, t) for t in (e.expected or ()) if not t.startswith("__IGNORE")})
    hint = ""
    if expected and len(expected) <= 6:
        hint = L_("expected {expected}", expected=", ".join(expected))
    if tok.type == "$END":
        return ExprError(max(0, len(text.rstrip()) - 1), "E301", L_("unexpected end of expression"), hint)
    where = tok.start_pos if tok.start_pos is not None else 0
    if str(tok) == "*" and text[where - 1 : where] == "*":
        return ExprError(where, "E301", L_("unexpected {tok!r} (there is no '**' operator)", tok=str(tok)), hint)
    return ExprError(where, "E301", L_("unexpected {tok!r}", tok=str(tok)), hint)
