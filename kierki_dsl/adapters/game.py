"""A ruleset as one sequential game with chance: the framework-free core of the adapters.

A game is either one deal of the schedule (``scope="deal"``, which deal: ``deal``, 1-based)
or the whole match (``scope="match"``). Chance draws the first dealer when the ruleset leaves
it random, then deals the cards one at a time exactly as ``interpreter.match.deal_out`` does
(card *i* of the shuffled deck goes to the seat ``dealer + direction * (1 + i)``), so a
uniform draw of the next card is a uniform shuffle. Decisions are the deal state's own
actions (cards, ``pass``, trump calls, bets) plus the contract choice of a declarer's-choice
slot (``CHOOSE_BASE + i``). Returns are the match totals so far: the deal's scores at the end
of a one-deal game, the match totals at the end of a match.

Every decision is logged as an *event* with the seat allowed to see it (``None``: everyone);
``knowledge.py`` builds a seat's information only from its events, its own cards and its
``SeatView``.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
import pickle
import weakref
from typing import Optional, Union, cast

from ..cards import card_list, card_str
from ..interpreter import matchvalues
from ..interpreter.actions import CHOOSE_BASE, IllegalAction, action_str, is_choice
from ..interpreter.protocol import CompiledContract, DealState
from ..interpreter.stepper import Stepper, core_deal, core_from_view
from ..phases import UNITS, PhaseUnit
from ..ruleset.model import Ruleset
from ..values import frozen

try:  # the compiled step core's reads for the adapters (a deal is stepped on the core only where it is built)
    from ..interpreter._cstep import (  # type: ignore[import-not-found,import-untyped,unused-ignore]  # a C extension
        fast_calls,
        game_end_parts,
        mark_legal,
        seen_hands,
    )
except ImportError:  # pragma: no cover - without a C compiler
    fast_calls = game_end_parts = mark_legal = seen_hands = None

CHANCE = -1  # the same numbers as pyspiel.PlayerId
TERMINAL = -4
MAX_BETS_PER_SEAT = 2  # a seat doubles, then redoubles, each other seat at most once: bound below
MAX_VOLUNTARY_PASSES = 200  # layout deals (interpreter/layout.py caps voluntary passes there)
MATCH_DEALS = 100  # a whole-match game ends after at most this many deals unless told otherwise

DEALER, DEALING, CHOOSE, PLAY, OVER = "dealer", "dealing", "choose", "play", "over"

_RULESETS: dict = {}


def whole(value, what: str) -> int:
    """``value`` as an int: an int (a numpy integer too) or a float holding a whole number (a
    numpy float too: ``np.float32(2.0)`` is 2); ``ValueError`` naming ``what`` for anything else
    (1.5 is not deal 1)."""
    try:
        return operator.index(value)
    except TypeError:
        pass
    if isinstance(value, numbers.Real):  # (float, numpy's floats: not a str, not None)
        number = float(value)
        if math.isfinite(number) and number.is_integer():
            return int(number)
    raise ValueError(f"{what} must be a whole number, got {value!r}")


def ruleset_at(path: str) -> Ruleset:
    """The ruleset at ``path``, loaded once per path and version of the file (games, their
    states and the states rebuilt from a serialised history share it): a file edited since (its
    time, size or inode changed; a notebook's house rule) is loaded again. (A ruleset it extends
    is read when it is.)"""
    key = os.path.abspath(path)
    try:
        st = os.stat(path)
        stamp: Optional[tuple] = (st.st_mtime_ns, st.st_size, st.st_ino)
    except (OSError, ValueError):  # Ruleset.load says why, located
        stamp = None
    kept = _RULESETS.get(key)
    if kept is None or kept[0] != stamp or stamp is None:
        kept = _RULESETS[key] = (stamp, Ruleset.load(path))
    return kept[1]


def replayed(path: str, scope: str, deal: int, max_deals: int, actions) -> "GameState":
    """The game of the ruleset at ``path`` after ``actions`` (chance outcomes included), each
    checked as it is applied: how a pickled (serialised) ``GameState`` comes back."""
    state = GameState(GameSpec.make(ruleset_at(path), scope, deal, max_deals))
    for action in actions:
        state.apply_action(int(action))
    return state


class _Asked(Exception):
    """Raised by ``_ask``: the slot wants a declarer's choice, which is a decision of its own."""

    def __init__(self, chooser: int, allowed) -> None:
        super().__init__(chooser)
        self.chooser, self.allowed = chooser, allowed


