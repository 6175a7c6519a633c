"""Declarer's choice: a schedule slot where a seat picks the contract (Barbu, Trix).

``{choose: {by: dealer, from: [a, b, c], once_each: true}, repeat: 12}`` makes twelve deals
in each of which the chooser, after seeing his hand, names one of the contracts; with
``once_each`` a chooser may name each contract only once in a match; with ``once_in_match``
each contract is named only once in the match, whoever chooses.

The phase ``choose`` is this one module: its rule (``Choice``), action numbers and notation, its
part of the seat view, its lint codes, its engine and deal, and its unit. A declarer's-choice deal
is a list of one phase before play, the choice (``ChooseEngine``), stepped as every deal type steps
its list (``phasesteps.PhaseSteps``); its play is the chosen contract's deal, to which it hands on.
Its unit (``DeclarersChoice``, ``UNIT``) says what a person and a bot see of it: the options'
labels and typed words, the menu, the bot's pick.
"""

from __future__ import annotations

from typing import Any, Optional

from ..codes import HEAD, Code, table
from ..expr import Compiled
from ..i18n import L_, N_, R_, tr
from ..spec.schema import Bool, Expr, Field, List, Obj, Str
from ..values import frozen
from ..words import choice_words
from .catalogue import Deal
from .envs import NOBODY, seat_env
from .numbering import Block
from .phaseengine import PhaseEngine
from .phasekit.base import PhaseUnit, contract_name, contract_of
from .phasekit.botplay import bot_contract, high_cards
from .phases import EXPECTED, Phase
from .phasesteps import PhaseList, PhaseSteps
from .view import SeatView, shown_part, view_part

# its action numbers: the option chosen (``actions`` assembles every phase's)
CHOICES = Block("choose", 100, 400, "choose option base + i of a declarer's choice (at most 32 are offered)")
NUMBERS = (CHOICES,)
CHOOSE_BASE = CHOICES.base
CHOOSE_END = CHOICES.end


#: Its part of the format: a schedule entry's ``choose``.
CHOOSE = Obj(
    {
        "by": Field(Expr("seat"), N_("who chooses, e.g. dealer"), required=True),
        "from": Field(
            List(Str(r"[a-z][a-z0-9_]*"), min_items=1, max_items=32, unique=True),
            N_("the contracts to choose from"),
            required=True,
        ),
        "once_each": Field(Bool(), "each chooser names each contract only once in a match", default=True),
        "once_in_match": Field(
            Bool(),
            "each contract is named only once in the whole match, whoever chooses "
            "(Kierki with the negative deals in the dealers' order, V24)",
            default=False,
        ),
    },
    title="choose",
    doc="Declarer's choice: the chooser names the contract after seeing his hand.",
)


def is_choice(action: int) -> bool:
    """A declarer's choice of contract (``CHOOSE_BASE + i``)."""
    return CHOICES.holds(action)


def notation(action: int) -> str:
    """A choice in the record notation: ``choose:3`` (the option's place in the offer)."""
    return f"choose:{action - CHOOSE_BASE}"


def read_notation(text: str) -> Optional[int]:
    """The choice ``notation`` wrote, or None."""
    low = text.strip().lower()
    if low.startswith("choose:") and low[7:].isdecimal() and len(low) <= 10 and int(low[7:]) < CHOOSE_END - CHOOSE_BASE:
        return CHOOSE_BASE + int(low[7:])
    return None


@view_part("choose")
@frozen
class ChoicePart:
    """The declarer's choice's part of a seat view."""

    options: tuple  # the names of the contracts on offer, action ``CHOOSE_BASE + i`` naming ``options[i]``


