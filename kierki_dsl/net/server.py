"""``kierki serve``: a table that speaks the SIK protocol, on asyncio streams.

One coroutine per connection, one for the bots, one watchdog; no thread per connection (bots
think in one worker thread so that a slow search never stalls the sockets). Decisions where
the protocol leaves a choice (documented in docs/network.md):

- a first message that is not a valid ``IAM``, or no message within the timeout, closes the
  connection; a taken seat (or a full table) gets ``BUSY`` and is closed;
- once seated, a message that cannot be read (unknown, malformed, oversized, not ASCII) or a
  play that is not allowed (not on turn, wrong trick number, a card not held, a revoke) gets
  ``WRONG<n>`` with the current trick, and the state is unchanged; the seat on turn is then
  asked again at once; NUL bytes are dropped and a bare LF ends a line too;
- a seat on turn that stays silent for the timeout is asked again (``TRICK`` repeated);
- a client that leaves pauses the table; whoever claims the empty seat gets its ``DEAL``
  and a ``TAKEN`` for every finished trick of the deal, then play resumes;
- a play is taken only from the seat that was sent ``TRICK`` for that very decision: a seat
  that was never asked (the table paused before its turn came) gets ``WRONG`` like any
  unasked play;
- a client that does not read what it is sent (more than ``MAX_BUFFERED`` bytes sent and not
  taken by its system, counting the kernel's send queue) is disconnected, like one that leaves;
- a seat refused ``MAX_REFUSED`` times in a row (``WRONG`` or ignored; counted across
  reconnections until a play of the seat is taken) is disconnected, and again at its next
  refused message, so a client grows the report (and the replies) by a bounded amount per
  connection it opens.
"""

from __future__ import annotations

import asyncio
import struct
import sys
from concurrent.futures import ThreadPoolExecutor

try:  # POSIX only: the kernel's send queue is read where the system can tell
    import fcntl
    import termios
except ImportError:  # pragma: no cover
    fcntl = termios = None  # type: ignore[assignment]
import socket
from datetime import datetime
from typing import Callable, Optional

from ..phases import phase_of
from ..table.events import DealEnded, DealStarted, MatchEnded, TrickTaken, TurnToAct
from ..table.outcome import Failed, Refused
from ..table.session import needs
from . import sik
from .lines import LineReader, shown

MAX_BUFFERED = 64 * 1024
MAX_REFUSED = 1000  # messages refused in a row before a client is disconnected
MAX_PENDING = 256  # connections that have not (yet) claimed a seat


def address(sockname) -> str:
    """``host:port`` of a socket name (``[host]:port`` for IPv6)."""
    if not sockname:
        return "?"
    host, port = sockname[0], sockname[1]
    if host.startswith("::ffff:") and "." in host:  # an IPv4 client of the dual-stack socket
        host = host[7:]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _dual_stack(port: int):
    """A listening socket on ``[::]:port`` that also takes IPv4 connections, or None where the
    system has no IPv6 (then every address family is bound separately). It is made with
    ``IPPROTO_TCP`` so that asyncio sets ``TCP_NODELAY`` on every connection it accepts (a
    second message then never waits for the ACK of the first)."""

    if not socket.has_ipv6:
        return None
    try:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    except OSError:
        return None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(("::", port))
        sock.listen(128)
        sock.setblocking(False)
        return sock
    except OSError:
        sock.close()
        return None


def _kernel_queue(sock) -> int:
    """Bytes in the socket's kernel send queue, not yet acknowledged by the peer (Linux
    ``SIOCOUTQ``; 0 where the system cannot tell)."""
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]
    except (ImportError, AttributeError, OSError, ValueError):
        return 0


class Reporter:
    """Prints every message as ``[from,to,time] message`` (the protocol page's report)."""

    def __init__(self, out=None):
        self.out = out if out is not None else sys.stdout

    def line(self, src: str, dst: str, message: str) -> None:
        if self.out is None:
            return
        stamp = datetime.now().isoformat(timespec="milliseconds")
        try:
            self.out.write(f"[{src},{dst},{stamp}] {message}\n")
            self.out.flush()
        except (OSError, ValueError):  # the reader of the report went away: play on without it
            self.out = None
            sys.stderr.write("kierki: the protocol report cannot be written any more; the match goes on\n")


def sik_problem(ruleset, deals, types: Optional[dict] = None) -> Optional[str]:
    """Why this ruleset (with these fixed deals, or its schedule) cannot be played over SIK, or None."""
    from ..interpreter.protocol import CompiledContract
    from .deals import type_of_contract

    contracts = [d.contract for d in deals] if deals else list(ruleset.schedule)
    need = needs(ruleset, contracts)
    if (need.seats, need.hand_size) != (4, 13):
        return "SIK seats four players with 13 cards each"
    for c in dict.fromkeys(contracts):
        if not deals and not 1 <= type_of_contract(ruleset, c, types) <= 7:
            return f"contract {c.name!r} has no SIK deal type 1-7 (map it with --deal-types)"
        if not isinstance(c, CompiledContract):
            return "a declarer's-choice deal cannot be announced in SIK (give the deals with --deals)"
        cards = list(range(52))
        state = c.new_deal(4, ruleset.deck, 0, [cards[i::4] for i in range(4)], ruleset.direction, 1)
        view = state.view(state.current_player())
        if not phase_of(view).plain_tricks(view):
            return (
                f"contract {c.name!r} is not a plain trick deal (SIK has no passing, calls, bets, exposures, "
                "stocks or layouts)"
            )
    return None


