"""What one seat may see of a deal: the observation handed to players, clients and browsers.

Modelled on OpenSpiel's observer, which builds its tensor from named pieces: a ``SeatView`` is
a common core (who, which contract and phase, the hand, the legal actions, the table and the
scores) plus one named *part* per phase of the deal that shows the seat something — the
auction's bids, the widow, the cards passed and received, the layout's rows, an added phase's
own part. Each part is built by its phase from the deal state (a shipped phase's part is a small
frozen class declared in the phase's module: ``bidding.AuctionPart``, ``widow.WidowPart``, ...;
an added phase's is what its unit's ``engine_view`` returns); a deal without the phase has no
such part. ``view.part(name)`` gives a phase's part (None when the deal has none).

A view is *copied out* of the deal state and never points back into it. It holds only ints,
strings, ``None``, tuples and frozen parts of them — no state, no compiled rule, no callable
and no card of another seat's hand — so it can be handed to a bot, written to a socket or sent
to a browser as it is. ``to_json`` gives the plain document a network client receives;
``SeatView.from_json`` reads it back to an equal value.

The compatibility face: the names the view had when it was one flat record (``view.bid``,
``view.widow``, ``view.layout``, ...) are still read, as read-only properties that take the
value from the phase's part, or give the old default when the deal has no such phase
(``COMPAT``). The document ``to_json`` writes keeps them too, so a page or a bot written
against the flat view reads what it read before. The face is for users outside the package:
no module of ``kierki_dsl`` but this one reads it (``tests/test_view_parts_read.py``); they read
a phase's part (``view.part(name)``, a unit's ``part(view)``, the engine's ``part_of`` and
``shown_part`` below) or ask the phase's hooks.

Players that need the rules look the contract up by name in the ruleset they were given
(``Player.contract_of``); the reason an action is illegal comes from ``reasons.illegal_reason``,
a function of the view and the rules.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Optional, TypeVar, overload

import attrs

from ..cards import CardSet
from ..values import frozen

VIEW_FORMAT = "kierki-view/1"

#: The shipped phases' part classes by phase name, each registered by the module declaring it
#: (``view_part``); ``from_json`` reads a part back through its class.
PART_TYPES: dict[str, type] = {}
#: The phase of each shipped part class (``part_of``).
_PHASE_OF: dict[type, str] = {}

_P = TypeVar("_P", bound=type)
_K = TypeVar("_K")


def view_part(phase: str):
    """Class decorator: ``cls`` (a ``@frozen`` class of plain fields) is phase ``phase``'s part of
    the seat view."""

    def register(cls: _P) -> _P:
        PART_TYPES[phase] = cls
        _PHASE_OF[cls] = phase
        return cls

    return register


def part_of(view: "SeatView", kind: type[_K]) -> Optional[_K]:
    """``view``'s part of the shipped part class ``kind`` (``AuctionPart``, ``WidowPart``, ...), or
    None: the deal has no such phase. How the engine's modules read a phase's fields from a view."""
    return view.part(_PHASE_OF[kind])


def shown_part(view: "SeatView", kind: type[_K]) -> _K:
    """``view``'s part of the shipped part class ``kind``, or, when the deal has no such phase, the
    part of one that has shown nothing yet (its fields at the compatibility face's defaults: no
    bids, -1 for nobody, 0 cards, ...)."""
    phase = _PHASE_OF[kind]
    part = view.part(phase)
    return part if part is not None else kind(**_defaults(phase))


#: The compatibility face: each name of the flat view -> (the phase whose part holds it, the
#: value it reads when the deal has no such phase).
COMPAT: dict[str, tuple[str, Any]] = {
    "layout": ("layout", None),
    "opening_rank": ("layout", -1),
    "bets": ("double", ()),
    "pool": ("layout", 0),
    "free_passes_left": ("layout", ()),
    "options": ("choose", ()),
    "passed": ("pass", ()),
    "passed_to": ("pass", -1),
    "received": ("pass", ()),
    "auction": ("auction", ()),
    "bid": ("auction", 0),
    "bidder": ("auction", -1),
    "seller": ("auction", -1),
    "widow": ("exchange", ()),
    "taker": ("exchange", -1),
    "exchanged": ("exchange", ()),
    "aside": ("exchange", 0),
    "exposed": ("expose", ()),
    "stock": ("stock", 0),
    "drawn": ("stock", ()),
    "drew": ("stock", ()),
    "moves": ("layout", ()),
    "declarations": ("declarations", ()),
}

#: The phases whose parts the flat view shows by their fields' names.
_FLATTENED = frozenset(phase for phase, _ in COMPAT.values())

#: The names of the flat view in the order its document and the information state list them
#: (the core's fields and the compatibility face's names, as the flat record had them).
FLAT = (
    "seat contract phase hand legal trick led_suit trump caller dealer trick_number tricks_total played scores "
    "completed players layout hand_sizes finished deck direction deal_number opening_rank bets pool free_passes_left "
    "ply options passed passed_to received auction bid bidder seller widow taker exchanged aside exposed stock drawn "
    "drew moves declarations"
).split()

_T = TypeVar("_T")


class _Compat(Generic[_T]):
    """A name of the compatibility face: the value of the phase's part, or the old default."""

    __slots__ = ("name", "phase", "default")

    def __init__(self, name: str) -> None:
        self.name = name
        self.phase, self.default = COMPAT[name]

    @overload
    def __get__(self, view: None, owner: Any) -> "_Compat[_T]": ...
    @overload
    def __get__(self, view: "SeatView", owner: Any) -> _T: ...
    def __get__(self, view, owner):
        if view is None:
            return self
        for name, part in view.parts:
            if name == self.phase:
                return getattr(part, self.name)
        return self.default


