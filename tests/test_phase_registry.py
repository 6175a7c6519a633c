"""The phase registry: every phase's labels and words, and a new phase shown by front ends from its
module alone.

A phase registered from one ``PhaseUnit`` (here "lay one card face down before play", which the
engine does not have: the view is made by hand) is played by a person at the terminal and sent to a
browser — its actions labelled, its words read, its panel shown — with no front-end file changed.
"""
from __future__ import annotations

import io
import os
from types import SimpleNamespace

import pytest

from kierki_dsl import phases
from kierki_dsl.cards import card_pretty, parse_card
from kierki_dsl.interpreter.actions import (
    CHOOSE_BASE,
    DONE,
    NO_TRUMP,
    PASS,
    bid,
    call,
    double,
    expose,
    parse_action,
    redouble,
)
from kierki_dsl.interpreter.view import SeatView
from kierki_dsl.phases import CardPhase, row
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.web.snapshot import seat_state

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rulesets")
STANDARD = Ruleset.load(os.path.join(ROOT, "kierki_standard.yaml"))
def choose_action(i: int) -> int:
    return CHOOSE_BASE + i


HAND = sum(1 << parse_card(c) for c in ("KH", "2S", "QD", "10C"))


def _view(phase: str, legal, **fields) -> SeatView:
    base = dict(seat=0, contract=next(iter(STANDARD.contracts)), phase=phase, hand=HAND, legal=tuple(legal), trick=(),
                led_suit=-1, trump=-1, caller=-1, dealer=3, trick_number=1, tricks_total=13, played=0,
                scores=(0, 0, 0, 0), completed=(), players=4, layout=None, deal_number=1)
    base.update(fields)
    return SeatView.of(**base)


@pytest.mark.parametrize("phase, action, words", [
    ("auction", bid(120), "120"), ("auction", PASS, "pass"), ("expose", expose(parse_card("KH")), "expose K♥"),
    ("expose", DONE, "done"), ("call", call(1), "trumps: hearts"), ("call", NO_TRUMP, "no trumps"),
    ("double", double(1), "double E"), ("double", redouble(2), "redouble S"), ("double", DONE, "done"),
    ("play", parse_card("KH"), "K♥"), ("pass", parse_card("2S"), "2♠"), ("exchange", parse_card("QD"), "Q♦"),
])
def test_each_phase_labels_its_actions_and_reads_its_labels_back(phase, action, words):
    view = _view(phase, [action] + ([PASS] if phase == "auction" and action != PASS else []))
    assert phases.label(view, action, STANDARD) == words
    assert phases.parse(view, words, STANDARD) == action


def test_a_choice_is_labelled_by_the_contracts_title():
    names = list(STANDARD.contracts)[:2]
    view = _view("choose", [choose_action(0), choose_action(1)], options=tuple(names))
    title = STANDARD.contracts[names[1]].pl
    assert phases.label(view, choose_action(1), STANDARD) == title
    assert phases.parse(view, title.lower(), STANDARD) == choose_action(1)
    assert phases.parse(view, "2", STANDARD) == choose_action(1)


def test_panels_show_each_phases_part_of_the_view():
    view = _view("play", [parse_card("KH")], auction=((1, 100), (2, 0)), bid=100, bidder=1,
                 widow=(parse_card("AS"), parse_card("9H")), taker=1, exposed=((2, parse_card("QS")),),
                 passed=(parse_card("2H"),), passed_to=3, received=(parse_card("3C"),))
    lines = phases.panel_lines(view, STANDARD)
    for expected in ("Auction so far: E 100, S pass", "Highest bid: 100 by E", "Widow: A♠ 9♥ (taken by E)",
                     "Exposed so far: S Q♠", "You passed 1 card to W: 2♥; you received 1 card from E: 3♣.", "Trumps: none",
                     "Trick so far: (you lead)"):
        assert expected in lines, (expected, lines)


def test_the_record_notation_is_not_the_labels():
    assert parse_action("bid:120") == bid(120) and parse_action("expose:KH") == expose(parse_card("KH"))


# -- a new phase from one module ---------------------------------------------------------------------

class FaceDown(CardPhase):
    """Before play, every player lays one card face down; it scores for whoever takes the last trick."""

    name = "face_down"
    expected = "a card to lay face down is expected"
    task = "lay a card face down"
    prompt_word = "a card to lay face down"

    def label(self, view, action: int, rules=None) -> str:
        return f"lay {card_pretty(action)} face down"

    def word(self, view, text: str, rules=None):
        return super().word(view, text.removeprefix("lay ").removesuffix(" face down"), rules)

    def refusal(self, view, text, action, reason, rules=None) -> str:
        return f"You cannot lay {text} face down: {reason or 'not allowed now'}."

    def panel(self, view, rules=None) -> list:
        if not self.matches(view):
            return []
        return [row("Face down", "each player lays one card face down; they score for whoever takes the last trick")]


@pytest.fixture
def face_down():
    unit = phases.register(FaceDown())
    try:
        yield unit
    finally:
        phases.UNITS.pop(unit.name)


def test_a_new_phase_is_played_at_the_terminal_from_its_module_alone(face_down):
    view = _view("face_down", [parse_card("KH"), parse_card("2S")])
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("QD\nlay 2♠ face down\n"), stdout=out, ruleset=STANDARD)
    human.reset(1, 0, STANDARD)
    assert human.act(view) == parse_card("2S")
    shown = out.getvalue()
    assert "Face down: each player lays one card face down" in shown
    assert "Legal: 1) 2♠  2) K♥" in shown and "a card to lay face down> " in shown
    assert "You cannot lay QD face down: another action is expected: lay K♥ face down, lay 2♠ face down." in shown


def test_a_new_phase_reaches_the_browser_from_its_module_alone(face_down):
    view = _view("face_down", [parse_card("KH"), parse_card("2S")])
    match = SimpleNamespace(totals=(0, 0, 0, 0), to_move=lambda: 0)
    table = SimpleNamespace(match=match, results=[], paused=False, over=False, occupied=lambda: {0},
                            view=lambda seat: view)
    room = SimpleNamespace(table=table, ruleset=STANDARD, id="t", kinds=["human"] * 4, failure=None, logs={})
    doc = seat_state(room, 0)
    assert doc["task"] == "lay a card face down"
    assert [a["label"] for a in doc["actions"]] == ["lay 2♠ face down", "lay K♥ face down"]
    assert {"phase": "face_down", "rows": FaceDown().panel(view)} in doc["panels"]
