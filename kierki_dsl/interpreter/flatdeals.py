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
- static points per trick and per card (not dynamic points), no early end, no trump call.

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
from .draws import below, shuffled
from .envs import play_env, seat_function
from .legality import LEAD
from .plan import Keyed, plan_of
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


def why_not_flat(contract, compiled, tricks: int, deck: int) -> Optional[str]:
    """None if the flat path steps deals of ``contract`` (``compiled``: the step core's tables
    of its trump, ``stepper._compiled``), else why not, in words."""
    if _vecflat is None:
        return "the flat deals' extension is not built"
    plan = plan_of(contract)
    if plan is None or compiled is None:
        return "not carried by the step core"
    if contract.call is not None:
        return "a trump call (its caller and the tables of the trump called)"
    if compiled.dynamic:
        return "dynamic points (each trick)"
    if contract.early_stop or contract.end_when is not None:
        return "an early end (each trick)"
    k = compiled.kernel
    if any(k.per_decision) or any(k.per_card):
        return "play rules that read the hand or the winning card (each decision)"
    classes = {k.key(n, False, 0)[0] for n in range(tricks + 2)}
    if len(classes) * (2 if k.broken_read else 1) << bin(k.played_seen).count("1") > MAX_KEYS:
        return "play rules that count too many played cards"
    lead = plan.lead_key()
    if not isinstance(lead, Keyed):
        return f"the first lead: {lead.reason}"
    if compiled.seat_scorers:
        seats = plan.seat_key(deck)
        if not isinstance(seats, Keyed):
            return f"seat scoring: {seats.reason}"
    return None


class FlatDeals:
    """``num`` deals of ``contract`` (deal ``number`` of its ruleset) as flat C structs; ``out``
    the arrays it writes (obs, mask, player, rewards, done); ``layout`` the tensor's offsets,
    size, action count, (pass, play) phase indices and contract index."""

    def __init__(self, rs, contract, compiled, number: int, num: int, tricks: int, out: tuple, layout: tuple) -> None:
        p, deck, trump = rs.players, rs.deck, contract.trump
        self.rs, self.contract, self.number, self.tricks, self.trump = rs, contract, number, tricks, trump
        self.kernel, self.seat_scorers = compiled.kernel, compiled.seat_scorers
        plan = plan_of(contract)
        assert plan is not None  # why_not_flat said so
        lead = plan.lead_key()
        assert isinstance(lead, Keyed)
        self._lead = seat_function(contract.first_lead, p, deck)
        lead_of = [self._lead(d, -1, [0] * p) if not lead.holders else -1 for d in range(p)]
        seats = plan.seat_key(deck) if compiled.seat_scorers else Keyed(False, 0, (), False)
        assert isinstance(seats, Keyed)
        tables, values, k, _, beats, _, _ = contract.play_rules(tricks, trump, p, deck)
        trick_points = tables[0]
        passing = contract.passing
        offset = passing.offset(number, p) if passing else 0
        first = rs.first_dealer
        self.dealer_of = [rs.dealer_of(f, number - 1) % p for f in range(p)]
        offsets, obs_size, num_actions, phases, contract_index = layout
        self.flat = _vecflat.Flat(
            num,
            p,
            tricks,
            contract.follow_suit,
            deck,
            rs.direction,
            -1 if first is None else first,
            self.dealer_of,
            passing.count if offset else 0,
            rs.direction * offset,
            [sum(1 << c for c in b) for b in beats],
            [trick_points[n] if n < len(trick_points) else 0 for n in range(tricks + 2)],
            [tuple(values[n][0]) if 1 <= n <= tricks else (0,) * 52 for n in range(tricks + 2)],
            trump,
            [k.key(n, False, 0)[0] for n in range(tricks + 2)],
            k.broken_read,
            k.played_seen & FULL_DECK,
            MAX_KEYS,
            lead_of,
            lead.dealer,
            lead.holders,
            bool(compiled.seat_scorers),
            seats.dealer,
            seats.won,
            seats.atoms,
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
    def program(self, phase: int, led: int, number: int, broken: int, played: int) -> tuple:
        """The rules of one program of a trick situation as (keep mask, fallback) pairs
        (``Legality.program``; the rules read neither the hand nor the winning card)."""
        env = play_env(
            -1 if phase == LEAD else led, self.trump, -1, number, self.tricks, bool(broken), 0, self.rs.deck, played
        )
        return tuple((keep, fallback) for keep, fallback, _, _ in self.kernel.program(phase, env))

    def lead(self, dealer: int, hands: tuple) -> int:
        """The first leader of a deal (after any passing), from its dealer and hands."""
        return self._lead(dealer, -1, list(hands))

    def seat_points(self, dealer: int, won: tuple, taken: tuple) -> list:
        """Each seat's end-of-deal points (``per_seat``) of a deal that ended so."""
        p = self.rs.players
        points = [0] * p
        add_seat_scores(
            points,
            self.seat_scorers,
            dealer,
            p,
            -1,
            self.trump,
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
