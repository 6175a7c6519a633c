"""The table core: the same match as MatchRunner, events that are plain data built for one
seat, reconnection with catch-up, refused actions; and the steppable match behind both."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kierki_dsl.cards import card_list
from kierki_dsl.interpreter.match import Match, MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.table import ACCEPTED, DealStarted, Played, Refused, Table, TrickTaken, TurnToAct

from conftest import RULESETS, STANDARD

SIK = Ruleset.load(str(RULESETS / "games" / "sik.yaml"))
BARBU = Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))
HEARTS = Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))


def _bots(names):
    return {s: make_player(n) for s, n in enumerate(names)}


def _runner_totals(rs, names, seed):
    return list(MatchRunner(rs, [make_player(n) for n in names], seed).deals())[-1].totals


def test_a_table_of_bots_plays_the_same_match_as_kierki_run():
    for rs, names in ((SIK, ["heuristic"] * 4), (STANDARD, ["random", "heuristic", "random", "heuristic"]),
                      (BARBU, ["random"] * 4)):
        rs = rs if isinstance(rs, Ruleset) else Ruleset.load(str(rs))
        t = Table(Match(rs, 3), _bots(names))
        t.run_bots()
        assert t.over and tuple(t.match.totals) == _runner_totals(rs, names, 3)


class Seat:
    """A remote seat in-process: keeps its events (and, to check them, what the seat's own
    view held when each came)."""

    def __init__(self, table, seat):
        self.table, self.seat, self.events, self.held, self.public = table, seat, [], [], []

    def __call__(self, event):
        self.events.append(event)
        m = self.table.match
        view = None if m.over else m.view(self.seat)
        self.held.append(0 if view is None else view.hand)
        self.public.append(0 if view is None else view.played | sum(1 << c for _, c in view.trick))


def _play_out(table, seats, stop=None):
    """Act for remote seats (first legal) and bots until the match ends or ``stop()``."""
    while not table.over and not (stop and stop()):
        table.run_bots()
        if table.over or table.paused:
            return
        s = table.match.to_move()
        asks = [e for e in seats[s].events if isinstance(e, TurnToAct)]
        assert asks and table.act(s, asks[-1].legal[0]) == ACCEPTED


def test_events_are_plain_data_and_show_no_card_of_another_hand_before_it_is_played():
    for rs in (SIK, HEARTS):
        check_events_of_a_match(rs, 7)


def check_events_of_a_match(rs, seed, bot_seat=1):
    """Play a match with one bot and the other seats remote; walk every event each remote seat
    got: plain data, and no card of another hand before it is played (a pass is secret)."""
    table = Table(Match(rs, seed), {bot_seat: make_player("heuristic")})
    seats = {s: Seat(table, s) for s in range(rs.players) if s != bot_seat}
    for s, seat in seats.items():
        table.sit(s, seat)
    _play_out(table, seats)
    assert table.over
    for s, seat in seats.items():
        hand, played = set(), set()
        for e, held, public in zip(seat.events, seat.held, seat.public):
            json.dumps(e.to_json())  # plain data: no states, no bound methods
            if isinstance(e, DealStarted):
                hand, played = set(e.hand), set()
                assert set(e.hand) == set(card_list(held)), "its own cards"
                continue
            own = hand | set(card_list(held))  # dealt to it, or passed to it
            shown = set()
            if isinstance(e, Played) and e.action < 52:
                shown = {e.action}
                later = {p for t in seat.events if isinstance(t, TrickTaken) and t.deal == e.deal for p in t.plays}
                assert e.seat == s or (e.seat, e.action) in later, "another seat's pass is secret"
                played.add(e.action)
            if isinstance(e, TurnToAct):
                shown = {c for _, c in e.trick} | {a for a in e.legal if a < 52} | set(e.hand)
                assert set(e.hand) == set(card_list(held))
            elif isinstance(e, TrickTaken):
                shown = {c for _, c in e.plays}
            assert shown <= own | played, f"seat {s} saw {shown - own - played} before it was played"


def test_a_seat_that_leaves_and_comes_back_gets_its_deal_and_every_trick_then_play_resumes():
    names = ["heuristic"] * 4
    table = Table(Match(SIK, 5), {1: make_player("heuristic"), 3: make_player("heuristic")})
    seats = {0: Seat(table, 0), 2: Seat(table, 2)}
    for s, seat in seats.items():
        table.sit(s, seat)
    _play_out(table, seats, stop=lambda: table.match.deal_index == 1 and len(table.view(0).completed) == 3)
    table.leave(2)
    assert table.paused and table.act(1, 0) == Refused("the table is waiting for a player")  # a bot waits
    assert table.bot_turn() is None
    back = seats[2] = Seat(table, 2)
    table.sit(2, back)
    first = back.events[0]
    assert isinstance(first, DealStarted) and first.deal == 2
    assert len(first.hand) == 13, "the seat's cards as dealt"
    assert sum(isinstance(e, TrickTaken) for e in back.events) == 3
    _play_out(table, seats)
    reference = Table(Match(SIK, 5), {1: make_player("heuristic"), 3: make_player("heuristic")})
    ref_seats = {0: Seat(reference, 0), 2: Seat(reference, 2)}
    for s, seat in ref_seats.items():
        reference.sit(s, seat)
    _play_out(reference, ref_seats)
    assert table.match.totals == reference.match.totals


def test_refused_actions_change_nothing():
    table = Table(Match(SIK, 2), {})
    seats = {s: Seat(table, s) for s in range(4)}
    for s, seat in seats.items():
        assert table.sit(s, seat)
    assert not table.sit(0, Seat(table, 0)), "a taken seat"
    s = table.match.to_move()
    view = table.view(s)
    not_mine = card_list(((1 << 52) - 1) & ~view.hand)[0]
    before = len(table.match.state.actions)
    assert table.act(s, not_mine).reason.endswith("is not in your hand")
    assert table.act((s + 1) % 4, card_list(table.view((s + 1) % 4).hand)[0]) == Refused("it is not your turn")
    assert len(table.match.state.actions) == before


def _actions_of_match(rs, names, seed, script=(), stop_after=None):
    """The actions a match saves, resumed from ``script``, stopping after ``stop_after`` new ones."""
    saved = list(script)

    class Stop(Exception):
        pass

    def on_action(k, seat, action):
        saved.append(action)
        if stop_after is not None and len(saved) - len(script) >= stop_after:
            raise Stop

    runner = MatchRunner(rs, [make_player(n) for n in names], seed, script=list(script), on_action=on_action)
    results = []
    try:
        results = [r.totals for r in runner.deals()]
    except Stop:
        return saved, None
    return saved, results


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 50), cuts=st.lists(st.integers(1, 120), max_size=4))
def test_any_number_of_resumes_gives_the_same_match(seed, cuts):
    names = ["random", "heuristic", "random", "heuristic"]
    whole, totals = _actions_of_match(SIK, names, seed)
    saved: list = []
    for cut in cuts:
        saved, _ = _actions_of_match(SIK, names, seed, saved, stop_after=cut)
        assert saved == whole[: len(saved)], "a resume saves each action once, in order"
        if len(saved) == len(whole):
            break
    saved, resumed = _actions_of_match(SIK, names, seed, saved)
    assert saved == whole
    assert resumed[-1] == totals[-1]
