"""Rulesets a table can play: the shipped ones (and any folder given with ``--rulesets``) and
uploaded files, which are linted first exactly as ``kierki lint`` does and must be self-contained.
"""

from __future__ import annotations

import os
import re
import tempfile
from typing import Optional

import attrs

from ..diagnostics import Diagnostic, Pos, render
from ..i18n import DEFAULT, L_, tr, using
from ..shipped import candidates, rulesets_dir
from ..values import frozen

SHIPPED = rulesets_dir()


@frozen
class Entry:
    """A ruleset on the server's list: ``ref`` is its path relative to its folder."""

    ref: str
    path: str
    name: str
    description: str
    players: int
    explain: str

    def to_json(self) -> dict:
        return {
            "id": self.ref,
            "name": self.name,
            "description": self.description,
            "players": self.players,
            "explain": self.explain,
        }


@frozen
class Upload:
    """The outcome of linting an uploaded ruleset: its findings and, when clean, the ruleset."""

    findings: tuple  # finding documents (kierki lint --format json, with ``text`` as kierki lint prints it)
    ruleset: object = None

    @property
    def ok(self) -> bool:
        return self.ruleset is not None


class Catalogue:
    """The rulesets a server offers, loaded once (``folders``: the shipped one first)."""

    def __init__(self, folders=(SHIPPED,)):
        from ..explain import explain
        from ..lint import expand
        from ..ruleset.model import load_ruleset

        self.entries: dict = {}
        self.rulesets: dict = {}
        self._words: dict = {}  # language -> the entries in its words (made when first asked for)
        for folder in folders:
            files, _ = expand([folder])
            for path in files:
                rs, diags = load_ruleset(path)
                if rs is None or diags.has_errors():
                    continue  # a broken file in an extra folder is not offered
                ref = os.path.relpath(path, folder).replace(os.sep, "/")
                if folder != folders[0]:
                    ref = f"{os.path.basename(os.path.normpath(folder))}/{ref}"
                if ref in self.entries:
                    continue
                self.entries[ref] = Entry(
                    ref, path, rs.name, " ".join((rs.description or "").split()), rs.players, explain(rs)
                )
                self.rulesets[ref] = rs

    def list(self, lang: str = DEFAULT) -> list:
        """The offered rulesets, each with its description and ``kierki explain`` text in ``lang``."""
        entries = sorted(self.entries.values(), key=lambda e: (e.ref.count("/"), e.ref))
        if lang == DEFAULT:
            return [e.to_json() for e in entries]
        if lang not in self._words:
            from ..explain import explain

            self._words[lang] = [self._worded(e, lang, explain) for e in entries]
        return [e.to_json() for e in self._words[lang]]

    def _worded(self, e: Entry, lang: str, explain) -> Entry:
        """``e`` with its description and explain text in ``lang`` (the ruleset's own words too)."""
        rs = self.rulesets[e.ref]
        with using(lang, rs.words):
            return attrs.evolve(e, description=tr(e.description), explain=explain(rs))

    def get(self, ref: str):
        """(entry, ruleset) of a listed ruleset, or None."""
        if ref not in self.entries:
            return None
        return self.entries[ref], self.rulesets[ref]


def upload_name(name: str) -> str:
    """A safe file name for an uploaded ruleset (what its findings are located in)."""
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", os.path.basename(str(name or "")))[:60].strip("._")
    return base if base.endswith((".yaml", ".yml")) else (base or "upload") + ".yaml"


def lint_upload(name: str, text: str, workdir: Optional[str] = None) -> Upload:
    """Lint and load an uploaded ruleset as ``kierki lint`` would, from a private folder.

    ``extends`` may name a shipped ruleset only (``rulesets/kierki_standard.yaml``, as a house
    rule written from the docs does; ``shipped_base``): an upload never makes the server read a
    file of its own. Findings in a shipped base are located by its shipped name, never by the
    server's folders. The size and depth limits are the loader's own."""
    from ..ruleset.model import load_ruleset
    from ..spec import yamlsafe

    shown = upload_name(name)
    data = text.encode("utf-8")
    try:
        _, root = yamlsafe.load(shown, data, [])
    except Exception:  # a broken file: the loader below reports it with its position
        root = None
    target = root.get("extends") if isinstance(root, yamlsafe.Map) else None
    if target is not None and shipped_base(getattr(target, "value", None)) is None:
        pos = getattr(target, "pos", None)
        d = Diagnostic(
            shown,
            pos if isinstance(pos, Pos) else None,
            "S202",
            L_("an uploaded ruleset may extend a shipped ruleset only"),
            hint=L_("name one as the docs do (extends: rulesets/kierki_standard.yaml), or upload the whole ruleset"),
        )
        return Upload((_finding(d, text),))
    with tempfile.TemporaryDirectory(prefix="kierki-upload-", dir=workdir) as tmp:
        path = os.path.join(tmp, shown)
        with open(path, "wb") as f:
            f.write(data)
        rs, diags = load_ruleset(path)
        found = sorted(diags.errors, key=_key) + sorted((d for d in diags if d.severity != "error"), key=_key)
        findings = tuple(
            _finding(_shipped_path(attrs.evolve(d, path=shown) if d.path == path else d), text) for d in found
        )
    ok = rs is not None and not diags.has_errors()
    return Upload(findings, rs if ok else None)


def shipped_base(name) -> Optional[str]:
    """The shipped ruleset an upload's ``extends: NAME`` names, or None: a name with no ``..``,
    not absolute, found among the shipped rulesets (``rulesets/`` first as written, then
    ``variants/``, ``games/``) and really inside their folder."""
    if not isinstance(name, str) or not name.strip() or os.path.isabs(name) or "\\" in name or "\0" in name:
        return None
    if ".." in name.replace("\\", "/").split("/"):
        return None
    home = os.path.realpath(rulesets_dir())
    for path in candidates(name.strip()):
        real = os.path.realpath(path)
        if real.startswith(home + os.sep) and os.path.isfile(real):
            return real
    return None


def _shipped_path(d: Diagnostic) -> Diagnostic:
    """``d`` with every shipped ruleset named as the docs name it (``rulesets/kierki_standard.yaml``),
    in its location and its words (a note "inherited: PATH:line:col"), never by the server's folder."""
    homes = {os.path.realpath(rulesets_dir()) + os.sep, rulesets_dir() + os.sep}

    def named(text):
        for home in homes:
            text = text.replace(home, "rulesets/") if isinstance(text, str) else text
        return text

    real = os.path.realpath(d.path) if d.path else ""
    path = named(real) if any(real.startswith(h) for h in homes) else d.path
    return attrs.evolve(d, path=path, message=named(d.message), note=named(d.note), hint=named(d.hint))


def load_text(name: str, text: str, workdir: str):
    """A ruleset stored as text (an upload), loaded from a file in ``workdir``; None if it no longer loads."""
    got = lint_upload(name, text, workdir)
    return got.ruleset


def _key(d: Diagnostic):
    return (d.pos.line, d.pos.col) if d.pos else (0, 0)


def _finding(d: Diagnostic, text: str) -> dict:
    doc = d.to_json()
    doc["text"] = render(d, text) if d.path == upload_name(d.path) else render(d, None)
    return doc
