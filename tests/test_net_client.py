"""``kierki join``'s client against scripted SIK servers written from the protocol page (not
from kierki-dsl's server), and its rebuilt view against the server's own view."""
from __future__ import annotations

import io
import socket
import threading

import attrs
import pytest

from kierki_dsl.net.deals import parse_deals
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.net import sik
from kierki_dsl.net.client import join
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import Ruleset
from net_support import ServerThread, match_file

from conftest import RULESETS, STANDARD

RS = Ruleset.load(str(RULESETS / "games" / "sik.yaml"))


class ClientThread:
    """``join`` in a thread (it is a blocking client); the exit code in ``code``."""

    def __init__(self, port: int, seat: int, player, seed: int = 0, host: str = "127.0.0.1", rules=None,
                 report: bool = True, out=None):
        self.out = out if out is not None else io.StringIO()
        self.code = None
        self.report = report
        self.thread = threading.Thread(target=self._main, args=(host, port, seat, player, seed, rules or RS), daemon=True)
        self.thread.start()

    def _main(self, host, port, seat, player, seed, rules):
        self.code = join(host, port, seat, player, rules, seed, 4, 10.0, self.report, self.out)

    def wait(self, seconds: float = 10.0) -> int:
        self.thread.join(seconds)
        assert not self.thread.is_alive(), "the client did not finish"
        return self.code


