"""Variants (RULES.md §b) as data: each pins its behavioural difference against the standard."""
from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.actions import PASS, call
from kierki_dsl.interpreter.match import MatchRunner, deal_out, shuffled
from kierki_dsl.players.base import make_player
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS, STANDARD

N, E, S, W = 0, 1, 2, 3
VARIANTS = RULESETS / "variants"
ALL = [STANDARD] + sorted(VARIANTS.glob("*.yaml")) + sorted((RULESETS / "games").glob("*.yaml"))

REQUIRED = ["jacks_only", "first_and_last", "hearts_never_led", "king_of_hearts_lead_ban", "kh_forced_discard",
            "left_of_dealer_calls_trumps", "dealer_leads_trumps", "no_trumps_allowed", "must_ruff", "must_ruff_strict",
            "fantan_start_eight", "dealer_starts_fantan", "fantan_ace_high", "four_lotteries", "early_stop",
            "six_negative_deals", "three_players", "last_trick_only", "last_two_tricks", "third_and_seventh",
            "hearts_broken", "walc_scale", "walc_chapanka", "fantan_free_start",
            "fantan_extra_turn", "four_series", "fantan_three_passes", "fantan_pass_pool",
            "three_players_three_lotteries", "dealer_calls_after_seven"]


@functools.lru_cache(maxsize=None)
def load(name: str) -> Ruleset:
    return Ruleset.load(str(STANDARD if name == "standard" else VARIANTS / f"{name}.yaml"))


def C(*names):
    return [parse_card(n) for n in names]


def deal(rs, contract, dealer, hands):
    return rs.contracts[contract].new_deal(rs.players, rs.deck, dealer, [C(*h) for h in hands])


def full(rs, contract, dealer=W):
    return rs.contracts[contract].new_deal(4, rs.deck, dealer, [list(range(i, 52, 4)) for i in range(4)])


def P(*pairs):
    return [(s, parse_card(c)) for s, c in pairs]


def test_every_required_variant_ships_with_a_description():
    for name in REQUIRED:
        rs = load(name)
        assert "PL:" in rs.description and "EN:" in rs.description, name


def test_jacks_only_never_penalises_a_king():
    rs, std = load("jacks_only"), load("standard")
    kq03 = P((N, "JS"), (E, "KS"), (S, "AS"), (W, "JH"))
    assert full(std, "bez_panow").trick_value(kq03, 1) == (S, -90)
    assert full(rs, "bez_panow").trick_value(kq03, 1) == (S, -60)
    assert full(rs, "bez_panow").trick_value(P((N, "KS"), (E, "KD"), (S, "AS"), (W, "KH")), 1) == (S, 0)
    assert full(rs, "rozbojnik").trick_value(P((E, "3S"), (S, "2H"), (W, "KH"), (N, "QS")), 7) == (N, -345)
    assert full(rs, "rozbojnik").trick_value(P((S, "4D"), (W, "JD"), (N, "QH"), (E, "KC")), 13) == (W, -205)


def test_first_and_last_penalises_trick_one():
    rs = load("first_and_last")
    st = full(rs, "bez_siodmej_i_ostatniej")
    winners = [E, N, N, W, S, E, S, W, W, N, E, N, S]
    scores = [0, 0, 0, 0]
    for n, w in enumerate(winners, start=1):
        others = [x for x in range(4) if x != w]
        winner, pts = st.trick_value([(w, parse_card("AS"))] + P(*zip(others, ["2S", "3S", "4S"])), n)
        scores[winner] += pts
    assert scores == [0, -75, -75, 0]
    assert full(rs, "rozbojnik").trick_value(P((E, "3S"), (S, "2H"), (W, "KH"), (N, "QS")), 7) == (N, -300)


def _lead(rs, contract, hand):
    fill = "2D 3D 4D 5D 6D 7D 8D 9D TD".split()
    st = deal(rs, contract, W, [hand, fill[0:len(hand)], fill[3:3 + len(hand)], fill[6:6 + len(hand)]])
    if st.phase == "call":
        st.apply_action(call(0))
    return set(st.legal_actions())


