"""Many deals of one trick contract stepped at once: a batched environment (numpy arrays in,
numpy arrays out), as flat C structs (``interpreter/_vecflat.c``, ``flatdeals``) where the
contract's rules allow it, else on the compiled step core (``interpreter/_cstep.c``'s ``Batch``).

    from kierki_dsl.vecenv import VecDeals
    deals = VecDeals("rulesets/games/hearts.yaml", num_envs=1024)
    out = deals.reset(seed=0)                   # deal i is dealt from seed 0 + i
    while training:
        actions = my_policy(out.obs, out.mask)  # one action per deal (int64)
        out = deals.step(actions)

Each deal is a one-deal game of the ruleset (``deal``: which deal of the schedule, 1-based)
played by every seat: ``out.player`` is the seat on turn in each deal, ``out.obs`` its
observation tensor (``adapters/knowledge.py``'s, as the PettingZoo environment gives it),
``out.mask`` its legal actions (1 for each), ``out.rewards`` each seat's points of a deal
that ended at this step (deals x seats, 0 otherwise) and ``out.done`` which deals ended. A
deal that ends is dealt again at once (auto-reset, the next deal from the same generator):
``obs``, ``mask`` and ``player`` are then those of the new deal. Deal ``i`` is dealt from its
own generator seeded with ``seed + i`` (``flatdeals.dealt``: splitmix64 by the draw protocol);
tests/test_vecenv.py gives the PettingZoo environment the same deals and holds the two equal.

The arrays are the batch's own (read-only views), overwritten by the next call: copy what you keep.

Carried: a deal of a trick contract that the compiled step core carries
(``stepper.why_not_carried``: passing, a fixed trump or a trump call, any play rules and
scoring), of a ruleset whose first dealer is a seat or drawn (not named by the cards).
Anything else is declined with ``NotBatched`` (a ``ValueError``) saying why.
"""

from __future__ import annotations

import copy
import functools
import operator
from typing import Any, NamedTuple

try:
    import numpy as np
except ImportError as e:  # pragma: no cover - exercised only without numpy
    raise ImportError("kierki_dsl.vecenv needs numpy: pip install 'kierki-dsl[rl]'") from e

from .adapters import knowledge
from .adapters.game import GameSpec, whole
from .cards import FULL_DECK
from .interpreter import flatdeals, stepper
from .interpreter.actions import called_suit, is_call
from .interpreter.corefast import _MaskDeal
from .interpreter.envs import _DEAL_CONSTANT_KEYS as DEAL_CONSTANT
from .interpreter.envs import seat_function
from .interpreter.plan import Keyed, plan_of
from .ruleset.model import Ruleset

_cstep: Any = stepper._cstep  # the compiled step core (None when not built: ``contract_of`` declines)
_INT64 = np.dtype(np.int64)  # (``VecDeals._int64``'s fast path: what a policy's argmax gives)
_INT64_STRIDES = (_INT64.itemsize,)

#: The parts of the observation tensor the batch writes, in ``_cstep.Batch``'s order.
PARTS = (
    "seat",
    "phase",
    "contract",
    "dealer",
    "hand",
    "played",
    "trick",
    "led",
    "trump",
    "caller",
    "scores",
    "totals",
    "hand_sizes",
)


class NotBatched(ValueError):
    """The deal asked for is not one the batched environment steps (the message says why)."""


class Step(NamedTuple):
    """What a reset or a step gives back (arrays of the batch: overwritten by the next call)."""

    obs: np.ndarray  # float32 (deals, tensor size): the observation of the seat on turn
    mask: np.ndarray  # int8 (deals, actions): 1 for its legal actions
    player: np.ndarray  # int64 (deals,): the seat on turn
    rewards: np.ndarray  # float32 (deals, seats): the points of a deal that ended at this step
    done: np.ndarray  # bool (deals,): whether the deal ended at this step (and was dealt again)


class _Memos:
    """The C memos of a batch's trick programs, one per trump the deals may be played in."""

    def __init__(self, tricks: int) -> None:
        self.tricks = tricks
        self.by_trump: dict = {}  # trump -> TrickMemo

    def of(self, compiled, trump: int):
        """The memo of the deals played in ``trump`` (``compiled``: their tables)."""
        memo = self.by_trump.get(trump)
        if memo is None:
            # asks ``_Deal._at_trick``, which reads only the tables: no context is held (no cycle)
            tables: Any = _Tables(compiled)
            asked = functools.partial(stepper._Deal._at_trick, tables)
            memo = self.by_trump[trump] = _memo(compiled, self.tricks, asked)
        return memo


