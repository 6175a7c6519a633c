"""Helpers of the network tests: a SIK server in a background thread, scripted raw-socket
seats driven together by one selector loop, and match files. Everything is loopback, every
wait has a deadline, and every server and socket is closed by its owner's ``close``."""
from __future__ import annotations

import asyncio
import io
import random
import selectors
import socket
import threading
import time
from typing import Optional

from kierki_dsl.interpreter.match import Match
from kierki_dsl.net import sik
from kierki_dsl.net.server import Reporter, SikServer
from kierki_dsl.table import Table


def match_file(seed: int, types=range(1, 8)) -> str:
    """A SIK match file of random deals, one per type."""
    r = random.Random(seed)
    lines = []
    for t in types:
        cards = list(range(52))
        r.shuffle(cards)
        lines.append(f"{t}{'NESW'[r.randrange(4)]}")
        lines += [sik.cards_text(cards[s * 13 : (s + 1) * 13]) for s in range(4)]
    return "\n".join(lines) + "\n"


class ServerThread:
    """``SikServer`` over a ``Table`` on 127.0.0.1, in its own thread and event loop."""

    def __init__(self, ruleset, deals=None, bots=None, seed: int = 1, timeout: float = 1.0, script=(), on_action=None,
                 host: str = "127.0.0.1"):
        self.host = host
        self.table = Table(Match(ruleset, seed, deals), bots or {}, script, on_action)
        self.ruleset = ruleset
        self.timeout = timeout
        self.out = io.StringIO()
        self.ready = threading.Event()
        self.error: Optional[BaseException] = None
        self.thread = threading.Thread(target=self._main, daemon=True)

    def start(self) -> int:
        self.thread.start()
        if not self.ready.wait(10):
            raise AssertionError("the server did not start")
        if self.error:
            raise self.error
        return self.port

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as e:  # reported by close()
            self.error = e
            self.ready.set()

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.server = SikServer(self.table, self.ruleset, self.timeout, Reporter(self.out))
        bound = await self.server.start(self.host, 0)
        self.port = int(bound[0].rsplit(":", 1)[1])
        self.ready.set()
        await self.server.run()

    @property
    def finished(self) -> bool:
        return not self.thread.is_alive()

    def wait(self, seconds: float) -> None:
        self.thread.join(seconds)
        if self.thread.is_alive():
            raise AssertionError("the server did not finish in time")
        if self.error:
            raise self.error

    def close(self) -> None:
        if self.thread.is_alive() and hasattr(self, "loop"):
            self.loop.call_soon_threadsafe(self.server.done.set)
        self.thread.join(10)
        assert not self.thread.is_alive(), "the server thread did not stop"


def legal_lowest(hand: set, table_cards: list) -> int:
    """The lowest card that follows suit (the SIK profile has no other play rule)."""
    if table_cards:
        led = table_cards[0] // 13
        follow = [c for c in hand if c // 13 == led]
        if follow:
            return min(follow)
    return min(hand)


class RawSeat:
    """A scripted SIK client on a raw socket: it records every byte it receives."""

    def __init__(self, port: int, seat: Optional[int], host: str = "127.0.0.1", iam: bool = True):
        self.sock = socket.create_connection((host, port), timeout=10)
        self.sock.setblocking(False)
        self.seat = seat
        self.received = b""
        self.buf = b""
        self.lines: list = []
        self.hand: set = set()
        self.closed = False
        self.policy = legal_lowest
        self.on_line = None  # hook(seat, line) -> True when it handled the line itself
        if iam and seat is not None:
            self.send(sik.iam(seat))

    def send(self, text) -> None:
        data = text if isinstance(text, bytes) else text.encode("ascii") + b"\r\n"
        self.sock.setblocking(True)
        self.sock.sendall(data)
        self.sock.setblocking(False)

    def pump(self) -> list:
        """Read what is there; the new complete lines."""
        new = []
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    self.closed = True
                    break
                self.received += chunk
                self.buf += chunk
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self.closed = True
        while b"\r\n" in self.buf:
            line, _, self.buf = self.buf.partition(b"\r\n")
            new.append(line.decode("ascii"))
        self.lines += new
        return new

    def react(self, line: str) -> None:
        """Play as a plain client: keep the hand, answer every TRICK with a legal card."""
        if self.on_line is not None and self.on_line(self, line):
            return
        msg = sik.parse_server(line)
        if isinstance(msg, sik.Deal):
            self.hand = set(msg.cards)
        elif isinstance(msg, sik.TrickRequest):
            self.send(sik.trick(msg.number, [self.policy(self.hand, list(msg.cards))]))
        elif isinstance(msg, sik.Taken):
            self.hand -= set(msg.cards)

    def close(self) -> None:
        self.sock.close()


def drive(seats: list, until, seconds: float = 30.0) -> None:
    """Let the seats react to their messages until ``until()`` holds (or all are closed)."""
    sel = selectors.DefaultSelector()
    try:
        for s in seats:
            if not s.closed:
                sel.register(s.sock, selectors.EVENT_READ, s)
        deadline = time.monotonic() + seconds
        while not until():
            if all(s.closed for s in seats):
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the seats did not get there in time")
            for key, _ in sel.select(min(left, 0.2)):
                s = key.data
                for line in s.pump():
                    s.react(line)
                if s.closed:
                    sel.unregister(s.sock)
    finally:
        sel.close()


def closed_all(seats):
    return lambda: all(s.closed for s in seats)


def accepted_socket_nodelay(client: socket.socket, seconds: float = 10.0) -> int:
    """TCP_NODELAY of the server's end of ``client``'s connection, a server of this process
    (found among the process's open sockets by the connection's two ports; polled until accepted
    and, as asyncio sets the option just after accepting, until it is set or time runs out: the
    value last seen is returned, so a server that never sets it still gives 0)."""
    import os

    mine = client.getsockname()[1]
    theirs = client.getpeername()[1]
    deadline = time.monotonic() + seconds
    seen = None
    while time.monotonic() < deadline:
        for name in os.listdir("/proc/self/fd"):
            try:
                s = socket.socket(fileno=os.dup(int(name)))
            except OSError:
                continue
            try:
                if s.type == socket.SOCK_STREAM and s.family in (socket.AF_INET, socket.AF_INET6):
                    peer, local = s.getpeername(), s.getsockname()
                    if peer[1] == mine and local[1] == theirs:
                        seen = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                        if seen:
                            return seen
            except OSError:
                pass
            finally:
                s.close()
        time.sleep(0.02)
    if seen is not None:
        return seen
    raise AssertionError("the server never accepted the connection")