def test_hearts_never_led_in_any_negative_deal():
    rs, std = load("hearts_never_led"), load("standard")
    for contract in ("bez_lew", "bez_dam", "bez_panow", "bez_siodmej_i_ostatniej"):
        assert _lead(std, contract, ("AH", "5H", "3C")) == set(C("AH", "5H", "3C"))
        assert _lead(rs, contract, ("AH", "5H", "3C")) == set(C("3C"))
        assert _lead(rs, contract, ("KH", "5H")) == set(C("KH", "5H")), "all hearts: any heart may be led"
    assert _lead(rs, "atu", ("AH", "5H", "3C")) == set(C("AH", "5H", "3C"))


def test_only_the_king_of_hearts_is_barred_in_deal_5():
    rs = load("king_of_hearts_lead_ban")
    assert _lead(rs, "bez_krola_kier", ("AH", "5H", "3C")) == set(C("AH", "5H", "3C"))
    assert _lead(rs, "bez_krola_kier", ("KH", "5H", "3C")) == set(C("5H", "3C"))
    assert _lead(rs, "bez_kierow", ("AH", "5H", "3C")) == set(C("3C")), "deal 2 keeps its ban"


def test_king_of_hearts_forced_discard():
    for name, expected in (("standard", {"KH", "3H", "9S"}), ("kh_forced_discard", {"KH"})):
        rs = load(name)
        for contract in ("bez_krola_kier", "rozbojnik"):
            st = deal(rs, contract, W, [["4C", "2D", "3D"], ["9C", "4D", "5D"], ["KH", "3H", "9S"], ["2C", "6D", "7D"]])
            st.apply_action(parse_card("4C"))
            st.apply_action(parse_card("9C"))
            assert st.legal_actions() == sorted(C(*expected)), (name, contract)
            if name != "standard":
                assert st.why_illegal(parse_card("3H")) == "you must discard the king of hearts"


def _trump_deal(rs, dealer):
    order = list(range(52))
    return rs.contracts["atu"].new_deal(4, rs.deck, dealer, deal_out(order, dealer, 4))


def test_left_of_dealer_calls_after_seeing_all_and_leads():
    rs = load("left_of_dealer_calls_trumps")
    st = _trump_deal(rs, S)
    assert st.current_player() == W
    assert st.view(W).hand.bit_count() == 13, "the caller sees his whole hand"
    st.apply_action(call(1))
    assert st.current_player() == W
    std = _trump_deal(load("standard"), S)
    assert std.current_player() == S and std.view(S).hand.bit_count() == 5


def test_dealer_calls_after_seeing_seven_cards():
    rs = load("dealer_calls_after_seven")
    st = _trump_deal(rs, S)
    assert st.current_player() == S and st.view(S).hand.bit_count() == 7
    st.apply_action(call(1))
    assert st.current_player() == W, "the player left of the dealer leads, as in the standard"


def test_dealer_leads_trumps():
    rs = load("dealer_leads_trumps")
    leaders = []
    for dealer in (E, S, W, N):  # KQ-10: deals 8-11 with first dealer S
        st = _trump_deal(rs, dealer)
        st.apply_action(call(2))
        leaders.append(st.current_player())
    assert leaders == [E, S, W, N]


def test_no_trumps_may_be_called():
    rs, std = load("no_trumps_allowed"), load("standard")
    assert call(-1) in _trump_deal(rs, W).legal_actions()
    assert call(-1) not in _trump_deal(std, W).legal_actions()
    st = deal(rs, "atu", W, [["KS", "2C"], ["AS", "3C"], ["2D", "9C"], ["3D", "QD"]])
    st.apply_action(call(-1))
    for c in ("KS", "AS", "2D", "3D"):
        st.apply_action(parse_card(c))
    assert st.scores == [0, 25, 0, 0], "without trumps AS wins (KQ-09)"


