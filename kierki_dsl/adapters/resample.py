"""Resampling: a whole game state consistent with what one seat knows (for IS-MCTS).

The seat's own cards, its passes and the cards it received stay as they are, and so do the
cards a seat exposed before play (public); every other seat's cards are drawn at random among the cards the seat has not seen, with as many cards as
each seat publicly holds, none of a suit it has shown out of (``search.public_voids``) and,
in layout deals, none that it could have played when it passed while unable to play (read
from what is public: a voluntary pass shows in the free passes left or in a fine). Other
seats' passes are drawn among the cards their receivers hold. The deal is then replayed from
its start with the drawn cards and the same public actions; a draw whose replay breaks a
rule (a lead ban that only fell away because a seat held nothing else, ...) or changes what
the seat knows (its information state or observation: a pass fined for being able to play
shows in the scores; the phase, the seat on turn, its legal actions) is rejected and drawn again. After ``attempts`` rejections the last draw is
replayed without checks and returned (``state.exact`` is then False). A deal with a stock to
draw from or a widow (cards the deal set aside) is rebuilt from the seat's view instead (see
``_from_view``; not exact either).
"""

from __future__ import annotations

import random
from typing import Optional

from ..cards import SUIT_MASK, bits
from ..interpreter.actions import DONE, PASS, IllegalAction
from ..phases import UNITS
from ..players.sampling import deal_out, draws
from ..players.search import public_voids, sample_hands
from .game import CHANCE, GameState, unit_of
from .knowledge import information_state_string, observation_string, own_passes

CARDS = 52


def resample(state: GameState, seat: int, rng: random.Random, attempts: int = 64) -> GameState:
    """A state drawn uniformly-ish among those ``seat`` cannot tell from ``state``."""
    players = state.spec.ruleset.players
    if not 0 <= seat < players:  # (seat -1 would index the last seat's hand)
        raise ValueError(f"player must be 0..{players - 1}, got {seat!r}")
    base = state.deal_start
    if base is None:  # the first dealer still to be drawn: nothing hidden yet
        return state.clone()
    if state.deal is not None and (_rebuilt(state.deal.view(seat)) or _set_aside(state)):
        return _from_view(state, base, seat, rng)
    target = _knows(state, seat)
    log = state.deal_log()
    forbidden = [f | e for f, e in zip(_forbidden(state, base, seat, log), _unexposable(state, log))]
    last = None
    for _ in range(attempts):
        world = _draw(state, seat, rng, forbidden)
        if world is None:
            continue
        last = world
        new = _replay(base, log, seat, world, checked=True)
        if new is not None and _knows(new, seat) == target:
            new.exact = True
            return new
    if last is None:  # pragma: no cover - a draw ignoring voids always fits
        last = _draw(state, seat, rng, [0] * state.spec.ruleset.players)
        if last is None:
            raise RuntimeError(f"no cards fit the hands seat {seat} does not see, even ignoring voids")
    new = _replay(base, log, seat, last, checked=False)
    if new is None or _knows(new, seat)[:2] != target[:2]:  # a rule before play broke (forced plays
        return _from_view(state, base, seat, rng)  # mend only the play): the deal rebuilt from the view
    new.exact = False
    return new


def _knows(state: GameState, seat: int) -> tuple:
    """What the seat knows of a state: its information state, what it observes now (the
    scores a fine or a pool changed, which the history of actions does not spell out), the
    phase, who is on turn and, on its own turn, what it may do (a round of exposures that ended
    shows that no other seat held a card to expose)."""
    on_turn = state.current_player()
    legal = state.legal_actions() if on_turn == seat else None
    phase = str(state.deal.phase) if state.deal is not None else state.stage.name
    return information_state_string(state, seat), observation_string(state, seat), phase, on_turn, legal


def _rebuilt(view) -> bool:
    """Whether a phase of the view's deal has it resampled from the view (a stock's draws)."""
    return any(UNITS[name].rebuilt_in_worlds for name, _ in view.parts if name in UNITS)


def _set_aside(state: GameState) -> bool:
    """Whether the deal set some of the cards dealt aside (a widow, a stock): its hands are not
    the dealing's, so the dealing cannot be replayed with drawn hands."""
    return any(len(a) != len(b) for a, b in zip(state.deal.dealt, state.dealt))


def _from_view(state: GameState, base: GameState, seat: int, rng: random.Random) -> GameState:
    """A deal with a stock: its draws interleave the stock's order with every seat's hand, so
    no dealing is replayed; the deal is rebuilt from the seat's view with the other hands and
    the stock drawn at random (as ``search`` does). The world keeps the history of the match
    but not a deal order (``exact`` is False); ``base`` is the state before this deal's cards."""
    contract = state.contract
    if contract is None:
        raise RuntimeError("a world is drawn from a seat's view only in a deal: no contract is in play")
    view = state.deal.view(seat)
    hands = sample_hands(view, rng)
    new = state.clone()
    new.deal = contract.from_view(view, hands)
    new.deal.dealt[seat] = list(state.deal.dealt[seat])  # the seat's own cards as dealt: it saw them
    new.deal.actions = list(state.deal.actions)  # its view counts them (``ply``); the log holds them anyway
    new.dealt = [list(bits(h)) for h in hands]
    new.events = _redacted(state, base, seat)
    new.exact = False
    return new


