"""Any expression of the rules language said in words, for players: what ``explain``, the
terminal, the web page and reports show where no more specific wording fits. Never the
expression's source: ``card.suit == hearts and card != AH`` reads "the card's suit is hearts
and the card is not the ace of hearts"."""

from __future__ import annotations

from typing import Optional

from .cards import RANK_NAMES, SUIT_NAMES, suit_word
from .expr import ast
from .expr.check import RANK_CONSTANTS, SUIT_CONSTANTS
from .expr.errors import ExprError
from .expr.parser import parse
from .i18n import N_, tr

_RANK_PLURAL = {8: N_("tens"), 9: N_("jacks"), 10: N_("queens"), 11: N_("kings"), 12: N_("aces")}
#: A single card's rank as said before its suit ("the king of hearts"; Polish "król kier").
_RANK_ONE = {
    9: N_("the jack {suit}"),
    10: N_("the queen {suit}"),
    11: N_("the king {suit}"),
    12: N_("the ace {suit}"),
}
#: A suit after a rank ("of hearts"; Polish: "kier", the genitive-like suit word).
_SUIT_OF = (N_("of spades"), N_("of hearts"), N_("of diamonds"), N_("of clubs"))


def _rank_plural(r: int) -> str:
    return tr(_RANK_PLURAL[r]) if r in _RANK_PLURAL else tr("{rank}s").format(rank=RANK_NAMES[r])


def _const(node) -> Optional[tuple]:
    if isinstance(node, ast.Name):
        if node.id in SUIT_CONSTANTS:
            return ("suit", SUIT_CONSTANTS[node.id])
        if node.id in RANK_CONSTANTS:
            return ("rank", RANK_CONSTANTS[node.id])
    if isinstance(node, ast.IntLit) and 2 <= node.value <= 10:
        return ("rank", node.value - 2)
    if isinstance(node, ast.CardLit):
        return ("card", node.card)
    return None


def _is(node, obj: str, attr: Optional[str] = None) -> bool:
    if attr is None:
        return isinstance(node, ast.Name) and node.id == obj
    return (
        isinstance(node, ast.Attribute) and node.name == attr and isinstance(node.obj, ast.Name) and node.obj.id == obj
    )