def test_must_ruff_and_overtake():
    rs = load("must_ruff")
    st = deal(rs, "atu", W, [["KS", "2C", "5C"], ["AS", "3C", "6C"], ["2D", "9C", "4H"], ["3D", "QD", "5H"]])
    st.apply_action(call(2))
    st.apply_action(parse_card("KS"))
    assert st.legal_actions() == C("AS"), "E must follow with his only spade"
    st.apply_action(parse_card("AS"))
    assert st.legal_actions() == C("2D")
    assert st.why_illegal(parse_card("9C")) == "you must ruff when you cannot follow suit"
    st.apply_action(parse_card("2D"))
    assert set(st.legal_actions()) == set(C("3D", "QD"))
    # following a plain suit: WALC asks for no more than following suit; the strict reading
    # makes S beat the 9S
    for name, legal in (("must_ruff", C("4S", "JS")), ("must_ruff_strict", C("JS"))):
        st = deal(load(name), "atu", W, [["5S", "2C"], ["9S", "3C"], ["4S", "JS"], ["3D", "QD"]])
        st.apply_action(call(2))
        st.apply_action(parse_card("5S"))
        st.apply_action(parse_card("9S"))
        assert st.legal_actions() == legal, name
    # trumps led: beat the highest trump when able (both readings)
    st = deal(rs, "atu", W, [["5D", "2C"], ["9D", "3C"], ["4D", "JD"], ["3D", "QD"]])
    st.apply_action(call(2))
    st.apply_action(parse_card("5D"))
    st.apply_action(parse_card("9D"))
    assert st.legal_actions() == C("JD")
    assert st.why_illegal(parse_card("4D")) == "when trumps are led you must beat the highest trump of the trick if you can"


def _fantan_position(rs):
    lot = rs.contracts["loteryjka"]
    hand = C("4S", "TS", "JS", "6H", "9H", "7D", "8D", "AC", "KC")
    st = lot.new_deal(4, rs.deck, W, [hand, C("2H"), C("3H"), C("4H")])
    st.set_rows([(parse_card("5S"), parse_card("9S")), (parse_card("7H"), parse_card("7H")), None,
                 (parse_card("2C"), parse_card("TC"))], to_move=N)
    return st


def test_fantan_variants():
    assert set(_fantan_position(load("standard")).legal_actions()) == set(C("4S", "TS", "6H", "7D", "AC"))
    assert set(_fantan_position(load("fantan_ace_high")).legal_actions()) == set(C("4S", "TS", "6H", "7D"))
    eight = load("fantan_start_eight").contracts["loteryjka"]
    eight_deck = load("fantan_start_eight").deck
    st = eight.new_deal(4, eight_deck, W, [C("7D", "8D", "9D"), C("2H"), C("3H"), C("4H")])
    assert st.legal_actions() == C("8D")
    st = eight.new_deal(4, eight_deck, W, [C("7D", "9D"), C("2H"), C("3H"), C("4H")])
    assert st.legal_actions() == [PASS]
    for name, first in (("standard", S), ("dealer_starts_fantan", E)):
        rs = load(name)
        st = rs.contracts["loteryjka"].new_deal(4, rs.deck, E, deal_out(list(range(52)), E, 4))
        assert st.current_player() == first


def _deal6_penalties(rs):
    """The points of deal 6 by trick number, each trick won by a different seat in turn."""
    st = full(rs, "bez_siodmej_i_ostatniej")
    out = {}
    for n in range(1, 14):
        w = n % 4
        others = [x for x in range(4) if x != w]
        out[n] = st.trick_value([(w, parse_card("AS"))] + P(*zip(others, ["2S", "3S", "4S"])), n)[1]
    return {n: v for n, v in out.items() if v}


def test_deal_6_variants_penalise_their_tricks():
    assert _deal6_penalties(load("standard")) == {7: -75, 13: -75}
    assert _deal6_penalties(load("last_trick_only")) == {13: -150}
    assert _deal6_penalties(load("last_two_tricks")) == {12: -75, 13: -75}
    assert _deal6_penalties(load("third_and_seventh")) == {3: -75, 7: -75}
    assert _deal6_penalties(load("walc_scale")) == {7: -9, 13: -9}
    assert _deal6_penalties(load("walc_chapanka")) == {6: -9, 13: -9}


def test_hearts_may_be_led_once_broken():
    rs = load("hearts_broken")
    for contract in ("bez_kierow", "bez_krola_kier", "rozbojnik"):
        assert _lead(rs, contract, ("AH", "5H", "3C")) == set(C("3C")), contract
        assert _lead(rs, contract, ("KH", "5H")) == set(C("KH", "5H")), "all hearts: any heart may be led"
        # N wins trick 1 with AC; S, void in clubs, discards a heart or not
        for discard, leads in (("9H", {"AH", "5H", "3S"}), ("5D", {"3S"})):
            st = deal(rs, contract, W, [["AC", "AH", "5H", "3S"], ["4C", "2D", "3D", "4D"],
                                        ["9H", "5D", "6D", "7D"], ["2C", "8D", "9D", "TD"]])
            for c in ("AC", "4C", discard, "2C"):
                st.apply_action(parse_card(c))
            assert st.current_player() == N and set(st.legal_actions()) == set(C(*leads)), (contract, discard)


