"""Issue 28, items 2, 3 and 5: a save file is never overwritten by mistake, never written by
two processes at once, and never resumed with actions after its match's end."""
from __future__ import annotations

import fcntl
import json
import os
import subprocess

from conftest import RULESETS, poll_until, run_cli

SIK = str(RULESETS / "games" / "sik.yaml")


def _finished_save(path, seed: int = 3) -> list:
    rc, _, err, _ = run_cli("run", SIK, "--seed", str(seed), "--players", "random", "--save", str(path))
    assert rc == 0, err
    return path.read_text("utf-8").splitlines()


def test_run_save_refuses_to_replace_an_unfinished_match_and_force_replaces_it(tmp_path):
    save = tmp_path / "m.save"
    lines = _finished_save(save)
    save.write_text("\n".join(lines[:60]) + "\n", "utf-8")  # as if the match had been killed
    before = save.read_bytes()
    rc, out, err, _ = run_cli("run", SIK, "--seed", "3", "--players", "random", "--save", str(save))
    assert rc == 1 and out == ""
    assert f"{save}: error: this save file holds an unfinished match; continue it with kierki resume {save}" in err
    assert "--force" in err and save.read_bytes() == before, "the interrupted match is kept"
    rc, _, err, _ = run_cli("run", SIK, "--seed", "3", "--players", "random", "--save", str(save), "--force")
    assert rc == 0, err
    assert save.read_text("utf-8").splitlines() == lines, "--force replaced it with the new match"
    rc, _, err, _ = run_cli("run", SIK, "--seed", "4", "--players", "random", "--save", str(save))
    assert rc == 0, "a finished match may be replaced"
    assert json.loads(save.read_text("utf-8").splitlines()[0])["seed"] == 4


def test_run_save_refuses_to_replace_a_file_that_is_not_a_save(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n", "utf-8")
    rc, _, err, _ = run_cli("run", SIK, "--seed", "3", "--players", "random", "--save", str(other))
    assert rc == 1 and "is not a kierki save file" in err and other.read_text("utf-8") == "my notes\n"
    rc, _, err, _ = run_cli("run", SIK, "--seed", "3", "--players", "random", "--save", str(tmp_path))
    assert rc == 2 and f"--save {tmp_path}: is a folder" in err and "Traceback" not in err  # checked before play


def test_a_save_with_actions_after_the_end_of_its_match_is_refused_located(tmp_path):
    save = tmp_path / "m.save"
    lines = _finished_save(save)
    save.write_text("\n".join(lines + lines[1:4]) + "\n", "utf-8")
    rc, out, err, _ = run_cli("resume", str(save))
    assert rc == 1
    assert err.startswith(f"{save}:{len(lines) + 1}: error: the match is over before this line; 3 saved action(s)")


def _locked_by_another(path) -> bool:
    """True while another process holds the save file's lock (tried without waiting)."""
    with open(path, "rb") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        return False


def _reader(proc):
    """A function returning all ``proc`` has written to stdout so far (read without waiting)."""
    os.set_blocking(proc.stdout.fileno(), False)
    got = bytearray()

    def shown() -> str:
        chunk = proc.stdout.read()
        if chunk:
            got.extend(chunk)
        return got.decode("utf-8", "replace")

    return shown


def test_a_second_writer_of_a_save_file_is_refused_naming_the_first(tmp_path, processes):
    save = tmp_path / "m.save"
    lines = _finished_save(save)
    save.write_text("\n".join(lines[:30]) + "\n", "utf-8")
    head = json.loads(lines[0])
    head_players = ["human"] + head["players"][1:]  # a person at seat 0 keeps the first process waiting
    from kierki_dsl.table.savefile import seal

    head["players"] = head_players
    head["check"] = seal(head)
    save.write_text("\n".join([json.dumps(head)] + lines[1:30]) + "\n", "utf-8")
    first = processes(["resume", str(save)], stdin=subprocess.PIPE)
    shown = _reader(first)
    poll_until(lambda: "\n" in shown(), 60, first, "the first resume to print its header")  # it holds the file then
    assert _locked_by_another(save)
    # the bots before the person may still be playing (and saving): wait until the person is asked
    poll_until(lambda: shown().endswith("> "), 60, first, "the first resume to ask the person at seat 0")
    before = save.read_bytes()
    second = processes(["resume", str(save)])
    out, err = second.communicate(timeout=120)
    assert second.returncode == 1, err
    assert f"another kierki (pid {first.pid}) is playing this save file" in err.decode()
    third = processes(["run", SIK, "--seed", "3", "--save", str(save), "--force"])
    _, err = third.communicate(timeout=120)
    assert third.returncode == 1 and f"pid {first.pid}" in err.decode(), "--force does not take another's file"
    assert save.read_bytes() == before, "neither wrote a byte"
    first.kill()
    first.wait()
    rc, _, err, _ = run_cli("resume", str(save))  # the lock died with its process; the person quits at once
    assert rc == 130 and f"the match is saved: kierki resume {save}" in err
