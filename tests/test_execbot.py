"""``exec:`` bots (issue 23, point 2): bots in other processes play over the bot protocol, and a
bot that crashes, hangs, floods or answers garbage never stops the match."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kierki_dsl.interpreter.match import Match, MatchRunner
from kierki_dsl.interpreter.view import FLAT
from kierki_dsl.players import botproto, execbot
from kierki_dsl.players.base import RandomPlayer, make_player
from kierki_dsl.players.execbot import ExecBot
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.table.core import Table

from conftest import STANDARD, run_cli

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "examples" / "bots"
RS = Ruleset.load(str(STANDARD))
FAST = {"decision_seconds": 2.0}


def _script(tmp_path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text("import json, sys, time\n" + body)
    return f"{sys.executable} {path}"


READY = 'sys.stdin.readline(); print(json.dumps({"type": "ready"}), flush=True)\n'


def _play(bot) -> list:
    runner = MatchRunner(RS, [bot, RandomPlayer(), RandomPlayer(), RandomPlayer()], seed=4)
    try:
        return list(runner.deals())
    finally:
        bot.close()


def test_the_python_example_bot_plays_a_match_through_kierki_run():
    cmd = [sys.executable, "-m", "kierki_dsl", "run", str(STANDARD), "--seed", "5", "--players",
           f"exec:{sys.executable} {BOTS / 'randombot.py'},heuristic,random,random"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "exec bot" not in proc.stderr and "Final standings" in proc.stdout


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc builds the C example bot")
def test_the_c_example_bot_plays_a_match(tmp_path):
    exe = tmp_path / "lowest"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(BOTS / "lowest.c")], check=True, timeout=120)
    bot = ExecBot(f"{exe} --level 1")
    deals = _play(bot)
    assert bot.failure is None and len(deals) == len(RS.schedule)


def test_the_exec_bot_plays_what_it_answers_and_only_legal_actions(tmp_path):
    seen = []

    class Spy(ExecBot):
        def act(self, view):
            action = super().act(view)
            seen.append((action, view.legal))
            return action

    bot = Spy(f"{sys.executable} {BOTS / 'randombot.py'}")
    _play(bot)
    assert bot.failure is None and seen and all(a in legal for a, legal in seen)


MISBEHAVING = {
    "crash": READY + "sys.stdin.readline(); sys.exit(3)\n",
    "hang": READY + "sys.stdin.readline(); time.sleep(60)\n",
    "flood": READY + "sys.stdin.readline()\nwhile True: sys.stdout.write('x' * 65536)\n",
    "lines": READY + "sys.stdin.readline()\nwhile True: print('{\"action\": 0}', flush=True)\n",
    "garbage": READY + "sys.stdin.readline(); print('hello world', flush=True); time.sleep(60)\n",
    "illegal": READY + "sys.stdin.readline(); print(json.dumps({'action': 999}), flush=True); time.sleep(60)\n",
    "silent": "time.sleep(60)\n",
    "memory": READY + "sys.stdin.readline(); x = bytearray(4 << 30)\n",
}


@pytest.mark.parametrize("kind", sorted(MISBEHAVING))
def test_a_misbehaving_bot_never_stops_the_match(tmp_path, kind):
    bot = ExecBot(_script(tmp_path, kind, MISBEHAVING[kind]), limits={**FAST, "memory_mb": 512})
    deals = _play(bot)
    assert len(deals) == len(RS.schedule)
    assert bot.failure and bot.proc is None and bot.substitute is not None


def test_a_failing_bot_can_forfeit_instead(tmp_path):
    bot = ExecBot(_script(tmp_path, "crash", MISBEHAVING["crash"]), on_failure="forfeit", limits=FAST)
    assert len(_play(bot)) == len(RS.schedule)
    assert bot.failure and bot.substitute is None


def test_a_missing_program_is_a_failure_not_a_crash():
    bot = ExecBot("/nonexistent/bot")
    assert len(_play(bot)) == len(RS.schedule) and "cannot start" in bot.failure


def test_exec_needs_a_command():
    with pytest.raises(KeyError):
        make_player("exec")
    assert isinstance(make_player("exec:./mybot --level 3"), ExecBot)


def test_exec_bots_sit_at_a_table_as_serve_and_web_seat_them(tmp_path):
    bots = {s: make_player(f"exec:{sys.executable} {BOTS / 'randombot.py'}") for s in (0, 1)}
    bots[2] = ExecBot(_script(tmp_path, "garbage", MISBEHAVING["garbage"]), limits=FAST)
    bots[3] = make_player("random")
    table = Table(Match(RS, 6), bots)
    try:
        table.run_bots()
    finally:
        for bot in bots.values():
            getattr(bot, "close", lambda: None)()
    assert table.over and len(table.results) == len(RS.schedule)
    assert bots[0].failure is None and bots[1].failure is None and bots[2].failure


# Play-test 5: a bot writer whose bot answered a card it does not hold, 30.0 for 30, or true, read
# only "illegal answer '0'" / "'30.0'" / "'True'": not why, nor what was legal.
WRONG = {
    "not legal": ("{'action': next(i for i in range(52) if i not in {a['id'] for a in d['legal']})}",
                  r"illegal answer \d+ \([0-9AKQJ]+[SHDC]\): not one of the \d+ legal actions \(.*[SHDC]"),
    "a float": ("{'action': float(d['legal'][0]['id'])}", r"illegal answer \d+\.0: an action is .*id.*label"),
    "a bool": ("{'action': True}", r"illegal answer True: an action is .*id.*label"),
    "no action": ("{'type': 'ready'}", r"illegal answer None: an action is .*id.*label"),
    "a bad label": ("{'action': 'QX'}", r"illegal answer 'QX': not an action's label \(such as QS"),
}


@pytest.mark.parametrize("kind", sorted(WRONG))
def test_a_wrong_answer_is_refused_saying_why_and_what_was_legal(tmp_path, kind):
    answer, said = WRONG[kind]
    bot = _script(tmp_path, "wrong", READY + f"d = json.loads(sys.stdin.readline()); print(json.dumps({answer}), flush=True)\n"
                  "time.sleep(60)\n")
    cmd = [sys.executable, "-m", "kierki_dsl", "run", str(STANDARD), "--seed", "4", "--players",
           f"exec:{bot},heuristic,random,random"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stderr.splitlines() if "exec bot" in x)
    assert re.search(said, line), line
    assert "wrong.py of seat 0" in line, "the command is named by its script, not by the interpreter alone"


# Play-test 7: a bot writer read "not a JSON line: b'hello there'" (a Python bytes literal),
# "no answer in time" (which limit?), and for an unclosed quote in --players only
# "kierki: error: No closing quotation" (of what?).
def test_a_garbage_line_is_quoted_as_text_with_its_length():
    with pytest.raises(botproto.BotError) as short:
        botproto.read_ready(b"hello there")
    assert str(short.value).startswith("not a JSON line: 'hello there' (not valid JSON")
    with pytest.raises(botproto.BotError) as long:
        botproto.read_ready("zażółć ".encode() * 20)
    assert "b'" not in str(long.value) and "zażółć" in str(long.value) and "bytes more" in str(long.value)


def test_a_silent_bot_is_told_which_time_limit_it_missed(tmp_path):
    bot = ExecBot(_script(tmp_path, "silent", MISBEHAVING["silent"]), limits={"decision_seconds": 0.5})
    _play(bot)
    assert bot.failure == "no answer within 0.5 s (decision_seconds)"


def test_an_exec_command_that_cannot_be_split_names_itself():
    with pytest.raises(KeyError, match=r"exec:\./bot \"x: the command cannot be split.*No closing quotation"):
        make_player('exec:./bot "x')


# Play-test 7: `kierki run --help` listed the players without `exec:` (nor `pimc`): a bot writer
# reading the help alone would not find how to seat a bot.
@pytest.mark.parametrize("command, option", [("run", "--players"), ("join", "--player")])
def test_the_help_of_the_players_option_names_exec_bots(command, option):
    code, out, _, _ = run_cli(command, "--help")
    said = " ".join(out.split())
    assert code == 0 and "exec:COMMAND" in said and "pimc" in said, said


# Play-test 7: a bot answering 9999 to a card play read "illegal answer 9999 (bid:8999)": a bid, in a
# deal without an auction. The label is said only for an action of a kind the seat could choose.
def test_a_refused_id_is_labelled_only_as_an_action_of_the_kind_asked_for():
    with pytest.raises(botproto.BotError) as far:
        botproto.read_action(b'{"action": 9999}', (0, 5, 13))
    assert str(far.value) == "illegal answer 9999: not one of the 3 legal actions (2S, 7S, 2H)"
    with pytest.raises(botproto.BotError) as card:
        botproto.read_action(b'{"action": 1}', (0, 5, 13))
    assert str(card.value).startswith("illegal answer 1 (3S): ")


# Play-test 7: a bot's `decide` message held `deck`, `seller`, `widow`, `taker`, `exchanged`, `aside`,
# `declarations` and `format`, which docs/players.md (where bot-protocol.md sends a bot writer) did
# not describe.
def test_every_name_of_the_view_a_bot_reads_is_described_in_players_md():
    table = (ROOT / "docs" / "players.md").read_text()
    names = "\n".join(row.split("|")[1] for row in table.splitlines() if row.startswith("| `"))
    described = set(re.findall(r"`(\w+)`", names))
    missing = (set(FLAT) | {"format"}) - described
    assert not missing, missing


# Play-test 7: a bot script that started a helper in the background and then crashed left the helper
# running after the match: the group was killed only while the bot itself still ran.
def test_a_crashed_bot_leaves_nothing_of_its_group_running(tmp_path):
    pid_file = tmp_path / "helper.pid"
    body = (
        "import subprocess\nh = subprocess.Popen(['sleep', '300'], stdout=subprocess.DEVNULL)\n"
        f"open({str(pid_file)!r}, 'w').write(str(h.pid))\n" + READY + "sys.stdin.readline(); sys.exit(3)\n"
    )
    bot = ExecBot(_script(tmp_path, "forks", body), limits=FAST)
    try:
        assert len(_play(bot)) == len(RS.schedule) and "exited (code 3)" in bot.failure
        helper = int(pid_file.read_text())
        deadline = time.monotonic() + 5
        while not (gone := _gone(helper)) and time.monotonic() < deadline:  # a SIGKILL takes a moment
            time.sleep(0.01)
    finally:
        if pid_file.exists() and not _gone(int(pid_file.read_text())):  # stopped whatever happens
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert gone


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (no longer there, or a zombie waiting for its reaper)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except OSError:
        return True


def test_a_bot_that_exited_is_told_so_though_a_child_holds_its_output(tmp_path):
    body = "import subprocess\nh = subprocess.Popen(['sleep', '300'])\n" + READY + "sys.stdin.readline(); sys.exit(3)\n"
    bot = ExecBot(_script(tmp_path, "holds", body), limits={"decision_seconds": 0.5})
    _play(bot)
    assert bot.failure == "the bot exited (code 3)"


# Play-test 7: a bot answering 60,000 `[` ended `kierki run` with "internal error: RecursionError"
# (exit 70): the JSON parser's recursion. Its lines are now read as records are, nesting bounded.
@pytest.mark.parametrize("line", [b"[" * 60000, b'{"action":' * 20000, b"[" * 65 + b"]" * 65])
def test_a_deeply_nested_answer_is_a_failure_of_the_bot_not_of_the_engine(line):
    with pytest.raises(botproto.BotError, match="nests deeper than 64 levels"):
        botproto.read_action(line, (0, 1))
    with pytest.raises(botproto.BotError, match="nests deeper than 64 levels"):
        botproto.read_ready(line)


def _state(pid: int):
    """The state letter of process ``pid`` (``Z``: exited, not reaped yet), None once it is reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


