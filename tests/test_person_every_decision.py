"""Every decision kind of every shipped ruleset, taken by a person at the terminal (issue 21,
point 6): seeded matches are played at random until each kind of decision a ruleset has (its
phase and the kind of action: a card, a bid, a pass, a trump call, a double, an exposure, a
choice, a rank named, an exchange, a raise…) has come up; at the first of each, a person types
the label of a legal action of that kind and the terminal takes exactly that action; once per
phase, an illegal action of the phase typed first is refused, with the rule's reason or the
actions allowed.

The terminal (``players/human.py``) knows no phase: what it shows and reads comes from the phase
registry. The sweep over every shipped ruleset is slow (``-m slow``); four rulesets with the most
kinds of decision run in the default suite.
"""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from kierki_dsl import phases
from kierki_dsl.cards import pretty_cards
from kierki_dsl.interpreter.actions import BID_BASE, action_str
from kierki_dsl.interpreter.match import Match
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent / "rulesets"
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*.yaml"))
QUICK = ["kierki_standard.yaml", "games/tysiac.yaml", "games/barbu.yaml", "games/trix.yaml"]
STEPS = 4000  # random actions per ruleset at most (a Tysiąc match can run long)
CANDIDATES = range(BID_BASE + 1000)  # where an illegal action of a phase is looked for


def kind_of(action: int) -> str:
    """The kind of an action: ``card`` or its record notation's word (``bid``, ``call``, ``pass``…)."""
    return "card" if action < 52 else action_str(action).split(":")[0]


def typed(rs, view, lines: list) -> tuple:
    """The action a person's typed lines give at this decision, and what the terminal said."""
    out = io.StringIO()
    person = HumanPlayer(stdin=io.StringIO("".join(t + "\n" for t in lines)), stdout=out, ruleset=rs)
    person.reset(1, view.seat, rs)
    return person.act(view), out.getvalue()


def illegal_of(rs, view):
    """(words, action) of an action the deciding phase numbers that is illegal here and that the
    phase reads back from its own label; None when every action of the phase is legal. A card must
    be held (a card not held is refused as not held, not by a rule)."""
    unit = phases.phase_of(view)
    for a in CANDIDATES:
        if a in view.legal or not unit.owns(a) or (a < 52 and not view.hand >> a & 1):
            continue
        words = phases.label(view, a, rs)
        try:
            if phases.parse(view, words, rs) == a:
                return words, a
        except phases.NotUnderstood:
            continue
    return None


def take_decision(rs, view, kind: str) -> bool:
    """A person takes an action of ``kind`` by its label (and first types an illegal one, refused
    with its reason, when the phase has one). True when a refusal was checked."""
    wanted = next(a for a in view.legal if kind_of(a) == kind)
    forced = phases.phase_of(view).forced(view)
    if forced is not None:  # no choice worth asking: said, then taken, nothing typed
        action, shown = typed(rs, view, [])
        assert action == forced[0] == wanted and forced[1] in shown, shown
        return False
    label = phases.label(view, wanted, rs)
    bad = illegal_of(rs, view)
    lines = ([bad[0]] if bad else []) + [label]
    action, shown = typed(rs, view, lines)
    assert action == wanted, f"{label!r} gave {action_str(action)}, not {action_str(wanted)}\n{shown}"
    if bad is None:
        return False
    reason = illegal_reason(view, bad[1], rs.contracts.get(view.contract), lambda a: phases.label(view, a, rs))
    assert reason, f"no reason for the illegal {bad[0]!r}"
    reason = pretty_cards(reason)  # the terminal writes cards in one notation (A♠, not AS)
    refusal = phases.phase_of(view).refusal(view, bad[0], bad[1], reason, rs)
    assert refusal in shown, shown
    # the refusal tells the rule, or (a phase that words it better, as the raise after the musik)
    # the actions that are allowed
    assert reason in refusal or all(phases.label(view, a, rs) in refusal for a in view.legal[:3]), refusal
    return True


def sweep(path: str) -> dict:
    """Random seeded play of ``path``; every (phase, kind) met, taken by a person at its first
    decision: (phase, kind) -> whether a refusal was checked there."""
    rs = Ruleset.load(str(ROOT / path))
    met: dict = {}
    steps = 0
    for seed in range(20):
        m, rng = Match(rs, seed), random.Random(seed)
        while not m.over and steps < STEPS:
            view = m.view(m.to_move())
            unit = phases.phase_of(view).name
            for kind in sorted({kind_of(a) for a in view.legal}):
                if (unit, kind) not in met:
                    met[(unit, kind)] = take_decision(rs, view, kind)
            m.apply(rng.choice(view.legal))
            steps += 1
        if steps >= STEPS:
            break
    return met


def check(path: str) -> dict:
    met = sweep(path)
    assert ("play", "card") in met or ("layout", "card") in met or any(k == "card" for _, k in met), met
    return met


@pytest.mark.parametrize("path", QUICK)
def test_a_person_takes_every_kind_of_decision_of_these_rulesets(path):
    met = check(path)
    assert len(met) >= 3, met  # each of these rulesets has cards and at least two other decisions
    assert any(met.values()), f"no illegal action was typed and refused in {path}: {met}"


def test_the_quick_rulesets_cover_the_decision_kinds_of_the_issue():
    """A bid, an exposure, a double, a pass, a trump call, a choice, a card, a rank named, a raise."""
    kinds = set()
    for path in QUICK + ["games/hearts.yaml"]:
        kinds |= {k for _, k in sweep(path)}
    assert {"bid", "expose", "double", "pass", "call", "choose", "card", "rank"} <= kinds, kinds


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in SHIPPED if p not in QUICK])
def test_every_shipped_ruleset_every_kind_of_decision(path):
    check(path)
