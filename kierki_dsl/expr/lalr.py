"""A small LALR(1) driver that runs the parse tables lark generates, without importing lark.

Start-up matters for a command-line linter: importing lark and loading its parser costs
several times what parsing every expression of a ruleset does. So lark builds the tables
from ``grammar/expr.lark`` once, ahead of time (``python -m kierki_dsl.expr.gentables``
writes ``grammar/expr_tables.py``), and this module runs them with lark's semantics:

* the contextual lexer: in each parser state only the terminals that state accepts are
  tried, in lark's order, keywords split off ``NAME`` as lark's "unless" callback does; a
  text that only another state could lex is an unexpected *token*, else an unexpected
  *character*;
* the tree builder: anonymous tokens are dropped, ``_``-rules are spliced into their parent,
  ``?``-rules with one child pass it through, and positions propagate as lark's
  ``propagate_positions`` does (a node spans its first child's container to its last's).

The test suite checks the tables against the grammar and this driver against lark itself,
parse for parse and error for error.
"""

from __future__ import annotations

import re
from typing import Callable, Optional


class Token:
    """A lexed token: its terminal name, text and character offsets."""

    __slots__ = ("type", "value", "start_pos", "end_pos")

    def __init__(self, type_: str, value: str, start: int, end: int) -> None:
        self.type = type_
        self.value = value
        self.start_pos = start
        self.end_pos = end

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r}, {self.start_pos})"


class UnexpectedCharacters(Exception):
    """No terminal matches at ``pos``."""

    def __init__(self, pos: int, allowed: frozenset) -> None:
        super().__init__(f"unexpected character at {pos}")
        self.pos_in_stream = pos
        self.allowed = allowed


class UnexpectedToken(Exception):
    """A token (``$END`` for the end of the text) that the parser state does not accept."""

    def __init__(self, token: Token, expected: frozenset) -> None:
        super().__init__(f"unexpected {token.type} at {token.start_pos}")
        self.token = token
        self.expected = expected


#: Builds a tree node from (start offset, end offset, kept children).
Builder = Callable[[int, int, list], object]


class _Lexer:
    """One state's lexer: its terminals in lark's order, tried one by one (the first that
    matches wins, as in lark's alternation of them), and the keywords that split off them."""

    __slots__ = ("terminals", "keywords", "allowed")

    def __init__(self, terminals: tuple, keywords: dict, allowed: frozenset) -> None:
        self.terminals = terminals  # ((name, compiled regex), ...)
        self.keywords = keywords
        self.allowed = allowed

    def match(self, text: str, pos: int):
        for name, regex in self.terminals:
            m = regex.match(text, pos)
            if m is not None:
                value = m.group()
                return self.keywords.get(name, {}).get(value, name), value
        return None


class LalrParser:
    """Parses text with generated tables, building nodes with ``builders[rule name]``."""

    def __init__(self, tables, builders: dict) -> None:
        compiled = {name: re.compile(pattern) for name, pattern in tables.TERMINALS.items()}
        self._ignore = frozenset(tables.IGNORE)
        self._lexers = [
            _Lexer(tuple((name, compiled[name]) for name in order), keywords, frozenset(allowed))
            for order, keywords, allowed in tables.LEXERS
        ]
        self._root = self._lexers[tables.ROOT_LEXER]
        self._state_lexer = [self._lexers[i] for i in tables.STATE_LEXER]
        self._actions = tables.ACTIONS
        self._rules = [
            (origin, length, keep, builders.get(name), expand1) for origin, length, keep, name, expand1 in tables.RULES
        ]
        self._start = tables.START_STATE
        self._end = tables.END_STATE

    def _next(self, text: str, pos: int, state: int) -> Optional[Token]:
        """The next token from ``pos`` for the parser in ``state`` (None at the end)."""
        lexer = self._state_lexer[state]
        n = len(text)
        while pos < n:
            found = lexer.match(text, pos)
            if found is None:  # lark's contextual lexer: would any state lex this?
                other = self._root.match(text, pos)
                if other is None:
                    raise UnexpectedCharacters(pos, lexer.allowed)
                raise UnexpectedToken(Token(other[0], other[1], pos, pos + len(other[1])), lexer.allowed)
            kind, value = found
            if kind not in self._ignore:
                return Token(kind, value, pos, pos + len(value))
            pos += len(value)
        return None

    def parse(self, text: str):
        """The tree built from ``text``; raises ``UnexpectedCharacters``/``UnexpectedToken``."""
        states = [self._start]
        values: list = []  # (value, container start, container end)
        pos, last = 0, None
        while True:
            token = self._next(text, pos, states[-1])
            if token is None:  # lark's $END borrows the last token's place
                at = (last.start_pos, last.end_pos) if last else (0, 1)
                return self._feed(Token("$END", "", *at), states, values, True)
            self._feed(token, states, values, False)
            pos, last = token.end_pos, token

    def _feed(self, token: Token, states: list, values: list, is_end: bool):
        actions = self._actions
        while True:
            row = actions[states[-1]]
            code = row.get(token.type)
            if code is None:
                raise UnexpectedToken(token, frozenset(s for s in row if s.isupper()))
            if code >= 0:  # shift
                states.append(code)
                values.append((token, token.start_pos, token.end_pos))
                return None
            origin, length, keep, build, expand1 = self._rules[~code]
            if length:
                taken = values[-length:]
                del states[-length:]
                del values[-length:]
                start, end = taken[0][1], taken[-1][2]
            else:
                taken, start, end = [], 0, 0
            children: list = []
            for how, (value, _, _) in zip(keep, taken):
                if how == 1:
                    children.append(value)
                elif how == 2:
                    children.extend(value)
            if expand1 and len(children) == 1:  # a ?-rule passes its only child up
                value = children[0]
            elif origin.startswith("_"):  # a helper rule: its children join the parent's
                value = children
            elif build is None:
                raise LookupError(f"no builder for grammar rule {origin!r}")
            else:
                value = build(start, end, children)
            states.append(actions[states[-1]][origin])
            values.append((value, start, end))
            if is_end and states[-1] == self._end:
                return value
