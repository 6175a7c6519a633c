"""The state of one trick deal: legal actions, applying them, scores (OpenSpiel-style).

A trick deal is a list of phases (``phaselist.phase_list``): the phases before play its
contract has, each a ``phaseengine.PhaseEngine``, stepped in order by the stepper every deal
type shares (``phasesteps.PhaseSteps``), then card play (inline here, for speed). The deal never
asks which phase before play is deciding: it asks the engine."""

from __future__ import annotations

from typing import Callable, Container, Optional

from ..cards import BIT, FULL_DECK, SUIT_MASK, card_list, card_str, popcount
from ..i18n import R_
from . import matchvalues
from .actions import NO_TRUMP, IllegalAction, action_str, block_owner, is_bet
from .bidding import AuctionRound, bid_standing
from .catalogue import Deal
from .declarations import DeclarationsPart, declarations_part, settled_declared
from .doubling import BettingRound
from .envs import end_when_env, next_trick_env, play_env, seat_env, trick_env
from .exposure import ExposureRound
from .legality import Legality
from .passing import PassingPart
from .phaselist import phase_list
from .phases import Phase
from .phasesteps import PhaseSteps
from .scorebound import SCORE_LIMIT, check_deal, score_error
from .trickkernel import add_seat_scores, playout, winning_card
from .view import SeatView, shown_part

PLAY, DONE = Phase.PLAY, Phase.DONE
HEARTS = SUIT_MASK[1]
#: The (seat, card) entries of a trick, made once: playing a card allocates nothing.
PLAYS = tuple(tuple((seat, c) for c in range(52)) for seat in range(8))
#: What a deal state holds, as slots: a state's ~50 fields in an instance dict make every
#: attribute read of the stepping loop slower (CPython shares dict layouts only up to 30 keys).
SLOTS = (
    "contract",
    "memory",
    "players",
    "deck",
    "dealer",
    "direction",
    "dealt",
    "hands",
    "tricks_total",
    "trump",
    "caller",
    "scores",
    "taken",
    "tricks_won",
    "actions",
    "trick",
    "trick_no",
    "led",
    "played",
    "completed",
    "hearts_broken",
    "phase",
    "to_move",
    "ended_early",
    "number",
    "betting",
    "auction",
    "exposures",
    "bid",
    "bidder",
    "passes",
    "_passable",
    "win",
    "_next",
    "pass_offset",
    "declared",
    "declarations_made",
    "added",
    "steps",
    "_at",
    # set once play starts (``_start_play``, ``_compiled``, ``_at_trick``) and by the legality cache
    "leader",
    "_tables",
    "_values",
    "_trick_points",
    "_dynamic",
    "_kernel",
    "_legal",
    "_refresh",
    "_beats",
    "_early",
    "_seat_scorers",
    "_tenv",
    "_progs",
    "_watch",
    "_lhand",
    "_lmask",
    "_lc",
)


def _copier(names: tuple):
    """``copy(src, dst)``: the fields ``names`` of one state set on another, one statement
    each (written out once: a loop of ``setattr`` costs ten times more per field). The source
    is made of these identifiers, this module's own, and nothing else."""
    assert all(n.isidentifier() for n in names)
    source = "def copy(src, dst):\n" + "".join(f"    dst.{n} = src.{n}\n" for n in names)
    space: dict = {}
    exec(compile(source, "<trickstate.SLOTS>", "exec"), space)
    return space["copy"]


_copy_fields = _copier(SLOTS)  # every slot is always set (``_before_compiled``)