def _decision(view) -> tuple:
    """Which decision a seat's view is at, as ``TurnToAct`` names it."""
    return (view.deal_number, view.trick_number, len(view.trick))


class Connection:
    """One client socket: its line reader, its seat, and sending with the report."""

    def __init__(self, reader, writer, reporter: Reporter):
        self.lines = LineReader(reader)
        self.writer = writer
        self.reporter = reporter
        self.peer = address(writer.get_extra_info("peername"))
        self.local = address(writer.get_extra_info("sockname"))
        self.seat: Optional[int] = None
        self.asked_at: Optional[float] = None
        self.asked: Optional[tuple] = None  # the decision (deal, trick, cards on the table) TRICK was sent for
        self.listener: Optional[Callable[[object], None]] = None  # set when the client claims a seat
        self.closed = False

    def send(self, message: str) -> None:
        if self.closed or self.writer.transport.is_closing():
            return
        self.writer.write(message.encode("ascii") + b"\r\n")
        self.reporter.line(self.local, self.peer, message)
        if self.unread() > MAX_BUFFERED:
            self.close()

    def unread(self) -> int:
        """Bytes sent that the client's system has not taken yet: asyncio's buffer and the kernel's."""
        sock = self.writer.get_extra_info("socket")
        return self.writer.transport.get_write_buffer_size() + (_kernel_queue(sock) if sock is not None else 0)

    def received(self, raw: bytes) -> None:
        self.reporter.line(self.peer, self.local, shown(raw))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.writer.close()


async def _closed(conn) -> None:
    try:
        await asyncio.wait_for(conn.writer.wait_closed(), 1.0)
    except (asyncio.TimeoutError, ConnectionError, OSError):
        pass