def test_walc_scale_and_chapanka():
    rs = load("walc_scale")
    assert full(rs, "bez_dam").trick_value(P((N, "QS"), (E, "QD"), (S, "AS"), (W, "2S")), 1) == (S, -10)
    assert full(rs, "rozbojnik").trick_value(P((E, "3S"), (S, "2H"), (W, "KH"), (N, "QS")), 7) == (N, -2 - 2 * 2 - 5 - 3 - 16 - 9)
    assert rs.contracts["loteryjka"].prizes == (10, 5, -5, -10)
    ch = load("walc_chapanka")
    st = _trump_deal(ch, S)
    assert st.current_player() == W and st.view(W).hand.bit_count() == 7, "left of the dealer calls after 7 cards"
    assert call(-1) in st.legal_actions(), "no trumps may be called"
    assert [c.name for c in ch.schedule if getattr(c, "early_stop", False)] == [
        "bez_kierow", "bez_panow", "bez_dam", "bez_krola_kier"], "deals 2-5 end early"
    lot = ch.contracts["loteryjka"]
    assert lot.new_deal(4, ch.deck, W, [C("7D", "8D", "9D"), C("2H"), C("3H"), C("4H")]).legal_actions() == C("8D")
    # WALC's deal order, its forced K♥ discard in deal 5, the caller leads, loteryjka ace high
    assert [c.name for c in ch.schedule[:5]] == ["bez_lew", "bez_kierow", "bez_panow", "bez_dam", "bez_krola_kier"]
    st = deal(ch, "bez_krola_kier", W, [["AC", "2S"], ["KH", "3S"], ["4S", "5S"], ["6S", "7S"]])
    st.apply_action(parse_card("AC"))
    assert st.legal_actions() == C("KH"), "void in clubs: the king of hearts goes at the first chance"
    st = _trump_deal(ch, S)
    st.apply_action(call(1))
    assert st.current_player() == W, "the caller leads, as the seat left of the dealer leads every deal"
    assert lot.ace_high and lot.unreachable(ch.deck) == 0
    results = list(MatchRunner(ch, [make_player("simple") for _ in range(4)], seed=5).deals())
    assert sum(results[-1].totals) == 0 and sum(results[-1].scores) == 0


def test_fantan_free_start():
    rs = load("fantan_free_start")
    lot = rs.contracts["loteryjka"]
    st = lot.new_deal(4, rs.deck, W, [C("9D", "3S", "KC"), C("9S", "8D", "2H"), C("TD", "9H", "4C"), C("AS", "5H", "6C")])
    assert st.current_player() == N and set(st.legal_actions()) == set(C("9D", "3S", "KC")), "any card may open"
    assert st.view(N).opening_rank == -1
    st.apply_action(parse_card("9D"))
    assert st.view(E).opening_rank == 7  # the nines open every row
    assert set(st.legal_actions()) == set(C("9S", "8D"))
    assert st.why_illegal(parse_card("2H")) == "the hearts row is not open: only its 9 can open it"
    st.apply_action(parse_card("8D"))
    assert set(st.legal_actions()) == set(C("TD", "9H"))
    # a searching player rebuilds the position from its view, opening rank included
    from kierki_dsl.interpreter.layout import LayoutDeal

    view = st.view(S)
    again = lot.from_view(view, [st.hands[i] for i in range(4)])
    assert again.legal_actions() == st.legal_actions() and again.start == 7
    # records replay through the free start
    runner = MatchRunner(rs, [make_player(n) for n in ("search:8", "heuristic", "random", "random")], seed=9)
    results = list(runner.deals())
    assert sum(results[-1].totals) == 0
    report = replay(rs, match_record(rs, 9, runner.first_dealer, results))
    assert report.ok and report.deals[-1]["scores"] == list(results[-1].scores)


