"""A widow (issue 16, for Tysiąc's musik): cards dealt aside that the auction's winner takes,
shows, and then gives away (one to each other player) or lays aside as many."""
from __future__ import annotations

import io

import pytest

from kierki_dsl.cards import bits, parse_card
from kierki_dsl.interpreter.actions import PASS, bid
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.interpreter.view import SeatView
from kierki_dsl.lint import lint_file
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from test_variants import C

RULES = """kierki: 1
name: a musik of three
description: "PL: musik z trzech kart. EN: a widow of three cards."
players: 3
deck: {ranks: [9, 10, J, Q, K, A]}
match: {schedule: [gra, gra, gra]}
contracts:
  gra:
    auction: {min: 100, max: 200, step: 10}
    widow: {cards: 3, then: give, each: 1}
    first_lead: bidder
    score:
      - {per_card: card.rank == A, points: 11}
      - {per_card: card.rank == T, points: 10}
      - {per_card: card.rank == K, points: 4}
      - per_seat: "if seat == bidder then -bid / 10 else 0"
"""
# dealt one at a time from seat 1 (the dealer is 0): each seat's 8th card is the widow's
DEALT = [C(*"AS KS QS JS TS 9S AH KH".split()),
         C(*"QH JH TH 9H AD KD QD 9C".split()),
         C(*"JD TD 9D AC KC QC JC TC".split())]
WIDOW = {parse_card(c) for c in ("KH", "9C", "TC")}


@pytest.fixture()
def rs(tmp_path):
    path = tmp_path / "musik.yaml"
    path.write_text(RULES, "utf-8")
    return Ruleset.load(str(path))


def _deal(rs):
    return rs.contracts["gra"].new_deal(3, rs.deck, 0, [list(h) for h in DEALT])


def test_the_winner_takes_the_widow_and_gives_one_card_to_each_other_player(rs):
    st = _deal(rs)
    assert [h.bit_count() for h in st.hands] == [7, 7, 7] and set(st.widow) == WIDOW
    assert st.view(0).aside == 3 and st.view(0).widow == (), "the widow lies face down"
    for action in (PASS, bid(110), PASS):  # seat 1 opens (left of the dealer) and passes; 2 bids; 0 passes
        st.apply_action(action)
    assert (st.phase, st.current_player(), st.bidder) == ("exchange", 2, 2)
    assert st.hands[2].bit_count() == 10 and set(bits(st.hands[2])) >= WIDOW
    assert set(st.view(0).widow) == WIDOW and st.view(0).aside == 0, "the taken widow is shown to all"
    assert st.why_illegal(parse_card("AS")) == "AS is not in your hand"
    st.apply_action(parse_card("JC"))  # to seat 0, the player after him
    st.apply_action(parse_card("KH"))  # to seat 1
    assert st.hands[0] >> parse_card("JC") & 1 and st.hands[1] >> parse_card("KH") & 1
    assert [h.bit_count() for h in st.hands] == [8, 8, 8] and (st.phase, st.current_player()) == ("play", 2)
    assert st.view(1).exchanged == ((parse_card("KH"), 1),) and len(st.view(2).exchanged) == 2
    assert st.view(0).exchanged == ((parse_card("JC"), 0),), "a seat knows only the card it was given"
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.trick_no == 9 and st.record_exchange() == ["JC", "KH"] and len(st.record_plays()) == 24


def test_discarding_lays_as_many_cards_aside(rs, tmp_path, cli):
    path = tmp_path / "discard.yaml"
    path.write_text(RULES.replace("then: give, each: 1", "then: discard"), "utf-8")
    rc, out, _ = cli("diff", rs.path, str(path))
    assert "gives 1 card to every other player → " in out and "lays 3 cards aside, which score for nobody" in out
    rs2 = Ruleset.load(str(path))
    st = rs2.contracts["gra"].new_deal(3, rs2.deck, 0, [list(h) for h in DEALT])
    for action in (bid(100), PASS, PASS):
        st.apply_action(action)
    for card in ("9H", "9C", "QD"):
        st.apply_action(parse_card(card))
    assert [h.bit_count() for h in st.hands] == [7, 7, 7] and st.phase == "play"
    assert st.view(0).aside == 3 and st.view(1).aside == 0, "the discards are the taker's secret"


