"""The legality kernel (interpreter/legality.py): what compiled expressions see of counted
masks, programs memoised per trick on what the rules read, and its three narrowings (52-bit
masks, four per-suit masks, one suit) agreeing for every restriction of every shipped ruleset."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from kierki_dsl.cards import FULL_DECK, SUIT_CARDS, SUIT_MASK, card_list, parse_card
from kierki_dsl.expr import compile_text
from kierki_dsl.interpreter import scopes
from kierki_dsl.interpreter.envs import play_env
from kierki_dsl.interpreter.legality import DISCARD, FOLLOW, LEAD, narrow, narrow_suit, narrow_suits
from kierki_dsl.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.yaml"))
QS = parse_card("QS")


def test_an_expression_knows_which_cards_of_a_counted_mask_it_sees():
    def cards(seen):  # the cards seen by each counted place (``("count", mask)`` keys name the counts themselves)
        return {k: v for k, v in seen.items() if isinstance(k, str)}

    when = compile_text("not hearts_broken and played(card == QS) == 0", scopes.PLAY_WHEN)
    assert cards(when.seen) == {"played": 1 << QS}
    assert when.seen[("count", 1 << QS)] == 1 << QS, "the count of a fixed predicate is named by its mask"
    both = compile_text("played(card.suit == hearts) > 2 and held(card.suit == led_suit) > 0", scopes.PLAY_WHEN)
    assert cards(both.seen) == {"played": SUIT_MASK[1], "hand": FULL_DECK}, "a predicate reading the led suit is seen whole"
    assert both.seen[("count", None)] == FULL_DECK, "... and its count is not one of a fixed mask"


def test_programs_are_memoised_on_what_the_rules_read():
    rs = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
    k = rs.contracts["hand"].legality(13, -1, rs.deck)
    assert k.at(3, False, 0b111) is k.at(7, False, 0), "middle tricks, hearts unbroken, QS unplayed: one program"
    assert k.at(3, False, 1 << QS) is not k.at(3, False, 0), "the queen of spades played changes the lead"
    assert k.at(1, False, 0) is not k.at(2, False, 0), "the first trick has its own rules"
    assert k.watched(False, 0) == SUIT_MASK[1] | 1 << QS
    assert k.watched(True, 1 << QS) == 0, "nothing left to change the programs"


def _trick_contracts(path):
    rs = Ruleset.load(str(ROOT / path))
    return rs, [c for _, c in sorted(rs.contracts.items()) if c is not None and hasattr(c, "legality")]


@pytest.mark.parametrize("path", SHIPPED)
def test_the_three_narrowings_agree(path):
    rs, contracts = _trick_contracts(path)
    if not any(c.restrictions for c in contracts):
        pytest.skip(f"{path}: no trick contract has play restrictions")
    rng = random.Random(path)
    cards = [c for c in range(52) if rs.deck >> c & 1]
    tricks = rs.hand_size
    checked = 0
    for contract in contracts:
        trumps = contract.call.choices if contract.call is not None else (contract.trump,)
        for trump in trumps:
            k = contract.legality(tricks, trump, rs.deck)
            for _ in range(30):
                hand = sum(1 << c for c in rng.sample(cards, rng.randint(1, tricks)))
                played = sum(1 << c for c in rng.sample(cards, rng.randint(0, len(cards) // 2))) & ~hand
                led = rng.randrange(-1, 4)
                win = -1 if led < 0 else rng.choice([c for c in cards if c // 13 == led])
                env = play_env(led, trump, win, rng.randint(1, tricks), tricks, rng.random() < 0.5, hand,
                               rs.deck, played)
                for phase in (LEAD, FOLLOW, DISCARD):
                    prog = k.program(phase, env)
                    suits = [hand >> (13 * s) & 8191 for s in range(4)]
                    got = narrow(hand, prog, 1)
                    assert sum(m << (13 * s) for s, m in enumerate(narrow_suits(*suits, prog, 1))) == got, path
                    for s in range(4):
                        one = narrow(hand & SUIT_MASK[s], prog, 1)
                        assert narrow_suit(suits[s], s, prog, 1) << (13 * s) == one, path
                    checked += 1
    assert checked


class _At:
    """A deal state's ``play_env`` for the kernel's questions about a hand on turn."""

    def __init__(self, env):
        self.env = env

    def play_env(self):
        return self.env


def test_legal_gives_the_mask_and_its_cards():
    rs = Ruleset.load(str(ROOT / "rulesets/games/hearts_openspiel.yaml"))
    k = rs.contracts["hand"].legality(13, -1, rs.deck)
    rng = random.Random(5)
    for _ in range(200):
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        led = rng.randrange(-1, 4)
        n = rng.randint(1, 13)
        progs = k.at(n, False, 0)
        st = _At(play_env(led, -1, -1, n, 13, False, hand, rs.deck, 0))
        mask, cards = k.legal(hand, led, progs, n, st)
        assert mask == k.mask(hand, led, progs, n, st)
        assert list(cards) == card_list(mask) and mask and mask & ~hand == 0
        if led >= 0 and hand & SUIT_MASK[led]:
            assert mask & ~SUIT_MASK[led] == 0, "the suit led is followed"


def test_card_lists_while_another_thread_fills_the_card_tables():
    """A thread that needs a card list while another fills the tables (the last suit's table
    begun, not finished) gets the list, not an endless retry (RecursionError)."""
    saved = [dict(t) for t in SUIT_CARDS]
    try:
        for t in SUIT_CARDS:
            t.clear()
        SUIT_CARDS[3][0] = ()  # where the other thread is: the first three suits' tables to come
        assert card_list(FULL_DECK) == list(range(52))
    finally:
        for t, old in zip(SUIT_CARDS, saved):
            t.clear()
            t.update(old)
