"""The session layer: one match built from its ruleset, seed and players, driven to its end,
kept in a save journal and resumed from it. Every front end (``kierki run``/``resume``,
``kierki serve``, ``kierki web``) is a thin codec over it; see docs/session.md.

- ``Session(ruleset, seed, players, deals)``: the match and its seats (a ``Player`` per bot
  seat, ``None`` for a seat a front end fills); ``act`` answers ``Accepted``, ``Refused``
  (the rule's reason) or ``Failed``; ``run_bots`` / ``bot_turn`` drive the bots.
- ``new_save`` starts a journal (refusing to replace an unfinished match unless forced);
  ``open_save`` + ``Session.resume`` continue one. Both hold the file's lock (``savelock``).
- ``needs(ruleset)``: what a ruleset asks of a front end (seats, cards, decisions).
"""

from __future__ import annotations

import os
from typing import Callable, Optional, Sequence

from ..cards import card_list
from ..diagnostics import DiagnosticError, Diagnostics
from ..interpreter.match import Match
from ..phases import phase_of
from ..values import frozen
from .core import Table
from .outcome import ACCEPTED, Outcome
from .savefile import SaveError, SaveWriter, read
from .savelock import open_locked


class Session:
    """One match and its seats: the single driver every front end uses.

    ``players``: per seat, a ``Player`` the session drives (a bot, a person at this terminal)
    or ``None`` for a seat filled by a front end's listener (``sit``); ``deals``: fixed deals
    instead of shuffled ones; ``on_deal(result)``: called for every finished deal (replayed
    ones too)."""

    def __init__(self, ruleset, seed: int, players: Sequence, deals=None, on_deal: Optional[Callable] = None):
        self.ruleset = ruleset
        self.seed = seed
        self.journal = None
        bots = {s: p for s, p in enumerate(players) if p is not None}
        self.table = Table(Match(ruleset, seed, deals), bots, on_deal=on_deal)

    # -- the match -------------------------------------------------------------------------------
    @property
    def match(self):
        return self.table.match

    @property
    def results(self) -> list:
        """Every finished deal's ``DealResult``, in order."""
        return self.table.results

    @property
    def failure(self):
        """The ``Failed`` outcome that stopped the match, or None."""
        return self.table.failure

    @property
    def over(self) -> bool:
        """True once the last deal has been played (not when the match failed)."""
        return self.table.over

    finished = over

    @property
    def stopped(self) -> bool:
        """True once nothing more can be played (over, or failed)."""
        return self.table.stopped

    def act(self, seat: int, action: int) -> Outcome:
        """A seat's action: ``Accepted`` (saved when a journal is kept), ``Refused`` or ``Failed``."""
        return self.table.act(seat, action)

    def run_bots(self) -> Outcome:
        """Drive the session's players until a front end's seat must act or the match is over."""
        return self.table.run_bots()

    def bot_turn(self):
        """(seat, player, view) when a session player must act now (front ends that schedule
        bots themselves: ask the player off the event loop, then ``act``)."""
        return self.table.bot_turn()

    # -- the journal -----------------------------------------------------------------------------
    def keep(self, journal) -> None:
        """Save every new action with ``journal`` (a ``SaveWriter``, or a front end's own with
        ``write(deal_index, seat, action)``) before anyone is told of it."""
        self.journal = journal
        self.table.on_action = journal.write

    def resume(self, saved, path: str, place: Optional[Callable] = None) -> Outcome:
        """Replay the saved actions of ``path`` (checked: deal, seat, legality, nothing after
        the match's end); ``Failed`` names the line (or the place ``place(entry)`` gives, for a
        journal that is not a file)."""
        return self.table.replay(saved, path, place)

    def close(self) -> None:
        """Close the journal (its lock goes with it) and the bots that hold a process (``exec:``)."""
        if self.journal is not None and hasattr(self.journal, "close"):
            self.journal.close()
        close_players(self.table.bots.values())


def close_players(players) -> None:
    """Stop every player that holds something to stop (an ``exec:`` bot's process)."""
    for p in players:
        close = getattr(p, "close", None)
        if close is not None:
            close()


