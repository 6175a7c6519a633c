"""kierki-dsl against a SIK Kierki client and server written by someone else: the clean-room C
programs of tests/interop/sik_c/, written from the protocol page only (its README says how).

Both directions, over loopback: `kierki serve` seats the C clients (alone, or with kierki-dsl
bots), and the C server seats `kierki join` bots (alone, or with C clients). The scores are
checked three ways: against `kierki run --deals` of the same file (SIK counts bad points
positive, kierki-dsl negative: docs/network.md), against the C server's own count, and against
each C client's own tally of the points of every TAKEN (the client fails a deal whose SCORE
differs, and checks who took each trick). `kierki run` plays its own bots, so the C clients'
"lowest legal card" only gives the same totals on a match whose scores no play can change
(``forced_match``); on a real match the other two checks hold."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import ROOT, kierki_command, poll_until, run_cli, stop

#: the C programs are compiled and whole matches played over loopback: `pytest -m slow`
pytestmark = pytest.mark.slow

SIK_C = ROOT / "tests" / "interop" / "sik_c"
SIK = str(ROOT / "rulesets" / "games" / "sik.yaml")
EXAMPLE = ROOT / "examples" / "sik_match.txt"
SEATS = "NESW"
REPORT_LINE = re.compile(r"^\[([^,\]]+:\d+),([^,\]]+:\d+),\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\] (.*)$", re.M)
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@pytest.fixture(scope="module")
def sik_c(tmp_path_factory) -> Path:
    """The C server and client, compiled into a temporary folder."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        why = "no C compiler (gcc or cc) on PATH: the clean-room SIK programs cannot be built"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the interop tests: {why} (.ci/run installs Debian's gcc)")
        pytest.skip(why)
    out = tmp_path_factory.mktemp("sik_c")
    for name in ("server", "client"):
        done = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-O2", "-o", str(out / name), str(SIK_C / f"{name}.c")],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{name}.c does not compile:\n{done.stderr}"
    return out


