"""The PettingZoo environment's C calls (``last``, ``step``, ``agent_iter``'s iterator: the fast
path where the compiled core steps the deal) say exactly what its Python methods say: the same
observations, masks, rewards, cumulative rewards, terminations, truncations, infos and agent
order at every decision, the same errors; and every array ``last`` hands out is the caller's
alone (never changed afterwards)."""

from __future__ import annotations

import copy
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.utils.env import AECIterable  # noqa: E402

from kierki_dsl.interpreter import stepper  # noqa: E402
from kierki_dsl.pettingzoo import env  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402
from kierki_dsl.shipped import shipped_ruleset  # noqa: E402

from conftest import Goes  # noqa: E402

pytestmark = pytest.mark.skipif(not stepper.available(), reason="the compiled step core is not built")

CASES = [
    ("games/hearts_openspiel.yaml", "deal", 1),
    ("games/hearts.yaml", "match", 1),  # past the first deal: the steps after a payment
    ("games/black_maria.yaml", "deal", 1),  # three seats
    ("kierki_standard.yaml", "deal", 1),
    ("kierki_standard.yaml", "deal", 7),  # a trump deal
    ("kierki_standard.yaml", "match", 1),
    ("games/barbu.yaml", "deal", 1),  # a contract chosen, doubling: not on the core
]

_RULESETS: dict = {}


def _env(path: str, scope: str, deal: int, c_path: bool):
    if path not in _RULESETS:
        _RULESETS[path] = Ruleset.load(shipped_ruleset(path))
    e = env(_RULESETS[path], scope=scope, deal=deal, max_deals=3)
    if not c_path:
        e._go_python()
    return e


def _told(e, got) -> tuple:
    """What ``last()`` returned and what the environment's attributes say, comparable."""
    obs, reward, terminated, truncated, info = got
    return (
        e.agent_selection,
        obs["observation"].dtype.str,
        obs["observation"].tobytes(),
        obs["action_mask"].dtype.str,
        obs["action_mask"].tobytes(),
        reward,
        type(reward),
        terminated,
        truncated,
        info,
        dict(e.rewards),
        dict(e._cumulative_rewards),
        dict(e.terminations),
        dict(e.truncations),
        list(e.agents),
    )


def _action(rng, mask, n: int):
    """A random action: mostly a legal int, sometimes a numpy int, a float, an illegal one."""
    legal = np.flatnonzero(mask)
    r = rng.random()
    if r < 0.04:
        return rng.randrange(n)  # perhaps illegal
    if r < 0.07:
        return np.int64(legal[rng.randrange(len(legal))])
    if r < 0.08:
        return float(legal[rng.randrange(len(legal))])
    if r < 0.09:
        return "x"
    return int(legal[rng.randrange(len(legal))])


def _outcome(call, *args):
    try:
        call(*args)
    except (ValueError, TypeError) as e:
        return type(e), str(e)
    return None


def _play(path: str, scope: str, deal: int, seed: int, c_path: bool) -> tuple:
    """Every answer of a game played at random (the choices drawn alike on either path)."""
    e = _env(path, scope, deal, c_path)
    assert (type(e.step).__name__ == "EnvCall") == c_path
    e.reset(seed=seed)
    rng, seen, handed, cored = random.Random(seed), [], [], False
    n = e.spec.num_actions
    for agent in e.agent_iter():
        got = e.last()
        seen.append((agent, _told(e, got)))
        handed.append((got[0], got[0]["observation"].tobytes(), got[0]["action_mask"].tobytes()))
        cored |= e.game.stepping_core() is not None
        if got[2] or got[3]:
            seen.append(_outcome(e.step, None))
            continue
        while True:
            action = _action(rng, got[0]["action_mask"], n)
            failed = _outcome(e.step, action)
            seen.append(failed)
            if failed is None:
                break
            seen.append(_told(e, e.last()))  # (an illegal action changes nothing)
    for obs, tensor, mask in handed:  # every array handed out is still as it was handed out
        assert obs["observation"].tobytes() == tensor and obs["action_mask"].tobytes() == mask
    return seen, cored


