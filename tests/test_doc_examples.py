"""Every shell and Python example of the README and of ``docs/`` runs, so none goes stale.

A fenced ``sh`` or ``python`` block is run as it stands — shell blocks by ``bash -e`` (each
command must succeed), Python blocks by this Python — in a fresh folder holding the repository's
``rulesets/``, ``examples/``, ``schema/`` and ``benchmarks/``, with this environment's ``kierki``
first on ``PATH`` and ``.venv/bin/`` read as this environment's. A block that cannot run here
(a server that waits for clients, a person at the keyboard, a benchmark of minutes, an
installation) is preceded by ``<!-- not run: REASON -->``, and the reason must say why."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
#: what an example may read, linked into the folder it runs in
BESIDE = ("rulesets", "examples", "schema", "benchmarks")
BLOCK = re.compile(r"^(?:<!-- not run: (?P<reason>[^\n]*?) -->\n)?```(?P<lang>sh|python|bash|shell|console|py)\n"
                   r"(?P<body>.*?)^```", re.S | re.M)


def examples() -> list:
    """(document, line, language, body, reason not to run or None) of every shell and Python block."""
    found = []
    for doc in DOCS:
        text = doc.read_text("utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start("body"))
            found.append((doc, line, m["lang"], m["body"], m["reason"]))
    return found


EXAMPLES = examples()
TO_RUN = [e for e in EXAMPLES if e[4] is None]


def _id(example) -> str:
    return f"{example[0].relative_to(ROOT).as_posix()}:{example[1]}"


def test_every_example_is_run_or_says_why_not():
    assert len(TO_RUN) >= 10, "the examples were not found: has the block syntax changed?"
    for example in EXAMPLES:
        assert example[2] in ("sh", "python"), f"{_id(example)}: mark shell blocks `sh`, Python blocks `python`"
        reason = example[4]
        assert reason is None or len(reason.split()) >= 2, f"{_id(example)}: say why it is not run"


@pytest.fixture
def folder(tmp_path):
    """An empty working folder with the repository's data beside it, and this environment on PATH."""
    for name in BESIDE:
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    bindir = os.path.dirname(sys.executable)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), COLUMNS="100")
    return tmp_path, bindir, env


def _run(example, cwd, bindir, env) -> None:
    doc, line, lang, body, _ = example
    if lang == "sh":
        command = ["bash", "-e", "-c", body.replace(".venv/bin/", bindir + "/")]
    else:
        command = [sys.executable, "-c", body]
    got = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
                         stdin=subprocess.DEVNULL)
    assert got.returncode == 0, f"{_id(example)} exits {got.returncode}:\n{got.stdout[-3000:]}\n{got.stderr[-3000:]}"
    assert "Traceback" not in got.stderr, f"{_id(example)}:\n{got.stderr[-3000:]}"


@pytest.mark.parametrize("doc", sorted({e[0] for e in TO_RUN}), ids=lambda d: d.relative_to(ROOT).as_posix())
def test_the_examples_of_a_page_run_in_order(doc, folder):
    """A page's blocks run one after another in one folder, as a reader types them (a later
    block may use a file an earlier one wrote)."""
    cwd, bindir, env = folder
    for example in TO_RUN:
        if example[0] == doc:
            _run(example, cwd, bindir, env)
