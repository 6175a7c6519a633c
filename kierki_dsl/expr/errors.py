"""Errors of the expression language, located by character offset in the expression text."""

from __future__ import annotations

from ..cards import SUIT_NAMES, meant_card
from ..i18n import L_


class ExprError(Exception):
    """A syntax, name or type problem at ``offset`` (and up to ``end``) of an expression."""

    def __init__(self, offset: int, code: str, message: str, hint: str = "", end: int | None = None):
        super().__init__(message)
        self.offset = offset
        self.end = end
        self.code = code
        self.message = message
        self.hint = hint


class EvalError(Exception):
    """A problem found while evaluating (e.g. division by zero), located by offset."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


def card_hint(word: str) -> str:
    """``HK``, ``kh``, ``K♥``, ``kier``: a card or suit as the game's prompt reads it -> a hint
    with its spelling in an expression (``KH``, ``hearts``), or ''."""

    meant = meant_card(word)
    if not meant:
        return ""
    if meant in SUIT_NAMES:
        return L_("did you mean {meant!r}? (an expression writes a suit as {meant})", meant=meant)
    return L_("did you mean {meant!r}? (an expression writes a card as {meant})", meant=meant)
