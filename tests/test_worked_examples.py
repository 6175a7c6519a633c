"""RULES.md §c worked examples KQ-01 .. KQ-12, run through the standard ruleset's DSL."""
from __future__ import annotations

import pytest

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.actions import PASS, call
from kierki_dsl.interpreter.match import MatchRunner, deal_out, dealer_of
from kierki_dsl.players.base import RandomPlayer
from kierki_dsl.ruleset.model import Ruleset

from conftest import STANDARD

N, E, S, W = 0, 1, 2, 3


@pytest.fixture(scope="module")
def rs():
    return Ruleset.load(str(STANDARD))


def C(*names):
    return [parse_card(n) for n in names]


def deal(rs, contract, dealer, hands):
    """A deal of ``contract`` with the given (short) hands, as the interpreter plays it."""
    return rs.contracts[contract].new_deal(4, rs.deck, dealer, [C(*h) for h in hands])


def legal(state):
    return sorted(state.legal_actions())


def test_kq01_no_tricks_counts_tricks(rs):
    runner = MatchRunner(rs, [RandomPlayer() for _ in range(4)], seed=11)
    first = next(runner.deals())
    assert first.contract.name == "bez_lew"
    # -20 per trick won: recount the tricks from the record of plays
    replayed = rs.contracts["bez_lew"].new_deal(4, rs.deck, first.dealer, [list(h) for h in first.dealt])
    for p in first.plays:
        replayed.apply_action(parse_card(p))
    assert list(first.scores) == [-20 * t for t in replayed.tricks_won]
    assert sum(first.scores) == -260
    # the example's own numbers: tricks N 4, E 3, S 6, W 0
    _, per_trick = replayed.trick_value([(N, parse_card("2S")), (E, parse_card("3S")), (S, parse_card("4S")), (W, parse_card("5S"))], number=1)
    assert [per_trick * t for t in (4, 3, 6, 0)] == [-80, -60, -120, 0]


H1, H2, H3 = ("AH", "5H", "3C"), ("KH", "5H"), ("KH", "5H", "3C")


def _lead_state(rs, contract, hand):
    """North on lead (dealer West) holding ``hand``; the others hold filler cards."""
    size = len(hand)
    fill = [c for c in ("2D 3D 4D 5D 6D 7D 8D 9D TD".split())]
    hands = [hand, fill[0:size], fill[3:3 + size], fill[6:6 + size]]
    st = deal(rs, contract, W, hands)
    if st.phase == "call":
        st.apply_action(call(0))
    assert st.current_player() == N
    return st


@pytest.mark.parametrize("contract,hand,expected", [
    ("bez_kierow", H1, {"3C"}),
    ("bez_krola_kier", H1, {"3C"}),
    ("rozbojnik", H1, {"3C"}),
    ("bez_lew", H1, {"AH", "5H", "3C"}),
    ("bez_dam", H1, {"AH", "5H", "3C"}),
    ("bez_panow", H1, {"AH", "5H", "3C"}),
    ("bez_siodmej_i_ostatniej", H1, {"AH", "5H", "3C"}),
    ("bez_kierow", H2, {"KH", "5H"}),
    ("bez_krola_kier", H3, {"3C"}),
    ("atu", H1, {"AH", "5H", "3C"}),
])
def test_kq02_lead_legality(rs, contract, hand, expected):
    st = _lead_state(rs, contract, hand)
    assert set(legal(st)) == set(C(*expected))
    for card in set(C(*hand)) - set(C(*expected)):
        assert st.why_illegal(card) == "hearts may not be led while you hold another suit"


def test_kq03_kings_and_jacks(rs):
    st = deal(rs, "bez_panow", W, [["JS", "2D"], ["KS", "3D"], ["AS", "4D"], ["JH", "5D"]])
    for c in ("JS", "KS", "AS", "JH"):
        st.apply_action(parse_card(c))
    assert st.scores == [0, 0, -90, 0]


