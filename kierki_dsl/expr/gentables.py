"""Maintenance: build the expression parser's tables from ``grammar/expr.lark`` with lark.

``python -m kierki_dsl.expr.gentables`` rewrites ``kierki_dsl/grammar/expr_tables.py``
after the grammar changes; the test suite fails while the shipped tables and the grammar
disagree. ``reference_parse`` parses with lark itself, for the tests that hold the table
driver (``kierki_dsl/expr/lalr.py``) to lark's results, error for error.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import resources
from pathlib import Path

import lark
from lark import Lark, Transformer
from lark.grammar import Terminal
from lark.parsers.lalr_analysis import Shift

LARK_OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False)
TABLES_PATH = Path(__file__).resolve().parent.parent / "grammar" / "expr_tables.py"
# the type of a table mypy cannot infer from its value (an empty dict in it)
TABLE_TYPES = {"LEXERS": "list[tuple[tuple[str, ...], dict[str, dict[str, str]], tuple[str, ...]]]"}


def grammar_text() -> str:
    return resources.files("kierki_dsl.grammar").joinpath("expr.lark").read_text("utf-8")


def grammar_digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=1)
def lark_parser() -> Lark:
    return Lark(grammar_text(), **LARK_OPTIONS)


def _lexer_entry(lexer) -> tuple:
    scanner = lexer.scanner
    if len(scanner._mres) != 1:
        raise NotImplementedError("a lexer that needs more than one regex")
    keywords = {}
    for name, callback in sorted(lexer.callback.items()):
        strings = callback.scanner.terminals
        if any(t.pattern.flags for t in strings):
            raise NotImplementedError(f"keywords with regex flags on {name}")
        keywords[name] = {t.pattern.value: t.name for t in sorted(strings, key=lambda t: t.pattern.value)}
    allowed = scanner.allowed_types - lexer.ignore_types or {"<END-OF-FILE>"}
    return (tuple(t.name for t in scanner.terminals), keywords, tuple(sorted(allowed)))


def _canonical_order(table) -> list:
    """States numbered breadth-first from the start state (lark's own numbering depends on
    the interpreter's hash seed; the shipped file must not)."""
    start = table.start_states["start"]
    order, seen = [start], {start}
    for state in order:
        for _symbol, (action, arg) in sorted(table.states[state].items()):
            if action is Shift and arg not in seen:
                seen.add(arg)
                order.append(arg)
    return order


def tables() -> dict:
    """The parse tables, lexers and rules of the grammar, as plain data."""
    lk = lark_parser()
    front = lk.parser
    rules = list(front.parser_conf.rules)
    rule_index = {id(r): i for i, r in enumerate(rules)}
    table = front.parser.parser.parse_table
    order = _canonical_order(table)
    number = {old: new for new, old in enumerate(order)}
    lexers = [_lexer_entry(front.lexer.root_lexer)]
    state_lexer = []
    actions = []
    for state in order:
        entry = _lexer_entry(front.lexer.lexers[state])
        if entry not in lexers:
            lexers.append(entry)
        state_lexer.append(lexers.index(entry))
        row = {}
        for symbol, (action, arg) in sorted(table.states[state].items()):
            row[str(symbol)] = number[arg] if action is Shift else ~rule_index[id(arg)]
        actions.append(row)
    rule_rows = []
    for r in rules:
        keep = tuple(
            (0 if s.filter_out else 1) if isinstance(s, Terminal) else (2 if s.name.startswith("_") else 1)
            for s in r.expansion
        )
        origin = str(r.origin.name)
        rule_rows.append(
            (origin, len(r.expansion), keep, str(r.alias or origin), bool(r.options.expand1 and not r.alias))
        )
    if any(r.options.keep_all_tokens for r in rules):
        raise NotImplementedError("keep_all_tokens")
    return {
        "TERMINALS": {t.name: t.pattern.to_regexp() for t in front.lexer_conf.terminals},
        "IGNORE": tuple(sorted(front.lexer_conf.ignore)),
        "LEXERS": lexers,
        "ROOT_LEXER": 0,
        "STATE_LEXER": state_lexer,
        "ACTIONS": actions,
        "RULES": rule_rows,
        "START_STATE": 0,
        "END_STATE": number[table.end_states["start"]],
    }


def render() -> str:
    """The text of ``grammar/expr_tables.py``."""

    grammar = grammar_text()
    data = tables()
    out = [
        '"""The expression parser\'s LALR tables, generated from expr.lark by lark. Do not edit:',
        'run ``python -m kierki_dsl.expr.gentables`` after changing the grammar."""',
        "# fmt: off",
        f"GRAMMAR_SHA256 = {grammar_digest(grammar)!r}",
        f"LARK_VERSION = {lark.__version__!r}",
    ]
    for name, value in data.items():
        if isinstance(value, list):
            annotation = f": {TABLE_TYPES[name]}" if name in TABLE_TYPES else ""
            out.append(f"{name}{annotation} = [")
            out.extend(f"    {item!r}," for item in value)
            out.append("]")
        elif isinstance(value, dict):
            out.append(f"{name} = {{")
            out.extend(f"    {k!r}: {v!r}," for k, v in value.items())
            out.append("}")
        else:
            out.append(f"{name} = {value!r}")
    return "\n".join(out) + "\n"


class _Build(Transformer):
    """lark's tree -> the same AST nodes the table driver builds."""

    def __init__(self, builders: dict) -> None:
        super().__init__()
        self._builders = builders

    def __default__(self, data, children, meta):
        return self._builders[data](meta.start_pos, meta.end_pos, children)


def reference_parse(text: str, builders: dict):
    """Parse with lark itself (raises lark's own exceptions)."""
    return _Build(builders).transform(lark_parser().parse(text))


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    TABLES_PATH.write_text(render(), "utf-8")
    print(f"wrote {TABLES_PATH}")
