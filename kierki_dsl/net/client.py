"""``kierki join``: one seat at a SIK server, played by a kierki-dsl player or a person.

A plain blocking socket (one connection, one player): messages are read line by line with a
length cap, parsed with the trick the client expects, and unreadable ones are ignored (the
protocol page says so). The seat's view is rebuilt from the messages (``seatview``). A
``TRICK`` identical to one already answered is a repeat sent before the answer arrived and
is not answered twice, unless the server sends ``WRONG`` or repeats it three times.
"""
from __future__ import annotations

import socket
import sys
from typing import Optional

from . import sik
from .commands import CommandError
from .seatview import SeatKnowledge
from .server import Reporter, address

EXIT_OK, EXIT_FAILED, EXIT_LEFT = 0, 1, 130


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

    def pending(self) -> bool:
        return b"\n" in self.buf


class Seat:
    """The client's side of one seat: reacts to each server message."""

    def __init__(self, sock, seat: int, player, ruleset, reporter: Optional[Reporter], say):
        self.sock = sock
        self.lines = LineSocket(sock)
        self.seat = seat
        self.player = player
        self.know = SeatKnowledge(ruleset, seat)
        self.reporter = reporter
        self.say = say
        self.me = address(sock.getsockname())
        self.server = address(sock.getpeername())
        self.answered = None  # (trick, cards on the table) last answered
        self.repeats = 0
        self.current = None  # the request being answered
        self.refused: set = set()  # cards the server called WRONG in this request
        self.totals: Optional[tuple] = None
        self.scored = False

    def send(self, message: str) -> None:
        self.sock.sendall(message.encode("ascii") + b"\r\n")
        if self.reporter:
            self.reporter.line(self.me, self.server, message)

    def run(self) -> int:
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
                self.say(f"kierki join: seat {sik.SEATS[self.seat]} is taken (busy: {' '.join(sik.SEATS[s] for s in msg.seats)})")
                return EXIT_FAILED
            if msg is not None:
                self._handle(msg)

    def _handle(self, msg) -> None:
        k = self.know
        if isinstance(msg, sik.Deal):
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
            if msg.kind == "SCORE":
                k.finish()
                self.scored = True
                self.say("deal scores: " + _points(msg.points))
            else:
                self.totals = msg.points
                self.say("totals: " + _points(msg.points))

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
            from ..cards import card_list

            legal = [c for c in card_list(view.hand) if c not in self.refused] or card_list(view.hand)
        if legal != list(view.legal):
            import attrs

            view = attrs.evolve(view, legal=tuple(legal))
        card = self.player.act(view)
        self.last_card = card
        self.answered, self.repeats = key, 0
        self.send(sik.trick(msg.number, [card]))

    def _closed(self) -> int:
        if self.scored and not self.know.open:
            return EXIT_OK
        self.say("kierki join: the server closed the connection before the match was over")
        return EXIT_FAILED


def _points(values) -> str:
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


def join(host: str, port: int, seat: int, player, ruleset, seed: int, family: int = 0, timeout: float = 30.0,
         report: bool = True, out=None) -> int:
    """Play one seat of a SIK match; the exit code (0 once the match is over)."""
    out = out if out is not None else sys.stdout
    player.reset(seed * 16 + seat + 1 if seed >= 0 else seat + 1, seat, ruleset)
    sock = connect(host, port, family, timeout)
    human = getattr(player, "name", "") == "human"
    if human:
        sock.settimeout(None)  # a person takes the time they need; the server asks again meanwhile
    reporter = Reporter(out) if report else None

    def say(text: str) -> None:
        (sys.stderr if report else out).write(text + "\n")

    try:
        return Seat(sock, seat, player, ruleset, reporter, say).run()
    except socket.timeout:
        say(f"kierki join: the server sent nothing for {timeout:g} s")
        return EXIT_FAILED
    except OSError as e:
        say(f"kierki join: connection lost: {e.strerror or e}")
        return EXIT_FAILED
    except Exception as e:
        if type(e).__name__ != "HumanQuit":
            raise
        say("kierki join: you left the table (the server keeps your seat empty until someone claims it)")
        return EXIT_LEFT
    finally:
        sock.close()


__all__ = ["join", "connect", "Seat"]
