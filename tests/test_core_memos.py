"""The C memos a deal on the compiled step core asks instead of Python (``stepper._memos``: a
trick's programs, the first lead, seat scoring at the deal's end, keyed on what the plan says each
reads) give what the interpreter gives: for every carried contract of every shipped ruleset, random
deals end with the interpreter's returns and first leader, also when the same deal is played twice
(the second time answered by the memos), and a memo answers without asking Python again.

Under ``KIERKI_REQUIRE_C=1`` (CI) a core that was not built is a failure, not a skip.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from test_cstep import SHIPPED, _carried, _dealt  # noqa: E402  (the step core's deals and rulesets)

from kierki_dsl.interpreter import stepper
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
DEALS = 5

pytestmark = pytest.mark.skipif(
    not stepper.available() and not os.environ.get("KIERKI_REQUIRE_C"),
    reason="the compiled step core is not built here (KIERKI_REQUIRE_C=1 makes this fail)",
)


def _played(rs, contract, dealer: int, dealt: list, number: int, seed: int, policy=None) -> tuple:
    """(returns, first leader) of the deal played on the core and on the interpreter (the same
    actions: at random, or ``policy(seat, legal)``), each as a pair."""
    core = stepper.core_deal(contract, rs.players, rs.deck, dealer, dealt, rs.direction, number)
    deal = contract.new_deal(rs.players, rs.deck, dealer, dealt, rs.direction, number)
    rng = random.Random(seed)
    while not deal.is_terminal():
        acts = deal.legal_actions()
        assert core.legal_actions() == acts
        a = acts[rng.randrange(len(acts))] if policy is None else policy(deal.current_player(), acts)
        core.apply_action(a)
        deal.apply_action(a)
    assert core.is_terminal()
    return (core.returns(), deal.returns()), (core.leader, deal.leader)


@pytest.mark.parametrize("path", SHIPPED)
def test_memoised_deals_end_as_the_interpreter(path):
    rs = Ruleset.load(str(ROOT / path))
    contracts = _carried(rs)
    if not contracts:
        pytest.skip(f"{path}: no contract is carried by the core")
    for contract in contracts:
        for seed in range(DEALS):
            dealer, dealt = _dealt(rs, seed)
            number = 1 + seed % 4
            first = _played(rs, contract, dealer, dealt, number, seed)
            again = _played(rs, contract, dealer, dealt, number, seed)  # the memos hold this deal now
            for ours, theirs in first + again:
                assert ours == theirs, f"{path} {contract.name} seed {seed}"


def test_a_memo_answers_without_python(monkeypatch):
    """Hearts keys its first lead (the holder of 2C) and seat scoring (hearts and QS taken per
    seat): the same deal played again asks neither of Python."""
    rs = Ruleset.load(str(ROOT / "rulesets" / "games" / "hearts_openspiel.yaml"))
    contract = rs.contract_at(0)
    dealer, dealt = _dealt(rs, 7)
    _played(rs, contract, dealer, dealt, 1, 7)
    asked: list = []
    for name in ("_begin", "_finish"):
        own = getattr(stepper._Deal, name)
        monkeypatch.setattr(
            stepper._Deal, name, lambda ctx, core, own=own, name=name: asked.append(name) or own(ctx, core)
        )
    (ours, theirs), _ = _played(rs, contract, dealer, dealt, 1, 7)
    assert ours == theirs
    assert asked == []


KEYED = """
kierki: 1
name: Seat scoring the memo keys on the dealer, tricks won and several card sets
players: 4
match: {schedule: [hand], until: deals_played >= 1}
contracts:
  hand:
    en: Keyed
    first_lead: if holder(QS) == dealer then left(dealer) else holder(2C)
    score:
      - per_card: card.suit == hearts
        points: -1
      - per_seat: >
          if taken(card == QS) == 1 and dealer == seat then 12 * tricks_taken
          else if most_taken(card.rank == A) >= 3 then -2
          else taken(card.suit == clubs) - tricks_taken
"""


def test_seat_scoring_keyed_on_the_dealer_tricks_and_card_sets(tmp_path):
    """A first lead reading two cards' holders and the dealer, seat scoring reading the dealer,
    tricks won and three card sets: memoised in C, and every deal ends as the interpreter's."""
    path = tmp_path / "keyed.yaml"
    path.write_text(KEYED)
    rs = Ruleset.load(str(path))
    contract = rs.contract_at(0)
    ctx = stepper.core_deal(contract, 4, rs.deck, *_dealt(rs, 1)).ctx
    assert type(ctx._begin).__name__ == type(ctx._finish).__name__ == "DealMemo"
    for seed in range(60):
        for ours, theirs in _played(rs, contract, *_dealt(rs, seed), 1, seed):
            assert ours == theirs, seed