@frozen(eq=False)
class Choice:
    """A schedule slot whose contract the chooser names."""

    by: Compiled  # compiled seat expression
    options: tuple  # compiled contracts
    once_each: bool
    by_text: str = "dealer"
    name: str = "choice"
    type: str = "choice"
    pl: str = "Wybór rozgrywającego"
    en: str = "declarer's choice"
    once_in_match: bool = False
    total = None

    def steps(self) -> PhaseList:
        """The list of the phases before play of a deal of this slot: the choice."""
        return PhaseList((ChooseEngine(self),))

    def chooser(self, dealer: int, players: int, hands, deck: int) -> int:
        """The seat that names the contract, given the dealt ``hands`` (masks)."""
        return self.by.seat(seat_env(dealer, players, NOBODY, hands, deck), players)

    def new_deal(
        self,
        players: int,
        deck: int,
        dealer: int,
        dealt: list,
        direction: int = 1,
        number: int = 1,
        memory: Optional[dict] = None,
    ) -> "ChoiceDeal":
        """A deal whose first decision is the chooser's (``memory``: the match's choices so far)."""
        return ChoiceDeal(self, players, deck, dealer, dealt, direction, number, {} if memory is None else memory)

    def resolve(self, dealer: int, players: int, hands, deck: int, chosen: dict, pick):
        """The contract this slot plays in a deal: ``pick(chooser, allowed)`` names the index of
        an allowed option (a player's decision, a record, a random draw); ``chosen`` is the
        match's memory of what each chooser named (updated here)."""
        from .match import MatchError

        chooser = self.chooser(dealer, players, hands, deck)
        allowed = self.allowed(chooser, chosen)
        if not allowed:
            raise MatchError(f"seat {chooser} has no contract left to choose")
        index = pick(chooser, allowed)
        if index not in allowed:
            raise MatchError(
                f"seat {chooser} chose an option that is not allowed "
                f"({self.options[index].name if 0 <= index < len(self.options) else index})"
            )
        record_choice(chosen, self, chooser, self.options[index])
        return self.options[index]

    @property
    def offered(self) -> tuple:
        """The contracts on offer (``kierki explain`` lists their rules after the schedule)."""
        return self.options

    def title(self) -> str:
        return self.en

    def words(self, rs) -> dict:
        """The slot in words: who chooses among what."""
        return {"choice": choice_words(self)}

    def block_total(self, count: int, cut: bool, computed: dict, players: int):
        """The fixed sum of ``count`` deals of this slot in a row: when every chooser names every
        option once (a whole block, not cut by the range asked), players × the options' totals;
        with ``once_in_match``, when the block names every option once, their totals."""
        opts: list = [computed.get(o.name) for o in self.options]  # each option's fixed total or None
        once = 1 if self.once_in_match else players  # how many times each option is played
        if cut or not (self.once_each or self.once_in_match) or None in opts or count != once * len(opts):
            return None
        return once * sum(opts)

    def check_count(self, count: int, players: int, bctx, most_by_dealer: int = 0) -> None:
        """M613: more deals of this slot than its choosers may fill, each option once; with the
        dealer choosing, more of them dealt by one seat (``most_by_dealer``) than it has options."""
        if self.once_in_match:
            if count > len(self.options):
                bctx.error(
                    ("match", "schedule"),
                    "M613",
                    L_(
                        "{count} declarer's-choice deals but {n_options} contracts, each once in the match",
                        count=count,
                        n_options=len(self.options),
                    ),
                )
        elif self.once_each and count > players * len(self.options):
            bctx.error(
                ("match", "schedule"),
                "M613",
                L_(
                    "{count} declarer's-choice deals but {players} choosers × {n_options} contracts, each once, allow only {most}",
                    count=count,
                    players=players,
                    n_options=len(self.options),
                    most=players * len(self.options),
                ),
            )
        elif self.once_each and self.by_text == "dealer" and most_by_dealer > len(self.options):
            bctx.error(
                ("match", "schedule"),
                "M613",
                L_(
                    "a dealer deals {most_by_dealer} declarer's-choice deals but has {n_options} contracts to choose from, each once: he would have none left",
                    most_by_dealer=most_by_dealer,
                    n_options=len(self.options),
                ),
                L_("make match.deals_per_dealer and the number of contracts agree"),
            )

    def allowed(self, chooser: int, chosen: dict) -> list[int]:
        """Indices of the options this chooser may still name."""
        used = chosen.get(self.memory_key(chooser), set()) if self.once_each or self.once_in_match else set()
        return [i for i, c in enumerate(self.options) if c.name not in used]

    def memory_key(self, chooser: int) -> tuple:
        """Where the match remembers this slot's choices: per chooser, or one set for the match."""
        return (id(self), None if self.once_in_match else chooser)

    def view(
        self,
        seat: int,
        hand: int,
        dealer: int,
        players: int,
        legal: list,
        scores,
        number: int = 0,
        deck: int = 0,
        direction: int = 1,
        hand_sizes: tuple = (),
    ) -> SeatView:
        """What ``seat`` sees while the chooser names the contract of deal ``number``."""
        return SeatView(
            seat=seat,
            contract=self.name,
            phase=Phase.CHOOSE.value,
            hand=hand,
            legal=tuple(CHOOSE_BASE + i for i in legal),
            trick=(),
            led_suit=-1,
            trump=-1,
            caller=-1,
            dealer=dealer,
            trick_number=0,
            tricks_total=hand.bit_count(),
            played=0,
            scores=tuple(scores),
            completed=(),
            players=players,
            parts=(("choose", ChoicePart(tuple(c.name for c in self.options))),),
            deal_number=number,
            deck=deck,
            direction=direction,
            hand_sizes=hand_sizes,
        )


