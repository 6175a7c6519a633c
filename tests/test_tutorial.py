"""Issue #25 item 7: every command of docs/tutorial.md is run, in order, on the files it writes,
and exits as the page says (0 unless the line says `# exits N`)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
KIERKI = os.path.join(os.path.dirname(sys.executable), "kierki")
BLOCK = re.compile(r"(?:<!-- file: (?P<file>[\w.]+) -->\n)?```(?P<lang>\w+)\n(?P<body>.*?)```", re.DOTALL)


def steps() -> list:
    """(file name, text) to write and (command, exit code) to run, in the page's order."""
    out = []
    for m in BLOCK.finditer(TUTORIAL.read_text("utf-8")):
        if m.group("file"):
            out.append(("write", m.group("file"), m.group("body")))
        elif m.group("lang") == "sh":
            for line in m.group("body").splitlines():
                command, _, note = line.partition("#")
                code = re.search(r"exits (\d+)", note)
                out.append(("run", command.split(), int(code.group(1)) if code else 0))
    return out


def test_every_command_of_the_tutorial_runs_as_the_page_says(tmp_path):
    ran = []
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", str(TUTORIAL.parent.parent)))
    for kind, what, body in steps():
        if kind == "write":
            (tmp_path / what).write_text(body, "utf-8")
            continue
        assert what[0] == "kierki", what
        done = subprocess.run([KIERKI, *what[1:]], check=False, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == body, (what, done.returncode, done.stderr[-2000:])
        assert "Traceback" not in done.stderr
        ran.append((what[1], done.stdout + done.stderr))
    assert [w for w, _ in ran] == ["lint", "lint", "lint", "explain", "diff", "compare"]
    out = dict(ran)
    assert "[-60 → -100]" in out["diff"] and "deal 3, scoring: queens taken: -60 each → queens taken: -100 each" in out["diff"]
    verdict = out["compare"].split("\nVerdict\n", 1)[1].split("\n\n", 1)[0]  # the answer first, in words
    assert "The rules of 2 deals differ: Bez dam — No queens; Rozbójnik — Robber, all penalties at once." in verdict
    assert "The winner of a match changes in" in verdict and "Kendall's tau" in verdict
    deals = out["compare"].split("\nDeals\n", 1)[1].split("\n\n", 1)[0]
    assert "Bez dam — No queens: rules changed;" in deals and "points given out down -160.0 ± 0.0" in deals