def _redacted(state: GameState, base: GameState, seat: int) -> list:
    """The events of ``state`` with what other seats alone saw in this deal told without its
    cards: a world is drawn for ``seat``, so another seat's information state in it (a search
    tree's key) must not carry the true hidden cards (a widow's cards put out, a stock's); ``base``
    is the state before this deal's cards."""
    start = len(base.events)
    return [
        (who, text) if i < start or who is None or who == seat else (who, f"p{who} saw something")
        for i, (who, text) in enumerate(state.events)
    ]


# -- drawing the hidden cards ---------------------------------------------------------------
def _draw(state: GameState, seat: int, rng: random.Random, forbidden: list) -> Optional[tuple]:
    """(dealt lists per seat in deal order, pass lists per seat) for a random world."""
    rs = state.spec.ruleset
    n = rs.players
    mine = list(state.dealt[seat])
    deal = state.deal
    free = (mine, None) if deal is None else unit_of(deal.phase).unseen_draw(state.contract, mine)
    if free is not None:  # before play (a pass, a trump call on the first cards): draw from every unseen card
        return _draw_before_exchange(state, seat, rng, *free)
    view = deal.view(seat)
    passed, received = own_passes(state, seat)
    offset = deal.pass_offset
    plays = _plays(state, log=state.deal_log())
    holding = sum(1 << c for c in mine) & ~passed | received  # after the exchange
    known = [0] * n
    if offset:
        to = (seat + deal.direction * offset) % n
        known[to] = passed & ~plays[to]
    for s, card in (shown for unit in UNITS.values() for shown in unit.shown_held(view)):
        if s != seat:  # shown before play (an exposure): public, still held until played
            known[s] |= 1 << card & ~plays[s]
    seen = holding
    for s in range(n):
        seen |= plays[s] | known[s]
    unseen = list(bits(rs.deck & ~seen))
    caps = [0 if s == seat else view.hand_sizes[s] - known[s].bit_count() for s in range(n)]
    voids = public_voids(view)
    bans = [forbidden[s] | sum(SUIT_MASK[u] for u in range(4) if voids[s] >> u & 1) for s in range(n)]
    now = _assign(unseen, caps, bans, rng)
    if now is None:
        return None
    held = [now[s] | known[s] | plays[s] for s in range(n)]  # post-exchange holdings
    held[seat] = holding
    passes: list[list[int]] = [[] for _ in range(n)]
    dealt = list(held)
    if offset:
        giver_of = {(s + deal.direction * offset) % n: s for s in range(n)}
        chosen = [0] * n
        chosen[seat] = passed
        chosen[giver_of[seat]] = received
        for s in range(n):
            if s in (seat, giver_of[seat]):
                continue
            to = (s + deal.direction * offset) % n
            pool = list(bits(held[to] & ~(passed if to == (seat + deal.direction * offset) % n else 0)))
            rng.shuffle(pool)
            chosen[s] = sum(1 << c for c in pool[: deal.contract.passing.count])
        for s in range(n):
            dealt[s] = (held[s] & ~chosen[giver_of[s]]) | chosen[s]
        passes = [_ordered(chosen[s], rng) for s in range(n)]
        passes[seat] = [a for s, a in state.deal_log() if s == seat and a < CARDS][: deal.contract.passing.count]
    lists = [_ordered(dealt[s], rng) for s in range(n)]
    lists[seat] = mine
    return lists, passes


def _draw_before_exchange(
    state: GameState, seat: int, rng: random.Random, mine: list, size: Optional[int] = None
) -> tuple:
    """Before any card is played: other hands are any cards but those the seat has seen
    (``mine``, the first of its ``size`` cards)."""
    rs = state.spec.ruleset
    n = rs.players
    pool = list(bits(rs.deck & ~sum(1 << c for c in mine)))
    rng.shuffle(pool)
    lists = []
    for s in range(n):
        k = len(state.dealt[s])
        if s == seat:
            extra = (size or len(mine)) - len(mine)
            lists.append(list(mine) + pool[:extra])
            pool = pool[extra:]
            continue
        lists.append(pool[:k])
        pool = pool[k:]
    passes: list[list[int]] = [[] for _ in range(n)]
    if state.deal is not None:
        made = [[a for t, a in state.deal_log() if t == s and a < CARDS] for s in range(n)]
        for s in range(n):
            if s == seat:
                passes[s] = made[s]
            elif made[s]:
                cards = list(lists[s])
                rng.shuffle(cards)
                passes[s] = cards[: len(made[s])]
    return lists, passes