def record_choice(chosen: dict, slot: Choice, chooser: int, contract) -> None:
    chosen.setdefault(slot.memory_key(chooser), set()).add(contract.name)


_UNCHOSEN = Deal()


class ChooseEngine(PhaseEngine):
    """The declarer's choice of ``rule`` (a ``Choice``), as a deal steps it: the chooser names
    one of the contracts he may still name (the deal's ``allowed``); the contract named is the
    deal's ``picked``, recorded in the match's memory."""

    phase = Phase.CHOOSE

    def start(self, deal) -> int:
        return deal.chooser

    def legal(self, deal) -> list:
        return [CHOOSE_BASE + i for i in deal.allowed]

    def reason(self, deal, action: int) -> Optional[str]:
        if action - CHOOSE_BASE in deal.allowed:
            return None
        return R_("a contract is to be chosen: {choices}").format(
            choices=", ".join(self.rule.options[i].name for i in deal.allowed)
        )

    def view_name(self, view, action: int) -> Optional[str]:
        """A contract on offer, by its name (the view's ``ChoicePart``)."""
        return shown_part(view, ChoicePart).options[action - CHOOSE_BASE]

    def apply(self, deal, action: int) -> int:
        deal.picked = self.rule.resolve(
            deal.dealer, deal.players, deal.hands, deal.deck, deal.memory, lambda chooser, allowed: action - CHOOSE_BASE
        )
        return -1


class ChoiceDeal(PhaseSteps):
    """A declarer's-choice deal as one deal state: a list of phases before play, the choice
    (phase ``choose``), then its play: the chosen contract's deal, to which this state hands
    every call on. ``memory`` is the match's record of what each chooser named (``once_each``)."""

    def __init__(
        self, slot: Choice, players: int, deck: int, dealer: int, dealt: list, direction: int, number: int, memory: dict
    ):
        from .match import MatchError

        self.slot, self.players, self.deck, self.dealer = slot, players, deck, dealer
        self.dealt, self.direction, self.number, self.memory = [list(d) for d in dealt], direction, number, memory
        self.hands = [sum(1 << c for c in d) for d in dealt]
        self.scores = [0] * players
        self.chooser = slot.chooser(dealer, players, self.hands, deck)
        self.allowed = slot.allowed(self.chooser, memory)
        if not self.allowed:
            raise MatchError(f"seat {self.chooser} has no contract left to choose")
        self.inner = None  # the chosen contract's deal
        self.picked: Any = None  # the contract chosen
        self._begin_steps(slot.steps())

    def _start_play(self) -> None:
        """Play is the chosen contract's deal."""
        self._at = -1
        self.inner = self.picked.new_deal(
            self.players, self.deck, self.dealer, self.dealt, self.direction, self.number, self.memory
        )

    def _log(self, action: int) -> None:
        """The choice is no action of the chosen deal (the match counts it, ``Match.chosen_plies``)."""

    def __getattr__(self, name: str):
        inner = self.__dict__.get("inner")
        if inner is None:  # not chosen yet: no trumps, passing, bets… (``Deal``'s defaults)
            return getattr(_UNCHOSEN, name)
        return getattr(inner, name)

    @property
    def trump(self) -> int:
        return -1 if self.inner is None else self.inner.trump

    @property
    def caller(self) -> int:
        return -1 if self.inner is None else self.inner.caller

    @property
    def contract(self):
        return self.slot if self.inner is None else self.inner.contract

    @property
    def phase(self):
        """The phase of the list deciding, or of the chosen deal once it plays."""
        return self._phase if self.inner is None else self.inner.phase

    @phase.setter
    def phase(self, phase) -> None:
        self._phase = phase

    @property
    def to_move(self) -> int:
        return self._to_move if self.inner is None else self.inner.to_move

    @to_move.setter
    def to_move(self, seat: int) -> None:
        self._to_move = seat

    def current_player(self) -> int:
        return self.to_move if self.inner is None else self.inner.current_player()

    def legal_actions(self) -> list:
        return self.steps[self._at].legal(self) if self.inner is None else self.inner.legal_actions()

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> list:
        return list(self.scores) if self.inner is None else self.inner.returns()

    def why_illegal(self, action: int):
        return self.steps[self._at].reason(self, action) if self.inner is None else self.inner.why_illegal(action)

    def apply_action(self, action: int) -> None:
        if self.inner is not None:
            self.inner.apply_action(action)
            return
        self._decide(action)

    def current_deal(self):
        """The chosen contract's deal once the chooser has named it; until then this one."""
        return self if self.inner is None else self.inner

    def remember(self, memory) -> None:
        """What the chosen deal leaves for later deals (its own choice is remembered when made)."""
        if self.inner is not None:
            self.inner.remember(memory)

    def play_from_start(self) -> None:
        """Nothing to start before the choice is made (a deal's own once it is)."""
        if self.inner is not None:
            self.inner.play_from_start()

    def view(self, seat: int) -> "SeatView":
        if self.inner is not None:
            return self.inner.view(seat)
        legal = self.allowed if seat == self.chooser else []
        return self.slot.view(
            seat,
            self.hands[seat],
            self.dealer,
            self.players,
            legal,
            self.scores,
            self.number,
            self.deck,
            self.direction,
            tuple(h.bit_count() for h in self.hands),
        )


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M613",
        "more choice deals than choices",
        "With `once_each`, every chooser names each contract once: "
        "a block of declarer's-choice deals cannot be longer than choosers × contracts.",
        HEAD + "match:\n  schedule:\n    - {choose: {by: dealer, from: [a, b]}, repeat: 9}\ncontracts:\n"
        "  a: {score: [{per_trick: -20}]}\n  b: {score: [{per_trick: 20}]}\n",
        HEAD + "match:\n  schedule:\n    - {choose: {by: dealer, from: [a, b]}, repeat: 8}\ncontracts:\n"
        "  a: {score: [{per_trick: -20}]}\n  b: {score: [{per_trick: 20}]}\n",
        (5, 5),
    ),
)


