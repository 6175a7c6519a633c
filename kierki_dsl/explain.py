"""``kierki explain`` and ``kierki diff``: the rules of a ruleset in words, from its data.

Every contract is described by aspects (dealing, trumps, lead, play, scoring, end, total),
each one sentence generated from the validated data; expressions are put into words where
they follow a common pattern and quoted as written otherwise. ``diff`` compares two
rulesets aspect by aspect, deal by deal, in the same words. The vocabulary (and the phases'
share of it) is ``words``; its names stay importable from here.
"""

from __future__ import annotations

import os

from .cards import card_pretty
from .exprwords import words
from .i18n import language, tr, trn, using
from .words import PHASE_WORDS, aspect_name, aspects, cards, contract_title, seat, signed, tricks_when

__all__ = ["explain", "diff", "aspects", "cards", "seat", "tricks_when", "PHASE_WORDS"]


def _parts_words(rs) -> list:
    """The match's declared parts (``match.parts``) as (name, sentence) pairs."""
    out = []
    for p in rs.parts:
        title = p.pl or p.name or tr("part")
        if p.en and language() == "en":
            title += f" — {p.en}"
        total = tr(", adding up to {points}").format(points=signed(p.total)) if p.total is not None else ""
        out.append((title, tr("deals {first}–{last}{total}").format(first=p.first, last=p.last, total=total)))
    return out


def explain(rs) -> str:
    """The whole ruleset as text for players (its own sentences in its words for the language in force)."""
    with using(None, rs.words):
        return _explained(rs)


def _explained(rs) -> str:
    lines = [rs.name, "=" * len(rs.name)]
    if rs.description_from:  # the base's words may be wrong for the variant: not shown as its own
        lines += [
            tr("A variant of {file} (this file has no description of its own).").format(
                file=os.path.basename(rs.description_from)
            ),
            "",
        ]
    elif rs.description:
        described = " ".join(rs.description.split())  # a shipped ruleset's description has Polish words too
        lines += [tr(described), ""]
    cards = bin(rs.deck).count("1")  # "52 karty", "32 karty", "24 karty", "36 kart": the number's own form
    lines.append(
        (
            tr("{players} players, {cards}; play, dealing and the deal pass clockwise.")
            if rs.direction == 1
            else tr("{players} players, {cards}; play, dealing and the deal pass counter-clockwise.")
        ).format(players=rs.players, cards=trn("{count} card", "{count} cards", cards).format(count=cards))
    )
    n = len(rs.schedule) * rs.series
    deals = trn("{count} deal", "{count} deals", n).format(count=n)
    what = (
        tr("The schedule has {deals}; the first dealer is {dealer}.")
        if rs.until is not None
        else tr("A match is {deals}; the first dealer is {dealer}.")
    )
    lines.append(what.format(deals=deals, dealer=_first_dealer_words(rs)))
    if rs.total is not None:
        lines.append(tr("The final scores add up to {points}.").format(points=signed(rs.total)))
    for title, sentence in _parts_words(rs):
        lines.append(tr("Part {title}: {sentence}.").format(title=title, sentence=sentence))
    lines.append("")
    if rs.deals_per_dealer > 1:
        lines.insert(-1, tr("Each dealer deals {count} deals in a row.").format(count=rs.deals_per_dealer))
    if rs.series > 1:
        lines.insert(
            -1,
            tr(
                "The schedule below is played {count} times; each series starts with the dealer after "
                "the one who started the previous series."
            ).format(count=rs.series),
        )
    if rs.until is not None:
        lines.append(tr("The schedule is played again and again until {until}.").format(until=_until_words(rs)))
        lines.append("")
    seen = set()
    options: list = []
    again: list = []  # a run of repeated deals: [first, last, what]

    def close_run() -> None:
        if again:
            first, last, what = again
            lines.append(
                tr("Deal {first}: {what} again.").format(first=first, what=what)
                if first == last
                else tr("Deals {first}–{last}: {what} again.").format(first=first, last=last, what=what)
            )
            again.clear()

    def repeat(k: int, what: str) -> None:
        if again and again[1] == k - 1 and again[2] == what:
            again[1] = k
        else:
            close_run()
            again.extend([k, k, what])

    for k, c in enumerate(rs.schedule, start=1):
        if id(c) in seen:
            repeat(k, _title(c))
            continue
        close_run()
        seen.add(id(c))
        lines.append(tr("Deal {number}: {title}").format(number=k, title=_title(c)))
        for key, text in c.words(rs).items():
            lines.append(f"  {aspect_name(key)}: {text}.")
        options.extend(o for o in c.offered if o not in options)
    close_run()
    if options:
        lines += ["", tr("The contracts to choose from:")]
        for c in options:
            lines.append(_title(c))
            for key, text in aspects(rs, c.name).items():
                lines.append(f"  {aspect_name(key)}: {text}.")
    return "\n".join(lines) + "\n"


def _title(c) -> str:
    """A deal's title: ``Polish — English`` in English, the Polish name alone in Polish (``contract_title``)."""
    return c.title()