def test_kq04_king_of_hearts_and_robber(rs):
    st = deal(rs, "bez_krola_kier", W, [["4C", "2D"], ["9C", "3D"], ["KH", "3H"], ["2C", "5D"]])
    st.apply_action(parse_card("4C"))
    st.apply_action(parse_card("9C"))
    st.apply_action(parse_card("KH"))
    st.apply_action(parse_card("2C"))
    assert st.scores == [0, -150, 0, 0]
    # S holding {KH, 3H, 9S} when a club is led: all three are legal (no forced discard)
    st = deal(rs, "bez_krola_kier", W, [["4C", "2D", "3D"], ["9C", "4D", "5D"], ["KH", "3H", "9S"], ["2C", "6D", "7D"]])
    st.apply_action(parse_card("4C"))
    st.apply_action(parse_card("9C"))
    assert set(legal(st)) == set(C("KH", "3H", "9S"))
    # the same trick in the robber, as trick 3
    plays = [(N, parse_card("4C")), (E, parse_card("9C")), (S, parse_card("KH")), (W, parse_card("2C"))]
    rob_full = rs.contracts["rozbojnik"].new_deal(4, rs.deck, W, [list(range(i, 52, 4)) for i in range(4)])
    assert rob_full.trick_value(plays, number=3) == (E, -220)


def test_kq05_seventh_and_last(rs):
    st = rs.contracts["bez_siodmej_i_ostatniej"].new_deal(4, rs.deck, W, [list(range(i, 52, 4)) for i in range(4)])
    winners = [E, N, N, W, S, E, S, W, W, N, E, N, S]
    scores = [0, 0, 0, 0]
    for n, w in enumerate(winners, start=1):
        # a trick the seat w wins: it plays the ace of spades, the others small spades
        plays = [(w, parse_card("AS"))] + [(s, parse_card(f"{r}S")) for s, r in zip([x for x in range(4) if x != w], "234")]
        winner, pts = st.trick_value(plays, number=n)
        assert winner == w
        scores[winner] += pts
    assert scores == [0, 0, -150, 0]


@pytest.fixture(scope="module")
def robber(rs):
    return rs.contracts["rozbojnik"].new_deal(4, rs.deck, W, [list(range(i, 52, 4)) for i in range(4)])


def test_kq06_robber_seventh_trick(robber):
    plays = [(E, parse_card("3S")), (S, parse_card("2H")), (W, parse_card("KH")), (N, parse_card("QS"))]
    assert robber.trick_value(plays, number=7) == (N, -375)


def test_kq07_robber_last_trick(robber):
    plays = [(S, parse_card("4D")), (W, parse_card("JD")), (N, parse_card("QH")), (E, parse_card("KC"))]
    assert robber.trick_value(plays, number=13) == (W, -235)


def test_kq08_queens(rs):
    st = rs.contracts["bez_dam"].new_deal(4, rs.deck, W, [list(range(i, 52, 4)) for i in range(4)])
    captures = [(N, "QS"), (S, "QH"), (W, "QC"), (S, "QD")]
    scores = [0, 0, 0, 0]
    for n, (seat, q) in enumerate(captures, start=2):
        # the capturing seat leads the ace of the queen's suit (or QS itself); others follow low
        top = q if q == "QS" else "A" + q[1]
        followers = [x for x in range(4) if x != seat]
        cards = ([q] if q != "QS" else []) + ["2" + q[1], "3" + q[1], "4" + q[1]]
        plays = [(seat, parse_card(top))] + [(f, parse_card(c)) for f, c in zip(followers, cards)]
        w, pts = st.trick_value(plays, number=n)
        assert w == seat
        scores[w] += pts
    assert scores == [-60, 0, -120, -60]


