"""kierki-dsl: Kierki and its relatives as data, played by one interpreter.

The public face of the package: everything a program needs, importable from here::

    import kierki_dsl

    rules = kierki_dsl.load_ruleset(kierki_dsl.shipped_ruleset("kierki_standard.yaml"))
    played = kierki_dsl.play_match(rules, ["heuristic"] * rules.players, seed=7)
    print(played.totals)                       # one total per seat
    record = played.record()                   # the match as a JSON-ready record

    match = kierki_dsl.Match(rules, seed=7)    # or step by step
    seat = match.to_move()
    view = match.view(seat)                    # a SeatView: only what that seat may see
    print([kierki_dsl.card_str(c) for c in kierki_dsl.card_list(view.hand)])
    match.apply(view.legal[0])                 # an action outside view.legal: IllegalAction

    @kierki_dsl.register_player
    class Lowest(kierki_dsl.Player):
        name = "lowest"
        def act(self, view):
            return min(view.legal)

Names are loaded when first used, so ``import kierki_dsl`` costs nothing at start-up. The
modules behind them keep their places (``docs/architecture.md``); names not listed in
``__all__`` are internal and may change.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # the C module: no Python code runs to install a handler

# The ``kierki`` command's quiet Ctrl-C, installed before anything else of the package runs
# (importing ``typing`` below takes long enough for a Ctrl-C to land in it): only in the
# command's own process, never in a program that imports kierki_dsl (entry.py takes it over).
import os as _os
import sys as _sys


def _interrupted_at_start(signum, frame) -> None:  # pragma: no cover (timing)
    """Ctrl-C before the command's ``main`` is running: one line and exit 130, never a traceback."""
    _os.write(2, b"kierki: interrupted\n")
    _os._exit(130)


def _is_the_kierki_command() -> bool:
    """This process is the ``kierki`` command: its console script, or ``python -m kierki_dsl``."""
    argv0 = _sys.argv[0] if getattr(_sys, "argv", None) else ""
    name = _os.path.basename(argv0)
    return name.startswith("kierki") or (
        name == "__main__.py" and _os.path.basename(_os.path.dirname(argv0)) == "kierki_dsl"
    )


_QUIET_START = _is_the_kierki_command() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
if _QUIET_START:
    _signal.signal(_signal.SIGINT, _interrupted_at_start)  # until the command's main has its try

import importlib  # noqa: E402
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Sequence  # noqa: E402

#: public name -> the module that defines it (``module:name`` where the name there differs; a
#: public name never equals a submodule's, which ``import kierki_dsl.<module>`` would rebind)
_PLACES = {
    # rulesets: load (raises DiagnosticError listing every finding), the shipped ones, check
    "Ruleset": "kierki_dsl.ruleset.model",
    "DiagnosticError": "kierki_dsl.diagnostics",
    "Diagnostic": "kierki_dsl.diagnostics",
    "shipped_ruleset": "kierki_dsl.shipped",
    "lint_file": "kierki_dsl.lint",
    "explain_ruleset": "kierki_dsl.explain:explain",  # the rules in words (`kierki explain`)
    # a match: step by step, or played by players
    "Match": "kierki_dsl.interpreter.match",
    "MatchRunner": "kierki_dsl.interpreter.match",
    "MatchError": "kierki_dsl.interpreter.match",
    "DealResult": "kierki_dsl.interpreter.match",
    "IllegalAction": "kierki_dsl.interpreter.actions",
    "action_str": "kierki_dsl.interpreter.actions",
    "match_record": "kierki_dsl.record",
    "replay": "kierki_dsl.record",
    # what a seat sees
    "SeatView": "kierki_dsl.interpreter.view",
    "Phase": "kierki_dsl.interpreter.phases",
    # players
    "Player": "kierki_dsl.players.base",
    "register_player": "kierki_dsl.players.base",
    "make_player": "kierki_dsl.players.base",
    "player_names": "kierki_dsl.players.base",
    # cards: ints 0..51 (suit * 13 + rank), hands as 52-bit masks
    "card": "kierki_dsl.cards",
    "suit_of": "kierki_dsl.cards",
    "rank_of": "kierki_dsl.cards",
    "parse_card": "kierki_dsl.cards",
    "card_str": "kierki_dsl.cards",
    "card_pretty": "kierki_dsl.cards",
    "card_list": "kierki_dsl.cards",
    "mask_of": "kierki_dsl.cards",
    "CardSet": "kierki_dsl.cards",
    "CardError": "kierki_dsl.cards",
    "SUIT_NAMES": "kierki_dsl.cards",
    "RANK_NAMES": "kierki_dsl.cards",
}

