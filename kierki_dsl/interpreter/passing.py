"""Passing before play (Hearts, the compendium's passes), one module: its part of the format, its rule
and its check, its words for ``kierki explain``, its part of the seat view (``PassingPart``); its
engine (``PassEngine``: each seat in turn picks ``count`` cards of its own hand; once every seat
has, each gives its cards at once to the seat ``offset`` places on, the deal number picking the
offset from the rotation); its unit (``Passing``: labels, panel, record, bot and adapter hooks)."""

from __future__ import annotations

from typing import Optional

from ..cards import BIT, card_str
from ..codes import Code, example, table
from ..i18n import L_, N_, R_, tr, trn
from ..spec.schema import Enum, Field, Int, List, Obj
from ..values import frozen
from .fastplay import exchange
from .phaseengine import PhaseEngine
from .phasekit.base import cards_text, contract_of, row, seat
from .phasekit.botplay import bot_contract
from .phasekit.cardpick import CardPhase
from .phases import EXPECTED, Phase
from .trickkernel import card_values, is_positive
from .view import view_part

#: The trick contract's key that brings the phase into a deal, and where its words stand.
KEY = "pass_cards"
#: The name of the aspect its words stand under (a message id: ``kierki explain`` says it translated).
ASPECT = N_("passing")
WORDS_AT = "setup"

PASS_CARDS = Obj(
    {
        "count": Field(Int(1, 13), N_("how many cards each player passes"), required=True),
        "rotation": Field(
            List(Enum(("left", "right", "across", "none")), min_items=1, max_items=16),
            "where the cards go, by deal number in turn (left = the next player in playing order)",
            default=["left"],
        ),
    },
    title="pass cards",
    doc="Passing cards before play (Hearts): every player chooses cards, then all pass at once.",
)
#: Its part of a trick contract's format, under ``KEY``.
FIELD = Field(PASS_CARDS, "cards passed before play", default=None)


@frozen(eq=False)
class PassCards:
    """The compiled passing of a contract."""

    count: int
    rotation: tuple  # seat offsets in playing order: left 1, across 2, right -1, none 0

    def offset(self, deal_number: int, players: int) -> int:
        """Where the cards go in deal ``deal_number``: a seat offset in playing order (0: not passed)."""
        return self.rotation[(deal_number - 1) % len(self.rotation)] % players


_ROTATION = {"left": 1, "right": -1, "across": 2, "none": 0}


@view_part("pass")
@frozen
class PassingPart:
    """Passing's part of a seat view: what the seat knows of the exchange once every seat has
    passed (while cards are still being passed: nothing yet). The trick deal builds it
    (``trickstate``)."""

    passed: tuple  # the cards this seat passed
    passed_to: int  # the seat that got them (-1: not yet)
    received: tuple  # the cards this seat got


def build_passing(spec, ctx, w) -> Optional[PassCards]:
    """The compiled passing of a contract's ``pass_cards`` (None: none), with lint's M612."""
    if spec is None:
        return None
    if spec.count * 2 > ctx.deck.bit_count() // max(1, ctx.players):
        ctx.warning(
            w + ("pass_cards", "count"), "M612", L_("passing {count} cards is more than half a hand", count=spec.count)
        )
    return PassCards(spec.count, tuple(_ROTATION[r] for r in spec.rotation))


_DIRECTION_WORDS = {"left": "to the left", "right": "to the right", "across": "across", "none": "not at all"}


def explain(p, contract, rs) -> dict:
    """Passing before play in words: how many cards, and in which direction deal by deal."""
    cards = f"{p.count} card{'s' if p.count != 1 else ''}"
    dirs = [_DIRECTION_WORDS[r] for r in p.rotation]
    if len(set(dirs)) == 1:
        text = (
            f"before play every player passes {cards} {dirs[0]}, all at once"
            if dirs[0] != "not at all"
            else "no cards are passed"
        )
    else:
        text = f"before play every player passes {cards}, all at once, in turn from deal to deal: " + ", ".join(dirs)
    return {ASPECT: text}


