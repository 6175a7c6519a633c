"""benchmarks/duel_pimc.py (docs/bots.md runs it as a user would): every argument is checked
before any duel, each refusal naming the option (exit 2), never a traceback or an opponent
read as another."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

SCRIPT = str(ROOT / "benchmarks" / "duel_pimc.py")


@pytest.mark.parametrize(
    "args,said",
    [
        (["--against", "nobody"], "--against: unknown nobody"),  # was played as search
        (["--games", "nope"], "--games: unknown nope"),  # was a KeyError traceback
        (["--seeds", "0"], "--seeds must be 1 or more"),  # was a KeyError after the duels
        (["--pimc", "pimc:\u00b2"], "--pimc: pimc: expected a world count"),
        (["--search", "heuristic"], "--search names a search player"),
        (["--journal", "/nonexistent-folder/j.jsonl"], "--journal /nonexistent-folder/j.jsonl: no such folder"),
        (["--summary", "/nonexistent-folder/j.jsonl"], "--summary /nonexistent-folder/j.jsonl: not a journal"),
        (["--summary", str(ROOT / "README.md")], "not a journal this script wrote"),
    ],
)
def test_a_bad_argument_is_refused_before_any_duel(args, said):
    proc = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and said in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
