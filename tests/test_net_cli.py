"""``kierki serve`` and ``kierki join`` as commands: four joins give ``kierki run --deals``'s
scores; a server killed with SIGKILL resumes from its save file; bad options and files get
one-line messages. Every process a test starts is killed in a fixture, whatever happens."""
from __future__ import annotations

import json
import os
import re
import selectors
import signal
import socket
import subprocess
import time

import pytest

from kierki_dsl.net.deals import parse_deals
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.net import sik
from kierki_dsl.ruleset.model import Ruleset
from net_support import RawSeat, closed_all, drive, match_file

from conftest import RULESETS, kierki_command, run_cli

SIK_PATH = str(RULESETS / "games" / "sik.yaml")
RS = Ruleset.load(SIK_PATH)


@pytest.fixture
def procs():
    """Started processes and sockets; all killed/closed at the end."""
    started: list = []
    yield started
    for p in started:
        if isinstance(p, subprocess.Popen):
            if p.poll() is None:
                p.kill()
            p.communicate(timeout=10)
        else:
            p.close()


def _start(procs, *args, stdout=subprocess.PIPE) -> subprocess.Popen:
    """A kierki process (a server's report goes to a file: a full pipe would stall it)."""
    p = subprocess.Popen(kierki_command() + list(args), stdout=stdout, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    procs.append(p)
    return p


def _listening_port(proc, seconds: float = 20.0) -> int:
    """Poll the server's stderr for its 'listening on HOST:PORT' line."""
    sel = selectors.DefaultSelector()
    sel.register(proc.stderr, selectors.EVENT_READ)
    got = b""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            m = re.search(rb"listening on \S+:(\d+)", got)
            if m:
                return int(m.group(1))
            if sel.select(0.1):
                chunk = os.read(proc.stderr.fileno(), 4096)
                if not chunk:
                    break
                got += chunk
    finally:
        sel.close()
    raise AssertionError(f"the server did not start: {got.decode(errors='replace')}")


def test_serve_and_four_joins_give_the_scores_of_run_with_the_same_deals(tmp_path, procs):
    deals = tmp_path / "match.txt"
    deals.write_text(match_file(21), "ascii")
    rc, out, err, _ = run_cli("run", SIK_PATH, "--deals", str(deals), "--seed", "9", "--format", "json")
    assert rc == 0, err
    expected = [-t for t in json.loads(out)["totals"]]
    report_file = open(tmp_path / "report.txt", "w+b")
    procs.append(report_file)
    server = _start(procs, "serve", SIK_PATH, "--deals", str(deals), "--host", "127.0.0.1", "--seed", "9", stdout=report_file)
    port = _listening_port(server)
    clients = [_start(procs, "join", "127.0.0.1", str(port), "--seat", s, "--player", "heuristic", "--seed", "9", "-4")
               for s in "NESW"]
    for c in clients:
        out, err = c.communicate(timeout=60)
        assert c.returncode == 0, err
        totals = [line for line in out.decode().splitlines() if "] TOTAL" in line]
        assert sik.parse_server(totals[-1].split("] ")[1]).points == tuple(expected)
    _, err = server.communicate(timeout=10)
    assert server.returncode == 0, err
    assert f"totals (SIK points) {' '.join(f'{s} {t}' for s, t in zip('NESW', expected))}" in err.decode()
    report = (tmp_path / "report.txt").read_text("ascii").splitlines()
    assert len(report) > 300 and all(re.match(r"\[\S+:\d+,\S+:\d+,\d{4}-\d\d-\d\dT[\d:.]+\] \S+$", x) for x in report)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _lowest_reference(deals) -> tuple:
    class Lowest:
        def reset(self, seed, seat, rules=None):
            pass

        def act(self, view):
            return min(view.legal)

    return tuple(-t for t in list(MatchRunner(RS, [Lowest() for _ in range(4)], 1, deals=deals).deals())[-1].totals)


def test_a_server_killed_mid_match_resumes_from_its_save_file(tmp_path, procs):
    deals = tmp_path / "match.txt"
    deals.write_text(match_file(22), "ascii")
    save = tmp_path / "table.save"
    port = str(_free_port())
    args = ["serve", SIK_PATH, "--deals", str(deals), "--host", "127.0.0.1", "--port", port, "--save", str(save), "--timeout", "30"]
    server = _start(procs, *args, stdout=subprocess.DEVNULL)
    _listening_port(server)
    seats = [RawSeat(int(port), s) for s in range(4)]
    procs.extend(seats)

    def mid_deal_two():
        lines = seats[0].lines
        starts = [i for i, x in enumerate(lines) if x.startswith("DEAL")]
        return len(starts) >= 2 and sum(x.startswith("TAKEN") for x in lines[starts[1]:]) >= 4

    drive(seats, mid_deal_two)
    server.send_signal(signal.SIGKILL)
    server.wait(10)
    taken_before = sum(x.startswith("TAKEN") for x in seats[0].lines[[i for i, x in enumerate(seats[0].lines) if x.startswith("DEAL")][1]:])
    drive(seats, closed_all(seats), 10)
    again = _start(procs, *args, "--resume", stdout=subprocess.DEVNULL)
    _listening_port(again)
    seats = [RawSeat(int(port), s) for s in range(4)]
    procs.extend(seats)
    drive(seats, closed_all(seats), 60)
    out, err = again.communicate(timeout=10)
    assert again.returncode == 0, err
    lines = seats[0].lines
    assert lines[0].startswith("DEAL2"), "the deal under way when the server died"
    replayed = 0
    for x in lines[1:]:
        if not x.startswith("TAKEN"):
            break
        replayed += 1
    assert replayed >= taken_before, "no finished trick is lost"
    totals = [sik.parse_server(x).points for x in lines if x.startswith("TOTAL")]
    assert totals[-1] == _lowest_reference(parse_deals(deals.read_bytes(), RS))


def test_bad_options_and_files_get_one_line_and_an_exit_code(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1N\n2C3C\n", "ascii")
    rc, out, err, _ = run_cli("serve", SIK_PATH, "--deals", str(bad), "--port", "1")
    assert rc == 1 and f"{bad}:3: error: the file ends inside a deal" in err, err
    rc, out, err, _ = run_cli("run", SIK_PATH, "--deals", str(bad))
    assert rc == 1 and str(bad) in err and "Traceback" not in err
    rc, out, err, _ = run_cli("serve", SIK_PATH, "--seat", "X=search")
    assert rc == 2 and "not a seat" in err
    rc, out, err, _ = run_cli("serve", SIK_PATH, "--seat", "N=nobody")
    assert rc == 2 and "unknown player" in err
    rc, out, err, _ = run_cli("serve", str(RULESETS / "games" / "hearts.yaml"))
    assert rc == 1 and "not a plain trick deal" in err
    rc, out, err, _ = run_cli("join", "127.0.0.1", str(_free_port()), "--seat", "N")
    assert rc == 1 and "cannot connect" in err and "Traceback" not in err
    rc, out, err, _ = run_cli("serve", SIK_PATH, "--resume")
    assert rc == 2 and "--resume needs --save" in err
    junk = tmp_path / "junk.save"
    junk.write_text("hello\n", "utf-8")
    rc, out, err, _ = run_cli("serve", SIK_PATH, "--save", str(junk), "--resume")
    assert rc == 1 and f"{junk}:1: error: not a kierki save file" in err and "Traceback" not in err


def test_run_with_deals_saves_the_match_file_and_resume_needs_it_unchanged(tmp_path):
    deals = tmp_path / "match.txt"
    deals.write_text(match_file(23, types=(2, 5)), "ascii")
    save = tmp_path / "m.save"
    rc, out, err, _ = run_cli("run", SIK_PATH, "--deals", str(deals), "--seed", "4", "--save", str(save), "--format", "json")
    assert rc == 0, err
    head = json.loads(save.read_text("utf-8").splitlines()[0])
    assert head["deals"]["path"] == str(deals)
    rc, again, err, _ = run_cli("resume", str(save), "--format", "json")
    assert rc == 0 and json.loads(again)["totals"] == json.loads(out)["totals"]
    deals.write_text(match_file(24, types=(2, 5)), "ascii")
    rc, _, err, _ = run_cli("resume", str(save))
    assert rc == 1 and "is missing or changed" in err


def test_four_joins_survive_a_server_killed_mid_match_and_score_as_run(tmp_path, procs):
    deals = tmp_path / "match.txt"
    deals.write_text(match_file(25), "ascii")
    rc, out, err, _ = run_cli("run", SIK_PATH, "--deals", str(deals), "--seed", "3", "--format", "json")
    expected = tuple(-t for t in json.loads(out)["totals"])
    save = tmp_path / "table.save"
    port = str(_free_port())
    args = ["serve", SIK_PATH, "--deals", str(deals), "--host", "127.0.0.1", "--port", port, "--save", str(save),
            "--seed", "3"]
    server = _start(procs, *args, stdout=subprocess.DEVNULL)
    _listening_port(server)
    clients = [_start(procs, "join", "127.0.0.1", port, "--seat", s, "--seed", "3", "--retry", "30") for s in "NESW"]
    deadline = time.monotonic() + 30
    while save.exists() is False or len(save.read_text("utf-8").splitlines()) < 120:  # deal 3 or so
        assert time.monotonic() < deadline and server.poll() is None, "the match did not get going"
        time.sleep(0.02)
    server.send_signal(signal.SIGKILL)
    server.wait(10)
    again = _start(procs, *args, "--resume", stdout=subprocess.DEVNULL)
    _listening_port(again)
    for c in clients:
        out, err = c.communicate(timeout=60)
        assert c.returncode == 0, err
        totals = [line.split("] ")[1] for line in out.decode().splitlines() if "] TOTAL" in line]
        assert sik.parse_server(totals[-1]).points == expected
    _, err = again.communicate(timeout=10)
    assert again.returncode == 0, err


def test_a_record_of_fixed_deals_replays(tmp_path):
    deals = tmp_path / "match.txt"
    deals.write_text(match_file(26, types=(7, 3, 3)), "ascii")
    record = tmp_path / "r.json"
    rc, out, err, _ = run_cli("run", SIK_PATH, "--deals", str(deals), "--seed", "2", "--record", str(record), "--format", "json")
    assert rc == 0, err
    rc, again, err, _ = run_cli("replay", str(record), "--ruleset", SIK_PATH, "--format", "json")
    assert rc == 0, err
    assert json.loads(again)["totals"] == json.loads(out)["totals"]
    assert [d["contract"] for d in json.loads(again)["deals"]] == ["rozbojnik", "bez_dam", "bez_dam"]


def test_deal_types_map_a_match_file_onto_another_game(tmp_path):
    barbu = str(RULESETS / "games" / "barbu.yaml")
    deals = tmp_path / "match.txt"
    deals.write_text(match_file(27, types=(1, 3, 5)), "ascii")
    record = tmp_path / "r.json"
    types = "1=no_tricks,3=no_queens,5=barbu"
    rc, out, err, _ = run_cli("run", barbu, "--deals", str(deals), "--deal-types", types, "--seed", "1",
                              "--record", str(record), "--format", "json")
    assert rc == 0, err
    rc, again, err, _ = run_cli("replay", str(record), "--ruleset", barbu, "--format", "json")
    assert rc == 0 and [d["contract"] for d in json.loads(again)["deals"]] == ["no_tricks", "no_queens", "barbu"]
    rc, _, err, _ = run_cli("run", barbu, "--deals", str(deals))
    assert rc == 1 and "deal type 1 names no contract" in err and "--deal-types" in err
    rc, _, err, _ = run_cli("serve", barbu, "--deals", str(deals), "--deal-types", types)
    assert rc == 1 and "not a plain trick deal" in err, "Barbu's doubling cannot be said in SIK"
    rc, _, err, _ = run_cli("run", barbu, "--deals", str(deals), "--deal-types", "1=nothing")
    assert rc == 2 and "'nothing' is not a contract" in err


def test_a_picked_port_takes_ipv4_and_ipv6_alike():
    """Without --port the system picks one port, and 127.0.0.1 and ::1 both reach it."""
    import socket

    from kierki_dsl.net.server import _dual_stack

    sock = _dual_stack(0)
    if sock is None:
        pytest.skip("no IPv6 on this machine")
    try:
        port = sock.getsockname()[1]
        sock.setblocking(True)
        for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
            with socket.socket(family, socket.SOCK_STREAM) as c:
                c.settimeout(5)
                c.connect((host, port))
                conn, _ = sock.accept()
                conn.close()
    finally:
        sock.close()


@pytest.mark.parametrize("command", ["serve", "run"])
def test_a_missing_match_file_is_a_bad_input_exit_1(tmp_path, command):
    """The exit-code table: a bad ruleset, match file or save file is 1 (2 is for usage)."""
    missing = str(tmp_path / "no-such-match.txt")
    extra = ["--port", "0", "--host", "127.0.0.1"] if command == "serve" else []
    rc, out, err, _ = run_cli(command, SIK_PATH, "--deals", missing, *extra)
    assert rc == 1, err
    assert err.strip() == f"{missing}: error: no such match file"
