"""The seat boundary: what a seat is handed is plain data built for that seat alone.

Every view of every seat, in every phase of every deal type of every shipped ruleset, is
walked object by object (``gc.get_referents``): it reaches only ints, strings, ``None`` and
tuples — never a deal state, a compiled rule, a callable or a mutable container — and no card
of another seat's hand that has not been played. Views also survive JSON unchanged, and the
reason for an illegal card comes from the view and the rules alone.
"""
from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import pytest

from kierki_dsl.cards import bits
from kierki_dsl.interpreter.match import MatchRunner, deal_out, shuffled
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.interpreter.view import PART_TYPES, SeatView
from kierki_dsl.players.base import Player, make_player
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.yaml"))
LEAVES = (int, str, bool, type(None))


def walk(view: SeatView) -> list:
    """Every object reachable from the view, the view itself included."""
    seen, out, todo = set(), [], [view]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, LEAVES):
            continue
        todo.extend(r for r in gc.get_referents(obj) if r is not SeatView and r not in PART_TYPES.values())
    return out


def cards_in(view: SeatView) -> set:
    """Every card id the view mentions outside the seat's own hand (all of them played)."""
    cards = {c for _, c in view.trick}
    for _, plays, _ in view.completed:
        cards |= {c for _, c in plays}
    for row in view.layout or ():
        if row is not None:
            cards |= set(row)
    return cards


def check_view(view: SeatView, true_hand: int, played: int, held=None) -> None:
    for obj in walk(view):
        # the phases' parts: frozen classes of plain fields, each declared by its phase
        assert type(obj) in (SeatView, tuple) + tuple(PART_TYPES.values()) + LEAVES, f"a view reaches a {type(obj).__name__}"
        assert not callable(obj), "a view reaches a callable"
    assert view.hand & ~true_hand == 0, "a view holds a card that is not in its seat's hand"
    assert all(played >> c & 1 for c in cards_in(view)), "a view names a card nobody has played"
    # exposed cards are public: each one is named with the seat that showed it, which held it
    assert all(type(s) is int and type(c) is int for s, c in view.exposed)
    assert held is not None or not view.exposed
    assert all((held[s] | played) >> c & 1 for s, c in view.exposed), "an exposed card its seat does not hold"
    # with a stock: its size and every seat's count of draws are numbers; the cards drawn are
    # the seat's own (held or played), and no card of the stock is ever named
    assert type(view.stock) is int and all(type(k) is int for k in view.drawn)
    assert all((true_hand | played) >> c & 1 for c in view.drew), "a view names a drawn card that is not its own"
    assert SeatView.from_json(json.loads(json.dumps(view.to_json()))) == view


def _contracts(rs):
    return [c for c in rs.contracts.values() if c is not None]


@pytest.mark.parametrize("path", SHIPPED)
def test_every_view_of_every_phase_is_plain_data_for_its_seat(path):
    rs = Ruleset.load(str(ROOT / path))
    rng = random.Random(7)
    for contract in _contracts(rs):
        dealer = rng.randrange(rs.players)
        dealt = deal_out(shuffled(rng, rs.deck), dealer, rs.players, rs.direction)
        state = contract.new_deal(rs.players, rs.deck, dealer, dealt, rs.direction, 1)
        phases = set()
        played = 0
        while True:
            hands = list(state.hands)
            for seat in range(rs.players):
                view = state.view(seat)
                phases.add(view.phase)
                # during a trump call the seat holds only the cards seen so far
                check_view(view, hands[seat] | sum(1 << c for c in dealt[seat]), played, hands)
            if state.is_terminal():
                break
            acts = state.legal_actions()
            action = acts[rng.randrange(len(acts))]
            if action < 52:
                played |= 1 << action
            state.apply_action(action)
        assert "done" in phases


class Recorder(Player):
    """Plays at random and keeps what ``act`` received."""

    name = "recorder"

    def __init__(self, log):
        self.inner, self.log = make_player("random"), log

    def reset(self, seed, seat, rules=None):
        super().reset(seed, seat, rules)
        self.inner.reset(seed, seat, rules)

    def act(self, view, *rest):
        self.log.append((view, rest))
        return self.inner.act(view)