def _cards_words(node) -> Optional[str]:
    """A card predicate in words, or None when it follows no simple pattern."""
    if isinstance(node, ast.BinOp):
        if node.op == "or":
            a, b = _cards_words(node.left), _cards_words(node.right)
            return tr("{a} and {b}").format(a=a, b=b) if a and b else None
        kind, value = _const(node.right) or ("", 0)  # kind "": not a constant
        if node.op == "==" and _is(node.left, "card", "suit") and kind == "suit":
            return suit_word(value)
        if node.op == "==" and _is(node.left, "card", "suit") and _is(node.right, "trump"):
            return tr("trumps")
        if node.op == "==" and _is(node.left, "card", "rank") and kind:
            return _rank_plural(value)
        if node.op == "in" and _is(node.left, "card", "rank") and isinstance(node.right, ast.ListLit):
            ranks = [_const(i) for i in node.right.items]
            if all(r and r[0] == "rank" for r in ranks):
                names = [_rank_plural(r[1]) for r in ranks if r]
                return tr("{a} and {b}").format(a=", ".join(names[:-1]), b=names[-1]) if len(names) > 1 else names[0]
        if node.op == "==" and _is(node.left, "card") and kind == "card":
            c = value
            suit = tr(_SUIT_OF[c // 13])
            if c % 13 in _RANK_ONE:
                return tr(_RANK_ONE[c % 13]).format(suit=suit)
            return tr("the {rank} {suit}").format(rank=RANK_NAMES[c % 13], suit=suit)
    return None


#: Names and attributes as a player says them.
NAME_WORDS = {
    "card": "the card",
    "card.suit": "the card's suit",
    "card.rank": "the card's rank",
    "trick.number": "the trick's number",
    "trick.is_first": "it is the first trick",
    "trick.is_last": "it is the last trick",
    "trick.leader": "the trick's leader",
    "trick.winner": "the trick's winner",
    "led_suit": "the suit led",
    "trump": "the trump suit",
    "hearts_broken": "hearts have been broken",
    "winning": "the card winning the trick",
    "winning.suit": "the suit of the card winning the trick",
    "winning.rank": "the rank of the card winning the trick",
    "bidder": "the auction's winner",
    "bid": "the winning bid",
    "value": "the bid",
    "caller": "the player who called trumps",
    "dealer": "the dealer",
    "seat": "the player",
    "players": "the number of players",
    "tricks": "the number of tricks in a deal",
    "tricks_taken": "the tricks the player won",
    "declared": "the points the player declared",
    "doubler": "the doubling player",
    "target": "the doubled player",
    "lowest_total": "the lowest running total",
    "highest_total": "the highest running total",
    "deals_played": "the deals played so far",
    "lead": "the card led",
    "lead.suit": "the suit of the card led",
    "lead.rank": "the rank of the card led",
    "tricks_played": "the tricks played so far",
}
_RANK_WORDS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_OPS = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    ">": "is more than",
    "<=": "is at most",
    ">=": "is at least",
    "in": "is",
    "not in": "is not",
    "and": "and",
    "or": "or",
    "+": "plus",
    "-": "minus",
    "*": "times",
    "/": "divided by",
    "%": "modulo",
}
#: Functions: how a call reads, ``{0}``... for its arguments in words (card predicates as "cards that ...").
CALL_WORDS = {
    "taken": "the number of {0} the player took",
    "taken_all": "the number of {0} taken by anyone",
    "most_taken": "the most {0} any one player took",
    "held": "the number of {0} in the hand",
    "played": "the number of {0} played so far",
    "round": "{0} rounded to the nearest {1}",
    "left": "the player to the left of {0}",
    "right": "the player to the right of {0}",
    "holder": "the holder of {0}",
    "abs": "the size of {0}",
    "min": "the smaller of {0} and {1}",
    "max": "the larger of {0} and {1}",
}


def rank_word(r: int) -> str:
    """A rank as a word: ``king``, ``ten``, ``7``."""
    name = RANK_NAMES[r]
    return "ten" if name == "10" else _RANK_WORDS.get(name, name)


def card_words(c: int) -> str:
    """A card as words: ``the king of hearts``."""
    return f"the {rank_word(c % 13)} of {SUIT_NAMES[c // 13]}"


def words(text: str) -> str:
    """An expression's text in words (its source, trimmed, only if it cannot be parsed)."""
    try:
        return node_words(parse(text))
    except (ExprError, ValueError, RecursionError):  # lint rejects it before a player could read it
        return " ".join(text.split())


def node_words(node) -> str:
    """An expression tree in words."""
    if isinstance(node, ast.IntLit):
        return str(node.value)
    if isinstance(node, ast.BoolLit):
        return "always" if node.value else "never"
    if isinstance(node, ast.CardLit):
        return card_words(node.card)
    if isinstance(node, ast.StringLit):
        return f"“{node.value}”"
    if isinstance(node, (ast.Name, ast.Attribute)):
        return _name_words(node)
    if isinstance(node, ast.ListLit):
        items = [node_words(i) for i in node.items]
        return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)
    if isinstance(node, ast.UnOp):
        inner = node_words(node.operand)
        return f"not ({inner})" if node.op == "not" else f"minus {inner}"
    if isinstance(node, ast.BinOp):
        return _binop_words(node)
    if isinstance(node, ast.IfExpr):
        return f"{node_words(node.then)} if {node_words(node.cond)}, else {node_words(node.other)}"
    if isinstance(node, ast.Call):
        return _call_words(node)
    return "a value"


def _name_words(node) -> str:
    dotted = _dotted(node)
    if dotted in NAME_WORDS:
        return NAME_WORDS[dotted]
    if isinstance(node, ast.Name):
        if node.id in SUIT_CONSTANTS:
            return node.id
        if node.id in RANK_CONSTANTS:
            return rank_word(RANK_CONSTANTS[node.id]) + "s"
        return "the " + node.id.replace("_", " ")
    return f"the {node.name.replace('_', ' ')} of {node_words(node.obj)}"


def _dotted(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.obj)
        return f"{inner}.{node.name}" if inner else ""
    return ""


def _binop_words(node) -> str:
    left = node_words(node.left)
    right = node_words(node.right)
    if node.op in ("==", "!=") and isinstance(node.right, ast.Name) and node.right.id in RANK_CONSTANTS:
        right = "a " + rank_word(RANK_CONSTANTS[node.right.id])
    if node.op in ("in", "not in") and isinstance(node.right, ast.ListLit):
        right = ("one of " if len(node.right.items) > 2 else "") + right
    return f"{left} {_OPS.get(node.op, node.op)} {right}"


def _call_words(node) -> str:
    args = [_predicate_words(a) if _is_predicate(node.func) else node_words(a) for a in node.args]
    pattern = CALL_WORDS.get(node.func)
    if pattern is not None and pattern.count("{") == len(args):
        return pattern.format(*args)
    return f"the {node.func.replace('_', ' ')} of " + " and ".join(args)


def _is_predicate(func: str) -> bool:
    return func in ("taken", "taken_all", "most_taken", "held", "played")


def _predicate_words(node) -> str:
    """A card predicate as the cards it picks: explain's patterns first ("hearts", "the king of
    hearts"), else "cards where ..." in words."""
    return _cards_words(node) or f"cards where {node_words(node)}"
