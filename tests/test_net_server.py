"""The SIK table server against scripted raw-socket clients: a whole match, mixed with bots,
and every hostile case of issue 11 (loopback only; every server and socket is closed)."""
from __future__ import annotations

import socket
import time

import pytest

from kierki_dsl.net.deals import parse_deals
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.net import sik
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import Ruleset
from net_support import RawSeat, ServerThread, closed_all, drive, match_file

from conftest import RULESETS

RS = Ruleset.load(str(RULESETS / "games" / "sik.yaml"))
DEALS = parse_deals(match_file(11).encode(), RS)


@pytest.fixture
def opened():
    """Collects servers and sockets; closes them whatever happens."""
    things: list = []
    yield things
    for t in reversed(things):
        t.close()


def _server(opened, **kw) -> ServerThread:
    kw.setdefault("deals", DEALS)
    srv = ServerThread(RS, **kw)
    opened.append(srv)
    srv.start()
    return srv


def _seat(opened, port, seat, **kw) -> RawSeat:
    s = RawSeat(port, seat, **kw)
    opened.append(s)
    return s


def _totals(seat: RawSeat) -> list:
    return [sik.parse_server(x).points for x in seat.lines if x.startswith("TOTAL")]


class Lowest:
    """The raw clients' policy as a kierki-dsl player (for the uninterrupted reference)."""

    name = "lowest"

    def reset(self, seed, seat, rules=None):
        pass

    def act(self, view):
        return min(view.legal)


def _reference(deals=DEALS) -> list:
    results = list(MatchRunner(RS, [Lowest() for _ in range(4)], 1, deals=deals).deals())
    return [tuple(-t for t in r.totals) for r in results]


def test_a_whole_match_of_four_raw_clients(opened):
    srv = _server(opened)
    seats = [_seat(opened, srv.port, s) for s in range(4)]
    drive(seats, closed_all(seats))
    srv.wait(5)
    for s in seats:
        assert _totals(s) == _reference(), "a TOTAL after every deal, the same as kierki run --deals"
    assert "Traceback" not in srv.out.getvalue()
    assert srv.out.getvalue().count("] IAM") == 4
    lines = seats[0].lines
    early = [lines[i - 1] for i, x in enumerate(lines) if x.startswith("SCORE") and not lines[i - 1].startswith("TAKEN13")]
    assert early and all(x.startswith("TAKEN") for x in early), "some deals end once their points are all taken"


def test_bots_and_raw_clients_mixed(opened):
    bots = {1: make_player("heuristic"), 3: make_player("random")}
    srv = _server(opened, bots=bots, seed=4)
    seats = [_seat(opened, srv.port, s) for s in (0, 2)]
    drive(seats, closed_all(seats))
    srv.wait(5)
    got = _totals(seats[0])
    assert len(got) == 7 and got == _totals(seats[1])
    assert sum(got[-1]) == 200


def _on_turn_first(opened, **kw):
    """A server and four seats, driven until the first TRICK request; (server, seats, asked)."""
    srv = _server(opened, **kw)
    seats = [_seat(opened, srv.port, s) for s in range(4)]
    asked = []

    def hold(seat, line):
        if line.startswith("TRICK") and not asked:
            asked.append(seat)
            return True
        return bool(asked) and line.startswith("TRICK")

    for s in seats:
        s.on_line = hold
    drive(seats, lambda: bool(asked), 10)
    return srv, seats, asked[0]


def _wait_lines(seat: RawSeat, pred, seconds: float = 5.0) -> list:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seat.pump()
        hits = [x for x in seat.lines if pred(x)]
        if hits:
            return hits
        time.sleep(0.01)
    raise AssertionError(f"no such line; got {seat.lines[-5:]}")


def _actions(srv) -> int:
    return len(srv.table.match.state.actions)


