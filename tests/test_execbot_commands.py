"""``exec:`` bots seated by the commands people run (issue 23, point 2): ``kierki serve --seat
N=exec:…`` and ``kierki web --bot NAME=exec:…`` play whole matches with bots in other processes.
Every process a test starts is killed whatever happens; readiness is polled, never slept for."""
from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kierki_dsl.net import sik
from test_net_cli import _start, procs  # noqa: F401  (procs is a fixture)
from test_web_cli import kierki_web
from test_web_server import play
from web_support import Client, create_table, need_web

from conftest import RULESETS, kierki_command

ROOT = Path(__file__).resolve().parent.parent
RANDOMBOT = f"exec:{sys.executable} {ROOT / 'examples' / 'bots' / 'randombot.py'}"
SIK_PATH = str(RULESETS / "games" / "sik.yaml")


def _serve(procs, tmp_path, *seats: str) -> tuple:  # noqa: F811
    """``kierki serve`` with bot seats, its standard error in a file (all of it is read after);
    (process, port, the file) once it listens (polled)."""
    err = open(tmp_path / "serve.err", "w+b")
    procs.append(err)
    args = ["serve", SIK_PATH, "--host", "127.0.0.1", "--seed", "5"] + [x for s in seats for x in ("--seat", s)]
    server = subprocess.Popen(kierki_command() + args, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
    procs.append(server)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        m = re.search(r"listening on \S+:(\d+)", (tmp_path / "serve.err").read_text(errors="replace"))
        if m:
            return server, int(m.group(1)), tmp_path / "serve.err"
        assert server.poll() is None, (tmp_path / "serve.err").read_text(errors="replace")
        time.sleep(0.05)
    raise AssertionError("the server did not start")


def test_kierki_serve_seats_exec_bots_and_a_join_plays_the_match_with_them(procs, tmp_path):  # noqa: F811
    server, port, errors = _serve(procs, tmp_path, f"N={RANDOMBOT}", f"E={RANDOMBOT}", "S=random")
    client = _start(procs, "join", "127.0.0.1", str(port), "--seat", "W", "--player", "heuristic", "-4")
    out, err = client.communicate(timeout=180)
    assert client.returncode == 0, err
    totals = [line for line in out.decode().splitlines() if "] TOTAL" in line]
    assert totals, out.decode()[-500:]
    points = sik.parse_server(totals[-1].split("] ")[1]).points
    assert server.wait(30) == 0
    text = errors.read_text()
    assert "exec bot" not in text, text  # neither bot failed: both played to the end
    assert f"totals (SIK points) {' '.join(f'{s} {t}' for s, t in zip('NESW', points))}" in text


def test_kierki_web_offers_an_exec_bot_and_a_person_plays_a_match_with_it(tmp_path):
    need_web()
    db = str(tmp_path / "web.sqlite3")
    with kierki_web(db, "--bot", f"rb={RANDOMBOT}", cwd=str(tmp_path)) as (proc, base):
        client = Client(base)
        try:
            assert client.get("/api/bots").json()["bots"] == ["random", "heuristic", "search", "rb"]
            table = create_table(client, ["human", "rb", "rb", "random"])
            [seat] = play(client, table, (0,))
            last = seat.last_state()
            assert last["over"] and not last["failure"], last
            assert [s["kind"] for s in last["seats"]] == ["human", "rb", "rb", "random"]
            bad = client.post("/api/tables", json={"ruleset": "kierki_standard.yaml",
                                                   "seats": ["human", "exec:/bin/sh", "random", "random"]})
            assert bad.status_code == 400  # a browser names an offered bot, never a command
        finally:
            client.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert "exec bot" not in proc.stderr.read()


@pytest.mark.parametrize("spec", ["x", "Bad=random", "random=heuristic", "human=random", "ok=nosuch", "ok=human",
                                  "ok="])
def test_kierki_web_refuses_a_bad_bot_offer(spec):
    need_web()
    from kierki_dsl.cli import main

    assert main(["web", "--port", "0", "--bot", spec]) == 2


def test_a_serve_seat_with_a_missing_exec_program_still_finishes_the_match(procs, tmp_path):  # noqa: F811
    server, port, errors = _serve(procs, tmp_path, "N=exec:/nonexistent/bot", "E=random", "S=random")
    client = _start(procs, "join", "127.0.0.1", str(port), "--seat", "W", "--player", "random", "-4", "--quiet")
    _, err = client.communicate(timeout=180)
    assert client.returncode == 0, err
    assert server.wait(30) == 0
    text = errors.read_text()
    assert "exec bot /nonexistent/bot of seat 0" in text and "heuristic plays on" in text
    assert "match over" in text


