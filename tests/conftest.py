"""Shared helpers: paths, running the real command in-process and as a subprocess."""
from __future__ import annotations

import os
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


def run_cli(*args: str, timeout: float = 120, cwd=None):
    """Run ``kierki`` in a subprocess; return (exit code, stdout, stderr, seconds, max RSS in KiB)."""
    start = time.perf_counter()
    with subprocess.Popen(
        kierki_command() + list(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
    ) as p:
        out, err = p.communicate(timeout=timeout)
        # the child is reaped by communicate; its rusage is read from wait4 when possible
    seconds = time.perf_counter() - start
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), seconds


def run_measured(*args: str, timeout: float = 30):
    """Like run_cli, but measure the child's own peak RSS with wait4 (KiB on Linux)."""
    start = time.perf_counter()
    with open(os.devnull, "rb") as devnull:
        p = subprocess.Popen(kierki_command() + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=devnull)
        out, err = b"", b""
        import threading

        chunks = {"out": [], "err": []}

        def pump(stream, key):
            chunks[key].append(stream.read())

        t1 = threading.Thread(target=pump, args=(p.stdout, "out"))
        t2 = threading.Thread(target=pump, args=(p.stderr, "err"))
        t1.start()
        t2.start()
        _, status, usage = os.wait4(p.pid, 0)
        t1.join(timeout)
        t2.join(timeout)
        p.returncode = os.waitstatus_to_exitcode(status)
        out, err = b"".join(chunks["out"]), b"".join(chunks["err"])
    seconds = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), (cpu, seconds), usage.ru_maxrss


@pytest.fixture
def cli(capsys):
    """Run the command in-process: returns (exit code, stdout, stderr)."""
    from kierki_dsl.entry import main

    def call(*args: str):
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return call
