"""The doubling round (Barbu): side bets before play — double a seat, redouble, or done."""

from __future__ import annotations

from typing import Optional

from ..i18n import N_, tr
from ..interpreter import doubling
from ..interpreter.actions import DONE, DOUBLE_BASE, REDOUBLE_BASE, double
from ..interpreter.doubling import BetsPart, BettingRound, bet_of, done_unless_forced
from ..interpreter.phasekit.base import contract_of, row, seat
from ..interpreter.phasekit.botplay import bot_contract, high_cards, low_cards
from ..interpreter.phasekit.records import BetsSection
from ..interpreter.phases import EXPECTED, Phase
from ..interpreter.trickkernel import is_positive


class Doubling(BetsSection):
    name = "double"
    engine_half = doubling
    part_type = BetsPart
    expected = EXPECTED[Phase.DOUBLE]
    task = N_("double or not")
    prompt_word = N_("bet")
    hint = N_("Type a number from the list, 'double E', 'redouble N' or 'done'.")
    searched = True
    lint_codes = doubling.LINT_CODES  # its codes, declared beside its checks (interpreter/doubling.py)

    # adapter hooks
    def observation_lines(self, view) -> list:
        """The bets standing, ``bets p0>p1x2 ...`` (none: no line)."""
        return ["bets " + " ".join(f"p{a}>p{b}x{f}" for a, b, f in _bets(view))] if _bets(view) else []

    def tensor_marks(self, view) -> list:
        """Each bet standing at ``bets[doubler * players + target]``, its factor."""
        return [("bets", a * view.players + b, float(f)) for a, b, f in _bets(view)]

    def owns(self, action: int) -> bool:
        return DOUBLE_BASE <= action <= DONE

    def label(self, view, action: int, rules=None) -> str:
        if action == DONE:
            return tr("done")
        if action >= REDOUBLE_BASE:
            return tr("redouble {seat}").format(seat=seat(view, action - REDOUBLE_BASE))
        return tr("double {seat}").format(seat=seat(view, action - DOUBLE_BASE))

    def word(self, view, text: str, rules=None) -> Optional[int]:
        if text in ("done", tr("done")):
            return DONE
        kind, _, who = text.partition(" ")
        base = {
            "double": DOUBLE_BASE,
            "d": DOUBLE_BASE,
            "kontra": DOUBLE_BASE,
            "redouble": REDOUBLE_BASE,
            "r": REDOUBLE_BASE,
            "rekontra": REDOUBLE_BASE,
        }.get(kind)
        for s in range(view.players):
            if base is not None and who == seat(view, s).lower():
                return base + s
        return None

    def advice(self, view, rules=None) -> list:
        lines = [
            tr(
                "A double is a side bet that you outscore that player in this deal: the difference of "
                "your two scores is paid, twice if redoubled."
            )
        ]
        if DONE in view.legal:
            return lines
        contract = contract_of(rules, view.contract)
        if contract is not None and contract.doubling is not None and contract.doubling.duty_every:
            lines.append(
                tr(
                    "You owe a player doubles under the duty to double every player, and the deals he deals "
                    "are running out: you may not say done yet."
                )
            )
        else:
            lines.append(
                tr(
                    "You owe the dealer ({seat}) a double: you must double him in one "
                    "of his deals left, and this is the last chance to keep that duty."
                ).format(seat=seat(view, view.dealer))
            )
        return lines

    def menu(self, view, rules=None) -> list:
        return [tr("Bets: ") + "  ".join(f"{i}) {self.label(view, a)}" for i, a in enumerate(view.legal, start=1))]

    def panel(self, view, rules=None) -> list:
        if not _bets(view):
            return []
        return [
            row(
                tr("Bets so far"),
                ", ".join(
                    (tr("{seat} redoubled {other}") if f == 2 else tr("{seat} doubled {other}")).format(
                        seat=seat(view, a), other=seat(view, b)
                    )
                    for a, b, f in _bets(view)
                ),
            )
        ]

    # -- bot hooks -------------------------------------------------------------------------------
    def bot_action(self, view, rules) -> Optional[int]:
        """Double (or redouble) every seat it may while its hand is clearly above average: many
        low cards where tricks cost, many high ones where they pay; never in a layout deal. A
        duty to double the dealer (no 'done' allowed) is met at once."""
        legal = view.legal
        if DONE not in legal:
            return double(view.dealer) if double(view.dealer) in legal else legal[0]
        if view.part("layout") is not None:  # a layout deal's doubling
            return DONE
        high, low = high_cards(view.hand), low_cards(view.hand)
        positive = is_positive(bot_contract(rules, view.contract), view.tricks_total, view.trump, view.players)
        edge = high - low + 1 if positive else low - high - 1  # about 0 for an average hand
        bets = [a for a in legal if a != DONE]
        return bets[0] if bets and edge >= 3 else DONE

    def search_try(self, state, view, action: int) -> None:
        """The bets of the view's deal after ``action``, settled (nobody bets after it), then play
        (or the split of an undoubled deal)."""
        state.betting = bets_after(view, action)
        state.play_from_start()

    def search_tie(self, action: int):
        """On a tie, do not bet."""
        return action == DONE

    def rollout_action(self, state) -> Optional[int]:
        """No bets, but a double a duty forces."""
        return done_unless_forced(state.legal_actions())


def _bets(view) -> tuple:
    """The bets of the view's doubling round (none: the deal has no doubling round)."""
    part = view.part("double")
    return part.bets if part is not None else ()


def bets_after(view, action: int) -> BettingRound:
    """The bets of the view's deal after ``action``, as a settled round (nobody bets after it)."""
    bets = {(a, b): f for a, b, f in _bets(view)}
    bet = bet_of(view.seat, action)
    if bet is not None:
        bets[bet[0]] = bet[1]
    return BettingRound.settled(tuple((a, b, f) for (a, b), f in bets.items()), view.players)


UNIT = Doubling()
