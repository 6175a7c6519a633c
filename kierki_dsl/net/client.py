"""``kierki join``: one seat at a SIK server, played by a kierki-dsl player or a person.

A plain blocking socket (one connection, one player): messages are read line by line with a
length cap, parsed with the trick the client expects, and unreadable ones are ignored (the
protocol page says so). The seat's view is rebuilt from the messages (``seatview``). A
``TRICK`` repeated while the player thinks (the server's timeout) is dropped before the answer
is sent, and one repeated after it (sent before the answer arrived) is not answered twice,
unless the server sends ``WRONG`` or repeats it three times.
"""

from __future__ import annotations

import socket
import sys
import time
from typing import Optional

import attrs

from ..cards import card_list, card_str
from ..interpreter.fairplay import seat_player
from ..players.base import PlayerQuit
from . import sik
from .commands import CommandError
from .seatview import SeatKnowledge
from .server import Reporter, address

EXIT_OK, EXIT_FAILED, EXIT_LEFT = 0, 1, 130
LOST = -1  # the connection ended before the match did


class LineSocket:
    """Lines from a blocking socket (CRLF or LF), capped at ``sik.MAX_LINE`` bytes."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = b""

    def next_line(self) -> Optional[bytes]:
        """The next line's bytes; None when the server closed the connection."""
        while b"\n" not in self.buf:
            if len(self.buf) > 4 * sik.MAX_LINE:
                self.buf = b""  # a line too long to be a message: dropped
            chunk = self.sock.recv(4096)
            if not chunk:
                return None
            self.buf += chunk.replace(b"\0", b"")
        line, _, self.buf = self.buf.partition(b"\n")
        return line[:-1] if line.endswith(b"\r") else line

    def drop_waiting(self, stale) -> list:
        """Read what has already arrived, and drop the complete lines ``stale(line)`` names
        (repeats of a request queued while the player was thinking); the lines dropped."""
        self.sock.setblocking(False)
        try:
            while True:
                chunk = self.sock.recv(4096)
                if not chunk:
                    break
                self.buf += chunk.replace(b"\0", b"")
        except (BlockingIOError, InterruptedError):
            pass
        finally:
            self.sock.setblocking(True)
        *lines, rest = self.buf.split(b"\n")
        kept: list = []
        dropped: list = []
        for line in lines:
            (dropped if stale(line.rstrip(b"\r")) else kept).append(line)
        self.buf = b"".join(x + b"\n" for x in kept) + rest
        return dropped


class Seat:
    """The client's side of one seat: reacts to each server message."""

    def __init__(self, seat: int, player, ruleset, reporter: Optional[Reporter], say, types: Optional[dict] = None):
        self.seat = seat
        self.player = player
        self.know = SeatKnowledge(ruleset, seat, types)
        self.reporter = reporter
        self.say = say
        self.answered: Optional[tuple] = None  # (trick, cards on the table) last answered
        self.repeats = 0
        self.current: Optional[tuple] = None  # the request being answered
        self.refused: set = set()  # cards the server called WRONG in this request
        self.totals: Optional[tuple] = None
        self.scored = False
        self.rejoining = False
        self.told = 0  # the last deal the player was told is over

    def send(self, message: str) -> None:
        self.sock.sendall(message.encode("ascii") + b"\r\n")
        if self.reporter:
            self.reporter.line(self.me, self.server, message)

    def run(self, sock) -> int:
        """Play over one connection: ``EXIT_OK`` at the end of the match, ``EXIT_FAILED``,
        or ``LOST`` when the connection ended mid-match."""
        self.sock = sock
        self.lines = LineSocket(sock)
        self.me = address(sock.getsockname())
        self.server = address(sock.getpeername())
        self.answered, self.current = None, None
        self.send(sik.iam(self.seat))
        while True:
            raw = self.lines.next_line()
            if raw is None:
                return self._closed()
            text = raw.decode("ascii", "replace")
            if self.reporter:
                self.reporter.line(self.server, self.me, repr(raw)[2:-1])
            msg = sik.parse_server(text, self.know.trick_number)
            if isinstance(msg, sik.Busy):
                if self.rejoining:  # the server has not yet noticed that we left
                    return LOST
                self.say(
                    f"kierki join: seat {sik.SEATS[self.seat]} is taken (busy: {' '.join(sik.SEATS[s] for s in msg.seats)})"
                )
                return EXIT_FAILED
            if msg is not None:
                self._handle(msg)

    def _handle(self, msg) -> None:
        k = self.know
        if isinstance(msg, sik.Deal):
            self.rejoining = False
            problem = k.deal(msg)
            if problem:
                self.say(f"kierki join: {problem}; the deal is not played")
            self.answered, self.refused = None, set()
        elif isinstance(msg, sik.TrickRequest):
            self._request(msg)
        elif isinstance(msg, sik.Wrong):
            if self.answered is not None:
                self.refused.add(self.last_card)
            self.answered = None
        elif isinstance(msg, sik.Taken):
            k.taken(msg)
            self.answered, self.refused = None, set()
        elif isinstance(msg, sik.Points):
            self._points(msg)

    def _points(self, msg) -> None:
        """``SCORE`` or ``TOTAL``: the deal is over (a server may send only one of them).

        The wire counts bad points positive; kierki-dsl's rulesets (``sik.yaml``) write them
        negative, so they are shown, and told to the player, negated: the same numbers as the
        player's own "points this deal" and as ``kierki run``."""
        k = self.know
        k.finish()
        self.scored = True
        values = tuple(-p for p in msg.points)
        if msg.kind == "SCORE":
            base = self.totals if self.totals is not None else (0,) * 4
            self.totals = tuple(t + p for t, p in zip(base, values))  # until a TOTAL says otherwise
            self._tell_player(self.totals)  # first: the deal's last trick
            self.say("deal scores: " + _points(values))
        else:
            self.totals = values
            self._tell_player(values)
            self.say("totals: " + _points(values))

    def _tell_player(self, totals: tuple) -> None:
        """The player hears once a deal that it is over (with its last trick) and the match totals."""
        player, k = self.player, self.know
        if not hasattr(player, "deal_over"):
            return
        if self.told == k.deal_number:  # TOTAL after SCORE: only the totals change
            player.totals = totals
            return
        self.told = k.deal_number
        last = k.completed[-1][1] if k.completed else ()
        player.deal_over(k.deal_number, totals, tuple(card_str(c) for _, c in last))

    def _request(self, msg) -> None:
        k = self.know
        if k.contract is None:
            return
        key = (msg.number, msg.cards)
        if key == self.answered and self.repeats < 2:
            self.repeats += 1
            return
        if key != self.current:
            self.refused, self.current = set(), key
        view = k.view(list(msg.cards))
        legal = [a for a in view.legal if a not in self.refused]
        if not legal:  # the server refuses what our rules allow: offer the rest of the hand
            legal = [c for c in card_list(view.hand) if c not in self.refused] or card_list(view.hand)
        if legal != list(view.legal):
            view = attrs.evolve(view, legal=tuple(legal))
        card = self.player.act(view)
        request = sik.trick(msg.number, msg.cards).encode("ascii")
        for line in self.lines.drop_waiting(lambda line: line == request):
            if self.reporter:
                self.reporter.line(self.server, self.me, line.decode("ascii"))
        self.last_card = card
        self.answered, self.repeats = key, 0
        self.send(sik.trick(msg.number, [card]))

    def _closed(self) -> int:
        return EXIT_OK if self.scored and not self.know.open else LOST


