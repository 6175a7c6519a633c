"""The shape of JSON inputs (records, save files): read safely, checked against a small schema
per format before any value is used, every problem reported at its line.

``load(text)`` refuses nesting deeper than ``MAX_DEPTH`` in one linear scan *before* the
JSON parser (whose recursion a line of 100,000 ``[`` would exhaust) runs, then parses, then
indexes the line of every value by its path (``("deals", 3, "scores")``). ``check(value,
schema)`` walks a schema made of the small classes below and returns the first mismatch as
``(path, message)``; ``line_of`` turns the path into a line (the nearest enclosing value's if
the value itself is missing).
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

from .values import frozen

MAX_DEPTH = 64


class ShapeError(Exception):
    """A JSON input that is not well-formed or not of its format's shape, located by line."""

    def __init__(self, line: int, message: str, col: Optional[int] = None) -> None:
        super().__init__(message)
        self.line = line
        self.col = col
        self.message = message

    @property
    def where(self) -> str:
        """``LINE`` or ``LINE:COL``."""
        return f"{self.line}:{self.col}" if self.col else str(self.line)


# -- reading ---------------------------------------------------------------------------------
#: a JSON string, matched possessively: no backtracking state per character (the plain
#: ``"(?:[^"\\]|\\.)*"`` cost about 130 bytes of memory per character of a long string)
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_TOKEN = re.compile(r"\s*+(?:(" + _STRING + r")|([{}\[\],:])|(-?[0-9][0-9eE.+-]*+|true|false|null))")
#: what the depth check looks at: strings (skipped whole, even unterminated), brackets, newlines
_STRUCTURE = re.compile(_STRING + r'|"[^\n]*|[\[\]{}\n]')
#: the longest JSON text (one record, one line of a save file) ``load`` reads; the reading costs
#: a few bytes per character, so the bound keeps memory and time small
MAX_TEXT = 16 * 1024 * 1024


def load(text: str, first_line: int = 1, max_text: Optional[int] = MAX_TEXT) -> tuple:
    """``(value, lines)``: the parsed JSON and the line of every value by its path.

    ``first_line`` is the line ``text`` starts on in its file (JSON lines). Raises
    ``ShapeError`` for text longer than ``max_text``, nesting beyond ``MAX_DEPTH`` and text
    that is not JSON."""
    value = parse(text, first_line, max_text)
    return value, _lines(text, first_line)


def parse(text: str, first_line: int = 1, max_text: Optional[int] = MAX_TEXT):
    """The parsed JSON of ``text``, read as ``load`` reads it (its length and nesting bounded
    before the parser runs; ``ShapeError`` located by line) but without the line index: every
    JSON reader of kierki (records, save files, bot lines, tournament journals, the web's
    requests and messages) reads through here. ``max_text``: the reader's own bound on the
    text's length (None: bounded by the reader already)."""
    if max_text is not None and len(text) > max_text:
        raise ShapeError(first_line, f"{len(text):_} characters long (at most {max_text:_})")
    _check_depth(text, first_line)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ShapeError(first_line + e.lineno - 1, f"not valid JSON: {e.msg}", e.colno) from None
    except ValueError as e:  # an integer too long to read (Python's limit on digits)
        raise ShapeError(first_line, f"not a value kierki reads: {e}") from None