class _Tables:
    """What ``_Deal._at_trick`` reads of a deal's context: its compiled tables."""

    __slots__ = ("compiled",)

    def __init__(self, compiled) -> None:
        self.compiled = compiled


class _BatchDeal(_MaskDeal):
    """The Python side of one batched deal: the first lead read positionally, the trick
    programs memoised in C (``_at_trick`` is the batch's ``TrickMemo`` for the deal's trump).
    The batch writes each deal's dealer and hands in ``book`` (row ``index``) and, where a
    callback reads them at every deal, sets ``dealer`` and ``dealt`` too."""

    __slots__ = ("_at_trick", "book", "index", "memos")
    book: np.ndarray
    index: int
    memos: _Memos

    def joined(self, book: np.ndarray, index: int, memos: _Memos) -> "_BatchDeal":
        """This context with its batch's book, its row and the memo of its trump; itself."""
        self.book, self.index, self.memos = book, index, memos
        self._at_trick = memos.of(self.compiled, self.trump)  # type: ignore[method-assign]  # slot over method
        return self

    def _begin(self, core) -> tuple:
        """A trump call first when the contract has one (``_Deal._begin``), else play."""
        return stepper._Deal._begin(self, core) if not self.called else super()._begin(core)

    def _called(self, core, action: int) -> tuple:
        """(plan, context) of the deal once ``action`` called trumps (``_Deal._called``): this
        context with the tables of the trump called and the caller, who is on turn."""
        ctx = copy.copy(self)
        ctx.trump, ctx.caller, ctx.called = called_suit(action), core.to_move, True
        ctx.compiled = stepper._compiled(self.contract, self.players, self.tricks_total, ctx.trump, self.deck)
        return ctx.compiled.plan, ctx.joined(self.book, self.index, self.memos)

    def synced(self) -> "_BatchDeal":
        """This context with its deal's dealer and hands read from the book; itself."""
        row = self.book[self.index]
        self.dealer, self.dealt = int(row[0]), tuple(int(h) for h in row[1:])
        return self

    def interpreter(self, core):
        """The interpreter's deal in the core's position (to word an error), from the book."""
        return super(_BatchDeal, self.synced()).interpreter(core)


class _KeyedDeal(_BatchDeal):
    """A batched deal whose first lead and seat scoring the core asks of ``_begin`` and
    ``_finish`` set per context: the batch's ``DealMemo`` where the plan keys them
    (``plan.Plan.lead_key``, ``seat_key``), else ``_begin_of`` and ``_finish_of``."""

    __slots__ = ("_begin", "_finish")


def _begin_of(core) -> tuple:
    """What comes first after any passing (``_BatchDeal._begin``) of the core's deal, its
    dealer and hands read from the book (a memo's miss, or a first lead it does not key)."""
    return _BatchDeal._begin(core.ctx.synced(), core)


def _finish_of(core) -> list:
    """The core's deal's scores with seat scoring added (``_Deal._finish``), as ``_begin_of``."""
    return stepper._Deal._finish(core.ctx.synced(), core)


def contract_of(rs: Ruleset, deal: int):
    """The trick contract of deal ``deal`` (1-based) of ``rs``, or ``NotBatched`` saying why
    the batch does not step it."""
    if not stepper.available():
        raise NotBatched("the batched environment needs the compiled step core (built at install; KIERKI_NO_C unset)")
    deal = whole(deal, "deal")
    if not 1 <= deal <= max(1, rs.max_deals):
        raise NotBatched(f"deal must be 1..{max(1, rs.max_deals)} for this ruleset, got {deal}")
    contract = rs.contract_at(deal - 1)
    if not hasattr(contract, "play_rules"):
        raise NotBatched(f"deal {deal} is not a trick contract ({type(contract).__name__}): not batched")
    why = stepper.why_not_carried(contract)
    if why is not None:
        raise NotBatched(f"deal {deal} ({contract.name}) is not carried by the step core: {why}")
    if rs.first_dealer_expr is not None:
        raise NotBatched("the first dealer is named by the cards dealt: not batched")
    tricks = bin(rs.deck).count("1") // rs.players
    if not stepper.carried(contract, rs.players, tricks, rs.deck):
        raise NotBatched(f"deal {deal} ({contract.name}): the step core does not hold its tables")
    return contract, tricks