def test_kq09_trump_trick(rs):
    st = deal(rs, "atu", W, [["KS", "2C"], ["AS", "3C"], ["2D", "9C"], ["3D", "QD"]])
    assert st.phase == "call" and st.current_player() == W  # the dealer calls
    st.apply_action(call(2))  # diamonds
    assert st.current_player() == N  # left of the dealer leads
    st.apply_action(parse_card("KS"))
    st.apply_action(parse_card("AS"))
    st.apply_action(parse_card("2D"))
    st.apply_action(parse_card("3D"))
    assert st.scores == [0, 0, 0, 25]
    # S holding {2D, 9C, 4H} after KS, AS: no duty to ruff
    st = deal(rs, "atu", W, [["KS", "2C", "5C"], ["AS", "3C", "6C"], ["2D", "9C", "4H"], ["3D", "QD", "5H"]])
    st.apply_action(call(2))
    st.apply_action(parse_card("KS"))
    st.apply_action(parse_card("AS"))
    assert set(legal(st)) == set(C("2D", "9C", "4H"))
    st.apply_action(parse_card("2D"))
    assert set(legal(st)) == set(C("3D", "QD", "5H"))  # no duty to overtrump


def test_kq10_schedule_callers_and_five_cards(rs):
    dealers = [dealer_of(S, k, 4) for k in range(12)]
    assert dealers == [S, W, N, E, S, W, N, E, S, W, N, E]
    deck_order = list(range(52))  # card i is the i-th card dealt
    callers, leaders = [], []
    for k in range(7, 11):
        dealt = deal_out(deck_order, dealers[k], 4)
        st = rs.schedule[k].new_deal(4, rs.deck, dealers[k], dealt)
        callers.append(st.current_player())
        if k == 7:
            assert st.call_view_cards() == [3, 7, 11, 15, 19]
        st.apply_action(call(1))
        leaders.append(st.current_player())
    assert callers == [E, S, W, N]
    assert leaders == [S, W, N, E]
    # loteryjka: dealer E, first turn S
    lot = rs.schedule[11].new_deal(4, rs.deck, dealers[11], deal_out(deck_order, dealers[11], 4))
    assert lot.current_player() == S
    # deal 8 with tricks S 5, W 2, N 4, E 2
    st = rs.schedule[7].new_deal(4, rs.deck, E, deal_out(deck_order, E, 4))
    st.apply_action(call(0))
    per = st.trick_value([(S, parse_card("AS")), (W, parse_card("2S")), (N, parse_card("3S")), (E, parse_card("4S"))])[1]
    assert [per * t for t in (5, 2, 4, 2)] == [125, 50, 100, 50]


def test_kq11_fan_tan_position(rs):
    lot = rs.contracts["loteryjka"]
    hand = C("4S", "TS", "JS", "6H", "9H", "7D", "8D", "AC", "KC")
    st = lot.new_deal(4, rs.deck, W, [hand, C("2H"), C("3H"), C("4H")])
    st.set_rows([(parse_card("5S"), parse_card("9S")), (parse_card("7H"), parse_card("7H")), None,
                 (parse_card("2C"), parse_card("TC"))], to_move=N)
    assert set(legal(st)) == set(C("4S", "TS", "6H", "7D", "AC"))
    assert PASS not in legal(st)
    assert st.why_illegal(parse_card("8D")).startswith("the diamonds row is not open")


def test_kq12_lottery_finish(rs):
    lot = rs.contracts["loteryjka"]
    # dealer E: S moves first and cannot play, W goes out first, N second: the deal ends at once
    st = lot.new_deal(4, rs.deck, E, [C("7H"), C("2D", "3D"), C("2C"), C("7S")])
    assert st.current_player() == S
    assert legal(st) == [PASS]
    st.apply_action(PASS)
    st.apply_action(parse_card("7S"))  # W out first
    st.apply_action(parse_card("7H"))  # N out second
    assert st.is_terminal()
    assert st.returns() == [500, 0, 0, 800]
    assert st.record_plays() == ["pass", "7S", "7H"]
