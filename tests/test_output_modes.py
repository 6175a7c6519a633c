"""Every file kierki writes holds matches (seeds, so every hand): it is created readable by its
owner only (0600), whatever the umask (issue 22, item 8; docs/records.md)."""
from __future__ import annotations

import contextlib
import os
import stat

import pytest
from conftest import RULESETS, run_cli

from kierki_dsl.record import OUTPUT_MODE, write_atomic

STANDARD = RULESETS / "kierki_standard.yaml"


@contextlib.contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_write_atomic_makes_an_owner_only_file_even_over_a_shared_one(tmp_path):
    path = tmp_path / "report.html"
    path.write_text("old")
    os.chmod(path, 0o644)
    with umask(0o022):
        write_atomic(str(path), "<html></html>")
    assert OUTPUT_MODE == 0o600 and _mode(path) == 0o600 and path.read_text() == "<html></html>"


@pytest.mark.parametrize("umask_value", [0o022, 0o000])
def test_records_and_csv_files_are_owner_only(tmp_path, umask_value):
    record = tmp_path / "match.json"
    with umask(umask_value):
        rc, _, err, _ = run_cli("run", str(STANDARD), "--seed", "3", "--record", str(record))
        assert rc == 0, err
        rc, _, err, _ = run_cli("simulate", str(STANDARD), "--games", "2", "--records", str(tmp_path / "recs"),
                                  "--csv", str(tmp_path / "csv"))
        assert rc == 0, err
    written = [record] + sorted((tmp_path / "recs").iterdir()) + sorted((tmp_path / "csv").iterdir())
    assert len(written) == 1 + 2 + 3
    for path in written:
        assert _mode(path) == 0o600, path
