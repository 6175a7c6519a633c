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
    if c.widow is not None:
        dealt = rs.hand_size - c.widow.cards // rs.players
        out["deal"] = (
            f"{dealt} cards each and {c.widow.cards} to the widow, dealt one at a time starting with the "
            "dealer's left-hand neighbour"
        )
    if stock is not None:
        from .stock import words

        out["deal"] = (
            f"{stock.hand} cards each, dealt one at a time starting with the dealer's left-hand "
            "neighbour; the rest of the deck, in the order it would be dealt, is the stock"
        )
        out["stock"] = words(stock)
    if spec.pass_cards is not None:
        out["passing"] = _passing_words(spec.pass_cards)
    if spec.auction is not None:
        out["auction"] = _auction_words(spec.auction)
    if spec.widow is not None:
        from .widow import words as widow_words

        out["widow"] = widow_words(spec.widow)
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
        out["trumps"] += ", until a declaration makes another suit trumps"
    lead = spec.first_lead
    out["lead"] = tr("{seat} leads to the first trick; each trick's winner leads the next").format(
        seat=seat(lead.text) if lead else seat("left(dealer)")
    )
    out["follow"] = tr("follow suit when able, otherwise any card") if c.follow_suit else tr("any card may be played")
    if c.order is not None:
        out["ranks"] = tr("in each suit, highest first: ") + " ".join(
            RANK_NAMES[r] for r in sorted(range(13), key=lambda r: -c.order[r]) if rs.deck & RANK_MASK[r]
        )
    if c.declarations:
        from .declarations import words as declaration_words

        out["declarations"] = "; ".join(declaration_words(c.declarations, spec.declarations))
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
    if spec.exposure is not None:
        from .exposure import exposure_words

        out["exposure"] = exposure_words(spec.exposure)
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
    return out


_DIRECTION_WORDS = {"left": "to the left", "right": "to the right", "across": "across", "none": "not at all"}


def _suit(name: str) -> str:
    """A suit named in a ruleset (``hearts``) in the language in force."""
    return suit_word(SUIT_NAMES.index(name)) if name in SUIT_NAMES else name


def _passing_words(p) -> str:
    """Passing before play in words: how many cards, and in which direction deal by deal."""
    cards = f"{p.count} card{'s' if p.count != 1 else ''}"
    dirs = [_DIRECTION_WORDS[r] for r in p.rotation]
    if len(set(dirs)) == 1:
        return (
            f"before play every player passes {cards} {dirs[0]}, all at once"
            if dirs[0] != "not at all"
            else "no cards are passed"
        )
    return f"before play every player passes {cards}, all at once, in turn from deal to deal: " + ", ".join(dirs)


def _auction_words(a) -> str:
    """The auction in words: who starts, the range of bids, passing again, holding, the seller
    and what happens when everybody passes."""
    first = seat(a.first.text) if a.first is not None else seat("left(dealer)")
    step = a.step
    grid = f" in steps of {step}" if step != 1 else ""
    hold = ", or matches it if he speaks before its bidder" if a.hold else ""
    if a.passes == "again":
        passing = (
            "or passes and may bid again on his next turn; the bidding ends when every other bidder has "
            "passed in turn since the last bid"
        )
    else:
        passing = "or passes and is out; the bidding ends when every other bidder has passed"
    text = (
        f"before play, starting with {first} and going round, each player bids more than the bid standing"
        f"{hold} (from {a.min} to {a.max}{grid}) {passing}"
    )
    if a.allow is not None:
        why = f" ({a.allow_reason})" if a.allow_reason else ""
        text += f"; a bid is allowed only where {expr_words(a.allow.text)}{why}"
    if a.seller is None:
        fallback = seat(a.if_all_pass.text) if a.if_all_pass is not None else seat("dealer")
        return (
            text + f"; the last bidder left wins the auction with his bid; if everybody passes, "
            f"{fallback} plays at {a.min}"
        )
    text += (
        f"; {seat(a.seller.text)} does not bid but sells: he accepts the best bid (its bidder wins the auction "
        "with it) or refuses it and plays himself (as the auction's winner, with a bid of 0)"
    )
    if a.decline is not None:
        low = "nobody bid" if a.decline.up_to == 0 else f"the best bid is at most {a.decline.up_to}"
        text += (
            f"; when {low} he may instead decline the deal, which is not played and scores "
            f"{expr_words(a.decline.score.text)} for each seat"
        )
    return text