def _until_words(rs) -> str:
    """When a match played ``until`` a condition ends, in words."""
    return tr("{condition} after a deal (at most {count} deals)").format(
        condition=words(rs.until_text), count=rs.max_deals
    )


def _first_dealer_words(rs) -> str:
    if rs.first_dealer_expr is not None:
        return tr("{seat} in the first deal (dealt from a seat drawn at random; the hands stay as dealt)").format(
            seat=seat(rs.first_dealer_text)
        )
    return tr("chosen at random") if rs.first_dealer is None else tr("seat {seat}").format(seat=rs.first_dealer)


def _parts_by_name(rs) -> dict:
    """The match's parts keyed by their ``name`` (so that retitling one is a change, not a
    removal and an addition), each as its title and sentence."""
    return {p.name or title: (title, words) for p, (title, words) in zip(rs.parts, _parts_words(rs))}


def diff(a, b) -> str:
    """What changes at the table from ruleset ``a`` to ruleset ``b``, in the words of explain."""
    out = []
    if a.players != b.players:
        out.append(tr("players") + f": {a.players} → {b.players}")
    if a.deck != b.deck:
        out.append(tr("cards") + f": {bin(a.deck).count('1')} → {bin(b.deck).count('1')}" + _removed(a.deck, b.deck))
    if a.direction != b.direction:
        out.append(
            tr("direction")
            + ": "
            + " → ".join(tr("clockwise") if d == 1 else tr("counter-clockwise") for d in (a.direction, b.direction))
        )
    if a.total != b.total:
        out.append(" → ".join([tr("match total") + ": " + _total_words(a.total), _total_words(b.total)]))
    if len(a.schedule) * a.series != len(b.schedule) * b.series:
        out.append(tr("deals in a match") + f": {len(a.schedule) * a.series} → {len(b.schedule) * b.series}")
    if a.series != b.series:
        out.append(tr("series of the schedule, each starting with the next dealer") + f": {a.series} → {b.series}")
    if (a.first_dealer, a.first_dealer_text) != (b.first_dealer, b.first_dealer_text):
        out.append(tr("first dealer") + f": {_first_dealer_words(a)} → {_first_dealer_words(b)}")
    if (a.until_text, a.max_deals if a.until is not None else 0) != (
        b.until_text,
        b.max_deals if b.until is not None else 0,
    ):
        out.append(
            tr("end of the match")
            + ": "
            + " → ".join(
                tr("until {until}").format(until=_until_words(r)) if r.until is not None else tr("after the schedule")
                for r in (a, b)
            )
        )
    pa, pb = _parts_by_name(a), _parts_by_name(b)
    for name in dict.fromkeys(list(pa) + list(pb)):
        (ta, wa), (tb, wb) = pa.get(name, (None, tr("(none)"))), pb.get(name, (None, tr("(none)")))
        if ta == tb or None in (ta, tb):
            if wa != wb:
                out.append(tr("part") + f" {ta or tb}: {wa} → {wb}")
        else:
            out.append(tr("part") + f" {name}: {ta}: {wa} → {tb}: {wb}")
    if a.deals_per_dealer != b.deals_per_dealer:
        out.append(tr("deals in a row by each dealer") + f": {a.deals_per_dealer} → {b.deals_per_dealer}")
    changes: dict = {}  # (aspect, old, new) -> deal numbers, so a change common to many deals is said once
    for ka, kb in _aligned(a.schedule, b.schedule):
        ca = a.schedule[ka] if ka is not None else None
        cb = b.schedule[kb] if kb is not None else None
        deal = (kb if kb is not None else ka) + 1
        if ca is None or cb is None:
            what = ("contract", contract_title(ca) if ca else tr("(none)"), contract_title(cb) if cb else tr("(none)"))
            changes.setdefault(what, []).append(deal)
            continue
        if contract_title(ca) != contract_title(cb):  # in Polish a title is its Polish name alone
            changes.setdefault(("contract", contract_title(ca), contract_title(cb)), []).append(deal)
        xa, xb = ca.words(a), cb.words(b)
        for key in list(dict.fromkeys(list(xa) + list(xb))):
            if xa.get(key) != xb.get(key):
                changes.setdefault((key, xa.get(key, tr("(nothing)")), xb.get(key, tr("(nothing)"))), []).append(deal)
    for (key, old, new), deals in changes.items():
        where = _deal_list(deals, max(len(a.schedule), len(b.schedule)))
        out.append(f"{where}, {aspect_name(key)}: {_change(old, new)}")
    out += _offered_changes(a, b)
    return "\n".join(out) + "\n" if out else tr("no differences at the table") + "\n"


