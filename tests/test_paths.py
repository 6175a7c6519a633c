"""Outputs (issue 28 items 1 and 4): kierki writes only through regular files or new names, and
finds a bad output before it plays, with a usage error (exit 2) instead of a lost match."""
from __future__ import annotations

import json
import os
import stat
import threading

import pytest

from kierki_dsl.paths import OutputError, check_file, check_folder, write_atomic

from conftest import RULESETS

HEARTS = str(RULESETS / "games" / "hearts.yaml")


def special_paths(tmp_path) -> dict:
    """Name -> a path that is not a regular file (never the real /dev/null)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "to-fifo").symlink_to(fifo)
    (tmp_path / "to-folder").symlink_to(folder)
    (tmp_path / "dangling").symlink_to(tmp_path / "nothing")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    return {"fifo": fifo, "folder": folder, "to-fifo": tmp_path / "to-fifo", "to-folder": tmp_path / "to-folder",
            "dangling": tmp_path / "dangling", "loop": tmp_path / "loop",
            "missing folder": tmp_path / "no" / "such" / "x.json", "nul": str(tmp_path / "a\0b")}


def _kind(path) -> str:
    try:
        return stat.filemode(os.lstat(path).st_mode)[0]
    except (OSError, ValueError):
        return "?"


@pytest.mark.parametrize("name", ["fifo", "folder", "to-fifo", "to-folder", "dangling", "loop", "missing folder", "nul"])
def test_write_atomic_refuses_what_is_not_a_regular_file_and_leaves_it(tmp_path, name):
    path = special_paths(tmp_path)[name]
    before = _kind(path)
    with pytest.raises(OutputError) as e:
        write_atomic(str(path), "x")
    assert "output" in str(e.value)
    assert _kind(path) == before  # still a FIFO, a folder, a symlink: never replaced
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".kierki-")]  # no temporary file left


def test_write_atomic_writes_through_a_symlink_to_a_regular_file(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    # an output is its owner's only, also where it replaces a shared file (docs/records.md)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_second_writer_of_the_same_output_leaves_one_whole_file(tmp_path):
    path = str(tmp_path / "out.json")
    texts = [json.dumps({"writer": k, "fill": "x" * 200_000}) for k in range(6)]
    threads = [threading.Thread(target=write_atomic, args=(path, t)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert open(path).read() in texts
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_check_folder_refuses_a_file_and_a_special_file_among_the_names_it_writes(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match="needs a folder"):
        check_folder(str(tmp_path / "file"), "--records")
    os.mkfifo(tmp_path / "match-000003.json")
    with pytest.raises(OutputError, match="FIFO"):
        check_folder(str(tmp_path), "--records", r"match-\d+\.json")
    check_folder(str(tmp_path), "--records", r"other")  # other names are not kierki's business
    check_folder(str(tmp_path / "new"), "--records")  # made when written
    check_file(str(tmp_path / "new.json"))


@pytest.mark.parametrize("name", ["fifo", "folder", "to-fifo", "dangling", "loop", "missing folder"])
def test_run_record_is_checked_before_the_match(cli, tmp_path, name):
    path = special_paths(tmp_path)[name]
    code, out, err = cli("run", HEARTS, "--players", "random", "--seed", "1", "--record", str(path))
    assert code == 2, err
    assert err.startswith("kierki: error: --record ") and "Deal" not in out
    assert "Traceback" not in err


def test_run_save_is_checked_before_the_match(cli, tmp_path):
    code, out, err = cli("run", HEARTS, "--players", "random", "--seed", "1", "--save", str(tmp_path / "no" / "s.save"))
    assert code == 2 and err.startswith("kierki: error: --save "), err


@pytest.mark.parametrize("option,name", [("--records", "fifo"), ("--records", "folder/file"), ("--html", "fifo"),
                                         ("--html", "folder"), ("--csv", "fifo"), ("--csv", "folder/deals.csv"),
                                         ("--records", "folder/match-000001.json")])
def test_simulate_outputs_are_checked_before_playing(cli, tmp_path, option, name):
    paths = special_paths(tmp_path)
    (paths["folder"] / "file").write_text("kept")
    for special in ("deals.csv", "match-000001.json"):
        os.mkfifo(paths["folder"] / special)
    path = paths["folder"] / name.partition("/")[2] if "/" in name else paths[name]
    if option == "--csv" and name == "folder/deals.csv":
        path = paths["folder"]
    if option == "--records" and name == "folder/match-000001.json":
        path = paths["folder"]
    code, out, err = cli("simulate", HEARTS, "--games", "2", option, str(path))
    assert code == 2, err
    assert err.startswith(f"kierki: error: {option} ") and out == ""
    assert (paths["folder"] / "file").read_text() == "kept"
    assert stat.S_ISFIFO(os.lstat(paths["fifo"]).st_mode)


def test_a_record_that_cannot_be_written_at_the_end_is_exit_1_not_70(cli, tmp_path, monkeypatch):
    """Something takes the record's place while the match is played: a message, exit 1."""
    from kierki_dsl import paths as outputs

    path = tmp_path / "r.json"
    real = outputs.check_file
    calls = []

    def later_a_folder(p, what="output"):
        calls.append(p)
        if len(calls) > 1:
            os.makedirs(path, exist_ok=True)
        return real(p, what)

    monkeypatch.setattr(outputs, "check_file", later_a_folder)
    code, out, err = cli("run", HEARTS, "--players", "random", "--seed", "1", "--record", str(path))
    assert code == 1, err
    assert "the record is not written" in err and "Traceback" not in err


