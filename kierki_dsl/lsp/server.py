"""The language server: lint's findings as the author types, hover (a key's doc, a contract,
an expression name, a finding's ``--explain`` text), completion (keys, the names of
the expression's own scope, cards and suits) and go-to-definition for ``extends`` and ``include``."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.server import LanguageServer

from .knowledge import card_names, key_docs, name_docs
from .scoping import scope_at, scope_names

server = LanguageServer("kierki-lsp", "1")
_WORD = re.compile(r"[A-Za-z0-9_.♠♥♦♣]+")


def path_of(uri: str) -> str:
    """The file system path of a ``file:`` URI."""
    return unquote(urlparse(uri).path)


def findings(path: str, text: str) -> list:
    """Lint's findings for the buffer ``text`` of the file at ``path`` that are in that file."""
    from ..lint import by_position
    from ..ruleset.model import load_ruleset

    _, diags = load_ruleset(path, data=text.encode("utf-8"))
    here = os.path.realpath(path)
    return [d for d in by_position(diags) if os.path.realpath(d.path) == here]


def to_lsp(d) -> lsp.Diagnostic:
    """One finding as an LSP diagnostic (0-based positions, the hint after the message)."""
    line, col = (d.pos.line - 1, d.pos.col - 1) if d.pos else (0, 0)
    end_line, end_col = d.pos.span_end() if d.pos else (1, 1)
    rng = lsp.Range(lsp.Position(line, col), lsp.Position(end_line - 1, max(end_col, col + 1)))
    severity = lsp.DiagnosticSeverity.Error if d.severity == "error" else lsp.DiagnosticSeverity.Warning
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "") + (f"\nnote: {d.note}" if d.note else "")
    return lsp.Diagnostic(rng, message, severity=severity, code=d.code, source="kierki lint")


def _publish(ls: LanguageServer, uri: str) -> None:
    doc = ls.workspace.get_text_document(uri)
    try:
        found = [to_lsp(d) for d in findings(path_of(uri), doc.source)]
    except OSError as e:  # a base file that cannot be read: said at the top of the file
        found = [lsp.Diagnostic(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)), str(e), source="kierki lint")]
    ls.publish_diagnostics(uri, found)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


def word_at(line: str, col: int) -> str:
    """The word (a key, a dotted name, a card, a code) under column ``col`` of ``line``."""
    for m in _WORD.finditer(line):
        if m.start() <= col <= m.end():
            return m.group()
    return ""


def hover_text(text: str, line: int, col: int, path: str = "") -> str | None:
    """What to show for the word at (``line``, ``col``), 0-based, or None."""
    from ..codes import CODES, explain
    from ..lint import lint_paths  # noqa: F401 (loads every phase: its lint codes join CODES)

    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    word = word_at(lines[line], col)
    if not word:
        return None
    if word in CODES:
        return explain(word)
    is_key = re.match(rf"^\s*(?:-\s+)?{re.escape(word)}\s*:", lines[line]) is not None
    if is_key and word in key_docs():
        return f"**{word}** — {key_docs()[word]}"
    contract = _contract_words(text, word, path)
    if contract:
        return contract
    if word in name_docs():
        return f"**{word}** — {name_docs()[word]}"
    if path:  # a finding on this line: its explanation
        for d in findings(path, text):
            if d.pos and d.pos.line == line + 1:
                return f"**{d.code}** {d.message}\n\n" + (explain(d.code) or "")
    return None


def _contract_words(text: str, word: str, path: str) -> str:
    if not path or not re.search(rf"^\s+{re.escape(word)}\s*:", text, re.MULTILINE):
        return ""
    try:
        from ..ruleset.model import load_ruleset

        rs, _ = load_ruleset(path, data=text.encode("utf-8"))
    except OSError:
        return ""
    if rs is None or word not in rs.contracts:
        return ""
    from ..explain import aspects

    c = rs.contracts[word]
    lines = [f"**{c.pl}** — {c.en}" if c.en else f"**{c.pl}**"]
    lines += [f"- {k}: {v}" for k, v in aspects(rs, word).items()]
    return "\n".join(lines)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    text = hover_text(doc.source, params.position.line, params.position.character, path_of(params.text_document.uri))
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text)) if text else None


def completions(text: str, line: int, col: int) -> list:
    """Completion items at (``line``, ``col``), 0-based: in an expression the names of its own
    scope (``scoping``), cards and suits; in another value cards and suits; else the keys."""
    lines = text.splitlines()
    line_text = lines[line][:col] if 0 <= line < len(lines) else ""
    cards = [lsp.CompletionItem(c, kind=lsp.CompletionItemKind.Constant) for c in card_names()]
    scope = scope_at(text, line, col)
    if scope is not None:
        names = [
            lsp.CompletionItem(n, kind=lsp.CompletionItemKind.Variable, documentation=d)
            for n, d in sorted(scope_names(*scope).items())
        ]
        return names + cards
    if re.match(r"^\s*(?:-\s+)?[a-z_]+\s*:\s*\S", line_text) or re.match(r"^\s*(?:-\s+)?\{", line_text):
        return cards
    return [
        lsp.CompletionItem(k, kind=lsp.CompletionItemKind.Property, documentation=d, insert_text=f"{k}: ")
        for k, d in sorted(key_docs().items())
    ]


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
def complete(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    items = completions(doc.source, params.position.line, params.position.character)
    return lsp.CompletionList(is_incomplete=False, items=items)


def definition_of(text: str, line: int, path: str) -> tuple[str, int] | None:
    """(file, 0-based line) that ``extends:`` or ``include:`` on ``line`` names, or None."""
    from ..shipped import find_ruleset

    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    m = re.match(r"^\s*extends\s*:\s*['\"]?([^'\"#]+?)['\"]?\s*(?:#.*)?$", lines[line])
    if m:
        found = find_ruleset(m.group(1), os.path.dirname(path))
        return (found, 0) if found else None
    m = re.match(r"^\s*(?:-\s+)?\{?\s*include\s*:\s*\[?\s*([a-z][a-z0-9_]*)", lines[line])
    if m:
        for k, other in enumerate(lines):
            if re.match(rf"^\s+{m.group(1)}\s*:", other):
                return path, k
    return None


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: LanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    found = definition_of(doc.source, params.position.line, path_of(params.text_document.uri))
    if found is None:
        return None
    target, line = found
    uri = "file://" + os.path.abspath(target)
    return lsp.Location(uri, lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)))


def main() -> None:
    """Serve over stdio until the editor says exit."""
    server.start_io()
