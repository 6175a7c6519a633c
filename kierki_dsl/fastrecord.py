"""Records of the matches random players play on the fast path (``kierki simulate --records``).

The match is the one ``simulate.FastMatch.play`` plays from the same seed, card for card:
the same deals, the same random streams, the same whole deals — each asked for every action
it took, in the order the interpreter takes them (``actions``: on the compiled core, or the
interpreter's own random play-out where no core is built, ``corefast.recorded_player``; a
layout's kernel logs them). A ``Match`` (the general interpreter, dealing from the same seed
as the fast path does) takes those actions one by one: it checks each against the rules and
writes the deal's result as ``kierki run`` does (each phase's record hooks), so the record is
``kierki run``'s own format and replays with ``kierki replay``; its scores must be the fast
path's, or the command stops with an error. This module steps nothing and names no phase.
Deals the fast path leaves to the interpreter are played in the ``Match`` itself with the
random draws ``FastMatch`` makes for them.
"""

from __future__ import annotations

from .analysis.rows import DealRow
from .interpreter.actions import CHOOSE_BASE, IllegalAction, action_str
from .interpreter.match import Match, draw

_BIT = tuple(1 << c for c in range(52))


class FastPathMismatch(RuntimeError):
    """The interpreter does not accept what a fast kernel played (a bug of the fast path)."""


def play_recorded(fast, seed: int, play_stream) -> tuple:
    """(first dealer, DealRows, totals, DealResults) of the match ``fast`` (a random
    ``FastMatch``) plays from ``seed``; ``play_stream(seed)``: its players' random stream."""
    rs = fast.rs
    n = rs.players
    match = Match(rs, seed)
    rng = play_stream(seed)
    chosen: dict = {}  # the fast path's memory of the choices made (the Match keeps its own)
    rows, results = [], []
    k = 0
    while not match.over:
        dealer, dealt = match.dealer, [list(h) for h in match.dealt]
        masks = [sum(map(_BIT.__getitem__, h)) for h in dealt]
        contract = rs.contract_at(k)
        if contract.offered:
            picked: list = []

            def pick(seat, allowed, picked=picked):
                picked.append(allowed[draw(rng, len(allowed))])
                return picked[-1]

            contract = contract.resolve(dealer, n, masks, rs.deck, chosen, pick)
            match.apply(CHOOSE_BASE + picked[0])
        play = fast._player(contract)
        if play is None:
            _sorted_hands(match, contract, k)
            result = _random(match, rng)
            rows.append(
                DealRow(
                    contract.name,
                    dealer,
                    result.first,
                    result.caller,
                    result.trump,
                    tuple(result.scores),
                    result.ended_early,
                    result.blocked,
                    result.bidder,
                )
            )
        else:
            actions: list = []
            scores, lead, caller, trump, early, blocked = play(dealer, masks, k + 1, rng, None, dealt, actions)
            result = _replay(match, actions, f"seed {seed}, deal {k + 1} ({contract.name})")
            if tuple(result.scores) != tuple(scores):
                raise FastPathMismatch(
                    f"seed {seed}, deal {k + 1} ({contract.name}): the interpreter scores "
                    f"{list(result.scores)}, the fast path {list(scores)}"
                )
            rows.append(DealRow(contract.name, dealer, lead, caller, trump, tuple(scores), early, blocked))
        results.append(result)
        k += 1
    totals = [0] * n
    for row in rows:
        totals = [t + s for t, s in zip(totals, row.scores)]
    return match.first_dealer, tuple(rows), tuple(totals), results


def _sorted_hands(match: Match, contract, k: int) -> None:
    """The deal started again with each seat's cards in card order, as ``FastMatch._stepwise``
    starts the deals it leaves to the interpreter (the order of a hand can matter to the
    rules, e.g. a widow's cards, and so to the actions a random player draws from)."""
    rs = match.ruleset
    match.dealt = [sorted(h) for h in match.dealt]
    match.state = contract.new_deal(
        rs.players, rs.deck, match.dealer, match.dealt, rs.direction, k + 1, memory=match.chosen
    )


def _random(match: Match, rng):
    """A deal the interpreter plays, drawing from ``rng`` as ``FastMatch._stepwise`` does."""
    while True:
        state = match.state
        assert state is not None  # the match goes on until this deal's result
        acts = state.legal_actions()
        result = match.apply(acts[draw(rng, len(acts))] if len(acts) > 1 else acts[0])
        if result is not None:
            return result


def _replay(match: Match, actions: list, where: str):
    """The fast deal's ``actions`` taken by the ``Match`` in order; the deal's result."""
    result = None
    for action in actions:
        if result is not None:
            raise FastPathMismatch(f"{where}: the deal ended before the fast path's {action_str(action)}")
        try:
            result = match.apply(action)
        except IllegalAction as e:
            raise FastPathMismatch(
                f"{where}: the interpreter refuses the fast path's {action_str(action)}: {e}"
            ) from None
    if result is None:
        raise FastPathMismatch(f"{where}: the deal goes on after the fast path's last action")
    return result


__all__ = ["FastPathMismatch", "play_recorded"]
