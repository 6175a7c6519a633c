"""The words of the rules, shared by every phase and by ``kierki explain``.

The vocabulary a phase module uses to put its rules into sentences (a seat expression as "the
dealer's left", a card predicate as "hearts and the king of spades", a contract's title, its
scoring items), and ``aspects``, the sentences every contract has. It sits below the engine:
the phases (``interpreter``) import it, ``explain`` builds the whole text from it.
"""

from __future__ import annotations

import re
from typing import Optional

from .expr import ast
from .expr.parser import parse
from .exprwords import _cards_words, _is, words  # the card patterns live with the words of expressions

_SEAT_WORDS = {
    "dealer": "the dealer",
    "left(dealer)": "the player to the dealer's left",
    "right(dealer)": "the player to the dealer's right",
    "holder(2C)": "the holder of the two of clubs",
    "bidder": "the auction's winner",
}


def _trick_words(node) -> Optional[str]:
    if isinstance(node, ast.BinOp):
        if node.op == "or":
            a, b = _trick_words(node.left), _trick_words(node.right)
            return f"{a} and {b}" if a and b else None
        if node.op == "==" and _is(node.left, "trick", "number") and isinstance(node.right, ast.IntLit):
            n = node.right.value
            return f"trick {n}"
    if _is(node, "trick", "is_last"):
        return "the last trick"
    if _is(node, "trick", "is_first"):
        return "the first trick"
    return None


def _pattern(fn, text: str) -> Optional[str]:
    """``fn``'s words for an expression that follows one of its patterns, else None."""
    try:
        return fn(parse(text))
    except Exception:  # noqa: BLE001 - no pattern for a text that does not parse: the words fallback says it
        return None


def _worded(text: str, fn, what: str) -> str:
    """An expression in words by ``fn`` (a pattern it knows), else said in words (never its source)."""
    return _pattern(fn, text) or f"{what} where {words(text)}"


def cards(text: str) -> str:
    """A card predicate in words ("hearts and the king of spades")."""
    return _worded(text, _cards_words, "cards")


def tricks_when(text: str) -> str:
    """A trick predicate in words ("the last trick")."""
    return _worded(text, _trick_words, "tricks")


def seat(text: str) -> str:
    """A seat expression in words ("the player to the dealer's left")."""
    t = "".join(text.split())
    if t in _SEAT_WORDS:
        return _SEAT_WORDS[t]
    m = re.fullmatch(r"holder\(([2-9TJQKA][SHDC])\)", t)
    return f"the holder of {m.group(1)}" if m else words(text)


def _pts(src) -> str:
    t = " ".join(src.text.split())
    try:
        return f"{int(t):+d}"
    except ValueError:
        return words(t)


#: when a rule of play applies (its ``phase``: lead, follow, discard or any), in words
PHASE_WORDS = {
    "lead": "when leading",
    "follow": "when following suit",
    "discard": "when unable to follow suit",
    "any": "always",
}


def choice_words(c) -> str:
    """A declarer's choice (``interpreter.choice.Choice``) in words: who chooses among what."""
    names = ", ".join(o.pl for o in c.options)
    once = (
        " (each contract once in the match, whoever chooses)"
        if c.once_in_match
        else " (each contract once per chooser)"
        if c.once_each
        else ""
    )
    return f"{seat(c.by_text)} looks at his hand and chooses the contract: {names}{once}"


def aspects(rs, name: str) -> dict:
    """The contract's rules as ordered (aspect -> sentence) pairs."""
    spec = rs.specs[name]
    c = rs.contracts[name]
    out: dict = {}
    n = rs.hand_size
    out["deal"] = f"{n} cards each, dealt one at a time starting with the dealer's left-hand neighbour"
    out.update(c.aspects(rs, spec))
    doubling = spec.doubling  # every deal type so far has the doubling round
    if doubling is not None:
        who = (
            f"a player may double another where {words(doubling.may_double.text)}"
            if doubling.may_double is not None
            else "each player but the dealer may double any other player"
        )
        again = "; a doubled player may redouble" if doubling.redouble else ""
        twice = " (twice the difference if redoubled)" if doubling.redouble else ""
        out["doubling"] = (
            f"before the first card, in turn from the dealer's left, {who}{again}; each bet pays the "
            f"difference of the two players' scores to the better one{twice}"
        )
        duty = doubling.duty
        if duty is not None and duty.of == "every":
            out["duty"] = (
                f"each player must double every other player at least {duty.times} times in every "
                f"{duty.over or duty.deals} deals, when he likes; a double still owed is forced in the "
                "last deals the other player deals"
            )
        elif duty is not None:
            out["duty"] = (
                f"each player who may double the dealer must do so at least {duty.times} times in the "
                f"{duty.deals} deals the dealer deals in a row"
            )
        if doubling.if_undoubled == "split":
            out["undoubled"] = (
                "if nobody doubles, the deal is not played: its total is shared among the players "
                "other than the dealer, each share rounded away from zero, the dealer taking the rest"
            )
    total = c.fixed_total(rs.hand_size, rs.players, rs.deck)  # ruleset.semantics.contract_total
    if total is not None:
        out["total"] = f"the points of one deal add up to {signed(total)}"
    return out


def score_words(rs, spec) -> list:
    """A trick contract's ``score`` items in words, one phrase each: the rule's own pattern
    words, else its ``label``, else the expression in words (never its source)."""
    parts = []
    for item in spec.score or ():
        when = item.when
        label = getattr(item, "label", None)
        if item.per_trick is not None:
            if when is not None:
                which = _pattern(_trick_words, when.text) or label or tricks_when(when.text)
                parts.append(f"winning {which}: {_pts(item.per_trick)}{'' if which.startswith('each') else ' each'}")
            else:
                parts.append(f"each trick won: {_pts(item.per_trick)}")
        elif item.per_card is not None:
            extra = f" in {tricks_when(when.text)}" if when is not None else ""
            what = _pattern(_cards_words, item.per_card.text) or label or cards(item.per_card.text)
            each = "" if what.startswith(("the ", "each ")) else " each"
            parts.append(f"{what} taken{extra}: {_pts(item.points)}{each}")
        elif item.per_seat is not None:
            rule = f"at the end each seat scores {_pts(item.per_seat)}"
            parts.append(f"{label}: {rule}" if label else rule)
        elif item.include is not None:
            names = [item.include] if isinstance(item.include, str) else item.include  # a name or a list
            titles = [
                f"{rs.contracts[x].pl} ({'; '.join(score_words(rs, rs.specs[x])) or 'nothing'})"
                for x in names
                if x in rs.contracts and x in rs.specs
            ]
            parts.append("everything that scores in " + ", ".join(titles) + ", added up")
    return parts


def signed(n: int) -> str:
    """A number of points with its sign (``+10``, ``-5``, ``0``)."""
    return f"{n:+d}" if n else "0"


def contract_title(c) -> str:
    """'Polish name — English name'; the English name alone where no Polish name is given."""
    if c.en and c.pl == c.name:  # no `pl:` in the ruleset (a game that is not Kierki)
        return c.en
    return f"{c.pl} — {c.en}" if c.en else c.pl
