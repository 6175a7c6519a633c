"""Passing before play (Hearts, the compendium's passes): its part of the format, its rule and
its check, its words for ``kierki explain``."""

from __future__ import annotations

from typing import Optional

from ..codes import Code, example, table
from ..i18n import N_
from ..spec.schema import Enum, Field, Int, List, Obj
from ..values import frozen
from .view import view_part

#: The trick contract's key that brings the phase into a deal, and where its words stand.
KEY = "pass_cards"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("passing")
WORDS_AT = "setup"

PASS_CARDS = Obj(
    {
        "count": Field(Int(1, 13), "how many cards each player passes", required=True),
        "rotation": Field(
            List(Enum(("left", "right", "across", "none")), min_items=1, max_items=16),
            "where the cards go, by deal number in turn (left = the next player in playing order)",
            default=["left"],
        ),
    },
    title="pass cards",
    doc="Passing cards before play (Hearts): every player chooses cards, then all pass at once.",
)
#: Its part of a trick contract's format, under ``KEY``.
FIELD = Field(PASS_CARDS, "cards passed before play", default=None)


@frozen(eq=False)
class PassCards:
    """The compiled passing of a contract."""

    count: int
    rotation: tuple  # seat offsets in playing order: left 1, across 2, right -1, none 0

    def offset(self, deal_number: int, players: int) -> int:
        """Where the cards go in deal ``deal_number``: a seat offset in playing order (0: not passed)."""
        return self.rotation[(deal_number - 1) % len(self.rotation)] % players


_ROTATION = {"left": 1, "right": -1, "across": 2, "none": 0}


@view_part("pass")
@frozen
class PassingPart:
    """Passing's part of a seat view: what the seat knows of the exchange once every seat has
    passed (while cards are still being passed: nothing yet). The trick deal builds it
    (``trickstate``)."""

    passed: tuple  # the cards this seat passed
    passed_to: int  # the seat that got them (-1: not yet)
    received: tuple  # the cards this seat got


def build_passing(spec, ctx, w) -> Optional[PassCards]:
    """The compiled passing of a contract's ``pass_cards`` (None: none), with lint's M612."""
    if spec is None:
        return None
    if spec.count * 2 > ctx.deck.bit_count() // max(1, ctx.players):
        ctx.warning(w + ("pass_cards", "count"), "M612", f"passing {spec.count} cards is more than half a hand")
    return PassCards(spec.count, tuple(_ROTATION[r] for r in spec.rotation))


_DIRECTION_WORDS = {"left": "to the left", "right": "to the right", "across": "across", "none": "not at all"}


def explain(p, contract, rs) -> dict:
    """Passing before play in words: how many cards, and in which direction deal by deal."""
    cards = f"{p.count} card{'s' if p.count != 1 else ''}"
    dirs = [_DIRECTION_WORDS[r] for r in p.rotation]
    if len(set(dirs)) == 1:
        text = (
            f"before play every player passes {cards} {dirs[0]}, all at once"
            if dirs[0] != "not at all"
            else "no cards are passed"
        )
    else:
        text = f"before play every player passes {cards}, all at once, in turn from deal to deal: " + ", ".join(dirs)
    return {ASPECT: text}


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M612",
        "passing more than half a hand",
        "Passing more than half of the cards makes the deal mostly the neighbour's hand; likely a typo.",
        example("  bez_lew:\n    pass_cards: {count: 9}\n    score: [{per_trick: -20}]\n"),
        example("  bez_lew:\n    pass_cards: {count: 3}\n    score: [{per_trick: -20}]\n"),
        (6, 25),
        severity="warning",
    ),
)
