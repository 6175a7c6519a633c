"""The player interface, the player registry and the ``random`` player.

A player sees only a ``SeatView`` (its own hand, public plays, the trump and who called it,
the scores — never another hand: plain data, see ``interpreter/view.py``) and returns one of
``view.legal``. The rules come separately, once per match: ``reset`` hands the player the
compiled ruleset, and ``contract_of(view)`` looks up the contract the view names. Writing one::

    from kierki_dsl.players.base import Player, register_player

    @register_player
    class AlwaysLowest(Player):
        name = "lowest"

        def act(self, view):
            return min(view.legal)

Randomness is *stateless*: ``self.rng(view)`` is seeded from the match seed, the seat, the
deal and the ply, so a player makes the same decision in the same position whether the match
was played in one go or resumed from a save file.
"""

from __future__ import annotations

import importlib
import os
import random
from typing import Optional

from ..diagnostics import quoted
from ..interpreter.draws import pick  # one of ``options``, as the draw protocol draws
from ..phases import phase_of

PLAYERS: dict = {}
# players whose module needs an optional extra: imported only when asked for by name
# name -> the module that registers it (relative: of this package), imported when first asked
# for (``ismcts`` needs the [openspiel] extra and plays through the OpenSpiel adapter, a layer
# above the players); asking only for these never scans for plug-ins
LAZY_PLAYERS = {
    "heuristic": ".heuristic",
    "search": ".search",
    "pimc": ".pimc",
    "human": ".human",
    "ismcts": "kierki_dsl.ismcts",
    "exec": ".execbot",
}


def register_player(cls):
    """Class decorator: make a player available by ``cls.name`` (``--players NAME,...``)."""
    PLAYERS[cls.name] = cls
    return cls


class PlayerQuit(Exception):
    """A player left the match for good (a person ended the input): the session stops as on
    Ctrl-C, the match kept in its save file."""


class Player:
    """Base class: ``reset`` once per match, then ``act`` on every decision of this seat."""

    name = "player"
    rules = None  # the compiled ruleset of the match (set by ``reset``)

    def reset(self, seed: int, seat: int, rules=None) -> None:
        """Start a match: ``seed`` for this player's randomness, its ``seat``, the ruleset
        (None keeps the one the player already has)."""
        self.seed = seed
        self.seat = seat
        if rules is not None:
            self.rules = rules

    def contract_of(self, view, name: str = ""):
        """The compiled contract a view names (or ``name``: an option of a declarer's choice)."""
        if self.rules is None:
            raise RuntimeError(f"player {self.name!r} was not given the ruleset (call reset with rules)")
        return self.rules.contracts[name or view.contract]

    def rng(self, view) -> random.Random:
        """A random stream for this decision only (reproducible from the view alone)."""
        key = ((self.seed * 1_000_003 + self.seat) * 1_000_003 + view.deal_number) * 10_007 + view.ply
        return random.Random(phase_of(view).bot_stream(key))

    def act(self, view) -> int:  # pragma: no cover
        raise NotImplementedError


def setting_count(text: str) -> Optional[int]:
    """A whole number in a player's setting, written as the messages write it (``64``,
    ``10_000``: ASCII digits, single underscores between them), at most 18 digits; None for
    anything else (never ``int()``'s own error: ``²``, 5,000 digits)."""
    plain = text.replace("_", "")
    if not plain or not (plain.isascii() and plain.isdigit()) or len(plain) > 18:
        return None
    if text.startswith("_") or text.endswith("_") or "__" in text:
        return None
    return int(plain)


def thinking_budget(name: str, setting: str, what: str, most: int) -> tuple:
    """``(count, seconds)`` from a thinking player's setting: a count (``search:64``) or a think
    time (``search:0.2s``, at most 60 s); ``(None, 0.0)`` for no setting; ``ValueError`` else."""
    s = setting.strip().lower()
    if s.endswith("s") and s[:-1].replace(".", "", 1).isdecimal():
        seconds = float(s[:-1])
        if not 0 < seconds <= 60:
            raise ValueError(f"{name}: think time must be between 0 and 60 seconds")
        return None, seconds
    count = setting_count(s)
    if s and (count is None or not 1 <= count <= most):
        raise ValueError(
            f"{name}: expected {what} from 1 to {most:_} (e.g. {name}:64) or a time ({name}:0.2s), got {quoted(setting)}"
        )
    return count, 0.0


class WithFallback(Player):
    """A player that decides some phases itself and leaves the others to the heuristic player."""

    def __init__(self) -> None:
        from .heuristic import HeuristicPlayer

        self.fallback = HeuristicPlayer()

    def reset(self, seed: int, seat: int, rules=None) -> None:
        super().reset(seed, seat, rules)
        self.fallback.reset(seed, seat, rules)


@register_player
class RandomPlayer(Player):
    """Any legal action, uniformly at random."""

    name = "random"

    def act(self, view) -> int:
        return pick(self.rng(view), view.legal)


def load_plugins() -> None:
    """Import the players of other packages and modules: the ``kierki_dsl.players`` entry points
    of installed packages, and the modules named in ``KIERKI_PLAYERS`` (comma-separated, found on
    ``PYTHONPATH``); their ``@register_player`` classes join the built-in ones."""

    from . import heuristic, human, search  # noqa: F401  (they register themselves)

    if getattr(load_plugins, "done", False):
        return
    load_plugins.done = True  # type: ignore[attr-defined]  # a flag on the function, as in interpreter.extensions
    from importlib.metadata import entry_points

    for ep in entry_points(group="kierki_dsl.players"):
        ep.load()
    for module in filter(None, (m.strip() for m in os.environ.get("KIERKI_PLAYERS", "").split(","))):
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise KeyError(f"KIERKI_PLAYERS names {module!r}, which cannot be imported: {e}") from None


def player_names() -> set:
    """The names of every registered player."""
    load_plugins()
    return set(PLAYERS) | set(LAZY_PLAYERS)


def make_player(spec: str) -> Player:
    """A player by name, with an optional setting after a colon (``search:0.2s``, ``search:64``)."""
    name, _, setting = spec.partition(":")
    if name in LAZY_PLAYERS and name not in PLAYERS:
        importlib.import_module(LAZY_PLAYERS[name], __package__)
    if name not in PLAYERS:  # another package's or module's player: scan for them once
        load_plugins()
    cls = PLAYERS.get(name)
    if cls is None:
        known = sorted((set(PLAYERS) | set(LAZY_PLAYERS)) - {"exec"}) + ["exec:COMMAND"]  # not loaded yet too
        raise KeyError(f"unknown player {quoted(name)} (known: {', '.join(known)})")
    if setting:
        try:
            return cls(setting)
        except TypeError:
            raise KeyError(f"player {name!r} takes no setting") from None
        except ValueError as e:
            raise KeyError(str(e)) from None
    try:
        return cls()
    except ValueError as e:  # e.g. a player whose optional extra is not installed
        raise KeyError(str(e)) from None