def test_views_reasons_search_and_the_prompt(rs):
    st = _deal(rs)
    for action in (bid(100), PASS, PASS):
        st.apply_action(action)
    view = st.view(1)
    assert SeatView.from_json(view.to_json()) == view and view.taker == 1
    assert illegal_reason(view, parse_card("AS"), rs.contracts["gra"]) == "AS is not in your hand"
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("AS\nQH\n"), stdout=out, ruleset=rs)
    human.reset(1, 1, rs)
    assert human.act(view) == parse_card("QH")
    assert "You took the widow" in out.getvalue() and "a card to give to P2" in out.getvalue()
    assert "You cannot give AS: A♠ is not in your hand" in out.getvalue()  # the terminal writes cards one way
    for name in ("heuristic", "search:3"):
        p = make_player(name)
        p.reset(1, 1, rs)
        assert p.act(view) in view.legal
    fresh = _deal(rs)
    p = make_player("search:3")
    p.reset(1, 1, rs)
    assert p.act(fresh.view(1)) in fresh.legal_actions(), "search bids with the widow unseen"


def test_a_match_with_every_player_records_and_replays(rs, cli):
    class AlwaysFirst(io.StringIO):
        def readline(self, *args) -> str:
            return "1\n"

    human = HumanPlayer(stdin=AlwaysFirst(), stdout=io.StringIO(), ruleset=rs)
    runner = MatchRunner(rs, [human, make_player("search:2"), make_player("heuristic")], seed=7)
    results = list(runner.deals())
    record = match_record(rs, 7, runner.first_dealer, results)
    assert all(len(d["exchange"]) == 2 for d in record["deals"])
    assert replay(rs, record).ok
    record["deals"][0]["exchange"] = ["AS", "AS"]
    report = replay(rs, record)
    assert not report.ok
    assert lint_file(rs.path) == []
    rc, out, _ = cli("explain", rs.path)
    assert "the last 3 cards dealt lie face down as a widow; after the auction its winner takes them, shows them" in out


