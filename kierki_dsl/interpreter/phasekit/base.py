"""What every phase module declares, and the defaults most phases share.

A phase module (``passing.py``, ``bidding.py``, ...) defines one ``PhaseUnit`` subclass and an
instance of it named ``UNIT``. The unit says, in one place, everything a front end needs to
show the phase and to take a person's decision in it:

- ``name``: the phase (a ``Phase`` value of the interpreter, or ``layout`` for layout play);
  ``part_type``: the class of its part of the seat view (``fields``: its fields' names); ``expected`` and ``task``: what the seat on turn
  is asked for, in words;
- ``owns(action)``: the actions it numbers; ``label(view, action)``: the label a person reads
  (``120``, ``pass``, ``expose K♥``, ``trumps: hearts``);
- ``read(view, text)``: the words a person may type, read as an action (``NotUnderstood``
  with a hint for anything else); ``choices(view)`` the legal actions in the order a menu
  lists them; ``menu``, ``advice`` and ``prompt``: the terminal's lines for the decision;
  ``refusal``: how a refused action is told, with the rule's reason;
- ``panel(view)``: its named part of the seat view as plain rows (``{"label", "text"}``) that
  any front end shows as they are — the standing bid, the widow, the cards received...

Front ends never ask which phase is playing: they call the registry (``kierki_dsl.phases``),
which finds the unit for a view.
"""

from __future__ import annotations

import functools
from typing import Optional

import attrs

from ...cards import card_pretty
from ...diagnostics import quoted
from ...i18n import N_, tr
from ...words import seat_name


class NotUnderstood(ValueError):
    """Typed text that names no action of the phase; the message says what may be typed."""


def row(label: str, text: str) -> dict:
    """One line of a panel: ``label: text`` (a front end shows the label apart, or not at all when empty)."""
    return {"label": label, "text": text}


def cards_text(cards) -> str:
    """``K♥ 10♠`` for card ids."""
    return " ".join(card_pretty(c) for c in cards)


def seat(view, s: int) -> str:
    """A seat's name at the view's table (``N``, ``P2``)."""
    return seat_name(s, view.players)


def contract_of(rules, name: str):
    """The compiled contract ``name`` of ``rules`` (None without rules, or for a schedule slot)."""
    return rules.contracts.get(name) if rules is not None else None


def contract_name(c) -> str:
    """A contract's short name as a person reads it: its Polish name, or its English one where the
    ruleset gives no Polish name (Barbu's ``No tricks``, never the key ``no_tricks``)."""
    return c.en if c.en and c.pl == c.name else (c.pl or c.name)