def _aligned(sa: list, sb: list) -> list:
    """The deals of two schedules paired by contract ((index in a or None, index in b or None)):
    one deal inserted or removed pairs the rest with their own contracts, not with their
    neighbours (a deal renamed in place is still paired with its old self)."""
    import difflib

    pairs: list = []
    ops = difflib.SequenceMatcher(None, [c.name for c in sa], [c.name for c in sb], autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        same = (i2 - i1) if tag == "equal" else min(i2 - i1, j2 - j1) if tag == "replace" else 0
        pairs += [(i1 + k, j1 + k) for k in range(same)]
        pairs += [(i, None) for i in range(i1 + same, i2)] + [(None, j) for j in range(j1 + same, j2)]
    return pairs


def _change(old: str, new: str) -> str:
    """``old → new``; for two long sentences, the words they share said once and only the part
    that differs shown as a change: ``... [old part → new part] ...``, its parentheses whole
    (``Bez panów ([kings and jacks → jacks] taken: -30 each)``)."""
    if len(old) < 80 or len(new) < 80:
        return f"{old} → {new}"
    wa, wb = old.split(" "), new.split(" ")
    head = 0
    while head < min(len(wa), len(wb)) and wa[head] == wb[head]:
        head += 1
    tail = 0
    while tail < min(len(wa), len(wb)) - head and wa[-1 - tail] == wb[-1 - tail]:
        tail += 1
    if head + tail < 4:  # hardly anything shared: both in full
        return f"{old} → {new}"
    lead, mid_a, mid_b, trail = _parenthesised(" ".join(wa[head : len(wa) - tail]), " ".join(wb[head : len(wb) - tail]))
    if _depth(mid_a) or _depth(mid_b):  # a parenthesis still cut: share fewer words until both are whole
        head, tail = _whole_parentheses(wa, wb, head, tail)
        lead, trail = "", ""
        mid_a, mid_b = " ".join(wa[head : len(wa) - tail]), " ".join(wb[head : len(wb) - tail])
    inner = f"{lead}[{mid_a or '(nothing)'} → {mid_b or '(nothing)'}]{trail}"
    return " ".join(x for x in (" ".join(wa[:head]), inner, " ".join(wa[len(wa) - tail :])) if x)


def _depth(text: str) -> int:
    """The parentheses ``text`` opens and does not close (negative: closes and did not open)."""
    return text.count("(") - text.count(")")


def _parenthesised(mid_a: str, mid_b: str) -> tuple:
    """``(lead, mid_a, mid_b, trail)``: an opening parenthesis both changed parts start with
    (and do not close) said once before the change, a closing one both end with after it."""
    lead = trail = ""
    while mid_a[:1] == mid_b[:1] == "(" and _depth(mid_a) > 0 and _depth(mid_b) > 0:
        lead, mid_a, mid_b = lead + "(", mid_a[1:], mid_b[1:]
    while mid_a[-1:] == mid_b[-1:] == ")" and _depth(mid_a) < 0 and _depth(mid_b) < 0:
        trail, mid_a, mid_b = ")" + trail, mid_a[:-1], mid_b[:-1]
    return lead, mid_a, mid_b, trail


def _whole_parentheses(wa: list, wb: list, head: int, tail: int) -> tuple:
    """``head`` and ``tail`` (the words two sentences share at each end) given up word by word
    until each changed part holds whole parentheses."""
    while head or tail:
        ends = [_depth(" ".join(w[head : len(w) - tail])) for w in (wa, wb)]
        if not any(ends):
            break
        if any(e > 0 for e in ends) and tail:
            tail -= 1
        elif head:
            head -= 1
        else:
            tail -= 1
    return head, tail


def _offered_changes(a, b) -> list:
    """Changes in the contracts a declarer chooses from (their rules are not a deal's own words)."""

    def offered(rs) -> dict:
        return {o.name: o for c in rs.schedule for o in c.offered}

    oa, ob = offered(a), offered(b)
    out = []
    for name in [n for n in ob if n in oa]:
        xa, xb = aspects(a, name), aspects(b, name)
        for key in dict.fromkeys(list(xa) + list(xb)):
            if xa.get(key) != xb.get(key):
                old, new = xa.get(key, tr("(nothing)")), xb.get(key, tr("(nothing)"))
                out.append(tr("contract") + f" {contract_title(ob[name])}, {aspect_name(key)}: {old} → {new}")
    return out


def _total_words(total) -> str:
    """A declared match total, or ``(none)`` where the ruleset declares none."""
    return tr("(none)") if total is None else str(total)


def _deal_list(deals: list, total: int) -> str:
    """``deals 8-11``, ``deal 2``, or ``every deal`` when the deals are all ``total`` of the longer schedule."""
    if len(deals) > 1 and sorted(set(deals)) == list(range(1, total + 1)):
        return tr("every deal")
    runs, start = [], deals[0]
    for prev, cur in zip(deals, deals[1:] + [None]):
        if cur != prev + 1 if cur is not None else True:
            runs.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = cur
    numbers = ", ".join(runs)
    return (tr("deal {numbers}") if len(deals) == 1 else tr("deals {numbers}")).format(numbers=numbers)


def _removed(da: int, db: int) -> str:
    gone = [c for c in range(52) if da >> c & 1 and not db >> c & 1]
    added = [c for c in range(52) if db >> c & 1 and not da >> c & 1]
    parts = []
    if gone:
        parts.append(tr("without {cards}").format(cards=" ".join(card_pretty(c) for c in gone)))
    if added:
        parts.append(tr("with {cards}").format(cards=" ".join(card_pretty(c) for c in added)))
    return f" ({'; '.join(parts)})" if parts else ""
