"""A safe, position-keeping YAML reader for rulesets.

PyYAML's own loaders are either unsafe or lossy: they keep the last of two duplicate keys,
expand anchors without bound, read ``no`` as ``False`` and ``010`` as 8, and report bad bytes
by offset. This reader checks the bytes itself, then builds a small tree straight from
PyYAML's event stream (which is iterative, so depth is bounded here before anything
recurses), and refuses what a ruleset never needs: tags, anchors, aliases, merge keys,
non-string keys, several documents. Scalars stay strings with their style; the schema
decides what a scalar means, so YAML 1.1 guesses never reach the program.
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import Iterator, Optional, Union

import yaml

from ..diagnostics import Diagnostic, DiagnosticError, Pos
from ..i18n import L_
from ..values import define
from .indentation import in_words

MAX_BYTES = 128 * 1024
MAX_DEPTH = 32
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_YAML11_KEY = re.compile(
    r"^(~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF"
    r"|y|Y|n|N|[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|)$"
)


class Source:
    """The decoded text of one file with a line index, for positions and carets."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos(self, index: int) -> Pos:
        line = bisect.bisect_right(self._starts, index) - 1
        return Pos(line + 1, index - self._starts[line] + 1)

    def index(self, line: int, col: int) -> int:
        return self._starts[line - 1] + col - 1


@define(eq=False)
class Scalar:
    """A scalar exactly as written: its text, whether it was plain, and where it stands."""

    value: str
    style: Optional[str]  # None = plain, "'" '"' "|" ">"
    pos: Pos
    source: Source
    start: int  # index of the scalar's first character in source.text
    end: int
    _map: Optional[list[int]] = None

    @property
    def plain(self) -> bool:
        return self.style is None

    def pos_at(self, i: int) -> Pos:
        """The file position of character ``i`` of the scalar's value (for expression errors)."""
        if self._map is None:
            self._map = _align(self)
        if not self._map:
            return self.pos
        i = max(0, min(i, len(self._map) - 1))
        return self.source.pos(self._map[i])

    def span(self) -> Pos:
        end = self.source.pos(max(self.start, self.end - 1))
        return Pos(self.pos.line, self.pos.col, end.line, end.col)


@define(eq=False)
class Seq:
    items: list
    pos: Pos
    source: Optional[Source] = None


@define(eq=False)
class Map:
    """A mapping with string keys in file order; ``keys`` holds each key's scalar node."""

    entries: dict
    keys: dict
    pos: Pos
    source: Optional[Source] = None

    def get(self, key: str, default=None):
        return self.entries.get(key, default)


Node = Union[Scalar, Seq, Map]


def node_path(node, default: str) -> str:
    """The file a node was read from (a variant's values come from several files)."""
    src = getattr(node, "source", None)
    return src.path if src is not None else default


#: Characters of source text taken by a double-quoted escape, after the backslash's letter.
_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}


def _align_quoted(s: Scalar) -> list[int]:
    """Map each value character of a quoted scalar to its source index, following escapes
    (``\\x20``, ``\\u00e9``, ``''``...) and folded line breaks exactly; [] if they cannot be
    followed (positions then fall back to the scalar's start)."""
    raw, value = s.source.text, s.value
    j, end = s.start + 1, max(s.start + 1, s.end - 1)
    out: list = []
    while len(out) < len(value) and j < end:
        c, want = raw[j], value[len(out)]
        if s.style == '"' and c == "\\":
            nxt = raw[j + 1] if j + 1 < end else ""
            if nxt in ("\n", "\r"):  # an escaped line break: nothing, nor the next line's indent
                j += 2
                while j < end and raw[j] in " \t\r\n":
                    j += 1
                continue
            out.append(j)
            j += _ESCAPE_LENGTH.get(nxt, 2)
        elif s.style == "'" and c == "'" and raw[j + 1 : j + 2] == "'":
            out.append(j)
            j += 2
        elif c == want:
            out.append(j)
            j += 1
        elif c in " \t\r\n":  # a folded line break (and the indentation around it)
            if want in " \n":
                out.append(j)
            while j < end and raw[j] in " \t\r\n":
                j += 1
        else:
            return []
    return out if len(out) == len(value) else []


def _align(s: Scalar) -> list[int]:
    """Map each value character to a source index (quoted scalars exactly, others by walking
    the raw text greedily)."""
    if s.style in ('"', "'"):
        return _align_quoted(s)
    raw = s.source.text
    j = s.start
    if s.style in ("|", ">"):
        nl = raw.find("\n", j)
        j = s.end if nl < 0 else nl + 1
    out = []
    for ch in s.value:
        k = j
        while k < s.end and raw[k] != ch:
            k += 1
        if k >= s.end:  # escape or folding we cannot follow: stay where we are
            out.append(min(j, max(s.start, s.end - 1)))
            continue
        out.append(k)
        j = k + 1
    return out


