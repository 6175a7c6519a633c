"""``Table``: one match, its seats (remote listeners or bots), and the events each seat gets."""

from __future__ import annotations

from typing import Callable, Optional

from ..i18n import R_
from ..interpreter.actions import IllegalAction, action_str
from ..interpreter.fairplay import exact_action, seat_player
from ..phases import label, phase_of
from .events import DealEnded, MatchEnded, Played, TrickTaken, deal_started, turn
from .outcome import ACCEPTED, Failed, Outcome, Refused, failed, stops_match
from .savefile import SaveError

Listener = Callable[[object], None]


class Table:
    """A match played by seats that come and go.

    A seat is filled by a bot (``bots``: seat -> Player, driven by ``run_bots`` or, for a front
    end with its own scheduling, ``bot_turn`` + ``act``) or by a remote player that ``sit``s
    with a listener receiving events. The table is *paused* while any seat is empty: nobody is
    asked to act (a remote seat on turn may still answer the request it got before the pause;
    bots wait). The first time every seat is filled the table goes live and every seat receives
    the deal; a seat filled again later (a reconnect) receives its deal and every public event
    of the deal so far.

    ``script``: actions to replay first (``replay`` checks saved ones against their deal and
    seat); ``on_action(deal_index, seat, action)`` is called for every new action (saving);
    ``on_deal(result)`` for every finished deal, replayed ones included. A rule that fails
    while playing ends the match: ``failure`` says why and every later ``act`` answers it.
    """

    def __init__(
        self,
        match,
        bots: Optional[dict] = None,
        script=(),
        on_action: Optional[Callable] = None,
        on_deal: Optional[Callable] = None,
    ):
        self.match = match
        self.players = match.ruleset.players
        self.bots = dict(bots or {})
        for seat, p in self.bots.items():
            seat_player(p, match.seed, seat, match.ruleset)
        self.listeners: dict = {}
        self.results: list = []  # every finished deal's ``DealResult`` (a record, a score sheet)
        self.live = False
        self.failure: Optional[Failed] = None
        self.on_action = None
        self.on_deal = on_deal
        self.history: list = []
        self.started: dict = {}
        self.ended = None  # the last finished deal's state: each seat's view of how it ended (its last trick)
        self._guard(self._begin_deal)
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
        """True once the last deal has been played (a match that failed is not over: see
        ``failure``, and ``stopped`` for either)."""
        return self.failure is None and self.match.over

    finished = over

    @property
    def stopped(self) -> bool:
        """True once nothing more can be played: the match is over or has failed."""
        return self.failure is not None or self.match.over

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
        if self.paused or self.failure is not None:
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
    def act(self, seat: int, action: int) -> Outcome:
        """Apply ``seat``'s action: ``Accepted``, ``Refused`` with the rule's reason (nothing
        changed), or ``Failed`` (the match cannot go on; ``failure`` keeps it)."""
        if self.failure is not None:
            return self.failure
        try:
            reason = self._guard(lambda: self._refusal(seat, action))
            if reason is None and self.failure is None:
                self._guard(lambda: self._apply(seat, action))
        except IllegalAction as e:
            return Refused(e.reason)
        if self.failure is not None:
            return self.failure
        if reason is not None:
            return Refused(reason)
        self._guard(self._ask)
        return self.failure or ACCEPTED

    def _refusal(self, seat: int, action: int) -> Optional[str]:
        if self.match.over:
            return R_("the match is over")
        if self.paused and seat not in self.listeners:  # bots wait; a seated player's answer
            return R_("the table is waiting for a player")  # to a request made before the pause counts
        if seat != self.match.to_move():
            return R_("it is not your turn")
        try:
            action = exact_action(action)
        except IllegalAction as e:
            return e.reason
        view = self.match.view(seat)
        if action not in view.legal:  # explained from the seat's own view and the rules
            from ..interpreter.reasons import illegal_reason

            rules = self.match.ruleset  # the legal actions a reason lists are worded by their phase's labels
            return illegal_reason(
                view, action, rules.contracts.get(view.contract), lambda a: label(view, a, rules)
            ) or R_("not allowed now")
        return None

    def _guard(self, work):
        """``work()``; a rule that fails while playing becomes the table's ``failure`` (None is
        returned then)."""
        try:
            return work()
        except Exception as e:
            if not stops_match(e):
                raise
            self.failure = failed(e)
            return None

    def bot_turn(self):
        """(seat, player, view) when a bot must act now, else None."""
        if self.failure is not None or self.paused or self.match.over:
            return None
        seat = self.match.to_move()
        if seat not in self.bots:
            return None
        return seat, self.bots[seat], self.match.view(seat)

    def run_bots(self) -> Outcome:
        """Let bots act until a remote seat must (or the match is over): ``Accepted``, or
        ``Failed`` when the match stopped. A bot's own exception (a person at a terminal who
        quits, Ctrl-C) goes to the caller."""
        while (t := self._guard(self.bot_turn)) is not None:
            seat, player, view = t
            action = self._guard(
                lambda player=player, view=view: player.act(view)
            )  # a bot asks the rules too (legal cards)
            if self.failure is not None:
                break
            outcome = self.act(seat, action)
            if isinstance(outcome, Refused):  # a bot only picks legal actions: a bug, said plainly
                self.failure = Failed(f"the bot of seat {seat} chose an action the rules refuse: {outcome.reason}")
            if not outcome.ok:
                return self.failure or outcome
        return self.failure or ACCEPTED

    def replay(self, saved, path: str, place: Optional[Callable] = None) -> Outcome:
        """Replay the actions of a save file (``SavedAction``s) before anyone is asked: each must
        belong to the deal and the seat on turn, be legal, and come before the match's end; a
        failure is located at the action's line of ``path`` (or where ``place(entry)`` says)."""
        where = place or (lambda entry: f"{path}:{entry.line}")

        keep, self.on_action = self.on_action, None
        try:
            for i, entry in enumerate(saved):
                problem = self._replay_one(entry, where(entry), len(saved) - i)
                if problem is not None:
                    self.failure = Failed(problem, located=True)
                    break
        except SaveError as e:
            self.failure = Failed(str(e), located=True)
        finally:
            self.on_action = keep
        self._go_live()
        return self.failure or ACCEPTED

    def _replay_one(self, entry, at: str, left: int) -> Optional[str]:
        if self.failure is not None:
            return None
        m = self.match
        if m.over:
            return (
                f"{at}: error: the match is over before this line; {left} saved action(s) come "
                "after its end (a save file ends with the match's last action)"
            )
        seat, deal = m.to_move(), m.deal_index + 1
        if (entry.deal, entry.seat) != (deal, seat):
            return (
                f"{at}: error: the saved action is seat {entry.seat}'s in deal {entry.deal}, "
                f"but here it is seat {seat}'s turn in deal {deal}"
            )
        try:
            self._guard(lambda: self._apply(seat, entry.action))
        except IllegalAction as e:
            return (
                f"{at}: error: deal {deal}: saved action {action_str(entry.action)} of seat "
                f"{seat} is illegal: {e.reason}"
            )
        if self.failure is not None and not self.failure.located:
            return f"{at}: error: {self.failure.message}"
        return None

    # -- internals -------------------------------------------------------------------------------
    def _apply(self, seat: int, action: int) -> None:
        m = self.match
        state, k = m.state, m.deal_index
        mine = state.view(seat)
        before, secret = len(mine.completed), phase_of(mine).private
        try:
            result = m.apply(action)  # IllegalAction: nothing changed
        except IllegalAction:
            raise
        except Exception as e:  # the deal finished, the next one cannot start: the finished one counts
            finished = getattr(e, "finished_deal", None)
            if finished is None:
                raise
            self._saved(k, seat, action)
            self._finished(finished)
            raise
        self._saved(k, seat, action)
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
            self.ended = state
            self._finished(result)
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

    def _saved(self, deal_index: int, seat: int, action: int) -> None:
        if self.on_action is not None:
            self.on_action(deal_index, seat, action)

    def _finished(self, result) -> None:
        self.results.append(result)
        if self.on_deal is not None:
            self.on_deal(result)
        self._broadcast(DealEnded(result.number, tuple(result.scores), tuple(result.totals), bool(result.ended_early)))

    def _begin_deal(self) -> None:
        m = self.match
        self.history = []
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
        if self.stopped:
            return
        self._send(seat, self.started[seat])
        for event in self.history:
            self._send(seat, event)

    def _ask(self) -> None:
        """Ask the remote seat on turn to act (bots are run by ``bot_turn``)."""
        if self.failure is not None or not self.live or self.paused:
            return
        seat = self.match.to_move()
        if seat in self.listeners:
            self._send(seat, turn(self.match.view(seat)))

    def ask_again(self, seat: int) -> None:
        """Repeat the request to act to ``seat`` if it is on turn (a timeout)."""
        if self.failure is None and seat == self.match.to_move():
            self._ask()
