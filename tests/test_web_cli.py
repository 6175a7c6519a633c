"""``kierki web`` as a process: it prints its address, and a SIGKILLed server resumes its tables."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading

import pytest

from web_support import Client, create_table, need_web, sit
from test_web_server import _state, play


def read_address(proc) -> str:
    """The base URL a ``kierki web`` process prints once it listens (waits up to 60 s)."""
    line = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(60)
    assert line and line[0].startswith("kierki web: http://127.0.0.1:"), (line, proc.poll())
    return line[0].split(": ", 1)[1].strip().rstrip("/")


@contextlib.contextmanager
def kierki_web(db: str, *extra, cwd=None):
    """``kierki web --port 0`` in a subprocess; yields (process, base URL); always killed."""
    need_web()
    proc = subprocess.Popen([sys.executable, "-m", "kierki_dsl", "web", "--port", "0", "--db", db, "--bot-delay", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd or os.path.dirname(db))
    try:
        yield proc, read_address(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)
        proc.stdout.close()
        proc.stderr.close()


def test_a_sigkilled_server_resumes_its_tables(db_url, tmp_path):
    """SIGKILL mid-match, on SQLite and on a real PostgreSQL: the restarted server resumes the table."""
    db = db_url
    with kierki_web(db, cwd=str(tmp_path)) as (proc, base):
        client = Client(base)
        table = create_table(client, ["human", "heuristic", "human", "random"])
        play(client, table, (0, 2), stop_after=4)
        with contextlib.ExitStack() as stack:
            before = _state(sit(client, stack, table["id"], table["tokens"][0]))
        client.close()
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert before["view"]["ply"] > 0
    with kierki_web(db, cwd=str(tmp_path)) as (proc, base):
        client = Client(base)
        with contextlib.ExitStack() as stack:
            after = _state(sit(client, stack, table["id"], table["tokens"][0]))
        assert after["view"] == before["view"]
        later = play(client, table, (0, 2), stop_after=4)[0].last_state()["view"]  # and it plays on
        assert (later["deal_number"], later["ply"]) > (after["view"]["deal_number"], after["view"]["ply"])
        client.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert table["tokens"][0] not in proc.stderr.read()


def test_kierki_web_refuses_bad_options(tmp_path):
    need_web()
    from kierki_dsl.cli import main

    assert main(["web", "--port", "70000"]) == 2
    assert main(["web", "--rulesets", str(tmp_path / "missing")]) == 2
    assert main(["web", "--db", str(tmp_path / "no" / "such" / "dir.sqlite3")]) == 2
    assert main(["web", "--keep-days", "-1"]) == 2
    assert main(["web", "--creates-per-minute", "0"]) == 2
    assert main(["web", "--unopened", "0"]) == 2
    assert main(["web", "--tables-per-address", "0"]) == 2
    assert main(["web", "--proxy", "not-an-address"]) == 2


@pytest.mark.slow
def test_a_postgresql_database_that_cannot_be_opened_is_a_usage_error_without_the_password(pg_cluster, capsys):
    """A real server, a database that does not exist: one line, exit 2, the URL's password never shown."""
    need_web()
    from kierki_dsl.cli import main

    url = f"postgresql://kierki:sekret-pw@/no_such_db?host={pg_cluster.folder}"
    assert main(["web", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kierki: error: cannot open the database: ") and "no_such_db" in err
    assert "sekret-pw" not in err and "Traceback" not in err