def _ask(chooser: int, allowed) -> int:
    raise _Asked(chooser, allowed)


@frozen(eq=False)
class GameSpec:
    """What a game is: the ruleset, one deal or the match, and the action/length bounds."""

    ruleset: Union[Ruleset, "Table"]  # a ruleset, or the little of one a game from a seat's view needs
    scope: str  # "deal" or "match"
    deal: int  # 0-based schedule position of a one-deal game
    num_actions: int  # distinct action ids: cards, pass, calls, bets, contract choices
    deals: int  # deals in one game: 1, or a match's at most (its own cap, bounded by ``max_deals``)
    max_decisions: int  # an upper bound on the decisions of one game
    max_chance: int  # chance nodes in one game
    contracts: tuple  # contract names, in a fixed order (for tensors)
    choice_width: int  # most options of any declarer's-choice slot

    @classmethod
    def make(cls, ruleset: Ruleset, scope: str = "deal", deal: int = 1, max_deals: int = MATCH_DEALS) -> "GameSpec":
        """A game of ``ruleset``: deal ``deal`` alone, or the whole match cut after ``max_deals``
        deals (a match ``until`` a score may run to its own cap: 1,000 deals for Tysiąc)."""
        if scope not in ("deal", "match"):
            raise ValueError(f"scope must be 'deal' or 'match', got {scope!r}")
        deal, max_deals = whole(deal, "deal"), whole(max_deals, "max_deals")
        deals = max(1, ruleset.max_deals)
        if scope == "deal" and not 1 <= deal <= deals:
            raise ValueError(f"deal must be 1..{deals} for this ruleset, got {deal}")
        if not 1 <= max_deals <= 10_000:
            raise ValueError(f"max_deals must be 1..10000, got {max_deals}")
        width = max((len(c.offered) for c in ruleset.schedule), default=0)
        n = ruleset.players
        cards = bin(ruleset.deck).count("1")
        per_deal = (
            cards * (n + 1)
            + MAX_VOLUNTARY_PASSES  # plays, and passes in layout deals
            + cards  # cards passed before play (and below, the cards a widow's taker puts out)
            + 1
            + 1  # a trump call, a contract choice
            + n * (n + 1) * MAX_BETS_PER_SEAT  # doubles, redoubles and "done"s
            + sum(  # what the phases add: an auction's bids, a widow's cards put out
                max((u.most_decisions(c, n, cards) for c in ruleset.contracts.values()), default=0)
                for u in UNITS.values()
            )
        )
        count = min(deals, max_deals) if scope == "match" else 1
        return cls(
            ruleset=ruleset,
            scope=scope,
            deal=deal - 1,
            deals=count,
            num_actions=max(
                CHOOSE_BASE + width,
                75,
                *(u.action_end(c) for c in ruleset.contracts.values() for u in UNITS.values()),  # bids, exposures
                *(c.action_end() for c in ruleset.contracts.values()),  # phases added by a module
            ),
            max_decisions=count * per_deal,
            max_chance=count * cards + (1 if ruleset.first_dealer is None else 0),
            contracts=tuple(sorted(ruleset.contracts)),
            choice_width=width,
        )

    def dealt_ruleset(self) -> Ruleset:
        """The ruleset of a game that deals, chooses and schedules its own deals: a game positioned
        from a seat's view (``view_spec``: a ``Table``) starts in its deal and does none of that."""
        rs = self.ruleset
        if not isinstance(rs, Ruleset):
            raise TypeError(f"a game from a seat's view ({rs.path}) is positioned in its deal: it deals nothing")
        return rs


