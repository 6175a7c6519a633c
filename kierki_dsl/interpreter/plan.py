"""One plan under every engine: ``compile_plan(contract)`` says whether the compiled engines
carry deals of a contract, or why not — decided by an allow-list of the contract spec's fields.

Every field a trick contract's spec may hold (``format.COMMON_CONTRACT_FIELDS`` and
``tricks.FIELDS``) is classified in ``SPEC_FIELDS`` (tests/test_plan.py fails on a field
that is not, so a new rule feature is declined until someone says the engines carry it):

- ``WORDS``: read by no engine (names, descriptions, the declared total, a reason's text);
- ``CARRIED``: the compiled core carries any value of it (trump, restrictions, scoring, ...);
- ``DECLINED``: any value but its default leaves the deal to the interpreter (an auction,
  doubles, exposures, a stock, a widow, declarations: decisions or card flows the core's
  tables do not hold).

A key added by a phase module (``extensions``: ``phases.register`` of a unit with a
``schema_key``) is declined too, whatever its value: the core knows nothing of it, so a
contract holding one is played by the interpreter on every path (``compile_plan`` names it).

A carried contract's ``Plan`` names what its deals need of an engine (the trumps it may be
played in, passing, a rank order, an end condition, dynamic scoring); the two engines are the
interpreter (the reference, ``TrickDeal``) and the compiled core (``stepper``, ``_cstep.c``).
What the compiled engines play from is the plan's ``Tables`` of one (players, tricks, trump,
deck) (``Plan.tables``): the core's tables are made from them (``stepper._compiled``), and so
are the generated-Python kernels of simulation (``fastplay`` + ``trickgen``: the plan written
out in Python where no core is built, and the heuristic player's whole deals), which play only
what ``Plan.fast_kernel_reason`` leaves them: a subset of what the plan carries, decided by the
plan alone. Records of those deals are written by the interpreter from the actions the core (or
the interpreter's own random play-out) took (``corefast.recorded_player``).
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Optional, Union

from ..expr import RuleRuntimeError
from ..expr.bounds import SCORE_LIMIT
from ..values import frozen
from .legality import DISCARD, FOLLOW, LEAD

WORDS, CARRIED, DECLINED = "words", "carried", "declined"

#: Every field of a trick contract's spec, classified (see the module's docstring).
SPEC_FIELDS = {
    "pl": WORDS,
    "en": WORDS,
    "description": WORDS,
    "total": WORDS,
    "lead_ban_reason": WORDS,
    "pass_cards": CARRIED,
    "first_lead": CARRIED,
    "trump": CARRIED,
    "follow_suit": CARRIED,
    "lead_ban": CARRIED,
    "restrictions": CARRIED,
    "score": CARRIED,
    "end_when": CARRIED,
    "early_stop": CARRIED,
    "auction": DECLINED,
    "doubling": DECLINED,
    "exposure": DECLINED,
    "stock": DECLINED,
    "widow": DECLINED,
    "declarations": DECLINED,
}
#: A declined field's attribute on the compiled contract and the reason in words.
_DECLINED_AS = {
    "stock": ("stock", "a stock"),
    "widow": ("widow", "a widow"),
    "declarations": ("declarations", "declarations"),
    "auction": ("auction", "an auction"),
    "doubling": ("doubling", "a doubling round"),
    "exposure": ("exposure", "exposures"),
}


@frozen(eq=False)
class Declined:
    """Why the compiled engines do not carry a contract (in words)."""

    reason: str


@frozen(eq=False)
class Keyed:
    """What a rule read once a deal (the first lead, seat scoring) depends on, so that an
    engine may key a memo of its value on it (``Plan.lead_key``, ``Plan.seat_key``)."""

    dealer: bool  # the dealer
    holders: int  # the cards whose holder it reads (when the first lead is chosen)
    atoms: tuple  # disjoint masks: each seat's count of taken cards in each (at the deal's end)
    won: bool  # each seat's tricks won
    #: seat scoring that reads nothing naming a seat (no seat, dealer, caller, bidder): each seat's
    #: points one function of its own counts and of all seats' counts as a whole, so that a memo
    #: may key it on the seats' counts sorted (``_cstep.DealMemo``'s ``symmetric``)
    symmetric: bool = False


#: What seat scoring may read for ``Plan.seat_key``: the keyed values and the deal's constants
#: (no auction, no declarations: bidder, bid and declared are the same in every carried deal).
_SEAT_READS = frozenset(
    {"seat", "players", "tricks", "deck", "bidder", "bid", "declared", "dealer", "tricks_taken", "taken", "taken_all"}
)
#: What names a seat in seat scoring: without them it treats every seat alike (``Keyed.symmetric``).
_SEAT_NAMING = frozenset({"seat", "dealer", "caller", "bidder"})
_LEAD_READS = frozenset({"players", "deck", "bidder", "bid", "dealer", "holders"})
#: The most atoms (disjoint card sets) a seat scoring key counts.
MAX_ATOMS = 16


def _atoms(masks, deck: int) -> tuple:
    """The coarsest disjoint card sets of ``deck`` from which each of ``masks`` (within the
    deck) is a union: the cards of none of them are not counted."""
    atoms = [functools.reduce(operator.or_, masks, 0) & deck]
    for m in masks:
        atoms = [part for a in atoms for part in (a & m, a & ~m) if part]
    return tuple(atoms)


#: The most seats and tricks whose tables the plan holds (the core's arrays).
MAX_SEATS, MAX_TRICKS = 8, 52


@frozen(eq=False)
class Tables:
    """What the compiled engines play one (players, tricks, trump, deck) of a plan from,
    gathered once (``Plan.tables``): the static scoring (``points``: points for winning trick
    n; ``cards``: (mask, points by trick n) pairs), the scorers evaluated per trick
    (``dynamic``), per trick the points each card carries and whether winning is good
    (``values``), the legality kernel (``legality.Legality``), the trick numbers whose start
    may change its programs (``refresh``), the cards beating each card (``beats``), whether a
    deal may end early (``early``) and the seat scorers (``seat_scorers``)."""

    points: tuple
    cards: tuple
    dynamic: tuple
    values: tuple
    legality: Any
    refresh: Any
    beats: tuple
    early: bool
    seat_scorers: tuple

    @property
    def static(self) -> tuple:
        """``(points, cards, dynamic)``: the contract's static tables, as ``TrickContract.tables``."""
        return self.points, self.cards, self.dynamic

    def by_trick(self) -> Optional[tuple]:
        """The lead, follow and discard programs of the legality kernel by ``2 * trick number +
        hearts broken`` (``Legality.by_trick``), or None when some read more than that."""
        got = tuple(self.legality.by_trick(phase) for phase in (LEAD, FOLLOW, DISCARD))
        return None if None in got else got


