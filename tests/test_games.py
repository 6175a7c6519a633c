"""Other compendium games written only as data: Brazilian King, classic Hearts, Trix, Barbu."""
from __future__ import annotations

import copy

from kierki_dsl.cards import SUIT_MASK, parse_card
from kierki_dsl.interpreter.actions import DONE, call, double, redouble
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import ROOT, RULESETS

GAMES = RULESETS / "games"
N, E, S, W = 0, 1, 2, 3


def load(name):
    return Ruleset.load(str(GAMES / f"{name}.yaml"))


def C(*names):
    return [parse_card(n) for n in names]


def P(*pairs):
    return [(s, parse_card(c)) for s, c in pairs]


def run(rs, seed, names=("simple", "random", "simple", "random")):
    runner = MatchRunner(rs, [make_player(n) for n in names], seed)
    return runner, list(runner.deals())


def test_king_last_two_tricks_and_forced_king_of_hearts():
    rs = load("king_brazil")
    spread = [list(range(i, 52, 4)) for i in range(4)]
    last_two = rs.contracts["duas_ultimas"].new_deal(4, rs.deck, N, spread)
    trick = P((N, "AS"), (E, "2S"), (S, "3S"), (W, "4S"))
    assert [last_two.trick_value(trick, n)[1] for n in (11, 12, 13)] == [0, -90, -90]
    st = rs.contracts["rei_de_copas"].new_deal(4, rs.deck, W, [C("2D", "4C"), C("KH", "9S"), C("3D", "5C"), C("4D", "6C")])
    assert st.current_player() == W, "the dealer leads"
    st.apply_action(parse_card("4D"))
    st.apply_action(parse_card("2D"))
    assert st.legal_actions() == C("KH"), "void in diamonds: the king of hearts must go"
    runner, results = run(rs, 3)
    assert [sum(r.scores) for r in results] == [-260, -260, -200, -240, -160, -180, 325, 325, 325, 325]
    assert sum(results[-1].totals) == 0


def test_hearts_passing_rotation():
    rs = load("hearts")
    contract = rs.contracts["hand"]
    for number, offset in ((1, 1), (2, 3), (3, 2), (4, 0), (5, 1)):
        dealt = [list(range(i, 52, 4)) for i in range(4)]
        st = contract.new_deal(4, rs.deck, W, dealt, 1, number)
        if offset == 0:
            assert st.phase == "play"
            continue
        assert st.phase == "pass" and st.current_player() == N
        passed = {}
        while st.phase == "pass":
            seat = st.current_player()
            card = st.legal_actions()[-1]
            passed.setdefault(seat, []).append(card)
            st.apply_action(card)
        for seat, cards in passed.items():
            receiver = (seat + offset) % 4
            assert all(st.hands[receiver] >> c & 1 for c in cards)
            assert all(not st.hands[seat] >> c & 1 for c in cards)
        assert all(h.bit_count() == 13 for h in st.hands)


def test_hearts_first_trick_and_broken_hearts():
    rs = load("hearts")
    contract = rs.contracts["hand"]
    dealt = [C("2C", "AH", "QS", "3D"), C("AC", "2H", "4D", "5D"), C("KH", "6D", "7D", "8D"), C("QH", "9D", "TD", "JD")]
    st = contract.new_deal(4, rs.deck, W, dealt, 1, 4)  # deal 4: no passing
    assert st.current_player() == N and st.legal_actions() == C("2C")
    st.apply_action(parse_card("2C"))
    st.apply_action(parse_card("AC"))
    assert st.legal_actions() == C("6D", "7D", "8D"), "no hearts on the first trick"
    st.apply_action(parse_card("6D"))
    st.apply_action(parse_card("9D"))
    assert st.current_player() == E
    assert st.legal_actions() == C("4D", "5D"), "hearts are not broken yet"
    assert st.why_illegal(parse_card("2H")) == "hearts may not be led until a heart has been played"


def test_hearts_shooting_the_moon():
    rs = load("hearts")
    clubs = [c for c in range(52) if SUIT_MASK[3] >> c & 1]
    rest = [c for c in range(52) if c not in clubs]
    dealt = [clubs, rest[0:13], rest[13:26], rest[26:39]]
    st = rs.contracts["hand"].new_deal(4, rs.deck, W, dealt, 1, 4)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.tricks_won == [13, 0, 0, 0]
    assert st.returns() == [0, -26, -26, -26]


def test_hearts_plays_until_minus_100():
    rs = load("hearts")
    runner, results = run(rs, 6)
    assert min(results[-1].totals) <= -100
    assert all(min(r.totals) > -100 for r in results[:-1])
    report = replay(rs, match_record(rs, 6, runner.first_dealer, results))
    assert report.ok and report.totals == list(results[-1].totals)


