"""A one-deal game's end on the compiled core, done in C (``_gameend.h``): GameState's
``_after_action`` and the PettingZoo environment's ``_after_step`` leave exactly what the Python
methods leave, whatever a user changed before the last card; where the C end cannot be sure (a
class changed, an attribute of another type, a match), the Python methods do it."""

from __future__ import annotations

import random
import sys

import pytest

from kierki_dsl.adapters.game import GameSpec, GameState, ruleset_at
from kierki_dsl.interpreter import stepper
from kierki_dsl.shipped import shipped_ruleset

from conftest import Goes

pytestmark = pytest.mark.skipif(not stepper.available(), reason="the compiled step core is not built")

ONE_DEALS = [
    ("games/hearts_openspiel.yaml", 1),
    ("games/black_maria.yaml", 1),  # three seats
    ("kierki_standard.yaml", 1),
    ("kierki_standard.yaml", 4),  # queens
    ("kierki_standard.yaml", 7),  # Rozbójnik
    ("kierki_standard.yaml", 9),  # a trump deal
]


class PythonEnded(GameState):
    """A GameState the C end leaves alone (not the registered class): its end is the Python method's."""


def _spec(path: str, scope: str = "deal", deal: int = 1) -> GameSpec:
    return GameSpec.make(ruleset_at(shipped_ruleset(path)), scope, deal, 3)


def _kept(g: GameState) -> dict:
    """What a game holds, comparable: its attributes (the core's calls by their kind), its log,
    events, returns."""
    out = {}
    for name, value in vars(g).items():
        if name in ("deal_start", "_step", "_deal", "_fast") or type(value).__name__ == "FastCall":
            out[name] = type(value).__name__
        elif name == "stage":
            out[name] = value.name
        elif name == "spec":
            continue
        else:
            out[name] = repr(value)
    return {"vars": out, "order": list(vars(g)), "log": list(g.log), "events": list(g.events), "returns": g.returns()}


def _ended(cls, spec: GameSpec, seed: int) -> tuple:
    """A game of ``cls`` played at random to its end: what it holds, and how often the Python
    ``_after_action`` ran."""
    g, rng, ran = cls(spec), random.Random(seed), []

    def count(frame, event, arg):
        if event == "call" and frame.f_code is GameState._after_action.__code__:
            ran.append(1)

    while not g.is_terminal():
        acts = g.legal_actions()
        pick = acts[rng.randrange(len(acts))]
        if g.is_chance():
            g.apply_action(pick)
            continue
        sys.setprofile(count)
        try:
            g.apply_action(pick)
        finally:
            sys.setprofile(None)
    return _kept(g), len(ran)


@pytest.mark.parametrize("path, deal", ONE_DEALS)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_s_end_in_c_leaves_what_the_python_method_leaves(path, deal, seed):
    spec = _spec(path, "deal", deal)
    fast, ran_fast = _ended(GameState, spec, seed)
    slow, ran_slow = _ended(PythonEnded, spec, seed)
    assert fast == slow
    assert ran_slow == 1  # the Python method ended the subclass's game ...
    assert ran_fast == 0  # ... and not GameState's, stepped on the core: the C end did


def test_a_match_s_deal_end_is_the_python_method_s():
    """A match goes on to its next deal (``_begin_deal``): the C end leaves it to the method."""
    spec = _spec("games/hearts.yaml", "match")
    g, rng = GameState(spec), random.Random(3)
    while not g.is_terminal() and g.k == 0:
        acts = g.legal_actions()
        g.apply_action(acts[rng.randrange(len(acts))])
    assert g.k == 1 and not g.is_terminal()  # the second deal begun: the Python method went on
    assert g.stage.name == "dealing" and g.totals != [0, 0, 0, 0]


def _actions(spec: GameSpec, seed: int) -> list:
    """The actions of a game played at random to its end."""
    g, rng, out = GameState(spec), random.Random(seed), []
    while not g.is_terminal():
        acts = g.legal_actions()
        out.append(acts[rng.randrange(len(acts))])
        g.apply_action(out[-1])
    return out


