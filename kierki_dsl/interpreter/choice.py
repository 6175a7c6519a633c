"""Declarer's choice: a schedule slot where a seat picks the contract (Barbu, Trix).

``{choose: {by: dealer, from: [a, b, c], once_each: true}, repeat: 12}`` makes twelve deals
in each of which the chooser, after seeing his hand, names one of the contracts; with
``once_each`` a chooser may name each contract only once in a match.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..values import frozen
from .actions import CHOOSE_BASE
from .envs import NOBODY, seat_env
from .phases import Phase

if TYPE_CHECKING:
    from .view import SeatView


@frozen(eq=False)
class Choice:
    """A schedule slot whose contract the chooser names."""

    by: object  # compiled seat expression
    options: tuple  # compiled contracts
    once_each: bool
    by_text: str = "dealer"
    name: str = "choice"
    type: str = "choice"
    pl: str = "Wybór rozgrywającego"
    en: str = "declarer's choice"
    total = None

    def chooser(self, dealer: int, players: int, hands, deck: int) -> int:
        """The seat that names the contract, given the dealt ``hands`` (masks)."""
        return self.by(seat_env(dealer, players, NOBODY, hands, deck)) % players

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
            raise MatchError(f"seat {chooser} chose an option that is not allowed "
                             f"({self.options[index].name if 0 <= index < len(self.options) else index})")
        record_choice(chosen, self, chooser, self.options[index])
        return self.options[index]

    def allowed(self, chooser: int, chosen: dict) -> list[int]:
        """Indices of the options this chooser may still name."""
        used = chosen.get((id(self), chooser), set()) if self.once_each else set()
        return [i for i, c in enumerate(self.options) if c.name not in used]

    def view(self, seat: int, hand: int, dealer: int, players: int, legal: list, scores) -> SeatView:
        from .view import SeatView  # only play needs it; lint does not

        return SeatView(
            seat=seat, contract=self.name, phase=Phase.CHOOSE.value, hand=hand, legal=tuple(CHOOSE_BASE + i for i in legal),
            trick=(), led_suit=-1, trump=-1, caller=-1, dealer=dealer, trick_number=0,
            tricks_total=hand.bit_count(), played=0, scores=tuple(scores), completed=(), players=players,
            layout=None, options=tuple(c.name for c in self.options),
        )


def record_choice(chosen: dict, slot: Choice, chooser: int, contract) -> None:
    chosen.setdefault((id(slot), chooser), set()).add(contract.name)


__all__ = ["Choice", "record_choice"]