__all__ = [
    "CardError",
    "CardSet",
    "DealResult",
    "Diagnostic",
    "DiagnosticError",
    "IllegalAction",
    "Match",
    "MatchError",
    "MatchRunner",
    "Phase",
    "PlayedMatch",
    "Player",
    "RANK_NAMES",
    "Ruleset",
    "SUIT_NAMES",
    "SeatView",
    "__version__",
    "action_str",
    "card",
    "card_list",
    "card_pretty",
    "card_str",
    "explain_ruleset",
    "lint_file",
    "load_ruleset",
    "make_player",
    "mask_of",
    "match_record",
    "parse_card",
    "play_match",
    "player_names",
    "rank_of",
    "register_player",
    "replay",
    "shipped_ruleset",
    "suit_of",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module the first time it is asked for."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("kierki-dsl")
        except PackageNotFoundError:  # a checkout on PYTHONPATH, not installed
            return "0+unknown"
    place = _PLACES.get(name)
    if place is None:
        raise AttributeError(f"module 'kierki_dsl' has no attribute {name!r}")
    module, _, there = place.partition(":")
    value = getattr(importlib.import_module(module), there or name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))


def load_ruleset(path: str, warnings: Any = None) -> "Ruleset":
    """Load, check and compile a ruleset file (``shipped_ruleset(name)`` finds a shipped one).

    Raises ``DiagnosticError`` (its ``diagnostics``: every error, located) when the file is not
    a playable ruleset; its warnings are added to ``warnings`` when a list is given."""
    from .ruleset.model import Ruleset

    return Ruleset.load(path, warnings)


class PlayedMatch(NamedTuple):
    """A match played to its end by ``play_match``."""

    ruleset: Any
    seed: int
    first_dealer: int
    deals: tuple  # a DealResult per deal, in order
    totals: tuple  # each seat's total

    def record(self) -> dict:
        """The match as a record (``kierki replay`` checks it; JSON-ready)."""
        from .record import match_record

        return match_record(self.ruleset, self.seed, self.first_dealer, list(self.deals))


def play_match(ruleset, players: Optional[Sequence] = None, seed: int = 0) -> PlayedMatch:
    """Play a whole match: ``players`` are ``Player`` objects or names as ``kierki run
    --players`` takes them (``"heuristic"``, ``"search:64"``, a registered name), one per
    seat; None: the heuristic player in every seat. The same ruleset, players and seed play
    the same match."""
    from .interpreter.match import MatchRunner
    from .players.base import make_player

    chosen = players if players is not None else ["heuristic"] * ruleset.players
    if len(chosen) != ruleset.players:
        raise ValueError(f"{ruleset.name or ruleset.path} is played by {ruleset.players} players, not {len(chosen)}")
    seats = [make_player(p) if isinstance(p, str) else p for p in chosen]
    runner = MatchRunner(ruleset, seats, seed)
    deals = tuple(runner.deals())
    return PlayedMatch(ruleset, seed, runner.first_dealer, deals, tuple(runner.totals))


if TYPE_CHECKING:  # what the names above are, for type checkers and editors
    from .cards import (
        RANK_NAMES,
        SUIT_NAMES,
        CardError,
        CardSet,
        card,
        card_list,
        card_pretty,
        card_str,
        mask_of,
        parse_card,
        rank_of,
        suit_of,
    )
    from .diagnostics import Diagnostic, DiagnosticError
    from .explain import explain as explain_ruleset
    from .interpreter.actions import IllegalAction, action_str
    from .interpreter.match import DealResult, Match, MatchError, MatchRunner
    from .interpreter.phases import Phase
    from .interpreter.view import SeatView
    from .lint import lint_file
    from .players.base import Player, make_player, player_names, register_player
    from .record import match_record, replay
    from .ruleset.model import Ruleset
    from .shipped import shipped_ruleset