#: Its lint codes (``kierki lint --explain``), declared beside the checks that report them.
LINT_CODES = table(
    Code(
        "M612",
        "passing more than half a hand",
        "Passing more than half of the cards makes the deal mostly the neighbour's hand; likely a typo.",
        example("  bez_lew:\n    pass_cards: {count: 9}\n    score: [{per_trick: -20}]\n"),
        example("  bez_lew:\n    pass_cards: {count: 3}\n    score: [{per_trick: -20}]\n"),
        (6, 25),
        severity="warning",
    ),
)


# -- its engine: the deal's passing, step by step ---------------------------------------------


class PassEngine(PhaseEngine):
    """The passing of ``contract.passing`` (``PassCards``); its state is the deal's
    ``pass_offset``, ``passes`` (the cards each seat passes) and ``_passable`` (those it may still pass)."""

    phase = Phase.PASS
    hides_passes = True  # nobody has received a card before every seat has passed

    def start(self, deal) -> int:
        deal.pass_offset = self.rule.offset(deal.number, deal.players)
        return (deal.dealer + deal.direction) % deal.players if deal.pass_offset else -1

    def legal(self, deal) -> list:
        return list(deal._passable[deal.to_move])

    def reason(self, deal, action: int) -> Optional[str]:
        if action in deal._passable[deal.to_move]:
            return None
        return R_("pass {count} cards of your own hand, each once").format(count=self.rule.count)

    def apply(self, deal, action: int) -> int:
        seat = deal.to_move
        deal._passable[seat].remove(action)
        passes = deal.passes[seat]
        passes.append(action)
        count = self.rule.count
        if len(passes) < count:
            return seat
        if len(deal.actions) < count * deal.players:  # passing comes first: the actions are all passes
            return deal._next[seat]
        _exchange(deal)
        return -1

    def copy(self, deal, other) -> None:
        other.passes = [list(p) for p in deal.passes]
        other._passable = [list(p) for p in deal._passable]

    def hand_seen(self, deal, seat: int) -> int:
        """The hand without the cards the seat has picked to pass so far."""
        hand = deal.hands[seat]
        for c in deal.passes[seat]:
            hand &= ~(1 << c)
        return hand


def _exchange(deal) -> None:
    """Every seat gives its chosen cards to the seat ``pass_offset`` places on, at once."""
    given = []
    for p in deal.passes:
        g = 0
        for c in p:
            g |= BIT[c]
        given.append(g)
    deal.hands[:] = exchange(deal.hands, given, deal.direction * deal.pass_offset, deal.players)


# -- its unit: what a person and a bot see of it ----------------------------------------------


def pass_order(contract, tricks_total: int, trump: int, players: int):
    """The heuristic passes its cards in this order (a sort key): where tricks pay its lowest
    cards, where they cost its most expensive ones, then its highest."""
    _, value = card_values(contract, tricks_total, trump, players, 1)
    if is_positive(contract, tricks_total, trump, players):
        return lambda x: (x % 13, x)
    return lambda x: (value[x], -(x % 13), x)


