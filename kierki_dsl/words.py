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
from .i18n import N_, language, tr

SEAT_LETTERS = "NESW"  # the seats at a table of four, from seat 0


def seat_name(seat: int, players: int) -> str:
    """A seat as a person reads it: ``N E S W`` at a table of four, ``P0 P1 ...`` otherwise."""
    return SEAT_LETTERS[seat] if players == 4 else f"P{seat}"


_SEAT_WORDS = {
    "dealer": N_("the dealer"),
    "left(dealer)": N_("the player to the dealer's left"),
    "right(dealer)": N_("the player to the dealer's right"),
    "holder(2C)": N_("the holder of the two of clubs"),
    "bidder": N_("the auction's winner"),
}

#: The names of the aspects of a contract's rules (the keys of ``aspects``), as message ids; a
#: phase's own aspects are named by its module (``ASPECT`` of ``interpreter/bidding.py`` ...).
ASPECT_NAMES = (
    N_("deal"),
    N_("game"),
    N_("trumps"),
    N_("lead"),
    N_("follow"),
    N_("ranks"),
    N_("lead ban"),
    N_("scoring"),
    N_("end"),
    N_("total"),
    N_("ace"),
    N_("up first"),
    N_("first turn"),
    N_("first card"),
    N_("play"),
    N_("free passes"),
    N_("pool"),
    N_("extra turn"),
    N_("choice"),
)


def aspect_name(key: str) -> str:
    """An aspect's name (a key of ``aspects``: ``scoring``, ``rule 2``) in the language in force."""
    number = key.removeprefix("rule ")
    if number != key and number.isdigit():
        return tr("rule {number}").format(number=number)
    return tr(key)


def _trick_words(node) -> Optional[str]:
    if isinstance(node, ast.BinOp):
        if node.op == "or":
            a, b = _trick_words(node.left), _trick_words(node.right)
            return tr("{a} and {b}").format(a=a, b=b) if a and b else None
        if node.op == "==" and _is(node.left, "trick", "number") and isinstance(node.right, ast.IntLit):
            n = node.right.value
            return tr("trick {number}").format(number=n)
    if _is(node, "trick", "is_last"):
        return tr("the last trick")
    if _is(node, "trick", "is_first"):
        return tr("the first trick")
    return None


def _one_trick(node) -> Optional[bool]:
    """True for a trick predicate selecting one trick (the first, the last, trick N): won once, not "... each"."""
    numbered = isinstance(node, ast.BinOp) and node.op == "==" and _is(node.left, "trick", "number")
    return True if numbered or _is(node, "trick", "is_last") or _is(node, "trick", "is_first") else None


def _one_card(node) -> Optional[bool]:
    """True for a predicate naming one card (``card == KH``): "the king of hearts", not "... each"."""
    return True if isinstance(node, ast.BinOp) and node.op == "==" and _is(node.left, "card") else None


def _pattern(fn, text: str) -> Optional[str]:
    """``fn``'s words for an expression that follows one of its patterns, else None."""
    try:
        return fn(parse(text))
    except Exception:  # noqa: BLE001 - no pattern for a text that does not parse: the words fallback says it
        return None


def _worded(text: str, fn, what: str) -> str:
    """An expression in words by ``fn`` (a pattern it knows), else said in words (never its source)."""
    return _pattern(fn, text) or tr("{what} where {condition}").format(what=tr(what), condition=words(text))


def cards(text: str) -> str:
    """A card predicate in words ("hearts and the king of spades")."""
    return _worded(text, _cards_words, N_("cards"))


def tricks_when(text: str) -> str:
    """A trick predicate in words ("the last trick")."""
    return _worded(text, _trick_words, N_("tricks"))


def seat(text: str) -> str:
    """A seat expression in words ("the player to the dealer's left")."""
    t = "".join(text.split())
    if t in _SEAT_WORDS:
        return tr(_SEAT_WORDS[t])
    m = re.fullmatch(r"holder\(([2-9TJQKA][SHDC])\)", t)
    return tr("the holder of {card}").format(card=m.group(1)) if m else words(text)


def _pts(src) -> str:
    t = " ".join(src.text.split())
    try:
        return f"{int(t):+d}"
    except ValueError:
        return words(t)


#: when a rule of play applies (its ``phase``: lead, follow, discard or any), in words
PHASE_WORDS = {
    "lead": N_("when leading"),
    "follow": N_("when following suit"),
    "discard": N_("when unable to follow suit"),
    "any": N_("always"),
}


def choice_words(c) -> str:
    """A declarer's choice (``interpreter.choice.Choice``) in words: who chooses among what."""
    names = ", ".join(o.pl for o in c.options)
    once = (
        tr(" (each contract once in the match, whoever chooses)")
        if c.once_in_match
        else tr(" (each contract once per chooser)")
        if c.once_each
        else ""
    )
    return tr("{seat} looks at his hand and chooses the contract: {names}{once}").format(
        seat=seat(c.by_text), names=names, once=once
    )


def aspects(rs, name: str) -> dict:
    """The contract's rules as ordered (aspect -> sentence) pairs."""
    spec = rs.specs[name]
    c = rs.contracts[name]
    out: dict = {}
    n = rs.hand_size
    out["deal"] = tr("{count} cards each, dealt one at a time starting with the dealer's left-hand neighbour").format(
        count=n
    )
    out.update(c.aspects(rs, spec))  # the deal type's rules, each of its phases' words among them
    total = c.fixed_total(rs.hand_size, rs.players, rs.deck)  # ruleset.semantics.contract_total
    if total is not None:
        out["total"] = tr("the points of one deal add up to {points}").format(points=signed(total))
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
                once = which.startswith("each") or _pattern(_one_trick, when.text)
                won = tr("winning {which}: {points}") if once else tr("winning {which}: {points} each")
                parts.append(won.format(which=which, points=_pts(item.per_trick)))
            else:
                parts.append(tr("each trick won: {points}").format(points=_pts(item.per_trick)))
        elif item.per_card is not None:
            extra = tr(" in {tricks}").format(tricks=tricks_when(when.text)) if when is not None else ""
            what = _pattern(_cards_words, item.per_card.text) or label or cards(item.per_card.text)
            one = _pattern(_one_card, item.per_card.text) or what.startswith(("the ", "each "))
            taken = tr("{what} taken{extra}: {points}") if one else tr("{what} taken{extra}: {points} each")
            parts.append(taken.format(what=what, extra=extra, points=_pts(item.points)))
        elif item.per_seat is not None:
            rule = tr("at the end each seat scores {points}").format(points=_pts(item.per_seat))
            parts.append(f"{label}: {rule}" if label else rule)
        elif item.include is not None:
            names = [item.include] if isinstance(item.include, str) else item.include  # a name or a list
            nothing = tr("nothing")
            titles = [
                f"{rs.contracts[x].pl} ({'; '.join(score_words(rs, rs.specs[x])) or nothing})"
                for x in names
                if x in rs.contracts and x in rs.specs
            ]
            parts.append(tr("everything that scores in {contracts}, added up").format(contracts=", ".join(titles)))
    return parts


def signed(n: int) -> str:
    """A number of points with its sign (``+10``, ``-5``, ``0``)."""
    return f"{n:+d}" if n else "0"


def contract_title(c) -> str:
    """'Polish name — English name'; the English name alone where no Polish name is given."""
    if c.en and c.pl == c.name:  # no `pl:` in the ruleset (a game that is not Kierki)
        return c.en
    return f"{c.pl} — {c.en}" if c.en and language() == "en" else c.pl
