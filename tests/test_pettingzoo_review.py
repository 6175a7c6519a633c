"""The PettingZoo environment's C calls (``last``, ``step``, ``agent_iter``) under a hostile
user: objects a lookup's code drops (run under .ci/sanitize, these were reads of freed memory),
code that must run once as it runs in PettingZoo's methods, methods replaced on the instance or
the class, and ``agent_iter`` as PettingZoo's ``AECIterable``: each says what the Python methods
say (``_go_python``)."""

from __future__ import annotations

import collections.abc
import gc
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.utils.env import AECEnv, AECIterable  # noqa: E402

from kierki_dsl.interpreter import stepper  # noqa: E402
from kierki_dsl.pettingzoo import KierkiEnv, env  # noqa: E402
from kierki_dsl.ruleset.model import Ruleset  # noqa: E402
from kierki_dsl.shipped import shipped_ruleset  # noqa: E402

pytestmark = pytest.mark.skipif(not stepper.available(), reason="the compiled step core is not built")

_RULESET: list = []


def _env(c_path: bool) -> KierkiEnv:
    if not _RULESET:
        _RULESET.append(Ruleset.load(shipped_ruleset("games/hearts_openspiel.yaml")))
    e = env(_RULESET[0])
    assert (type(e.step).__name__ == "EnvCall") is True
    if not c_path:
        e._go_python()
    e.reset(seed=1)
    return e


def _outcome(call, *args):
    try:
        got = call(*args)
    except Exception as x:  # noqa: BLE001 - any error, compared by type and words
        return type(x).__name__, str(x)
    return "ok", got


def _both(play, patch=lambda: None) -> list:
    """``play(e)``'s answers on the C path and the Python path (``patch()`` run once both are made)."""
    envs = [_env(c_path) for c_path in (True, False)]
    patch()
    return [play(e) for e in envs]


def _fresh(text: str) -> str:
    return "".join(list(text))  # (a new str object, held by nobody else)


def _watched(mapping: dict, calls: list, then=lambda: None) -> dict:
    """``mapping`` as a dict subclass whose ``__getitem__`` (Python code) notes the key in ``calls``
    and runs ``then()``."""

    class Watched(dict):
        def __getitem__(self, agent):
            calls.append(agent)
            then()
            return dict.__getitem__(self, agent)

    return Watched(mapping)


def test_a_flags_mapping_that_moves_the_agent_selection():
    def play(e):
        calls: list = []

        def move():
            e.__dict__["agent_selection"] = _fresh("player_1")  # drops the agent being stepped

        e.terminations = _watched(e.terminations, calls, move)
        e.agent_selection = _fresh("player_0")
        return _outcome(e.step, 99), calls, e.agent_selection

    fast, slow = _both(play)
    assert fast == slow


def test_an_agent_whose_hash_drops_the_game():
    def play(e):
        class Agent:
            def __hash__(self):
                e.__dict__.pop("game", None)
                return 1

        e.agent_selection = Agent()
        return _outcome(e.last)[0], _outcome(e.step, 0)[0]

    fast, slow = _both(play)
    assert fast == slow


def test_a_total_whose_float_empties_the_totals():
    def play(e):
        class Total(int):
            def __float__(self):
                e.game.totals.clear()
                return 0.0

        e.game.totals[0] = Total(0)
        return _outcome(lambda: e.last()[0]["observation"].tobytes())

    fast, slow = _both(play)
    assert fast == slow == ("ValueError", "observe: the match totals changed while read")


def test_a_key_colliding_with_a_dead_agent_is_compared_as_often_as_in_pettingzoo():
    def play(e):
        while not e.terminations[e.agent_selection]:
            e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        agent, compared = e.agent_selection, []

        class Key:
            def __hash__(self):
                return hash(agent)

            def __eq__(self, other):
                compared.append(other)
                return False

        infos = {Key(): {}}
        infos.update(e.infos)
        e.infos = infos
        return _outcome(e.step, None), compared, list(e.agents), e.agent_selection

    fast, slow = _both(play)
    assert fast == slow


def test_a_mapping_s_getitem_runs_once_per_lookup_as_in_pettingzoo():
    def play(e):
        calls: list = []
        e._cumulative_rewards = _watched(e._cumulative_rewards, calls)
        del e.infos[e.agent_selection]  # (last() then raises KeyError, after the reward's lookup)
        return _outcome(e.last), calls

    fast, slow = _both(play)
    assert fast == slow and fast[0][0] == "KeyError" and len(fast[1]) == 1


def test_observe_replaced_on_the_instance_or_the_class(monkeypatch):
    def play(e):
        e.observe = lambda agent: ("mine", agent)
        return e.last()[0]

    fast, slow = _both(play)
    assert fast == slow == ("mine", slow[1])

    def patch():
        monkeypatch.setattr(KierkiEnv, "observe", lambda self, agent: ("class", agent))

    fast, slow = _both(lambda e: e.last()[0], patch)
    assert fast == slow == ("class", slow[1])
    assert "last" not in env(_RULESET[0]).__dict__  # (made under the patch: the Python methods only)


