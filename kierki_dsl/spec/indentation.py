"""YAML's indentation errors said in words: which line is indented less (or more) than the
key above it, and the columns that would be right."""

from __future__ import annotations

import re

from ..i18n import L_

_KEY = re.compile(r"^( *)((?:- +)*)([^\s:#'\"-][^:#]*?|'[^']*'|\"[^\"]*\") *:(?: |$)")


def _key_at(line: str) -> tuple[str, int] | None:
    """The key a line starts (after any ``- ``) and its 0-based column, or None."""
    m = _KEY.match(line)
    return (m.group(3), len(m.group(1)) + len(m.group(2))) if m else None


def _lines_above(lines: list[str], row: int):
    """The keyed lines above ``row`` (0-based), nearest first."""
    for text in reversed(lines[:row]):
        if text.strip() and not text.lstrip().startswith("#"):
            key = _key_at(text)
            if key:
                yield key


def in_words(problem: str, text: str, line: int) -> tuple[int, str, str] | None:
    """(the key's 1-based column, message, hint) for an indentation error PyYAML reported at ``line`` (1-based), or None
    when ``problem`` is not one or the lines do not show it."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    this = _key_at(lines[line - 1])
    if this is None:
        return None
    col = this[1]
    above = next(_lines_above(lines, line - 1), None)
    if above is None:
        return None
    if problem.startswith("expected <block end>") and above[1] > col:
        outer = next((k for k in _lines_above(lines, line - 1) if k[1] < col), None)
        message = L_(
            "this line is indented less than the key above it ({key!r}, {spaces} spaces in)",
            key=above[0],
            spaces=above[1],
        )
        if outer is None:
            hint = L_(
                "keys of one mapping start in the same column: indent {this!r} by {spaces} spaces like {key!r}",
                this=this[0],
                spaces=above[1],
                key=above[0],
            )
        else:
            hint = L_(
                "keys of one mapping start in the same column: indent {this!r} by {spaces} spaces like {key!r}, "
                "or by {outer_spaces} like {outer!r} if it belongs to that mapping",
                this=this[0],
                spaces=above[1],
                key=above[0],
                outer_spaces=outer[1],
                outer=outer[0],
            )
        return col + 1, message, hint
    if problem.startswith("mapping values are not allowed") and above[1] < col:
        message = L_(
            "this line is indented more than the key above it ({key!r}, {spaces} spaces in), which already has a value",
            key=above[0],
            spaces=above[1],
        )
        hint = L_(
            "indent {this!r} by {spaces} spaces like {key!r}, or move {key!r}'s value onto "
            "its own lines below it if {this!r} belongs inside",
            this=this[0],
            spaces=above[1],
            key=above[0],
        )
        return col + 1, message, hint
    return None
