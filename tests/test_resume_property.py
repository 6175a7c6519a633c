"""Issue 15, item 1: any number of resumes, kills and Ctrl-Cs, in any order, give the same
match as an uninterrupted one — through the real commands (`kierki run --save`, `kierki
resume`) and the real save file, in-process so that many orders can be tried."""
from __future__ import annotations

import contextlib
import io
import json
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kierki_dsl.entry import main
from kierki_dsl.players.base import PLAYERS, RandomPlayer

from conftest import RULESETS

SIK = str(RULESETS / "games" / "sik.yaml")
PLAYERS_ARG = "stopper,heuristic,stopper,random"


class Killed(BaseException):
    """The process dying mid-match (SIGKILL): nothing of the command's own handling runs."""


class Stopper(RandomPlayer):
    """A random player that, when told to, stops the match before its n-th decision: with a
    Ctrl-C (KeyboardInterrupt) or a kill (``Killed``)."""

    name = "stopper-test"
    plan: dict = {"left": None, "how": None}

    def act(self, view):
        left = Stopper.plan["left"]
        if left is not None:
            if left == 0:
                Stopper.plan["left"] = None
                raise KeyboardInterrupt if Stopper.plan["how"] == "ctrl_c" else Killed
            Stopper.plan["left"] = left - 1
        return super().act(view)


def _kierki(*args: str) -> tuple:
    """Run the command in-process: (exit code, stdout); a kill propagates as ``Killed``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    assert "internal error" not in err.getvalue(), err.getvalue()
    return code, out.getvalue()


def _command(save, first: bool, seed: int) -> list:
    if first:
        return ["run", SIK, "--seed", str(seed), "--players", PLAYERS_ARG.replace("stopper", Stopper.name),
                "--save", str(save), "--format", "json"]
    return ["resume", str(save), "--format", "json"]


STOPS = st.lists(st.tuples(st.sampled_from(["ctrl_c", "kill"]), st.integers(0, 40)), max_size=6)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 40), stops=STOPS)
def test_any_resumes_kills_and_ctrl_cs_give_the_match_of_one_uninterrupted_run(tmp_path, seed, stops):
    PLAYERS[Stopper.name] = Stopper
    fsync = mock.patch("os.fsync")  # durability is not what is tested here; a kill is a torn line
    fsync.start()
    try:
        Stopper.plan.update(left=None, how=None)
        whole = tmp_path / f"whole-{seed}.save"
        code, full = _kierki(*_command(whole, True, seed))
        assert code == 0
        save = tmp_path / f"cut-{seed}-{len(stops)}.save"
        save.unlink(missing_ok=True)
        first = True
        for how, n in stops:  # n decisions of the stopping seats, then Ctrl-C or kill
            Stopper.plan.update(left=n, how=how)
            try:
                code, _ = _kierki(*_command(save, first, seed))
            except Killed:
                with open(save, "ab") as f:  # the action in flight when the process died, torn
                    f.write(b'{"deal": 1, "seat"')
                code = None
            first = False
            if code == 0:  # the match ended before this stop came
                break
            assert code in (None, 130)
        Stopper.plan.update(left=None, how=None)
        code, resumed = _kierki(*_command(save, first, seed))
        assert code == 0
        assert json.loads(resumed)["deals"] == json.loads(full)["deals"]
        assert save.read_bytes() == whole.read_bytes(), "every action saved once, in order: the same save file"
    finally:
        fsync.stop()
        PLAYERS.pop(Stopper.name, None)
        Stopper.plan.update(left=None, how=None)
