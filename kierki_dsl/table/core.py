"""``Table``: one match, its seats (remote listeners or bots), and the events each seat gets."""
from __future__ import annotations

from typing import Callable, Optional

from ..interpreter.actions import IllegalAction
from ..interpreter.fairplay import exact_action, seat_player
from ..interpreter.phases import PRIVATE
from .events import DealEnded, MatchEnded, Played, TrickTaken, deal_started, turn

Listener = Callable[[object], None]


class Table:
    """A match played by seats that come and go.

    A seat is filled by a bot (``bots``: seat -> Player, driven by whoever runs the table via
    ``bot_turn``) or by a remote player that ``sit``s with a listener receiving events. The
    table is *paused* while any seat is empty: nobody is asked to act (a remote seat on turn may
    still answer the request it got before the pause; bots wait). The first time every
    seat is filled the table goes live and every seat receives the deal; a seat filled again
    later (a reconnect) receives its deal and every public event of the deal so far.

    ``script``: actions to replay first (restarting from a save file); ``on_action(deal_index,
    seat, action)`` is called for every new action (saving).
    """

    def __init__(self, match, bots: Optional[dict] = None, script=(), on_action: Optional[Callable] = None):
        self.match = match
        self.players = match.ruleset.players
        self.bots = dict(bots or {})
        for seat, p in self.bots.items():
            seat_player(p, match.seed, seat, match.ruleset)
        self.listeners: dict = {}
        self.results: list = []  # every finished deal's ``DealResult`` (a record, a score sheet)
        self.live = False
        self.on_action = None
        self._begin_deal()
        for action in script:
            self._apply(self.match.to_move(), action)
        self.on_action = on_action
        self._go_live()

    # -- seats -----------------------------------------------------------------------------------
    def occupied(self) -> set:
        """Seats filled now, by a bot or a remote player."""
        return set(self.bots) | set(self.listeners)

    @property
    def paused(self) -> bool:
        return len(self.occupied()) < self.players

    @property
    def over(self) -> bool:
        return self.match.over

    def sit(self, seat: int, listener: Listener) -> bool:
        """Fill an empty seat with a remote player; False if the seat is taken."""
        if seat in self.occupied() or not 0 <= seat < self.players:
            return False
        self.listeners[seat] = listener
        if self.live:
            self._catch_up(seat)
        self._go_live()
        return True

    def _go_live(self) -> None:
        """Once every seat is filled: the first time, everyone gets the deal; then play goes on."""
        if self.paused:
            return
        if not self.live:
            self.live = True
            for s in sorted(self.listeners):
                self._catch_up(s)
        self._ask()

    def leave(self, seat: int) -> None:
        """A remote player left: the seat is empty and the table pauses."""
        self.listeners.pop(seat, None)

    def view(self, seat: int):
        """What ``seat`` may see now (for its own adapter or bot)."""
        return self.match.view(seat)

    # -- acting ----------------------------------------------------------------------------------
    def act(self, seat: int, action: int) -> Optional[str]:
        """Apply ``seat``'s action; the reason it is refused (nothing changed), or None."""
        if self.match.over:
            return "the match is over"
        if self.paused and seat not in self.listeners:  # bots wait; a seated player's answer
            return "the table is waiting for a player"  # to a request made before the pause counts
        if seat != self.match.to_move():
            return "it is not your turn"
        try:
            action = exact_action(action)
        except IllegalAction as e:
            return e.reason
        view = self.match.view(seat)
        if action not in view.legal:  # explained from the seat's own view and the rules
            from ..interpreter.reasons import illegal_reason

            return illegal_reason(view, action, self.match.ruleset.contracts.get(view.contract)) or "not allowed now"
        try:
            self._apply(seat, action)
        except IllegalAction as e:
            return e.reason
        self._ask()
        return None

    def bot_turn(self):
        """(seat, player, view) when a bot must act now, else None."""
        seat = self.match.to_move()
        if self.paused or self.match.over or seat not in self.bots:
            return None
        return seat, self.bots[seat], self.match.view(seat)

    def run_bots(self) -> None:
        """Let bots act until a remote seat must (for callers without their own scheduling)."""
        while (t := self.bot_turn()) is not None:
            seat, player, view = t
            reason = self.act(seat, player.act(view))
            if reason is not None:
                raise IllegalAction(f"bot of seat {seat}: {reason}")

    # -- internals -------------------------------------------------------------------------------
    def _apply(self, seat: int, action: int) -> None:
        m = self.match
        state, k = m.state, m.deal_index
        mine = state.view(seat)
        before, secret = len(mine.completed), mine.phase in PRIVATE
        result = m.apply(action)  # IllegalAction: nothing changed
        if self.on_action is not None:
            self.on_action(k, seat, action)
        deal = k + 1
        if secret:  # a card passed, given or laid aside is known to its giver only
            self._send(seat, Played(deal, seat, action)) if self.live else None
        else:
            self._public(Played(deal, seat, action))
        after = state.view(seat)
        if len(after.completed) > before:
            leader, plays, winner = after.completed[-1]
            self._public(TrickTaken(deal, len(after.completed), tuple(plays), winner))
        if result is not None:
            self.results.append(result)
            self._broadcast(DealEnded(deal, tuple(result.scores), tuple(result.totals), bool(result.ended_early)))
            if m.over:
                self._broadcast(MatchEnded(tuple(m.totals)))
            else:
                self._begin_deal()
                if self.live:
                    for s in list(self.listeners):
                        self._send(s, self.started[s])
        elif m.state is not state:  # a declarer's choice became the deal
            self._begin_deal()
            for s in list(self.listeners) if self.live else ():
                self._send(s, self.started[s])

    def _begin_deal(self) -> None:
        m = self.match
        self.history: list = []
        if m.over:
            self.started = {}
            return
        leader = m.to_move()
        self.started = {s: deal_started(m.view(s), m.label, leader) for s in range(self.players)}

    def _public(self, event) -> None:
        self.history.append(event)
        self._broadcast(event)

    def _broadcast(self, event) -> None:
        if self.live:
            for s in list(self.listeners):
                self._send(s, event)

    def _send(self, seat: int, event) -> None:
        listener = self.listeners.get(seat)
        if listener is not None:
            listener(event)

    def _catch_up(self, seat: int) -> None:
        if self.match.over:
            return
        self._send(seat, self.started[seat])
        for event in self.history:
            self._send(seat, event)

    def _ask(self) -> None:
        """Ask the remote seat on turn to act (bots are run by ``bot_turn``)."""
        seat = self.match.to_move()
        if self.live and not self.paused and seat in self.listeners:
            self._send(seat, turn(self.match.view(seat)))

    def ask_again(self, seat: int) -> None:
        """Repeat the request to act to ``seat`` if it is on turn (a timeout)."""
        if seat == self.match.to_move():
            self._ask()
