"""A stock to draw from (issue 16, PL-BOOK's kierki dominowe): dealing part of the deck, a void
follower drawing until able, players dropping out, the end on empty hands, views that show the
stock's size but never its cards, lint, explain, records and every player."""
from __future__ import annotations

import random

import pytest

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.match import deal_out
from kierki_dsl.lint import lint_file
from kierki_dsl.players.search import sample_hands
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS

N, E, S, W = 0, 1, 2, 3
DOMINOWE = RULESETS / "variants" / "kierki_dominowe.yaml"


def C(*names):
    return [parse_card(n) for n in names]


def _order(rounds, stock):
    """A deck order dealing ``rounds`` (one card per seat N, E, S, W each) with W dealing, then ``stock``."""
    first = [c for r in rounds for c in C(*r)]
    top = C(*stock)
    rest = [c for c in range(52) if c not in first and c not in top]
    return first + top + rest


def _ruleset(tmp_path, hand: int, leftover: str = "last_in") -> Ruleset:
    path = tmp_path / "stock.yaml"
    path.write_text(f"kierki: 1\nextends: {DOMINOWE}\nname: a small stock\n"
                    f"contracts:\n  dominowe:\n    stock: {{hand: {hand}, leftover: {leftover}}}\n"
                    + ("    total: null\n" if leftover == "none" else ""), "utf-8")
    return Ruleset.load(str(path))


def _deal(rs, order):
    return rs.contracts["dominowe"].new_deal(4, rs.deck, W, deal_out(order, W, 4))


def test_a_void_follower_draws_until_able_and_nobody_else_sees_the_cards():
    rs = Ruleset.load(str(DOMINOWE))
    rounds = [("AC", "2D", "KC", "QC"), ("2S", "3D", "7S", "8D"), ("3S", "4D", "8S", "9D"),
              ("4S", "5D", "9S", "TD"), ("5S", "6D", "TS", "JD"), ("6S", "7D", "JS", "QD")]
    st = _deal(rs, _order(rounds, ("2H", "3H", "4C")))
    assert [h.bit_count() for h in st.hands] == [6, 6, 6, 6] and st.view(N).stock == 28
    st.apply_action(parse_card("AC"))
    assert st.current_player() == E
    view = st.view(E)
    assert view.drew == tuple(C("2H", "3H", "4C")) and list(view.legal) == C("4C"), "he draws until he can follow"
    assert view.stock == 25 and view.drawn == (0, 3, 0, 0) and view.hand_sizes == (5, 9, 6, 6)
    other = st.view(S)
    assert other.drew == () and other.drawn == (0, 3, 0, 0) and not other.hand & sum(1 << c for c in C("2H", "3H"))
    assert all(v.stock == 25 for v in (st.view(N), other)), "every seat sees the stock's size"


def test_players_drop_out_tricks_shrink_and_the_last_player_takes_the_rest(tmp_path):
    rs = _ruleset(tmp_path, 2)
    order = _order([("AC", "KC", "QC", "JC"), ("2C", "3C", "AS", "2H")], ("3H", "4C", "5C"))
    st = _deal(rs, order)
    for card in ("AC", "KC", "QC", "JC", "2C", "3C"):
        st.apply_action(parse_card(card))
    assert st.current_player() == S and st.view(S).drew == tuple(C("3H", "4C"))
    st.apply_action(parse_card("4C"))
    assert st.current_player() == W and st.view(W).drew == tuple(C("5C"))
    st.apply_action(parse_card("5C"))  # W wins trick 2; N and E hold no cards now
    assert st.current_player() == W and st.view(W).hand_sizes == (0, 0, 2, 1)
    st.apply_action(parse_card("2H"))
    assert st.current_player() == S, "the players who are out are skipped"
    st.apply_action(parse_card("3H"))  # a trick of two cards: S wins, and only S holds cards
    assert st.is_terminal() and not st.ended_early
    assert [len(t) for _, t, _ in st.completed] == [4, 4, 2]
    assert st.returns() == [0, 0, -26, 0], "S takes the trick's hearts, his A♠ and the stock"
    assert st.view(N).drawn == (0, 0, 2, 1)


def test_leftover_none_scores_the_cards_left_for_nobody(tmp_path):
    rs = _ruleset(tmp_path, 2, "none")
    order = _order([("AC", "KC", "QC", "JC"), ("2C", "3C", "AS", "2H")], ("3H", "4C", "5C"))
    st = _deal(rs, order)
    for card in ("AC", "KC", "QC", "JC", "2C", "3C", "4C", "5C", "2H", "3H"):
        st.apply_action(parse_card(card))
    assert st.returns() == [0, 0, -2, 0]


def test_search_samples_the_stock_apart_from_the_hands():
    rs = Ruleset.load(str(DOMINOWE))
    contract = rs.contracts["dominowe"]
    rng = random.Random(5)
    st = contract.new_deal(4, rs.deck, W, deal_out(list(range(52)), W, 4))
    while not st.is_terminal() and not any(st.drew):
        st.apply_action(st.legal_actions()[0])
    view = st.view(st.current_player())
    for _ in range(10):
        hands = sample_hands(view, rng)
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        again = contract.from_view(view, hands)
        assert len(again.stock) == view.stock and again.legal_actions() == list(view.legal)
        again.playout(rng)
        assert sum(again.returns()) == -26