def _tables(contract, players: int, tricks: int, trump: int, deck: int) -> Optional[Tables]:
    """The ``Tables`` of one (players, tricks, trump, deck), or None where the plan declines
    them: more than ``MAX_SEATS`` seats, points past the score limit, a rule that fails."""
    if players > MAX_SEATS or tricks > MAX_TRICKS:
        return None
    try:
        static, values, kernel, refresh, beats, early, seat_scorers = contract.play_rules(tricks, trump, players, deck)
    except RuleRuntimeError:
        return None
    points = static[0]
    inside = all(-SCORE_LIMIT <= v <= SCORE_LIMIT for v in points) and all(
        -SCORE_LIMIT <= v <= SCORE_LIMIT for n in range(1, tricks + 1) for v in values[n][0]
    )
    if not inside:  # points the engines decline to hold: the interpreter steps (and raises X703)
        return None
    return Tables(points, static[1], static[2], values, kernel, refresh, beats, early, seat_scorers)


@frozen(eq=False)
class Plan:
    """What a carried trick contract's deals need of an engine."""

    contract: Any  # the compiled TrickContract
    trumps: tuple  # the trumps a deal may be played in (one, or a call's choices)
    passing: object  # PassCards or None
    follow_suit: bool
    ordered: bool  # a rank order other than A K Q ... 2
    ends: bool  # an end condition (``end_when``)

    def tables(self, players: int, tricks: int, trump: int, deck: int) -> Optional[Tables]:
        """The ``Tables`` every compiled engine plays one (players, tricks, trump, deck) from, or
        None where the plan declines them (more than 8 seats, points past the score limit, a
        rule that fails): the one source of the core's tables and the kernels'."""
        cache = self.contract._tables
        key = ("plan tables", players, tricks, trump, deck)
        got = cache.get(key, False)
        if got is False:
            got = cache[key] = _tables(self.contract, players, tricks, trump, deck)
        return got

    def begun_in_python(self) -> Optional[str]:
        """What of a deal's beginning the interpreter's Python decides before the first lead, in
        words (the trump call: its caller, and the tables of the trump called), or None."""
        return "the trump call (its caller, the tables of the trump called)" if self.contract.call is not None else None

    def lead_key(self) -> Union[Keyed, Declined]:
        """What the first lead depends on (the dealer, the holders of some cards), or why it
        cannot be keyed: it reads the trump caller, or hands beyond which holds a card."""
        lead = self.contract.first_lead
        if self.contract.call is not None and "caller" in lead.free:
            return Declined("a first lead that reads the trump caller")
        extra = lead.free - _LEAD_READS - {"caller"}
        if extra:
            return Declined("a first lead that reads " + ", ".join(sorted(extra)))
        holders = lead.seen.get("holders", 0) if "holders" in lead.free else 0
        if holders >> 52:
            return Declined("a first lead that reads the holder of a card not known in advance")
        return Keyed("dealer" in lead.free, holders, (), False)

    def seat_key(self, deck: int) -> Union[Keyed, Declined]:
        """What seat scoring (``per_seat``) depends on once a deal ends (the dealer, each seat's
        tricks won, each seat's count of taken cards in each atom), or why it cannot be keyed."""
        exprs = [s.points for s in self.contract.scorers if s.kind == "seat"]
        free = frozenset().union(*(e.free for e in exprs))
        if self.contract.call is not None and free & {"caller", "trump"}:
            return Declined("seat scoring that reads the trump called")
        extra = free - _SEAT_READS - {"caller", "trump"}
        if extra:
            return Declined("seat scoring that reads " + ", ".join(sorted(extra)))
        counted = {key[1] for e in exprs for key in e.seen if isinstance(key, tuple) and key[0] == "count"}
        if None in counted:
            return Declined("seat scoring that counts cards of a predicate not known in advance")
        atoms = _atoms(sorted(counted), deck) if free & {"taken", "taken_all"} else ()
        if len(atoms) > MAX_ATOMS:
            return Declined(f"seat scoring that counts more than {MAX_ATOMS} sets of cards")
        return Keyed("dealer" in free, 0, atoms, "tricks_taken" in free, not free & _SEAT_NAMING)

    def fast_kernel_reason(self, players: int, tricks: int, deck: int) -> Optional[str]:
        """None if the generated-Python kernels (``fastplay``) play this plan, else why not:
        they compare ranks by bit, follow suit always, score from static tables and ask the
        play rules by trick number and hearts broken only — all read from ``tables``."""
        if self.ordered:
            return "a rank order"
        if self.ends or not self.follow_suit:
            return "an end condition" if self.ends else "no duty to follow suit"
        for trump in self.trumps:
            tables = self.tables(players, tricks, trump, deck)
            if tables is None:
                return "tables the plan does not hold"
            if tables.dynamic:
                return "dynamic scoring"
            if tables.by_trick() is None:
                return "play rules that read more than the trick number and hearts broken"
        return None


