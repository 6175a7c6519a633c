"""A match's first dealer named by an expression over the first deal's hands (issue 16):
Trix's first owner is the holder of 7♥ (`first_dealer: holder(7H)`)."""
from __future__ import annotations

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.match import Match, MatchRunner
from kierki_dsl.lint import lint_file
from kierki_dsl.players.base import make_player
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.simulate import FastMatch

from conftest import RULESETS

TRIX = RULESETS / "games" / "trix.yaml"
SEVEN_HEARTS = parse_card("7H")


def holder_of_7h(dealt) -> int:
    return next(s for s, hand in enumerate(dealt) if SEVEN_HEARTS in hand)


def test_the_holder_of_the_seven_of_hearts_owns_the_first_kingdom():
    rs = Ruleset.load(str(TRIX))
    assert rs.first_dealer is None and rs.first_dealer_text == "holder(7H)"
    random_first = Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))
    seen, drawn = set(), set()
    for seed in range(12):
        m = Match(rs, seed)
        assert m.first_dealer == m.dealer == holder_of_7h(m.dealt), seed
        seen.add(m.first_dealer)
        other = Match(random_first, seed)
        drawn.add(other.first_dealer == holder_of_7h(other.dealt))
    assert len(seen) > 1 and drawn == {True, False}, "a random first dealer often does not hold 7H"


def test_the_owner_keeps_his_five_deals_and_records_replay_and_check_him(tmp_path):
    rs = Ruleset.load(str(TRIX))
    runner = MatchRunner(rs, [make_player("heuristic") for _ in range(4)], seed=3)
    results = list(runner.deals())
    first = holder_of_7h(results[0].dealt)
    assert [r.dealer for r in results[:5]] == [first] * 5 and results[5].dealer == (first - 1) % 4
    record = match_record(rs, 3, runner.first_dealer, results)
    assert replay(rs, record).ok
    wrong = (first + 1) % 4
    for k, entry in enumerate(record["deals"]):
        entry["dealer"] = rs.dealer_of(wrong, k)
    report = replay(rs, record)
    assert not report.ok
    assert str(report.violations[0]).endswith(f"dealer is seat {wrong} but the first dealer is holder(7H): seat {first}")


def test_simulation_names_the_same_first_dealer():
    rs = Ruleset.load(str(TRIX))
    fast = FastMatch(rs)
    for seed in range(6):
        first, deals, _ = fast.play(seed)
        assert deals[0].dealer == first


def test_explain_diff_and_lint(cli, tmp_path):
    rc, out, _ = cli("explain", str(TRIX))
    assert rc == 0 and "the first dealer is the holder of 7H in the first deal" in out
    rc, out, _ = cli("diff", str(RULESETS / "games" / "barbu.yaml"), str(TRIX))
    assert "first dealer: chosen at random → the holder of 7H in the first deal" in out
    assert lint_file(str(TRIX)) == []
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"kierki: 1\nextends: {TRIX}\nname: bad\nmatch:\n  first_dealer: holder(7X)\n", "utf-8")
    found = lint_file(str(bad))
    assert [(d.code, d.pos.line) for d in found] == [("E301", 5)] and "match.first_dealer" in found[0].message


def test_the_game_adapter_names_the_same_first_dealer():
    """OpenSpiel/PettingZoo's game (chance deals each card): after the first deal's cards, the
    holder of 7H deals, and the deal passes on from him."""
    import random

    from kierki_dsl.adapters.game import GameSpec, GameState

    rs = Ruleset.load(str(TRIX))
    rng = random.Random(5)
    for _ in range(3):
        st = GameState(GameSpec.make(rs, scope="match"))
        while st.is_chance():
            st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
        assert st.dealer == st.first_dealer == holder_of_7h(st.dealt)
