"""``kierki lint``: every finding of every ruleset, located, coded and rendered.

Text findings go to stderr (errors first, each in file order) with the source line and a
caret, in the language in force (``--lang pl``: the messages, hints and the summary line in
Polish; the paths, positions and codes as they are); ``--format json``, ``sarif`` and ``github``
write to stdout, always in English (what a program reads does not change with the reader's
language). Exit 0 when clean (or only warnings without ``--strict``), 1 with findings, 2 for a
usage error.
"""

from __future__ import annotations

import json
import os
from typing import IO, Iterable

from . import phases  # noqa: F401 (every phase's lint codes join codes.CODES as it registers)
from .codes import CODES
from .diagnostics import Diagnostic
from .exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from .i18n import tr, trn
from .report import render_diagnostics


def expand(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """Files to lint (folders give every *.yaml/*.yml below, sorted) and missing paths.

    Whatever is named like a ruleset is linted, and what is not a regular file (a FIFO, a
    device, a dangling or looping symlink) is reported by the reader as a Y116 finding, never
    opened; symlinked folders are not followed (no loops)."""
    files, missing = [], []
    for p in paths:
        if os.path.isdir(p):
            found: list = []
            for root, dirs, names in os.walk(p):
                dirs.sort()
                found.extend(os.path.join(root, n) for n in names if n.endswith((".yaml", ".yml")))
            files.extend(sorted(found))
        elif os.path.lexists(p):  # a file, or something that is not one: a located Y116 finding
            files.append(p)
        else:
            missing.append(p)
    return files, missing


def lint_file(path: str) -> list[Diagnostic]:
    """Every finding about one ruleset file, in file order (none: the file is clean)."""
    from .ruleset.model import load_ruleset

    _, diags = load_ruleset(path)
    return by_position(diags)


def unique(findings: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each finding once: a base that several linted variants extend (or that is linted too)
    reports its own findings once, however its path was spelt."""
    seen: set = set()
    out = []
    for d in findings:
        key = (os.path.realpath(d.path), (d.pos.line, d.pos.col) if d.pos else None, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def by_position(findings: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Errors first, then warnings, each in file order (as every command prints them)."""
    findings = list(findings)
    errors = sorted((d for d in findings if d.severity == "error"), key=_key)
    warnings = sorted((d for d in findings if d.severity != "error"), key=_key)
    return errors + warnings


def _key(d: Diagnostic):
    return (d.pos.line, d.pos.col) if d.pos else (0, 0)


def summary(files: int, findings: list[Diagnostic]) -> str:
    """The one line ``kierki lint`` ends with in text format: files checked, errors, warnings (in
    the language in force)."""
    errors = sum(1 for d in findings if d.severity == "error")
    warnings = len(findings) - errors

    return tr("kierki lint: {files} checked, {errors}, {warnings}").format(
        files=trn("{n} file", "{n} files", files).format(n=files),
        errors=trn("{n} error", "{n} errors", errors).format(n=errors),
        warnings=trn("{n} warning", "{n} warnings", warnings).format(n=warnings),
    )


def lint_paths(paths: list[str], strict: bool, fmt: str, out: IO, err: IO, quiet: bool = False) -> int:
    """Lint files and folders; write the findings in ``fmt``; return the exit code.

    In text format a summary line follows the findings on stderr unless ``quiet``."""
    files, missing = expand(paths)
    for m in missing:
        err.write(f"kierki: error: no such file or folder: {m}\n")
    if missing:
        return EXIT_USAGE
    findings = unique(d for f in files for d in lint_file(f))
    if fmt == "json":
        out.write(json.dumps([d.to_json() for d in findings], indent=2, ensure_ascii=False) + "\n")
    elif fmt == "sarif":
        out.write(json.dumps(sarif(findings), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "github":
        for d in findings:
            level = "error" if d.severity == "error" else "warning"
            loc = f"file={d.path}"
            if d.pos:
                loc += f",line={d.pos.line},col={d.pos.col}"
            msg = d.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            out.write(f"::{level} {loc},title={d.code}::{msg}\n")
    else:
        if findings:
            err.write(render_diagnostics(findings) + "\n")
        if not quiet:
            err.write(summary(len(files), findings) + "\n")
    failing = [d for d in findings if d.severity == "error" or strict]
    return EXIT_FINDINGS if failing else EXIT_OK


def sarif(findings: list[Diagnostic]) -> dict:
    """Findings as a SARIF 2.1.0 log (for code-scanning tools)."""
    used = sorted({d.code for d in findings})
    rules = [
        {
            "id": c,
            "shortDescription": {"text": CODES[c].title if c in CODES else c},
            "fullDescription": {"text": CODES[c].explanation if c in CODES else ""},
        }
        for c in used
    ]
    results = []
    for d in findings:
        loc: dict = {"artifactLocation": {"uri": d.path}}
        if d.pos:
            end = d.pos.span_end()
            loc["region"] = {
                "startLine": d.pos.line,
                "startColumn": d.pos.col,
                "endLine": end[0],
                "endColumn": end[1] + 1,
            }
        results.append(
            {
                "ruleId": d.code,
                "level": "error" if d.severity == "error" else "warning",
                "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
                "locations": [{"physicalLocation": loc}],
            }
        )
    return {
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{"tool": {"driver": {"name": "kierki lint", "rules": rules}}, "results": results}],
    }
