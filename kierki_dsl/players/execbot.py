"""``exec:COMMAND``: a bot in any language, in its own process, over the bot protocol.

The bot gets only what its seat may see (``docs/bot-protocol.md``). Each match starts a fresh
process with CPU, memory and file-size limits; each decision has a time limit and so has the
whole match. When the bot crashes, hangs, floods its output or answers garbage or an illegal
action, the match goes on: the process is stopped, ``failure`` says why, and the seat either
falls back to a built-in player (``on_failure="heuristic"``, the default, or any player name)
or forfeits (``on_failure="forfeit"``: it plays its first legal action to the end, and a
tournament scores the match as lost).
"""

from __future__ import annotations

import os
import resource
import selectors
import shlex
import signal
import subprocess
import sys
import time
import weakref
from typing import Any, Optional

from . import botproto
from .base import Player, make_player, register_player

#: limits of one bot process (settable per bot: ``ExecBot(command, limits=...)``)
DEFAULT_LIMITS = {
    "decision_seconds": 5.0,
    "match_seconds": 300.0,
    "cpu_seconds": 300,
    "memory_mb": 1024,
    "output_bytes": 16 << 20,
}
#: how often a bot that has not answered yet is checked for having exited (a child of a bot that
#: crashed may hold its output open, so no end of output tells)
POLL_SECONDS = 0.05
#: whether a child's exit can be seen without reaping it (Linux, the BSDs); elsewhere the bot is
#: reaped as it is seen exiting, and its group is killed as before, whatever its state
_PEEK = hasattr(os, "waitid") and hasattr(os, "WNOWAIT")


def _limit(cpu_seconds: int, memory_mb: int):
    def apply() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        memory = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _status(proc: Any) -> Optional[int]:
    """The bot's exit status once it has exited (``-N`` for signal N), None while it runs, without
    reaping it: the exited bot stays a zombie, so its pid, which is its process group's id, cannot
    be given to another process until ``_stop`` has killed the group and reaped it."""
    if proc.returncode is not None:  # already reaped (by ``_stop``)
        return proc.returncode
    if not _PEEK:
        return proc.poll()
    try:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # reaped by someone else (SIGCHLD ignored): gone, its status unknown
        return 0  # as subprocess says of it
    if info is None:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def _ours(proc: Any) -> bool:
    """Whether the bot is still unreaped (running, or a zombie only we reap): then its pid is still
    its process group's id, and no other group's."""
    if not _PEEK:
        return True
    if proc.returncode is not None:
        return False
    try:
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def _stop(proc: Any) -> None:
    """Stop the bot's process group and reap it: what the bot started too, even once the bot itself
    has exited (a script that crashed leaves its background children in the group). The bot is
    reaped only here, after the group is killed: a reaped bot's pid could already lead an
    unrelated group, which is then never signalled."""
    if _ours(proc):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):  # nothing left in the group
            pass
    for stream in (proc.stdin, proc.stdout):
        try:
            stream.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