def test_trix_kingdoms():
    rs = load("trix")
    assert rs.direction == -1
    runner, results = run(rs, 2)
    assert len(results) == 20 and sum(results[-1].totals) == 0
    for kingdom in range(4):
        deals = results[kingdom * 5 : kingdom * 5 + 5]
        assert len({r.dealer for r in deals}) == 1, "the owner deals his five contracts"
        assert sorted(r.contract.name for r in deals) == ["diamonds", "king", "ltoosh", "queens", "trix"]
        assert sum(sum(r.scores) for r in deals) == 0
    owners = [results[k * 5].dealer for k in range(4)]
    assert owners == [(owners[0] - k) % 4 for k in range(4)], "kingdoms pass counter-clockwise"
    rec = match_record(rs, 2, runner.first_dealer, results)
    assert replay(rs, rec).ok
    bad = copy.deepcopy(rec)
    bad["deals"][1]["contract"] = bad["deals"][0]["contract"]
    report = replay(rs, bad)
    assert not report.ok and report.violations[0].deal == 2 and "already chose" in report.violations[0].message


def test_trix_layout_opens_with_jacks_counter_clockwise():
    rs = load("trix")
    lot = rs.contracts["trix"]
    st = lot.new_deal(4, rs.deck, N, [C("JS", "2D"), C("JH", "3D"), C("JD", "4D"), C("JC", "5D")], -1)
    assert st.current_player() == N and st.legal_actions() == C("JS")
    st.apply_action(parse_card("JS"))
    assert st.current_player() == W, "counter-clockwise: West plays after North"


def test_barbu_declarers_choose_each_contract_once():
    rs = load("barbu")
    runner, results = run(rs, 6)
    assert len(results) == 28 and sum(results[-1].totals) == 0
    names = ["barbu", "domino", "no_hearts", "no_last_two", "no_queens", "no_tricks", "trumps"]
    for k in range(4):
        deals = results[k * 7 : k * 7 + 7]
        assert len({r.dealer for r in deals}) == 1, "one declarer for seven deals"
        assert sorted(r.contract.name for r in deals) == names
        assert sum(sum(r.scores) for r in deals) == 0, "each declarer's seven contracts sum to zero"
    assert replay(rs, match_record(rs, 6, runner.first_dealer, results)).ok


def no_bets(st):
    """Every seat says done in the doubling round."""
    while st.phase == "double":
        st.apply_action(DONE)
    return st


def _barbu_played_undoubled():
    """Barbu with its doubling as before the duties (a fixture of the golden records): an
    undoubled negative contract is played, so its play can be pinned without bets
    (test_duties.py pins the duties)."""
    return Ruleset.load(str(ROOT / "tests" / "data" / "golden" / "matches" / "barbu_as_before.yaml"))


def test_barbu_contracts():
    rs = _barbu_played_undoubled()
    spread = [list(range(i, 52, 4)) for i in range(4)]
    hearts = no_bets(rs.contracts["no_hearts"].new_deal(4, rs.deck, N, spread))
    assert hearts.current_player() == N, "the declarer leads"
    assert hearts.trick_value(P((N, "AH"), (E, "2H"), (S, "3C"), (W, "4D")), 1) == (N, -8)
    last_two = no_bets(rs.contracts["no_last_two"].new_deal(4, rs.deck, N, spread))
    trick = P((N, "AS"), (E, "2S"), (S, "3S"), (W, "4S"))
    assert [last_two.trick_value(trick, n)[1] for n in (11, 12, 13)] == [0, -10, -20]
    # trumps: the declarer names them seeing his whole hand; on a trump lead, overtrump if able
    st = rs.contracts["trumps"].new_deal(4, rs.deck, W, [C("5S", "2C"), C("9S", "4S", "3C"), C("KD", "2D"), C("3D", "QD")])
    assert st.current_player() == W and st.view(W).hand.bit_count() == 2
    st.apply_action(call(0))  # spades
    no_bets(st)
    st.apply_action(parse_card("3D"))
    assert st.current_player() == N and set(st.legal_actions()) == set(C("5S", "2C")), "no duty to ruff"
    st = rs.contracts["trumps"].new_deal(4, rs.deck, N, [C("5S", "2C"), C("9S", "4S", "3C"), C("KD", "2D"), C("3D", "QD")])
    st.apply_action(call(0))
    no_bets(st)
    st.apply_action(parse_card("5S"))
    assert st.legal_actions() == C("9S"), "a trump lead: must overtrump when able"
    # the barbu ends as soon as the king of hearts is taken
    st = no_bets(rs.contracts["barbu"].new_deal(4, rs.deck, N, [C("AC", "2D"), C("KH", "5D"), C("3C", "3D"), C("4C", "4D")]))
    for c in ("AC", "KH", "3C", "4C"):
        st.apply_action(parse_card(c))
    assert st.is_terminal() and st.returns() == [-20, 0, 0, 0]
    # the domino: the declarer opens with any card
    dom = no_bets(rs.contracts["domino"].new_deal(4, rs.deck, E, [C("2S", "9D"), C("AS", "8D"), C("TD", "4H"), C("KC", "5H")]))
    assert dom.current_player() == E and set(dom.legal_actions()) == set(C("AS", "8D"))