class PhaseUnit:
    """A phase: its actions, words and part of the view. Subclasses override what differs."""

    name = ""
    expected = ""
    task = ""
    prompt_word = N_("choice")
    #: False while the contract is not known yet (a declarer's choice): no contract lines, no rank order.
    contract_known = True
    #: True: a number typed picks from the numbered menu of ``choices``.
    numbered = True
    #: A number typed that is not on the menu ({typed}, {span}: ``1 to 5``).
    off_list = N_("{typed} is not on the list: the choices are numbered {span}")
    hint = N_("Type a number from the list.")

    def matches(self, view) -> bool:
        """Whether this phase is the one deciding in ``view`` (False for a phase with no decisions)."""
        return view.phase == self.name

    # -- actions ---------------------------------------------------------------------------------
    def owns(self, action: int) -> bool:
        """Whether this phase numbers ``action``."""
        return False

    def label(self, view, action: int, rules=None) -> str:
        """The label a person reads for ``action``."""
        from ..actions import action_str  # (the action table is assembled from the phases' modules)

        return action_str(action)

    def choices(self, view, rules=None) -> list:
        """The legal actions in the order a menu lists them."""
        return list(view.legal)

    def read(self, view, text: str, rules=None) -> int:
        """The action typed ``text`` names (legal or not); ``NotUnderstood`` when it names none."""
        t = " ".join(text.strip().lower().split())
        options = self.choices(view, rules)
        if self.numbered and t.isdecimal() and len(t) <= 6:
            k = int(t)
            if 1 <= k <= len(options):
                return options[k - 1]
            span = "1" if len(options) == 1 else tr("1 to {count}").format(count=len(options))
            raise NotUnderstood(tr(self.off_list).format(typed=t, span=span))
        action = self.word(view, t, rules)
        if action is None:
            raise NotUnderstood(tr(self.hint))
        return action

    def word(self, view, text: str, rules=None) -> Optional[int]:
        """The action a typed word (lower case, single spaces) names, or None. By default: a label of a legal action."""
        for a in view.legal:
            if text == self.label(view, a, rules).lower():
                return a
        return None

    def default(self, view) -> Optional[int]:
        """The action Enter takes (None: Enter asks again)."""
        return None

    def forced(self, view) -> Optional[tuple]:
        """``(action, words)`` when the seat has no choice worth asking (said, then taken), else None."""
        return None

    # -- words for the terminal ------------------------------------------------------------------
    def advice(self, view, rules=None) -> list:
        """Lines explaining the decision (shown before the menu; the browser shows them too)."""
        return []

    def menu(self, view, rules=None) -> list:
        """The numbered choices, as lines."""
        return [
            tr("Choices: ")
            + "  ".join(f"{i}) {self.label(view, a, rules)}" for i, a in enumerate(self.choices(view, rules), start=1))
        ]

    def prompt(self, view, rules=None) -> str:
        """The word before ``>`` at the terminal prompt."""
        return tr(self.prompt_word)

    def refusal(self, view, text: str, action: int, reason: Optional[str], rules=None) -> str:
        """How a refused action is told (``reason``: the rule it breaks, None if unknown)."""
        return tr("{typed} is not allowed: {reason}").format(typed=text, reason=reason or tr("not allowed now"))

    # -- the view --------------------------------------------------------------------------------
    #: The class of its part of the seat view (a ``@frozen`` class declared by the phase's module,
    #: built by the phase from the deal state), or None: it shows nothing of its own.
    part_type: Optional[type] = None

    @property
    def fields(self) -> tuple:
        """The names of its part's fields (the flat view's names it answers for)."""
        return tuple(f.name for f in attrs.fields(self.part_type)) if self.part_type is not None else ()

    def part(self, view):
        """Its part of ``view`` (None: the deal has no such phase)."""
        return view.part(self.name)

    def panel(self, view, rules=None) -> list:
        """This phase's part of the view as rows to show (empty: nothing to show now)."""
        return []

    def news(self, view, last) -> list:
        """Lines on what happened since ``last`` (this seat's previous view in this phase)."""
        return []

    def previous(self, view) -> str:
        """The previous trick in words (the terminal's ``last``)."""
        return tr("No trick has been finished yet in this deal.")

    # -- web hooks: what the browser marks -------------------------------------------------------
    def task_of(self, view) -> str:
        """What the seat on turn is asked to do, as the browser's status says it ("Your turn: ...");
        untranslated (a ``N_`` message id). By default the phase's ``task``."""
        return self.task

    def winning(self, view, rules=None) -> Optional[int]:
        """The card winning the trick in progress so far (the browser marks it), or None."""
        return None

    def final_trick(self, view, plays: list, contract) -> Optional[str]:
        """The last trick of a deal in words, from this seat's last view and the deal's plays."""
        return None

    # -- bot hooks ---------------------------------------------------------------------------------
    # What a bot asks of the phase deciding (players/heuristic.py, players/search.py, players/base.py)
    # and what a session asks of it (table/core.py, net/server.py): no player or front end names a
    # phase. The defaults are those of a phase whose decisions the players make themselves.

    #: True: the phase's actions are known to the seat that made them only (a card passed, a card a
    #: widow's taker gives or lays aside); a session tells the other seats nothing of them.
    private = False
    #: True: the phase is the deal's card play (to tricks or to a layout): a player that plays
    #: cards only (IS-MCTS through OpenSpiel) decides it and leaves the other phases to its fallback.
    card_play = False
    #: True: the search player weighs every legal action by playing it out on sampled deals (see
    #: ``search_candidates``); False: the phase's ``bot_action`` decides for it.
    searched = False

    def bot_action(self, view, rules) -> Optional[int]:
        """The heuristic player's action in this phase (``rules``: the match's compiled ruleset), or
        None: the phase leaves the decision to the player (card play in a trick)."""
        return None

    def bot_stream(self, key: int) -> int:
        """The key of a bot's random stream for a decision of this phase, from the decision's own
        key (a phase may set its decisions' streams apart from those of the deal that follows it)."""
        return key

    def search_candidates(self, view) -> Optional[list]:
        """The actions the search player plays out on sampled deals and compares, or None: the
        phase is not searched (the heuristic's ``bot_action`` decides)."""
        return list(view.legal) if self.searched else None

    def search_try(self, state, view, action: int) -> None:
        """Take ``action`` on ``state``, a deal sampled from ``view`` (every hand assumed), before
        the search player plays it out."""
        state.apply_action(action)

    def search_tie(self, action: int):
        """Among candidates of the same average score, the one with the highest key is taken (by
        default the lowest action)."""
        return -action

    def rollout_action(self, state) -> Optional[int]:
        """The action a search rollout takes in this phase before card play, every hand known
        (``state``: a deal state in this phase), or None: the rollout plays the deal out from here."""
        return None

    def plain_tricks(self, view) -> bool:
        """Whether ``view``, a deal's first decision, starts plain trick play: cards only, with no
        passing, auction, call, bets, exposures, stock or layout (what the SIK protocol carries)."""
        return False

    # engine hooks --------------------------------------------------------------------------------
    # A phase that changes play declares them (``interpreter/extensions.py``); the defaults do
    # nothing, so a phase without ``schema_key`` is shown by the front ends and never played.

    #: The trick contract's key that brings this phase into a deal ("" : not a phase of play).
    schema_key = ""
    #: Its part of the ruleset format (a ``spec.schema.Field``), checked like every key.
    schema = None
    #: How many action numbers it needs; ``action_base`` is the first of its block, handed out
    #: at registration (``actions.reserve``), never chosen by the module.
    action_width = 0
    action_base = -1
    #: The deal's phase while this one decides (``interpreter.phases.Added``: its name), set at registration.
    phase = None
    #: (``private``, in the bot hooks above, says whether its actions are known to the seat that
    #: made them only: the session, the record's readers and the adapters then tell the others
    #: that the seat acted, not what it did.)
    #: Its lint codes: code -> (title, explanation) (``kierki lint --explain`` shows them).
    lint_codes: dict = {}

    def build_rule(self, value, ctx, where: tuple) -> tuple:
        """(the compiled rule, whether it compiled) of the contract's value under ``schema_key``
        (``ctx.error(where, code, message)`` reports a located finding)."""
        return value, True

    def check_rule(self, contract, rule, where: tuple, bctx) -> None:
        """Lint's findings on a compiled contract using the phase (warnings, ``lint_codes``)."""

    def notation(self, action: int) -> str:
        """An action of its block in the record notation (``name:...``; ``read_notation`` reads it)."""
        return f"{self.name}:{action - self.action_base}"

    def read_notation(self, text: str) -> Optional[int]:
        """The action ``notation`` wrote, or None when ``text`` is not this phase's."""
        head, _, tail = text.strip().lower().partition(":")
        if head != self.name or not tail.isdecimal() or len(tail) > 4 or int(tail) >= self.action_width:
            return None
        return self.action_base + int(tail)

    def engine_start(self, rule, deal):
        """The phase's state in a deal about to be played (after the doubling round and exposures,
        before the first card); None: nothing to decide in this deal. ``deal`` is the
        ``TrickDeal``: its ``hands``, ``players``, ``dealer``, ``direction``, ``tricks_total``."""
        return None

    def engine_seat(self, state) -> int:
        """The seat on turn (-1: the phase is over; play starts)."""
        return -1

    def engine_legal(self, state, deal) -> list:
        """The legal actions of the seat on turn, in ascending order."""
        return []

    def engine_reason(self, state, deal, action: int) -> Optional[str]:
        """None if ``action`` is legal now, else the rule it breaks, in words."""
        return None if action in self.engine_legal(state, deal) else self.expected

    def engine_apply(self, state, deal, action: int) -> None:
        """Apply a legal action (the deal has recorded it in ``deal.actions``)."""

    def engine_view(self, state, deal, seat: int) -> tuple:
        """Its part of ``seat``'s view, plain ints, strings and tuples (``SeatView.parts``): only
        what that seat may see."""
        return ()

    def engine_settle(self, state, deal) -> None:
        """At the deal's end, before the seats' scoring: what the phase changes in ``deal.scores``,
        ``deal.taken`` (``deal.completed`` holds the tricks)."""

    def engine_copy(self, state):
        """An independent copy of the state (search clones deals)."""
        return state

    def engine_from_view(self, rule, view):
        """The state as far as a seat's view tells it (search rebuilds deals from views); None:
        the rebuilt deal plays as if the phase had not been."""
        return None

    def cards_laid(self, rule) -> int:
        """How many cards each hand loses to the phase before play (one trick fewer for each)."""
        return 0

    def total_change(self, contract, rule, players: int) -> Optional[int]:
        """What the phase adds to the sum of a deal's points, if the rules fix it (lint's M601,
        ``kierki explain``'s total); None: not fixed."""
        return None

    def explain(self, rule) -> dict:
        """The phase in words for ``kierki explain``: aspect -> sentence."""
        return {}

    def view_reason(self, view, action: int, rule) -> Optional[str]:
        """Why ``action`` is illegal, from a view in this phase (None: list the legal actions)."""
        return None

    # record hooks ----------------------------------------------------------------------------
    # How the phase's actions stand in a game record (``kierki-record/1``): ``record.py`` writes a
    # deal's sections and replays them by asking the phase deciding, never by naming one. The
    # defaults are those of a phase that writes nothing of its own; a phase added by a module
    # (``schema_key``) writes its actions under ``added``.

    #: The key of a deal's record that holds the phase's actions ("": none). Phases may share a
    #: key: the doubling round, exposures and a layout's named rank all write ``bets``, one list in
    #: the order the actions were taken.
    record_key = ""  # (a phase added by a module: "added", unless it names its own; set at registration)
    #: Where its section stands among a deal's keys when a record is written (records keep the
    #: order they always had: passes, bets, auction, exchange, added).
    record_rank = 0
    #: True: a violation in its section is located by trick (or turn) as well as by seat.
    record_by_trick = False

    def record_section(self, result) -> Optional[list]:
        """Its section of the record of a played deal (``result``: an ``interpreter.match.DealResult``);
        None or empty: nothing to write."""
        return list(result.added) if self.schema_key else None

    def record_lanes(self, section, players: int) -> tuple:
        """``(lanes, problem)``: the section as read from a record, as lists of entries taken in
        turn, by lane (``record_lane``); ``problem``: what is wrong, in words, when it is not of
        the phase's shape (then ``lanes`` is None). A missing section is an empty one."""
        if section is None:
            return {None: []}, None
        if not isinstance(section, list):
            return None, f"'{self.record_key}' must be a list of actions such as {self.record_example}"
        return {None: section}, None

    #: An example of the section, for a record that gives something else.
    record_example = '["face_down:KH"]'

    def record_lane(self, seat: int):
        """The lane the seat on turn takes its next entry from (by default one lane for every seat)."""
        return None

    #: The words of a record's violations in its section, as templates: ``{key}``, ``{name}`` (the
    #: phase), ``{entry}`` (an entry, quoted), ``{seat}``, ``{count}`` (the entries of the seat's
    #: lane), ``{taken}`` (those applied), ``{deal}`` (its number), ``{contract}``. ``record_error``
    #: prefixes an entry that names no action; ``record_shown_text`` names one that is illegal.
    record_error = "{key}: "
    record_shown_text = "{entry}"
    record_short_text = "the record's '{key}' ends before the phase {name} is over"
    record_extra_text = "the phase {name} is over but the record's '{key}' has more: {entry}"
    record_absent_text = "the record has '{key}' but deal {deal} ({contract}) has no phase {name}"

    def record_words(self, template: str, **values) -> str:
        """One of the phase's record templates filled in."""
        return template.format(key=self.record_key, name=self.name, **values)

    def record_action(self, entry) -> int:
        """The action a recorded entry names; ``ValueError`` saying why when it names none of the phase's."""
        from ..actions import parse_action  # (the action table is assembled from the phases' modules)

        try:
            return parse_action(str(entry))
        except ValueError as e:
            raise ValueError(self.record_words(self.record_error) + str(e)) from None

    def record_shown(self, entry) -> str:
        """A recorded entry as a violation names it (``bid bid:120``)."""
        return self.record_words(self.record_shown_text, entry=entry)

    def record_short(self, deal, seat: int, entries: list) -> str:
        """What is wrong when the seat's lane of the section ends while the phase still decides
        (``deal``: the deal state being replayed)."""
        return self.record_words(self.record_short_text, seat=seat, count=len(entries))

    def record_extra(self, entries: list, taken: int) -> str:
        """What is wrong when the phase is over (or the deal) and a lane still has entries."""
        return self.record_words(self.record_extra_text, entry=quoted(entries[taken]), count=len(entries), taken=taken)

    def record_absent(self, section, contract: str, number: int) -> Optional[str]:
        """What is wrong when a record gives the section but deal ``number`` (of ``contract``) never
        came to the phase; None: nothing (an empty section, or one that needs no phase)."""
        if not section:
            return None
        return self.record_words(self.record_absent_text, deal=number, contract=contract, count=len(section), taken=0)

    # adapter hooks ---------------------------------------------------------------------------
    # What the OpenSpiel/PettingZoo adapters (``adapters/``) ask of the phase an action was taken
    # in; the defaults are those of a public action (a card played, a bid, a double).

    #: The seat's actions are cards only it sees (a pass): a resampled world draws them anew.
    drawn_in_worlds = False
    #: A card of this phase may be forced in a resampled world whose drawn hands break a rule.
    forced_in_worlds = False

    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        """The events ``seat`` taking ``action`` writes, ``(who may see it, None: every seat; text)``,
        read from ``deal`` just after the action (``dealt``: the cards each seat was dealt). A
        ``private`` phase's action is told to its seat; the others learn only that it acted."""
        if self.private:
            return [(seat, said(seat, action)), (None, f"p{seat} acts")]
        return [(None, said(seat, action))]

    def puts_out(self, action: int) -> bool:
        """Whether ``action`` lays a card out of the play that only its seat (and a receiver) sees."""
        return False

    def dealt_seen(self, hand: int, dealt) -> list:
        """The cards of ``dealt`` (the seat's dealing) the seat has seen in this phase (``hand``: its view's hand)."""
        return list(dealt)

    def unseen_draw(self, contract, mine: list) -> Optional[tuple]:
        """Before any card is played: ``(cards of its dealing the seat has seen, how many it is dealt or
        None)`` when the other hands may be drawn from every other card; None to draw from the play."""
        return None

    def own_cards(self, deal, log: list, seat: int) -> tuple:
        """``(cards the seat gave in this phase, cards it received)`` as masks, from the deal's ``log``
        of ``(seat, action)`` (the seat's own knowledge)."""
        return 0, 0

    def observation_lines(self, view) -> list:
        """This phase's lines of the adapters' observation string (empty: nothing to add)."""
        return []

    def action_end(self, contract) -> int:
        """One past the highest action number the phase may take in a deal of ``contract`` (0: none
        above the numbers every deal may take); OpenSpiel's ``num_actions`` is the largest."""
        return 0

    def most_decisions(self, contract, players: int, cards: int) -> int:
        """The most decisions the phase adds to a deal of ``contract`` beyond those every deal is
        bounded for (plays, passes, a call, a choice, the doubling round): OpenSpiel's longest game."""
        return 0

    # bot hooks (the search player's sampler) ---------------------------------------------------

    def out_of_hands(self, view) -> int:
        """The cards ``view`` shows lying out of every hand because of the phase (a face-up widow
        not yet taken, the cards this seat laid aside), as a mask: the search player's sampler
        deals them to nobody."""
        return 0

    def out_unseen(self, view) -> int:
        """How many cards the phase keeps out of every hand where this seat cannot see them (a
        stock, a face-down widow, another seat's discards): the sampler's place for no seat
        holds at least as many."""
        return 0

    def voids_undone(self, view) -> list:
        """The seats whose shown voids the phase may have undone (a seat that drew cards from a
        stock after showing out of a suit): the sampler may deal them any suit."""
        return []

    # adapter hooks (the seat view's parts) ------------------------------------------------------
    #: A deal with this phase is resampled from the seat's view, never by replaying the dealing
    #: (a stock's draws interleave its order with every hand).
    rebuilt_in_worlds = False

    def shown_held(self, view) -> list:
        """``(seat, card)`` of the cards this phase's part shows another seat holds (until it plays
        them: a card exposed, a card this seat passed, a card a widow's taker gave away): a
        resampled world and the search player's sampler leave them in that seat's hand."""
        return []

    def tensor_marks(self, view) -> list:
        """``(piece, index, value)`` of what this phase's part writes into the adapters' observation
        tensor (``adapters/knowledge.pieces``)."""
        return []


@functools.lru_cache(maxsize=4096)
def said(seat: int, action: int) -> str:
    """The public event of ``seat`` taking ``action`` (made once per seat and action)."""
    from ..actions import action_str  # (the action table is assembled from the phases' modules)

    return f"p{seat} {action_str(action)}"