def test_a_dead_step_replaced_on_the_class(monkeypatch):
    def play(e):
        while not e.terminations[e.agent_selection]:
            e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        e.step(None)
        return list(e.agents)

    def patch():
        monkeypatch.setattr(KierkiEnv, "_was_dead_step", lambda self, action: None)

    assert _both(play, patch) == [["player_0", "player_1", "player_2", "player_3"]] * 2  # (nobody removed)


def test_another_class_s_methods_answer_after_a_class_change():
    class Mine(KierkiEnv):
        def step(self, action):
            self.stepped = action

        def last(self, observe=True):
            return "mine"

    e = _env(True)
    e.__class__ = Mine
    e.step(3)
    assert e.stepped == 3 and e.last() == "mine"


def test_agent_iter_is_an_iterable_not_an_iterator_as_pettingzoo_s():
    e = _env(True)
    ours, theirs = e.agent_iter(), AECIterable(e, 2**63)
    for kind in (collections.abc.Iterable, collections.abc.Iterator):
        assert isinstance(ours, kind) == isinstance(theirs, kind)
    assert isinstance(iter(ours), collections.abc.Iterator)
    with pytest.raises(TypeError):
        next(ours)


GONE = "freed (a weak reference's array once the environment dropped it)"


def _holders():
    """Every way a user may keep an array (or its memory) but the array itself: each a function of
    the array giving what is kept and how to read the memory back."""
    import ctypes
    import pickle
    import weakref

    def pickled(a):
        buffers: list = []
        data = pickle.dumps(a, protocol=5, buffer_callback=buffers.append)
        return buffers, lambda b: pickle.loads(data, buffers=b).tobytes()

    return {
        "memoryview": lambda a: (memoryview(a), lambda m: m.tobytes()),
        "a view": lambda a: (a[1:], lambda v: v.base.tobytes()),
        "np.frombuffer": lambda a: (np.frombuffer(a, np.float32 if a.dtype == np.float32 else np.int8), bytes),
        "np.asarray, a new dtype view": lambda a: (np.asarray(a).view(np.uint8), lambda v: v.tobytes()),
        "as_strided": lambda a: (np.lib.stride_tricks.as_strided(a), lambda v: v.tobytes()),
        "ctypes.from_buffer": lambda a: ((ctypes.c_char * a.nbytes).from_buffer(a), lambda c: bytes(c)),
        "a.ctypes": lambda a: (a.ctypes, lambda c: ctypes.string_at(c.data, c._arr.nbytes)),
        "np.from_dlpack": lambda a: (np.from_dlpack(a), lambda v: v.tobytes()),
        "a pickle's out-of-band buffer": pickled,
        "a weak reference": lambda a: (weakref.ref(a), lambda r: GONE if r() is None else r().tobytes()),
        "an object array": lambda a: (np.array([a, None], dtype=object), lambda o: o[0].tobytes()),
    }


@pytest.mark.parametrize("how", list(_holders()))
def test_memory_kept_any_way_is_never_handed_out_again(how):
    """The pool hands an array out again only when nobody holds it: whatever keeps its memory
    (a buffer export, a view, a weak reference) keeps it as it was handed out."""
    hold = _holders()[how]
    e = _env(True)
    kept = []
    for _ in range(30):  # past the pool's size many times
        obs = e.last()[0]
        for a in (obs["observation"], obs["action_mask"]):
            holder, read = hold(a)
            kept.append((holder, read, a.tobytes()))
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        del obs, a
    for holder, read, before in kept:
        assert read(holder) in (before, GONE)


@pytest.mark.parametrize("base", [object, str], ids=["an object", "a str subclass"])
@pytest.mark.parametrize("where", ["__dict__", "_cumulative_rewards", "terminations", "infos", "_seats", "game"])
def test_a_colliding_key_is_compared_as_often_as_in_pettingzoo_by_what_the_calls_keep(where, base):
    """What the C calls keep between calls (``_envmemo.h``) reads only dicts whose keys are all
    exact ``str``, checked before any lookup (on CPython 3.11 from the table's kind): a key of
    another type, or of a subclass of ``str``, colliding with the names or agents looked up is
    compared as often as the Python methods compare it, through whole deals."""

    def play(e):
        compared: list = []
        names = [e.agent_selection, "agent_selection", "game", "_seats", "totals", "_fast", "_step"]

        class Key(base):  # type: ignore[valid-type,misc]
            def __new__(cls, name):
                key = base.__new__(cls, name + "'") if base is str else base.__new__(cls)
                key.name = name
                return key

            def __init__(self, name):
                pass

            def __hash__(self):
                return hash(self.name)

            def __eq__(self, other):
                compared.append(other)
                return False

        target = e.game.__dict__ if where == "game" else e.__dict__ if where == "__dict__" else getattr(e, where)
        for name in names:
            target[Key(name)] = None
        out = []
        for _ in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            out.append((obs["action_mask"].tobytes(), reward, terminated, len(compared)))
            e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
        return out, compared

    fast, slow = _both(play)
    assert slow[1], "the colliding key was never compared: the test would show nothing"
    assert fast == slow