def _points(values) -> str:
    """``N -5 E 0 S -13 W -8``: points as the ruleset counts them (bad points negative)."""
    return " ".join(f"{sik.SEATS[s]} {p}" for s, p in enumerate(values))


def connect(host: str, port: int, family: int, timeout: float) -> socket.socket:
    """A connected socket (``family`` 4, 6 or 0 for either), tried address by address."""
    fam = {4: socket.AF_INET, 6: socket.AF_INET6}.get(family, socket.AF_UNSPEC)
    try:
        infos = socket.getaddrinfo(host, port, fam, socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise CommandError(f"kierki join: error: cannot resolve {host!r}: {e.strerror}") from None
    last = None
    for af, kind, proto, _, addr in infos:
        s = socket.socket(af, kind, proto)
        s.settimeout(timeout)
        try:
            s.connect(addr)
            return s
        except OSError as e:
            last = e
            s.close()
    reason = last.strerror if last is not None and last.strerror else str(last)
    raise CommandError(f"kierki join: error: cannot connect to {host} port {port}: {reason}")


def join(
    host: str,
    port: int,
    seat: int,
    player,
    ruleset,
    seed: int,
    family: int = 0,
    timeout: float = 30.0,
    report: bool = True,
    out=None,
    retry: float = 0.0,
    types: Optional[dict] = None,
) -> int:
    """Play one seat of a SIK match; the exit code (0 once the match is over).

    ``timeout`` bounds each connection attempt; once connected the client waits for the
    server as long as it takes (other seats may take their time). With ``retry`` a connection
    lost mid-match is re-established for up to that many seconds, and the seat claimed again."""
    out = out if out is not None else sys.stdout
    seat_player(player, seed, seat, ruleset)
    if hasattr(player, "set_match_length"):
        player.set_match_length(None)  # the server alone knows how many deals it plays
    reporter = Reporter(out) if report else None

    def say(text: str) -> None:
        (sys.stderr if report else out).write(text + "\n")

    table = Seat(seat, player, ruleset, reporter, say, types)
    sock = connect(host, port, family, timeout)
    while True:
        try:
            sock.settimeout(None)
            code = table.run(sock)
        except OSError:
            code = LOST
        except PlayerQuit:
            say("kierki join: you left the table (the server keeps your seat empty until someone claims it)")
            return EXIT_LEFT
        finally:
            sock.close()
        if code != LOST:
            return code
        again = _reconnect(host, port, family, timeout, retry) if retry > 0 else None
        if again is None:
            say("kierki join: the connection was lost before the match was over")
            return EXIT_FAILED
        sock = again
        table.rejoining = True


def _reconnect(host: str, port: int, family: int, timeout: float, retry: float):
    """A new connection within ``retry`` seconds, or None."""

    deadline = time.monotonic() + retry
    while time.monotonic() < deadline:
        try:
            return connect(host, port, family, min(timeout, max(0.1, deadline - time.monotonic())))
        except CommandError:
            time.sleep(0.2)
    return None


__all__ = ["join", "connect", "Seat"]