@pytest.mark.parametrize("path, scope, deal", CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_c_calls_say_what_the_python_methods_say(path, scope, deal, seed):
    fast, cored = _play(path, scope, deal, seed, True)
    slow, _ = _play(path, scope, deal, seed, False)
    assert fast == slow
    assert cored == (path != "games/barbu.yaml")  # the C path was taken where the core steps the deal


def test_an_illegal_action_names_the_rule_on_the_c_path():
    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=4)
    for _ in range(12):  # the passes
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    mask = e.last()[0]["action_mask"]
    illegal = next(a for a in range(52) if not mask[a])
    with pytest.raises(ValueError, match=f"{e.agent_selection}: action {illegal} is illegal: "):
        e.step(illegal)


def test_an_array_dropped_by_its_holder_only_is_handed_out_again():
    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=5)
    held = e.last()[0]
    view = held["observation"][:3]  # a view holds its array
    before = held["observation"].tobytes()
    del held
    for _ in range(10):
        obs = e.last()[0]
        assert obs["observation"].base is None and obs["observation"] is not view.base
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert view.base.tobytes() == before
    size = e.observation_space("player_0")["observation"].shape[0]
    for change in (
        lambda a: setattr(a, "shape", (1, size)),
        lambda a: setattr(a, "dtype", np.int32),
        lambda a: a.setflags(write=False),
        lambda a: a.resize(size + 1, refcheck=False),
    ):
        got = e.last()[0]["observation"]
        got[:] = 5
        change(got)  # changed in place, then dropped: never handed out again
        del got
        for _ in range(4):
            obs = e.last()[0]["observation"]
            assert obs.shape == (size,) and obs.dtype == np.float32 and obs.flags.writeable
            assert obs.tobytes() == e.observe(e.agent_selection)["observation"].tobytes()  # (the Python method's)


def test_agent_iter_is_pettingzoo_s():
    for max_iter in (0, 3, 70, 2**63, 2**70, -1):
        runs = []
        for c_path in (True, False):
            e = _env("games/hearts_openspiel.yaml", "deal", 1, c_path)
            e.reset(seed=6)
            it = e.agent_iter(max_iter) if c_path else AECIterable(e, max_iter)
            order = []
            for agent in it:
                order.append(agent)
                obs, _, terminated, truncated, _ = e.last()
                e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
            order.append(list(it))  # iterated again: a new iterator (the game is over: nothing)
            runs.append(order)
        assert runs[0] == runs[1]


def _rest(e) -> list:
    """The rest of ``e``'s game, the lowest legal action always taken."""
    out = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, terminated))
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    return out


def test_a_copy_steps_as_its_original():
    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=7)
    for _ in range(20):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[-1]))
    twin = copy.deepcopy(e)
    assert type(twin.step).__name__ == "EnvCall" and twin.step is not e.step
    assert _rest(twin) == _rest(e)


def test_the_c_calls_hold_no_environment_alive():
    import gc
    import weakref

    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=8)
    step = e.step
    ref = weakref.ref(e)
    gc.disable()
    try:
        del e
        assert ref() is None  # freed at once: no reference cycle
    finally:
        gc.enable()
    with pytest.raises(ReferenceError):
        step(0)


def test_a_deal_on_the_core_runs_no_python_method_even_at_its_end():
    """Not the deal's end (``_after_step``, GameState's ``_after_action``: done in C, _gameend.h),
    not the dead steps (PettingZoo's ``_was_dead_step``, done in C)."""
    import sys

    from kierki_dsl.adapters.game import GameState
    from kierki_dsl.pettingzoo import KierkiEnv

    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=9)
    methods = (KierkiEnv.step, KierkiEnv.observe, KierkiEnv._after_step, KierkiEnv._was_dead_step, GameState._after_action)
    watched = {f.__code__: f.__name__ for f in methods}
    calls: dict = {}

    def count(frame, event, arg):
        if event == "call" and frame.f_code in watched:
            calls[watched[frame.f_code]] = calls.get(watched[frame.f_code], 0) + 1

    sys.setprofile(count)
    try:
        steps = len(_rest(e))
    finally:
        sys.setprofile(None)
    assert steps == 64 + 4  # 12 passes, 52 cards, then each seat's dead step
    assert calls == {}
    assert e.game.is_terminal() and e._cumulative_rewards == {} and e.agents == []