def compile_plan(contract) -> Union[Plan, Declined]:
    """The plan of ``contract`` for the compiled engines, or why they do not carry it."""
    cache = getattr(contract, "_tables", None)
    got = cache.get("plan") if cache is not None else None
    if got is None:
        got = _compile(contract)
        if cache is not None:
            cache["plan"] = got
    return got


def _compile(contract) -> Union[Plan, Declined]:
    from .tricks import TrickContract

    if not isinstance(contract, TrickContract):
        return Declined("not a trick contract")
    for field, kind in SPEC_FIELDS.items():
        if kind == DECLINED:
            attr, words = _DECLINED_AS[field]
            if getattr(contract, attr):
                return Declined(words)
    if contract.added:  # a phase added by a module: only the interpreter runs its hooks
        return Declined("a phase added by a module (" + ", ".join(u.schema_key for u, _ in contract.added) + ")")
    if contract.reads_match():  # an expression's content, not a field: the engines score a deal alone
        return Declined("scoring that reads the match's totals")
    trumps = contract.call.choices if contract.call is not None else (contract.trump,)
    return Plan(
        contract,
        tuple(trumps),
        contract.passing,
        contract.follow_suit,
        contract.order is not None,
        contract.end_when is not None,
    )


def plan_of(contract) -> Optional[Plan]:
    """The plan of ``contract``, or None when the compiled engines do not carry it."""
    got = compile_plan(contract)
    return got if isinstance(got, Plan) else None


__all__ = [
    "SPEC_FIELDS",
    "WORDS",
    "CARRIED",
    "DECLINED",
    "Plan",
    "Tables",
    "Declined",
    "Keyed",
    "compile_plan",
    "plan_of",
]