def _parts(spec: GameSpec) -> dict:
    """Where each part of the observation tensor lies (``knowledge.pieces``): name -> slice."""
    at, out = 0, {}
    for name, shape in knowledge.pieces(spec, False):
        size = int(np.prod(shape))
        out[name] = slice(at, at + size)
        at += size
    return out


def _memo(compiled, tricks: int, fallback):
    """The C memo of a trick's programs: keyed on what the legality kernel's ``key`` reads."""
    k = compiled.kernel
    classes = [k.key(n, False, 0)[0] for n in range(tricks + 2)]
    broken_read = bool(k.key(1, True, 0)[1])
    seen = k.key(1, False, FULL_DECK)[2]
    return _cstep.TrickMemo(fallback, classes, broken_read, seen)


class VecDeals:
    """``num_envs`` deals of one trick contract of a ruleset, stepped at once (see the module)."""

    def __init__(self, ruleset, num_envs: int, deal: int = 1) -> None:
        rs = ruleset if isinstance(ruleset, Ruleset) else Ruleset.load(str(ruleset))
        num_envs, deal = whole(num_envs, "num_envs"), whole(deal, "deal")  # (deal=1.0 is deal 1 everywhere below)
        if not 1 <= num_envs <= 1 << 20:
            raise ValueError(f"num_envs must be 1..{1 << 20}, got {num_envs}")
        contract, tricks = contract_of(rs, deal)
        self.ruleset, self.contract, self.num_envs = rs, contract, num_envs
        self.spec = spec = GameSpec.make(rs, "deal", deal)
        self.players, self.num_actions = rs.players, spec.num_actions
        self.obs_size = knowledge.tensor_size(spec, False)
        self._parts = _parts(spec)
        n, p = num_envs, rs.players
        self._obs = np.zeros((n, self.obs_size), np.float32)
        self._mask = np.zeros((n, self.num_actions), np.int8)
        self._player = np.zeros(n, np.int64)
        self._rewards = np.zeros((n, p), np.float32)
        self._done = np.zeros(n, np.bool_)
        self._actions = np.zeros(n, np.int64)
        self._out = Step(*(_read_only(a) for a in (self._obs, self._mask, self._player, self._rewards, self._done)))
        #: why the deals are not flat C structs (None: they are; ``flatdeals.why_not_flat``)
        self.flat_reason = flatdeals.why_not_flat(contract, p, tricks, rs.deck)
        self._flat: Any = None
        self.python_paths: list = []  # what each deal still asks Python, and why (a warm flat batch: nothing)
        if self.flat_reason is None:
            outs = (self._obs, self._mask, self._player, self._rewards, self._done.view(np.uint8))
            self._flat = flatdeals.FlatDeals(rs, contract, deal, n, tricks, outs, self._layout(contract))
        else:
            self._batch = self._build(rs, contract, tricks, deal)

    def _layout(self, contract) -> tuple:
        """What the C batches write where: the parts' offsets (``PARTS``), the tensor's size, the
        action count, the phases' indices and the contract's."""
        return (
            [self._parts[name].start for name in PARTS],
            self.obs_size,
            self.num_actions,
            tuple(knowledge.PHASES.index(phase) for phase in ("pass", "play", "call")),
            self.spec.contracts.index(contract.name),
        )

    def _build(self, rs: Ruleset, contract, tricks: int, deal: int):
        """The C batch: one core and one context per deal, sharing the plan and the memo."""
        p, deck, direction = rs.players, rs.deck, rs.direction
        call = contract.call
        trump = call.choices[0] if call is not None else contract.trump  # a call replaces its plan
        compiled = stepper._compiled(contract, p, tricks, trump, deck)
        lead = seat_function(contract.first_lead, p, deck)
        passing = contract.passing
        offset = passing.offset(deal, p) if passing else 0
        pass_count, pass_step = (passing.count if offset else 0), direction * offset
        # the first leader by dealer, when the first lead reads nothing of the cards
        constant = call is None and not contract.first_lead.free - DEAL_CONSTANT
        lead_of = [lead(d, -1, [0] * p) for d in range(p)] if constant else None
        lead_memo, seat_memo = self._memos(contract, compiled, p, deck)
        hands = [0] * p  # a first deal to build the cores with (reset deals them all again)
        for i, c in enumerate(c for c in range(52) if deck >> c & 1):
            hands[i % p] |= 1 << c
        first = rs.first_dealer if rs.first_dealer is not None else 0
        offsets, size, actions, phases, index = self._layout(contract)
        ctxs, cores, memos = [], [], _Memos(tricks)
        for i in range(self.num_envs):
            ctx = _KeyedDeal(compiled, contract, p, deck, 0, hands, direction, deal, trump, -1, lead, tricks)
            if call is not None:
                ctx.called = False  # the trump is called in each deal
            ctx._begin = lead_memo or _begin_of  # type: ignore[method-assign]  # slot over method
            ctx._finish = seat_memo or _finish_of  # type: ignore[method-assign]
            ctx.joined(self._book, i, memos)
            ctxs.append(ctx)
            cores.append(stepper.Stepper(compiled.plan, ctx, hands, first, direction, pass_count, pass_step))
        return _cstep.Batch(
            compiled.plan,
            cores,
            ctxs,
            deck,
            direction,
            -1 if rs.first_dealer is None else rs.first_dealer,
            [rs.dealer_of(f, deal - 1) % p for f in range(p)],
            -1 if call is not None else trump,
            offsets,
            size,
            actions,
            phases,
            index,
            lead_of,
            bool(compiled.dynamic),  # dynamic points read the dealer: the contexts learn each deal
            self._book,
            call.after if call is not None else -1,
            [called_suit(a) if is_call(a) else -2 for a in range(64)],
        )

    def _memos(self, contract, compiled, players: int, deck: int) -> tuple:
        """The batch's ``DealMemo`` of the first lead and of seat scoring, each None where the
        plan does not key it (then the deal asks Python: ``python_paths`` says why)."""
        plan = plan_of(contract)
        self._book = np.zeros((self.num_envs, players + 1), np.int64)
        lead_memo = seat_memo = None
        begun = plan.begun_in_python() if plan is not None else None
        lead = plan.lead_key() if plan is not None and begun is None else None
        if isinstance(lead, Keyed):
            lead_memo = _cstep.DealMemo(_begin_of, False, players, self._book, lead.dealer, lead.holders, (), False)
        elif begun is not None:
            self.python_paths.append(begun)
        elif lead is not None:
            self.python_paths.append(f"the first lead: {lead.reason}")
        if compiled.seat_scorers:
            keyed = plan.seat_key(deck) if plan is not None else None
            if isinstance(keyed, Keyed):
                seat_memo = _cstep.DealMemo(
                    _finish_of, True, players, self._book, keyed.dealer, 0, keyed.atoms, keyed.won, keyed.symmetric
                )
            elif keyed is not None:
                self.python_paths.append(f"seat scoring: {keyed.reason}")
        if compiled.dynamic:
            self.python_paths.append("dynamic points (each trick)")
        if contract.early_stop or contract.end_when is not None:
            self.python_paths.append("the early end (each trick)")
        return lead_memo, seat_memo

    def reset(self, seed: int = 0) -> Step:
        """Deal every deal again, deal ``i`` from ``seed + i`` (0 <= seed + i < 2**64)."""
        seed = operator.index(seed)
        if not (0 <= seed and seed + self.num_envs <= 1 << 64):
            raise ValueError(f"seed must be 0 .. 2**64 - num_envs, got {seed}")
        if self._flat is not None:
            self._flat.flat.reset(seed)
            return self._out
        self._batch.reset(range(seed, seed + self.num_envs))
        self._rewards[:] = 0
        self._done[:] = False
        return self._observed()

    def step(self, actions, tensors: bool = True) -> Step:
        """Apply one action per deal (the seat on turn's); ``ValueError`` naming the deal if
        one is not legal (then nothing is applied). ``tensors=False`` leaves ``obs`` as it
        was (masks, seats, rewards and ends only: for a policy that reads no tensor)."""
        if self._flat is not None:
            try:
                try:  # the C side takes a contiguous int64 array of one action per deal as it is
                    self._flat.flat.step(actions, tensors)
                except TypeError:  # anything else: converted (or refused), then stepped
                    self._flat.flat.step(self._int64(actions), tensors)
            except flatdeals.Unworded as e:
                self._word(e)
            return self._out
        acts = self._int64(actions)
        out = self._obs if tensors else None
        self._batch.step(acts, self._rewards, self._done.view(np.uint8), out, self._mask, self._player)
        return self._out

    def _int64(self, actions) -> np.ndarray:
        """``actions`` as a contiguous int64 array, or ``ValueError`` saying why not: the wrong
        shape, no numbers, a fraction, NaN or an unsigned number past int64 (never cast to
        another action)."""
        if (
            type(actions) is np.ndarray
            and actions.dtype is _INT64
            and actions.strides == _INT64_STRIDES
            and actions.shape == (self.num_envs,)
        ):  # (the common case, as the checks below would take it: no call of numpy's per step)
            return actions
        given = np.asarray(actions)
        if given.shape != (self.num_envs,):
            raise ValueError(f"one action per deal expected: shape ({self.num_envs},), got {given.shape}")
        kind = given.dtype.kind
        if kind == "f":
            wrong = np.flatnonzero(~np.isfinite(given) | (given != np.trunc(given)))
            if wrong.size:
                i = int(wrong[0])
                raise ValueError(f"deal {i}: action {given[i]} is not a whole number")
            wrong = np.flatnonzero(np.abs(given) >= 2.0**63)
            if wrong.size:
                i = int(wrong[0])
                raise ValueError(f"deal {i}: action {given[i]:.0f} is not legal")
        elif kind == "u":
            wrong = np.flatnonzero(given > np.iinfo(np.int64).max)
            if wrong.size:
                i = int(wrong[0])
                raise ValueError(f"deal {i}: action {given[i]} is not legal")
        elif kind != "i":
            raise ValueError(f"actions must be integers (one action number per deal), got {given.dtype}")
        return np.ascontiguousarray(given, dtype=np.int64)

    def _word(self, error: Exception) -> None:
        """The interpreter's located error of the deal a flat step stopped on (its rules left
        no card, or a score passed the limit): the deal replayed on the interpreter raises it."""
        i = int(error.args[0])
        self._flat.replayed(i, lambda c, *args: c.new_deal(*args)).legal_actions()
        raise RuntimeError(f"deal {i}: the flat batch stopped on an error the interpreter does not find") from error

    def autoplay(self, seat: int) -> Step:
        """Play every deal on at random (each legal action alike, from the deal's own
        generator) until ``seat`` is on turn; the points of deals that ended on the way are
        added to this step's ``rewards`` (and ``done`` set): opponents of one learning seat."""
        seat = whole(seat, "seat")
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, got {seat}")
        if self._flat is not None:
            try:
                self._flat.flat.autoplay(seat)
            except flatdeals.Unworded as e:
                self._word(e)
            return self._out
        self._batch.autoplay(seat, self._rewards, self._done.view(np.uint8))
        return self._observed()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action of each deal (int64), drawn in C: a random policy."""
        (self._flat.flat if self._flat is not None else self._batch).random_actions(self._actions)
        return self._actions

    def part(self, name: str) -> slice:
        """Where the named part of the observation tensor lies (``knowledge.pieces``' names:
        ``hand``, ``trick``, ``scores``, ``hand_sizes``, ...): ``obs[:, deals.part("scores")]``;
        ``KeyError`` naming the parts there are for another name."""
        try:
            return self._parts[name]
        except (KeyError, TypeError):
            raise KeyError(
                f"no part {name!r} in the observation tensor (its parts: {', '.join(self._parts)})"
            ) from None

    def core(self, i: int):
        """Deal ``i`` in its position as the step core has it (``hands``, ``trick``,
        ``actions``, ...; a flat deal's replayed: a copy); ``IndexError`` for no such deal."""
        if type(i) is not int and not isinstance(i, np.integer):
            raise IndexError(f"a deal is an int 0..{self.num_envs - 1}, got {i!r}")
        i = int(i)
        if not 0 <= i < self.num_envs:
            raise IndexError(f"no deal {i}: the deals are 0..{self.num_envs - 1}")
        if self._flat is not None:
            return self._flat.replayed(i, stepper.new_deal)
        return self._batch.core(i)

    def _observed(self, tensors: bool = True) -> Step:
        if self._flat is not None:
            self._flat.flat.observe(tensors)
        else:
            self._batch.observe(self._obs if tensors else None, self._mask, self._player)
        return self._out


def _read_only(a: np.ndarray) -> np.ndarray:
    """A view of ``a`` that cannot be written (the batch updates its rows in place)."""
    view = a.view()
    view.flags.writeable = False
    return view


__all__ = ["VecDeals", "Step", "NotBatched", "contract_of", "PARTS"]
