"""Located, coded findings and how they are rendered.

Every problem the loader, the checker or the interpreter finds in user input becomes a
``Diagnostic``: a position in a file, a code, a severity and a message. Passes collect
them in a ``Diagnostics`` list instead of stopping at the first one; a pass that cannot go
on raises ``DiagnosticError`` carrying what it has collected.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Optional

import attrs

from .i18n import DEFAULT, L_, N_, finding_said, language, tr
from .values import frozen

ERROR = "error"
WARNING = "warning"


#: how many characters of an input value a message quotes (a 20 MB value is never echoed whole)
QUOTE_LIMIT = 80


def quoted(value, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of an input value for a message, cut to ``limit`` characters and saying how long it is."""
    if not isinstance(value, str):
        text = repr(value)
        return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"
    if len(value) <= limit:
        return repr(value)
    return repr(value[:limit]) + f"... ({len(value)} characters)"


#: Words an author may write for a word the language uses (by meaning, not by spelling).
SYNONYMS = {
    "final": "last",
    "end": "last",
    "ending": "last",
    "closing": "last",
    "latest": "last",
    "start": "first",
    "starting": "first",
    "begin": "first",
    "opening": "first",
    "initial": "first",
    "count": "number",
    "num": "number",
    "amount": "number",
    "total": "sum",
    "player": "seat",
    "owner": "holder",
    "taker": "winner",
    "colour": "suit",
    "color": "suit",
    "value": "rank",
    "trumps": "trump",
}


def _by_meaning(word: str, choices: list) -> str:
    """The choice ``word`` means once its parts are read through ``SYNONYMS`` (``is_final`` ->
    ``is_last``), or ''."""
    parts = word.lower().split("_")
    meant = "_".join(SYNONYMS.get(p, p) for p in parts)
    if meant != word.lower() and meant in choices:
        return meant
    return ""


def closest(word: str, choices) -> str:
    """The choice closest to a misspelt ``word``: by meaning first (a small synonym table),
    then by spelling (edit similarity); '' when none is close."""
    import difflib  # only when there is a finding to explain

    choices = list(choices)
    meant = _by_meaning(word, choices)
    if meant:
        return meant
    close = difflib.get_close_matches(word, choices, n=1)
    return close[0] if close else ""


def did_you_mean(word: str, choices, otherwise: str = "") -> str:
    """A hint naming the closest of ``choices`` to a misspelt ``word``, else ``otherwise``."""
    close = closest(word, choices)
    return L_("did you mean {close!r}?", close=close) if close else otherwise


@frozen
class Pos:
    """A 1-based line and column in a file (``end_*`` inclusive of the span's last column)."""

    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def span_end(self) -> tuple[int, int]:
        if self.end_line:
            return self.end_line, self.end_col
        return self.line, self.col


@frozen
class Diagnostic:
    """One finding: where, which code, how bad, what, and how to fix it."""

    path: str
    pos: Optional[Pos]
    code: str
    message: str
    severity: str = ERROR
    hint: str = ""
    note: str = ""  # a second place that matters (e.g. where an inherited value was written)

    def headline(self) -> str:
        where = self.path if self.pos is None else f"{self.path}:{self.pos.line}:{self.pos.col}"
        return f"{where}: {self.severity}: {self.code} {self.message}"

    def said(self) -> "Diagnostic":
        """This finding as a person reads it in the language in force: its message, hint and note
        worded from the sentences they were filled from (``L_``); the same finding in English.
        Its path, position, code and severity are the finding's own (a program reads them)."""
        if language() == DEFAULT:
            return self
        return attrs.evolve(
            self, message=finding_said(self.message), hint=finding_said(self.hint), note=finding_said(self.note)
        )

    def to_json(self) -> dict:
        line = self.pos.line if self.pos else None
        col = self.pos.col if self.pos else None
        end = self.pos.span_end() if self.pos else (None, None)
        return {
            "path": self.path,
            "line": line,
            "column": col,
            "end_line": end[0],
            "end_column": end[1],
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "note": self.note,
        }


class Diagnostics:
    """An ordered collection of findings for one or more files."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def add(self, d: Diagnostic) -> None:
        self.items.append(d)

    def error(self, path: str, pos: Optional[Pos], code: str, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(path, pos, code, message, ERROR, hint))

    def warning(self, path: str, pos: Optional[Pos], code: str, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(path, pos, code, message, WARNING, hint))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == ERROR]

    def has_errors(self) -> bool:
        return any(d.severity == ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        def key(d: Diagnostic):
            return (d.path, d.pos.line if d.pos else 0, d.pos.col if d.pos else 0)

        return sorted(self.items, key=key)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


class DiagnosticError(Exception):
    """Raised when input is too broken to go on; carries every finding so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.headline() for d in self.diagnostics))


#: The words of a rendered finding other than its message (GCC's Polish words).
SEVERITY_WORDS = {ERROR: N_("error"), WARNING: N_("warning")}


def render(d: Diagnostic, source: Optional[str] = None) -> str:
    """The headline, then the source line with a caret under the span (``^~~~``); in the
    language in force (``--lang``): the message, hint, note and the words ``error``, ``warning``,
    ``note``, ``hint`` are translated, the path, position and code are not."""
    english = language() == DEFAULT
    if not english:
        d = d.said()
    if english:
        out = [d.headline()]
    else:
        where = d.path if d.pos is None else f"{d.path}:{d.pos.line}:{d.pos.col}"
        out = [f"{where}: {tr(SEVERITY_WORDS.get(d.severity, d.severity))}: {d.code} {d.message}"]
    if d.pos is not None and source is not None:
        lines = source.splitlines()
        if 1 <= d.pos.line <= len(lines) + 1:  # one past the end: the position at end of file
            text = lines[d.pos.line - 1].replace("\t", " ") if d.pos.line <= len(lines) else ""
            end_line, end_col = d.pos.span_end()
            width = 1
            if end_line == d.pos.line and end_col > d.pos.col:
                width = end_col - d.pos.col + 1
            width = max(1, min(width, len(text) - d.pos.col + 1, 200))
            pos = d.pos
            if pos.col > len(text) + 1:
                pos = Pos(pos.line, len(text) + 1)
                d = attrs.evolve(d, pos=pos)
            shown = text if len(text) <= 240 else text[: max(240, pos.col + width + 10)]
            out.append(f"  {shown}")
            out.append("  " + " " * (pos.col - 1) + "^" + "~" * (width - 1))
    if d.note:
        out.append("  " + tr("note: {note}").format(note=d.note))
    if d.hint:
        out.append("  " + tr("hint: {hint}").format(hint=d.hint))
    return "\n".join(out)
