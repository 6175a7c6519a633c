"""barbu.app's stricter duty (issue 16): each player doubles every other player at least twice
in a game (`duty: {of: every, over: 28}`), not only the declarer twice in his own seven deals."""
from __future__ import annotations

import io
from collections import Counter

from kierki_dsl.interpreter.actions import DONE, double
from kierki_dsl.interpreter.doubling import BettingRound, remember
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.lint import lint_file
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS

APP = Ruleset.load(str(RULESETS / "games" / "barbu_app.yaml"))
BARBU = Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))


def _history(early_doubles_of_3: tuple) -> dict:
    """Deals 1..26 of a game whose first dealer is 0 (runs of 7: seat 3 deals 22..28). Every
    seat doubles each other seat in the first two deals of that seat's run, except seat 1,
    which doubles seat 3 only in ``early_doubles_of_3`` (deals of seat 0's run) — never in seat
    3's own run."""
    bets_by_deal: dict = {}
    for target in range(4):
        first = 1 + 7 * target
        for doubler in range(4):
            if doubler == target or (doubler, target) == (1, 3):
                continue
            for number in (first, first + 1):
                bets_by_deal.setdefault(number, {})[(doubler, target)] = 1
    for number in early_doubles_of_3:
        bets_by_deal.setdefault(number, {})[(1, 3)] = 1
    return bets_by_deal


def _round(rs, bets_by_deal: dict, number: int) -> BettingRound:
    rule = rs.contracts["no_tricks"].doubling
    memory: dict = {}
    for n in range(1, number):
        remember(rule, memory, (n - 1) // 7, n, bets_by_deal.get(n, {}))
    rnd = BettingRound(rule, 4, 3, 1, memory, number)
    assert rnd.seat == 0 and DONE in rnd.legal()
    rnd.apply(DONE)
    assert rnd.seat == 1
    return rnd


def test_doubles_made_before_the_declarers_run_count_for_the_whole_game():
    """Seat 1 doubled seat 3 twice early in the game, never in seat 3's run. Barbu (Wikipedia)
    makes him double seat 3 in deal 27, with two deals of the run left; barbu.app's duty is
    already met, so he may say done."""
    history = _history((2, 3))
    wiki = _round(BARBU, history, 27)
    assert DONE not in wiki.legal() and "must double the dealer (seat 3) 2 more time(s)" in wiki.why_illegal(DONE)
    app = _round(APP, history, 27)
    assert DONE in app.legal() and app.owed_every[1] == [0, 0, 0, 0]


def test_a_double_still_owed_is_forced_in_the_targets_last_deals():
    history = _history((2,))  # seat 1 doubled seat 3 once in the game
    app27 = _round(APP, history, 27)
    assert app27.owed_every[1][3] == 1 and app27.chances[3] == 2 and DONE in app27.legal()
    app28 = _round(APP, history, 28)
    assert DONE not in app28.legal() and double(3) in app28.legal(), "seat 3's last deal: the double owed is due"
    assert app28.why_illegal(DONE) == ("you must double seat 3 1 more time(s) in this game, and he deals 1 deal(s) "
                                       "of it from this one on: double him before saying done")
    app28.apply(double(3))
    assert DONE in app28.legal(), "once he has doubled seat 3 he may stop"
    assert BettingRound(APP.contracts["no_tricks"].doubling, 4, 0, 1, {}, 29).owed_every[1] == [2, 0, 2, 2], \
        "the next game starts afresh"


def test_every_player_doubles_every_other_twice_and_the_record_replays():
    players = [make_player(p) for p in ("heuristic", "heuristic", "random", "heuristic")]
    runner = MatchRunner(APP, players, seed=3)
    results = list(runner.deals())
    made = Counter((a, b) for r in results for a, b, _ in r.wagers)
    assert all(made[(a, b)] >= 2 for a in range(4) for b in range(4) if a != b), made
    report = replay(APP, match_record(APP, 3, runner.first_dealer, results))
    assert report.ok, [str(v) for v in report.violations]


def test_lint_explain_and_the_prompt(cli, tmp_path):
    assert lint_file(str(RULESETS / "games" / "barbu_app.yaml")) == []
    rc, out, _ = cli("diff", str(RULESETS / "games" / "barbu.yaml"), str(RULESETS / "games" / "barbu_app.yaml"))
    assert "each player must double every other player at least 2 times in every 28 deals" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"kierki: 1\nextends: {RULESETS / 'games' / 'barbu_app.yaml'}\nname: bad\ncontracts:\n"
                   "  trumps:\n    doubling: {may_double: target != dealer, duty: {times: 2, deals: 7, of: every, "
                   "over: 30}}\n", "utf-8")
    found = [(d.code, d.pos.line, d.severity) for d in lint_file(str(bad))]
    assert ("M632", 6, "error") in found, found  # 30 deals are not whole runs of 7
    bad.write_text(bad.read_text("utf-8").replace("over: 30", "over: 28"), "utf-8")
    found = [(d.code, d.pos.line, d.severity) for d in lint_file(str(bad))]
    assert found == [("M632", 6, "warning")], "nobody may double the declarer: the duty may go unmet"
    rnd_history = _history((2,))
    contract = APP.contracts["no_tricks"]
    memory: dict = {}
    for n in range(1, 28):
        remember(contract.doubling, memory, (n - 1) // 7, n, rnd_history.get(n, {}))
    from kierki_dsl.interpreter.match import deal_out

    st = contract.new_deal(4, APP.deck, 3, deal_out(list(range(52)), 3, 4), 1, 28, memory)
    st.apply_action(DONE)
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("done\n3\n"), stdout=out, ruleset=APP)
    human.reset(0, 1, APP)
    assert human.act(st.view(1)) == double(3)
    assert "You owe a player doubles under the duty to double every player" in out.getvalue()
