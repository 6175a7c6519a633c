"""Passing before play (Hearts, the compendium's passes): its words for ``kierki explain``."""

from __future__ import annotations

from ..codes import Code, example, table

#: The trick contract's key that brings the phase into a deal, and where its words stand.
KEY = "pass_cards"
WORDS_AT = "setup"

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
    return {"passing": text}


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