def test_the_extra_card_after_an_ace_may_be_declined_free_or_be_compulsory(tmp_path):
    """V17 as PL-BOOK has it: the player may play one more card, "though he is not obliged
    to" — declining costs nothing and play moves on; `again_optional: false` forces it."""
    rs = load("fantan_extra_turn")
    lot = rs.contracts["loteryjka"]
    st = lot.new_deal(4, rs.deck, W, [C("2S", "QH"), C("AS", "8S", "3H"), C("JD", "4H"), C("KC", "5H")])
    st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=N)
    st.apply_action(parse_card("2S"))
    st.apply_action(parse_card("AS"))
    assert st.current_player() == E and PASS in st.legal_actions()
    st.apply_action(PASS)
    assert st.current_player() == S and st.returns() == [0, 0, 0, 0] and st.pool == 0
    assert st.legal_actions() == [PASS], "S has nothing to play: an ordinary pass"
    st.apply_action(st.legal_actions()[0])
    assert st.current_player() == W
    forced = tmp_path / "forced.yaml"
    forced.write_text(f"kierki: 1\nextends: {VARIANTS / 'fantan_extra_turn.yaml'}\nname: forced\n"
                      "contracts:\n  loteryjka:\n    again_optional: false\n", "utf-8")
    lot = Ruleset.load(str(forced)).contracts["loteryjka"]
    st = lot.new_deal(4, rs.deck, W, [C("2S", "QH"), C("AS", "8S", "3H"), C("JD", "4H"), C("KC", "5H")])
    st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=N)
    st.apply_action(parse_card("2S"))
    st.apply_action(parse_card("AS"))
    assert st.current_player() == E and st.legal_actions() == C("8S"), "compulsory when able"


def test_fantan_extra_turn_after_an_ace():
    rs = load("fantan_extra_turn")
    lot = rs.contracts["loteryjka"]
    # ace low: the spade row runs A..K from the 7; N plays 2S, E plays AS and goes again
    st = lot.new_deal(4, rs.deck, W, [C("2S", "QH"), C("AS", "8S", "3H"), C("JD", "4H"), C("KC", "5H")])
    st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=N)
    st.apply_action(parse_card("2S"))
    assert st.current_player() == E
    st.apply_action(parse_card("AS"))
    assert st.current_player() == E and st.legal_actions() == C("8S") + [PASS], "an extra card after the ace, if he likes"
    st.apply_action(parse_card("8S"))
    assert st.current_player() == S
    # with nothing to play on the extra turn, the player passes and play moves on
    st = lot.new_deal(4, rs.deck, W, [C("2S", "QH"), C("AS", "3H"), C("JD", "4H"), C("KC", "5H")])
    st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=N)
    st.apply_action(parse_card("2S"))
    st.apply_action(parse_card("AS"))
    assert st.current_player() == E and st.legal_actions() == [PASS]
    st.apply_action(PASS)
    assert st.current_player() == S
    std = load("standard").contracts["loteryjka"]
    st = std.new_deal(4, rs.deck, W, [C("2S", "QH"), C("AS", "8S", "3H"), C("JD", "4H"), C("KC", "5H")])
    st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=N)
    st.apply_action(parse_card("2S"))
    st.apply_action(parse_card("AS"))
    assert st.current_player() == S, "no extra turn in the standard game"


def test_four_series_each_start_with_the_next_dealer():
    rs = load("four_series")
    runner = MatchRunner(rs, [make_player("random") for _ in range(4)], seed=3)
    results = list(runner.deals())
    assert len(results) == 48 and sum(results[-1].totals) == 0
    first = runner.first_dealer
    assert [results[12 * s].dealer for s in range(4)] == [(first + s) % 4 for s in range(4)]
    assert [r.contract.name for r in results[12:24]] == [c.name for c in rs.schedule]
    for s in range(4):  # within a series the deal passes on as usual
        assert [r.dealer for r in results[12 * s:12 * s + 12]] == [(first + s + j) % 4 for j in range(12)]
    # every player deals every one of the twelve deals once
    assert all({r.dealer for r in results if (r.number - 1) % 12 == j} == {0, 1, 2, 3} for j in range(12))
    report = replay(rs, match_record(rs, 3, first, results))
    assert report.ok
    assert load("walc_chapanka").series == 4


def test_series_and_until_do_not_mix(tmp_path):
    from kierki_dsl.lint import lint_file

    p = tmp_path / "both.yaml"
    p.write_text("kierki: 1\nextends: " + str(STANDARD) + "\nname: both\nmatch:\n  series: 2\n"
                 "  until: lowest_total <= -100\n", "utf-8")
    found = [d for d in lint_file(str(p)) if d.code == "S210"]
    assert found and "either 'series' or 'until'" in found[0].message and found[0].pos.line == 5