@frozen
class SeatView:
    """A seat's view of the deal: its own hand, public plays and scores; never other hands.

    ``contract`` is the name of the contract being played (in a declarer's-choice phase, the
    name of the schedule slot). ``hand`` is a 52-bit mask (during a trump call, only the cards
    the caller has seen); ``legal`` the legal actions when it is this seat's turn. ``trick``
    holds ``(seat, card)`` of the trick in progress, ``completed`` every finished trick as
    ``(leader, plays, winner)``. ``parts`` holds ``(phase name, part)`` of every phase of the
    deal that shows this seat something (``part``).
    """

    seat: int
    contract: str
    phase: str
    hand: int
    legal: tuple
    trick: tuple
    led_suit: int
    trump: int
    caller: int
    dealer: int
    trick_number: int
    tricks_total: int
    played: int
    scores: tuple
    completed: tuple
    players: int
    hand_sizes: tuple = ()
    finished: tuple = ()
    deck: int = 0
    direction: int = 1
    deal_number: int = 0
    ply: int = 0  # actions taken in this deal so far (with deal_number, names the decision)
    parts: tuple = ()  # (phase name, part) of each phase of the deal: what it shows this seat

    # -- the compatibility face (the flat view's names, read-only; see the module's docstring) --
    layout: ClassVar[_Compat[Optional[tuple]]] = _Compat("layout")
    opening_rank: ClassVar[_Compat[int]] = _Compat("opening_rank")
    bets: ClassVar[_Compat[tuple]] = _Compat("bets")
    pool: ClassVar[_Compat[int]] = _Compat("pool")
    free_passes_left: ClassVar[_Compat[tuple]] = _Compat("free_passes_left")
    options: ClassVar[_Compat[tuple]] = _Compat("options")
    passed: ClassVar[_Compat[tuple]] = _Compat("passed")
    passed_to: ClassVar[_Compat[int]] = _Compat("passed_to")
    received: ClassVar[_Compat[tuple]] = _Compat("received")
    auction: ClassVar[_Compat[tuple]] = _Compat("auction")
    bid: ClassVar[_Compat[int]] = _Compat("bid")
    bidder: ClassVar[_Compat[int]] = _Compat("bidder")
    seller: ClassVar[_Compat[int]] = _Compat("seller")
    widow: ClassVar[_Compat[tuple]] = _Compat("widow")
    taker: ClassVar[_Compat[int]] = _Compat("taker")
    exchanged: ClassVar[_Compat[tuple]] = _Compat("exchanged")
    aside: ClassVar[_Compat[int]] = _Compat("aside")
    exposed: ClassVar[_Compat[tuple]] = _Compat("exposed")
    stock: ClassVar[_Compat[int]] = _Compat("stock")
    drawn: ClassVar[_Compat[tuple]] = _Compat("drawn")
    drew: ClassVar[_Compat[tuple]] = _Compat("drew")
    moves: ClassVar[_Compat[tuple]] = _Compat("moves")
    declarations: ClassVar[_Compat[tuple]] = _Compat("declarations")

    @classmethod
    def of(cls, **flat) -> "SeatView":
        """A view from the flat view's names (the core's fields and the compatibility face's): the
        deciding phase and each phase given a value other than its default get their parts (their
        other fields at the defaults)."""
        fields = {k: v for k, v in flat.items() if k not in COMPAT}
        added = tuple(fields.pop("parts", ()))
        kinds = _part_types()
        given: dict[str, dict] = {fields["phase"]: {}} if fields.get("phase") in kinds else {}
        for name, value in flat.items():
            if name in COMPAT and value != COMPAT[name][1]:
                given.setdefault(COMPAT[name][0], {})[name] = value
        parts = [(phase, kinds[phase](**{**_defaults(phase), **values})) for phase, values in given.items()]
        return cls(**fields, parts=added + tuple(parts))

    def part(self, phase: str) -> Any:
        """Phase ``phase``'s part of the view (None: the deal has no such phase)."""
        for name, part in self.parts:
            if name == phase:
                return part
        return None

    def with_part(self, phase: str, part: Any) -> "SeatView":
        """The view with ``part`` as phase ``phase``'s part (replacing one it had, else added last)."""
        parts = [(n, p) for n, p in self.parts if n != phase]
        at = next((i for i, (n, _) in enumerate(self.parts) if n == phase), len(parts))
        parts.insert(at, (phase, part))
        return attrs.evolve(self, parts=tuple(parts))

    @property
    def hand_cards(self) -> CardSet:
        """The seat's own cards as a set (``for c in view.hand_cards``, ``"QS" in ...`` via ids)."""
        return CardSet(self.hand)

    @property
    def played_cards(self) -> CardSet:
        """The cards of the finished tricks (or laid out, in a layout deal)."""
        return CardSet(self.played)

    def flat(self) -> list:
        """``(name, value)`` of the flat view (``FLAT``), then ``("parts", ...)`` of the parts no
        flat name shows (an added phase's): the information state lists them in this order, as
        it listed the flat record's fields."""
        out = [(name, getattr(self, name)) for name in FLAT]
        out.append(("parts", tuple((n, p) for n, p in self.parts if n not in _FLATTENED)))
        return out

    def to_json(self) -> dict:
        """The view as a JSON-ready document (tuples become lists): the flat view's names, then
        ``parts`` (when the deal has any), each ``[phase, part]`` (a shipped part as its fields)."""
        doc: dict[str, Any] = {"format": VIEW_FORMAT}
        for name in FLAT:
            doc[name] = _plain(getattr(self, name))
        if self.parts:
            doc["parts"] = [[n, _plain(p)] for n, p in self.parts]
        return doc

    @classmethod
    def from_json(cls, doc: dict) -> "SeatView":
        """Read back what ``to_json`` wrote (lists become tuples again; ValueError for anything else)."""
        if not isinstance(doc, dict) or doc.get("format") != VIEW_FORMAT:
            raise ValueError(f"not a {VIEW_FORMAT} document")
        fields = {f.name for f in attrs.fields(SeatView)}
        unknown = set(doc) - fields - set(COMPAT) - {"format"}
        if unknown:
            raise ValueError(f"unknown view fields: {', '.join(sorted(unknown))}")
        if "parts" not in doc:  # a flat document (written before the parts, or with none): its names name the parts
            try:
                return cls.of(**{k: _frozen(v) for k, v in doc.items() if k != "format"})
            except TypeError as e:
                raise ValueError(f"not a seat view: {e}") from None
        try:
            view = cls(**{k: _frozen(v) for k, v in doc.items() if k in fields and k != "parts"})
            view = attrs.evolve(view, parts=tuple(_read_part(entry) for entry in doc.get("parts", ())))
        except TypeError as e:
            raise ValueError(f"not a seat view: {e}") from None
        wrong = [name for name in COMPAT if name in doc and _frozen(doc[name]) != getattr(view, name)]
        if wrong:
            raise ValueError(f"view fields that disagree with the phases' parts: {', '.join(wrong)}")
        return view


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if type(value) in PART_TYPES.values():
        return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value))}
    return value


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _read_part(entry) -> tuple:
    """``(phase, part)`` from a document's ``[phase, part]`` (a shipped part read through its class)."""
    if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
        raise ValueError("a view part is [phase, part]")
    name, value = entry
    kind = _part_types().get(name)
    if kind is None:
        return name, _frozen(value)
    if not isinstance(value, dict) or set(value) != {f.name for f in attrs.fields(kind)}:
        raise ValueError(f"view part {name!r}: not its fields")
    return name, kind(**{k: _frozen(v) for k, v in value.items()})


def _defaults(phase: str) -> dict:
    """The compatibility face's defaults of phase ``phase``'s part."""
    return {name: default for name, (owner, default) in COMPAT.items() if owner == phase}


def _part_types() -> dict:
    """``PART_TYPES``, every shipped deal type's module loaded (each registers its phases' parts)."""
    from . import choice, declaring, layout  # noqa: F401  # they declare the parts (and import this module)

    return PART_TYPES
