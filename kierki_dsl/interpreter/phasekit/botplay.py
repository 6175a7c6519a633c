"""What the phases' bot hooks share: the contract a bot decides for, a hand's value."""

from __future__ import annotations

from ...cards import bits


def bot_contract(rules, name: str):
    """The compiled contract ``name`` of ``rules``, the match's ruleset a bot decides with."""
    if rules is None:
        raise RuntimeError("a bot decides with the match's ruleset: give it to the player (reset with rules)")
    return rules.contracts[name]


def hand_strength(hand: int) -> int:
    """High cards (Q, K, A) and the longest suit against an average hand (about 0 for one)."""
    cards = list(bits(hand))
    if not cards:
        return 0
    high = sum(1 for c in cards if c % 13 >= 10)
    longest = max(sum(1 for c in cards if c // 13 == s) for s in range(4))
    return high + longest - len(cards) // 4 - 3


def high_cards(hand: int) -> int:
    """The hand's jacks, queens, kings and aces."""
    return sum(1 for c in bits(hand) if c % 13 >= 9)


def low_cards(hand: int) -> int:
    """The hand's cards from 2 to 6."""
    return sum(1 for c in bits(hand) if c % 13 <= 4)
