"""The pluggable catalogue of deal types.

A deal type is one registered class: its ``fields`` extend the ruleset schema for contracts
of that ``type``, ``build`` compiles a validated contract into an immutable compiled
contract, and the compiled contract's ``new_deal`` starts a playable deal state. The
interpreter never names a deal type; it only asks the catalogue.

Writing a new deal type::

    @register
    class Solitaire(DealType):
        name = "solitaire"
        doc = "each seat plays alone"
        fields = {"goal": Field(Int(1, 52), "cards to lay out", required=True)}

        def build(self, name, spec, ctx):
            return SolitaireContract(...)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from ..spec.schema import Field

if TYPE_CHECKING:  # pragma: no cover
    from ..ruleset.build import BuildContext
    from .bidding import Auction
    from .calling import TrumpCall
    from .doubling import BettingRound, Doubling
    from .exposure import Exposure
    from .passing import PassCards
    from .stock import Stock
    from .widow import Widow

DEAL_TYPES: dict[str, "DealType"] = {}


class DealType:
    """Base class of deal types; subclasses set ``name``, ``doc``, ``fields``, ``build``."""

    name: str = ""
    doc: str = ""
    fields: dict[str, Field] = {}

    def build(self, name: str, spec, ctx: "BuildContext") -> Any:  # pragma: no cover
        """Compile a validated contract (a frozen ``Spec`` of ``fields``, defaults applied)."""
        raise NotImplementedError

    def included(self, spec) -> tuple:
        """The names of the contracts this contract's spec includes by reference (none here)."""
        return ()


class Contract:
    """What every compiled contract, of any deal type, does as a slot of the match schedule
    (a declarer's choice, ``choice.Choice``, is the other kind of slot), and the defaults of
    the hooks of ``protocol.CompiledContract`` that a deal type may leave out."""

    __slots__ = ()

    name: str  # the contract's name (each deal type's compiled contract has one)
    # the deal type's fast path for whole deals of random play (see ``play_fast``)
    fast_deal: Callable[..., Optional[Callable]]

    # Rules only some deal types have: a deal type without one leaves it None.
    call: Optional[TrumpCall] = None  # a trump named by a seat during the deal (``calling.TrumpCall``)
    passing: Optional[PassCards] = None  # cards passed before play (``passing.PassCards``)
    auction: Optional[Auction] = None  # bidding for the right to play (``bidding.Auction``)
    doubling: Optional[Doubling] = None  # side bets on the difference of two seats' scores (``doubling.Doubling``)
    exposure: Optional[Exposure] = None  # cards shown before play to double their cost (``exposure.Exposure``)
    stock: Optional[Stock] = None  # part of the deck left to draw from (``stock.Stock``)
    order: Optional[tuple] = None  # the deck's rank order in tricks (``rankorder``); None: 2 low, A high
    declarations: tuple = ()  # declarations made by leading a card (``declarations.Declaration``)
    widow: Optional[Widow] = None  # cards dealt aside that one player takes (``widow.Widow``)
    added: tuple = ()  # (unit, rule) of each phase added by a module that the contract plays (``extensions``)
    turn_word = "turn"  # what a numbered step of play is called in messages

    def fixed_total(self, hand_size: int, players: int, deck: int):
        """The sum of all seats' points in one deal if the rules fix it (lint's M601); None: unknown."""
        return None

    def action_end(self) -> int:
        """One past the highest action number a phase added by a module may take in its deals (0: none)."""
        return max((u.action_base + u.action_width for u, _ in self.added), default=0)

    def match_readers(self) -> tuple:
        """The ruleset paths of this contract's rules that read match-scope values
        (``match.total``, ...; ``matchvalues``): none unless the deal type's rules can."""
        return ()

    def reads_match(self) -> bool:
        """Whether a rule of this contract reads match-scope values."""
        return bool(self.match_readers())

    def check(self, name: str, spec, where: tuple, bctx, hand_size: int, players: int, deck: int) -> None:
        """Lint's findings about this contract's own rules: none unless the deal type has some."""

    def aspects(self, rs, spec) -> dict:
        """This contract's rules in words, aspect by aspect (``kierki explain``): none by default."""
        return {}

    #: The phases a contract of the deal type may hold, in the order ``kierki explain`` says them:
    #: each a module declaring ``KEY`` (its contract key), ``WORDS_AT`` (where its words stand) and
    #: ``explain(value, contract, ruleset)`` (aspect -> sentence).
    phases: tuple = ()

    def phase_words(self, rs, spec, place: str) -> dict:
        """The words of the contract's phases whose words stand at ``place`` (every phase is asked:
        one the contract does not hold, its key unset or empty, says nothing)."""
        out: dict = {}
        for phase in self.phases:
            value = getattr(spec, phase.KEY, None)
            if phase.WORDS_AT == place and value:
                out.update(phase.explain(value, self, rs))
        return out

    def resolve(self, dealer: int, players: int, hands, deck: int, chosen: dict, pick):
        """A slot holding this contract plays it (see ``Choice.resolve``)."""
        return self

    def block_total(self, count: int, cut: bool, computed: dict, players: int):
        """The fixed sum of ``count`` deals of this contract in a row (None if not fixed)."""
        total = computed.get(self.name)
        return None if total is None else count * total

    def check_count(self, count: int, players: int, bctx, most_by_dealer: int = 0) -> None:
        """Findings about how often the schedule plays this slot: none for a contract."""

    offered: tuple = ()  # the contracts a slot offers to choose from: none for a contract

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
    ) -> Optional[list]:
        """A whole deal of random play on the deal type's fast path (its ``fast_deal``): the
        scores, or None when this contract needs the general interpreter. ``hands`` are masks;
        ``log`` receives the cards played; ``facts`` (a dict) the seat that played ``first``,
        the trump ``caller`` and ``trump`` (a called trump is drawn from ``rng`` first), whether
        the deal stopped ``early`` and whether it ``blocked`` (nobody could play)."""
        deal = self.fast_deal(players, hands[0].bit_count(), deck, direction)
        if deal is None:
            return None
        scores, first, caller, trump, early, blocked = deal(dealer, hands, number, rng, log)
        if facts is not None:
            facts.update(first=first, caller=caller, trump=trump, early=early, blocked=blocked)
        return scores

    def title(self) -> str:
        """'Polish name — English name' (the English one alone for a game without Polish names)."""
        from ..words import contract_title

        return contract_title(self)

    def words(self, rs) -> dict:
        """The rules of this slot in words, aspect by aspect (``kierki explain``, ``kierki diff``)."""
        from ..words import aspects

        return aspects(rs, self.name)


