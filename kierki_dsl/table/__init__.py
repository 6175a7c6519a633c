"""The table: a match that seats remote players and bots, independent of any wire protocol.

``Table`` owns a ``Match``, accepts actions from seats, enforces the rules and sends each
seat only events built from what that seat may see (``events``). Protocol adapters
(``kierki_dsl.net.server`` for SIK; a WebSocket one next) translate events and actions.
"""

from .core import Table
from .events import DealEnded, DealStarted, MatchEnded, Played, TrickTaken, TurnToAct
from .outcome import ACCEPTED, Accepted, Failed, Outcome, Refused
from .session import Needs, Session, needs, new_save, open_save

__all__ = [
    "Table",
    "Session",
    "Outcome",
    "Accepted",
    "Refused",
    "Failed",
    "ACCEPTED",
    "new_save",
    "open_save",
    "Needs",
    "needs",
    "DealStarted",
    "TurnToAct",
    "Played",
    "TrickTaken",
    "DealEnded",
    "MatchEnded",
]
