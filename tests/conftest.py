"""Shared helpers: paths, running the real command in-process and as a subprocess."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
STANDARD = RULESETS / "kierki_standard.yaml"
DATA = Path(__file__).resolve().parent / "data"


def kierki_command() -> list[str]:
    """The installed console script next to this Python, else ``python -m kierki_dsl``."""
    script = Path(sys.executable).with_name("kierki")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "kierki_dsl"]


def stop(p: subprocess.Popen) -> None:
    """Kill a child started with ``start_new_session=True`` and everything it started; reap it."""
    if p.poll() is None:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            p.kill()
    p.wait()


def spawn(args: list, **kw) -> subprocess.Popen:
    """Start ``kierki ARGS`` in its own process group (so ``stop`` ends its children too)."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.Popen(kierki_command() + list(args), start_new_session=True, **kw)


@pytest.fixture
def processes():
    """Start commands with ``processes(args, ...)``; every one is killed (with its children)
    when the test ends, whatever happens."""
    started: list = []

    def start(args: list, **kw) -> subprocess.Popen:
        p = spawn(args, **kw)
        started.append(p)
        return p

    try:
        yield start
    finally:
        for p in started:
            stop(p)
            for stream in (p.stdout, p.stderr, p.stdin):
                if stream is not None:
                    stream.close()


def poll_until(condition, timeout: float = 60, proc=None, what: str = "the condition") -> None:
    """Wait until ``condition()`` holds, polling; fail if ``proc`` exits first or time runs out."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the process ended (exit {proc.returncode}) before {what}")
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def run_cli(*args: str, timeout: float = 120, cwd=None, input: bytes = None):
    """Run ``kierki`` in a subprocess; return (exit code, stdout, stderr, seconds).

    On a timeout the child (and anything it started) is killed before the error is raised."""
    start = time.perf_counter()
    p = spawn(list(args), cwd=cwd, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL)
    try:
        out, err = p.communicate(input=input, timeout=timeout)
    finally:
        stop(p)
        for stream in (p.stdout, p.stderr, p.stdin):
            if stream is not None:
                stream.close()
    seconds = time.perf_counter() - start
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), seconds


# Forks the command from a small Python and reports its rusage on a pipe. Measured directly, a
# child's peak RSS would include the test process's own (Linux carries the parent's high-water
# mark across fork and exec), so the bound would depend on what the suite had imported.
_MEASURE = """import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
os.write(int(sys.argv[1]), b"%d %r" % (usage.ru_maxrss, usage.ru_utime + usage.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status) & 255)
"""


def run_measured(*args: str, timeout: float = 30):
    """Like run_cli, but measure the command's own peak RSS (KiB) and CPU time with wait4."""
    import threading

    start = time.perf_counter()
    report, write_end = os.pipe()
    try:
        cmd = [sys.executable, "-c", _MEASURE, str(write_end)] + kierki_command() + list(args)
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, pass_fds=(write_end,))
        os.close(write_end)
        write_end = -1
        watchdog = threading.Timer(timeout, os.killpg, (p.pid, signal.SIGKILL))  # never wait forever
        watchdog.start()
        try:
            out, err = p.communicate()
        finally:
            watchdog.cancel()
            stop(p)
        rss, cpu = os.read(report, 100).split()
    finally:
        os.close(report)
        if write_end >= 0:
            os.close(write_end)
    seconds = time.perf_counter() - start
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), (float(cpu), seconds), int(rss)


@pytest.fixture
def cli(capsys):
    """Run the command in-process: returns (exit code, stdout, stderr)."""
    from kierki_dsl.entry import main

    def call(*args: str):
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return call


@pytest.fixture(scope="session")
def pg_cluster():
    """A throwaway PostgreSQL cluster for the whole session (tests/pg_support.py); always stopped."""
    from pg_support import cluster_or_skip

    cluster = cluster_or_skip()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request, tmp_path):
    """Where a web test stores its tables: a SQLite file, or a fresh database on a real PostgreSQL
    (marked slow: it starts a server; ``pytest -m slow`` runs it)."""
    if request.param == "sqlite":
        return str(tmp_path / "web.sqlite3")
    return request.getfixturevalue("pg_cluster").new_database()


#: the shipped rulesets a default run plays in the tests that sweep every shipped ruleset: between
#: them every deal type, phase and feature of the format (tricks, trump calls, layouts, passing,
#: declarer's choice, doubling and duties, exposure, auctions with a seller, a widow and a musik,
#: declarations, a stock, three players, 32 cards, series, restrictions that read the trick,
#: early ends). ``pytest -m slow`` plays the sweep's other rulesets.
SWEEP_SAMPLE = frozenset({
    "kierki_standard.yaml", "games/hearts.yaml", "games/barbu.yaml", "games/trix.yaml", "games/tysiac.yaml",
    "games/king_brazil.yaml", "games/russian_king.yaml", "variants/kierki_dominowe.yaml",
    "variants/auction_face_up.yaml", "variants/fantan_pass_pool.yaml", "variants/fantan_extra_turn.yaml",
    "variants/three_players.yaml", "variants/must_ruff.yaml", "variants/early_stop.yaml",
    "variants/declarer_chooses_negatives.yaml", "variants/four_series.yaml",
})


#: sample rulesets no fast kernel and no step core play (Tysiąc: every deal opens with an auction
#: and is played by the interpreter). In the sweeps of the fast path and the step core such a
#: ruleset only replays the interpreter through them, to 1000 points: minutes of a default run.
#: Those sweeps (``fast_path_sweep``) play it with ``-m slow``; their default run keeps
#: variants/kierki_dominowe.yaml (a match to a score whose every deal the interpreter plays),
#: variants/auction_face_up.yaml (an auction, interpreted deals), three_players and hearts.
NO_FAST_DEALS = frozenset({"games/tysiac.yaml"})


def fast_path_sweep(paths) -> list:
    """A sweep's parameters ``paths`` (shipped rulesets), those of NO_FAST_DEALS marked ``slow``."""
    return [pytest.param(p, marks=pytest.mark.slow) if _shipped_name(p) in NO_FAST_DEALS else p for p in paths]


def _shipped_name(value) -> str | None:
    """A test parameter naming a shipped ruleset, as its path below ``rulesets/`` (else None)."""
    text = str(value).replace(os.sep, "/")
    if not text.endswith(".yaml"):
        return None
    head, sep, tail = text.rpartition("rulesets/")
    name = tail if sep else text
    return name if (RULESETS / name).is_file() else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """A test parametrized over every shipped ruleset is a sweep: its cases outside
    SWEEP_SAMPLE are marked ``slow`` (the default run plays the sample, ``-m slow`` the rest)."""
    shipped = {p.relative_to(RULESETS).as_posix() for p in RULESETS.rglob("*.yaml")}
    cases: dict = {}
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        names = [n for n in map(_shipped_name, params.values()) if n]
        if names:
            cases.setdefault((item.path, item.originalname), []).append((item, names[0]))
    for group in cases.values():
        if {name for _, name in group} >= shipped:
            for item, name in group:
                if name not in SWEEP_SAMPLE:
                    item.add_marker(pytest.mark.slow)


class Goes:
    """A value whose release runs a user's code (``__del__``): ``then(holder)``."""

    def __init__(self, holder, then) -> None:
        self.holder, self.then = holder, then

    def __del__(self) -> None:
        holder, self.holder = self.holder, None
        self.then(holder)

    def __eq__(self, other) -> bool:  # (the two paths' values compare equal)
        return type(other) is Goes

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "Goes()"