# -- save files -------------------------------------------------------------------------------------
class OpenSave:
    """A save file opened to be continued: locked for this process, read and checked."""

    def __init__(self, path: str):

        self.path = path
        self.fd: Optional[int] = open_locked(path, create=False)
        try:
            self.head, self.actions, self.keep = read(path)
        except BaseException:
            self.close()
            raise

    def writer(self):
        """The ``SaveWriter`` that goes on appending (the torn last line cut off); it takes
        over the lock."""

        fd, self.fd = self.fd, None
        return SaveWriter(self.path, keep_bytes=self.keep, fd=fd)

    def close(self) -> None:
        """Give up the file (and its lock) without writing."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def open_save(path: str) -> OpenSave:
    """``path`` opened to resume (``SaveError``: busy, not a regular file, corrupt)."""
    return OpenSave(path)


def new_save(path: str, head: dict, force: bool = False, deals_of: Optional[Callable] = None):
    """A ``SaveWriter`` for a new match in ``path``. ``SaveError`` when another process plays
    it, or when it holds a match that is not over (or something else that is not a finished
    match) and ``force`` is not given: a save file is never lost to a new match by mistake.
    ``deals_of(header, ruleset)``: the fixed deals a saved header plays (the front end reads
    match files); without it a saved match of fixed deals counts as unfinished."""

    fd = open_locked(path, create=True)
    try:
        problem = replaceable(path, deals_of) if not force and os.fstat(fd).st_size > 0 else None
    except BaseException:
        os.close(fd)
        raise
    if problem is not None:
        os.close(fd)
        raise SaveError(f"{path}: error: {problem}")
    return SaveWriter(path, head, fd=fd)  # it owns the descriptor (and closes it if it fails)


def replaceable(path: str, deals_of: Optional[Callable] = None) -> Optional[str]:
    """Why the file at ``path`` must not be replaced by a new match, or None (a finished match).
    ``deals_of``: as for ``new_save``."""

    try:
        head, actions, _ = read(path)
    except SaveError:
        return "this file is not a kierki save file (or is damaged); give --force to replace it"
    resume = f"kierki serve RULESET --save {path} --resume" if "bots" in head else f"kierki resume {path}"
    unfinished = f"this save file holds an unfinished match; continue it with {resume}, or give --force to replace it"
    ruleset = _saved_ruleset(head)
    if ruleset is None:
        return unfinished.replace(
            "an unfinished match", "a match whose end cannot be checked (its ruleset is missing or changed)"
        )
    fixed = None
    if head.get("deals") and (head["deals"] or {}).get("path"):
        if deals_of is None:
            return unfinished
        try:
            fixed = deals_of(head, ruleset)
        except Exception:  # a missing or changed match file: the end cannot be checked
            return unfinished
    session = Session(ruleset, head["seed"], [None] * ruleset.players, fixed)
    session.resume(actions, path)
    return None if session.finished else unfinished


def _saved_ruleset(head: dict):
    """The ruleset a save header names, if it is still there unchanged (else None)."""
    from ..ruleset.model import Ruleset

    path = head["ruleset"]["path"]
    if not os.path.isfile(path):
        return None
    try:
        rs = Ruleset.load(path, Diagnostics())
    except (DiagnosticError, OSError):
        return None
    return rs if rs.fingerprint == head["ruleset"]["fingerprint"] else None


# -- what a ruleset asks of a front end -------------------------------------------------------------
@frozen
class Needs:
    """What a ruleset asks of a front end: ``seats`` and ``hand_size``; ``choice`` when a
    declarer chooses the contract during play; ``decisions``: the phases (decision kinds) the
    contracts open with, by contract name (a front end shows each with the phase's own words)."""

    seats: int
    hand_size: int
    choice: bool
    decisions: tuple  # (contract name, first phase) per contract of the schedule


def needs(ruleset, contracts=None) -> Needs:
    """What ``ruleset`` asks of a front end for its schedule (or for ``contracts``, e.g. those
    of a match file): each contract's opening decision is found by dealing it once, from a
    fixed split of the deck."""
    cards = card_list(ruleset.deck)
    hands = [cards[i :: ruleset.players] for i in range(ruleset.players)]
    decisions, choice = [], False
    for c in dict.fromkeys(ruleset.schedule if contracts is None else contracts):
        state = c.new_deal(ruleset.players, ruleset.deck, 0, [list(h) for h in hands], ruleset.direction, 1)
        view = state.view(state.current_player())
        choice = choice or not phase_of(view).contract_known  # the phase names the contract itself
        decisions.append((c.name, str(view.phase)))
    return Needs(ruleset.players, ruleset.hand_size, choice, tuple(decisions))


__all__ = ["Session", "OpenSave", "open_save", "new_save", "replaceable", "Needs", "needs", "ACCEPTED"]