class Scripted:
    """A scripted server socket: accept one client, send and expect lines, with timeouts."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(10)
        self.port = self.listener.getsockname()[1]
        self.conn = None
        self.buf = b""

    def accept(self) -> str:
        self.conn, _ = self.listener.accept()
        self.conn.settimeout(5)
        return self.read()

    def send(self, *lines: str) -> None:
        self.conn.sendall(b"".join(x.encode("ascii") + b"\r\n" for x in lines))

    def read(self, timeout: float = 5.0):
        self.conn.settimeout(timeout)
        while b"\r\n" not in self.buf:
            try:
                chunk = self.conn.recv(4096)
            except socket.timeout:
                return None
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\r\n")
        return line.decode("ascii")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.listener.close()


@pytest.fixture
def scripted():
    s = Scripted()
    yield s
    s.close()


def _follow(hand, table):
    if table:
        same = [c for c in hand if c // 13 == table[0] // 13]
        if same:
            return same
    return sorted(hand)


def _winner(plays, leader):
    led = plays[0] // 13
    best = max((c for c in plays if c // 13 == led))
    return (leader + plays.index(best)) % 4


def _play_deal(server, kind, leader, hands, me, stop_when, quirks=True):
    """Referee one deal as the protocol page says; the client's seat is ``me``."""
    hands = [set(h) for h in hands]
    server.send(sik.deal(kind, leader, sorted(hands[me])))  # some servers sort the cards
    points = [0] * 4
    for n in range(1, 14):
        table = []
        for i in range(4):
            seat = (leader + i) % 4
            if seat == me:
                server.send(sik.trick(n, table))
                if quirks and n == 1:
                    server.send("HELLO", sik.trick(n, table))  # junk, then a repeat (a timeout)
                reply = sik.parse_play(server.read(), n)
                assert reply is not None and reply[0] == n
                card = reply[1]
                if quirks and n == 2:  # refuse the first answer: the client must try another card
                    server.send(sik.wrong(n), sik.trick(n, table))
                    again = sik.parse_play(server.read(), n)
                    assert again[1] != card
                    card = again[1]
                assert card in _follow(hands[me], table), "the client plays a legal card"
            else:
                card = min(_follow(hands[seat], table))
            hands[seat].discard(card)
            table.append(card)
        leader = _winner(table, leader)
        points[leader] += sum(1 for c in table if c // 13 == 1)
        server.send(sik.taken(n, table, leader))
        if stop_when(hands):
            break
    return n, points


def test_the_client_plays_a_scripted_server_that_ends_a_deal_early(scripted):
    deals = parse_deals(match_file(5, types=(2, 2)).encode(), RS)
    client = ClientThread(scripted.port, 0, make_player("heuristic"))
    assert scripted.accept() == "IAMN"
    totals = [0] * 4
    tricks = []
    for k, d in enumerate(deals):
        leader = (d.dealer + 1) % 4
        n, points = _play_deal(scripted, 2, leader, d.dealt, 0, lambda hands: not any(c // 13 == 1 for h in hands for c in h),
                               quirks=k == 0)
        tricks.append(n)
        totals = [t + p for t, p in zip(totals, points)]
        scripted.send("SCORE" + "".join(f"{sik.SEATS[s]}{points[s]}" for s in (3, 2, 1, 0)))  # another seat order
    scripted.send(sik.points("TOTAL", totals))  # TOTAL only after the last deal
    assert scripted.read(0.3) is None, "nothing unasked, no second answer to a repeated TRICK"
    scripted.close()
    assert client.wait() == 0
    assert any(n < 13 for n in tricks), "a deal ended early"
    report = client.out.getvalue()
    assert "] IAMN" in report and "] HELLO" in report and "] TOTAL" in report


def test_a_busy_seat_ends_the_client_with_exit_1(scripted, capsys):
    client = ClientThread(scripted.port, 2, make_player("random"))
    assert scripted.accept() == "IAMS"
    scripted.send("BUSYNS")
    scripted.close()
    assert client.wait() == 1
    assert "seat S is taken" in capsys.readouterr().err


class Recorder:
    """A heuristic player that keeps every view it is given."""

    name = "recorder"

    def __init__(self):
        self.inner = make_player("heuristic")
        self.views = []

    def reset(self, seed, seat, rules=None):
        self.inner.reset(seed, seat, rules)

    def act(self, view):
        self.views.append(view)
        return self.inner.act(view)


def _plain(view):
    return attrs.asdict(view, recurse=False)


@pytest.mark.parametrize("rules", ["sik", "standard"])
def test_the_view_rebuilt_from_messages_is_the_servers_view(rules):
    rs = RS if rules == "sik" else Ruleset.load(str(STANDARD))  # the standard bans heart leads
    deals = parse_deals(match_file(8).encode(), rs)
    local = Recorder()
    list(MatchRunner(rs, [local] + [make_player("heuristic") for _ in range(3)], 2, deals=deals).deals())
    remote = Recorder()
    srv = ServerThread(rs, deals, {s: make_player("heuristic") for s in (1, 2, 3)}, seed=2, timeout=10)
    try:
        port = srv.start()
        client = ClientThread(port, 0, remote, seed=2, rules=rs)
        assert client.wait(30) == 0
        srv.wait(5)
    finally:
        srv.close()
    assert len(remote.views) == len(local.views) > 40
    for got, want in zip(remote.views, local.views):
        assert _plain(got) == _plain(want)


def test_a_person_plays_through_the_terminal_interface_fed_by_the_server():
    from kierki_dsl.players.human import HumanPlayer

    deals = parse_deals(match_file(9, types=(1, 3)).encode(), RS)
    typed = io.StringIO("ZZ\n" + "1\n" * 40)  # one unreadable answer, then always the first legal card
    shown = io.StringIO()
    person = HumanPlayer(stdin=typed, stdout=shown, ruleset=RS)
    srv = ServerThread(RS, deals, {s: make_player("heuristic") for s in (1, 2, 3)}, seed=2, timeout=10)
    try:
        port = srv.start()
        client = ClientThread(port, 0, person, report=False, out=shown)  # as kierki join --player human
        assert client.wait(30) == 0
        srv.wait(5)
    finally:
        srv.close()
    screen = shown.getvalue()
    assert "Your hand (N):" in screen and "Legal: 1)" in screen and "Type a card such as" in screen
    # the client cannot know how many deals the server plays: no "of 7" (the schedule's length)
    assert "Deal 2: Bez dam" in screen and "Deal 1: Bez lew" in screen and " of 7" not in screen
    lines = screen.splitlines()
    # a prompt may precede it on its line (the typed answer is not echoed here)
    lines = [x[x.index("deal scores:"):] if "deal scores:" in x else x for x in lines]
    scores = [_seat_points(x, "deal scores:") for x in lines if x.startswith("deal scores:")]
    totals = [_seat_points(x, "totals:") for x in lines if x.startswith("totals:")]
    assert len(scores) == len(totals) == 2
    # bad points are negative everywhere, as in "Points this deal" and kierki run
    assert all(p <= 0 for d in scores for p in d) and sum(scores[0]) == RS.contracts["bez_lew"].total
    assert totals[0] == scores[0] and totals[1] == [a + b for a, b in zip(scores[0], scores[1])]
    # the match totals are kept after deal 1: deal 2's table shows deal 1's totals
    deal2 = lines[next(i for i, x in enumerate(lines) if x.startswith("Deal 2:")):]
    shown_totals = _seat_points(next(x for x in deal2 if x.startswith("Match totals:")), "Match totals:")
    assert shown_totals == totals[0] and any(shown_totals)
    # the last trick of deal 1 is shown with its taker, as kierki run --human does
    first_score = next(i for i, x in enumerate(lines) if x.startswith("deal scores:"))
    assert any(x.startswith("Last trick (") for x in lines[:first_score])


def _seat_points(line: str, prefix: str) -> list:
    """``N -5 E 0 S +3 W -8`` after ``prefix``: the points by seat."""
    words = line[len(prefix):].split()
    got = dict(zip(words[0::2], words[1::2]))
    return [int(got[s]) for s in "NESW"]


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback here")
def test_ipv6():
    deals = parse_deals(match_file(3, types=(5,)).encode(), RS)
    srv = ServerThread(RS, deals, {s: make_player("heuristic") for s in (1, 2)}, timeout=10, host="::1")
    try:
        port = srv.start()
        six = threading.Thread(target=lambda: codes.append(join("::1", port, 0, make_player("random"), RS, 0, 6, 10.0, False, io.StringIO())))
        named = threading.Thread(target=lambda: codes.append(join("::1", port, 3, make_player("random"), RS, 0, 0, 10.0, False, io.StringIO())))
        codes: list = []
        six.start()
        named.start()
        six.join(30)
        named.join(30)
        srv.wait(5)
    finally:
        srv.close()
    assert codes == [0, 0]
    assert "[::1]:" in srv.out.getvalue()


def test_a_server_without_a_match_file_plays_the_schedule():
    srv = ServerThread(RS, None, {s: make_player("random") for s in (1, 2, 3)}, seed=6, timeout=10)
    try:
        port = srv.start()
        client = ClientThread(port, 0, make_player("heuristic"), host="localhost")  # a host name, -4
        assert client.wait(30) == 0
        srv.wait(5)
    finally:
        srv.close()
    deals = [x.split("] ")[1] for x in srv.out.getvalue().splitlines() if "] DEAL" in x]
    assert [d[4] for d in deals] == list("1234567"), "the schedule's deal types, in order"


class Slow:
    """A player that thinks for a while (a person at the keyboard)."""

    name = "slow"

    def __init__(self, seconds: float):
        self.seconds, self.inner = seconds, make_player("random")

    def reset(self, seed, seat, rules=None):
        self.inner.reset(seed, seat, rules)

    def act(self, view):
        import time

        time.sleep(self.seconds)
        return self.inner.act(view)


def test_requests_repeated_while_the_player_thinks_get_one_answer(scripted):
    deals = parse_deals(match_file(6, types=(1,)).encode(), RS)
    client = ClientThread(scripted.port, 1, Slow(0.4))
    assert scripted.accept() == "IAME"
    hand = deals[0].dealt[1]
    scripted.send(sik.deal(1, 1, hand), sik.trick(1, []))
    for _ in range(3):  # the server's timeout fires while the player thinks
        import time

        time.sleep(0.05)
        scripted.send(sik.trick(1, []))
    answer = sik.parse_play(scripted.read(), 1)
    assert answer is not None and answer[1] in hand
    assert scripted.read(0.6) is None, "one answer to one request"
    scripted.close()
    assert client.wait() == 1, "the server left before the match was over"