@pytest.mark.parametrize("path", ["rulesets/games/barbu.yaml", "rulesets/kierki_standard.yaml",
                                  "rulesets/games/hearts.yaml"])
def test_what_act_receives_is_only_the_view(path):
    rs = Ruleset.load(str(ROOT / path))
    log: list = []
    runner = MatchRunner(rs, [Recorder(log) for _ in range(rs.players)], seed=2)
    for result in runner.deals():
        pass
    assert log and {v.phase for v, _ in log} >= {"play"}
    for view, rest in log:
        assert rest == (), "act receives the view and nothing else"
        for obj in walk(view):
            assert type(obj) in (SeatView, tuple) + tuple(PART_TYPES.values()) + LEAVES
    if path.endswith("barbu.yaml"):
        assert "choose" in {v.phase for v, _ in log}


def test_the_reason_for_an_illegal_card_needs_only_the_view():
    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    rng = random.Random(4)
    contract = rs.contracts["bez_kierow"]
    checked = 0
    for _ in range(20):
        state = contract.new_deal(4, rs.deck, 0, deal_out(shuffled(rng, rs.deck), 0, 4))
        while not state.is_terminal():
            seat = state.current_player()
            view = state.view(seat)
            for card in bits(state.hands[seat]):
                assert illegal_reason(view, card, contract) == state.why_illegal(card)
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 1000


def test_a_view_document_with_unknown_fields_is_refused():
    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    state = rs.contracts["bez_lew"].new_deal(4, rs.deck, 0, deal_out(shuffled(random.Random(1), rs.deck), 0, 4))
    doc = state.view(1).to_json()
    doc["hands"] = [1, 2, 3]
    with pytest.raises(ValueError, match="unknown view fields: hands"):
        SeatView.from_json(doc)


@pytest.mark.parametrize("path", ["rulesets/kierki_standard.yaml", "rulesets/games/barbu.yaml",
                                  "rulesets/games/hearts.yaml"])
def test_every_deal_type_fulfils_the_deal_protocols(path):
    from kierki_dsl.interpreter.protocol import CompiledContract, DealState

    rs = Ruleset.load(str(ROOT / path))
    dealt = deal_out(shuffled(random.Random(0), rs.deck), 0, rs.players)
    for contract in _contracts(rs):
        assert isinstance(contract, CompiledContract), contract.name
        assert isinstance(contract.new_deal(rs.players, rs.deck, 0, dealt), DealState), contract.name


def test_a_views_cards_as_a_set():
    from kierki_dsl.cards import SUIT_MASK, CardSet, card_str

    rs = Ruleset.load(str(ROOT / "rulesets/kierki_standard.yaml"))
    dealt = deal_out(shuffled(random.Random(5), rs.deck), 0, 4)
    view = rs.contracts["bez_lew"].new_deal(4, rs.deck, 0, dealt).view(2)
    cards = view.hand_cards
    assert isinstance(cards, CardSet) and len(cards) == 13 and set(cards) == set(dealt[2])
    assert str(cards) == " ".join(card_str(c) for c in sorted(dealt[2]))
    assert cards.suit(1).mask == view.hand & SUIT_MASK[1] and not view.played_cards


@pytest.mark.parametrize("path", ["rulesets/games/barbu.yaml", "tests/data/web/barbu_two_deals.yaml",
                                  "rulesets/kierki_standard.yaml"])
def test_every_decision_of_a_match_has_its_own_deal_and_ply(path):
    """(deal_number, ply) names one decision: a stale click or message is refused by it, so the
    declarer's choice and the chosen deal's first decision must not share a name."""
    from kierki_dsl.interpreter.match import Match

    m, rng, seen = Match(Ruleset.load(str(ROOT / path)), 5), random.Random(5), set()
    for _ in range(400):
        if m.to_move() < 0:
            break
        view = m.view(m.to_move())
        key = (view.deal_number, view.ply)
        assert key not in seen, (key, view.phase)
        seen.add(key)
        m.apply(rng.choice(view.legal))
    assert len(seen) == 400 or m.to_move() < 0
