"""The shipped parse tables against the grammar, and the table driver against lark itself.

``kierki`` parses expressions with ``kierki_dsl/expr/lalr.py`` over tables that lark
generated ahead of time (so that no command pays for importing lark). These tests hold that
driver to lark's own parser: the same tree for every text lark accepts, the same error
(offset, message, hint) for every text it rejects.
"""
from __future__ import annotations

import attrs
import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl.expr import ast, gentables, parser
from kierki_dsl.expr.errors import ExprError
from kierki_dsl.grammar import expr_tables


def dump(node):
    """A node as nested tuples, class names included (AST nodes compare by identity)."""
    if isinstance(node, ast.Node):
        return (type(node).__name__,) + tuple(dump(getattr(node, f.name)) for f in attrs.fields(type(node)))
    if isinstance(node, tuple):
        return tuple(dump(n) for n in node)
    return node


def outcome(parse, text):
    try:
        return ("tree", dump(parse(text)))
    except ExprError as e:
        return ("error", e.offset, e.code, e.message, e.hint)


def ours(text):
    return parser.parse_tree(text)  # the grammar alone: reserved words and depth come after


def reference(text):
    parser._prescan(text)
    if not text.strip():
        raise ExprError(0, "E301", "expression is empty")
    try:
        return gentables.reference_parse(text, parser.BUILDERS)
    except lark.exceptions.UnexpectedInput as e:
        raise parser.syntax_error(text, e) from None


def test_tables_were_generated_from_this_grammar():
    """Regenerate with `python -m kierki_dsl.expr.gentables` after editing expr.lark."""
    assert expr_tables.GRAMMAR_SHA256 == gentables.grammar_digest(gentables.grammar_text())


@pytest.mark.skipif(lark.__version__ != expr_tables.LARK_VERSION, reason="tables made by another lark version")
def test_tables_are_exactly_what_lark_generates():
    assert gentables.render() == (gentables.TABLES_PATH).read_text("utf-8")


CASES = [
    "1 + 2 * x", "if a then b else c", "notes not in [K, 10S]", "-f(x).y", "(a + b) * c",
    "f(1, 2, 3)", "[1, 2]", "[]", "f()", "not not x", "a.b.c", "x in [QS, KH] and y", "'s' == \"t\"",
    "x # a comment", "x\n  and y", "card.suit == hearts or card == QS", "count(tricks) > 0",
    # errors
    "", "1 +", "1 + + 2", "(1", "1)", "[1,", "f(1,)", "x ** 2", "'unterminated", "a @ b",
    "if a then b", "x.if", "x.10S", "not in x", "1 2", "a not", "x.(y)", "10S10S", "x andy",
    "ornament", "a ornament", "iffy", "x thenx",
]


@pytest.mark.parametrize("text", CASES)
def test_same_result_as_lark(text):
    assert outcome(ours, text) == outcome(reference, text)


FRAGMENTS = [
    "a", "x", "card", "suit", "f", "notes", "andy", "or", "and", "not", "in", "not in", "if", "then",
    "else", "true", "false", "==", "!=", "<", ">=", "+", "-", "*", "/", "%", "**", "(", ")", "[", "]",
    ",", ".", "1", "10", "007", "10S", "QS", "KH", "2C", "'x'", '"s"', "'", "#c\n", "@", "_", "Q",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(["", " ", "\n"])), max_size=12))
def test_random_texts_same_as_lark(parts):
    text = "".join(f + sep for f, sep in parts)
    assert outcome(ours, text) == outcome(reference, text)


def _valid():
    leaf = st.sampled_from(["x", "card", "1", "42", "QS", "10H", "true", "'s'", "f()", "[]"])

    def grow(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from([" or ", " and ", " == ", " < ", " + ", " - ", " * ", " % ",
                                              " in ", " not in "]), inner).map("".join),
            inner.map(lambda e: f"not {e}"),
            inner.map(lambda e: f"-{e}"),
            inner.map(lambda e: f"({e})"),
            inner.map(lambda e: f"{e}.suit"),
            st.lists(inner, max_size=3).map(lambda xs: f"g({', '.join(xs)})"),
            st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
            st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        )

    return st.recursive(leaf, grow, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_valid())
def test_random_valid_expressions_same_tree_as_lark(text):
    result = outcome(ours, text)
    assert result == outcome(reference, text)
