"""What one seat knows of a game, as strings and flat tensors (OpenSpiel / PettingZoo form).

Everything here is built from three sources only: the seat's ``SeatView`` (its own hand,
public plays, trump, scores), the events the game logged as visible to that seat or to
everyone (``GameState.events``), and the cards dealt to the seat itself. Another seat's hand
is never read.

* the **information state** (perfect recall) string names the deals before this one by a
  digest of every event the seat saw in them (and the totals), lists every event it saw in
  this deal, then its hand and every field of its view of the deal in play; its tensor is the observation tensor plus the seat's
  dealt, passed and received cards and the current deal's card plays in order;
* the **observation** string and tensor are the position now: hand, trick, cards played,
  trump, scores, totals, hand sizes, bets.
"""

from __future__ import annotations

import functools
import hashlib

from ..cards import bits, card_str
from ..interpreter.actions import PASS
from ..interpreter.stepper import PHASES as stepper_phases
from ..phases import UNITS

try:  # the compiled step core's observation (a deal is stepped on the core only where it is built)
    from ..interpreter._cstep import observe  # type: ignore[import-not-found,import-untyped,unused-ignore]  # a C extension
except ImportError:  # pragma: no cover - without a C compiler
    observe = None
from .game import GameSpec, GameState, unit_of

PHASES = ("dealing", "choose", "pass", "call", "double", "play", "over")
CARDS = 52


def pieces(spec: GameSpec, perfect_recall: bool) -> list:
    """(name, shape) of every part of the tensor, in order."""
    return _pieces(spec.ruleset.players, len(spec.contracts), perfect_recall)


def _pieces(n: int, contracts: int, perfect_recall: bool) -> list:
    """``pieces`` of a game of ``n`` seats and ``contracts`` contracts: the tensor's shape depends on nothing else."""
    out = [
        ("seat", (n,)),
        ("phase", (len(PHASES),)),
        ("contract", (max(1, contracts),)),
        ("dealer", (n,)),
        ("hand", (CARDS,)),
        ("played", (CARDS,)),
        ("trick", (n, CARDS)),
        ("led", (5,)),
        ("trump", (5,)),
        ("caller", (n,)),
        ("scores", (n,)),
        ("totals", (n,)),
        ("hand_sizes", (n,)),
        ("bets", (n, n)),
    ]
    if perfect_recall:
        out += [
            ("dealt", (CARDS,)),
            ("passed", (CARDS,)),
            ("received", (CARDS,)),
            ("plays", (CARDS, CARDS + n)),
            ("layout_passes", (n,)),
        ]
    return out


def _offsets(spec: GameSpec, perfect_recall: bool) -> dict:
    """Where each part of the tensor starts (read only: shared by every game of the same shape)."""
    return _offsets_of(spec.ruleset.players, len(spec.contracts), perfect_recall)


@functools.lru_cache(maxsize=64)
def _offsets_of(n: int, contracts: int, perfect_recall: bool) -> dict:
    out = {}
    at = 0
    for name, shape in _pieces(n, contracts, perfect_recall):
        out[name] = at
        size = 1
        for d in shape:
            size *= d
        at += size
    return out


def part(spec: GameSpec, perfect_recall: bool, tensor, name: str):
    """The named part of a flat tensor (a numpy array), in its shape."""
    shape = dict(pieces(spec, perfect_recall))[name]
    at = _offsets(spec, perfect_recall)[name]
    size = 1
    for d in shape:
        size *= d
    return tensor[at : at + size].reshape(shape)


def tensor_size(spec: GameSpec, perfect_recall: bool) -> int:
    size = 0
    for _, shape in pieces(spec, perfect_recall):
        k = 1
        for d in shape:
            k *= d
        size += k
    return size


def seat_view(state: GameState, seat: int):
    """The seat's ``SeatView`` of the deal in play, or None before the deal starts."""
    return state.deal.view(seat) if state.deal is not None else None


def hand_of(state: GameState, seat: int) -> int:
    """The cards the seat holds as it sees them (none while the cards are still being dealt)."""
    if state.stage.chance:
        return 0
    hand = state.seat_hand(seat)
    if hand is None:  # dealt, a declarer's choice pending: the seat has picked up its cards
        return sum(1 << c for c in state.dealt[seat])
    return hand


def phase_of(state: GameState) -> str:
    phase = state.stage.seen_as or str(state.deal.phase)  # a Phase (a str enum) says its plain name
    return phase if phase in PHASES else "play"