class SikServer:
    """Serves one ``Table`` over SIK until its match is over."""

    def __init__(
        self, table, ruleset, timeout: float = 5.0, reporter: Optional[Reporter] = None, types: Optional[dict] = None
    ):
        from .deals import type_of_contract

        self.table = table
        self.timeout = timeout
        self.reporter = reporter or Reporter()
        self.kinds = {c.name: type_of_contract(ruleset, c, types) for c in ruleset.schedule}
        self.connections: set = set()
        self.pending = 0
        self.changed = asyncio.Event()
        self.done = asyncio.Event()
        self.failure: Optional[str] = None
        self.server: Optional[asyncio.Server] = None  # listening once started
        self.max_refused = MAX_REFUSED
        self.refused: dict = {}  # seat -> its messages refused since its last play taken (across reconnections)

    async def start(self, host: Optional[str], port: int) -> list:
        """Listen; the addresses bound (``host:port``). With no host, one dual-stack socket takes
        IPv6 and IPv4 on the same port (a port the system picks is then one port for both)."""
        sock = _dual_stack(port) if host is None else None
        if sock is not None:
            self.server = await asyncio.start_server(self._client, sock=sock)
        else:
            self.server = await asyncio.start_server(self._client, host, port)
        return [address(s.getsockname()) for s in self.server.sockets]

    async def run(self) -> None:
        """Play the match to its end, then close every connection."""
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kierki-bots")
        tasks = [asyncio.ensure_future(self._bots()), asyncio.ensure_future(self._watchdog())]
        try:
            if self.table.over:
                self.done.set()
            await self.done.wait()
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.pool.shutdown(wait=False, cancel_futures=True)
            if self.server is not None:
                self.server.close()
            conns = list(self.connections)
            await asyncio.gather(*(self._flush(c) for c in conns))  # SCORE and TOTAL reach everyone
            for conn in conns:
                conn.close()
            await asyncio.gather(*(_closed(c) for c in conns))

    # -- connections ---------------------------------------------------------------------------
    async def _client(self, reader, writer) -> None:
        conn = Connection(reader, writer, self.reporter)
        if self.pending >= MAX_PENDING or self.done.is_set():
            conn.close()
            return
        self.connections.add(conn)
        self.pending += 1
        try:
            try:
                seated = await self._greet(conn)
            finally:
                self.pending -= 1
            if seated:
                await self._play(conn)
        except (EOFError, ConnectionError, OSError):
            pass
        except Exception as e:  # a bug must not take the table down with it
            sys.stderr.write(f"kierki: internal error on connection {conn.peer}: {type(e).__name__}: {e}\n")
        finally:
            self._drop(conn)

    def _drop(self, conn: Connection) -> None:
        self.connections.discard(conn)
        if conn.seat is not None and self.table.listeners.get(conn.seat) is conn.listener:
            self.table.leave(conn.seat)
            self.changed.set()
        conn.close()

    async def _greet(self, conn: Connection) -> bool:
        """Wait for a valid ``IAM``; seat the client, or ``BUSY`` and close."""
        try:
            line, raw = await asyncio.wait_for(conn.lines.next_line(), self.timeout)
        except asyncio.TimeoutError:
            return False
        conn.received(raw)
        seat = sik.parse_iam(line) if line is not None else None
        if seat is None:  # the first message must be IAM (the original assignment closes too)
            return False
        conn.listener = lambda event, c=conn: self._event(c, event)
        if self.table.over or not self.table.sit(seat, conn.listener):
            conn.send(sik.busy(self.table.occupied()))
            await self._flush(conn)
            return False
        conn.seat = seat
        self.changed.set()
        return True

    async def _flush(self, conn: Connection) -> None:
        try:
            await asyncio.wait_for(conn.writer.drain(), 1.0)
        except (asyncio.TimeoutError, ConnectionError, OSError):
            pass

    async def _play(self, conn: Connection) -> None:
        while not conn.closed:
            line, raw = await conn.lines.next_line()
            conn.received(raw)
            refused = 0 if self._message(conn, line) else self.refused.get(conn.seat, 0) + 1
            self.refused[conn.seat] = refused
            if refused >= self.max_refused:
                conn.close()

    def _message(self, conn: Connection, line: Optional[str]) -> bool:
        """Act on one message of a seated client; whether it was taken (a play that counted)."""
        table, seat = self.table, conn.seat
        assert seat is not None  # only a seated client's messages come here
        if not table.live or table.over:
            return False  # nothing is played yet (or any more): ignored
        view = table.view(seat)
        number = view.trick_number
        play = sik.parse_play(line, number) if line is not None else None
        reason = "not a play" if play is None else None
        if play is not None:
            if conn.asked != _decision(view) or seat != table.match.to_move():
                reason = "not asked"  # never sent TRICK for this decision (the table paused first)
            elif play[0] != number:
                reason = "wrong trick number"
            elif isinstance(self._act(seat, play[1]), Refused):
                reason = "refused by the rules"
        if reason is not None:
            conn.send(sik.wrong(number))
            table.ask_again(seat)
        self._after_act()
        return reason is None

    def _act(self, seat: int, action: int):
        """``table.act``'s outcome; a match that cannot go on ends with its message."""
        outcome = self.table.act(seat, action)
        if isinstance(outcome, Failed):
            self.failure = outcome.message
            self.done.set()
        return outcome

    def _after_act(self) -> None:
        self.changed.set()
        if self.table.over:
            self.done.set()

    # -- events to the wire ------------------------------------------------------------------------
    def _event(self, conn: Connection, event) -> None:
        if isinstance(event, DealStarted):
            kind = int(event.label) if event.label.isdigit() else self.kinds.get(event.contract, 0)
            conn.send(sik.deal(kind, event.leader, event.hand))
        elif isinstance(event, TurnToAct):
            conn.send(sik.trick(event.trick_number, [c for _, c in event.trick]))
            conn.asked_at = asyncio.get_running_loop().time()
            conn.asked = (event.deal, event.trick_number, len(event.trick))
        elif isinstance(event, TrickTaken):
            conn.send(sik.taken(event.number, [c for _, c in event.plays], event.winner))
        elif isinstance(event, DealEnded):  # the wire counts bad points positive
            conn.send(sik.points("SCORE", [-p for p in event.scores]))
            conn.send(sik.points("TOTAL", [-p for p in event.totals]))
        elif isinstance(event, MatchEnded):
            self.done.set()

    # -- bots and timeouts ---------------------------------------------------------------------------
    async def _bots(self) -> None:
        from ..table.drive import drive_bots

        def act(seat: int, action: int) -> None:
            self._act(seat, action)  # refused only if the table paused meanwhile: asked again
            self._after_act()

        def fail(seat: int, message: str) -> None:
            self.failure = message
            self.done.set()

        await drive_bots(self.table, self.changed, self.pool, act, fail)

    async def _watchdog(self) -> None:
        """Repeat ``TRICK`` to a seat on turn that has been silent for the timeout."""
        loop = asyncio.get_running_loop()
        step = max(0.02, min(0.25, self.timeout / 4))
        while True:
            await asyncio.sleep(step)
            seat = self.table.match.to_move()
            listener = self.table.listeners.get(seat)
            for conn in list(self.connections):
                if conn.seat == seat and conn.listener is listener and conn.asked_at is not None:
                    if loop.time() - conn.asked_at >= self.timeout and not self.table.paused:
                        self.table.ask_again(seat)