@pytest.mark.parametrize("body,message", [
    ("stock: {hand: 14}", "4 hands of 14 cards need 56 cards; the deck has 52"),
    ("stock: {hand: 13}", "the stock is always empty"),
    ("stock: {hand: 6}\n    follow_suit: false", "has follow_suit: false"),
    ("stock: {hand: 6}\n    score: [{per_trick: -1, when: trick.is_last}]",
     "trick.is_last read the most a deal can have, 26"),
])
def test_lint_finds_a_stock_that_cannot_work(tmp_path, body, message):
    path = tmp_path / "bad.yaml"
    score = "" if "score" in body else "score: [{per_card: card.suit == hearts, points: -1}]\n    "
    path.write_text("kierki: 1\nname: bad stock\nmatch: {schedule: [d]}\ncontracts:\n  d:\n    " + score + body + "\n",
                    "utf-8")
    found = [d for d in lint_file(str(path)) if d.code == "M630"]
    assert found and message in found[0].message and found[0].pos is not None, [str(d) for d in lint_file(str(path))]


def test_schema_refuses_a_stock_without_a_hand(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("kierki: 1\nname: bad stock\nmatch: {schedule: [d]}\ncontracts:\n  d:\n    "
                    "score: [{per_card: card.suit == hearts, points: -1}]\n    stock: {leftover: none}\n", "utf-8")
    found = [d for d in lint_file(str(path)) if d.severity == "error"]
    assert found and found[0].code.startswith("S") and "hand" in found[0].message and found[0].pos.line == 7


def test_explain_and_diff_read_the_stock():
    from kierki_dsl.entry import main

    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["explain", str(DOMINOWE)]) == 0
        assert main(["diff", str(RULESETS / "games" / "hearts.yaml"), str(DOMINOWE)]) == 0
    text = out.getvalue()
    assert "deal: 6 cards each" in text and "draws from it until he can" in text
    assert "stock: (nothing) → each player is dealt 6 cards" in text


def test_adapter_resample_rebuilds_a_stock_deal_from_the_seat_view():
    from kierki_dsl.adapters.game import GameSpec, GameState
    from kierki_dsl.adapters.resample import resample

    rs = Ruleset.load(str(DOMINOWE))
    state = GameState(GameSpec.make(rs))
    rng = random.Random(1)
    checked = 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        seat = state.current_player()
        view = state.deal.view(seat)
        if view.drawn and any(view.drawn):
            world = resample(state, seat, rng)
            mine = world.deal.view(seat)
            assert (mine.hand, mine.hand_sizes, mine.stock, mine.legal) == (view.hand, view.hand_sizes, view.stock,
                                                                             view.legal)
            assert world.exact is False and world.totals == state.totals
            checked += 1
        acts = state.legal_actions()
        state.apply_action(acts[rng.randrange(len(acts))])
    assert checked


def test_end_when_reads_the_players_still_holding_cards(tmp_path):
    path = tmp_path / "first_out.yaml"
    path.write_text(f"kierki: 1\nextends: {DOMINOWE}\nname: the first player out ends it\n"
                    "contracts:\n  dominowe:\n    stock: {hand: 2, leftover: none}\n    total: null\n"
                    "    end_when: players_holding < 4\n", "utf-8")
    rs = Ruleset.load(str(path))
    st = _deal(rs, _order([("AC", "KC", "QC", "JC"), ("2C", "3C", "AS", "2H")], ("3H", "4C", "5C")))
    for card in ("AC", "KC", "QC", "JC", "2C", "3C", "4C", "5C"):
        st.apply_action(parse_card(card))
    assert st.is_terminal() and st.ended_early and len(st.completed) == 2, "N and E are out after trick 2"


def test_the_terminal_shows_the_stock_and_the_cards_drawn():
    import io

    from kierki_dsl.players.human import HumanPlayer

    rs = Ruleset.load(str(DOMINOWE))
    rounds = [("AC", "2D", "KC", "QC"), ("2S", "3D", "7S", "8D"), ("3S", "4D", "8S", "9D"),
              ("4S", "5D", "9S", "TD"), ("5S", "6D", "TS", "JD"), ("6S", "7D", "JS", "QD")]
    st = _deal(rs, _order(rounds, ("2H", "3H", "4C")))
    st.apply_action(parse_card("AC"))
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("1\n"), stdout=out, ruleset=rs)
    human.reset(0, E, rs)
    assert human.act(st.view(E)) == parse_card("4C")
    text = out.getvalue()
    assert "Stock: 25 cards · cards held: N 5, E 9 (drew 3), S 6, W 6" in text
    assert "You drew 2♥ 3♥ 4♣ from the stock." in text and "trick 1 of" not in text


def test_a_sik_table_refuses_a_stock():
    from kierki_dsl.net.server import sik_problem

    rs = Ruleset.load(str(DOMINOWE))
    assert "stocks" in sik_problem(rs, None, {1: rs.contracts["dominowe"]})


def test_a_group_of_names_used_as_a_value_is_a_located_finding(tmp_path):
    """Found by test_fuzz during this work (`trick == trick` was an internal error)."""
    path = tmp_path / "ns.yaml"
    path.write_text("kierki: 1\nname: x\nmatch: {schedule: [d]}\ncontracts:\n  d:\n"
                    "    score: [{per_card: trick == trick, points: -1}]\n", "utf-8")
    found = [d for d in lint_file(str(path)) if d.code == "N404"]
    assert [(d.pos.line, d.pos.col) for d in found] == [(6, 24), (6, 33)]
    assert "'trick' is a group of names, not a value" in found[0].message