def test_illegal_plays_get_wrong_and_change_nothing(opened):
    srv, seats, on_turn = _on_turn_first(opened, timeout=30)
    n = 1
    before = _actions(srv)
    other = seats[(on_turn.seat + 1) % 4]
    not_held = min(other.hand)
    bad = [
        (on_turn, sik.trick(n, [not_held])),  # a card it does not hold
        (on_turn, sik.trick(2, [min(on_turn.hand)])),  # the wrong trick number
        (other, sik.trick(n, [min(other.hand)])),  # out of turn
        (on_turn, "TRICK1"),  # no card
        (on_turn, "HELLO"),  # unknown
        (on_turn, "IAMN"),  # IAM again
    ]
    for seat, message in bad:
        seat.lines.clear()
        seat.send(message)
        assert _wait_lines(seat, lambda x: x.startswith("WRONG")) == ["WRONG1"]
        assert _actions(srv) == before, message
    # a revoke: lead, then the next seat discards while holding the suit led
    on_turn.send(sik.trick(1, [min(on_turn.hand)]))
    led = min(on_turn.hand) // 13
    nxt = seats[(on_turn.seat + 1) % 4]
    _wait_lines(nxt, lambda x: x.startswith("TRICK1"))
    off = [c for c in nxt.hand if c // 13 != led]
    assert any(c // 13 == led for c in nxt.hand) and off, "this match file lets the next seat revoke"
    nxt.lines.clear()
    nxt.send(sik.trick(1, [off[0]]))
    assert _wait_lines(nxt, lambda x: x.startswith("WRONG")) == ["WRONG1"]
    assert _actions(srv) == before + 1
    assert "Traceback" not in srv.out.getvalue()


def test_malformed_split_oversized_and_non_ascii_messages(opened):
    srv, seats, on_turn = _on_turn_first(opened, timeout=30)
    card = min(on_turn.hand)
    for junk in (b"\xff\xfe\r\n", b"X" * 5000 + b"\r\n", b"TRICK1\x00\x01\r\n", b"trick1" + b"2C\r\n"):
        on_turn.lines.clear()
        on_turn.send(junk)
        assert _wait_lines(on_turn, lambda x: x.startswith("WRONG")) == ["WRONG1"]
    before = _actions(srv)
    wire = sik.trick(1, [card]).encode() + b"\r\n"
    on_turn.send(wire[:3])  # a play split across reads...
    time.sleep(0.05)
    on_turn.send(wire[3:] + b"\x00" + b"NONSENSE\r\n")  # ...with a stray NUL and another message in the same read
    deadline = time.monotonic() + 5
    while _actions(srv) == before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _actions(srv) == before + 1, "the split play was taken"
    _wait_lines(on_turn, lambda x: x.startswith("WRONG"))  # the NONSENSE
    report = srv.out.getvalue()
    assert "Traceback" not in report and "\\xff\\xfe" in report


def test_a_play_ended_by_a_bare_lf_is_taken(opened):
    """Tolerated, as docs/network.md says: a client that ends its lines with LF alone."""
    srv, seats, on_turn = _on_turn_first(opened, timeout=30)
    before = _actions(srv)
    on_turn.send(sik.trick(1, [min(on_turn.hand)]).encode() + b"\n")
    deadline = time.monotonic() + 5
    while _actions(srv) == before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _actions(srv) == before + 1


def test_busy_for_a_taken_seat_and_a_fifth_client(opened):
    srv = _server(opened, bots={1: make_player("heuristic")}, timeout=30)
    _seat(opened, srv.port, 0)
    _wait_for(lambda: 0 in srv.table.listeners)
    for seat in (0, 1):
        again = _seat(opened, srv.port, seat)
        drive([again], closed_all([again]), 5)
        assert again.lines == ["BUSYNE"]
    for s in (2, 3):
        _seat(opened, srv.port, s)
    _wait_for(lambda: srv.table.live)
    fifth = _seat(opened, srv.port, 2)
    drive([fifth], closed_all([fifth]), 5)
    assert fifth.lines == ["BUSYNESW"], "a match already running"


def _wait_for(cond, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.01)


def test_no_iam_in_time_closes_and_a_silent_player_is_asked_again(opened):
    srv, seats, on_turn = _on_turn_first(opened, timeout=0.3)
    mute = _seat(opened, srv.port, None)
    rude = _seat(opened, srv.port, None)
    rude.send("HELLO")
    drive([mute, rude], closed_all([mute, rude]), 5)
    assert mute.closed and mute.lines == [] and rude.lines == [], "closed without a word"
    on_turn.lines.clear()
    repeated = _wait_lines(on_turn, lambda x: x.startswith("TRICK1"), 5)
    assert repeated[0] == "TRICK1", "the request repeated after the timeout"


def test_reconnect_mid_deal_gets_deal_and_taken_and_the_scores_are_unchanged(opened):
    srv = _server(opened, timeout=30)
    seats = [_seat(opened, srv.port, s) for s in range(4)]
    def deal_two_under_way():
        lines = seats[2].lines
        deals = [i for i, x in enumerate(lines) if x.startswith("DEAL")]
        return len(deals) >= 2 and sum(x.startswith("TAKEN") for x in lines[deals[1]:]) >= 3

    drive(seats, deal_two_under_way)
    seats[2].close()
    _wait_for(lambda: srv.table.paused)
    actions = _actions(srv)
    time.sleep(0.2)
    assert _actions(srv) == actions, "the table pauses while a seat is empty"
    back = _seat(opened, srv.port, 2)
    seats[2] = back
    drive(seats, closed_all(seats))
    srv.wait(5)
    first = back.lines.index(next(x for x in back.lines if x.startswith("DEAL")))
    assert back.lines[first].startswith("DEAL2")
    taken = [x for x in back.lines[first + 1 :] if not x.startswith("TRICK")]
    assert taken[0].startswith("TAKEN1")
    assert _totals(seats[0]) == _reference()
    assert _totals(back)[-1] == _reference()[-1]


def test_a_play_asked_for_before_a_seat_left_is_taken_not_wrong(opened):
    """WRONG means an invalid, illegal or unasked message (the protocol page): the seat on turn,
    asked before another seat left, whose legal answer arrives during the pause, gets no WRONG;
    the play counts, nobody is asked while the seat is empty, and the match ends as it would have."""
    srv, seats, on_turn = _on_turn_first(opened, timeout=30)
    away = next(s for s in seats if s is not on_turn)
    away.close()
    _wait_for(lambda: srv.table.paused)
    actions = _actions(srv)
    trick = next(sik.parse_server(x) for x in on_turn.lines if x.startswith("TRICK"))
    on_turn.send(sik.trick(trick.number, [on_turn.policy(on_turn.hand, list(trick.cards))]))
    _wait_for(lambda: _actions(srv) == actions + 1)
    time.sleep(0.2)
    for s in seats:
        s.pump()
    assert not any(x.startswith("WRONG") for x in on_turn.lines), on_turn.lines
    assert sum(x.startswith("TRICK") for s in seats for x in s.lines) == 1, "nobody asked during the pause"
    back = _seat(opened, srv.port, away.seat)
    seats[seats.index(away)] = back
    for s in seats:
        s.on_line = None
    drive(seats, closed_all(seats))
    srv.wait(5)
    assert _totals(next(s for s in seats if s is not back)) == _reference()


def test_a_flood_of_connections_and_a_slow_client_do_not_stop_the_game(opened):
    srv = _server(opened, bots={1: make_player("heuristic"), 2: make_player("heuristic"), 3: make_player("heuristic")}, timeout=2)
    flood = []
    for _ in range(200):
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        flood.append(s)
        opened.append(s)
    slow = _seat(opened, srv.port, None)
    player = _seat(opened, srv.port, 0)
    start = time.monotonic()
    done = []

    def dribble():
        if time.monotonic() - start > len(done) * 0.1 and len(done) < 10:
            try:
                slow.send(b"I")
            except OSError:  # the server dropped the slow client (its timeout): allowed; the game goes on
                done.extend([1] * 10)
            else:
                done.append(1)
        return all(s.closed for s in [player])

    drive([player], dribble, 30)
    srv.wait(5)
    assert len(_totals(player)) == 7


def test_every_byte_a_seat_receives_shows_only_its_cards_or_played_ones(opened):
    plays: dict = {}
    srv = _server(opened, on_action=lambda k, seat, a: plays.setdefault(k, []).append(a))
    seats = [_seat(opened, srv.port, s) for s in range(4)]
    drive(seats, closed_all(seats))
    srv.wait(5)
    for s in seats:
        deal = -1
        for line in s.received.decode("ascii").split("\r\n"):
            msg = sik.parse_server(line)
            if isinstance(msg, sik.Deal):
                deal += 1
                assert set(msg.cards) == set(DEALS[deal].dealt[s.seat]), "DEAL holds the seat's own cards"
            elif isinstance(msg, (sik.TrickRequest, sik.Taken)):
                start = (msg.number - 1) * 4
                assert list(msg.cards) == plays[deal][start : start + len(msg.cards)], "only cards already played"
            else:
                assert line == "" or line.startswith(("SCORE", "TOTAL")), line


def test_a_report_nobody_reads_does_not_stop_the_table(opened, capsys):
    srv = _server(opened)
    srv.out.close()  # like `kierki serve ... | head -1`
    seats = [_seat(opened, srv.port, s) for s in range(4)]
    drive(seats, closed_all(seats))
    srv.wait(5)
    assert _totals(seats[0]) == _reference()
    assert "the protocol report cannot be written any more" in capsys.readouterr().err


def test_random_bytes_from_every_seat_change_nothing_and_the_match_goes_on(opened, capsys):
    import random

    srv, seats, on_turn = _on_turn_first(opened, timeout=1)  # requests lost in the junk come again
    before = _actions(srv)
    rng = random.Random(5)
    alphabet = b"TRICKAENDLWOGSBUYIM0123456789JQKHDC\r\n\x00\xff "
    for seat in seats:
        junk = bytes(rng.choice(alphabet) for _ in range(3000))
        seat.send(junk.replace(b"\n", b"") + b"\r\n" if seat is not on_turn else b"".join(
            b"TRICK" + bytes(rng.choice(alphabet[:-6]) for _ in range(rng.randrange(6))) + b"\r\n" for _ in range(300)))
    time.sleep(0.3)
    for seat in seats:
        seat.pump()
    assert _actions(srv) <= before + 1  # at most one legal play among the junk of the seat on turn
    for seat in seats:
        seat.on_line = None
        seat.lines.clear()
    on_turn.send(sik.trick(1, [min(on_turn.hand)]))  # answered WRONG if the junk already played
    drive(seats, closed_all(seats))
    srv.wait(5)
    assert len(_totals(seats[0])) == 7
    assert "Traceback" not in srv.out.getvalue() and "internal error" not in capsys.readouterr().err


@pytest.mark.parametrize("host", [None, "127.0.0.1"], ids=["dual-stack", "one-address"])
def test_every_accepted_connection_has_nagle_off(opened, host):
    """Nagle's algorithm would hold a second message ~40 ms for the ACK of the first."""
    from net_support import accepted_socket_nodelay

    srv = _server(opened, host=host)
    seat = _seat(opened, srv.port, 0)
    assert accepted_socket_nodelay(seat.sock) != 0


def test_a_seat_never_asked_during_a_pause_gets_wrong(opened):
    """The seat after the one on turn was never sent TRICK (the table paused first): its play is
    unasked, so WRONG, and nothing changes (docs/sik-protocol.md)."""
    srv, seats, on_turn = _on_turn_first(opened, timeout=30)
    nxt = next(s for s in seats if s.seat == (on_turn.seat + 1) % 4)
    away = next(s for s in seats if s.seat == (on_turn.seat + 2) % 4)
    away.close()
    _wait_for(lambda: srv.table.paused)
    trick = next(sik.parse_server(x) for x in on_turn.lines if x.startswith("TRICK"))
    mine = on_turn.policy(on_turn.hand, list(trick.cards))
    on_turn.send(sik.trick(trick.number, [mine]))  # asked before the pause: it counts
    _wait_for(lambda: srv.table.match.to_move() == nxt.seat)
    actions = _actions(srv)
    nxt.lines.clear()
    nxt.send(sik.trick(trick.number, [nxt.policy(nxt.hand, list(trick.cards) + [mine])]))
    assert _wait_lines(nxt, lambda x: x.startswith("WRONG")) == [f"WRONG{trick.number}"]
    assert _actions(srv) == actions and srv.table.match.to_move() == nxt.seat


def test_a_client_refused_again_and_again_is_dropped_and_the_report_stays_bounded(opened):
    from kierki_dsl.net.server import MAX_REFUSED

    srv = _server(opened)
    seat = _seat(opened, srv.port, 0)
    _wait_for(lambda: 0 in srv.table.listeners)
    try:
        seat.send(b"GARBAGE\r\n" * (MAX_REFUSED + 500))
    except OSError:
        pass  # already dropped
    _wait_for(lambda: 0 not in srv.table.listeners, 10)
    garbage = srv.out.getvalue().count("] GARBAGE")
    assert MAX_REFUSED - 1 <= garbage <= MAX_REFUSED, garbage
    back = _seat(opened, srv.port, 0)  # the seat is free again
    _wait_for(lambda: 0 in srv.table.listeners)
    assert back.pump() == [] and not back.closed
    back.send("GARBAGE")  # ... but its count goes on: the next refused message drops it again
    _wait_for(lambda: 0 not in srv.table.listeners)
    assert srv.out.getvalue().count("] GARBAGE") == garbage + 1


def test_a_client_that_stops_reading_is_dropped_past_64_kib(opened):
    """Every junk line gets WRONG; a client that never reads them is dropped once 64 KiB wait at
    the server (the refusal limit is lifted here, so only the buffer bound acts)."""
    from kierki_dsl.net.server import MAX_BUFFERED

    srv = _server(opened, bots={s: make_player("random") for s in (1, 2, 3)})
    srv.server.max_refused = 10**9
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    opened.append(sock)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the client's own system holds little
    sock.connect(("127.0.0.1", srv.port))
    sock.sendall(b"IAMN\r\n")
    _wait_for(lambda: srv.table.live)
    sent = 0
    while 0 in srv.table.listeners:  # each line is answered "WRONGn" (8 bytes), which the client never reads
        assert sent * 8 <= 2 * MAX_BUFFERED, f"still seated with {sent * 8} bytes of replies unread"
        try:
            sock.sendall(b"X\r\n" * 1024)
        except OSError:
            break
        sent += 1024
        _wait_for(lambda: srv.out.getvalue().count("] X\n") >= sent or 0 not in srv.table.listeners, 20)