def _check_depth(text: str, first_line: int) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` (strings skipped whole by one regular expression)."""
    depth, line = 0, first_line
    for m in _STRUCTURE.finditer(text):
        token = m.group()
        if token == "\n":
            line += 1
        elif token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise ShapeError(line, f"JSON nests deeper than {MAX_DEPTH} levels")
        elif token in ("]", "}"):
            depth -= 1
        elif "\n" in token:  # a raw newline inside a string is not JSON; the parser says so
            line += token.count("\n")


def _lines(text: str, first_line: int) -> dict:
    """The line of every value of valid JSON ``text``, by path (no recursion)."""
    lines: dict = {}
    frames: list = []  # [kind, key or index, expecting a key]
    pos, line = 0, first_line
    while True:
        m = _TOKEN.match(text, pos)
        if m is None:
            return lines
        line += text.count("\n", pos, m.start(m.lastindex or 0))  # JSON tokens hold no raw newline
        pos = m.end()
        string, punct, _ = m.groups()
        top: Any = frames[-1] if frames else None
        if punct in ("}", "]"):
            frames.pop()
        elif punct == ",":
            if top[0] == "list":
                top[1] += 1
            else:
                top[2] = True
        elif punct == ":":
            top[2] = False
        elif string is not None and top is not None and top[0] == "obj" and top[2]:
            top[1] = json.loads(string)
        else:  # a value starts here
            lines[tuple(f[1] for f in frames)] = line
            if punct == "{":
                frames.append(["obj", None, True])
            elif punct == "[":
                frames.append(["list", 0, False])


def line_of(lines: dict, path: tuple, default: int = 1) -> int:
    """The line of the value at ``path``, or of the nearest value that encloses it."""
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, default)


# -- schemas ---------------------------------------------------------------------------------
@frozen
class Int:
    """An integer (never a boolean) in ``[low, high]``."""

    low: Optional[int] = None
    high: Optional[int] = None
    name: str = "an integer"

    def problem(self, v) -> Optional[str]:
        if not isinstance(v, int) or isinstance(v, bool):
            return f"must be {self.name}"
        if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            return (
                f"must be {self.name} from {self.low} to {self.high}"
                if self.high is not None
                else f"must be {self.name} of at least {self.low}"
            )
        return None


@frozen
class Str:
    """A string of at most ``max_chars`` characters, optionally one of ``values``."""

    values: tuple = ()
    name: str = "a string"
    max_chars: int = 4096

    def problem(self, v) -> Optional[str]:
        if not isinstance(v, str):
            return f"must be {self.name}"
        if len(v) > self.max_chars:
            return f"is {len(v):_} characters long (at most {self.max_chars:_})"
        if self.values and v not in self.values:
            return f"must be {' or '.join(repr(x) for x in self.values)}"
        return None


@frozen
class Null:
    name: str = "null"

    def problem(self, v) -> Optional[str]:
        return None if v is None else "must be null"


@frozen
class List:
    """A list of ``item``, with at most ``max_items`` items."""

    item: object
    max_items: int = 10_000
    name: str = ""

    def problem(self, v) -> Optional[str]:
        if not isinstance(v, list):
            return f"must be {self.name or 'a list'}"
        if len(v) > self.max_items:
            return f"has {len(v)} items (at most {self.max_items})"
        return None


@frozen
class Obj:
    """An object with these ``fields`` (``required`` among them); other keys are allowed."""

    fields: dict
    required: tuple = ()
    name: str = "an object"

    def problem(self, v) -> Optional[str]:
        if not isinstance(v, dict):
            return f"must be {self.name}"
        return None


@frozen
class OneOf:
    """Any one of ``options``."""

    options: tuple
    name: str = ""

    def problem(self, v) -> Optional[str]:
        for o in self.options:
            if _first(v, o, ()) is None:
                return None
        return f"must be {self.name or ' or '.join(_describe(o) for o in self.options)}"


def _describe(schema) -> str:
    if isinstance(schema, List):
        return schema.name or f"a list of {_plural(schema.item)}"
    return schema.name


def _plural(schema) -> str:
    return {"an integer": "integers", "a string": "strings"}.get(
        _describe(schema), f"items that are {_describe(schema)}"
    )


def check(value, schema) -> Optional[tuple]:
    """The first place ``value`` does not fit ``schema``: ``(path, message)``; None if it fits."""
    return _first(value, schema, ())


def _first(value, schema, path: tuple) -> Optional[tuple]:
    stack = [(value, schema, path)]
    while stack:
        v, s, p = stack.pop()
        problem = s.problem(v)
        if problem is not None:
            return p, f"{_label(p)} {problem}, got {_shown(v)}"
        if isinstance(s, Obj):
            missing = [k for k in s.required if k not in v]
            if missing:
                return p, f"{_label(p)} has no {missing[0]!r}"
            stack.extend((v[k], sub, p + (k,)) for k, sub in reversed(list(s.fields.items())) if k in v)
        elif isinstance(s, List):
            stack.extend((item, s.item, p + (i,)) for i, item in reversed(list(enumerate(v))))
    return None


def _label(path: tuple) -> str:
    if not path:
        return "the document"
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (("." if out else "") + str(part))
    return repr(out)


def _shown(v) -> str:
    """A value as a message quotes it: at most 40 characters (a long string is cut before it is
    written out, so a 16 MB value costs nothing here)."""
    text = json.dumps(v[:40] if isinstance(v, str) else v, ensure_ascii=False)
    return text if len(text) <= 40 and not (isinstance(v, str) and len(v) > 40) else text[:37] + "..."


__all__ = ["MAX_DEPTH", "ShapeError", "load", "parse", "line_of", "check", "Int", "Str", "Null", "List", "Obj", "OneOf"]