def test_fantan_three_free_passes():
    rs = load("fantan_three_passes")
    lot = rs.contracts["loteryjka"]
    st = lot.new_deal(4, rs.deck, W, [C("7S", "8S"), C("7H", "8H", "9H", "TH"), C("7D", "8D", "9D", "TD"),
                                      C("7C", "8C", "9C", "TC")])
    for rank in "789":
        assert st.current_player() == N and st.legal_actions() == C("7S") + [PASS]
        st.apply_action(PASS)
        for suit in "HDC":
            st.apply_action(parse_card(rank + suit))
    assert st.legal_actions() == C("7S"), "three passes used up: now N must play"
    assert st.why_illegal(PASS) == "you must play when you can"
    assert st.view(N).free_passes_left == (0, 3, 3, 3)


def test_fantan_pass_pool_goes_to_the_next_player_out():
    rs = load("fantan_pass_pool")
    lot = rs.contracts["loteryjka"]
    st = lot.new_deal(4, rs.deck, W, [C("7S", "2H"), C("7H", "3H"), C("2D", "3D"), C("7C", "3C")])
    st.apply_action(PASS)  # N could play 7S: 10 + 20
    st.apply_action(parse_card("7H"))
    st.apply_action(PASS)  # S cannot play: 10
    assert st.scores == [-30, 0, -10, 0] and st.view(E).pool == 40
    # a whole deal: N passes once while able, then everyone plays the lowest legal card
    for dealer in range(4):
        st = lot.new_deal(4, rs.deck, dealer, deal_out(list(range(52)), dealer, 4))
        st.apply_action(PASS)
        assert st.scores[(dealer + 1) % 4] == -30
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply_action(min(a for a in legal if a != PASS) if legal != [PASS] else PASS)
        assert sum(st.returns()) == 1300, "passes move points, they do not make or lose any"
        assert st.returns()[st.finished[0]] > 800


def test_four_lotteries():
    rs = load("four_lotteries")
    assert [c.type for c in rs.schedule].count("layout") == 4 and len(rs.schedule) == 15
    results = list(MatchRunner(rs, [make_player("simple") for _ in range(4)], seed=4).deals())
    assert [sum(r.scores) for r in results[11:]] == [325, 325, 325, 325]
    assert sum(results[-1].totals) == 0


def test_six_negative_deals():
    rs = load("six_negative_deals")
    assert [c.name for c in rs.schedule] == ["bez_lew", "bez_kierow", "bez_dam", "bez_panow", "bez_krola_kier",
                                             "bez_siodmej_i_ostatniej", "atu", "atu", "atu", "atu"]
    assert "rozbojnik" not in rs.contracts


def test_three_players():
    rs = load("three_players")
    assert rs.players == 3 and rs.hand_size == 17 and not rs.deck >> parse_card("2C") & 1
    results = list(MatchRunner(rs, [make_player("random") for _ in range(3)], seed=8).deals())
    assert all(len(h) == 17 for h in results[0].dealt)
    assert [sum(r.scores) for r in results] == [-255, -260, -240, -240, -140, -140, -1275, 425, 425, 425, 1275]
    assert sum(results[-1].totals) == 0
    assert sorted(r.caller for r in results[7:10]) == [0, 1, 2]
    rs = load("three_players_three_lotteries")
    results = list(MatchRunner(rs, [make_player("random") for _ in range(3)], seed=8).deals())
    assert [sum(r.scores) for r in results] == [-255, -260, -240, -240, -140, -140, -1275, 425, 425, 425, 425, 425, 425]
    st = rs.contracts["bez_siodmej_i_ostatniej"].new_deal(3, rs.deck, 0, [[c for c in range(52) if c != 0][i::3]
                                                                         for i in range(3)])
    trick = P((1, "AS"), (2, "3S"), (0, "4S"))
    assert [st.trick_value(trick, n)[1] for n in (15, 16, 17)] == [0, -70, -70]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), which=st.sampled_from(["bez_kierow", "bez_dam", "bez_panow", "bez_krola_kier"]))
