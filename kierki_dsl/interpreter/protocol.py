"""The contract every deal type fulfils: what its compiled contracts and its deal states offer.

Everything outside a deal type's own modules (the match, records, players, simulation, the
tables) talks to deals only through these two protocols, never by asking which deal type is
playing. Adding a deal type means writing its modules, implementing both, and registering it
in the catalogue (``catalogue.register``).
"""

from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from .view import SeatView


@runtime_checkable
class DealState(Protocol):
    """One deal in progress (OpenSpiel-style): whose turn, what is legal, apply, results.

    ``catalogue.Deal`` holds defaults for what a deal type may not have (trumps, passing, an
    auction, bets, an early end): a state class that derives from it declares only what it does.
    """

    contract: "CompiledContract"
    phase: str
    players: int
    hands: list
    scores: list
    trump: int  # -1: no trumps
    caller: int  # the seat that names trumps, -1: nobody
    ended_early: bool  # the deal stopped before its last step
    blocked: bool  # the deal stopped because nobody could move
    betting: object  # the doubling round (``doubling.BettingRound``) or None
    bid: int  # the auction's winning bid (0: no auction)
    bidder: int  # the auction's winner (-1: nobody)
    pass_offset: int  # where passed cards go, in seats (0: no passing in this deal)

    def current_player(self) -> int: ...
    def legal_actions(self) -> list: ...
    def legal_mask(self) -> int: ...
    def apply_action(self, action: int) -> None: ...
    def play_legal(self, action: int) -> None: ...
    def why_illegal(self, action: int) -> Optional[str]: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list: ...
    def view(self, seat: int) -> SeatView: ...
    def clone(self) -> "DealState": ...
    def position(self) -> tuple: ...
    def trump_letter(self) -> Optional[str]: ...
    def record_trump(self) -> int: ...
    def record_plays(self) -> list: ...
    def record_bets(self) -> list: ...
    def record_auction(self) -> list: ...
    def record_exchange(self) -> list: ...
    def record_passes(self) -> Optional[list]: ...
    def play_from_start(self) -> None: ...
    def current_deal(self) -> "DealState": ...
    def remember(self, memory: Optional[dict]) -> None: ...
    def playout(self, rng) -> None: ...


@runtime_checkable
class CompiledContract(Protocol):
    """A compiled contract of some deal type, with the hooks the rest of the program uses.

    ``catalogue.Contract`` holds defaults for the optional ones (no trump call, passing,
    auction or doubling; no fixed total, no lint findings, no rules in words).
    """

    name: str
    type: str
    pl: str
    en: str
    description: str
    total: Optional[int]
    call: object  # a trump named during the deal (``calling.TrumpCall``) or None
    passing: object  # cards passed before play (``passing.PassCards``) or None
    auction: object  # bidding for the right to play (``bidding.Auction``) or None
    doubling: object  # side bets (``doubling.Doubling``) or None
    exposure: object  # cards shown before play to double their cost (``exposure.Exposure``) or None
    stock: object  # part of the deck left to draw from (``stock.Stock``) or None
    turn_word: str  # what a numbered step of play is called in messages ("trick", "turn")
    offered: tuple  # the contracts a schedule slot offers to choose from (none for a contract)

    def new_deal(
        self,
        players: int,
        deck: int,
        dealer: int,
        dealt: list,
        direction: int = 1,
        number: int = 1,
        memory: Optional[dict] = None,
    ) -> DealState: ...
    def from_view(self, view: SeatView, hands: list) -> DealState: ...
    def fast_player(self, players: int, tricks: int, deck: int): ...
    def play_fast(
        self,
        players: int,
        deck: int,
        dealer: int,
        hands: list,
        direction: int,
        number: int,
        rng,
        log: Optional[list] = None,
        facts: Optional[dict] = None,
    ) -> Optional[list]: ...
    def fast_deal(self, players: int, tricks: int, deck: int, direction: int = 1, policy=None): ...
    def wants_tricks(self, tricks_total: int, players: int) -> Optional[bool]: ...
    def resolve(self, dealer: int, players: int, hands, deck: int, chosen: dict, pick) -> "CompiledContract": ...
    def fixed_total(self, hand_size: int, players: int, deck: int) -> Optional[int]: ...
    def check(self, name: str, spec, where: tuple, bctx, hand_size: int, players: int, deck: int) -> None: ...
    def aspects(self, rs, spec) -> dict: ...
    def words(self, rs) -> dict: ...
    def title(self) -> str: ...
    def block_total(self, count: int, cut: bool, computed: dict, players: int) -> Optional[int]: ...
    def check_count(self, count: int, players: int, bctx, most_by_dealer: int = 0) -> None: ...


# A schedule slot is a compiled contract or a declarer's choice (``choice.Choice``): both start
# deals with ``new_deal(..., memory)`` (a choice's deal begins with the chooser's decision) and
# ``resolve`` to the contract a deal plays when the decision is taken at once (replay, simulation).
