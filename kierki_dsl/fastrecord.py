"""Records of the matches random players play on the fast path (``kierki simulate --records``).

The match is the one ``simulate.FastMatch.play`` plays from the same seed, card for card:
the same deals, the same random streams, the same whole-deal kernels — each run with a log of
the cards it plays. A ``Match`` (the general interpreter, dealing from the same seed as the
fast path does) is then steered through every deal with those decisions: the declarer's
choice the fast path drew, the trump it drew, the cards it passed, the cards it played (a
layout's passes where the seat on turn has nothing to play). The ``Match`` checks every
action against the rules and writes the deal's result as ``kierki run`` does, so the record
is ``kierki run``'s own format and replays with ``kierki replay``; its scores must be the fast
path's, or the command stops with an error. Deals the fast path leaves to the interpreter
are played in the ``Match`` itself with the random draws ``FastMatch`` makes for them.
"""

from __future__ import annotations

import random

from .analysis.rows import DealRow
from .interpreter.actions import CHOOSE_BASE, PASS, call
from .interpreter.fastplay import _pass_cards
from .interpreter.match import Match, draw
from .interpreter.phases import Phase

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
            before = rng.getstate()
            log: list = []
            scores, lead, caller, trump, early, blocked = play(dealer, masks, k + 1, rng, log, dealt)
            passes = _passes(contract, rs, masks, k + 1, before)
            result = _steer(match, log, trump, passes)
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


def _passes(contract, rs, masks: list, number: int, before) -> list:
    """The cards each seat passed in a fast deal (none: []): drawn again from the players'
    stream as it was before the deal — the trump call's draw first, then the passes, as the
    fast deal draws them."""
    passing = contract.passing
    offset = passing.offset(number, rs.players) if passing is not None else 0
    if not offset:
        return []
    rng = random.Random()
    rng.setstate(before)
    if contract.call is not None:  # the trump the fast deal drew
        draw(rng, len(contract.call.choices))
    after = _pass_cards(list(masks), passing.count, offset * rs.direction, rs.players, rng.getrandbits)
    return [[c for c in range(52) if (h & ~a) >> c & 1] for h, a in zip(masks, after)]


def _steer(match: Match, log: list, trump: int, passes: list):
    """Drive the ``Match`` through one deal with the fast path's decisions; its result."""
    cards = iter(log)
    pending = next(cards, None)
    while True:
        state = match.state
        assert state is not None  # the match goes on until this deal's result
        phase = state.phase
        if phase == Phase.PLAY:
            acts = state.legal_actions()
            if pending is not None and pending in acts:
                action, pending = pending, next(cards, None)
            elif PASS in acts:
                action = PASS
            else:
                raise FastPathMismatch(
                    f"deal {match.deal_index + 1}: the fast path played {pending}, the interpreter allows {acts}"
                )
        elif phase == Phase.PASS:
            seat = state.current_player()
            action = passes[seat][len(state.passes[seat])]  # type: ignore[attr-defined]  # a deal that passes has them
        elif phase == Phase.CALL:
            action = call(trump)
        else:
            raise FastPathMismatch(f"deal {match.deal_index + 1}: the fast path has no decision for phase {phase}")
        result = match.apply(action)
        if result is not None:
            if pending is not None:
                raise FastPathMismatch(f"deal {match.deal_index}: the deal ended before the fast path's card {pending}")
            return result


__all__ = ["FastPathMismatch", "play_recorded"]