def test_a_deal_s_end_asks_observe_s_arguments_nothing_once_its_stage_was_seen(monkeypatch):
    """``last`` asks ``observe``'s arguments (``knowledge.core_observed``) once per core and its
    context; the stage of a deal's end ("over") changes only the tensor's phase, which is the
    stage's alone: learnt once, then not asked again at the end of any later deal."""
    from kierki_dsl.adapters import knowledge

    asked: list = []
    own = knowledge.core_observed

    def observed(state, step):
        asked.append(state.stage.name)
        return own(state, step)

    monkeypatch.setattr(knowledge, "core_observed", observed)  # (read by each environment made after)
    seen = []
    for seed in (3, 4):
        e, python = (
            _env("games/hearts_openspiel.yaml", "deal", 1, True),
            _env("games/hearts_openspiel.yaml", "deal", 1, False),
        )
        e.reset(seed=seed)
        python.reset(seed=seed)
        del asked[:]
        fast = _rest(e)
        seen.append(list(asked))  # (the Python method's tensor may ask it too: not counted)
        assert fast == _rest(python)  # (the deal's end observed as the Python method observes it)
    assert seen[0] == ["play", "over"]  # the first deal's end: the stage not seen before
    assert seen[1] == ["play"]  # the second's: its phase known


def test_another_pettingzoo_release_gets_pettingzoo_s_own_methods(monkeypatch):
    """The C calls copy what PettingZoo 1.24-1.27 do; under any other release the environment
    answers by its Python methods (and PettingZoo's iterator), which step the same game."""
    import kierki_dsl.pettingzoo as pz

    fast = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    assert "step" in fast.__dict__ and "last" in fast.__dict__
    on_c = _play("games/hearts_openspiel.yaml", "deal", 1, 3, True)
    monkeypatch.setattr(pz, "_C_FIT", False)
    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    assert "step" not in e.__dict__ and "last" not in e.__dict__
    e.reset(seed=3)
    assert isinstance(iter(e.agent_iter()), type(iter(AECIterable(e, 10))))
    assert _play("games/hearts_openspiel.yaml", "deal", 1, 3, False) == on_c


def _meddle(e, rng, i: int) -> None:
    """Change the environment's attributes between calls as a user (or a wrapper) may: values,
    whole dicts, equal agents that are other objects; what the C calls kept of them must follow."""
    agent = e.agent_selection
    r = rng.randrange(12)
    if r == 0:
        e.infos[agent] = {"i": i}
    elif r == 1:
        e._cumulative_rewards["player_" + str(rng.randrange(len(e.possible_agents)))] = float(i)
    elif r == 2:
        e.agent_selection = "".join(list(agent))  # equal, another object
    elif r == 3:
        e.terminations = dict(e.terminations)
    elif r == 4:
        e._seats = dict(e._seats)
    elif r == 5:
        e._cumulative_rewards = {"".join(list(a)): v for a, v in e._cumulative_rewards.items()}
    elif r == 6:
        e.infos = dict(e.infos)
    elif r == 7 and e.game is not None:
        e.game.totals = list(e.game.totals)
    elif r == 8:
        e.__dict__[("not", "a str")] = i  # a key whose lookups may run code: nothing kept then
    elif r == 9:
        e.__dict__.pop(("not", "a str"), None)
    elif r == 10:
        e.agents = list(e.agents)
    elif r == 11:
        e.terminations[agent] = e.terminations[agent]  # (the same value: the dict unchanged)