def test_barbu_doubling_round_and_settlement():
    rs = _barbu_played_undoubled()
    hands = [C("AC", "2D"), C("KC", "5D"), C("3C", "3D"), C("4C", "4D")]
    st = rs.contracts["no_tricks"].new_deal(4, rs.deck, W, hands)  # W declares, N bets first
    assert st.phase == "double" and st.current_player() == N
    assert st.legal_actions() == [double(E), double(S), double(W), DONE]
    st.apply_action(double(W))
    assert st.legal_actions() == [double(E), double(S), DONE], "each seat once"
    st.apply_action(DONE)
    st.apply_action(double(N))  # E doubles N
    st.apply_action(DONE)
    st.apply_action(DONE)  # S; the declarer W may not double, so his turn is skipped
    # redoubles: N (doubled by E) first, then W (doubled by N)
    assert st.current_player() == N and st.legal_actions() == [redouble(E), DONE]
    st.apply_action(DONE)
    assert st.current_player() == W and st.legal_actions() == [redouble(N), DONE]
    assert "a bet is expected" in st.why_illegal(parse_card("4C"))
    st.apply_action(redouble(N))
    assert st.phase == "play" and st.current_player() == W
    assert st.view(S).bets == ((N, W, 2), (E, N, 1))
    for c in ("4C", "AC", "KC", "3C", "2D", "5D", "3D", "4D"):
        st.apply_action(parse_card(c))
    # N and E took a trick each (-2); E doubled N: equal scores, nothing moves; N doubled W
    # and W redoubled: twice the difference (-2 - 0), 4 points, goes from N to W
    assert st.returns() == [-6, -2, 0, 4] and sum(st.returns()) == -4
    # positive contracts: only the declarer may be doubled, and only he redoubles
    st = rs.contracts["domino"].new_deal(4, rs.deck, W, [C("2S", "9D"), C("AS", "8D"), C("TD", "4H"), C("KC", "5H")])
    assert st.current_player() == N and st.legal_actions() == [double(W), DONE]


def test_barbu_records_keep_the_bets():
    rs = load("barbu")
    runner, results = run(rs, 11, names=("heuristic",) * 4)
    assert any("double" in b for r in results for b in r.bets), "strong hands double"
    rec = match_record(rs, 11, runner.first_dealer, results)
    assert replay(rs, rec).ok and sum(results[-1].totals) == 0
    k = next(i for i, d in enumerate(rec["deals"]) if any(b.startswith("double") for b in d.get("bets", [])))
    bad = copy.deepcopy(rec)
    bad["deals"][k]["bets"] = ["redouble:0"] + bad["deals"][k]["bets"]
    report = replay(rs, bad)
    assert not report.ok and report.violations[0].deal == k + 1 and "bet redouble:0 is illegal" in report.violations[0].message


def test_heuristic_doubles_only_a_strong_hand():
    from kierki_dsl.players.heuristic import HeuristicPlayer

    rs = load("barbu")
    low = [parse_card(c) for c in ("2S 3S 4S 5S 6S 2H 3H 4H 2D 3D 4D 2C 3C".split())]
    rest = [c for c in range(52) if c not in low]
    for hand, expected in ((low, double(E)), (rest[:13], DONE)):
        st = rs.contracts["no_tricks"].new_deal(4, rs.deck, W, [hand, rest[13:26], rest[26:39], rest[-13:]])
        p = HeuristicPlayer()
        p.reset(1, N, rs)
        assert p.act(st.view(N)) == expected


def test_barbu_bets_are_reported(cli):
    import json

    rc, out, err = cli("run", str(GAMES / "barbu.yaml"), "--seed", "4", "--players", "heuristic", "--format", "json")
    assert rc == 0, err
    deals = json.loads(out)["deals"]
    bets = [b for d in deals for b in d["bets"]]
    assert bets and all(set(b) == {"doubler", "target", "redoubled"} for b in bets)
    rc, text, _ = cli("run", str(GAMES / "barbu.yaml"), "--seed", "4", "--players", "heuristic")
    first = next(d for d in deals if d["bets"])
    b = first["bets"][0]
    assert f"bets: {'NESW'[b['doubler']]} {'redoubled' if b['redoubled'] else 'doubled'} {'NESW'[b['target']]}" in text
