"""Search bids from what the view shows (issue 16): an auction whose first bidder depends on
hidden cards is continued as it happened, never replayed on a sampled deal."""
from __future__ import annotations

import random

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.actions import PASS, bid
from kierki_dsl.interpreter.match import deal_out
from kierki_dsl.players.base import make_player
from kierki_dsl.players.search import sample_hands
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS

N, E, S, W = 0, 1, 2, 3


def _hidden_first(tmp_path) -> Ruleset:
    path = tmp_path / "hidden_first.yaml"
    path.write_text(f"kierki: 1\nextends: {RULESETS / 'variants' / 'auction_for_trumps.yaml'}\n"
                    "name: the holder of the queen of spades bids first\n"
                    "contracts:\n  atu:\n    auction: {first: holder(QS), if_all_pass: holder(2C)}\n", "utf-8")
    return Ruleset.load(str(path))


def test_search_continues_the_auction_the_view_shows(tmp_path):
    rs = _hidden_first(tmp_path)
    atu = rs.contracts["atu"]
    st = atu.new_deal(4, rs.deck, W, deal_out(list(range(52)), W, 4))
    first = st.current_player()
    assert st.hands[first] >> parse_card("QS") & 1 and first != W + 1, "QS, not the seating, decides"
    st.apply_action(bid(60))
    st.apply_action(PASS)
    view = st.view(st.current_player())
    rng = random.Random(3)
    for _ in range(30):  # on sampled hands QS is mostly elsewhere: the first bidder must not move
        again = atu.from_view(view, sample_hands(view, rng))
        assert again.phase == "auction" and again.current_player() == view.seat
        assert again.view(view.seat).auction == view.auction and (again.bid, again.auction.bid) == (0, 60)
        assert again.legal_actions() == list(view.legal)
        again.apply_action(PASS)
        again.apply_action(PASS)  # the two seats still in besides the bidder pass: he wins at 60
        assert (again.phase, again.bidder, again.bid) == ("call", first, 60)
    choice = make_player("search:4")
    choice.reset(0, view.seat, rs)
    assert choice.act(view) in view.legal
