"""What a table tells a seat: plain immutable values with a JSON form.

Every event is built from the receiving seat's own view (``state.view(seat)``) or from what is
public to every seat (a card once played, a finished trick, the scores), never from a state.
Cards are card ids (0..51, ``kierki_dsl.cards``); seats are 0-based.
"""

from __future__ import annotations

import attrs

from ..cards import card_list
from ..values import frozen


def _json(self) -> dict:
    out = {"event": self.kind}
    for a in attrs.fields(type(self)):
        v = getattr(self, a.name)
        out[a.name] = _plain(v)
    return out


def _plain(v):
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


@frozen
class DealStarted:
    """A deal begins: this seat's cards and the public facts of the deal."""

    deal: int  # 1-based
    contract: str  # the contract's name in the ruleset
    label: str  # the deal's name in its source (e.g. the SIK deal type), may be ''
    dealer: int
    leader: int  # the seat that acts first
    phase: str
    hand: tuple  # this seat's cards
    kind = "deal"
    to_json = _json


@frozen
class TurnToAct:
    """This seat must act: the trick so far and the legal actions."""

    deal: int
    phase: str
    trick_number: int
    trick: tuple  # (seat, card) in playing order
    legal: tuple
    hand: tuple = ()  # this seat's cards now (passing changes them)
    kind = "turn"
    to_json = _json


@frozen
class Played:
    """A seat played (public: a card on the table, a pass)."""

    deal: int
    seat: int
    action: int
    kind = "played"
    to_json = _json


@frozen
class TrickTaken:
    """A trick is complete."""

    deal: int
    number: int
    plays: tuple  # (seat, card) in playing order
    winner: int
    kind = "taken"
    to_json = _json


@frozen
class DealEnded:
    deal: int
    scores: tuple
    totals: tuple
    ended_early: bool
    kind = "deal_end"
    to_json = _json


@frozen
class MatchEnded:
    totals: tuple
    kind = "match_end"
    to_json = _json


def deal_started(view, label: str, leader: int) -> DealStarted:
    """The start of a deal as ``view``'s seat sees it."""
    return DealStarted(
        view.deal_number, view.contract, label, view.dealer, leader, view.phase, tuple(card_list(view.hand))
    )


def turn(view) -> TurnToAct:
    """The request to act, from the acting seat's view."""
    return TurnToAct(
        view.deal_number,
        view.phase,
        view.trick_number,
        tuple(view.trick),
        tuple(view.legal),
        tuple(card_list(view.hand)),
    )
