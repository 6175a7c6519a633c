"""The batched environment's flat deals (``_vecflat.c``): which trick contracts C steps alone,
the tables it is built with, and the Python it asks once per key; and the batch's deals.

A contract the plan carries (``plan.compile_plan``) is stepped as flat C structs when every
rule it has is one C can hold or memoise on what the plan says the rule reads
(``why_not_flat`` says why not otherwise; ``vecenv`` then steps it on the step core's
``Batch``):

- the play rules' programs, keyed as the legality kernel keys a trick's situation (the class
  of the trick number, hearts broken where read, the played cards the rules count) — not
  rules that read the hand or the winning card (worked out at each decision);
- the first lead, keyed on the dealer and the holders of the cards it names (``Plan.lead_key``);
- end-of-deal seat scoring, keyed on the dealer, tricks won and each seat's count of taken
  cards in each card set its expressions count (``Plan.seat_key``);
- a trump call whose caller is named by the dealer (a caller by dealer), the tables of each
  trump it may call held at once;
- static points per trick and per card (not dynamic points), no early end.

A key met for the first time asks the interpreter's own code (``program``, ``lead``,
``seat_points``); every later deal with that key is answered in C.

**The deals.** Deal ``i`` of a batch reset with ``seed`` draws from its own generator
(splitmix64, ``DealDraws``) seeded with ``seed + i``, by the random-draw protocol
(``draws``): the first dealer when chance names it, then the deck shuffled
(``draws.shuffled``) and dealt round the table from the dealer's next seat. ``dealt`` is the
reference the C dealing (``_vecdeal.h``, shared by both batches) is tested against.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from ..cards import FULL_DECK
from . import stepper
from .actions import call
from .draws import below, shuffled
from .envs import play_env, seat_function
from .legality import LEAD
from .plan import Declined, Keyed, Plan, Tables, plan_of
from .trickkernel import add_seat_scores

_vecflat: Any = None
if not os.environ.get("KIERKI_NO_C"):
    try:
        from . import _vecflat  # type: ignore[attr-defined,no-redef,unused-ignore]  # a C extension
    except ImportError:  # not built: the batch steps on the step core
        _vecflat = None


class _NeverRaised(RuntimeError):
    """Stands for ``_vecflat.Unworded`` where the extension is not built."""


#: A flat deal stopped on an error the interpreter words (args: the deal's index).
Unworded: Any = _vecflat.Unworded if _vecflat is not None else _NeverRaised
_MASK64 = (1 << 64) - 1
#: The most trick situations (program keys) a contract's play rules may tell apart on this path.
MAX_KEYS = 1 << 16
#: What a trump caller may read to be known by dealer; what a first lead may read to be keyed.
_CALLER_READS = frozenset({"dealer", "players", "deck"})
_LEAD_READS = frozenset({"players", "deck", "bidder", "bid", "dealer", "holders", "caller"})


class DealDraws:
    """The batch's deal generator as ``_vecdeal.h`` draws it: splitmix64, 32 bits a draw."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def getrandbits(self, k: int) -> int:
        """The top 32 bits of the generator's next output (only ``k == 32`` is drawn)."""
        if k != 32:
            raise ValueError("the batch's generator draws 32 bits at a time")
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return (z ^ (z >> 31)) >> 32


def dealt(grb, deck: int, players: int, first_dealer: Optional[int], dealer_of, direction: int) -> tuple:
    """(first dealer, dealer, the cards in dealing order, hand masks) of the next deal drawn
    from ``grb``: ``first_dealer`` None is drawn among the seats; ``dealer_of[first]`` deals;
    the k-th card of the shuffled deck goes to the seat ``dealer + direction * (1 + k)``."""
    first = below(grb, players) if first_dealer is None else first_dealer
    dealer = dealer_of[first]
    order = shuffled([c for c in range(52) if deck >> c & 1], grb)
    hands, seat = [0] * players, dealer
    for card in order:
        seat = (seat + direction) % players
        hands[seat] |= 1 << card
    return first, dealer, order, hands


