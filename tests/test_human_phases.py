"""A person at the terminal takes every kind of decision of shipped rulesets, by the words its phase
module declares: a bid, an exposure, a double, a pass of cards, a trump call, a declarer's choice,
a widow's exchange, a layout pass and a card. Each is accepted when legal; an illegal one typed
first is refused with the rule it breaks (the reason the rules give, from the seat's view).
"""
from __future__ import annotations

import io
import os
import random

import pytest

from kierki_dsl import phases
from kierki_dsl.cards import card_pretty, pretty_cards
from kierki_dsl.interpreter.actions import DONE, is_expose, parse_action
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.ruleset.model import Ruleset

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rulesets")


def _decision(path: str, phase: str, wanted, seeds=range(40)):
    """(ruleset, view) of the first decision in ``phase`` for which ``wanted(view)`` holds, other
    decisions taken at random (seeded)."""
    rs = Ruleset.load(os.path.join(ROOT, path))
    for seed in seeds:
        m, rng = Match(rs, seed), random.Random(seed)
        for _ in range(2000):
            if m.over:
                break
            seat = m.to_move()
            view = m.view(seat)
            if phases.phase_of(view).name == phase and wanted(view):
                return rs, view
            m.apply(rng.choice(view.legal))
    pytest.fail(f"no {phase} decision found in {path}")


def _held_card(view, test) -> int:
    return next(c for c in range(52) if view.hand >> c & 1 and test(c))


def _play(rs, view, typed: list) -> tuple:
    """What the person's typed lines give (the action) and what the terminal said."""
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("".join(t + "\n" for t in typed)), stdout=out, ruleset=rs)
    human.reset(1, view.seat, rs)
    return human.act(view), out.getvalue()


def _reason(rs, view, action: int) -> str:
    """The rule ``action`` breaks, its list of legal actions worded by their phase's labels."""
    reason = illegal_reason(view, action, rs.contracts.get(view.contract), lambda a: phases.label(view, a, rs))
    assert reason, "the rules give a reason"
    return pretty_cards(reason)  # the terminal writes cards in one notation (A♠, not AS)


def _first_nonlegal_card(view):
    return next(c for c in range(52) if view.hand >> c & 1 and c not in view.legal)


CASES = {
    # kind: (ruleset, phase, when the decision qualifies, (illegal text, its action), legal text)
    "bid": ("games/tysiac.yaml", "auction", lambda v: any(a >= 1000 for a in v.legal),
            lambda v: ("105", parse_action("bid:105")), lambda v: next(phases.label(v, a) for a in v.legal if a >= 1000)),
    "exposure": ("games/trix.yaml", "expose", lambda v: any(is_expose(a) for a in v.legal)
                 and any(v.hand >> c & 1 and c % 13 != 10 for c in range(52)),
                 lambda v: (f"expose {card_pretty(_held_card(v, lambda c: c % 13 != 10))}",
                            900 + _held_card(v, lambda c: c % 13 != 10)),
                 lambda v: next(phases.label(v, a) for a in v.legal if is_expose(a))),
    "double": ("games/barbu.yaml", "double", lambda v: len(v.legal) > 1,
               lambda v: (f"double {'NESW'[v.seat]}", parse_action(f"double:{v.seat}")),
               lambda v: next(phases.label(v, a) for a in v.legal if a != DONE)),
    "pass of cards": ("games/hearts.yaml", "pass", lambda v: True,
                      lambda v: (card_pretty(next(c for c in range(52) if not v.hand >> c & 1)),
                                 next(c for c in range(52) if not v.hand >> c & 1)),
                      lambda v: phases.label(v, v.legal[0])),
    "trump call": ("kierki_standard.yaml", "call", lambda v: len(v.legal) < 5,
                   lambda v: next((phases.label(v, a), a) for a in range(53, 58) if a not in v.legal),
                   lambda v: phases.label(v, v.legal[0])),
    "choice": ("games/trix.yaml", "choose", lambda v: len(v.legal) < len(v.options),
               lambda v: next((phases.label(v, a, RULES["games/trix.yaml"]), a)
                              for a in range(100, 100 + len(v.options)) if a not in v.legal),
               lambda v: phases.label(v, v.legal[0], RULES["games/trix.yaml"])),
    "widow exchange": ("games/tysiac.yaml", "exchange", lambda v: True,
                       lambda v: (card_pretty(next(c for c in range(52) if not v.hand >> c & 1)),
                                  next(c for c in range(52) if not v.hand >> c & 1)),
                       lambda v: phases.label(v, v.legal[0])),
    "card": ("kierki_standard.yaml", "play", lambda v: v.trick and len(v.legal) < v.hand.bit_count(),
             lambda v: (card_pretty(_first_nonlegal_card(v)), _first_nonlegal_card(v)),
             lambda v: phases.label(v, v.legal[0])),
    "layout pass": ("kierki_standard.yaml", "layout", lambda v: v.legal and 52 not in v.legal,
                    lambda v: ("pass", 52), lambda v: phases.label(v, v.legal[0])),
}
RULES: dict = {}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_person_takes_each_kind_of_decision_and_is_told_why_an_illegal_one_is_refused(kind):
    path, phase, wanted, illegal, legal = CASES[kind]
    RULES.setdefault(path, Ruleset.load(os.path.join(ROOT, path)))
    rs, view = _decision(path, phase, wanted)
    bad_text, bad = illegal(view)
    good_text = legal(view)
    assert bad not in view.legal
    action, shown = _play(rs, view, [bad_text, good_text])
    assert action in view.legal and phases.label(view, action, rs) == good_text, (action, good_text)
    if view.hand >> bad & 1 or bad >= 52:
        assert _reason(rs, view, bad) in shown, shown
    else:
        assert f"you do not hold {card_pretty(bad)}" in shown or "is not in your hand" in shown, shown
    assert phases.phase_of(view).refusal(view, bad_text, bad, _reason(rs, view, bad), rs) in shown


@pytest.mark.parametrize("kind", ["bid", "choice", "widow exchange", "card"])
def test_a_superscript_digit_typed_is_not_understood_not_a_crash(kind):
    """``²`` is a digit to ``str.isdigit`` but not to ``int()``: typed at any decision it is
    refused as text the phase does not understand, and the person types again."""
    path, phase, wanted, _illegal, legal = CASES[kind]
    RULES.setdefault(path, Ruleset.load(os.path.join(ROOT, path)))
    rs, view = _decision(path, phase, wanted)
    action, _shown = _play(rs, view, ["\u00b2", "1\u00b2", legal(view)])
    assert action in view.legal and phases.label(view, action, rs) == legal(view)


def test_a_superscript_digit_in_a_record_notation_names_no_action():
    """``choose:²``, ``bid:²``, ``double:²``: no action (None), as any other text that is not
    the notation, rather than ``int()``'s ValueError from inside the reader."""
    from kierki_dsl.interpreter import bidding, choice, doubling

    for read, text in (
        (choice.read_notation, "choose:\u00b2"),
        (bidding.read_notation, "bid:1\u00b2"),
        (doubling.read_notation, "double:\u00b2"),
    ):
        assert read(text) is None, text
    for unit in phases.UNITS.values():
        assert unit.read_notation(f"{unit.name}:\u00b2") is None, unit.name