def decode(path: str, data: bytes) -> Source:
    """Check size, encoding and control characters; return the text (BOM stripped)."""
    if len(data) > MAX_BYTES:
        raise DiagnosticError(
            [
                Diagnostic(
                    path,
                    None,
                    "Y113",
                    L_(
                        "ruleset is {size}; limit {limit}",
                        size=human_size(len(data)),
                        limit=human_size(MAX_BYTES),
                    ),
                    hint=L_("a ruleset is a few kilobytes; is this the right file?"),
                )
            ]
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        col = len(before[line_start:].decode("utf-8", "replace")) + 1
        raise DiagnosticError(
            [
                Diagnostic(
                    path,
                    Pos(line, col),
                    "Y109",
                    L_("file is not valid UTF-8 (byte 0x{byte:02X})", byte=data[e.start]),
                    hint=L_("save the file as UTF-8"),
                )
            ]
        ) from None
    src = Source(path, text)
    m = _CONTROL.search(text)
    if m:
        raise DiagnosticError(
            [
                Diagnostic(
                    path,
                    src.pos(m.start()),
                    "Y110",
                    L_("control character U+{code:04X} not allowed", code=ord(m.group())),
                )
            ]
        )
    tabs = [
        Diagnostic(
            path,
            src.pos(m.end() - 1),
            "Y102",
            L_("tabs are not allowed for indentation"),
            hint=L_("indent with spaces"),
        )
        for m in itertools.islice(re.finditer(r"^[ ]*\t", text, re.M), MAX_READER_FINDINGS)
    ]
    if tabs:  # every indented line at once: the YAML parser could not go past the first
        raise DiagnosticError(tabs)
    return src


def human_size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MiB"
    return f"{n / 1024:.0f} KiB"


def load(path: str, data: bytes, soft: Optional[list] = None) -> tuple[Source, Node]:
    """Read a ruleset file into a node tree, or raise ``DiagnosticError`` with findings.

    Problems that leave a usable tree (a duplicate or non-string key: the later entry is
    dropped) go to ``soft`` when it is given, so later passes can still report theirs.
    """
    src = decode(path, data)
    return src, build(src, soft)


def build(src: Source, soft: Optional[list] = None) -> Node:
    errors: list[Diagnostic] = []
    path = src.path
    try:
        root = _build(src, _events(src.text), errors)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        pos = Pos(mark.line + 1, mark.column + 1) if mark else None
        problem = (e.problem or e.context or "invalid YAML").strip()
        words = in_words(problem, src.text, pos.line) if pos else None
        if words and pos is not None:  # an indentation slip, said in words and pointed at the line's key
            col, message, hint = words
            errors.append(Diagnostic(path, Pos(pos.line, col), "Y101", message, hint=hint))
        else:
            errors.append(
                Diagnostic(
                    path, pos, "Y101", L_("YAML syntax error: {problem}", problem=problem), hint=_flow_hint(problem)
                )
            )
        raise DiagnosticError(errors) from None
    except yaml.YAMLError as e:
        errors.append(Diagnostic(path, None, "Y101", L_("YAML error: {e}", e=e)))
        raise DiagnosticError(errors) from None
    except _Stop:
        raise DiagnosticError(errors) from None
    if root is _HOLES:  # the reader went on to the end, but the tree has holes: stop here
        raise DiagnosticError(errors)
    if errors and soft is None:
        raise DiagnosticError(errors)
    if soft is not None:
        soft.extend(errors)
    if root is None:
        raise DiagnosticError([Diagnostic(path, Pos(1, 1), "Y111", L_("ruleset is empty"))])
    if not isinstance(root, Map):
        raise DiagnosticError(
            [Diagnostic(path, root.pos, "Y115", L_("top level must be a mapping (key: value lines)"))]
        )
    return root


def _flow_hint(problem: str) -> str:
    """Advice for the commonest slip inside ``{...}`` or ``[...]``: an unquoted value holding
    brackets or commas (``{per_card: card.rank in [K, J]}``)."""
    if problem.startswith(("expected ',' or '}'", "expected ',' or ']'")):
        return L_(
            "inside { } or [ ] a plain value ends at a comma or bracket: quote a value that holds "
            'them ("card.rank in [K, J]"), or write the mapping one key a line'
        )
    return ""


def _events(text: str):
    """PyYAML's event stream for ``text``: from libyaml when PyYAML has it (same events and
    marks, several times faster), else, and for every text libyaml rejects, from PyYAML's
    own parser, whose error messages are the ones users see and the tests pin."""
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return list(yaml.parse(text, Loader=fast))
        except yaml.YAMLError:
            pass
    return yaml.parse(text, Loader=yaml.SafeLoader)


class _Stop(Exception):
    pass


_SKIP = object()
_HOLES = object()  # what ``_build`` returns for a tree with values left out (aliases, tags, merge keys)

#: Findings the reader reports before it stops (a file of a thousand aliases needs no more).
MAX_READER_FINDINGS = 50


def _mpos(mark) -> Pos:
    return Pos(mark.line + 1, mark.column + 1)


def _build(src: Source, events: Iterator, errors: list):
    """The node tree of the event stream, every YAML finding in ``errors``.

    Reading goes on after a finding where it safely can: a duplicate or non-string key and
    an anchor are left out and the tree is still checked; an alias, a tag or a merge key is
    left out and reading goes on to report the rest, but the tree (which lacks what they
    stood for) is not checked further (``_HOLES``). Syntax errors, nesting too deep and too
    many findings stop at once; a second document stops reading (the first is checked)."""
    path = src.path
    stack: list = []  # frames: [node, pending_key or None]
    root: Optional[Node] = None
    documents = 0
    holes = False
    aliased: set = set()

    def report(mark, code: str, message: str, hint: str = "") -> None:
        errors.append(Diagnostic(path, _mpos(mark), code, message, hint=hint))
        if len(errors) >= MAX_READER_FINDINGS:
            raise _Stop

    def fatal(mark, code: str, message: str, hint: str = "") -> None:
        errors.append(Diagnostic(path, _mpos(mark), code, message, hint=hint))
        raise _Stop

    def drop_entry(mark, code: str, message: str, hint: str = "") -> None:
        """Report a bad key and leave its entry out; reading goes on."""
        report(mark, code, message, hint)
        stack[-1][1] = _SKIP

    def leave_out(mark, code: str, message: str, hint: str = "") -> None:
        """Report a value the tree cannot hold (an alias; no ``code``: reported already) and
        leave it, and its key, out."""
        nonlocal holes
        holes = True
        if code:
            report(mark, code, message, hint)
        if not stack:
            raise _Stop
        frame = stack[-1]
        if isinstance(frame[0], Seq):
            return
        frame[1] = _SKIP if frame[1] is None else None  # a key: skip its value; a value: drop the entry

    def attach(node: Node, ev) -> None:
        nonlocal root, holes
        if not stack:
            root = node
            return
        frame = stack[-1]
        parent = frame[0]
        if isinstance(parent, Seq):
            parent.items.append(node)
        elif frame[1] is None:  # this node is a key
            if not isinstance(node, Scalar):
                holes = True
                drop_entry(ev.start_mark, "Y107", L_("mapping keys must be plain strings, not collections"))
                return
            key = node.value
            if node.plain and key == "<<":
                holes = True
                drop_entry(ev.start_mark, "Y106", L_("merge keys ('<<') are not supported"), L_("write the keys out"))
                return
            if node.plain and _YAML11_KEY.match(key):
                shown = key if key else "(empty)"
                drop_entry(
                    ev.start_mark,
                    "Y107",
                    L_("mapping keys must be plain strings, got {shown!r}", shown=shown),
                    L_("YAML reads this key as null, a number or a boolean; use a name"),
                )
                return
            if key in parent.entries:
                first = parent.keys[key].pos
                drop_entry(
                    ev.start_mark,
                    "Y103",
                    L_("duplicate key {key!r} (first at {line}:{col})", key=key, line=first.line, col=first.col),
                    L_("YAML tools silently keep only one of the two; remove one"),
                )
                return
            frame[1] = node
        elif frame[1] is _SKIP:  # the value of a refused key
            frame[1] = None
        else:
            key = frame[1]
            parent.entries[key.value] = node
            parent.keys[key.value] = key
            frame[1] = None

    for ev in events:
        if isinstance(ev, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                report(
                    ev.start_mark,
                    "Y108",
                    L_("expected a single document, found another ('---')"),
                    L_("the rest of the file is not read; remove it or make it a separate file"),
                )
                break
            continue
        if isinstance(ev, (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)):
            continue
        if isinstance(ev, yaml.AliasEvent):
            if ev.anchor in aliased:  # one finding per anchor: the rest are the same fix
                leave_out(None, "", "")
                continue
            aliased.add(ev.anchor)
            leave_out(
                ev.start_mark,
                "Y105",
                L_("anchors and aliases are not allowed (*{anchor})", anchor=ev.anchor),
                L_("write the value out, or share scoring with include"),
            )
            continue
        anchor = getattr(ev, "anchor", None)
        if anchor is not None:  # harmless without its aliases: reported, the value kept
            report(ev.start_mark, "Y105", L_("anchors and aliases are not allowed (&{anchor})", anchor=anchor))
        tag = getattr(ev, "tag", None)
        if tag is not None and not (isinstance(ev, yaml.ScalarEvent) and tag == "!" and ev.style):
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            holes = True
            report(ev.start_mark, "Y104", L_("explicit YAML tag not allowed ({shown})", shown=shown))
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if len(stack) >= MAX_DEPTH:
                fatal(ev.start_mark, "Y112", L_("nesting deeper than {limit} levels", limit=MAX_DEPTH))
            pos = _mpos(ev.start_mark)
            node: Node = Map({}, {}, pos, src) if isinstance(ev, yaml.MappingStartEvent) else Seq([], pos, src)
            attach(node, ev)
            stack.append([node, None])
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            stack.pop()
        elif isinstance(ev, yaml.ScalarEvent):
            start, end = ev.start_mark, ev.end_mark
            assert start is not None and end is not None  # the parser marks every event it makes
            node = Scalar(
                ev.value,
                ev.style or None,
                _mpos(start),
                src,
                start.index,
                end.index,
            )
            attach(node, ev)
    return _HOLES if holes else root