def _changed_end(change, cls=GameState):
    """A one-deal Hearts game to its last card, ``change(game)`` applied, then the last card:
    what the game holds after it (or the error it raised)."""
    spec = _spec("games/hearts_openspiel.yaml")
    *played, last = _actions(spec, 4)
    g = cls(spec)
    for a in played:
        g.apply_action(a)
    change(g)
    try:
        g.apply_action(last)
    except Exception as e:  # noqa: BLE001 - compared, whatever it is
        return type(e).__name__, str(e)
    assert g.is_terminal()
    return _kept(g)


def _never() -> bool:
    """A game's own ``is_chance`` (one object: the two games' attributes compare equal)."""
    return False


CHANGES = {
    "totals another list": lambda g: setattr(g, "totals", list(g.totals)),
    "totals of floats": lambda g: setattr(g, "totals", [float(t) for t in g.totals]),
    "totals too short": lambda g: setattr(g, "totals", g.totals[:2]),
    "k a bool": lambda g: setattr(g, "k", True),
    "k huge": lambda g: setattr(g, "k", 2**70),
    "an attribute of another key type": lambda g: g.__dict__.__setitem__(("x",), 1),
    "is_chance on the instance": lambda g: setattr(g, "is_chance", _never),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_changed_game_ends_as_the_python_method_ends_it(name):
    assert _changed_end(CHANGES[name]) == _changed_end(CHANGES[name], PythonEnded)


def test_a_class_changed_after_registration_is_asked(monkeypatch):
    """A method of GameState's replaced (a user's wrapper): the C end stands aside, the wrapper runs."""
    import kierki_dsl.adapters.game as game

    own, ran = GameState._after_action, []

    def wrapped(self):
        ran.append(1)
        own(self)

    monkeypatch.setattr(GameState, "_after_action", wrapped)
    _changed_end(lambda g: ran.clear())  # (counted from the last card on)
    assert ran == [1]
    monkeypatch.setattr(GameState, "_after_action", own)
    monkeypatch.setattr(type(game._OVER), "chance", True, raising=False)  # "over" a chance node now
    assert _changed_end(lambda g: None) == _changed_end(lambda g: None, PythonEnded)


def test_the_core_s_class_changed_is_asked(monkeypatch):
    """``_after_action`` asks the core (a ``stepper.Stepper``) ``is_terminal`` and ``returns``:
    a user's replacement of either on the class is what the game's end reads, in C as in Python."""
    monkeypatch.setattr(stepper.Stepper, "returns", lambda self: [1, 2, 3, 20])
    fast, slow = _changed_end(lambda g: None), _changed_end(lambda g: None, PythonEnded)
    assert "[1, 2, 3, 20]" in slow["vars"]["totals"]
    assert fast == slow


RELEASES = {
    # (the method writes on after each release: the code run then changes what it writes next)
    "last_paid": lambda g: setattr(g, "last_paid", Goes(g, lambda h: setattr(h, "k", 100))),
    "_tail": lambda g: setattr(g, "_tail", Goes(g, lambda h: setattr(h, "k", 100))),
    "_fast": lambda g: setattr(g, "_fast", Goes(g, lambda h: setattr(h, "totals", [7] * len(h.totals)))),
}


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_a_value_s_release_runs_where_the_python_method_releases_it(name):
    """A value the end replaces whose release runs code: it runs where the method's write releases
    it, before the method's next writes (the C end stands aside for such a value)."""
    assert _changed_end(RELEASES[name]) == _changed_end(RELEASES[name], PythonEnded)


def test_the_module_s_names_the_method_reads_are_asked(monkeypatch):
    """``_after_action`` (and ``_go_slow``) read game.py's ``_OVER`` and ``_FAST_CALLS`` when they
    run: a user's replacement of either is what the game's end writes, in C as in Python."""
    import kierki_dsl.adapters.game as game

    class _Ended(type(game._OVER)):
        """Another stage "over"."""

    monkeypatch.setattr(game, "_OVER", _Ended())
    assert _changed_end(lambda g: None) == _changed_end(lambda g: None, PythonEnded)
    monkeypatch.undo()
    monkeypatch.setattr(game, "_FAST_CALLS", game._FAST_CALLS[:2])
    assert _changed_end(lambda g: None) == _changed_end(lambda g: None, PythonEnded)
