"""What the table answers to an action: accepted, refused with the rule's reason, or failed.

A front end maps these three to its own words (a SIK ``WRONG``, a browser ``error`` message, a
line on the terminal); it never inspects exceptions or compares strings.
"""

from __future__ import annotations

from typing import Union

from ..expr import RuleRuntimeError
from ..interpreter.match import MatchError
from ..report import render_diagnostics
from ..values import frozen
from .savefile import SaveError


@frozen
class Accepted:
    """The action was applied (and saved, when the table keeps a journal)."""

    ok = True


@frozen
class Refused:
    """The action was not applied and nothing changed: ``reason`` says why, in a rule's words
    ("you must follow clubs", "it is not your turn")."""

    reason: str
    ok = False


@frozen
class Failed:
    """The match cannot go on (a rule that fails while playing, a chooser with nothing left, a
    saved action that does not fit). ``located``: the message is already a whole located line
    (a rendered diagnostic, ``file:line: error: ...``); else ``line`` prefixes the front end's
    name."""

    message: str
    located: bool = False
    ok = False

    def line(self, prefix: str = "kierki") -> str:
        """The message as one report line of the front end ``prefix``."""
        return self.message if self.located else f"{prefix}: error: {self.message}"


Outcome = Union[Accepted, Refused, Failed]
ACCEPTED = Accepted()


def failed(e: BaseException) -> Failed:
    """The ``Failed`` outcome of an exception that stops a match (a rule error, a ``MatchError``)."""
    if isinstance(e, RuleRuntimeError):
        return Failed(render_diagnostics([e.diagnostic]), located=True)
    return Failed(str(e), located=isinstance(e, SaveError))


def stops_match(e: BaseException) -> bool:
    """True for the exceptions that end a match with a message (not bugs): rule errors and
    ``MatchError`` (a saved action that does not fit is one)."""
    return isinstance(e, (RuleRuntimeError, MatchError))
