"""One environment per expression scope: what lint checks is what run time provides."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from kierki_dsl.interpreter import scopes
from kierki_dsl.interpreter.envs import ENVIRONMENTS, NOBODY, declared_keys, seat_env

ROOT = Path(__file__).resolve().parent.parent


def _sample_args(fn) -> list:
    """Plausible values for every parameter of an environment constructor."""
    values = {"hands": [1, 2, 4, 8], "totals": [0, -20, 40, 0], "taken_all": [0, 0, 0, 0],
              "hearts_broken": False, "points_left": True}
    return [values.get(p, 1) for p in inspect.signature(fn).parameters]


@pytest.mark.parametrize("scope,make", ENVIRONMENTS, ids=[s.name for s, _ in ENVIRONMENTS])
def test_each_constructor_builds_exactly_the_names_its_scope_declares(scope, make):
    assert set(make(*_sample_args(make))) == declared_keys(scope)


def test_every_scope_of_ruleset_expressions_has_a_constructor():
    declared = {v.name for v in vars(scopes).values() if isinstance(v, scopes.Scope)}
    assert declared == {s.name for s, _ in ENVIRONMENTS}


def test_holder_of_a_card_out_of_play_is_nobody():
    from kierki_dsl.cards import card_str
    from kierki_dsl.expr import compile_text

    env = seat_env(0, 3, NOBODY, [1 << 5, 1 << 6, 0], 0)
    held = [compile_text(f"holder({card_str(c)})", scopes.SEAT_EXPR)(env) for c in (5, 6, 0)]
    assert held == [0, 1, NOBODY]


BARBU_BY_HOLDER = """\
kierki: 1
name: Barbu, the holder of the queen of spades chooses
extends: {base}
match:
  schedule:
    - choose: {{by: holder(QS), from: [no_tricks, no_hearts, no_queens, barbu, no_last_two, trumps, domino], once_each: false}}
      repeat: 28
"""


def test_a_chooser_named_by_holder_plays(cli, tmp_path):
    path = tmp_path / "barbu_holder.yaml"
    path.write_text(BARBU_BY_HOLDER.format(base=ROOT / "rulesets/games/barbu.yaml"))
    code, out, err = cli("lint", str(path))
    assert code == 0, out + err
    for players in ("random", "heuristic"):
        code, out, err = cli("run", str(path), "--seed", "3", "--players", players)
        assert code == 0, err
        assert "Final standings" in out


NO_CARD_LEFT = """\
kierki: 1
name: a rule that can leave no card
extends: {base}
contracts:
  bez_lew:
    restrictions:
      - {{phase: any, forbid: trick.number == 5, fallback: false}}
"""


@pytest.mark.parametrize("command", [
    ("run", "{path}", "--seed", "1", "--players", "heuristic"),
    ("run", "{path}", "--seed", "1", "--players", "random"),  # was IndexError in players/base.py
    ("run", "{path}", "--seed", "1", "--players", "search:4"),
    ("simulate", "{path}", "--games", "2", "--players", "random"),  # the compiled whole-deal path
    ("simulate", "{path}", "--games", "2", "--players", "heuristic"),
    ("compare", "{path}", "{base}", "--games", "2"),
    ("ladder", "{path}", "--pairs", "heuristic:random", "--seeds", "1"),
], ids=lambda c: "-".join(c[:1] + c[-1:]))
def test_a_rule_that_leaves_no_legal_card_is_a_located_run_time_error(cli, tmp_path, command):
    """Issue 15, item 19: whatever plays the match, an X-code naming the rule, exit 1."""
    path = tmp_path / "no_card.yaml"
    base = ROOT / "rulesets/kierki_standard.yaml"
    path.write_text(NO_CARD_LEFT.format(base=base))
    code, out, err = cli(*(a.format(path=path, base=base) for a in command))
    assert "internal error" not in err
    assert f"{path}:7:9: error: X702 no card is legal in trick 5" in err
    assert code == 1


def test_a_deal_that_finished_is_kept_when_the_next_cannot_start(tmp_path):
    """Barbu with the holder of Q♠ choosing, each contract once per chooser: a seat runs out of
    contracts to choose; every deal that finished before is still handed out."""
    from kierki_dsl.interpreter.match import MatchError, MatchRunner
    from kierki_dsl.players.base import make_player
    from kierki_dsl.ruleset.model import Ruleset

    path = tmp_path / "barbu_holder_once.yaml"
    path.write_text(BARBU_BY_HOLDER.format(base=ROOT / "rulesets/games/barbu.yaml").replace("once_each: false", "once_each: true"))
    rs = Ruleset.load(str(path))
    runner = MatchRunner(rs, [make_player("random") for _ in range(4)], seed=1)
    results = []
    with pytest.raises(MatchError, match="no contract left to choose"):
        for r in runner.deals():
            results.append(r)
    assert len(results) == runner.match.deal_index  # the deal that could not start is the next one
    assert [sum(r.scores[s] for r in results) for s in range(4)] == list(runner.match.totals)


NO_HOLDER = """\
kierki: 1
name: the holder of a card that is not dealt leads
players: 3
deck: {remove: [2C]}
match: {schedule: [bez_lew]}
contracts:
  bez_lew:
    first_lead: holder(2C)
    score: [{per_trick: -20}]