class TrickDeal(PhaseSteps, Deal):
    """One deal of a trick contract, from the trump call (if any) to the last trick."""

    __slots__ = SLOTS  # and a dict (``PhaseSteps``'): subclasses (a stock deal) keep their own fields there

    # the fields of play, set by ``_start_play``/``_compiled`` (None before: ``_before_compiled``)
    # and read only in play, after them
    leader: int  # the seat leading the first trick
    _tables: tuple  # (points by trick, (card mask, points by trick) pairs, dynamic scorers)
    _values: tuple  # per trick number: (points each card carries, whether winning it is good)
    _trick_points: list  # the static points of each trick number
    _dynamic: tuple  # the scorers evaluated trick by trick
    _kernel: Legality  # the legality kernel of this trump
    _legal: Callable[..., tuple]  # ``_kernel.legal``: (mask, card ids) of a hand in a position
    _refresh: Container[int]  # the trick numbers whose start may change the kernel's programs
    _beats: tuple  # per card winning a trick so far, the cards that beat it
    _early: bool  # whether the deal may end before its last trick
    _seat_scorers: tuple  # the contract's seat scorers
    _tenv: Optional[dict]  # the trick environment of dynamic scoring, made on its first use
    _progs: list  # the kernel's programs of the trick in progress
    _watch: int  # the cards whose play may change those programs

    def __init__(
        self,
        contract,
        players: int,
        deck: int,
        dealer: int,
        dealt: list,
        direction: int = 1,
        number: int = 1,
        memory: Optional[dict] = None,
    ):
        self.contract = contract
        self.memory = memory  # the match's memory of earlier deals (duties to double)
        self.players = players
        self.deck = deck
        self.dealer = dealer
        self.direction = direction
        self.dealt = [list(d) for d in dealt]  # cards per seat in the order dealt
        self.hands = [sum(1 << c for c in d) for d in dealt]
        self.tricks_total = len(self.dealt[0])
        self.trump = contract.trump  # (a phase may say it is not known yet: a trump call)
        self.caller = -1
        self.scores = [0] * players
        self.taken = [0] * players
        self.tricks_won = [0] * players
        self.actions: list[int] = []  # every action applied, in order
        self.trick: list = []  # (seat, card) of the trick in progress
        self.trick_no = 1
        self.led = -1
        self.played = 0  # mask of every card played so far
        self.completed: list = []  # (leader, [(seat, card)...], winner) of finished tricks
        self.hearts_broken = False
        self.phase = PLAY
        self.to_move = -1
        self.ended_early = False
        self.number = number
        self.betting: Optional[BettingRound] = None  # the doubling round, when the contract has one
        self.auction: Optional[AuctionRound] = None  # the auction, when the contract has one
        self.exposures: Optional[ExposureRound] = None  # the cards shown before play, when the contract has them
        self.added: Optional[list] = None  # [unit, state] of each phase added by a module, once one starts
        self.bid, self.bidder = 0, -1  # its outcome
        self.declared = [0] * players  # per seat, the points of its declarations (``declarations``)
        self.declarations_made: tuple = ()  # (seat, name, points, suit) of each declaration, public
        self.passes: list = [[] for _ in range(players)]  # cards each seat passes
        self._passable = [sorted(d) for d in dealt]  # per seat, the cards it may still pass
        self.win = -1  # the card winning the trick in progress
        self._lhand, self._lmask, self._lc = -1, 0, ()  # the hand on turn and its legal cards (mask, ids)
        self._next = tuple((s + direction) % players for s in range(players))
        self._before_compiled()
        self.pass_offset = 0  # how many seats on the cards are passed (0: no passing in this deal)
        self._begin_steps(phase_list(contract))  # the phases before play, in order

    def _before_compiled(self) -> None:
        """The fields ``_start_play`` and ``_compiled`` set, empty until then (every slot is
        always set, so ``clone`` copies them all at once)."""
        self.leader = -1
        # unset until play: every reader runs in play, after ``_compiled`` (no check on the stepping path)
        self._tables = self._values = self._trick_points = self._dynamic = self._kernel = self._legal = None  # type: ignore[assignment]
        self._refresh = self._beats = self._seat_scorers = self._progs = None  # type: ignore[assignment]
        self._tenv = None
        self._early, self._watch = False, 0

    # -- environment for expressions ----------------------------------------------------
    def _seat_env(self) -> dict:
        return seat_env(self.dealer, self.players, self.caller, self.hands, self.deck, self.bidder, self.bid)

    def _start_play(self) -> None:
        self.phase, self._at = PLAY, -1
        leader = self.contract.first_lead.seat(self._seat_env(), self.players)
        self.leader = leader
        self.to_move = leader
        self._compiled()

    def _compiled(self) -> None:
        """The contract's rules compiled for this deal's trump: scoring tables, the legality
        kernel and the current trick's programs (once the trump is known)."""
        (self._tables, self._values, k, self._refresh, self._beats, self._early, self._seat_scorers) = (
            self.contract.play_rules(self.tricks_total, self.trump, self.players, self.deck)
        )
        self._tenv = None  # the trick environment, made again for this trump
        self._trick_points, _, self._dynamic = self._tables
        self._kernel = k
        self._legal = k.legal  # (mask, card ids) of a hand in a position
        self._at_trick()
        self._lhand = -1

    def recompile(self) -> None:
        """The trump changed during play (a declaration): the rules compiled for the new one."""
        self._compiled()

    # -- queries ---------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase is DONE

    def current_player(self) -> int:
        return -1 if self.phase is DONE else self.to_move

    def call_view_cards(self) -> list[int]:
        """The cards the trump caller has seen when he must call."""
        return self.dealt[self.caller][: self.contract.call.after]

    def legal_actions(self) -> list[int]:
        if self.phase is PLAY:
            hand = self.hands[self.to_move]
            if hand != self._lhand:
                self._lmask, self._lc = self._legal(hand, self.led, self._progs, self.trick_no, self)
                self._lhand = hand
            return list(self._lc)
        if self.phase is DONE:
            return []
        if self._at >= 0:
            return self.steps[self._at].legal(self)
        return card_list(self.legal_mask())

    def play_env(self) -> dict:
        """The environment of play restrictions for the seat on turn."""
        return play_env(
            self.led,
            self.trump,
            self.win,
            self.trick_no,
            self.tricks_total,
            self.hearts_broken,
            self.hands[self.to_move],
            self.deck,
            self.played,
        )

    def legal_mask(self) -> int:
        """The legal cards as a mask (the legality kernel, ``legality.py``).

        The mask is kept for the position it was worked out in (until the next card is played,
        for the hand on turn), so ``legal_actions`` followed by ``apply_action`` works it out once."""
        hand = self.hands[self.to_move]
        if hand == self._lhand:
            return self._lmask
        if self.phase is not PLAY:
            return 0
        legal, self._lc = self._legal(hand, self.led, self._progs, self.trick_no, self)
        self._lhand, self._lmask = hand, legal
        return legal

    def why_illegal(self, action: int) -> Optional[str]:
        """None if the action is legal now, else the rule it breaks, in words."""
        if self.phase is DONE:
            return R_("the deal is over")
        if self.phase is not PLAY and self._at >= 0:
            return self.steps[self._at].reason(self, action)
        if not 0 <= action < 52:
            return R_("a card is expected")
        hand = self.hands[self.to_move]
        if not hand >> action & 1:
            return R_("{card} is not in the hand of seat {seat}").format(card=card_str(action), seat=self.to_move)
        reason = self._kernel.reason(hand, self.led, self._progs, self.trick_no, self, action)
        if reason is None and not (self.legal_mask() >> action & 1):
            return R_("no card is legal here")
        return reason

    def _winning_card(self) -> int:
        return self.win

    # -- applying actions ------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        if self.phase is PLAY:
            if self.hands[self.to_move] != self._lhand:
                self.legal_mask()
            if action in self._lc:
                return self.play_legal(action)
            raise IllegalAction(self.why_illegal(action) or "illegal card")
        if self.phase is DONE:
            raise IllegalAction("the deal is over")
        if self._at >= 0:
            self._decide(action)
            return
        if not (0 <= action < 52) or not (self.legal_mask() >> action & 1):
            raise IllegalAction(self.why_illegal(action) or "illegal card")
        self.play_legal(action)

    def play_legal(self, action: int) -> None:
        """Play a card known to be legal (taken from ``legal_mask``) without checking it again:
        for search rollouts, which pick among the legal cards themselves."""
        seat = self.to_move
        self.actions.append(action)
        self.hands[seat] ^= BIT[action]
        self._lhand = -1
        trick = self.trick
        if not trick:
            self.led = action // 13
            self.win = action
        elif action in self._beats[self.win]:
            self.win = action
        trick.append(PLAYS[seat][action])
        if len(trick) < self.players:
            self.to_move = self._next[seat]
            return
        self._finish_trick()

    def trick_value(self, plays, number: Optional[int] = None) -> tuple[int, int]:
        """(winner, points) of a complete trick ``plays`` = [(seat, card), ...] as trick ``number``.

        This is how the deal scores every trick it plays; bots and tests may ask it about
        hypothetical tricks too.
        """
        n = self.trick_no if number is None else number
        tm = 0
        for _, c in plays:
            tm |= 1 << c
        win_card = winning_card(tm, plays[0][1] // 13, self.trump, self.contract.order)
        winner = next(s for s, c in plays if c == win_card)
        return winner, self._points(tm, winner, plays[0][0], n)

    def _points(self, tm: int, winner: int, leader: int, n: int) -> int:
        """The points of trick ``n`` of the cards ``tm``, won by ``winner``."""
        trick_points, card_tables, dynamic = self._tables
        pts = trick_points[n]
        for m, table in card_tables:
            if tm & m:
                pts += popcount(tm & m) * table[n]
        if dynamic:
            pts += self._dynamic_points(dynamic, tm, winner, leader, n)
        return pts

    def _finish_trick(self) -> None:
        trick = self.trick
        win = self.win
        n = self.trick_no
        value = self._values[n][0]  # the static points of each card in this trick
        pts = self._trick_points[n]
        tm = 0
        for s, c in trick:
            tm |= BIT[c]
            pts += value[c]
            if c == win:
                winner = s
        leader = trick[0][0]
        if self._dynamic:
            pts += self._dynamic_points(self._dynamic, tm, winner, leader, n)
        score = self.scores[winner] = self.scores[winner] + pts
        if score > SCORE_LIMIT or score < -SCORE_LIMIT:
            raise score_error(self.contract, score)
        self.taken[winner] |= tm
        self.tricks_won[winner] += 1
        self.played |= tm
        if tm & HEARTS:
            self.hearts_broken = True
        self.completed.append((leader, trick, winner))
        self.trick = []
        self.led = self.win = -1
        self.trick_no = n = n + 1
        self.to_move = winner
        if n > self.tricks_total or (self._early and self._ends_early()):
            self._finish_deal()
            return
        if tm & self._watch or n in self._refresh:
            self._at_trick()

    def _at_trick(self) -> None:
        """The programs of the trick about to start, and the cards whose play may change them."""
        k = self._kernel
        self._progs = k.at(self.trick_no, self.hearts_broken, self.played)
        self._watch = k.watched(self.hearts_broken, self.played)

    def _dynamic_points(self, dynamic, tm: int, winner: int, leader: int, n: int) -> int:
        env = self._tenv  # one per deal and trump (``_compiled``): only the trick's names change
        if env is None:
            env = self._tenv = trick_env(
                n,
                self.tricks_total,
                leader,
                winner,
                tm,
                self.players,
                self.trump,
                self.dealer,
                self.caller,
                self.deck,
                self.bidder,
                self.bid,
            )
        next_trick_env(env, n, self.tricks_total, leader, winner, tm)
        total = 0
        for s in dynamic:
            if s.when is not None and not s.when.call(env):
                continue
            p = s.points.call(env)
            if s.cards is not None:  # the trick's environment holds every name of card scoring
                p *= popcount(tm & s.cards.mask(env))
            total += p
        return total

    def points_left(self) -> bool:
        """Whether any trick still to be played can change a score (for early stop)."""
        trick_points, card_tables, dynamic = self._tables
        if dynamic or any(s.kind == "seat" for s in self.contract.scorers):
            return True
        n = self.trick_no
        rest = FULL_DECK & ~self.played
        if any(trick_points[n : self.tricks_total + 1]):
            return True
        for m, table in card_tables:
            if m & rest and any(table[n : self.tricks_total + 1]):
                return True
        return False

    def _ends_early(self) -> bool:
        c = self.contract
        if c.early_stop and not self.points_left():
            return True
        if c.end_when is not None:
            return bool(
                c.end_when(
                    end_when_env(
                        self.trick_no - 1,
                        self.tricks_total,
                        self.points_left(),
                        self.deck,
                        sum(1 for h in self.hands if h),
                    )
                )
            )
        return False

    def _finish_deal(self) -> None:
        if self.trick_no <= self.tricks_total:
            self.ended_early = True
        self._settle_steps(self._seat_scores)  # the phases' changes around the seats' scoring
        check_deal(self.scores, self.contract)
        self.phase = DONE
        self.to_move = -1

    def _seat_scores(self) -> None:
        """The seats' scoring rules (``seat`` scorers) applied at the deal's end."""
        add_seat_scores(
            self.scores,
            self._seat_scorers,
            self.dealer,
            self.players,
            self.caller,
            self.trump,
            self.tricks_won,
            self.tricks_total,
            self.taken,
            self.deck,
            self.bidder,
            self.bid,
            self.declared,
            matchvalues.of(self.memory, self.players),
        )

    # -- results and views -----------------------------------------------------------------
    def returns(self) -> list[int]:
        return list(self.scores)

    def trump_letter(self) -> Optional[str]:
        return None if self.trump < 0 else "SHDC"[self.trump]

    def record_plays(self) -> list[str]:
        skip = sum(len(p) for p in self.passes)
        return [card_str(a) for a in self.actions[skip:] if a < 52]

    def record_bets(self) -> list[str]:
        return [action_str(a) for a in self.actions if is_bet(a)]

    def record_auction(self) -> list:
        """The auction's bids and passes as records write them ("bid:120", "pass")."""
        return self.auction.record() if self.auction is not None else []

    def record_passes(self) -> Optional[list]:
        return [[card_str(c) for c in p] for p in self.passes] if self.pass_offset else None

    def record_added(self) -> list:
        """The actions of the phases added by a module, in their notation (``face_down:KH``)."""
        return [action_str(a) for a in self.actions if block_owner(a) is not None] if self.added else []

    def position(self) -> tuple[int, int]:
        """(trick number, position in trick) of the next play, 1-based."""
        return self.trick_no, len(self.trick) + 1

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now: its own hand, public plays, trump, scores."""
        deciding = self._deciding()
        hand = self.hands[seat] if deciding is None else deciding.hand_seen(self, seat)  # as the phase shows it
        legal = self.legal_actions() if seat == self.current_player() else []
        return SeatView(
            seat=seat,
            contract=self.contract.name,
            phase=self.phase.value,
            hand=hand,
            legal=tuple(legal),
            trick=tuple(self.trick),
            led_suit=self.led,
            trump=self.trump,
            caller=self.caller,
            dealer=self.dealer,
            trick_number=self.trick_no,
            tricks_total=self.tricks_total,
            played=self.played,
            scores=tuple(self.scores),
            completed=tuple((lead, tuple(t), w) for lead, t, w in self.completed),
            players=self.players,
            hand_sizes=tuple(self._hand_sizes()),
            deck=self.deck,
            direction=self.direction,
            deal_number=self.number,
            ply=len(self.actions),
            parts=self._parts(seat),
        )

    def _parts(self, seat: int) -> tuple:
        """(phase name, part) of each phase of the deal that shows ``seat`` something, each built by
        its phase: the exchange of passed cards, the auction, the bets, the exposures, the
        declarations, then each added phase's (its unit's ``engine_view``)."""
        parts: list = []
        if self.pass_offset:
            parts.append(("pass", self._passed(seat)))
        if self.auction is not None:
            parts.append(("auction", self.auction.part()))
        if self.betting is not None:
            parts.append(("double", self.betting.part()))
        if self.exposures is not None:
            parts.append(("expose", self.exposures.part()))
        if self.contract.declarations:
            parts.append(("declarations", declarations_part(self)))
        if self.added:
            parts += [(u.name, u.engine_view(st, self, seat)) for u, st in self.added if st is not None]
        return tuple(parts)

    def _passed(self, seat: int) -> "PassingPart":
        """What ``seat`` knows of the exchange once it is done: the cards it passed and to whom,
        and the cards it received (nothing while cards are still being passed)."""
        deciding = self._deciding()
        if deciding is not None and deciding.hides_passes:
            return PassingPart((), -1, ())
        step = self.direction * self.pass_offset
        return PassingPart(
            tuple(self.passes[seat]), (seat + step) % self.players, tuple(self.passes[(seat - step) % self.players])
        )

    def _deciding(self):
        """The engine of the phase before play deciding now (None: in play, or the deal is over)."""
        if self._at < 0:
            return None
        engine = self.steps[self._at]
        return engine if engine.phase == self.phase else None

    def _hand_sizes(self) -> list:
        return [h.bit_count() for h in self.hands]

    def current_deal(self):
        """The deal being played: this one (a declarer's choice hands on to the chosen deal)."""
        return self

    def playout(self, rng) -> None:
        """Play the deal out quickly for search (a rule of thumb read from the scoring)."""
        playout(self, rng)

    def clone(self) -> "TrickDeal":
        """An independent copy (for search): lists are copied, compiled rules shared."""
        other = object.__new__(type(self))
        _copy_fields(self, other)
        other.__dict__.update(self.__dict__)
        other.hands = list(self.hands)
        other.scores = list(self.scores)
        other.taken = list(self.taken)
        other.tricks_won = list(self.tricks_won)
        other.declared = list(self.declared)
        other.actions = list(self.actions)
        other.trick = list(self.trick)
        other.completed = list(self.completed)
        if self.added is not None:
            other.added = [list(entry) for entry in self.added]
        self._copy_steps(other)
        return other

    @classmethod
    def from_view(cls, contract, view: SeatView, hands: list) -> "TrickDeal":
        """A state of ``contract`` rebuilt from a seat's view and assumed hands: each phase before
        play set as the view tells it; in the phase the view is in when that phase goes on
        deciding (``PhaseEngine.resume``: the auction as it stands, the trump call, a widow's
        exchange), else in play."""
        st = object.__new__(cls)
        c = contract
        st.contract = c
        st.memory = None
        st.players = view.players
        st.deck = view.deck
        st.dealer = view.dealer
        st.direction = view.direction
        st.hands = list(hands)
        st.tricks_total = view.tricks_total
        st.trump = view.trump
        st.caller = view.caller
        st.scores = list(view.scores)
        st.taken = [0] * view.players
        st.tricks_won = [0] * view.players
        for _, plays, w in view.completed:
            for _, card in plays:
                st.taken[w] |= 1 << card
            st.tricks_won[w] += 1
        st.actions = []
        st.trick = list(view.trick)
        st.trick_no = view.trick_number
        st.led = view.led_suit
        st.played = view.played
        st.completed = [(lead, list(t), w) for lead, t, w in view.completed]
        st.hearts_broken = bool(view.played & SUIT_MASK[1])
        st.phase = PLAY
        st.to_move = view.seat
        st.ended_early = False
        st.number = view.deal_number
        st.passes = [[] for _ in range(view.players)]
        st._passable = [[] for _ in range(view.players)]
        st.win = (
            winning_card(sum(1 << c for _, c in view.trick), view.led_suit, view.trump, c.order) if view.trick else -1
        )
        st._next = tuple((s + view.direction) % view.players for s in range(view.players))
        st.pass_offset = 0
        st.bid, st.bidder = bid_standing(view)
        st.declarations_made = shown_part(view, DeclarationsPart).declarations
        st.declared = settled_declared(st.declarations_made, view.players)
        st.betting = st.auction = st.exposures = st.added = None
        st.dealt = [[] for _ in range(view.players)]
        st._lmask, st._lc = 0, ()
        st.leader = view.trick[0][0] if view.trick else view.seat
        st.steps, st._at = phase_list(c), -1
        st._compiled()
        st._resume_steps(view)
        return st


__all__ = ["TrickDeal", "NO_TRUMP"]
