"""The bad-input corpus (ported from shared/bad_inputs): located errors, exit codes, bounded cost."""
from __future__ import annotations

import re
import shutil

import pytest

from conftest import DATA, run_measured

CORPUS = DATA / "bad_inputs"


def _cases():
    rows = []
    for line in (CORPUS / "expected.tsv").read_text("utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, code, diag, ln, col, fragment = line.split("\t")
        rows.append((name, int(code), diag, ln, col, fragment))
    return rows


CASES = _cases()


def test_every_corpus_file_has_an_expectation():
    files = sorted(p.name for p in CORPUS.glob("*.yaml"))
    assert files == sorted(c[0] for c in CASES)


def _check_output(name, code, diag, ln, col, fragment, rc, err, path):
    assert rc == code, err
    assert "Traceback" not in err
    if code == 0:
        assert "error:" not in err
        return
    first = err.splitlines()[0]
    assert re.match(rf"^{re.escape(str(path))}:{ln}:{col}: error: {diag} ", first), first
    assert fragment in first
    lines = err.splitlines()
    assert lines[2].strip().startswith("^"), "the source line and a caret follow the headline"


@pytest.mark.parametrize("name,code,diag,ln,col,fragment", CASES, ids=[c[0] for c in CASES])
def test_in_process(cli, name, code, diag, ln, col, fragment):
    path = CORPUS / name
    rc, out, err = cli("lint", str(path))
    _check_output(name, code, diag, ln, col, fragment, rc, err, path)


@pytest.mark.parametrize("name,code,diag,ln,col,fragment", CASES, ids=[c[0] for c in CASES])
def test_console_script_bounded(name, code, diag, ln, col, fragment):
    path = CORPUS / name
    rc, out, err, (cpu, wall), rss_kib = run_measured("lint", str(path))
    _check_output(name, code, diag, ln, col, fragment, rc, err, path)
    # CPU time, so that a busy machine does not make the bound flaky; wall time guards hangs
    assert cpu < 1.0, f"took {cpu:.2f} s of CPU"
    assert wall < 10.0, f"took {wall:.2f} s"
    assert rss_kib < 100 * 1024, f"peak RSS {rss_kib} KiB"


def test_huge_file_inflated_is_refused_before_parsing(tmp_path):
    seed = (CORPUS / "19_huge_file.yaml").read_text("utf-8")
    entry = "  c{i}:\n    total: -260\n    score:\n      - per_trick: -20\n"
    big = tmp_path / "huge.yaml"
    with open(big, "w", encoding="utf-8") as f:
        f.write(seed)
        for i in range(100_000):
            f.write(entry.format(i=i))
    assert big.stat().st_size >= 5 * 1024 * 1024
    rc, out, err, (cpu, wall), rss_kib = run_measured("lint", str(big))
    assert rc == 1
    assert re.match(rf"^{re.escape(str(big))}: error: Y113 ruleset is \d+\.\d MiB; limit", err.splitlines()[0])
    assert cpu < 1.0 and wall < 10.0 and rss_kib < 100 * 1024


def test_division_by_zero_stops_run_with_location_and_keeps_the_log(tmp_path):
    path = tmp_path / "div.yaml"
    shutil.copy(CORPUS / "42_expr_division_by_zero.yaml", path)
    record = tmp_path / "log.json"
    rc, out, err, _, _ = run_measured("run", str(path), "--seed", "3", "--record", str(record))
    assert rc == 1
    assert "Traceback" not in err
    assert err.startswith(f"{path}:9:24: warning: N412 "), "the lint warning that foretold it, before the match"
    stopped = next(line for line in err.splitlines() if ": error: " in line)
    assert re.match(rf"^{re.escape(str(path))}:9:19: error: X701 division by zero in contracts\.bez_lew\.score\[0\]\.per_seat", stopped)
    assert record.exists() and '"kierki-record/1"' in record.read_text("utf-8")


def test_nothing_runs_from_a_python_tag(tmp_path, cli):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.yaml"
    path.write_text(f'kierki: 1\nname: !!python/object/apply:os.system ["touch {marker}"]\n', "utf-8")
    rc, out, err = cli("lint", str(path))
    assert rc == 1 and not marker.exists()
