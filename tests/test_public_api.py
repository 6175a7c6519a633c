"""The public face: a program that imports only ``kierki_dsl`` loads a ruleset, plays a match,
looks at a seat's view and brings its own player."""
from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

import kierki_dsl


def test_load_play_and_record_a_match():
    rules = kierki_dsl.load_ruleset(kierki_dsl.shipped_ruleset("kierki_standard.yaml"))
    assert isinstance(rules, kierki_dsl.Ruleset) and rules.players == 4
    played = kierki_dsl.play_match(rules, ["heuristic", "random", "heuristic", "random"], seed=7)
    assert len(played.deals) == len(rules.schedule)
    assert all(isinstance(d, kierki_dsl.DealResult) for d in played.deals)
    assert played.totals == played.deals[-1].totals
    assert list(played.totals) == [sum(d.scores[s] for d in played.deals) for s in range(4)]
    record = played.record()
    assert json.loads(json.dumps(record)) == record
    assert kierki_dsl.replay(rules, record).ok
    again = kierki_dsl.play_match(rules, ["heuristic", "random", "heuristic", "random"], seed=7)
    assert again.record() == record  # same ruleset, players and seed: the same match


def test_step_a_match_through_the_seat_views():
    rules = kierki_dsl.load_ruleset(kierki_dsl.shipped_ruleset("kierki_standard.yaml"))
    match = kierki_dsl.Match(rules, seed=3)
    seen = set()
    for _ in range(8):
        seat = match.to_move()
        view = match.view(seat)
        assert isinstance(view, kierki_dsl.SeatView) and view.seat == seat
        hand = kierki_dsl.card_list(view.hand)
        assert set(view.legal) <= set(hand) or view.phase != kierki_dsl.Phase.PLAY
        assert [kierki_dsl.parse_card(kierki_dsl.card_str(c)) for c in hand] == hand
        seen.add(seat)
        match.apply(view.legal[0])
    assert len(seen) == 4
    with pytest.raises(kierki_dsl.IllegalAction):
        view = match.view(match.to_move())
        match.apply(next(c for c in range(52) if c not in view.legal))


def test_a_registered_player_plays_by_name():
    @kierki_dsl.register_player
    class Lowest(kierki_dsl.Player):
        """Always the lowest-numbered legal action."""

        name = "test-lowest"

        def act(self, view) -> int:
            return min(view.legal)

    assert "test-lowest" in kierki_dsl.player_names()
    rules = kierki_dsl.load_ruleset(kierki_dsl.shipped_ruleset("games/hearts.yaml"))
    by_name = kierki_dsl.play_match(rules, ["test-lowest"] * rules.players, seed=1)
    by_object = kierki_dsl.play_match(rules, [Lowest() for _ in range(rules.players)], seed=1)
    assert by_name.record() == by_object.record()
    with pytest.raises(ValueError, match="players"):
        kierki_dsl.play_match(rules, ["test-lowest"], seed=1)


def test_a_broken_ruleset_is_a_located_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kierki: 1\nname: x\nplayers: 9\n", "utf-8")
    with pytest.raises(kierki_dsl.DiagnosticError) as e:
        kierki_dsl.load_ruleset(str(bad))
    assert all(isinstance(d, kierki_dsl.Diagnostic) for d in e.value.diagnostics)
    assert kierki_dsl.lint_file(str(bad))


def test_every_public_name_is_documented_and_none_is_a_submodule():
    modules = {m.name for m in pkgutil.iter_modules(kierki_dsl.__path__)}
    for name in kierki_dsl.__all__:
        value = getattr(kierki_dsl, name)
        assert name not in modules, f"{name} would be rebound by `import kierki_dsl.{name}`"
        if callable(value):
            assert value.__doc__, name
    assert kierki_dsl.explain_ruleset.__module__ == "kierki_dsl.explain"
    with pytest.raises(AttributeError):
        kierki_dsl.no_such_name  # noqa: B018


def test_importing_the_package_loads_nothing_else():
    code = "import sys, kierki_dsl; print(sorted(m for m in sys.modules if m.startswith('kierki_dsl')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['kierki_dsl']"