def _cards(mask: int) -> str:
    return " ".join(card_str(c) for c in bits(mask)) or "-"


def information_state_string(state: GameState, seat: int) -> str:
    """Every event the seat saw, in order, then its hand (perfect recall)."""
    lines = [f"p{seat} of {state.spec.ruleset.players}"]
    if state.first_dealer is not None and state.spec.ruleset.first_dealer is None:
        lines.append(f"first dealer p{state.first_dealer}")
    past = state.past_events
    if past:
        lines.append(f"deals before: seen {_recalled(state, seat)}, totals {list(state.totals)}")
    lines += [text for who, text in state.events[past:] if who is None or who == seat]
    lines += state.stage.lines(state)
    lines.append(f"hand {_cards(hand_of(state, seat))}")
    view = seat_view(state, seat)
    if view is not None:
        lines += view_lines(view)
    return "\n".join(lines)


def _recalled(state: GameState, seat: int) -> str:
    """A digest of every event the seat saw in the deals before this one: the information
    state names that history (perfect recall) without spelling it out, so its string does not
    grow with the match. Computed once per seat and deal (``GameState.recalled``)."""
    digest = state.recalled.get(seat)
    if digest is None:
        seen = "\n".join(text for who, text in state.events[: state.past_events] if who is None or who == seat)
        digest = state.recalled[seat] = hashlib.blake2b(seen.encode(), digest_size=16).hexdigest()
    return digest


def view_lines(view) -> list:
    """Every name of the seat's flat view, ``view <name> <value>`` a line (``SeatView.flat``: the
    core's fields, every phase's part by its fields' names, the added phases' parts): the
    information state carries all that the view holds (a part added is carried with it)."""
    return [f"view {name} {value!r}" for name, value in view.flat()]


def observation_string(state: GameState, seat: int) -> str:
    """The position as the seat sees it now."""
    view = seat_view(state, seat)
    name = state.contract.name if state.contract is not None else "-"
    lines = [
        f"p{seat} deal {state.k + 1} {name} dealer p{state.dealer} {phase_of(state)}",
        f"hand {_cards(hand_of(state, seat))}",
    ]
    if view is not None:
        if view.trick:
            lines.append("trick " + " ".join(f"p{s}:{card_str(c)}" for s, c in view.trick))
        lines.append(f"played {_cards(view.played)}")
        if view.trump >= 0 or view.caller >= 0:
            lines.append(f"trump {'-' if view.trump < 0 else 'SHDC'[view.trump]} caller p{view.caller}")
        lines.append(f"scores {list(view.scores)} sizes {list(view.hand_sizes)}")
        for unit in UNITS.values():
            lines += unit.observation_lines(view)
    lines.append(f"totals {state.totals}")
    return "\n".join(lines)


def own_passes(state: GameState, seat: int) -> tuple:
    """(cards the seat passed in this deal, cards it received) — its own knowledge, as the
    phases tell it (``own_cards``)."""
    deal = state.deal
    if deal is None:
        return 0, 0
    log = state.deal_log()
    passed, received = 0, 0
    for unit in UNITS.values():
        p, r = unit.own_cards(deal, log, seat)
        passed, received = passed | p, received | r
    return passed, received


def fill_tensor(state: GameState, seat: int, perfect_recall: bool, out) -> None:
    """Write the seat's tensor into ``out`` (a flat, zeroed, writable float sequence)."""
    if perfect_recall or not _observed(state, seat, out):
        _fill_from_view(state, seat, perfect_recall, out)


def _observed(state: GameState, seat: int, out) -> bool:
    """Write the seat's observation tensor read from the compiled core stepping the deal
    (``_cstep.observe``: every part, as ``_fill_from_view`` writes them) in one call, without
    building the view; False, nothing written, where the core does not say it all (no core,
    a trump call, ``out`` not a float32 buffer)."""
    step = state.stepping_core()
    if step is None or observe is None:
        return False
    try:
        return observe(step, seat, out, *core_observed(state, step), state.totals)
    except TypeError:  # not a float32 buffer: the general path fills it
        return False


def core_observed(state: GameState, step) -> tuple:
    """``_cstep.observe``'s arguments after the tensor, but the match totals, for ``state``
    stepped on the core ``step``: (offsets, phase, contract, dealer, trump, caller). They change
    only with the deal's core or its context (a trump called): the PettingZoo environment's C
    ``last`` asks them once per core and context (``kierki_dsl.pettingzoo``)."""
    spec, seen = state.spec, state.stage.seen_as
    return (
        _core_parts(spec),
        -1 if seen is None else PHASES.index(seen),
        _contract_index(spec, state.contract),
        state.dealer,
        step.trump,
        step.caller,
    )


