"""Barbu's duties as data (issue 16): every other player doubles the declarer at least twice in
his seven contracts, and a negative contract nobody doubled is not played out but split."""
from __future__ import annotations

import random
from collections import Counter

from kierki_dsl.interpreter.actions import DONE, double
from kierki_dsl.interpreter.doubling import BettingRound, remember, split_total
from kierki_dsl.interpreter.match import MatchRunner, deal_out, shuffled
from kierki_dsl.players.base import make_player
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS

BARBU = Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))


def test_an_undoubled_negative_contract_is_split_not_played():
    assert split_total(-26, 2, 4) == [-9, -9, 1, -9] and split_total(-24, 0, 4) == [0, -8, -8, -8]
    contract = BARBU.contracts["no_tricks"]
    st = contract.new_deal(4, BARBU.deck, 0, deal_out(shuffled(random.Random(1), BARBU.deck), 0, 4), 1, 1, {})
    while st.phase == "double":
        st.apply_action(DONE)
    assert st.is_terminal() and st.returns() == [1, -9, -9, -9] and st.record_plays() == []
    doubled = contract.new_deal(4, BARBU.deck, 0, deal_out(shuffled(random.Random(1), BARBU.deck), 0, 4), 1, 1, {})
    doubled.apply_action(double(0))
    assert doubled.phase == "double" and not doubled.is_terminal(), "one double and the deal is played"


def test_a_seat_that_owes_doubles_may_not_say_done():
    rule = BARBU.contracts["no_tricks"].doubling
    memory: dict = {}
    for number in range(1, 6):  # five deals by dealer 0: seat 1 doubled him once, seat 2 twice, seat 3 never
        bets = {(1, 0): 1} if number == 1 else {(2, 0): 1} if number in (2, 3) else {}
        remember(rule, memory, 0, number, bets)
    rnd = BettingRound(rule, 4, 0, 1, memory, 6)  # two deals left: seat 3 owes two doubles, seat 1 one
    assert (rnd.owed, rnd.deals_left) == ([0, 1, 0, 2], 2)
    assert rnd.seat == 1 and DONE in rnd.legal(), "one double owed, two deals left: not forced yet"
    rnd.apply(DONE)
    assert rnd.seat == 2 and DONE in rnd.legal()
    rnd.apply(DONE)
    assert rnd.seat == 3 and DONE not in rnd.legal() and double(0) in rnd.legal()
    assert "must double the dealer (seat 0) 2 more time(s)" in rnd.why_illegal(DONE)
    rnd.apply(double(0))
    assert DONE in rnd.legal(), "once the dealer is doubled the seat may stop"
    remember(rule, memory, 0, 6, {(3, 0): 1})
    last = BettingRound(rule, 4, 0, 1, memory, 7)
    assert (last.owed, last.deals_left) == ([0, 1, 0, 1], 1)
    remember(rule, memory, 0, 7, {})
    assert BettingRound(rule, 4, 0, 1, memory, 29).owed == [0, 2, 2, 2], "the next run of deals starts afresh"


def test_every_declarer_is_doubled_twice_by_each_player_and_the_record_replays():
    players = [make_player(p) for p in ("random", "heuristic", "random", "heuristic")]
    runner = MatchRunner(BARBU, players, seed=5)
    results = list(runner.deals())
    assert len(results) == 28
    for start in range(0, 28, 7):
        run = results[start : start + 7]
        dealer = run[0].dealer
        counts = Counter(a for r in run for a, b, _ in r.wagers if b == dealer)
        assert all(counts[s] >= 2 for s in range(4) if s != dealer), (dealer, counts)
    unplayed = [r for r in results if not r.plays]
    assert all(r.contract.total < 0 and not r.wagers for r in unplayed)
    assert sum(results[-1].totals) == 0
    report = replay(BARBU, match_record(BARBU, 5, runner.first_dealer, results))
    assert report.ok, [str(v) for v in report.violations]


def test_explain_and_diff_read_the_duties_and_exposures():
    import contextlib
    import io

    from kierki_dsl.entry import main

    golden = RULESETS.parent / "tests" / "data" / "golden" / "matches"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["explain", str(RULESETS / "games" / "barbu.yaml")]) == 0
        assert main(["diff", str(golden / "barbu_as_before.yaml"), str(RULESETS / "games" / "barbu.yaml")]) == 0
        assert main(["diff", str(golden / "trix_as_before.yaml"), str(RULESETS / "games" / "trix.yaml")]) == 0
    text = out.getvalue()
    assert "duty: each player who may double the dealer must do so at least 2 times in the 7 deals" in text
    assert "contract No tricks, undoubled: (nothing) → if nobody doubles, the deal is not played" in text
    assert "contract Damy — Queens, exposure: (nothing) → before play each player in turn may expose" in text


def test_the_terminal_says_a_double_is_owed():
    import io

    from kierki_dsl.players.human import HumanPlayer

    contract = BARBU.contracts["no_tricks"]
    memory: dict = {}
    for number in range(1, 7):
        remember(contract.doubling, memory, 0, number, {(1, 0): 1, (2, 0): 1} if number < 3 else {})
    st = contract.new_deal(4, BARBU.deck, 0, deal_out(shuffled(random.Random(2), BARBU.deck), 0, 4), 1, 7, memory)
    while st.current_player() != 3:
        st.apply_action(DONE)
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("done\n1\n"), stdout=out, ruleset=BARBU)
    human.reset(0, 3, BARBU)
    assert human.act(st.view(3)) == double(0)
    assert "You owe the dealer (N) a double" in out.getvalue()


def test_search_weighs_the_split_of_an_undoubled_deal():
    from kierki_dsl.interpreter.doubling import BettingRound as Round
    from kierki_dsl.players.search import sample_hands

    contract = BARBU.contracts["no_queens"]
    st = contract.new_deal(4, BARBU.deck, 0, deal_out(shuffled(random.Random(4), BARBU.deck), 0, 4), 1, 1, {})
    view = st.view(st.current_player())
    again = contract.from_view(view, sample_hands(view, random.Random(1)))
    again.betting = Round.settled((), 4)
    again.play_from_start()
    assert again.is_terminal() and again.returns() == [0, -8, -8, -8], "no bet: the deal is split, not played"
    again = contract.from_view(view, sample_hands(view, random.Random(1)))
    again.betting = Round.settled(((1, 0, 1),), 4)
    again.play_from_start()
    assert again.phase == "play"


def test_lint_locates_a_duty_that_cannot_work(tmp_path):
    from kierki_dsl.lint import lint_file

    path = tmp_path / "duty.yaml"
    path.write_text(f"kierki: 1\nextends: {RULESETS / 'games' / 'barbu.yaml'}\nname: bad duties\ncontracts:\n"
                    "  no_tricks: {doubling: {duty: {times: 2, deals: 6}}}\n"
                    "  no_queens: {doubling: {duty: {times: 8, deals: 7}}}\n"
                    "  barbu: {total: null}\n", "utf-8")
    found = {(d.pos.line, d.severity, d.message[:30]) for d in lint_file(str(path)) if d.code == "M632"}
    assert found == {(5, "warning", "the duty counts runs of 6 deal"), (6, "error", "8 doubles cannot be made in 7 "),
                     (7, "error", "an undoubled deal is split by ")}