# -- its unit: what a person and a bot see of it (labels, typed words, menu, bot hooks) --------------


class DeclarersChoice(PhaseUnit):
    """Declarer's choice (Kierki's *wybór*): the declarer names the contract of the deal."""

    name = "choose"
    part_type = ChoicePart
    expected = EXPECTED[Phase.CHOOSE]
    task = N_("choose the contract")
    prompt_word = N_("contract")
    contract_known = False
    hint = N_("Type the contract's number or name.")
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    def owns(self, action: int) -> bool:
        return is_choice(action)

    def _option(self, view, action: int) -> Optional[str]:
        i = action - CHOOSE_BASE
        options = _options(view)
        return options[i] if 0 <= i < len(options) else None

    def label(self, view, action: int, rules=None) -> str:
        name = self._option(view, action)
        if name is None:
            return super().label(view, action, rules)
        c = contract_of(rules, name)
        return contract_name(c) if c is not None else name

    def word(self, view, text: str, rules=None) -> Optional[int]:
        """A contract on offer by its key or its title (one already played is read too: it is refused with the rule)."""
        for i, name in enumerate(_options(view)):
            if text in (name, self.label(view, CHOOSE_BASE + i, rules).lower()):
                return CHOOSE_BASE + i
        return None

    def advice(self, view, rules=None) -> list:
        return [tr("You choose the contract.")]

    def menu(self, view, rules=None) -> list:
        return [
            tr("Choices: ") + ", ".join(f"{i}) {self.label(view, a, rules)}" for i, a in enumerate(view.legal, start=1))
        ]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The contract the hand suits best: with many high cards (J, Q, K, A) one where tricks
        pay, with few one where they cost (then the first on offer)."""
        high = high_cards(view.hand)

        def fit(action: int) -> tuple:
            c = bot_contract(rules, _options(view)[action - CHOOSE_BASE])
            positive = c.wants_tricks(view.tricks_total, view.players)
            if positive is None:
                return (0, -action)
            return ((high - 5) if positive else (5 - high), -action)

        return max(view.legal, key=fit)

    def bot_stream(self, key: int) -> int:
        """A stream of its own: the chosen deal's first decision has the same deal and ply."""
        return key * 7 + 3


def _options(view) -> tuple:
    """The names of the contracts on offer (none: no declarer's choice in the view)."""
    part = view.part("choose")
    return part.options if part is not None else ()


UNIT = DeclarersChoice()


__all__ = ["Choice", "ChoiceDeal", "ChooseEngine", "DeclarersChoice", "UNIT", "record_choice"]