class Deal:
    """Defaults of the ``protocol.DealState`` members that a deal type's state may leave out:
    what a deal without passing, an auction, bets or an early end records."""

    __slots__ = ()

    trump = -1  # no trumps
    caller = -1  # nobody names trumps
    ended_early = False  # the deal stopped before its last step (``early_stop``, ``end_when``)
    blocked = False  # the deal stopped because nobody could move
    betting: Optional[BettingRound] = None  # the doubling round (``doubling.BettingRound``)
    bid, bidder = 0, -1  # the auction's outcome
    pass_offset = 0  # where passed cards go (0: no passing in this deal)
    opening_trump = None  # the trump play started with, once a declaration has changed ``trump`` (None: unchanged)

    def record_trump(self) -> int:
        """The trump a record names: the one play started with (a declaration may change it later)."""
        return self.trump if self.opening_trump is None else self.opening_trump

    def record_bets(self) -> list:
        """The doubling round's actions for a record (bets): none."""
        return []

    def record_auction(self) -> list:
        """The auction's (seat, bid) pairs for a record: none."""
        return []

    def record_exchange(self) -> list:
        """The cards a widow's taker put out, for a record: none."""
        return []

    def record_passes(self) -> Optional[list]:
        """The cards each seat passed, for a record: None (no passing)."""
        return None

    def record_added(self) -> list:
        """The actions of phases added by a module, for a record: none."""
        return []

    def remember(self, memory: Optional[dict]) -> None:
        """Count into the match's memory what later deals must know (a duty to double): nothing."""


def register(cls: type[DealType]) -> type[DealType]:
    """Class decorator: add a deal type to the catalogue under ``cls.name``."""
    DEAL_TYPES[cls.name] = cls()
    return cls


def load_builtin_types() -> dict[str, DealType]:
    """Import the deal types shipped with kierki-dsl (they register themselves)."""
    from . import layout, tricks  # noqa: F401

    return DEAL_TYPES