def test_early_stop_is_score_neutral(seed, which):
    """The same deal played with the same choices: early stop ends sooner, never scores differently."""
    std, early = load("standard"), load("early_stop")
    import random

    order = shuffled(random.Random(seed), std.deck)
    a = std.contracts[which].new_deal(4, std.deck, N, deal_out(order, N, 4))
    b = early.contracts[which].new_deal(4, early.deck, N, deal_out(order, N, 4))
    rng = random.Random(seed + 1)
    while not a.is_terminal():
        action = rng.choice(a.legal_actions())
        if not b.is_terminal():
            assert action in b.legal_actions()
            b.apply_action(action)
        a.apply_action(action)
    assert b.returns() == a.returns()
    assert len(b.actions) <= len(a.actions)
    assert b.ended_early == (len(b.actions) < len(a.actions))


def test_early_stop_ends_deal_3_after_the_fourth_queen():
    rs = load("early_stop")
    results = list(MatchRunner(rs, [make_player("random") for _ in range(4)], seed=2).deals())
    for r in results[:7]:
        if r.contract.name in ("bez_lew", "bez_siodmej_i_ostatniej", "rozbojnik"):
            assert len(r.plays) == 52, "deals 1, 6 and 7 always reach trick 13"
    dam = results[2]
    queens = {parse_card(q) for q in ("QS", "QH", "QD", "QC")}
    played = [parse_card(p) for p in dam.plays]
    last_queen = max(i for i, c in enumerate(played) if c in queens)
    assert len(played) == (last_queen // 4 + 1) * 4, "the deal ends with the trick that took the last queen"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_random_matches_over_every_ruleset(path):
    rs = Ruleset.load(str(path))
    for seed in (1, 2):
        runner = MatchRunner(rs, [make_player(n) for n in ("simple", "random", "simple", "random")[: rs.players]], seed)
        results = list(runner.deals())
        assert len(results) == len(rs.schedule) * rs.series or rs.until is not None
        for r in results:
            assert sorted(c for h in r.dealt for c in h) == sorted(c for c in range(52) if rs.deck >> c & 1)
            plays = [parse_card(p) for p in r.plays if p != "pass"]
            assert len(plays) == len(set(plays))
            if r.contract.total is not None:
                assert sum(r.scores) == r.contract.total, (path.stem, r.contract.name)
        if rs.total is not None:
            assert sum(results[-1].totals) == rs.total
        report = replay(rs, match_record(rs, seed, runner.first_dealer, results))
        assert report.ok, [str(v) for v in report.violations]
        assert [d["scores"] for d in report.deals] == [list(r.scores) for r in results]


def test_findings_point_into_the_file_the_value_came_from(tmp_path, cli):
    """A variant's own mistakes are reported in the variant; inherited ones in the base."""
    base = tmp_path / "base.yaml"
    base.write_text(STANDARD.read_text("utf-8").replace("points: -60", "points: -60 * unknown_name"), "utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text(
        "kierki: 1\nextends: base.yaml\nname: v\ncontracts:\n  bez_panow:\n    total: -240\n"
        "    score:\n      - per_card: card.rank == J\n        points: -30\n", "utf-8")
    rc, out, err = cli("lint", str(variant))
    assert rc == 1
    lines = [l for l in err.splitlines() if ": error: " in l]
    assert any(l.startswith(f"{base}:") and "unknown name 'unknown_name'" in l for l in lines), lines
    assert any(l.startswith(f"{variant}:6:12: error: M601") for l in lines), lines


def test_runtime_errors_point_into_the_variant(tmp_path, cli):
    variant = tmp_path / "v.yaml"
    variant.write_text(
        f"kierki: 1\nextends: {STANDARD}\nname: v\ncontracts:\n  bez_lew:\n    total: null\n    score:\n"
        "      - per_seat: \"100 / (tricks_taken - tricks_taken)\"\n", "utf-8")
    rc, out, err = cli("run", str(variant), "--seed", "1")
    assert rc == 1 and err.startswith(f"{variant}:8:") and "X701 division by zero" in err


def test_extends_errors(tmp_path, cli):
    missing = tmp_path / "m.yaml"
    missing.write_text("kierki: 1\nextends: nowhere.yaml\nname: m\n", "utf-8")
    rc, out, err = cli("lint", str(missing))
    assert rc == 1 and f"{missing}:2:10: error: R504" in err
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("kierki: 1\nextends: b.yaml\nname: a\n", "utf-8")
    b.write_text("kierki: 1\nextends: a.yaml\nname: b\n", "utf-8")
    rc, out, err = cli("lint", str(a))
    assert rc == 1 and "R505 extends forms a cycle: a.yaml -> b.yaml -> a.yaml" in err