# -- reading: lint and extends read only regular files (issue 28 item 8) ----------------------
from conftest import run_cli  # noqa: E402

BASE = "kierki: 1\nextends: {target}\n"


def test_lint_of_a_folder_with_a_fifo_a_dangling_and_a_looping_symlink_reports_each_located(tmp_path):
    (tmp_path / "ok.yaml").write_bytes((RULESETS / "games" / "hearts.yaml").read_bytes())
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nothing.yaml")
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path)  # a folder loop: not followed
    rc, out, err, seconds = run_cli("lint", str(tmp_path), timeout=30)
    assert rc == 1, err
    assert "Traceback" not in err and "internal error" not in err
    for name, what in (("pipe.yaml", "FIFO"), ("dangling.yaml", "dangling"), ("loop.yaml", "symbolic links")):
        line = next(x for x in err.splitlines() if x.startswith(str(tmp_path / name)))
        assert "error: Y116" in line and what in line, line
    assert "4 files checked, 3 errors" in err
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe.yaml").st_mode)


def test_lint_of_a_fifo_named_on_the_command_line_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    rc, out, err, _ = run_cli("lint", str(tmp_path / "pipe.yaml"), timeout=30)
    assert rc == 1 and "Y116" in err and "FIFO" in err


@pytest.mark.parametrize("target,code,what", [
    ('"a\\0b.yaml"', "Y116", "NUL"),
    ("/proc/self/mem", "Y116", "cannot read"),
    ("pipe.yaml", "Y116", "FIFO"),
    ("folder", "Y116", "folder"),
    ("loop.yaml", "Y116", "symbolic links"),
    ("no_such.yaml", "R504", "no such ruleset"),
])
def test_an_extends_path_problem_is_a_located_finding(tmp_path, target, code, what):
    from kierki_dsl.lint import lint_file

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "folder").mkdir()
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    variant = tmp_path / "v.yaml"
    variant.write_text(BASE.format(target=target))
    findings = lint_file(str(variant))
    assert [(d.code, d.path, d.pos.line, d.pos.col) for d in findings][:1] == [(code, str(variant), 2, 10)], findings
    assert what in findings[0].message


@pytest.mark.parametrize("command", [
    ("run", "{folder}"),
    ("explain", "{folder}"),
    ("resume", "{folder}"),
    ("replay", "{folder}", "--ruleset", "kierki_standard"),
])
def test_a_folder_given_for_a_file_is_called_a_folder(tmp_path, command):
    """Play-test 5: `kierki run rulesets/variants` said "no such ruleset file", of a folder that is
    there; the newcomer is told it is a folder (and that lint is the command that takes one)."""
    args = [a.format(folder=tmp_path) for a in command]
    rc, out, err, _ = run_cli(*args, timeout=60)
    assert rc == 2, err
    assert f"{tmp_path} is a folder, not a " in err and "no such" not in err, err


def test_a_new_save_file_is_its_owners_only_as_a_record_is(tmp_path):
    """Play-test 7: after `kierki run --record r.json --save s.save` the record was 0600 and the save
    file, which holds the same hands and seed, 0644 (docs/records.md: every file kierki writes)."""
    save, record = tmp_path / "s.save", tmp_path / "r.json"
    code, _, err, _ = run_cli("run", str(RULESETS / "kierki_standard.yaml"), "--seed", "3", "--players", "random",
                              "--save", str(save), "--record", str(record))
    assert code == 0, err
    assert stat.S_IMODE(save.stat().st_mode) == stat.S_IMODE(record.stat().st_mode) == 0o600