# Review: `_stop` killed the bot's process group by the bot's pid even after the bot had been reaped;
# with every member of the group gone, that pid may lead an unrelated group by then.
@pytest.mark.skipif(not execbot._PEEK, reason="needs os.waitid(WNOWAIT)")
@pytest.mark.parametrize("reaper", ["popen", "another waitpid"])
def test_no_process_group_is_signalled_once_the_bot_was_reaped(monkeypatch, reaper):
    proc = subprocess.Popen(["true"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
    if reaper == "popen":
        proc.wait()
    else:  # reaped behind Popen's back (as with SIGCHLD ignored)
        os.waitpid(proc.pid, 0)
    signalled = []
    monkeypatch.setattr(execbot.os, "killpg", lambda pgid, sig: signalled.append(pgid))
    execbot._stop(proc)
    assert signalled == []


@pytest.mark.skipif(not execbot._PEEK, reason="needs os.waitid(WNOWAIT)")
def test_an_exited_bot_is_reaped_only_after_its_group_is_killed(tmp_path, monkeypatch):
    pid_file = tmp_path / "helper.pid"
    body = (
        "import subprocess\nh = subprocess.Popen(['sleep', '300'])\n"  # holds the bot's output open
        f"open({str(pid_file)!r}, 'w').write(str(h.pid))\n" + READY + "sys.stdin.readline(); sys.exit(3)\n"
    )
    leader_at_kill = []
    killpg = os.killpg

    def spy(pgid, sig):
        leader_at_kill.append(_state(pgid))
        killpg(pgid, sig)

    monkeypatch.setattr(execbot.os, "killpg", spy)
    bot = ExecBot(_script(tmp_path, "holds", body), limits={"decision_seconds": 5.0})
    try:
        _play(bot)
        helper = int(pid_file.read_text())
        deadline = time.monotonic() + 5
        while not (gone := _gone(helper)) and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        if pid_file.exists() and not _gone(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert bot.failure == "the bot exited (code 3)"
    assert leader_at_kill[0] == "Z", (
        "the exited bot is still unreaped when its group is killed: its pid is no one else's"
    )
    assert gone, "the child holding the output was killed with the group"


# Review: a bot that crashed while a child of its held its output open was noticed only at the time
# limit (no end of output comes): the bot's own exit is watched while its line is awaited.
def test_a_bot_that_exits_at_once_leaving_a_child_is_told_so_long_before_the_time_limit(tmp_path):
    body = "import subprocess\nsubprocess.Popen(['sleep', '300'])\nsys.exit(4)\n"
    limit = 10.0
    bot = ExecBot(_script(tmp_path, "quits", body), limits={"decision_seconds": limit})
    start = time.monotonic()
    try:
        bot.reset(4, 0, RS)
        waited = time.monotonic() - start
    finally:
        bot.close()
    assert bot.failure == "the bot exited (code 4)"
    assert waited < limit / 4, f"noticed after {waited:.1f} s of a {limit:g} s limit"
