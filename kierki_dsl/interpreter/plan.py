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
interpreter (the reference, ``TrickDeal``) and the compiled core (``stepper``, ``_cstep.c``),
which builds its tables from the plan (``Plan.tables``). The generated-Python kernels of
simulation (``fastplay``+``trickgen``, and ``fastrecord`` through them) take only what
``Plan.fast_kernel_reason`` leaves them: a subset of what the plan carries.
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Optional, Union

from ..values import frozen

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


#: What seat scoring may read for ``Plan.seat_key``: the keyed values and the deal's constants
#: (no auction, no declarations: bidder, bid and declared are the same in every carried deal).
_SEAT_READS = frozenset(
    {"seat", "players", "tricks", "deck", "bidder", "bid", "declared", "dealer", "tricks_taken", "taken", "taken_all"}
)
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


@frozen(eq=False)
class Plan:
    """What a carried trick contract's deals need of an engine."""

    contract: Any  # the compiled TrickContract
    trumps: tuple  # the trumps a deal may be played in (one, or a call's choices)
    passing: object  # PassCards or None
    follow_suit: bool
    ordered: bool  # a rank order other than A K Q ... 2
    ends: bool  # an end condition (``end_when``)

    def tables(self, players: int, tricks: int, trump: int, deck: int):
        """The compiled core's tables of one (players, tricks, trump, deck), or None where it
        declines them (more than 8 seats, points past the score limit, a rule that fails)."""
        from .stepper import _compiled

        return _compiled(self.contract, players, tricks, trump, deck)

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
        return Keyed("dealer" in free, 0, atoms, "tricks_taken" in free)

    def fast_kernel_reason(self, players: int, tricks: int) -> Optional[str]:
        """None if the generated-Python kernels (``fastplay``) play this plan, else why not:
        they compare ranks by bit, follow suit always and score from static tables."""
        if self.ordered:
            return "a rank order"
        if self.ends or not self.follow_suit:
            return "an end condition" if self.ends else "no duty to follow suit"
        if any(self.contract.tables(tricks, t, players)[2] for t in self.trumps):
            return "dynamic scoring"
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


__all__ = ["SPEC_FIELDS", "WORDS", "CARRIED", "DECLINED", "Plan", "Declined", "Keyed", "compile_plan", "plan_of"]
