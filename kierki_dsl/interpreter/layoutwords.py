"""The layout deal type in words: ``kierki explain`` and ``kierki diff`` read a layout
contract's rules through ``LayoutContract.aspects``."""

from __future__ import annotations

from ..cards import RANK_NAMES, card_pretty
from ..i18n import N_, tr
from ..words import cards, seat

#: A place going out and its prize ("1st out +800"), by place (the fourth and later alike).
_PLACES = (
    N_("{place}st out {points}"),
    N_("{place}nd out {points}"),
    N_("{place}rd out {points}"),
    N_("{place}th out {points}"),
)


def aspects(c, rs, spec) -> dict:
    """The layout's rules as ordered (aspect -> sentence) pairs."""
    out: dict = {}
    if c.named:
        out["game"] = tr(
            "layout (Fan Tan): rows by suit; before play the first player names the rank that opens every "
            "row (one he need not hold); rows are built up and down one card at a time"
        )
    elif c.start_rank is None:
        out["game"] = tr(
            "layout (Fan Tan): rows by suit; the first player opens a row with any card, whose rank "
            "then opens every other row; rows are built up and down one card at a time"
        )
    else:
        out["game"] = tr(
            "layout (Fan Tan): rows by suit, opened by the {rank}s and built up and down one card at a time"
        ).format(rank=RANK_NAMES[c.start_rank])
    out["ace"] = tr("the ace is high (above the king)") if c.ace_high else tr("the ace is low (below the two)")
    if c.up_first:
        out["up first"] = (
            "in each row the card above the opening card must be laid before any card below it"
            if c.start_rank is None
            else f"in each row the {RANK_NAMES[(c.start_rank + 1) % 13]} must follow the "
            f"{RANK_NAMES[c.start_rank]} before any lower card"
        )
    out["first turn"] = tr("{seat} plays first").format(
        seat=seat(spec.first_turn.text) if spec.first_turn else seat("left(dealer)")
    )
    if c.first_card is not None:
        out["first card"] = f"the {card_pretty(c.first_card)} is laid first, before any other row is opened"
    out["play"] = (
        tr("a player who can play must play; with nothing to play he passes")
        if c.must_play
        else tr("a player may pass at any time")
    )
    if c.must_play and c.free_passes:
        out["free passes"] = f"a player who could play may pass instead {c.free_passes} times a deal"
    if c.pass_cost or c.pass_fine:
        fine = f", and {c.pass_fine} more for passing when he could have played" if c.pass_fine else ""
        out["pool"] = (
            f"each pass costs {c.pass_cost} points into a pool{fine}; the next player to go out takes the pool"
        )
    if c.again:
        if c.again_optional:
            out["extra turn"] = (
                f"whoever plays one of the {cards(spec.again_after.text)} may play one more "
                "card at once (he need not: passing it costs nothing)"
            )
        else:
            out["extra turn"] = f"whoever plays one of the {cards(spec.again_after.text)} plays again at once, if able"
    places = ", ".join(tr(_PLACES[min(i, 3)]).format(place=i + 1, points=f"{p:+d}") for i, p in enumerate(c.prizes))
    out["scoring"] = tr("{places}; the deal ends once every prize is given").format(places=places)
    out.update(c.phase_words(rs, spec, "bets"))  # the doubling round
    return out