@frozen(eq=False)
class Table:
    """The little of a ruleset that a one-deal game rebuilt from a seat's view needs."""

    players: int
    deck: int
    contracts: dict
    path: str = "(a seat's view)"
    name: str = ""
    first_dealer: int = 0
    max_deals: int = 1
    schedule: tuple = ()


def view_spec(view, contract) -> GameSpec:
    """The spec of a one-deal game of the view's ``contract`` (for a player's own search)."""
    table = Table(view.players, view.deck, {contract.name: contract}, first_dealer=view.dealer)
    return GameSpec(
        ruleset=table,
        scope="deal",
        deal=max(0, view.deal_number - 1),
        num_actions=CHOOSE_BASE,
        deals=1,
        max_decisions=bin(view.deck).count("1") * (view.players + 1) + MAX_VOLUNTARY_PASSES,
        max_chance=0,
        contracts=(contract.name,),
        choice_width=0,
    )


def unit_of(phase) -> PhaseUnit:
    """The phase module of a deal's phase (a ``Phase``), or the plain unit (a public action) for
    a phase no module registers."""
    return UNITS.get(str(phase), _PLAIN)


_PLAIN = PhaseUnit()


class _Stage:
    """Where a game stands as OpenSpiel sees it: a chance node (the first dealer, the cards), a
    declarer's choice, a deal in play, the end. Not a phase of the rules: the deal in play is
    asked about its own phases (``phases``' adapter hooks)."""

    name = ""
    chance = False
    terminal = False
    seen_as: Optional[str] = None  # the tensor's phase name (None: the deal's phase)

    def player(self, game: "GameState") -> int:
        return CHANCE

    def legal(self, game: "GameState") -> list:
        return [a for a, _ in game.chance_outcomes()]

    def apply(self, game: "GameState", action: int) -> None:
        game._deal_card(action)

    def outcomes(self, game: "GameState") -> list:
        """(outcome, probability) pairs of the chance node: the cards left to deal."""
        left = game.undealt()
        return [(c, 1.0 / len(left)) for c in left]

    def chance_label(self, action: int) -> str:
        return f"deal {card_str(action)}"

    def slot(self, game: "GameState"):
        """The declarer's-choice slot being chosen now, else None."""
        return None

    def lines(self, game: "GameState") -> list:
        """The stage's lines of the information state string."""
        return []


class _Dealer(_Stage):
    name, chance, seen_as = DEALER, True, "dealing"

    def apply(self, game: "GameState", action: int) -> None:
        if not 0 <= action < game.spec.ruleset.players:
            raise IllegalAction(f"the first dealer must be a seat, got {action}")
        game._log.append((game.k, CHANCE, action))
        game.first_dealer = action
        game._begin_deal()

    def outcomes(self, game: "GameState") -> list:
        n = game.spec.ruleset.players
        return [(s, 1.0 / n) for s in range(n)]

    def chance_label(self, action: int) -> str:
        return f"dealer p{action}"


class _Dealing(_Stage):
    name, chance, seen_as = DEALING, True, "dealing"

    def legal(self, game: "GameState") -> list:
        return game.undealt()  # (the outcomes' cards, without their probabilities made first)

    def lines(self, game: "GameState") -> list:
        return [f"dealing deal {game.k + 1}: {sum(len(d) for d in game.dealt)} cards dealt"]


class _Choose(_Stage):
    name, seen_as = CHOOSE, "choose"

    def player(self, game: "GameState") -> int:
        return game.asked[0]

    def legal(self, game: "GameState") -> list:
        return [CHOOSE_BASE + i for i in sorted(game.asked[1])]

    def apply(self, game: "GameState", action: int) -> None:
        game._choose(game.asked[0], action)

    def slot(self, game: "GameState"):
        return game.spec.dealt_ruleset().contract_at(game.k)


class _Play(_Stage):
    name = PLAY

    def player(self, game: "GameState") -> int:
        return game._stepped().current_player()

    def legal(self, game: "GameState") -> list:
        return sorted(game._stepped().legal_actions())

    def apply(self, game: "GameState", action: int) -> None:
        game._decide(action)


