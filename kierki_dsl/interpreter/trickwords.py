"""The tricks deal type in words: ``kierki explain`` and ``kierki diff`` read a trick
contract's rules through ``TrickContract.aspects``."""

from __future__ import annotations

from ..cards import RANK_MASK, RANK_NAMES, SUIT_NAMES, suit_word
from ..exprwords import words as expr_words
from ..i18n import tr
from ..words import PHASE_WORDS, cards, score_words, seat


def aspects(c, rs, spec) -> dict:
    """The trick contract's rules as ordered (aspect -> sentence) pairs."""
    out: dict = {}
    n = c.widow.tricks(rs.hand_size, rs.players) if c.widow is not None else rs.hand_size
    n -= sum(unit.cards_laid(rule) for unit, rule in c.added)  # cards laid before play by an added phase
    stock = spec.stock
    out["game"] = (
        tr("trick-taking, {count} tricks").format(count=n)
        if stock is None
        else tr("trick-taking with a stock to draw from")
    )
    out.update(c.phase_words(rs, spec, "setup"))  # a stock, passing, an auction, a widow
    t = spec.trump
    if not isinstance(t, str):  # the mapping of a called trump
        choices = t.choices or SUIT_NAMES
        text = ", ".join(tr("no trumps") if x == "none" else _suit(x) for x in choices)
        out["trumps"] = tr("{seat} names trumps ({suits}) after seeing his first {count} cards").format(
            seat=seat(t.called_by.text), suits=text, count=t.after
        )
    else:
        out["trumps"] = tr("no trumps") if t == "none" else tr("{suit} are trumps").format(suit=_suit(t))
    if any(d.set_trump is not None for d in c.declarations):
        out["trumps"] += tr(", until a declaration makes another suit trumps")
    lead = spec.first_lead
    out["lead"] = tr("{seat} leads to the first trick; each trick's winner leads the next").format(
        seat=seat(lead.text) if lead else seat("left(dealer)")
    )
    out["follow"] = tr("follow suit when able, otherwise any card") if c.follow_suit else tr("any card may be played")
    if c.order is not None:
        out["ranks"] = tr("in each suit, highest first: ") + " ".join(
            RANK_NAMES[r] for r in sorted(range(13), key=lambda r: -c.order[r]) if rs.deck & RANK_MASK[r]
        )
    out.update(c.phase_words(rs, spec, "play"))  # declarations
    if spec.lead_ban is not None:
        # the author's sentence, as for a rule with a reason; else the ban in words
        reason = spec.lead_ban_reason  # a shipped ruleset's sentence has Polish words too
        out["lead ban"] = (
            tr(reason)
            if reason
            else tr("{cards} may not be led unless the hand holds nothing else").format(cards=cards(spec.lead_ban.text))
        )
    for i, r in enumerate(spec.restrictions):
        pred = cards((r.require or r.forbid).text)
        condition = expr_words(r.when.text) if r.when is not None else ""
        fallback = "" if r.fallback else tr(" (no exception)")
        if r.reason:  # the author's sentence says when it applies: not said twice
            only = tr(" (only if {condition})").format(condition=condition) if condition else ""
            out[f"rule {i + 1}"] = f"{tr(r.reason)}{only}{fallback}"
        else:
            when = tr(" if {condition}").format(condition=condition) if condition else ""
            rule = (
                tr("{phase}{when} a player must play {cards}{fallback}")
                if r.require is not None
                else tr("{phase}{when} a player may not play {cards}{fallback}")
            )
            out[f"rule {i + 1}"] = rule.format(phase=tr(PHASE_WORDS[r.phase]), when=when, cards=pred, fallback=fallback)
    for unit, rule in c.added:  # a phase added by a module says itself
        out.update(unit.explain(rule))
    out["scoring"] = "; ".join(score_words(rs, spec)) or tr("nothing scores")
    out.update(c.phase_words(rs, spec, "scoring"))  # exposures
    if spec.early_stop:
        out["end"] = tr("the deal ends as soon as no points can change any more")
    elif spec.end_when is not None:
        out["end"] = tr("the deal ends before the next trick when {condition}").format(
            condition=expr_words(spec.end_when.text)
        )
    elif stock is not None:
        out["end"] = tr("the deal ends when fewer than two players hold cards")
    else:
        out["end"] = tr("all {count} tricks are played").format(count=n)
    out.update(c.phase_words(rs, spec, "bets"))  # the doubling round
    return out


def _suit(name: str) -> str:
    """A suit named in a ruleset (``hearts``) in the language in force."""
    return suit_word(SUIT_NAMES.index(name)) if name in SUIT_NAMES else name