def _steps_and_selections(e, n: int = 6) -> list:
    """``n`` first legal steps of ``e``, each followed by the agent selected and the infos."""
    out = []
    for _ in range(n):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        out.append((e.agent_selection, {a: dict(i) for a, i in e.infos.items()}))
    return out


@pytest.mark.parametrize("name", ["_after_step", "_agent"])
def test_the_rest_of_a_step_replaced_on_the_class_or_the_instance(monkeypatch, name):
    """The C ``step`` does ``_after_step`` and ``_agent``'s work too (mid-deal): one replaced on the
    class or set on the instance, the replacement answers, as in the Python method."""
    original = getattr(KierkiEnv, name)

    def after_step(self, agent, game, before):
        original(self, agent, game, before)
        self.infos[agent] = {"seen": True}

    def agent(self, game):
        chosen = original(self, game)
        self.infos[chosen] = {"chosen": True}
        return chosen

    mine = after_step if name == "_after_step" else agent
    fast, slow = _both(_steps_and_selections, lambda: monkeypatch.setattr(KierkiEnv, name, mine))
    assert fast == slow
    monkeypatch.undo()

    def play(e):
        setattr(e, name, mine.__get__(e))
        return _steps_and_selections(e)

    fast, slow = _both(play)
    assert fast == slow


def _class_of_one_s_own(kind: str) -> type:
    """A subclass of KierkiEnv that reads or writes an attribute the C calls read (``kind``): a
    property ``terminations`` (every agent terminated), a ``__setattr__`` noting each write, a
    ``__getattribute__`` answering ``agents`` with none."""

    class Terminated(KierkiEnv):
        @property
        def terminations(self):
            return dict.fromkeys(self.__dict__["terminations"], True)

        @terminations.setter
        def terminations(self, value):
            self.__dict__["terminations"] = value

    class Noted(KierkiEnv):
        def __setattr__(self, name, value):
            self.__dict__.setdefault("noted", []).append(name)
            object.__setattr__(self, name, value)

    class Gone(KierkiEnv):
        def __getattribute__(self, name):
            return [] if name == "agents" else object.__getattribute__(self, name)

    return {"property": Terminated, "__setattr__": Noted, "__getattribute__": Gone}[kind]


@pytest.mark.parametrize("kind", ["property", "__setattr__", "__getattribute__"])
@pytest.mark.parametrize("when", ["class changed", "class attribute added"])
def test_an_attribute_the_class_reads_or_writes_itself(kind, when):
    """The C calls read the instance dict where getattr would: an environment whose class (changed
    to a subclass, or given the attribute later) has a property or its own ``__getattribute__``
    or ``__setattr__`` is answered as the Python methods answer, its ``agent_iter`` too."""
    mine = _class_of_one_s_own(kind)

    def play(e):
        it = iter(e.agent_iter())
        out = [next(it, None)]
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        if when == "class changed":
            e.__class__ = mine
        else:
            e.__class__ = type("Later", (KierkiEnv,), {})
            e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
            name = {"property": "terminations"}.get(kind, kind)
            setattr(type(e), name, vars(mine)[name])
        out.append(next(it, None))
        out.append(_outcome(lambda: e.last()[1:]))
        out.append(_outcome(e.step, int(np.flatnonzero(e.last()[0]["action_mask"])[0])))
        out.append((e.__dict__.get("agent_selection"), e.__dict__.get("noted")))
        return out

    def theirs(e):
        e.agent_iter = lambda max_iter=2**63: AECIterable(e, max_iter)
        return play(e)

    fast, slow = _env(True), _env(False)
    assert play(fast) == theirs(slow)


def _meddle_freeing(e, rng) -> None:
    """Replace something the C calls read by an equal copy, the old one freed (a dict, the agent
    selected, the agents, the game, the instance dict itself)."""
    r = rng.randrange(8)
    if r == 0:
        e.terminations = dict(e.terminations)
    elif r == 1:
        e._cumulative_rewards = dict(e._cumulative_rewards)
    elif r == 2:
        e.agent_selection = _fresh(e.agent_selection)
    elif r == 3:
        e.possible_agents = [_fresh(a) for a in e.possible_agents]
    elif r == 4:
        e._seats = dict(e._seats)
    elif r == 5:
        e.__dict__ = dict(e.__dict__)
    elif r == 6:
        e.infos = {a: dict(i) for a, i in e.infos.items()}
    elif r == 7:
        e.game.__dict__ = dict(e.game.__dict__)


