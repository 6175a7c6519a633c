"""What a player gets from the engine and what the engine takes back from it.

Three guards every driver uses (the match loop, the table of ``kierki serve``/``kierki web``,
the network client, simulations with players):

- ``exact_action``: an answer counts only as an exact ``int`` (``operator.index``, then a type
  check), so an ``int`` subclass whose ``__eq__`` is always true cannot pass a legality test;
- ``bot_seed``: a player's seed is a keyed hash of the match seed and its seat, one way, so a
  player that knows its own seed learns nothing of the match seed (the shuffle);
- ``players_ruleset``: a plug-in player gets its own deep copy of the compiled ruleset, so
  changing it (``object.__setattr__``, the ``contracts`` dict) changes nothing the engine
  plays by.

An in-process plug-in is still trusted code: it runs in the engine's process and can reach the
live deal through ``sys._getframe`` or ``gc``. Only a bot in its own process (``exec:``, see
``docs/bot-protocol.md``) is kept out by a boundary (``docs/bots.md``).
"""

from __future__ import annotations

import copy
import hashlib
import operator
import sys

from .actions import IllegalAction

#: the key of the bot-seed hash: fixed, so a seed gives the same match on every machine
SEED_KEY = b"kierki-dsl bot seed v1"


def exact_action(action) -> int:
    """``action`` as an exact ``int``; ``IllegalAction`` for anything else (a string, a float,
    an ``int`` subclass that would lie in comparisons)."""
    try:
        value = operator.index(action)
    except TypeError:
        raise IllegalAction(f"not an action: a whole number is expected, got {type(action).__name__}") from None
    if type(value) is not int:
        raise IllegalAction(f"not an action: a plain int is expected, got {type(value).__name__}")
    return value


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the player at ``seat`` in the match of ``match_seed`` (a 63-bit keyed
    BLAKE2b hash of both: the same on every platform, and it does not give the match seed back)."""
    digest = hashlib.blake2b(f"{match_seed}:{seat}".encode("ascii"), key=SEED_KEY, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def players_ruleset(ruleset, player=None):
    """The ruleset ``player`` gets: a deep copy of its own, so whatever it changes in it, the
    engine's ruleset stays as loaded. A built-in player (a class of this project: trusted, it
    never writes to the rules) shares the engine's and costs nothing; a copy costs 20–80 ms per
    player and match on the shipped rulesets (docs/bots.md). None stays None."""
    if ruleset is None or _built_in(player):
        return ruleset
    return copy.deepcopy(ruleset, _shared())


def _built_in(player) -> bool:
    return player is not None and type(player).__module__.startswith("kierki_dsl.")


def _shared() -> dict:
    """A ``deepcopy`` memo that keeps the project's module-level objects as they are: sentinels
    compared by identity (a compiled rule's "no value") must stay the same object in a copy."""
    memo: dict = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("kierki_dsl") and module is not None:
            for value in vars(module).values():
                memo[id(value)] = value
    return memo


def seat_player(player, match_seed: int, seat: int, ruleset) -> None:
    """Start ``player`` for a match: its one-way seed, its seat and its own copy of the rules."""
    player.reset(bot_seed(match_seed, seat), seat, players_ruleset(ruleset, player))