def _tables(contract, players: int, tricks: int, deck: int) -> list:
    """The step core's tables (``stepper._compiled``) of each trump a deal may be played in."""
    trumps = contract.call.choices if contract.call is not None else (contract.trump,)
    return [stepper._compiled(contract, players, tricks, t, deck) for t in trumps]


def _lead_key(contract, plan) -> tuple:
    """(what the first lead is keyed on, whether it reads the trump caller): ``Plan.lead_key``,
    with the caller of a trump call read too (known here when the lead is chosen)."""
    if contract.call is None:
        return plan.lead_key(), False
    lead = contract.first_lead
    extra = lead.free - _LEAD_READS
    holders = lead.seen.get("holders", 0) if "holders" in lead.free else 0
    if extra or holders >> 52:
        return Declined("a first lead that reads " + (", ".join(sorted(extra)) or "a card not known in advance")), False
    return Keyed("dealer" in lead.free, holders, (), False), "caller" in lead.free


def why_not_flat(contract, players: int, tricks: int, deck: int) -> Optional[str]:
    """None if the flat path steps deals of ``contract``, else why not, in words."""
    if _vecflat is None:
        return "the flat deals' extension is not built"
    plan = plan_of(contract)
    tables: list[Any] = _tables(contract, players, tricks, deck) if plan is not None else [None]
    if plan is None or None in tables:
        return "not carried by the step core"
    called = contract.call.called_by.free - _CALLER_READS if contract.call is not None else ()
    if called:
        return "a trump caller that reads " + ", ".join(sorted(called))
    if any(t.dynamic for t in tables):
        return "dynamic points (each trick)"
    if contract.early_stop or contract.end_when is not None:
        return "an early end (each trick)"
    kernels = [t.kernel for t in tables]
    if any(any(k.per_decision) or any(k.per_card) for k in kernels):
        return "play rules that read the hand or the winning card (each decision)"
    keyed = {(tuple(k.key(n, False, 0)[0] for n in range(tricks + 2)), k.broken_read, k.played_seen) for k in kernels}
    if len(keyed) > 1:
        return "play rules keyed differently in each trump"
    classes, broken, seen = keyed.pop()
    if len(set(classes)) * len(tables) * (2 if broken else 1) << bin(seen).count("1") > MAX_KEYS:
        return "play rules that count too many played cards"
    lead, _ = _lead_key(contract, plan)
    if not isinstance(lead, Keyed):
        return f"the first lead: {lead.reason}"
    if tables[0].seat_scorers:
        seats = plan.seat_key(deck)
        if not isinstance(seats, Keyed):
            return f"seat scoring: {seats.reason}"
    return None