class Passing(CardPhase):
    """Passing as a person and a bot see it: each seat picks cards of its hand to pass; its
    labels, panel, record, bot and adapter hooks."""

    name = "pass"
    part_type = PassingPart
    expected = EXPECTED[Phase.PASS]
    task = N_("pass a card")
    prompt_word = N_("a card to pass")
    private = True  # a card passed is known to its giver; its receiver sees it once the passing is done
    lint_codes = LINT_CODES  # its codes, declared beside its checks (above)

    # record hooks: the cards each seat passed, a list per seat
    record_key = "passes"
    record_rank = 10
    record_example = '[["QS", "KH", "AH"], ...]'
    record_shown_text = "passing {entry}"
    record_extra_text = "the passing is over but the record's passes have more: {entry}"
    record_absent_text = "the record has 'passes' but in deal {deal} ({contract}) no cards are passed"

    def record_section(self, result) -> Optional[list]:
        return [list(p) for p in result.passes] if result.passes else None

    def record_lanes(self, section, players: int) -> tuple:
        if not isinstance(section, list) or len(section) != players or not all(isinstance(p, list) for p in section):
            return None, f"'passes' must hold the cards each of the {players} seats passed"
        return dict(enumerate(section)), None

    def record_lane(self, seat: int):
        return seat

    def record_short(self, deal, seat: int, entries: list) -> str:
        return f"seat {seat} passed {len(entries)} cards; {deal.contract.passing.count} are passed"

    # adapter hooks: a card passed is its seat's secret; its receiver learns it when the passing ends
    drawn_in_worlds = True

    def reveal(self, deal, seat: int, action: int, dealt: list) -> list:
        out = [(seat, f"p{seat} passes {card_str(action)}"), (None, f"p{seat} passes a card")]
        if deal.phase != self.name:  # the passing is over: each seat learns the cards it was given (not their order)
            n = len(dealt)
            for giver in range(n):
                to = (giver + deal.direction * deal.pass_offset) % n
                got = " ".join(card_str(c) for c in sorted(deal.passes[giver]))
                out.append((to, f"p{to} receives {got}"))
        return out

    def unseen_draw(self, contract, mine: list) -> Optional[tuple]:
        return list(mine), None

    def own_cards(self, deal, log: list, seat: int) -> tuple:
        if deal is None or not deal.pass_offset:
            return 0, 0
        count, n = deal.contract.passing.count, deal.players
        passed = sum(1 << a for a in [a for s, a in log if s == seat and a < 52][:count])
        received = 0
        if deal.phase != self.name:
            giver = (seat - deal.direction * deal.pass_offset) % n
            for s, a in log:
                if s == giver and a < 52:
                    received |= 1 << a
                    if received.bit_count() == count:
                        break
        return passed, received

    def advice(self, view, rules=None) -> list:
        """'Pass 3 cards to W: card 2 of 3' — where the cards go and how many are chosen."""
        contract = contract_of(rules, view.contract)
        if contract is None or contract.passing is None:
            return []
        passing = contract.passing
        n = view.players
        to = (view.seat + view.direction * passing.offset(view.deal_number, n)) % n
        chosen = view.hand_sizes[view.seat] - view.hand.bit_count() if view.hand_sizes else 0
        return [
            tr("Pass {count} cards to {seat}: card {number} of {count}").format(
                count=passing.count, seat=seat(view, to), number=chosen + 1
            )
        ]

    def panel(self, view, rules=None) -> list:
        """What this seat gave (how many cards, to whom) and what it received (from whom), once every pass is made."""
        p = self.part(view)
        if p is None or not p.received:
            return []
        giver = (2 * view.seat - p.passed_to) % view.players  # passing is a rotation: the seat passing to us
        return [
            row(
                "",
                tr(
                    "You passed {count} to {seat}: {cards}; you received {received_count} from {giver}: {received}."
                ).format(
                    count=_count(p.passed),
                    seat=seat(view, p.passed_to),
                    cards=cards_text(p.passed),
                    received_count=_count(p.received),
                    giver=seat(view, giver),
                    received=cards_text(p.received),
                ),
            )
        ]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """The first card in ``pass_order``."""
        key = pass_order(bot_contract(rules, view.contract), view.tricks_total, view.trump, view.players)
        return min(view.legal, key=key)

    def shown_held(self, view) -> list:
        """The cards this seat passed: the seat that got them holds them until it plays them."""
        p = self.part(view)
        return [(p.passed_to, c) for c in p.passed] if p is not None else []


def _count(cards) -> str:
    """``3 cards``, ``1 card`` (in the language in force)."""
    return trn("{count} card", "{count} cards", len(cards)).format(count=len(cards))


UNIT = Passing()
