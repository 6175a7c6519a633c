"""The score limit: no seat scores more than ``SCORE_LIMIT`` points (in size) in one deal.

Lint proves it of every trick contract (M642; a seat's declarations, ``declared``, are held
to ``DECLARED_LIMIT``): each score component's points are bounded by
interval arithmetic over its expression (``expr/bounds.py``), times the most times it can
count in a deal (a trick's points once per trick, a card's once per card, a seat's once),
summed over the components, widened by what exposures and doubles can multiply. Play checks
it too (``check_deal``: X703), so that an expression the bounds could not see through is
still a located error, never a wrapped or an overflowing number: the compiled core holds
scores in 64-bit ints, far above the limit, with checked arithmetic (``_cstep.c``).
"""

from __future__ import annotations

import attrs

from ..cards import popcount
from ..diagnostics import Diagnostic
from ..expr import EvalError, RuleRuntimeError
from ..expr.bounds import DECLARED_LIMIT, SCORE_LIMIT
from ..i18n import L_

_POINTS_FIELD = {"trick": "per_trick", "seat": "per_seat"}


def _size(compiled) -> int:
    """The largest size of an int expression's values (SCORE_LIMIT + 1 when unknown)."""
    b = getattr(compiled, "bounds", None)
    if b is None:
        return SCORE_LIMIT + 1 if not getattr(compiled, "is_const", False) else abs(compiled.const)
    return max(abs(b[0]), abs(b[1]))


def _points_where(s) -> tuple:
    """Where a scorer's points expression is written."""
    if s.kind == "card":
        return s.where[:-1] + ("points",)
    return s.where + (_POINTS_FIELD[s.kind],)


def scorer_bound(s, cards: int) -> int:
    """The most points (in size) one scorer can give one seat in a deal of ``cards`` cards."""
    size = _size(s.points)
    if s.kind == "seat":
        return size
    if s.kind == "card":
        const = s.cards.const
        return size * (popcount(const) if const is not None else cards)
    return size * cards  # at most one trick per card


def _multiplier(c, players: int) -> int:
    """How much exposures and doubles can multiply a deal's points."""
    m = 1
    if c.exposure is not None:
        m *= 1 + 2 * (c.exposure.factor - 1)
    if c.doubling is not None:
        m *= 1 + 8 * (players - 1)  # every seat bets with every other, doubled and redoubled (x2)
    return m


def check_contract(c, name: str, bctx, deck: int, players: int) -> None:
    """M642: a score component, a declaration or the whole scoring of ``c`` that can pass the limit."""
    cards = popcount(deck)
    limit = L_("a seat's points in one deal are limited to ±{limit:,} (docs/engine.md)", limit=SCORE_LIMIT)
    for d_i, d in enumerate(getattr(c, "declarations", ()) or ()):
        if d.points is not None and _size(d.points) * cards > DECLARED_LIMIT:
            bctx.error(
                ("contracts", name, "declarations", d_i, "points"),
                "M642",
                L_(
                    "the points of declaration {d!r} can pass ±{limit:,} over a deal: a seat's declarations are limited to that (docs/engine.md)",
                    d=d.name,
                    limit=DECLARED_LIMIT,
                ),
                L_("make the points smaller"),
            )
            return
    total, worst = 0, None
    for s in c.scorers:
        b = scorer_bound(s, cards)
        total += b
        if s.origin == name and (worst is None or b > worst[0]):
            worst = (b, s)
    total *= _multiplier(c, players)
    if total <= SCORE_LIMIT:
        return
    where = _points_where(worst[1]) if worst is not None else ("contracts", name, "score")
    bctx.error(
        where,
        "M642",
        L_(
            "the points of contract {name!r} can reach {total:,} in one deal: {limit}",
            name=name,
            total=total,
            limit=limit,
        ),
        L_("make the points smaller"),
    )


def check_deal(scores, contract) -> None:
    """X703 when a deal's scores passed the limit (lint's M642 missed what an expression can give)."""
    for s in scores:
        if s > SCORE_LIMIT or s < -SCORE_LIMIT:
            raise score_error(contract, s)


def check_score(score: int, contract) -> None:
    """X703 when one seat's points so far in a deal passed the limit (after each trick)."""
    if score > SCORE_LIMIT or score < -SCORE_LIMIT:
        raise score_error(contract, score)


def score_error(contract, value: int):
    """The ``RuleRuntimeError`` of a deal's score ``value`` past the limit, located at the
    contract's first score component (the expression's own place in the file)."""
    message = L_(
        "a seat's points in contract {contract!r} passed the limit of ±{limit:,} in one deal (docs/engine.md)",
        contract=contract.name,
        limit=SCORE_LIMIT,
    )
    scorers = getattr(contract, "scorers", ())
    on_error = scorers[0].points.on_error if scorers else None
    if on_error is None:
        return RuleRuntimeError(Diagnostic("<ruleset>", None, "X703", message))
    d = on_error(EvalError(0, message)).diagnostic
    return RuleRuntimeError(attrs.evolve(d, code="X703", message=message))


__all__ = ["SCORE_LIMIT", "check_contract", "check_deal", "check_score", "scorer_bound", "score_error"]