def _meddled(path: str, scope: str, seed: int, c_path: bool) -> list:
    """Every answer of a game played at random, the environment changed now and then between calls."""
    e = _env(path, scope, 1, c_path)
    e.reset(seed=seed)
    rng, seen = random.Random(seed), []
    for i, agent in enumerate(e.agent_iter()):
        if rng.random() < 0.3:
            _meddle(e, rng, i)
        got = e.last()
        seen.append((agent, _told(e, got)))
        if rng.random() < 0.3:
            _meddle(e, rng, i)
        legal = np.flatnonzero(got[0]["action_mask"])
        done = got[2] or got[3] or not len(legal)
        seen.append(_outcome(e.step, None if done else int(legal[rng.randrange(len(legal))])))
    return seen


@pytest.mark.parametrize("path, scope", [("games/hearts_openspiel.yaml", "deal"), ("games/hearts.yaml", "match")])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_c_calls_follow_every_change_of_the_environment(path, scope, seed):
    """What the C calls keep from one call to the next (``_envmemo.h``: read again where a dict
    changed) never answers other than the Python methods, whatever changes between calls."""
    assert _meddled(path, scope, seed, True) == _meddled(path, scope, seed, False)


def _meddling(r: int):
    """``_meddle``'s change number ``r``."""
    return lambda e: _meddle(e, _Fixed(r), 0)


#: Changes a user may make just before a deal's last card, where the deal's end is done in C
#: (``_gameend.h``): the C end must leave what ``_after_step`` leaves, or stand aside.
END_CHANGES = {
    **{f"meddle {r}": _meddling(r) for r in range(12)},
    "a cumulative reward an int": lambda e: e._cumulative_rewards.__setitem__("player_2", 3),
    "a cumulative reward a str": lambda e: e._cumulative_rewards.__setitem__("player_2", "x"),
    "a seat's cumulative reward gone": lambda e: e._cumulative_rewards.pop("player_3"),
    "a reward more": lambda e: e.rewards.__setitem__("someone", 1.0),
    "a reward gone": lambda e: e.rewards.pop("player_1"),
    "the agents fewer": lambda e: setattr(e, "agents", e.agents[1:]),
    "no agents": lambda e: setattr(e, "agents", []),
    "the agents a tuple": lambda e: setattr(e, "agents", tuple(e.agents)),
    "a seat twice": lambda e: setattr(e, "possible_agents", [e.possible_agents[0]] * len(e.possible_agents)),
    "the rewards another dict": lambda e: setattr(e, "rewards", dict(e.rewards)),
    "the rewards the cumulative rewards": lambda e: setattr(e, "_cumulative_rewards", e.rewards),
    "the totals huge": lambda e: setattr(e.game, "totals", [2**1100] * len(e.game.totals)),
    # (an int too large for a float: the sum raises OverflowError where _accumulate_rewards meets it)
    "the cumulative rewards huge ints": lambda e: e._cumulative_rewards.update(
        dict.fromkeys(e.possible_agents, 10**400)
    ),
    "a cumulative reward a huge int": lambda e: e._cumulative_rewards.__setitem__("player_3", -(10**400)),
}

#: Values the end replaces whose release runs a user's code (``__del__``), which changes what the
#: method writes after it: it runs where the method's write releases it.
RELEASES = {
    "a reward": lambda e: e.rewards.__setitem__("player_2", Goes(e, lambda h: setattr(h, "agents", []))),
    "the agent's cumulative reward": lambda e: e._cumulative_rewards.__setitem__(
        e.agent_selection, Goes(e, lambda h: h.rewards.__setitem__("player_0", 5.0))
    ),
    "the terminations": lambda e: e.terminations.__setitem__(
        "x", Goes(e, lambda h: setattr(h, "agents", h.agents[1:]))
    ),
    "the agent selected": lambda e: setattr(
        e, "agent_selection", _GoesStr(e.agent_selection, e, lambda h: h.rewards.__setitem__("player_0", 5.0))
    ),
}


