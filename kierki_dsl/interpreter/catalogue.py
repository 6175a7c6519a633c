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

from typing import TYPE_CHECKING, Any

from ..ruleset.schema import Field

if TYPE_CHECKING:  # pragma: no cover
    from ..ruleset.build import BuildContext

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
    (a declarer's choice, ``choice.Choice``, is the other kind of slot)."""

    __slots__ = ()

    def resolve(self, dealer: int, players: int, hands, deck: int, chosen: dict, pick):
        """A slot holding this contract plays it (see ``Choice.resolve``)."""
        return self

    def block_total(self, count: int, cut: bool, computed: dict, players: int):
        """The fixed sum of ``count`` deals of this contract in a row (None if not fixed)."""
        total = computed.get(self.name)
        return None if total is None else count * total

    def check_count(self, count: int, players: int, bctx) -> None:
        """Findings about how often the schedule plays this slot: none for a contract."""

    offered: tuple = ()  # the contracts a slot offers to choose from: none for a contract

    def title(self) -> str:
        """'Polish name — English name' (the English one alone for a game without Polish names)."""
        from ..report import contract_title

        return contract_title(self)

    def words(self, rs) -> dict:
        """The rules of this slot in words, aspect by aspect (``kierki explain``, ``kierki diff``)."""
        from ..explain import aspects

        return aspects(rs, self.name)


def register(cls: type) -> type:
    """Class decorator: add a deal type to the catalogue under ``cls.name``."""
    DEAL_TYPES[cls.name] = cls()
    return cls


def load_builtin_types() -> dict[str, DealType]:
    """Import the deal types shipped with kierki-dsl (they register themselves)."""
    from . import layout, tricks  # noqa: F401

    return DEAL_TYPES