def _assign(cards: list, caps: list, bans: list, rng: random.Random) -> Optional[list]:
    """Hand masks: each card to a seat with room left that may hold it (the last try ignores bans)."""
    seats = range(len(caps))

    def able(c: int, relax: bool) -> list:
        return [s for s in seats if caps[s] and (relax or not bans[s] >> c & 1)]

    return deal_out(cards, caps, able, draws(rng))


def _ordered(mask: int, rng: random.Random) -> list:
    cards = list(bits(mask))
    rng.shuffle(cards)
    return cards


def _plays(state: GameState, log: list) -> list:
    """Per seat, the cards it has played to the table in this deal (public)."""
    n = state.spec.ruleset.players
    plays = [0] * n
    deal = state.deal
    skip = deal.contract.passing.count * n if deal.pass_offset else 0
    for s, a in log:
        if s == CHANCE or a >= CARDS:
            continue
        if skip:
            skip -= 1
            continue
        plays[s] |= 1 << a
    return plays


# -- constraints read from the public history ---------------------------------------------
def _forbidden(state: GameState, base: GameState, seat: int, log: list) -> list:
    """Per seat, cards it cannot hold: what it could have played when it passed unable to play
    (the deal replayed from ``base``, the state before its cards)."""
    n = state.spec.ruleset.players
    out = [0] * n
    if not any(a == PASS for s, a in log if s != CHANCE):
        return out
    replay = base.clone()
    for s, a in log:
        if s != CHANCE and a == PASS and s != seat and replay.deal is not None:
            out[s] |= _unable_shows(replay, seat, s)
        replay.apply_action(a)
    return out


def _unexposable(state: GameState, log: list) -> list:
    """Per seat, cards the round of exposures shows it does not hold: the round passes over a
    seat with no card left that it may expose, so a seat whose turn has passed without its
    saying "done" holds none of them (but those it showed, which are known to be its own)."""
    n = state.spec.ruleset.players
    round_ = getattr(state.deal, "exposures", None)
    if round_ is None:
        return [0] * n
    past = round_.order if round_.finished else round_.order[: round_.turn]
    kept = {s for s, a in log if s != CHANCE and a == DONE}  # said "done": kept a card back
    return [round_.rule.cards if s in past and s not in kept else 0 for s in range(n)]


def _unable_shows(game: GameState, seat: int, passer: int) -> int:
    """The cards ``passer`` shows it lacks by passing now, judged by what ``seat`` sees: the
    playable cards, if a pass while able to play would look different (illegal, a fine, a
    free pass used) from the pass that was made."""
    deal = game.deal
    unplayed = deal.deck & ~deal.view(seat).played
    probe = deal.clone()
    probe.hands[passer] = unplayed
    playable = probe.legal_mask()
    rest = unplayed & ~playable
    if not playable or not rest:
        return 0
    able, unable = deal.clone(), deal.clone()
    able.hands[passer] = playable
    unable.hands[passer] = rest
    if PASS not in able.legal_actions():
        return playable
    after = deal.clone()
    after.apply_action(PASS)
    able.apply_action(PASS)
    unable.apply_action(PASS)
    sig = _public(after, seat)
    if sig == _public(unable, seat) and sig != _public(able, seat):
        return playable
    return 0


def _public(deal, seat: int) -> tuple:
    v = deal.view(seat)
    return v.scores, v.parts  # a layout's pool and free passes left among its part


# -- replaying ------------------------------------------------------------------------------
def _replay(base: GameState, log: list, seat: int, world: tuple, checked: bool) -> Optional[GameState]:
    """The deal replayed from ``base`` with the world's cards and passes; None if a rule breaks."""
    dealt, passes = world
    new = base.clone()
    rs = new.spec.dealt_ruleset()  # a replay deals its cards
    n = rs.players
    count = [0] * n
    dealt_so_far = 0
    used = [0] * n
    for s, a in log:
        if s == CHANCE:
            if new.first_dealer is None:  # the first dealer drawn
                new.apply_action(a)
                continue
            to = (new.dealer + rs.direction * (1 + dealt_so_far)) % n
            a = dealt[to][count[to]]
            count[to] += 1
            dealt_so_far += 1
            new.apply_action(a)
            continue
        unit = unit_of(new.deal_phase())
        if unit.drawn_in_worlds:  # the seat's own secret cards (a pass): the world's
            a = passes[s][used[s]]
            used[s] += 1
        try:
            if checked or not unit.forced_in_worlds:
                new.apply_action(a)
            else:
                new.force_action(a)
        except IllegalAction:
            return None
    return new


__all__ = ["resample"]
