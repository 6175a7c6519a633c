"""Passing before play (Hearts, the compendium's passes): its words for ``kierki explain``."""

from __future__ import annotations

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