def test_a_collection_in_the_middle_of_a_call_changing_the_environment():
    """A collection may run code (finalizers; here ``gc.callbacks``) at any allocation inside a C
    call, and that code may replace what the call read, freeing it: the call never uses what it
    read but did not hold (run under .ci/sanitize, a read of freed memory stops it), and after
    every call the C ``last`` says what PettingZoo's says."""
    e, rng, meddling = _env(True), random.Random(7), [False]

    def meddle(phase, info):
        if phase == "start" and meddling[0]:
            meddling[0] = False  # (once a collection: its own allocations collect again)
            _meddle_freeing(e, rng)
            meddling[0] = True

    threshold = gc.get_threshold()
    gc.callbacks.append(meddle)
    gc.set_threshold(1, 1, 1)
    try:
        for _ in range(200):
            meddling[0] = True
            obs, _, terminated, truncated, _ = e.last()
            stepped = _outcome(e.step, None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
            meddling[0] = False
            if not e.agents:
                e.reset(seed=rng.randrange(100))
            ours, theirs = e.last(), AECEnv.last(e)
            assert stepped == ("ok", None)
            assert [ours[0]["observation"].tobytes(), ours[0]["action_mask"].tobytes(), *ours[1:]] == [
                theirs[0]["observation"].tobytes(),
                theirs[0]["action_mask"].tobytes(),
                *theirs[1:],
            ]
    finally:
        meddling[0] = False
        gc.callbacks.remove(meddle)
        gc.set_threshold(*threshold)


@pytest.mark.parametrize("change", ["__dict__", "possible_agents"])
def test_a_reward_s_destructor_changing_the_environment_mid_step(change):
    """``step`` zeroes the agent's cumulative reward, releasing the old one, whose destructor may
    change the environment (here: its instance dict replaced by a copy, or its agents' names): the
    rest of the step reads and writes the environment as it is then, as PettingZoo's does (the C
    step wrote the next agent into the instance dict replaced: the step was lost)."""

    def play(e):
        class Reward(float):
            def __del__(self):
                if change == "__dict__":
                    e.__dict__ = dict(e.__dict__)
                else:
                    e.possible_agents = [a.upper() for a in e.possible_agents]

        seen = []
        for _ in range(8):
            e._cumulative_rewards[e.agent_selection] = Reward(0.0)
            agent = e.agent_selection
            seen.append((agent, _outcome(e.step, int(np.flatnonzero(KierkiEnv.observe(e, agent)["action_mask"])[0]))))
            seen.append(e.agent_selection)
            if change != "__dict__":
                e.possible_agents = [a.lower() for a in e.possible_agents]
                e.agent_selection = e.agent_selection.lower()
        return seen

    fast, slow = _both(play)
    assert fast == slow


def test_a_dead_agent_s_info_whose_destructor_replaces_the_instance_dict():
    """A dead agent's step deletes its info, whose destructor may replace the environment's
    instance dict (by a copy): the rest of the step writes the environment as it is then, as
    PettingZoo's ``_was_dead_step`` does (the C step wrote the next agent into the dict replaced)."""

    def play(e):
        class Info(dict):
            def __del__(self):
                e.__dict__ = dict(e.__dict__)

        while not e.terminations[e.agent_selection]:
            e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        seen = []
        for _ in e.possible_agents:
            e.infos[e.agent_selection] = Info()
            seen.append(
                (e.agent_selection, _outcome(e.step, None), list(e.agents), e.__dict__.get("_skip_agent_selection"))
            )
        return seen

    fast, slow = _both(play)
    assert fast == slow


def test_a_reward_s_destructor_changing_the_dicts_in_a_dead_agent_s_step():
    """A dead agent's step clears the rewards, releasing the old ones, whose destructor may change
    the dicts the C calls keep from one call to the next (here: the next agent's info and
    cumulative reward, in place): ``last`` then says what PettingZoo's says (the C step follows its
    own writes of a dead step, never what code run after them changed)."""

    def play(e):
        class Reward(float):
            def __del__(self):
                e.infos[e.agent_selection] = {"changed": self.real}
                e._cumulative_rewards[e.agent_selection] = self.real

        while not e.terminations[e.agent_selection]:
            e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        seen = [e.last()[1:]]
        for k in range(len(e.possible_agents)):
            for a in e.rewards:
                e.rewards[a] = Reward(k + 0.5)
            seen.append((e.agent_selection, _outcome(e.step, None), list(e.agents)))
            if e.agents:
                seen.append(e.last()[1:])
        return seen

    fast, slow = _both(play)
    assert fast == slow