"""


def test_a_seat_expression_that_names_no_seat_is_a_located_run_time_error(cli, tmp_path):
    path = tmp_path / "no_holder.yaml"
    path.write_text(NO_HOLDER)
    code, out, err = cli("run", str(path), "--seed", "1", "--players", "random")
    assert code == 1, err
    assert f"{path}:8:17: error: X701 the seat expression names no seat here" in err and "first_lead" in err
    assert "internal error" not in err


def test_seat_end_args_are_the_constructor_parameters_and_the_keys_they_set():
    from kierki_dsl.interpreter.envs import SEAT_END_ARGS, seat_end_env

    assert tuple(inspect.signature(seat_end_env).parameters) == tuple(k.replace(".", "_") for k in SEAT_END_ARGS)
    values = [f"value of {k}" for k in SEAT_END_ARGS]
    assert seat_end_env(*values) == dict(zip(SEAT_END_ARGS, values))


DYNAMIC = """\
kierki: 1
name: dynamic trick scoring, cards too
extends: {base}
contracts:
  bez_lew:
    total: null
    score:
      - per_trick: in_trick(card.suit == hearts) * -5 - (if trick.winner == trick.leader then 10 else 0)
        when: trick.number > 1 and trick.winner != left(dealer)
      - per_card: card.rank == Q or card.suit == trump or trick.is_last
        points: if trick.winner == dealer then -7 else trick.number
"""


def test_dynamic_scoring_makes_one_environment_per_deal_and_scores_as_a_fresh_one(tmp_path):
    """``_dynamic_points`` keeps one trick environment per deal (shared by clones, each trick's
    names replaced): every trick scores as with an environment made for it alone."""
    import random

    from kierki_dsl.cards import popcount
    from kierki_dsl.interpreter.envs import card_scoring_env, next_trick_env, trick_env
    from kierki_dsl.interpreter.match import deal_out, shuffled
    from kierki_dsl.ruleset.model import Ruleset

    path = tmp_path / "dynamic.yaml"
    path.write_text(DYNAMIC.format(base=ROOT / "rulesets/kierki_standard.yaml"))
    rs = Ruleset.load(str(path))
    rng = random.Random(7)
    st = rs.contracts["bez_lew"].new_deal(4, rs.deck, 2, deal_out(shuffled(rng, rs.deck), 2, 4), 1, 1)
    dynamic = st._dynamic
    assert len(dynamic) == 2
    st._dynamic_points(dynamic, 15, 0, 1, 1)
    other = st.clone()
    assert other._tenv is st._tenv  # shared: every use replaces the trick's names first

    def fresh(s, tm, winner, leader, n):
        env = trick_env(n, s.tricks_total, leader, winner, tm, s.players, s.trump, s.dealer, s.caller, s.deck,
                        s.bidder, s.bid)
        total = 0
        for d in dynamic:
            if d.when is not None and not d.when(env):
                continue
            p = d.points(env)
            if d.cards is not None:
                p *= popcount(tm & d.cards.mask(card_scoring_env(n, s.tricks_total, s.trump, s.deck)))
            total += p
        return total

    for k in range(300):
        tm = sum(1 << c for c in rng.sample(range(52), 4))
        winner, leader, n = rng.randrange(4), rng.randrange(4), rng.randrange(1, 14)
        s = st if k % 3 else other
        assert s._dynamic_points(dynamic, tm, winner, leader, n) == fresh(s, tm, winner, leader, n)
    env = trick_env(1, 13, 0, 0, 0, 4, -1, 0, 0, 0)
    assert next_trick_env(dict(env), 13, 13, 2, 3, 5) == trick_env(13, 13, 2, 3, 5, 4, -1, 0, 0, 0)


def test_seat_args_are_the_keys_of_a_seat_environment():
    from kierki_dsl.interpreter.envs import SEAT_ARGS

    env = seat_env(1, 4, 2, [1, 2, 4, 8], 15, 3, 70)
    assert set(SEAT_ARGS) == set(env)
    assert tuple(env[k] for k in SEAT_ARGS) == (1, 4, 2, [1, 2, 4, 8], [1, 2, 4, 8], 15, 3, 70)