def test_lint_finds_a_widow_that_cannot_work(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(RULES.replace("cards: 3, then: give, each: 1", "cards: 4"), "utf-8")
    assert [(d.code, d.pos.line) for d in lint_file(str(bad))] == [("M633", 10)]
    bad.write_text(RULES.replace("    auction: {min: 100, max: 200, step: 10}\n", "").replace(
        "first_lead: bidder", "first_lead: dealer").replace(
        '"if seat == bidder then -bid / 10 else 0"', "0"), "utf-8")
    assert [d.code for d in lint_file(str(bad))] == ["M633"], "no auction: nobody is `bidder`"


def test_each_seat_sees_only_its_share_of_the_widow_and_the_exchange(rs):
    """Walked view by view: the face-down widow is shown to nobody before it is taken, a seat
    learns only the cards given to it, and every view is plain data (the seat boundary)."""
    from test_seat_boundary import check_view

    st = _deal(rs)
    played = 0
    while not st.is_terminal():
        for seat in range(3):
            view = st.view(seat)
            check_view(view, st.hands[seat], played, list(st.hands))
            assert view.widow == () if st.taker < 0 else set(view.widow) == WIDOW
            assert all(seat in (st.taker, to) for _, to in view.exchanged)
            assert view.aside == (3 if st.taker < 0 else 0)
        action = st.legal_actions()[-1]
        if st.phase == "play":
            played |= 1 << action
        st.apply_action(action)


def test_a_widow_laid_aside_shortens_every_hand_for_lint_and_explain(tmp_path, cli):
    """With `then: discard` each hand plays `cards / players` tricks fewer: lint's deal total and
    explain's words count them (they counted the whole hand: 13 tricks where 12 are played)."""
    text = """kierki: 1
name: four aside
description: "PL: cztery karty na bok. EN: four cards aside."
match: {schedule: [gra]}
contracts:
  gra:
    auction: {min: 1, max: 5}
    widow: {cards: 4, then: discard, face_up: true}
    score:
      - {per_trick: 25}
    total: 325
"""
    path = tmp_path / "aside.yaml"
    path.write_text(text, "utf-8")
    findings = lint_file(str(path))
    assert any(f.code == "M601" and "300" in f.message for f in findings), findings
    path.write_text(text.replace("total: 325", "total: 300"), "utf-8")
    assert not [f for f in lint_file(str(path)) if f.code == "M601"]
    rc, out, _ = cli("explain", str(path))
    assert rc == 0 and "12 cards each and 4 to the widow" in out and "trick-taking, 12 tricks" in out
    assert "all 12 tricks are played" in out


def test_v8_in_full_the_winner_takes_the_four_face_up_cards(cli):
    """auction_face_up.yaml (V8, PL-BOOK): 12 cards each and 4 face up that every bidder sees;
    the winner takes them and lays 4 aside; a trump deal is then worth 300, not 325."""
    from conftest import RULESETS

    path = RULESETS / "variants" / "auction_face_up.yaml"
    vrs = Ruleset.load(str(path))
    assert lint_file(str(path)) == []
    atu = vrs.contracts["atu"]
    deal = atu.new_deal(4, vrs.deck, 0, [list(range(s, 52, 4)) for s in range(4)])
    face_up = set(deal.view(1).widow)
    assert len(face_up) == 4 and [h.bit_count() for h in deal.hands] == [12] * 4
    assert all(set(deal.view(s).widow) == face_up for s in range(4)), "every bidder sees the face-up cards"
    runner = MatchRunner(vrs, [make_player("heuristic") for _ in range(4)], seed=3)
    results = list(runner.deals())
    record = match_record(vrs, 3, runner.first_dealer, results)
    trump_deals = [d for d in record["deals"] if d["contract"] == "atu"]
    assert len(trump_deals) == 4 and all(sum(d["scores"]) == 300 for d in trump_deals)
    assert all(len(d["exchange"]) == 4 for d in trump_deals)
    assert replay(vrs, record).ok
    rc, out, _ = cli("diff", str(RULESETS / "variants" / "auction_for_trumps.yaml"), str(path))
    assert "the last 4 cards dealt lie face up as a widow" in out


def test_a_table_tells_only_the_taker_which_cards_he_put_out(rs):
    """The table's events (the web, the SIK server): the taker's cards given or laid aside
    are told to him only, as a card passed is (a card given shows in its new holder's hand)."""
    from test_table import check_events_of_a_match

    for seed in (3, 4):
        for bot_seat in range(3):
            check_events_of_a_match(rs, seed, bot_seat)


def test_the_game_adapter_tells_a_seat_only_its_share_of_the_widow_and_the_exchange(rs):
    """The OpenSpiel/PettingZoo core: neither the strings nor the perfect-recall tensor show a
    seat the widow's card dealt "to" it before the widow is shown, nor a card the taker puts out
    that was not given to it."""
    import random

    from kierki_dsl.adapters import knowledge
    from kierki_dsl.adapters.game import GameSpec, GameState
    from kierki_dsl.cards import card_str

    spec = GameSpec.make(rs, "deal", 1)
    at = knowledge._offsets(spec, True)

    def tensor_cards(state, seat, name):
        """The cards set in a part of the seat's tensor: ``dealt`` (52) or ``plays`` (a row of
        52 cards and the seats per play)."""
        out = [0.0] * knowledge.tensor_size(spec, True)
        knowledge.fill_tensor(state, seat, True, out)
        if name == "dealt":
            return {c for c in range(52) if out[at["dealt"] + c]}
        row = 52 + 3
        return {c for r in range(52) for c in range(52) if out[at["plays"] + r * row + c]}

    for seed in range(4):
        rng = random.Random(seed)
        state = GameState(spec)
        while state.is_chance():
            state.apply_action(rng.choice(state.legal_actions()))
        deal = state.deal
        for seat in range(3):
            assert not tensor_cards(state, seat, "dealt") & set(deal.widow), "the widow lies face down"
        while deal.phase == "auction":
            state.apply_action(rng.choice(state.legal_actions()))
        taker = deal.taker
        while deal.phase == "exchange":
            state.apply_action(rng.choice(state.legal_actions()))
        for seat in set(range(3)) - {taker}:
            secret = {c for c, to in deal.exchanged if to != seat}
            text = knowledge.information_state_string(state, seat) + knowledge.observation_string(state, seat)
            assert not {card_str(c) for c in secret} & set(text.replace(":", " ").split()), (seat, text)
            assert not tensor_cards(state, seat, "plays") & secret
            mine = [card_str(c) for c, to in deal.exchanged if to == seat]
            assert all(f"p{seat} receives {c}" in text for c in mine), "a seat is told the card it was given"


def test_a_world_resampled_for_a_seat_keeps_what_it_knows_and_its_turn(rs):
    """IS-MCTS's resampling: the widow's deal is rebuilt from the seat's view (the dealing
    cannot be replayed with the widow set aside), in the phase the seat is in — the exchange
    included."""
    import random

    from kierki_dsl.adapters.game import GameSpec, GameState
    from kierki_dsl.adapters.knowledge import information_state_string
    from kierki_dsl.adapters.resample import resample

    spec = GameSpec.make(rs, "deal", 1)
    phases = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = GameState(spec)
        while not state.is_terminal():
            if not state.is_chance():
                seat = state.current_player()
                world = resample(state, seat, rng)
                assert information_state_string(world, seat) == information_state_string(state, seat)
                assert (world.deal.phase, sorted(world.legal_actions())) == (state.deal.phase,
                                                                            sorted(state.legal_actions()))
                phases.add(str(state.deal.phase))
            state.apply_action(rng.choice(state.legal_actions()))
    assert {"auction", "exchange", "play"} <= phases


def test_search_bids_with_a_face_up_widow_out_of_every_sampled_hand(tmp_path):
    """A face-up widow lies on the table until taken: search must not deal its cards to the
    other seats' sampled hands (it played out deals of too many cards and failed)."""
    path = tmp_path / "face_up.yaml"
    path.write_text(RULES.replace("then: give, each: 1", "then: discard, face_up: true"), "utf-8")
    face_up = Ruleset.load(str(path))
    st = face_up.contracts["gra"].new_deal(3, face_up.deck, 0, [list(h) for h in DEALT])
    view = st.view(1)
    assert set(view.widow) == WIDOW and view.taker == -1
    from kierki_dsl.players.search import sample_hands
    import random

    for seed in range(20):
        hands = sample_hands(view, random.Random(seed))
        assert not any(h & sum(1 << c for c in WIDOW) for h in hands[:3])
    p = make_player("search:4")
    p.reset(1, 1, face_up)
    assert p.act(view) in st.legal_actions()


def test_search_samples_the_takers_cards_put_out_where_he_put_them(rs, tmp_path):
    """The taker knows where his cards went: one laid aside is in no hand, one given is with
    its receiver; search's sampled worlds keep them there."""
    import random

    from kierki_dsl.players.search import sample_hands

    path = tmp_path / "discard.yaml"
    path.write_text(RULES.replace("then: give, each: 1", "then: discard"), "utf-8")
    for rules, out in ((Ruleset.load(str(path)), ("JD", "9C", "QC")), (rs, ("JC", "KH"))):
        st = rules.contracts["gra"].new_deal(3, rules.deck, 0, [list(h) for h in DEALT])
        for action in (PASS, bid(110), PASS):
            st.apply_action(action)
        for card in out:
            st.apply_action(parse_card(card))
        view = st.view(2)
        for seed in range(20):
            hands = sample_hands(view, random.Random(seed))
            for c, to in view.exchanged:
                assert [s for s in range(3) if hands[s] >> c & 1] == ([to] if to >= 0 else [])
        p = make_player("search:2")
        p.reset(1, 2, rules)
        assert p.act(view) in st.legal_actions()


def test_the_prompt_says_lay_aside_when_the_taker_discards(tmp_path):
    path = tmp_path / "discard.yaml"
    path.write_text(RULES.replace("then: give, each: 1", "then: discard"), "utf-8")
    rules = Ruleset.load(str(path))
    st = rules.contracts["gra"].new_deal(3, rules.deck, 0, [list(h) for h in DEALT])
    for action in (PASS, bid(110), PASS):
        st.apply_action(action)
    st.apply_action(parse_card("JD"))
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("AS\nQC\n"), stdout=out, ruleset=rules)
    human.reset(1, 2)
    assert human.act(st.view(2)) == parse_card("QC")
    shown = out.getvalue()
    assert "You cannot lay aside AS: A♠ is not in your hand" in shown and "J♦ laid aside" in shown, shown