def _released_end(change, c_path: bool) -> tuple:
    """A one-deal Hearts game to its last card, ``change(env)`` applied, the last card: what the
    environment holds (nothing else holding what the change put in)."""
    e = _env("games/hearts_openspiel.yaml", "deal", 1, c_path)
    e.reset(seed=11)
    for _ in range(64):
        if _ == 63:
            change(e)
        action = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
        e.step(action)
    return (e.agent_selection, dict(e.rewards), dict(e._cumulative_rewards), dict(e.terminations), list(e.agents))


@pytest.mark.parametrize("name", sorted(RELEASES))
def test_a_value_s_release_runs_where_the_method_releases_it(name):
    assert _released_end(RELEASES[name], True) == _released_end(RELEASES[name], False)


class _GoesStr(str):
    """An agent's name whose release runs a user's code."""

    def __new__(cls, text, holder, then):
        self = super().__new__(cls, text)
        self.holder, self.then = holder, then
        return self

    def __del__(self) -> None:
        holder, self.holder = self.holder, None
        if holder is not None:
            self.then(holder)


class _Fixed:
    """A generator whose ``randrange`` always gives the same number (a chosen meddle)."""

    def __init__(self, r: int) -> None:
        self.r = r

    def randrange(self, n: int) -> int:
        return self.r % n


def _tried(call, *args):
    """(True, what ``call(*args)`` returned), or (False, the type and words of what it raised)."""
    try:
        return True, call(*args)
    except Exception as e:  # noqa: BLE001 - compared, not hidden
        return False, (type(e), str(e))


def _end_changed(change, c_path: bool) -> list:
    """A one-deal Hearts game to its last card, ``change(env)`` applied, then the rest: every answer."""
    e = _env("games/hearts_openspiel.yaml", "deal", 1, c_path)
    e.reset(seed=11)
    for _ in range(63):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    change(e)
    seen = []
    for _ in range(6):  # the last card, the dead steps (and what a step more says)
        ok, got = _tried(e.last)
        seen.append(_told(e, got) if ok else got)
        legal = np.flatnonzero(got[0]["action_mask"]) if ok else []
        seen.append(_tried(e.step, int(legal[0]) if len(legal) else None))
        seen.append((e.agent_selection, dict(e.rewards), dict(e._cumulative_rewards), list(e.agents), e.game.totals))
    return seen


@pytest.mark.parametrize("name", sorted(END_CHANGES))
def test_a_deal_s_end_in_c_follows_what_a_user_changed_before_it(name):
    assert _end_changed(END_CHANGES[name], True) == _end_changed(END_CHANGES[name], False)


def _outcome_of(call, *args):
    """What ``call(*args)`` raised (its type), else None."""
    try:
        call(*args)
    except Exception as e:  # noqa: BLE001 - compared, not hidden
        return type(e)
    return None


def test_the_c_calls_are_seen_as_the_bound_methods_they_answer_for():
    """``e.step`` and ``e.last`` on the C path show what the bound methods show: ``__self__``,
    ``__func__``, names, doc, repr, equality and hash, a signature and source for ``inspect``;
    copied, deep-copied and pickled as the bound methods (``function.__get__(env)``)."""
    import inspect
    import pickle

    from kierki_dsl.pettingzoo import KierkiEnv

    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=4)
    for name in ("step", "last"):
        call, bound = getattr(e, name), getattr(KierkiEnv, name).__get__(e)
        assert type(call).__name__ == "EnvCall"
        assert call.__self__ is e and call.__func__ is getattr(KierkiEnv, name)
        for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
            assert getattr(call, attr) == getattr(bound, attr)
        assert repr(call) == repr(bound)
        assert call == bound and bound == call and hash(call) == hash(bound) and call != getattr(KierkiEnv, name)
        assert inspect.signature(call) == inspect.signature(bound)
        assert inspect.getsource(call) == inspect.getsource(bound)
        assert copy.copy(call) == call  # the bound method
        twin = copy.deepcopy(call)  # as a bound method's deep copy: bound to a copy of the environment
        assert (
            twin.__self__ is not e
            and twin.__func__ is call.__func__
            and twin.__self__.agent_selection == e.agent_selection
        )
        assert _outcome_of(pickle.dumps, call) == _outcome_of(pickle.dumps, bound)  # (the environment does not pickle)
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    twin = copy.deepcopy(e.step).__self__  # a deep copy of the bound step steps as the environment
    assert _rest(twin) == _rest(e)


