"""A throwaway PostgreSQL cluster for the storage tests: ``initdb`` + ``pg_ctl`` in a temporary
folder, listening only on a unix socket in that folder (no TCP port at all), always stopped.

PostgreSQL refuses to run as root, so when the tests run as root (CI) the cluster belongs to
``nobody`` and its programs run through ``runuser``. Debian's ``postgresql`` package puts the
programs in ``/usr/lib/postgresql/N/bin``; ``.ci/run`` installs it when it is missing."""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from typing import Optional

import pytest

USER = "nobody"  # who owns and runs the cluster when the tests run as root
SUPERUSER = "kierki"  # the cluster's superuser (trust authentication on its private socket)


def pg_bin() -> Optional[str]:
    """The folder holding initdb and pg_ctl (the newest installed version), or None."""
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(found)
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[-3].split(".")[0]))
    return os.path.dirname(dirs[-1]) if dirs else None


class Cluster:
    """A PostgreSQL server in ``folder`` (data in ``folder/data``, its socket in ``folder``)."""

    def __init__(self, bindir: str):
        self.bindir = bindir
        self.folder = tempfile.mkdtemp(prefix="kierki-pg-")
        self.data = os.path.join(self.folder, "data")
        self.as_root = os.geteuid() == 0
        if self.as_root:
            who = pwd.getpwnam(USER)
            os.chown(self.folder, who.pw_uid, who.pw_gid)
        self.started = False
        self.counter = itertools.count()

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        cmd = [os.path.join(self.bindir, args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", USER, "--", *cmd]
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
                              cwd=self.folder)

    def start(self) -> None:
        """initdb, then pg_ctl start with a socket in the folder and no TCP listener."""
        got = self._run("initdb", "-D", self.data, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-sync")
        assert got.returncode == 0, f"initdb failed: {got.stderr}"
        options = f"-c listen_addresses='' -c unix_socket_directories='{self.folder}' -c fsync=off"
        got = self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "log"), "-o", options, "-w",
                        "-t", "60", "start")
        self.started = True  # pg_ctl may have started it even when it reports a failure: stop() tries anyway
        assert got.returncode == 0, f"pg_ctl start failed: {got.stderr} {self.log()}"
        self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        """Poll until the server accepts a connection."""
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=5).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise AssertionError(f"PostgreSQL never accepted a connection: {self.log()}") from None
                time.sleep(0.1)

    def url(self, database: str) -> str:
        """A libpq URL of ``database`` on this cluster's socket."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"kierki_test_{next(self.counter)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def log(self) -> str:
        try:
            with open(os.path.join(self.folder, "log"), encoding="utf-8", errors="replace") as f:
                return f.read()[-2000:]
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """Stop the server (immediately) and remove the folder."""
        try:
            if self.started:
                self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "-t", "60", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def cluster_or_skip():
    """A started Cluster; skips when PostgreSQL or psycopg is not installed (``.ci/run`` installs
    both, and under CI a missing one fails instead)."""
    missing = None
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing = "psycopg is not installed (the [test] extra installs it)"
    bindir = pg_bin()
    if bindir is None:
        missing = missing or "PostgreSQL is not installed (no initdb; .ci/run installs Debian's postgresql)"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test PostgreSQL storage: {missing}")
        pytest.skip(missing)
    cluster = Cluster(bindir)
    try:
        cluster.start()
    except BaseException:
        cluster.stop()
        raise
    return cluster