class Programs:
    """Starts programs in their own process groups with stdout/stderr in files; stops them all."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.started: list = []

    def start(self, name: str, args: list) -> subprocess.Popen:
        with open(self.folder / f"{name}.out", "wb") as out, open(self.folder / f"{name}.err", "wb") as err:
            p = subprocess.Popen([str(a) for a in args], stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 start_new_session=True)
        self.started.append(p)
        return p

    def kierki(self, name: str, args: list) -> subprocess.Popen:
        return self.start(name, kierki_command() + list(args))

    def text(self, name: str, stream: str = "err") -> str:
        return (self.folder / f"{name}.{stream}").read_text("ascii", "replace")

    def port(self, name: str, proc: subprocess.Popen) -> int:
        """The port a server printed on stderr ("... listening on 127.0.0.1:PORT", "[::1]:PORT")."""
        pattern = re.compile(r"listening on \S+:(\d+)$", re.M)
        poll_until(lambda: pattern.search(self.text(name)), timeout=20, proc=proc, what=f"{name} to listen")
        return int(pattern.search(self.text(name)).group(1))

    def finish(self, procs: dict, seconds: float = 40) -> None:
        """Every program ends by itself, with exit 0, within the time."""
        deadline = time.monotonic() + seconds
        for name, p in procs.items():
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{name} did not finish; its stderr:\n{self.text(name)}") from None
            assert p.returncode == 0, f"{name} exited {p.returncode}; its stderr:\n{self.text(name)}"

    def stop_all(self) -> None:
        for p in self.started:
            stop(p)


@pytest.fixture
def programs(tmp_path):
    progs = Programs(tmp_path)
    try:
        yield progs
    finally:
        progs.stop_all()


def seat_points(text: str) -> list:
    """[N, E, S, W] from "N25E44S43W88" or "N 25 E 44 S 43 W 88" (any order, signs kept)."""
    pairs = dict(re.findall(r"([NESW])\s*(-?\d+)", text))
    assert sorted(pairs) == sorted(SEATS), text
    return [int(pairs[s]) for s in SEATS]


def c_client_result(progs: Programs, name: str) -> dict:
    """What a C client printed at the end: its last TOTAL, its own tally, WRONGs, mismatches."""
    lines = dict(line.split(" ", 1) for line in progs.text(name).splitlines() if " " in line)
    return {"total": seat_points(lines["total"]), "tally": seat_points(lines["tally"]),
            "wrong": int(lines["wrong"]), "mismatch": int(lines["mismatch"])}


def join_totals(progs: Programs, name: str) -> list:
    """The last totals a `kierki join` bot printed (kierki-dsl's sign: bad points negative)."""
    lines = [line for line in progs.text(name).splitlines() if line.startswith("totals:")]
    assert lines, progs.text(name)
    return seat_points(lines[-1])


def run_totals(deals: Path, seed: int = 9) -> list:
    """`kierki run --deals` of the file, as SIK points (negated)."""
    code, out, err, _ = run_cli("run", SIK, "--deals", str(deals), "--seed", str(seed), "--format", "json", timeout=60)
    assert code == 0, err
    return [-p for p in json.loads(out)["deals"][-1]["totals"]]


def forced_match(path: Path) -> Path:
    """Seven deals, one per type, whose scores no legal play can change: each seat holds one
    whole suit, so nobody can follow the leader, who takes every trick (the suits and the
    leaders rotate, so every seat scores)."""
    lines = []
    for t in range(1, 8):
        lines.append(f"{t}{SEATS[(t * 3) % 4]}")
        for seat in range(4):
            suit = "CDHS"[(seat + t) % 4]
            lines.append("".join(r + suit for r in reversed(RANKS) if (t + len(r)) % 2) +
                         "".join(r + suit for r in RANKS if not (t + len(r)) % 2))
    path.write_text("\n".join(lines) + "\n")
    return path


def serve(progs: Programs, deals: Path, bots: dict = None, host: str = "127.0.0.1"):
    args = ["serve", SIK, "--deals", deals, "--port", "0", "--host", host, "--timeout", "2"]
    for seat, player in (bots or {}).items():
        args += ["--seat", f"{seat}={player}"]
    p = progs.kierki("serve", args)
    return p, progs.port("serve", p)


def c_server(progs: Programs, sik_c: Path, deals: Path, early: bool, prefix: str = "", host: str = "127.0.0.1"):
    name = f"{prefix}cserver"
    p = progs.start(name, [sik_c / "server", "-f", deals, "-p", "0", "-t", "2", "-a", host] + (["-e"] if early else []))
    return p, progs.port(name, p)


def c_client(progs: Programs, sik_c: Path, port: int, seat: str, wrong: bool = False, prefix: str = "", extra=(),
             host: str = "127.0.0.1"):
    args = [sik_c / "client", "-h", host, "-p", port, "-s", seat] + (["-w"] if wrong else []) + list(extra)
    return progs.start(f"{prefix}c{seat}", args)


def join(progs: Programs, port: int, seat: str, seed: int = 9):
    return progs.kierki(f"k{seat}", ["join", "127.0.0.1", str(port), "--seat", seat, "--player", "heuristic",
                                     "--seed", str(seed)])


def served_totals(progs: Programs) -> list:
    line = [x for x in progs.text("serve").splitlines() if "totals" in x]
    assert line, progs.text("serve")
    return seat_points(line[-1].split("totals", 1)[1])


def check_c_clients(progs: Programs, seats: str, totals: list) -> None:
    """Each C client ended with these totals, its own tally agrees, and no SCORE or TAKEN disagreed."""
    for seat in seats:
        got = c_client_result(progs, f"c{seat}")
        assert got["total"] == totals, (seat, got)
        assert got["tally"] == totals and got["mismatch"] == 0, (seat, got)
        assert got["wrong"] == 0, (seat, got)  # the lowest card it took for legal was legal


# ---- (a) kierki serve seats the C clients ----

@pytest.mark.parametrize("forced", [True, False], ids=["forced-match", "example-match"])
def test_kierki_serve_seats_four_c_clients(sik_c, programs, tmp_path, forced):
    """Four C clients finish a match at `kierki serve` (exit 0, a TOTAL per deal, the report in
    the page's format); its totals are those of `kierki run --deals` where no play can change
    them, and those the C server counts for the same play otherwise."""
    deals = forced_match(tmp_path / "forced.txt") if forced else EXAMPLE
    server, port = serve(programs, deals)
    clients = {f"c{s}": c_client(programs, sik_c, port, s) for s in SEATS}
    programs.finish({"serve": server, **clients})
    totals = served_totals(programs)
    check_c_clients(programs, SEATS, totals)
    assert totals == (run_totals(deals) if forced else honest_totals(programs, sik_c))
    report = programs.text("serve", "out").splitlines()
    assert sum("] TOTAL" in line for line in report) == 4 * 7  # a TOTAL per deal to every seat
    assert all(REPORT_LINE.match(line) for line in report)


@pytest.mark.parametrize("forced", [True, False], ids=["forced-match", "example-match"])
def test_kierki_serve_seats_two_c_clients_and_two_bots(sik_c, programs, tmp_path, forced):
    """Two C clients and two kierki-dsl bots (`--seat`) finish a match at `kierki serve`."""
    deals = forced_match(tmp_path / "forced.txt") if forced else EXAMPLE
    server, port = serve(programs, deals, {"E": "heuristic", "W": "random"})
    clients = {f"c{s}": c_client(programs, sik_c, port, s) for s in "NS"}
    programs.finish({"serve": server, **clients})
    totals = served_totals(programs)
    check_c_clients(programs, "NS", totals)
    if forced:
        assert totals == run_totals(deals)


# ---- (b) the C server seats kierki join bots ----

def test_c_server_seats_four_kierki_join_bots(sik_c, programs):
    """Four heuristic bots with the seed of `kierki run` make the same decisions: the C server's
    scores (it ends deals early, as sik.yaml does) equal `kierki run --deals` on a real match."""
    server, port = c_server(programs, sik_c, EXAMPLE, early=True)
    bots = {f"k{s}": join(programs, port, s) for s in SEATS}
    programs.finish({"cserver": server, **bots})
    expected = run_totals(EXAMPLE)
    assert seat_points(programs.text("cserver").splitlines()[-1]) == expected
    for name in bots:
        assert [-p for p in join_totals(programs, name)] == expected
    report = REPORT_LINE.findall(programs.text("cserver", "out"))
    for seat in SEATS:  # each bot's report holds every message it exchanged with the server
        mine = REPORT_LINE.findall(programs.text(f"k{seat}", "out"))
        assert mine and len(mine) == len(programs.text(f"k{seat}", "out").splitlines())
        port = mine[0][0]  # the bot's own address, from its IAM
        assert [m for _, _, m in mine] == [m for a, b, m in report if port in (a, b)]


@pytest.mark.parametrize("forced", [True, False], ids=["forced-match", "example-match"])
def test_c_server_seats_c_clients_and_kierki_join_bots(sik_c, programs, tmp_path, forced):
    """A mixed table at a server that plays every deal to its 13th trick (no early end)."""
    deals = forced_match(tmp_path / "forced.txt") if forced else EXAMPLE
    server, port = c_server(programs, sik_c, deals, early=False)
    players = {"cN": c_client(programs, sik_c, port, "N"), "kE": join(programs, port, "E"),
               "cS": c_client(programs, sik_c, port, "S"), "kW": join(programs, port, "W")}
    programs.finish({"cserver": server, **players})
    totals = seat_points(programs.text("cserver").splitlines()[-1])
    check_c_clients(programs, "NS", totals)
    for name in ("kE", "kW"):
        assert [-p for p in join_totals(programs, name)] == totals
    if forced:
        assert totals == run_totals(deals)


# ---- (c) a C client provokes WRONG on purpose, and recovers ----

def honest_totals(progs: Programs, sik_c: Path) -> list:
    """The totals of the example match played by four C clients at the C server, no WRONG."""
    server, port = c_server(progs, sik_c, EXAMPLE, early=True, prefix="ref")
    clients = {f"refc{s}": c_client(progs, sik_c, port, s, prefix="ref") for s in SEATS}
    progs.finish({"refcserver": server, **clients})
    return seat_points(progs.text("refcserver").splitlines()[-1])


@pytest.mark.parametrize("server_kind", ["kierki", "c"])
def test_c_client_provoking_wrong_recovers(sik_c, programs, server_kind):
    """East first answers with an illegal card (a revoke or a card it does not hold): the server
    says WRONG, asks again, and the match ends with the totals of the same match without it."""
    expected = honest_totals(programs, sik_c)
    if server_kind == "kierki":
        server, port = serve(programs, EXAMPLE)
        name = "serve"
    else:
        server, port = c_server(programs, sik_c, EXAMPLE, early=True)
        name = "cserver"
    clients = {f"c{s}": c_client(programs, sik_c, port, s, wrong=(s == "E")) for s in SEATS}
    programs.finish({name: server, **clients})
    east = c_client_result(programs, "cE")
    assert east["wrong"] == 1 and east["mismatch"] == 0
    report = programs.text(name, "out").splitlines()
    wrongs = [i for i, line in enumerate(report) if line.endswith("] WRONG1")]
    assert len(wrongs) == 1
    assert "] TRICK1" in report[wrongs[0] + 1]  # asked again at once
    for seat in SEATS:
        got = c_client_result(programs, f"c{seat}")
        assert got["total"] == got["tally"] == expected, (seat, got)


# ---- reconnection across implementations ----

def taken_count(progs: Programs, name: str) -> int:
    return sum("] TAKEN" in line for line in progs.text(name, "out").splitlines())


def caught_up(lines: list) -> list:
    """What a seat that claimed an empty seat got first: its DEAL, then the TAKENs (numbers)."""
    messages = [line.split("] ", 1)[1] for line in lines]
    assert messages[0].startswith("IAM") and messages[1].startswith("DEAL"), messages[:3]
    taken = []
    for m in messages[2:]:
        if not m.startswith("TAKEN"):
            break
        taken.append(m)
    return [messages[1]] + taken


def test_c_client_reconnects_to_kierki_serve(sik_c, programs):
    """East drops after trick 4 of the second deal (deal 1 plays 13 tricks); a new C client
    claims E, gets that deal and a TAKEN for each of the 4 tricks, and the match ends with the
    totals of an uninterrupted one."""
    expected = honest_totals(programs, sik_c)
    server, port = serve(programs, EXAMPLE)
    clients = {f"c{s}": c_client(programs, sik_c, port, s, extra=["-x", "17"] if s == "E" else []) for s in SEATS}
    dropped = clients.pop("cE")
    dropped.wait(20)
    assert dropped.returncode == 3, programs.text("cE")
    clients["againcE"] = c_client(programs, sik_c, port, "E", prefix="again")
    programs.finish({"serve": server, **clients})
    assert served_totals(programs) == expected
    for name in ("cN", "cS", "cW", "againcE"):
        got = c_client_result(programs, name)
        assert got["total"] == expected and got["mismatch"] == 0, (name, got)
    first = caught_up(programs.text("againcE", "out").splitlines())
    assert first[0].startswith("DEAL2") and [t[:6] for t in first[1:]] == ["TAKEN1", "TAKEN2", "TAKEN3", "TAKEN4"]


def sent_by_self(progs: Programs, name: str) -> int:
    """How many messages a program's report says it sent (its first line is its own IAM)."""
    lines = REPORT_LINE.findall(progs.text(name, "out"))
    return sum(a == lines[0][0] for a, _, _ in lines) if lines else 0


def test_kierki_join_reconnects_to_c_server(sik_c, programs):
    """A `kierki join` bot is killed in the second deal while North (a C client told to) holds its
    answer, so the match cannot end meanwhile; North answers while East's seat is empty (the C
    server takes a play it asked for before the pause); a new `kierki join` claims East, rebuilds
    its view from the DEAL and TAKENs the C server resends, and every seat agrees on the totals."""
    server, port = c_server(programs, sik_c, EXAMPLE, early=True)
    players = {"cN": c_client(programs, sik_c, port, "N", extra=["-H", "17"]), "kE": join(programs, port, "E"),
               "cS": c_client(programs, sik_c, port, "S"), "cW": c_client(programs, sik_c, port, "W")}
    poll_until(lambda: "holding" in programs.text("cN"), timeout=20, proc=server, what="North to hold its answer")
    stop(players.pop("kE"))
    sent = sent_by_self(programs, "cN")
    os.kill(players["cN"].pid, signal.SIGUSR1)
    poll_until(lambda: sent_by_self(programs, "cN") > sent, timeout=10, what="North to answer")
    players["againkE"] = programs.kierki("againkE", ["join", "127.0.0.1", str(port), "--seat", "E", "--seed", "9"])
    programs.finish({"cserver": server, **players})
    totals = seat_points(programs.text("cserver").splitlines()[-1])
    check_c_clients(programs, "NSW", totals)
    assert [-p for p in join_totals(programs, "againkE")] == totals
    first = caught_up(programs.text("againkE", "out").splitlines())
    assert first[0].startswith("DEAL2") and len(first) >= 5, first
    assert all(t.startswith(f"TAKEN{n}") for n, t in enumerate(first[1:], 1)), first


# ---- IPv6 ----

def ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback (::1)")
def test_both_directions_over_ipv6(sik_c, programs):
    """`kierki serve --host ::1` seats C clients that connect with -6; a `kierki join -6` bot sits at
    the C server on ::1 with three C clients; the reports show the IPv6 addresses."""
    server, port = serve(programs, EXAMPLE, host="::1")
    clients = {f"c{s}": c_client(programs, sik_c, port, s, extra=["-6"], host="::1") for s in SEATS}
    programs.finish({"serve": server, **clients})
    check_c_clients(programs, SEATS, served_totals(programs))
    assert "::1" in programs.text("cN", "out").splitlines()[0]
    server, port = c_server(programs, sik_c, EXAMPLE, early=True, host="::1")
    players = {f"v6c{s}": c_client(programs, sik_c, port, s, prefix="v6", extra=["-6"], host="::1") for s in "NSW"}
    players["kE"] = programs.kierki("kE", ["join", "::1", str(port), "-6", "--seat", "E", "--seed", "9"])
    programs.finish({"cserver": server, **players})
    totals = seat_points(programs.text("cserver").splitlines()[-1])
    for seat in "NSW":
        got = c_client_result(programs, f"v6c{seat}")
        assert got["total"] == got["tally"] == totals and got["mismatch"] == 0, got
    assert [-p for p in join_totals(programs, "kE")] == totals
    assert "::1" in programs.text("kE", "out").splitlines()[0]
