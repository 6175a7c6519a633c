"""The fast path and the step-by-step state play the same game: identical plays and per-seat
scores, deal by deal, for every contract of every shipped ruleset that has a fast path.

Both draw from the same random stream with the fast path's protocol (``fastplay``): a called
trump first; passes seat by seat, the k-th of the cards left; a lead or a discard always
draws the k-th legal card, lowest first; a follow draws only when there is a choice; a layout
draws only among two or more playable cards.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from kierki_dsl.interpreter.actions import PASS, call
from kierki_dsl.interpreter.match import deal_masks, draw
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.yaml"))
DEALS = 25


def _passes(hands: list, count: int, grb) -> list:
    """The cards each seat passes, drawn as the fast path draws them."""
    out = []
    for h in hands:
        given, cards = 0, []
        for _ in range(count):
            m = h & ~given
            k = (grb(32) * m.bit_count()) >> 32
            while k:
                m &= m - 1
                k -= 1
            given |= m & -m
            cards.append((m & -m).bit_length() - 1)
        out.append(cards)
    return out


def _step(state, rng) -> list:
    """Play ``state`` to the end with the fast path's random protocol; the cards played (and a
    layout's passes: its kernel logs every action of play)."""
    grb = rng.getrandbits
    plays, passes = [], None
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.phase == "pass":
            passes = passes or _passes(list(state.hands), state.contract.passing.count, grb)
            action = passes[state.current_player()][len(state.passes[state.current_player()])]
        elif state.phase == "call":
            choices = state.contract.call.choices
            action = call(choices[draw(rng, len(choices))])
        elif legal == [PASS]:
            action = PASS
        else:
            cards = [a for a in legal if a < 52]
            trick = getattr(state, "trick", None)
            follows = bool(trick) and cards[0] // 13 == state.led
            must_draw = trick is not None and not follows  # a lead or a discard
            action = cards[draw(rng, len(cards))] if must_draw or len(cards) > 1 else cards[0]
        if (action < 52 or action == PASS) and state.phase == "play":  # a card, or a layout's pass
            plays.append(action)
        state.apply_action(action)
    return plays


def _fast_contracts(rs):
    tricks = rs.hand_size
    return [c for name, c in sorted(rs.contracts.items())
            if c is not None and c.fast_player(rs.players, tricks, rs.deck) is not None]


@pytest.mark.parametrize("path", SHIPPED)
def test_fast_path_and_step_by_step_state_agree(path):
    _agree(path, Ruleset.load(str(ROOT / path)))


def _agree(path, rs):
    """Every contract of ``rs`` with a fast path plays as the step-by-step state, deal by deal."""
    cards = [c for c in range(52) if rs.deck >> c & 1]
    contracts = _fast_contracts(rs)
    if not contracts:
        pytest.skip(f"{path}: no contract has a fast path (every one is played by the interpreter)")
    for contract in contracts:
        for seed in range(DEALS):
            deal_rng = random.Random(seed)
            dealer = seed % rs.players
            hands = deal_masks(deal_rng, cards, dealer, rs.players, rs.direction)
            fast_log: list = []
            fast_scores = contract.play_fast(rs.players, rs.deck, dealer, list(hands), rs.direction, seed + 1,
                                             random.Random(seed * 7 + 1), fast_log)
            dealt = [[c for c in range(52) if h >> c & 1] for h in hands]
            state = contract.new_deal(rs.players, rs.deck, dealer, dealt, rs.direction, seed + 1)
            step_log = _step(state, random.Random(seed * 7 + 1))
            where = f"{path}: {contract.name}, deal seed {seed}"
            assert step_log == fast_log, where
            assert state.returns() == fast_scores, where
            facts: dict = {}
            plain = contract.play_fast(rs.players, rs.deck, dealer, list(hands), rs.direction, seed + 1,
                                       random.Random(seed * 7 + 1), facts=facts)
            assert plain == fast_scores, where + " (the kernel without a log)"
            assert facts["early"] == getattr(state, "ended_early", False), where
            assert facts["blocked"] == getattr(state, "blocked", False), where


def test_the_differential_test_covers_both_deal_types():
    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    names = {c.name for c in _fast_contracts(rs)}
    assert {"bez_lew", "rozbojnik", "loteryjka"} <= names



#: Contracts the shipped rulesets do not cover, each the only deal of a four-player ruleset: a
#: card penalty that depends on the trick number (a ``when`` on ``per_card``) with no trick
#: points or the same in every trick, or with an early stop; an early stop with seat scoring
#: (which never stops: a trick still scores for the seat that takes it); a rule that depends on the trick
#: number but not on hearts broken.
VARIANTS = {
    "penalty by trick, no trick points": """
    score:
    - per_card: card.suit == hearts
      points: -1
      when: not trick.is_last
    """,
    "penalty by trick, constant trick points": """
    score:
    - per_card: card.suit == hearts
      points: -1
      when: not trick.is_last
    - per_trick: -2
    """,
    "penalty by trick, early stop": """
    early_stop: true
    score:
    - per_card: card.suit == diamonds
      points: -10
      when: not trick.number == 7
    """,
    "early stop with seat scoring": """
    early_stop: true
    score:
    - per_card: card == QS
      points: -13
    - per_seat: tricks_taken
    """,
    "rule by trick number only": """
    restrictions:
    - phase: any
      forbid: card.suit == hearts
      when: trick.is_first
    - phase: lead
      forbid: card == QS
      when: trick.number < 6
    score:
    - per_card: card.suit == hearts
      points: -1
    """,
}


def variant(tmp_path, name: str) -> Ruleset:
    """The ruleset of ``VARIANTS[name]``."""
    path = tmp_path / "variant.yaml"
    path.write_text("kierki: 1\nname: variant\nplayers: 4\nmatch:\n  schedule: [hand]\ncontracts:\n  hand:\n"
                    "    first_lead: dealer" + VARIANTS[name])
    return Ruleset.load(str(path))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_fast_path_agrees_on_contracts_the_shipped_rulesets_lack(tmp_path, name):
    rs = variant(tmp_path, name)
    assert _fast_contracts(rs), f"{name}: the variant has no fast path to compare"
    _agree(name, rs)
