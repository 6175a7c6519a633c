"""The bots ask the phase deciding (its bot hooks, ``interpreter/phasekit/base.py``), never its name.

A phase registered from one module is played by the heuristic, search and random players
without a change to any player; the hooks of the shipped phases drive the search player's
candidates and rollouts; the session's privacy of an action is the phase's.
"""

from __future__ import annotations

import os
import random

import pytest

from kierki_dsl import phases
from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.actions import PASS
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.phases import PRIVATE
from kierki_dsl.interpreter.view import SeatView
from kierki_dsl.phases import CardPhase, PhaseUnit
from kierki_dsl.players.base import RandomPlayer
from kierki_dsl.players.heuristic import HeuristicPlayer
from kierki_dsl.players.search import SearchPlayer, before_play
from kierki_dsl.ruleset.model import Ruleset

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rulesets")
STANDARD = Ruleset.load(os.path.join(ROOT, "kierki_standard.yaml"))
TYSIAC = Ruleset.load(os.path.join(ROOT, "games", "tysiac.yaml"))
HAND = sum(1 << parse_card(c) for c in ("KH", "2S", "QD", "10C"))
STREAM = 424242


class FaceDown(CardPhase):
    """A phase that is not shipped: each seat lays a card face down; its bots lay the highest rank."""

    name = "face_down"

    def bot_action(self, view, rules):
        return max(view.legal, key=lambda c: (c % 13, c))

    def bot_stream(self, key: int) -> int:
        return STREAM


@pytest.fixture
def face_down(monkeypatch):
    """``FaceDown`` in the registry for one test (as ``phases.register`` puts it)."""
    monkeypatch.setitem(phases.UNITS, FaceDown.name, FaceDown())


def _view(phase: str, legal) -> SeatView:
    return SeatView(seat=0, contract=next(iter(STANDARD.contracts)), phase=phase, hand=HAND, legal=tuple(legal),
                    trick=(), led_suit=-1, trump=-1, caller=-1, dealer=3, trick_number=1, tricks_total=13,
                    played=0, scores=(0, 0, 0, 0), completed=(), players=4, deal_number=1)


def _player(cls, rules=STANDARD):
    p = cls()
    p.reset(1, 0, rules)
    return p


def test_a_phase_without_bot_hooks_leaves_its_decisions_to_the_players():
    unit = PhaseUnit()
    view = _view("play", [parse_card("KH"), parse_card("2S")])
    assert unit.bot_action(view, STANDARD) is None and unit.search_candidates(view) is None
    assert unit.rollout_action(None) is None and unit.bot_stream(17) == 17
    assert not unit.private and not unit.plain_tricks(view)
    assert max([3, 5], key=unit.search_tie) == 3  # a tie goes to the lowest action


def test_a_new_phase_is_played_by_the_bots_from_its_module_alone(face_down):
    view = _view("face_down", [parse_card("2S"), parse_card("KH"), parse_card("QD")])
    assert _player(HeuristicPlayer).act(view) == parse_card("KH")
    assert _player(SearchPlayer).act(view) == parse_card("KH")  # not searched: the heuristic's choice
    assert _player(RandomPlayer).rng(view).random() == random.Random(STREAM).random()


def test_the_search_player_weighs_the_candidates_the_phase_gives(monkeypatch):
    match = Match(TYSIAC, seed=3)
    view = match.view(match.to_move())
    unit = phases.phase_of(view)
    assert unit.name == "auction"
    assert unit.search_candidates(view)[0] == PASS and len(unit.search_candidates(view)) <= 4
    only = view.legal[-1]
    monkeypatch.setattr(type(unit), "search_candidates", lambda self, v: [only])
    assert _player(SearchPlayer, TYSIAC).act(view) == only


def test_a_rollout_plays_the_phases_before_play_by_their_rollout_action(monkeypatch):
    match = Match(TYSIAC, seed=3)
    st = match.state.clone()
    auction = str(st.phase)
    assert auction == "auction"
    done = st.clone()
    before_play(done)  # everybody passes, the widow's taker puts out his lowest cards and keeps his bid
    assert str(done.phase) == "play" and len(done.actions) > len(st.actions)
    monkeypatch.setattr(type(phases.UNITS[auction]), "rollout_action", lambda self, state: None)
    before_play(st)
    assert str(st.phase) == auction and not st.actions  # a phase with no rollout action stops the rollout


def test_the_private_phases_are_the_engines():
    shipped = {u.name for u in phases.UNITS.values() if u.private and not u.schema_key}  # not an added phase
    assert shipped == {str(p) for p in PRIVATE.shipped}
