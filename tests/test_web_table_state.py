"""What the table's state tells a seat beyond its view (issue 22, items 1, 2 and 4): the end of each
deal (its last trick and who took it, each seat's points), the standings and winner at the end of
the match, and the card winning the trick in progress."""
from __future__ import annotations

import contextlib
import os
import random

import attrs

from web_support import Client, Seat, create_table, running_server, sit

from kierki_dsl import phases
from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.match import Match
from kierki_dsl.report import seat_name
from kierki_dsl.ruleset.model import Ruleset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "web")
STANDARD = os.path.join(ROOT, "rulesets", "kierki_standard.yaml")


def _whole_match(tmp_path) -> tuple:
    """Seat 0 played at random to the end of the three-deal match (bots elsewhere): its states, the record."""
    with running_server(str(tmp_path / "web.sqlite3"), rulesets=(DATA,)) as base:
        client = Client(base)
        table = create_table(client, ["human", "heuristic", "random", "random"], ruleset="web/three_deals.yaml")
        with contextlib.ExitStack() as stack:
            seat = Seat(sit(client, stack, table["id"], table["tokens"][0]), 0, 7)
            seat.start()
            seat.join(120)
            assert not seat.is_alive(), "the seat is stuck"
        headers = {"Authorization": f"Bearer {table['tokens'][0]}"}
        record = client.get(f"/api/matches/{table['id']}/record", headers=headers).json()
        client.close()
    return [m for m in seat.received if m["type"] == "state"], record


def test_each_deal_ends_with_its_last_trick_its_taker_and_points_then_the_standings(tmp_path):
    states, record = _whole_match(tmp_path)
    ends = {}
    for msg in states:
        if msg["deal_end"] is not None:
            ends.setdefault(msg["deal_end"]["deal"], msg["deal_end"])
    assert sorted(ends) == [1, 2, 3], "every deal's end is sent once it is over"
    for number, end in ends.items():
        deal = record["deals"][number - 1]
        assert end["scores"] == deal["scores"]
        assert end["totals"] == [sum(d["scores"][s] for d in record["deals"][:number]) for s in range(4)]
        cards = [c for c in deal["plays"] if c != "pass"]
        trick = end["last_trick"]
        if number < 3:  # trick deals: the 13th trick, as played, and who took it
            assert trick["number"] == 13, trick
            assert [c for _, c in trick["plays"]] == [parse_card(c) for c in cards[-4:]]
            assert 0 <= trick["winner"] < 4
        else:  # loteryjka has no tricks
            assert trick is None
    final = states[-1]
    assert final["over"] and final["view"] is None and final["deal_end"]["deal"] == 3, "the board is not empty at the end"
    standings = final["standings"]
    totals = [sum(d["scores"][s] for d in record["deals"]) for s in range(4)]
    assert [r["total"] for r in standings] == sorted(totals, reverse=True)
    assert {r["seat"] for r in standings if r["place"] == 1} == {s for s in range(4) if totals[s] == max(totals)}


def test_the_state_names_the_card_winning_the_trick_in_progress(tmp_path):
    states, _ = _whole_match(tmp_path)
    marked = 0
    for msg in states:
        trick = msg["view"]["trick"] if msg["view"] else []
        if trick:
            assert msg["winning"] in [c for _, c in trick], msg["view"]
            marked += 1
        else:
            assert msg.get("winning") is None
    assert marked > 10


def test_the_winning_card_is_the_one_whose_player_takes_the_trick():
    """Every trick of seeded random matches (no-trump and trump deals): the card the play phase marks as
    winning the whole trick is the taker's card, and a one-card trick is won by its card."""
    rs = Ruleset.load(STANDARD)
    unit = phases.UNITS["play"]
    checked = 0
    for seed in range(3):
        m, rng = Match(rs, seed), random.Random(seed)
        while not m.over:
            seat = m.to_move()
            view = m.view(seat)
            if view.trick and len(view.trick) == 1:
                assert unit.winning(view, rs) == view.trick[0][1]
            before = len(view.completed)
            m.apply(rng.choice(view.legal))
            after = m.view(seat) if not m.over else None
            if after is not None and after.deal_number == view.deal_number and len(after.completed) > before:
                _, plays, winner = after.completed[-1]
                whole = attrs.evolve(view, trick=tuple(plays))
                assert unit.winning(whole, rs) == dict(plays)[winner], (seat_name(winner, 4), plays)
                checked += 1
    assert checked > 100


SOLD = """kierki: 1
name: One deal of King's leilão
players: 4
match:
  first_dealer: 0
  schedule: [trunfo]
contracts:
  trunfo:
    en: Trumps, named by the dealer or by the buyer of that right
    first_lead: dealer
    auction: {min: 1, max: 13, passes: again, hold: true, seller: dealer}
    trump: {called_by: bidder, after: 13}
    score: [{per_trick: 25}]
"""


def test_the_status_tells_a_bidder_to_bid_and_the_seller_to_accept_or_refuse(tmp_path):
    """Play-test 5: every seat of an auction read "Your turn: bid or pass (a seller: accept, refuse
    or decline)", a bidder too; each is now told its own task."""
    with running_server(str(tmp_path / "web.sqlite3")) as base:
        client = Client(base)
        table = create_table(client, ["human", "human", "random", "random"],
                             upload={"name": "sold.yaml", "text": SOLD})
        with contextlib.ExitStack() as stack:
            seats = [Seat(sit(client, stack, table["id"], table["tokens"][s]), s, 3) for s in (0, 1)]
            for seat in seats:
                seat.start()
            for seat in seats:
                seat.join(120)
                assert not seat.is_alive(), "the seat is stuck"
        client.close()
    asked = {(s.seat, m["task"]) for s in seats for m in s.received
             if m["type"] == "state" and m["to_move"] == s.seat and m["view"] and m["view"]["phase"] == "auction"}
    assert asked == {(0, "accept, refuse or decline the best bid"), (1, "bid or pass")}, asked
