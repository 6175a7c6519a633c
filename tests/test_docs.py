"""The README and docs work from a clone alone (issue 15, items 14 and 16): every file they
point at is in the repository, nothing sends a reader outside it, and every shipped ruleset
is named (so the known limits cannot call a shipped file missing unnoticed)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
#: files the docs name that a reader makes or brings (outputs of the commands shown)
MADE_BY_THE_READER = {"my_rules.yaml", "house.yaml"}
#: the benchmark's reference engine: not in the repository, and the benchmark runs without it
OPTIONAL_REFERENCE = "kierki_ref.py"


def _inside(path: Path) -> bool:
    """The path exists in this repository (not merely next to this checkout)."""
    path = path.resolve()
    return path.exists() and (path == ROOT or ROOT in path.parents)


def _paths(text: str) -> set:
    found = set(re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text))  # markdown links
    found |= set(re.findall(r"`([\w./-]+/[\w.-]+\.(?:yaml|py|md|json|txt|toml))`", text))  # `folder/file.ext`
    return {p for p in found if not re.match(r"[a-z]+://", p)}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_file_a_document_points_at_is_in_the_repository(doc):
    text = doc.read_text("utf-8")
    missing = []
    for p in sorted(_paths(text)):
        if Path(p).name in MADE_BY_THE_READER or p.startswith(("PATH/", "DIR-", "~")):
            continue
        if Path(p).name == OPTIONAL_REFERENCE:
            continue
        if not any(_inside(base / p) for base in (doc.parent, ROOT, ROOT / "rulesets", ROOT / "kierki_dsl")):
            missing.append(p)
    assert not missing, f"{doc.name} points at files a clone does not have: {missing}"


def test_nothing_sends_a_reader_outside_the_repository():
    """`../shared` is the project's own material next to the lead's checkout: a clone has none
    of it, so only the benchmark's optional reference engine may name it (as optional)."""
    for f in DOCS + sorted((ROOT / "rulesets").rglob("*.yaml")):
        for n, line in enumerate(f.read_text("utf-8").splitlines(), 1):
            if "../shared" in line:
                assert OPTIONAL_REFERENCE in line, f"{f.relative_to(ROOT)}:{n}: {line.strip()}"


def test_every_shipped_ruleset_is_named_in_the_readme():
    text = (ROOT / "README.md").read_text("utf-8")
    unnamed = [f.name for f in sorted((ROOT / "rulesets").rglob("*.yaml")) if f.name not in text]
    assert not unnamed, f"the README does not name {unnamed}"