def _shooter(seat: int, legal) -> int:
    """Seat 0 plays its highest card, the others their lowest of the suit led, else a heart or
    the queen of spades: seat 0 takes many tricks and every penalty card it can."""
    cards = sorted(legal, key=lambda c: (c % 13, c))
    if seat == 0:
        return cards[-1]
    penalties = [c for c in cards if 13 <= c < 26 or c == 10]  # hearts, the queen of spades
    return penalties[-1] if penalties and len({c // 13 for c in legal}) > 1 else cards[0]


def test_shooting_the_moon_is_memoised_as_the_interpreter_scores_it():
    """Hearts' seat scoring (shooting the moon), which random play seldom reaches: deals in
    which seat 0 plays to take everything end as the interpreter's, the moon included."""
    rs = Ruleset.load(str(ROOT / "rulesets" / "games" / "hearts_openspiel.yaml"))
    contract, moons = rs.contract_at(0), 0
    for seed in range(120):
        dealer, dealt = _dealt(rs, seed)
        (ours, theirs), _ = _played(rs, contract, dealer, dealt, 4, seed, _shooter)  # deal 4: no passing
        assert ours == theirs, seed
        moons += ours in ([0, -26, -26, -26], [-26, 0, -26, -26], [-26, -26, 0, -26], [-26, -26, -26, 0])
    assert moons >= 2


def test_symmetric_seat_scoring_is_one_memo_entry_for_every_order_of_the_seats(tmp_path):
    """Hearts' moon reads no seat, dealer or caller (``Keyed.symmetric``): its memo keys the seats'
    counts sorted, so that the same deal with every seat moved one place on (the same cards played
    in the same order, each by the next seat) is answered without Python, with the points moved
    on too, as the interpreter scores them. A seat scoring reading the dealer is not symmetric."""
    import array

    from kierki_dsl.interpreter import _cstep  # type: ignore[attr-defined]
    from kierki_dsl.interpreter.plan import plan_of

    rs = Ruleset.load(str(ROOT / "rulesets" / "games" / "hearts_openspiel.yaml"))
    contract = rs.contract_at(0)
    seat = plan_of(contract).seat_key(rs.deck)
    assert seat.symmetric and not seat.dealer
    (tmp_path / "keyed.yaml").write_text(KEYED)
    keyed = Ruleset.load(str(tmp_path / "keyed.yaml"))
    assert not plan_of(keyed.contract_at(0)).seat_key(keyed.deck).symmetric  # reads the dealer
    asked: list = []
    book = array.array("q", [v for d in range(4) for v in (d, 0, 0, 0, 0)])
    memo = _cstep.DealMemo(
        lambda core: asked.append(1) or stepper._finish_of(core), True, 4, book, False, 0, seat.atoms, seat.won, True
    )

    def play(dealer: int, dealt: list, actions: list) -> tuple:
        core = stepper.core_deal(contract, 4, rs.deck, dealer, dealt, rs.direction, 4)  # deal 4: no passing
        core.ctx._finish = memo
        deal = contract.new_deal(4, rs.deck, dealer, dealt, rs.direction, 4)
        rng, i = random.Random(3), 0
        while not deal.is_terminal():
            acts = deal.legal_actions()
            a = actions[i] if i < len(actions) else acts[rng.randrange(len(acts))]
            if i == len(actions):
                actions.append(a)
            core.apply_action(a)
            deal.apply_action(a)
            i += 1
        assert core.returns() == deal.returns()
        return core.returns()

    for seed in range(20):
        dealer, dealt = _dealt(rs, seed)
        actions: list = []
        first = play(dealer, dealt, actions)
        if len(set(first)) < 3:
            continue  # (seats alike: moving them on shows little)
        del asked[:]
        moved = play((dealer + 1) % 4, [dealt[(s - 1) % 4] for s in range(4)], actions)
        assert moved == [first[(s - 1) % 4] for s in range(4)] and moved != first
        assert asked == []  # the moved seats' counts sorted: the same entry
        return
    raise AssertionError("no deal of seats taking three different scores")