class FlatDeals:
    """``num`` deals of ``contract`` (deal ``number`` of its ruleset) as flat C structs; ``out``
    the arrays it writes (obs, mask, player, rewards, done); ``layout`` the tensor's offsets,
    size, action count, (pass, play) phase indices and contract index."""

    def __init__(self, rs, contract, number: int, num: int, tricks: int, out: tuple, layout: tuple) -> None:
        p, deck, c = rs.players, rs.deck, contract.call
        self.rs, self.contract, self.number, self.tricks = rs, contract, number, tricks
        self.trumps = tuple(c.choices) if c is not None else (contract.trump,)
        compiled = _tables(contract, p, tricks, deck)
        self.kernels, self.seat_scorers = [t.kernel for t in compiled], compiled[0].seat_scorers
        plan = plan_of(contract)
        assert plan is not None  # why_not_flat said so
        lead, lead_caller = _lead_key(contract, plan)
        assert isinstance(lead, Keyed)
        self._lead = seat_function(contract.first_lead, p, deck)
        known = not lead.holders and not lead_caller  # the first leader by dealer alone
        lead_of = [self._lead(d, -1, [0] * p) if known else -1 for d in range(p)]
        seats = plan.seat_key(deck) if self.seat_scorers else Keyed(False, 0, (), False)
        assert isinstance(seats, Keyed)
        rules = [_plan_tables(plan, p, tricks, t, deck) for t in self.trumps]  # the plan's, as the core's
        call_of = [-1] * 64
        for i, suit in enumerate(self.trumps if c is not None else ()):
            call_of[call(suit)] = i
        caller = seat_function(c.called_by, p, deck) if c is not None else None
        passing, first, k = contract.passing, rs.first_dealer, self.kernels[0]
        offset = passing.offset(number, p) if passing else 0
        offsets, obs_size, num_actions, phases, contract_index = layout
        self.flat = _vecflat.Flat(
            num,
            p,
            tricks,
            contract.follow_suit,
            deck,
            rs.direction,
            -1 if first is None else first,
            [rs.dealer_of(f, number - 1) % p for f in range(p)],
            passing.count if offset else 0,
            rs.direction * offset,
            self.trumps,
            [[sum(1 << c for c in b) for b in r.beats] for r in rules],
            [[r.points[n] if n < len(r.points) else 0 for n in range(tricks + 2)] for r in rules],
            [[tuple(r.values[n][0]) if 1 <= n <= tricks else (0,) * 52 for n in range(tricks + 2)] for r in rules],
            [k.key(n, False, 0)[0] for n in range(tricks + 2)],
            k.broken_read,
            k.played_seen & FULL_DECK,
            MAX_KEYS,
            lead_of,
            lead.dealer,
            lead_caller,
            lead.holders,
            bool(self.seat_scorers),
            seats.dealer,
            seats.won,
            seats.atoms,
            sum(1 << a for a in range(64) if call_of[a] >= 0),
            call_of,
            [caller(d, -1, [0] * p) for d in range(p)] if caller is not None else [0] * p,
            c.after if c is not None else -1,
            self.program,
            self.lead,
            self.seat_points,
            offsets,
            obs_size,
            num_actions,
            phases,
            contract_index,
            *out,
        )

    # -- what C asks once per key -------------------------------------------------------------
    def program(self, t: int, phase: int, led: int, number: int, broken: int, played: int) -> tuple:
        """The rules of one program of a trick situation in trump ``t`` (an index of
        ``trumps``) as (keep mask, fallback) pairs (``Legality.program``; the rules read
        neither the hand nor the winning card)."""
        env = play_env(
            -1 if phase == LEAD else led, self.trumps[t], -1, number, self.tricks, bool(broken), 0, self.rs.deck, played
        )
        return tuple((keep, fallback) for keep, fallback, _, _ in self.kernels[t].program(phase, env))

    def lead(self, dealer: int, caller: int, hands: tuple) -> int:
        """The first leader of a deal (after any passing and call), from its dealer, trump
        caller and hands."""
        return self._lead(dealer, caller, list(hands))

    def seat_points(self, dealer: int, won: tuple, taken: tuple) -> list:
        """Each seat's end-of-deal points (``per_seat``) of a deal that ended so."""
        p = self.rs.players
        points = [0] * p
        add_seat_scores(  # keyed: it reads neither the caller nor the trump (Plan.seat_key)
            points,
            self.seat_scorers,
            dealer,
            p,
            -1,
            self.trumps[0],
            list(won),
            self.tricks,
            list(taken),
            self.rs.deck,
            -1,
            0,
            [0] * p,
        )
        return points

    # -- a deal as the interpreter has it ------------------------------------------------------
    def replayed(self, i: int, new_deal):
        """Deal ``i`` in its position: ``new_deal`` (``stepper.new_deal`` or the contract's)
        of its cards, its actions applied."""
        _, dealer, hands, actions = self.flat.dealt(i)
        rs = self.rs
        cards = [[c for c in range(52) if h >> c & 1] for h in hands]
        deal = new_deal(self.contract, rs.players, rs.deck, dealer, cards, rs.direction, self.number)
        for a in actions:
            deal.apply_action(a)
        return deal


def available() -> bool:
    """Whether the flat deals' extension is built and enabled."""
    return _vecflat is not None


__all__ = ["Unworded", "DealDraws", "dealt", "why_not_flat", "FlatDeals", "MAX_KEYS", "available"]


def _plan_tables(plan: Plan, players: int, tricks: int, trump: int, deck: int) -> Tables:
    """The plan's tables of one trump, which the core compiled (``why_not_flat`` said so)."""
    got = plan.tables(players, tricks, trump, deck)
    assert got is not None  # a flat deal is one the core carries
    return got
