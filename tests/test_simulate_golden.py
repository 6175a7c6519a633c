"""Seeded ``kierki simulate`` and ``kierki compare`` print the same reports byte for byte
across refactors: text, JSON, the --csv files and the --html tables (its plots left out:
their PNG bytes depend on the installed matplotlib).

The files under ``data/golden/simulate/`` were written by an earlier version of the
commands (``python tests/test_simulate_golden.py --write`` writes them again: only when an
output is meant to change). The checkout's own path is written as ``<ROOT>``.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden" / "simulate"
STANDARD = "rulesets/kierki_standard.yaml"
VARIANTS = "rulesets/variants/"

# name -> (command and arguments, outputs kept: text, json, csv, html)
CASES = {
    "standard_random": (["simulate", STANDARD, "--games", "40", "--seed", "7"], ("text", "json", "csv")),
    "standard_random_two_workers": (["simulate", STANDARD, "--games", "40", "--seed", "7", "--workers", "2"],
                                    ("json",)),
    "early_stop_heuristic": (["simulate", VARIANTS + "early_stop.yaml", "--games", "10", "--seed", "2",
                              "--players", "heuristic"], ("text", "json")),
    "declarer_chooses_random": (["simulate", VARIANTS + "declarer_chooses_negatives.yaml", "--games", "10",
                                 "--seed", "4"], ("json", "csv")),
    "mixed_players": (["simulate", STANDARD, "--games", "4", "--seed", "5", "--players",
                       "heuristic,random,random,random"], ("json",)),
    "hearts_open_schedule": (["simulate", "rulesets/games/hearts.yaml", "--games", "6", "--seed", "1"],
                             ("text", "json", "csv")),
    "fantan_layout": (["simulate", VARIANTS + "fantan_pass_pool.yaml", "--games", "8", "--seed", "6"],
                      ("json",)),
    "compare_jacks_random": (["compare", STANDARD, VARIANTS + "jacks_only.yaml", "--games", "20", "--seed", "3",
                              "--players", "random"], ("text", "json", "csv", "html")),
}


def _kierki(args: list, cwd: Path) -> str:
    proc = subprocess.run([sys.executable, "-m", "kierki_dsl", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _portable(text: str) -> str:
    text = text.replace(str(ROOT), "<ROOT>")
    return re.sub(r'src="data:image/png;base64,[A-Za-z0-9+/=]*"', 'src="<PNG>"', text)


def outputs(name: str) -> dict:
    """File name -> text of every output a case keeps, made now."""
    args, kinds = CASES[name]
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        if "text" in kinds:
            got[f"{name}.txt"] = _kierki(args, ROOT)
        if {"json", "csv", "html"} & set(kinds):
            extra = ["--format", "json"]
            if "csv" in kinds:
                extra += ["--csv", f"{tmp}/csv"]
            if "html" in kinds:
                extra += ["--html", f"{tmp}/report.html"]
            out = _kierki(args + extra, ROOT)
            if "json" in kinds:
                got[f"{name}.json"] = out
            if "csv" in kinds:
                for f in sorted(Path(tmp, "csv").iterdir()):
                    got[f"{name}.{f.name}"] = f.read_text(encoding="utf-8")
            if "html" in kinds:
                got[f"{name}.html"] = Path(tmp, "report.html").read_text(encoding="utf-8")
    return {k: _portable(v) for k, v in got.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_seeded_report_is_unchanged(name):
    for file, text in outputs(name).items():
        assert text == (GOLDEN / file).read_text(encoding="utf-8"), file


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        for file, text in outputs(case).items():
            (GOLDEN / file).write_text(text, encoding="utf-8")
            print("wrote", file)