def test_agent_iter_has_pettingzoo_s_attributes():
    """The C ``agent_iter()`` has AECIterable's ``env`` and ``max_iter``, its iterator
    AECIterator's ``env`` and ``iters_til_term``."""
    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=5)
    for max_iter in (3, 2**63, 2**70, -1):
        ours, theirs = e.agent_iter(max_iter), AECIterable(e, max_iter)
        assert type(ours) is not AECIterable and ours.env is e and ours.max_iter == theirs.max_iter
        it, their_it = iter(ours), iter(theirs)
        for _ in range(2):
            assert next(it, None) == next(their_it, None)
            assert it.env is e and it.iters_til_term == their_it.iters_til_term


class _Kept:
    """An object a user may put into an observation dict (weakly referable: its release shows)."""


def test_an_observation_dict_dropped_unchanged_is_handed_out_again_and_no_other():
    """``last`` hands out again a dict of the pool (with its arrays) only when nobody else holds it
    and nobody changed it; a dict changed then dropped leaves the pool at the next call, releasing
    what was put into it; every dict handed out holds the two arrays, in their order."""
    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=6)
    first = e.last()[0]
    held_id, held_arrays = id(first), (first["observation"], first["action_mask"])
    again = e.last()[0]
    assert again is not first  # (held: another)
    del again
    assert id(e.last()[0]) != held_id  # (still held)
    dropped = id(e.last()[0])
    assert id(e.last()[0]) == dropped  # dropped unchanged: the same dict, handed out again
    assert first["observation"] is held_arrays[0] and first["action_mask"] is held_arrays[1]
    kept = _Kept()
    gone = __import__("weakref").ref(kept)
    changed = e.last()[0]
    changed["mine"] = kept
    changed_id = id(changed)
    del changed, kept
    assert gone() is not None  # (the pool still holds the dict it cannot hand out)
    for _ in range(6):
        obs = e.last()[0]
        assert list(obs) == ["observation", "action_mask"] and gone() is None
        assert obs["observation"].tobytes() == e.observe(e.agent_selection)["observation"].tobytes()
        assert id(obs) != changed_id or "mine" not in obs
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))

    def grown_and_shrunk(d):
        for k in "abcdefgh":
            d[k] = 0
        for k in "abcdefgh":
            del d[k]

    for change in (
        lambda d: d.pop("observation"),
        lambda d: d.update(observation=d.pop("observation")),  # (the order changed)
        lambda d: d.__setitem__("observation", np.zeros(3, np.float32)),
        grown_and_shrunk,  # (its table grown: another size)
    ):
        got = e.last()[0]
        change(got)
        del got
        for _ in range(3):
            obs = e.last()[0]
            assert list(obs) == ["observation", "action_mask"]
            assert obs["observation"].shape == e.observation_space("player_0")["observation"].shape
            assert obs["observation"].tobytes() == e.observe(e.agent_selection)["observation"].tobytes()


def test_an_environment_put_into_its_own_observation_is_freed_by_the_collector():
    """The pool's dicts are seen by the collector: a dict holding the environment (a reference cycle
    through the environment's C calls) does not keep it alive."""
    import gc
    import weakref

    e = _env("games/hearts_openspiel.yaml", "deal", 1, True)
    e.reset(seed=7)
    obs = e.last()[0]
    obs["env"] = e
    gone = weakref.ref(e)
    del obs, e
    gc.collect()
    assert gone() is None