@register_player
class ExecBot(Player):
    """A bot program spoken to over stdin/stdout (``--players 'exec:./mybot --level 3'``)."""

    name = "exec"

    def __init__(self, command: str = "", on_failure: str = "heuristic", limits: Optional[dict] = None):
        try:
            argv = shlex.split(command)
        except ValueError as e:  # an unclosed quote or a trailing backslash
            raise ValueError(f"exec:{command}: the command cannot be split as a shell would: {e}") from None
        if not argv:
            raise ValueError("exec: name the bot's command (exec:./mybot)")
        self.argv = argv
        self.on_failure = on_failure
        self.limits = {**DEFAULT_LIMITS, **(limits or {})}
        self.proc: Any = None  # the running subprocess.Popen, or None
        self.failure: Optional[str] = None
        self.substitute: Optional[Player] = None
        self._buffer = b""
        self._finalizer: Any = None

    # -- a match -------------------------------------------------------------------------------
    def reset(self, seed: int, seat: int, rules=None) -> None:
        super().reset(seed, seat, rules)
        self.close()
        self.failure, self.substitute, self._buffer = None, None, b""
        self.spent = 0.0
        self.output = 0
        try:
            self._start()
            name = rules.name if rules is not None else ""
            players = rules.players if rules is not None else 0
            self._send(botproto.hello(seat, players, name, seed))
            botproto.read_ready(self._answer())
        except botproto.BotError as e:
            self._fail(str(e))

    def act(self, view) -> int:
        if self.failure is None:
            try:
                self._send(botproto.decide(view))
                return botproto.read_action(self._answer(), view.legal)
            except botproto.BotError as e:
                self._fail(str(e))
        if self.substitute is not None:
            return self.substitute.act(view)
        return view.legal[0]

    def close(self) -> None:
        """Say bye and stop the process (also done when the player is dropped)."""
        if self.proc is not None:
            if _status(self.proc) is None and self.failure is None:
                try:
                    self._send(botproto.bye())
                except botproto.BotError:
                    pass
            _stop(self.proc)
            self.proc = None
            if self._finalizer is not None:
                self._finalizer.detach()

    # -- the process ---------------------------------------------------------------------------
    def _start(self) -> None:
        lim = self.limits
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=_limit(int(lim["cpu_seconds"]), int(lim["memory_mb"])),
            )
        except OSError as e:
            raise botproto.BotError(f"cannot start {self.argv[0]!r}: {e.strerror}") from None
        self._finalizer = weakref.finalize(self, _stop, self.proc)
        os.set_blocking(self.proc.stdout.fileno(), False)

    def _send(self, doc: dict) -> None:
        if self.proc is None:
            raise botproto.BotError("the bot has exited")
        if _status(self.proc) is not None:
            raise botproto.BotError(self._exit_reason())
        if self._buffer or self._pending():
            raise botproto.BotError("the bot wrote without being asked (flooding)")
        try:
            self.proc.stdin.write(botproto.line(doc))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise botproto.BotError(self._exit_reason("the bot closed its input")) from None

    def _pending(self) -> bool:
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        try:
            ready = sel.select(0)
        finally:
            sel.close()
        if not ready:
            return False
        chunk = self._read()
        return bool(chunk)

    def _read(self) -> bytes:
        try:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return b""
        self.output += len(chunk)
        if self.output > self.limits["output_bytes"]:
            raise botproto.BotError("the bot wrote too much (flooding)")
        self._buffer += chunk
        return chunk

    def _answer(self) -> bytes:
        """One line from the bot, within the decision's and the match's time left."""
        lim = self.limits
        start = time.monotonic()
        budget = min(lim["decision_seconds"], lim["match_seconds"] - self.spent)
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        try:
            while b"\n" not in self._buffer:
                if len(self._buffer) > botproto.MAX_LINE:
                    raise botproto.BotError("a line longer than 64 KiB (flooding)")
                left = budget - (time.monotonic() - start)
                if left <= 0:
                    raise botproto.BotError(
                        self._exit_reason() if _status(self.proc) is not None else self._late(budget)
                    )
                if sel.select(min(left, POLL_SECONDS)):
                    if not self._read():  # end of output
                        raise botproto.BotError(self._exit_reason())
                elif _status(self.proc) is not None and not self._read():
                    # the bot exited, and a child of its holds its output open (no end of output
                    # comes): said now, not at the time limit; what it wrote before is still read
                    raise botproto.BotError(self._exit_reason())
        finally:
            sel.close()
            self.spent += time.monotonic() - start
        raw, _, self._buffer = self._buffer.partition(b"\n")
        if len(raw) > botproto.MAX_LINE:
            raise botproto.BotError("a line longer than 64 KiB (flooding)")
        return raw

    def _late(self, budget: float) -> str:
        """Why the wait is over: the answer's own limit or what was left of the match's."""
        if budget < self.limits["decision_seconds"]:
            return f"no answer in time (the match's {self.limits['match_seconds']:g} s for all answers used up)"
        return f"no answer within {budget:g} s (decision_seconds)"

    def _exit_reason(self, running: str = "the bot closed its output") -> str:
        """How the bot ended, waited for a second at most (it is not reaped: ``_status``);
        ``running`` if it still runs then."""
        deadline = time.monotonic() + 1
        while (code := _status(self.proc)) is None:
            if time.monotonic() > deadline:
                return running
            time.sleep(0.005)
        return f"the bot exited (code {code})" if code >= 0 else f"the bot was killed (signal {-code})"

    def _fail(self, reason: str) -> None:
        self.failure = reason
        then = "forfeits" if self.on_failure == "forfeit" else f"{self.on_failure} plays on"
        command = shlex.join(self.argv)  # the whole command: `python3 mybot.py` is named by its script too
        command = command if len(command) <= 80 else "..." + command[-77:]
        sys.stderr.write(f"kierki: exec bot {command} of seat {self.seat}: {reason}; the seat {then}\n")
        if self.proc is not None:
            _stop(self.proc)
        if self.on_failure != "forfeit":
            self.substitute = make_player(self.on_failure)
            self.substitute.reset(self.seed, self.seat, self.rules)