class _Over(_Stage):
    name, terminal, seen_as = OVER, True, "over"

    def player(self, game: "GameState") -> int:
        return TERMINAL

    def legal(self, game: "GameState") -> list:
        return []

    def apply(self, game: "GameState", action: int) -> None:
        raise IllegalAction("the game is over")


STAGES = {s.name: s for s in (_Dealer(), _Dealing(), _Choose(), _Play(), _Over())}
_DEALER, _DEALING, _CHOOSING, _PLAYING, _OVER = (STAGES[n] for n in (DEALER, DEALING, CHOOSE, PLAY, OVER))


_FAST_CALLS = ("legal_actions", "current_player", "is_terminal", "apply_action")  # set by ``_go_fast``


class _Start:
    """A core's position before its first action (what ``_Deal.interpreter`` replays from)."""

    actions = ()


class GameState:
    """One game in progress. Mutable; ``clone`` copies it for search.

    Where the compiled core steps the deal (cards passed and played), a decision only steps the
    core (``_fast``): the log, the events and the interpreter's deal state follow it when read
    (``_settle``), so that stepping costs what the core costs."""

    # the deal state, set by ``_on_core`` and the ``deal`` setter (not in ``__init__``)
    _deal: Optional[DealState]  # the interpreter's deal state (None between deals, or not yet replayed)
    _step: Optional[Stepper]  # the compiled core stepping the deal, None where the interpreter steps it
    _fast: Optional[Stepper]  # the core while it is stepped directly (``_go_fast``), else None
    _booked: int  # the core's actions booked so far (``_settle``)
    _tail: tuple  # (deal number, scores) of the deal's end, told once the core's last actions are booked (or ())
    _step_k: int  # the deal the core steps
    exact: bool  # a world drawn by ``resample``: whether it replays a dealing that passed every check

    def __init__(self, spec: GameSpec) -> None:
        rs = spec.ruleset
        self.spec = spec
        self.k = spec.deal if spec.scope == "deal" else 0  # 0-based deal index
        self.first_dealer = rs.first_dealer
        self.totals = [0] * rs.players
        self.chosen: dict = {}  # declarer's choice: (slot, chooser) -> names chosen
        self._events: list = []  # (visible_to or None, text) of every decision, in order
        self._log: list = []  # (deal index, seat, action) of every action; seat CHANCE for chance
        self.dealt: list = []  # per seat, the cards dealt so far in this deal, in order
        self.contract: Optional[CompiledContract] = None  # the contract of the deal in play
        self.deal = None  # the interpreter's deal state
        self.dealer = -1
        self.asked: tuple[int, list] = (-1, [])  # (chooser, allowed option indices) of a pending declarer's choice
        self.deal_start: Optional[GameState] = None  # a snapshot taken before this deal's cards
        self.deal_first = 0
        self.past_events = 0  # the events of the deals played before this one
        self.recalled: dict = {}  # seat -> a digest of those it saw (knowledge.py)
        self.replayable = True  # its log replays it (False: built from a view, or a forced play)
        self.last_paid: Optional[list] = None  # what the last decision paid, per seat, while no other followed
        self.stage = _DEALER
        if self.first_dealer is not None:
            self._begin_deal()

    # -- the sequence of a game -----------------------------------------------------------
    def _begin_deal(self) -> None:
        rs = self.spec.dealt_ruleset()
        first = self.first_dealer
        if first is None:  # the chance node names it before the first deal (``_Dealer``)
            raise RuntimeError("a deal begins before the first dealer is drawn")
        self.dealer = rs.dealer_of(first, self.k)
        self.dealt = [[] for _ in range(rs.players)]
        self.contract = None
        self.deal = None
        self.stage = _DEALING
        self.deal_start = None
        self.deal_first = len(self._log)  # where this deal's actions start in the log
        self.past_events, self.recalled = len(self._events), {}  # (clones share it: the past is the same)
        self.put_out = 0  # cards a widow's taker put out in this deal (their number is public)
        self.deal_start = self.clone()

    def _resolve(self, pick):
        """The contract the schedule slot plays (``slot.resolve``; a contract is itself)."""
        rs = self.spec.dealt_ruleset()
        hands = [sum(1 << c for c in d) for d in self.dealt]
        return rs.contract_at(self.k).resolve(self.dealer, rs.players, hands, rs.deck, self.chosen, pick)

    def _dealt_all(self) -> None:
        rs = self.spec.dealt_ruleset()
        if self.k == 0 and rs.first_dealer_expr is not None:  # the first dealer named by the first hands
            hands = [sum(1 << c for c in d) for d in self.dealt]
            self.first_dealer = self.dealer = rs.first_dealer_from(hands, self.dealer)
        try:
            contract = self._resolve(_ask)
        except _Asked as q:  # a declarer's choice: the chooser names the contract as his action
            self.stage = _CHOOSING
            self.asked = (q.chooser, list(q.allowed))
            return
        self._start(contract)

    def _start(self, contract) -> None:
        rs = self.spec.dealt_ruleset()
        self.contract = contract
        self._events.append((None, f"deal {self.k + 1}: {contract.name}, dealer p{self.dealer}"))
        step = core_deal(contract, rs.players, rs.deck, self.dealer, self.dealt, rs.direction, self.k + 1)
        if step is None:
            matchvalues.note(self.chosen, self.totals, self.k)
            self.deal = contract.new_deal(
                rs.players, rs.deck, self.dealer, self.dealt, rs.direction, self.k + 1, self.chosen
            )
        else:
            self._on_core(step)
        self.stage = _PLAYING
        self._after_action()

    # -- the deal state: stepped by the compiled core where it carries the deal ---------------
    def _on_core(self, step) -> None:
        """Step the deal on the compiled core ``step`` from now on (its actions not booked yet)."""
        self._deal, self._step, self._booked, self._tail = None, step, 0, ()
        self._step_k = self.k  # the deal it steps (booked after the game may have moved on to the next)
        if self.last_paid is None:  # else its first decision, which forgets the payment, is ``_decide``'s
            self._go_fast(step)

    def _go_fast(self, step) -> None:
        """Step on the core ``step`` directly: ``legal_actions``, ``current_player``,
        ``is_terminal`` (the game goes on while the core steps a deal) and ``apply_action``
        (which calls ``_after_action`` when the deal ends) become the core's own, C callables set
        on the instance (``_cstep.fast_calls``): no Python frame per call. ``apply_action`` holds
        the state weakly (no reference cycle: an abandoned clone is freed at once)."""
        self._fast = step
        calls = fast_calls(step, weakref.ref(self))
        self.legal_actions, self.apply_action, self.current_player, self.is_terminal = calls  # type: ignore[method-assign]

    def _go_slow(self) -> None:
        """Leave the core's direct stepping (the deal ended, or the interpreter steps it)."""
        self._fast = None
        for name in _FAST_CALLS:
            self.__dict__.pop(name, None)

    @property
    def deal(self):
        """The interpreter's deal state. Where the compiled step core steps this deal
        (``interpreter/stepper.py``) the interpreter's state is brought to the core's position
        only when asked for (views, observations), booking the actions it has not seen."""
        if self._step is not None:
            self._settle()
        return self._deal

    @deal.setter
    def deal(self, value) -> None:
        """Set the interpreter's deal state (None between deals): it steps from now on."""
        self._deal, self._step, self._booked, self._tail = value, None, 0, ()
        self._go_slow()

    @property
    def events(self) -> list:
        """(visible_to or None, text) of every decision, in order."""
        if self._step is not None:
            self._settle()
        return self._events

    @events.setter
    def events(self, value: list) -> None:
        self._settle()
        self._events = value

    @property
    def log(self) -> list:
        """(deal index, seat, action) of every action; seat CHANCE for chance outcomes."""
        if self._step is not None:
            self._settle()
        return self._log

    def _settle(self) -> None:
        """Book the actions the core took since the last booking: each replayed on the
        interpreter's deal, logged with its seat and the events its phase reveals."""
        step = self._step
        if step is None:
            return
        acts = step.actions
        deal = self._deal
        if deal is None:
            deal = self._deal = step.ctx.interpreter(_Start)
        for a in acts[self._booked :]:
            self._book(deal, deal.current_player(), a, deal.apply_action, self._step_k)
        self._booked = len(acts)
        if self._tail:  # the deal's end, told after its last action (its words made only now: read or not)
            number, scores = self._tail
            self._events.append((None, f"deal {number} scores {scores}"))
            self._tail = ()

    def _book(self, deal, seat: int, action: int, apply, k: Optional[int] = None) -> None:
        """Apply ``action`` of ``seat`` by ``apply`` (raises ``IllegalAction``, leaving the state
        unchanged), then log it (in deal ``k``, by default the deal in play) and the events its
        phase reveals."""
        unit = unit_of(deal.phase)
        apply(action)
        self._log.append((self.k if k is None else k, seat, action))
        self._events += unit.reveal(deal, seat, action, self.dealt)
        self.put_out += unit.puts_out(action)

    def _stepped(self):
        """What actions are applied to and asked of: the core's state, else the deal state."""
        step = self._step
        return self._deal if step is None else step

    def seat_hand(self, seat: int) -> Optional[int]:
        """The cards ``seat`` holds as its view shows them, None before the deal starts: read
        from the compiled core where its hands are the view's (``seen_hands``), without
        bringing the interpreter's deal to the core's position."""
        step = self._step
        if step is not None:
            hands = seen_hands(step)
            if hands is not None:
                return hands[seat]
        deal = self.deal
        return None if deal is None else deal.view(seat).hand

    def deal_phase(self):
        """The phase of the deal in play (a ``Phase``), None between deals: without bringing
        the interpreter's deal to the core's position."""
        deal = self._stepped()
        return None if deal is None else deal.phase

    def _after_action(self) -> None:
        step = self._step
        deal = (
            cast(DealState, self._deal) if step is None else step
        )  # (``_stepped``; between deals no action is applied)
        if not deal.is_terminal():
            return
        self._go_slow()
        if step is None:  # (a deal on the core has nothing to remember: ``Stepper.remember``)
            deal.remember(self.chosen)
        scores = deal.returns()
        self.totals = list(map(operator.add, self.totals, scores))  # (no frame of a comprehension's)
        self.last_paid = list(map(float, scores))
        if step is None:
            self._events.append((None, f"deal {self.k + 1} scores {list(scores)}"))
        else:  # booked with the core's last actions when read
            self._tail = (self.k + 1, list(scores))
        self.k += 1
        spec = self.spec
        if spec.scope == "deal" or self.k >= spec.deals or spec.dealt_ruleset().match_over(self.k, self.totals):
            self.stage = _OVER
            return
        self._settle()
        self._begin_deal()

    # -- OpenSpiel-style queries ----------------------------------------------------------
    def current_player(self) -> int:
        """The seat on turn, ``CHANCE`` at a chance node, ``TERMINAL`` at the end (while the core
        steps the deal directly, the core's own ``current_player`` answers: see ``_go_fast``)."""
        return self.stage.player(self)

    def is_terminal(self) -> bool:
        return self.stage.terminal

    def is_chance(self) -> bool:
        return self.stage.chance

    def chooser(self) -> int:
        return self.asked[0]

    def chance_outcomes(self) -> list:
        """(outcome, probability) pairs at a chance node."""
        return self.stage.outcomes(self)

    def undealt(self) -> list:
        """The cards still to deal, ascending."""
        return card_list(self.spec.ruleset.deck & ~self._given())

    def _given(self) -> int:
        """The cards dealt so far in this deal (a mask)."""
        have = 0
        for d in self.dealt:
            for c in d:
                have |= 1 << c
        return have

    def stepping_core(self):
        """The compiled core stepping the deal (``stepper.Stepper``), None where the interpreter steps it."""
        return self._step

    def legal_actions(self, player: Optional[int] = None) -> list:
        """The legal actions in ascending order (OpenSpiel requires it; a phase may list its
        own in another order, e.g. a trump call's "no trumps" first); of ``player``: none for a
        seat not on turn (OpenSpiel's ``legal_actions(player)``)."""
        if player is not None and player != self.current_player():
            return []
        return self.stage.legal(self)  # (while the core steps the deal directly, its own: ``_go_fast``)

    def mark_legal(self, mask) -> None:
        """Set ``mask`` (an int8 numpy array of ``spec.num_actions``, zeroed) to 1 at the legal actions."""
        fast = self._fast
        if fast is not None:  # written by the core
            mark_legal(fast, mask)
        else:
            mask[self.legal_actions()] = 1

    def returns(self) -> list:
        return [float(t) for t in self.totals]

    def apply_action(self, action: int) -> None:
        """Apply a chance outcome or a decision; ``IllegalAction`` if it is not allowed (while
        the core steps the deal directly, the core applies it and the booking waits: ``_go_fast``)."""
        self.stage.apply(self, action)

    def _deal_card(self, card: int) -> None:
        rs = self.spec.dealt_ruleset()
        have = self._given()
        if not (0 <= card < 52 and (rs.deck & ~have) >> card & 1):
            raise IllegalAction(f"{card} is not a card left to deal")
        self._log.append((self.k, CHANCE, card))
        i = have.bit_count()
        self.dealt[(self.dealer + rs.direction * (1 + i)) % rs.players].append(card)
        if i + 1 == bin(rs.deck).count("1"):
            self._dealt_all()

    def _choose(self, seat: int, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalAction("choose one of the contracts still open to you")
        contract = self._resolve(lambda chooser, allowed: action - CHOOSE_BASE)
        self.last_paid = None
        self._log.append((self.k, seat, action))
        self._events.append((None, f"p{seat} chooses {contract.name}"))
        self._start(contract)

    def force_action(self, action: int) -> None:
        """Play a card (or pass) without checking the rules: for resampled worlds only, whose
        drawn hands may not fit a public play (see ``resample.py``)."""
        self.replayable = False
        self.last_paid = None
        step = self._step
        if step is not None and action in step.legal_actions():
            step.apply_action(action)
            self._settle()
        else:
            deal = self.deal
            self.deal = deal  # the interpreter steps on: a forced card may not be in the hand
            self._book(deal, deal.current_player(), action, deal.play_legal)
        self._after_action()

    def _decide(self, action: int) -> None:
        """A decision of the deal in play stepped by the interpreter (the core steps in
        ``apply_action``), or the first decision on the core after a payment (``_on_core``)."""
        paid, self.last_paid = self.last_paid, None
        step = self._step
        if step is not None:  # stepped directly from now on
            self._go_fast(step)
            try:
                self.apply_action(action)
            except BaseException:
                self._go_slow()
                self.last_paid = paid
                raise
            return
        deal = cast(DealState, self._deal)  # no core steps this deal in play: ``_start`` set the interpreter's
        try:
            self._book(deal, deal.current_player(), action, deal.apply_action)
        except BaseException:
            self.last_paid = paid
            raise
        self._after_action()

    # -- for search -------------------------------------------------------------------------
    @classmethod
    def from_deal(cls, spec: "GameSpec", deal, number: int) -> "GameState":
        """A one-deal game positioned at a deal state built elsewhere (e.g. from a seat's view
        with sampled hands, for a player's search): no history before it, returns the deal's."""
        put_out = sum(1 for x in deal.record_exchange() if not x.startswith("bid:"))  # cards, not a contract named
        st = cls._positioned(spec, number, deal.contract, deal.dealer, deal.players, put_out)
        st.deal = deal
        st._after_action()
        st.last_paid = None  # (a deal ended already: nothing a decision of this game paid)
        return st

    @classmethod
    def from_view(cls, spec: "GameSpec", contract, view, hands: list) -> "GameState":
        """A one-deal game positioned at the deal of a seat's ``view`` with the other hands
        assumed (``hands``): stepped on the compiled core where it carries the deal
        (``stepper.core_from_view``), else ``from_deal`` of the interpreter's ``from_view``."""
        step = core_from_view(contract, view, hands)
        if step is None:
            return cls.from_deal(spec, contract.from_view(view, hands), view.deal_number)
        st = cls._positioned(spec, view.deal_number, contract, view.dealer, view.players, 0)  # no widow: none put out
        st._on_core(step)
        st._after_action()
        st.last_paid = None
        return st

    @classmethod
    def _positioned(
        cls, spec: "GameSpec", number: int, contract, dealer: int, players: int, put_out: int
    ) -> "GameState":
        """A one-deal game in play of ``contract``, its deal state still to be set."""
        st = object.__new__(cls)
        st.spec = spec
        st.k = number - 1
        st.first_dealer = dealer
        st.totals = [0] * players
        st.chosen = {}
        st._events, st._log = [], []
        st.dealt = [[] for _ in range(players)]
        st.contract = contract
        st.dealer = dealer
        st.deal_start = None
        st.deal_first = 0
        st.past_events, st.recalled = 0, {}
        st.put_out = put_out
        st.asked = (-1, [])
        st.replayable = False
        st.last_paid = None
        st.stage = _PLAYING
        st.deal = None
        return st

    def clone(self) -> "GameState":
        other = object.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other.totals = list(self.totals)
        other.chosen = {k: set(v) for k, v in self.chosen.items()}
        other._events = list(self._events)  # not booked first: a clone books what its core took when read
        other._log = list(self._log)
        other.dealt = [list(d) for d in self.dealt]
        if self._deal is not None:
            other._deal = self._deal.clone()
        if self._step is not None:
            other._step = self._step.clone()
            if self._fast is not None:
                other._go_fast(other._step)
        return other

    def __deepcopy__(self, memo) -> "GameState":  # OpenSpiel clones Python states by deepcopy
        return self.clone()

    def __reduce__(self):
        """Pickled as its action history (what OpenSpiel's ``serialize`` writes of a Python
        state): the ruleset's path, scope, deal and every action; unpickling replays them.
        A game built from a seat's view (``from_view``, resampled worlds) has no history."""
        spec = self.spec
        if not (self.replayable and isinstance(spec.ruleset, Ruleset)):
            raise pickle.PicklingError(
                "only a game played from the start of a ruleset file can be serialised "
                "(not one built from a seat's view, nor a resampled world)"
            )
        return (
            replayed,
            (os.path.abspath(spec.ruleset.path), spec.scope, spec.deal + 1, spec.deals, [a for _, _, a in self.log]),
        )

    def deal_log(self) -> list:
        """(seat, action) of this deal's actions so far, chance outcomes included."""
        return [(s, a) for _, s, a in self.log[self.deal_first :]]

    def action_string(self, seat: int, action: int) -> str:
        if seat == CHANCE:
            return self.stage.chance_label(action)
        if is_choice(action):
            slot = self._choice_slot(seat, action)
            options = slot.offered if slot is not None else ()
            i = action - CHOOSE_BASE
            return f"choose {options[i].name}" if i < len(options) else f"choose #{i}"
        return action_str(action)

    def _choice_slot(self, seat: int, action: int):
        """The declarer's-choice slot a contract choice names an option of: the one being
        chosen now, else the last one in which ``seat`` made that choice (the match may have
        moved on since), else None."""
        slot = self.stage.slot(self)
        if slot is not None:
            return slot
        for k, s, a in reversed(self.log):
            if s == seat and a == action:
                return self.spec.dealt_ruleset().contract_at(k)
        return None

    def __str__(self) -> str:
        """The whole state, hidden cards included (for debugging; never shown to a seat)."""
        lines = [f"deal {self.k + 1} phase {self.stage.name} dealer p{self.dealer} totals {self.totals}"]
        for s, d in enumerate(self.dealt):
            lines.append(f"p{s} dealt " + " ".join(card_str(c) for c in d))
        lines += [f"{s} {self.action_string(s, a)}" for s, a in self.deal_log() if s != CHANCE]
        return "\n".join(lines)


if game_end_parts is not None:  # a one-deal game's end on the core done in C, as ``_after_action`` does it
    game_end_parts(GameState, GameSpec, _OVER, _FAST_CALLS)

__all__ = ["GameSpec", "GameState", "Table", "view_spec", "whole", "CHANCE", "TERMINAL"]
