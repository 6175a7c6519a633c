"""Seeded matches stay byte-identical across refactors: records made before are replayed now.

Each entry of ``data/golden/matches/manifest.json`` is a ``kierki run`` command; its record was
written by an earlier version of the engine. Playing the same command again must give the same
deals, plays, bets and scores (the ruleset's path and fingerprint are left out, so a comment
added to a ruleset file does not count as a change of rules).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden" / "matches"
MANIFEST = json.loads((GOLDEN / "manifest.json").read_text())


def _comparable(record: dict) -> dict:
    out = dict(record)
    out["ruleset"] = {k: v for k, v in record["ruleset"].items() if k not in ("path", "fingerprint")}
    return out


def _play(name: str, out: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "kierki_dsl", "run", *MANIFEST[name], "--record", str(out)]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_seeded_match_is_unchanged(name, tmp_path):
    out = tmp_path / "record.json"
    proc = _play(name, out)
    assert proc.returncode == 0, proc.stderr
    want = json.loads((GOLDEN / f"{name}.record.json").read_text())
    got = json.loads(out.read_text())
    assert _comparable(got) == _comparable(want)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    # only when a change of play is intended (say why in the commit): the deals must not change
    for name in sorted(MANIFEST):
        proc = _play(name, GOLDEN / f"{name}.record.json")
        print("wrote" if proc.returncode == 0 else f"FAILED ({proc.stderr.strip()})", f"{name}.record.json")