#: The tensor's phase of each of the core's phase numbers (``stepper.PHASES``; "done" shows as "play").
_CORE_PHASES = tuple(PHASES.index(str(p)) if str(p) in PHASES else PHASES.index("play") for p in stepper_phases)

#: The parts ``_cstep.observe`` writes, in its order (after them, ``_CORE_PHASES``).
_CORE_WRITES = (
    "hand", "played", "trick", "scores", "hand_sizes", "seat", "phase", "led", "trump", "caller", "contract", "dealer",
    "totals",
)  # fmt: skip


def _core_parts(spec: GameSpec) -> tuple:
    """Where ``_cstep.observe`` writes in an observation tensor (``_CORE_WRITES``), then ``_CORE_PHASES``."""
    return _core_parts_of(spec.ruleset.players, len(spec.contracts))


@functools.lru_cache(maxsize=64)
def _core_parts_of(n: int, contracts: int) -> tuple:
    at = _offsets_of(n, contracts, False)
    return tuple(at[name] for name in _CORE_WRITES) + _CORE_PHASES


def _contract_index(spec: GameSpec, contract) -> int:
    """The contract's place in the tensor's contract part, -1 for none (or one the spec does not list)."""
    if contract is None or contract.name not in spec.contracts:
        return -1
    return spec.contracts.index(contract.name)


def _put_game(state: GameState, at: dict, out) -> None:
    """The parts of the game around the deal: its contract, dealer and the match totals."""
    spec = state.spec
    contract = _contract_index(spec, state.contract)
    if contract >= 0:
        out[at["contract"] + contract] = 1.0
    if state.dealer >= 0:
        out[at["dealer"] + state.dealer] = 1.0
    for s, t in enumerate(state.totals):
        out[at["totals"] + s] = float(t)


def _fill_from_view(state: GameState, seat: int, perfect_recall: bool, out) -> None:
    """Write the seat's tensor from its ``SeatView``, the game's events and its own cards."""
    spec = state.spec
    n = spec.ruleset.players
    offsets = _offsets(spec, perfect_recall)

    def put(name: str, i: int, value: float = 1.0) -> None:
        out[offsets[name] + i] = value

    put("seat", seat)
    put("phase", PHASES.index(phase_of(state)))
    _put_game(state, offsets, out)
    hand = hand_of(state, seat)
    for c in bits(hand):
        put("hand", c)
    view = seat_view(state, seat)
    if view is not None:
        for c in bits(view.played):
            put("played", c)
        for s, c in view.trick:
            put("trick", s * CARDS + c)
        put("led", view.led_suit + 1)
        put("trump", view.trump + 1)
        if view.caller >= 0:
            put("caller", view.caller)
        for s in range(n):
            put("scores", s, float(view.scores[s]))
            if s < len(view.hand_sizes):
                put("hand_sizes", s, float(view.hand_sizes[s]))
        for unit in UNITS.values():  # each phase's part: the bets standing...
            for piece, i, value in unit.tensor_marks(view):
                put(piece, i, value)
    if not perfect_recall:
        return
    if not state.stage.chance:  # the deal's own hands: not the cards it set aside (widow, stock)
        dealt = (state.deal.dealt if state.deal is not None else state.dealt)[seat]
        for c in dealt if view is None else unit_of(view.phase).dealt_seen(hand, dealt):
            put("dealt", c)
    passed, received = own_passes(state, seat)
    for c in bits(passed):
        put("passed", c)
    for c in bits(received):
        put("received", c)
    if state.deal is None:
        return
    row = 0
    skip = state.deal.contract.passing.count * n if state.deal.pass_offset else 0
    skip += state.put_out  # and the cards a widow's taker put out (his secret; their number is public)
    for s, a in state.deal_log():
        if s < 0 or (a >= CARDS and a != PASS):
            continue
        if a == PASS:
            put("layout_passes", s, out[offsets["layout_passes"] + s] + 1.0)
        elif skip:
            skip -= 1  # a card passed to another seat before play
        elif row < CARDS:
            put("plays", row * (CARDS + n) + a)
            put("plays", row * (CARDS + n) + CARDS + s)
            row += 1


__all__ = ["pieces", "part", "tensor_size", "information_state_string", "observation_string", "fill_tensor", "PHASES"]
