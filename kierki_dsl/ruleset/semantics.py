"""Rule semantics computed from the ruleset itself: totals, dead rules, impossible settings."""

from __future__ import annotations

import os
from typing import Optional

from ..diagnostics import Diagnostics, did_you_mean
from ..i18n import L_
from ..interpreter.catalogue import DEAL_TYPES
from ..spec.yamlsafe import node_path
from .format import MATCH


def contract_total(c, hand_size: int, players: int, deck: int) -> Optional[int]:
    """The sum of all seats' points in one deal of ``c``, if the rules fix it; else None."""
    return None if c is None else c.fixed_total(hand_size, players, deck)


def part_of(rs, contract) -> str:
    """'negative' for a contract whose deals lose points in all, else 'positive' (how
    ``kierki ladder``, the tournament and compare split a match)."""
    t = contract_total(contract, rs.hand_size, rs.players, rs.deck)
    return "negative" if (t is not None and t < 0) else "positive"


def range_total(schedule: list, computed: dict, players: int, first: int, last: int) -> Optional[int]:
    """The fixed sum of deals first..last (0-based, inclusive), if the rules fix it.

    Consecutive deals of one schedule slot form a block that the slot totals itself
    (``block_total``): a contract's deals add up one by one; a block of declarer's-choice deals
    in which every chooser names every contract once adds up to players × the options' totals.
    """
    total, i = 0, first
    while i <= last:
        c = schedule[i]
        if c is None:
            return None
        j = i
        while j <= last and schedule[j] is c:
            j += 1
        cut = (i == first and i > 0 and schedule[i - 1] is c) or (j < len(schedule) and schedule[j] is c)
        got = c.block_total(j - i, cut, computed, players)
        if got is None:
            return None
        total += got
        i = j
    return total


def check_ruleset(spec, compiled: dict, schedule: list, bctx, hand_size: int, diags: Diagnostics) -> None:
    """Semantic checks that need the compiled contracts; findings go to ``diags``."""
    players, deck = bctx.players, bctx.deck
    contracts_spec = bctx.specs
    computed = {}
    for name, c in compiled.items():
        if c is None:
            _check_partial(name, bctx, hand_size, players, deck)
            continue
        w = ("contracts", name)
        total = contract_total(c, hand_size, players, deck)
        computed[name] = total
        declared = contracts_spec[name].total
        if declared is not None and total is not None and total != declared:
            _total_differs(bctx, w, name, declared, total)
        _check_contract(name, c, w, bctx, hand_size, players, deck)
    check_inherited_reasons(bctx)
    if any(p[:2] in (("match",), ("match", "schedule")) for p in bctx.invalid):
        return  # the schedule was left out, or part of it: its length and totals are not known
    # the match total
    match = spec.match if spec.match is not None else MATCH.defaults()  # None: reported
    declared = match.total
    series = match.series or 1
    if declared is not None and schedule and all(c is not None for c in schedule):
        got = range_total(schedule, computed, players, 0, len(schedule) - 1)
        got = None if got is None else got * series
        if got is not None and got != declared:
            per = [computed.get(c.name) for c in schedule]
            bctx.error(
                ("match", "total"),
                "M609",
                L_(
                    "the match declares total {declared} but its deals add up to {got} ({series} series)",
                    declared=declared,
                    got=got,
                    series=series,
                )
                if series > 1
                else L_(
                    "the match declares total {declared} but its deals add up to {got}", declared=declared, got=got
                ),
                L_("per deal: {totals}", totals=", ".join(f"{c.name} {t}" for c, t in zip(schedule, per))),
            )
    _check_length(match, schedule, series, bctx)
    _check_match_values(match, schedule, series, bctx)
    _check_duties(compiled, match.deals_per_dealer, bctx)
    # declared totals of parts
    for i, part in enumerate(match.parts):
        if part.first is None or part.last is None:  # reported
            continue
        pw = ("match", "parts", i)
        first, last = part.first, part.last
        if not 1 <= first <= last <= len(schedule):
            bctx.error(
                pw,
                "S204",
                L_(
                    "part {part!r} covers deals {first}-{last} but the schedule has {n_schedule}",
                    part=part.name,
                    first=first,
                    last=last,
                    n_schedule=len(schedule),
                ),
            )
            continue
        got = range_total(schedule, computed, players, first - 1, last - 1)
        if part.total is not None and got is not None and got != part.total:
            bctx.error(
                pw + ("total",),
                "M611",
                L_(
                    "part {part!r} declares total {total} but its deals add up to {got}",
                    part=part.name,
                    total=part.total,
                    got=got,
                ),
            )
    _check_choices(schedule, series, match.deals_per_dealer, players, bctx)
    check_unused(spec, bctx)


def check_unused(spec, bctx) -> None:
    """M608: contracts defined but never scheduled nor included (needs only the names; not
    run when the schedule was left out)."""
    if spec.match is None or any(p[:2] in (("match",), ("match", "schedule")) for p in bctx.invalid):
        return
    scheduled = set()
    for entry in spec.match.schedule or ():
        scheduled.add(entry if isinstance(entry, str) else entry.contract)  # a name, or an entry's spec
        if not isinstance(entry, str) and entry.choose is not None:
            scheduled.update(entry.choose.from_ or ())
    included: set = set()
    for s in bctx.specs.values():
        included.update(DEAL_TYPES[s.type].included(s))
    played = scheduled | included
    for name in bctx.specs:
        if name not in played:
            hint = did_you_mean(name, sorted(n for n in played if n in bctx.specs))
            if hint and bctx.locate(("contracts", name))[0] != bctx.locate(("contracts", hint.split("'")[1]))[0]:
                hint = L_("{hint} (a contract of the base ruleset is changed by writing its own name)", hint=hint)
            bctx.warning(
                ("contracts", name, "$key"),
                "M608",
                L_("contract {name!r} is defined but never scheduled or included", name=name),
                hint or L_("schedule it, or remove it (`{name}: null` under contracts)", name=name),
                advise=False,
            )


def _check_duties(compiled: dict, deals_per_dealer: int, bctx) -> None:
    """M632: a duty to double counts the deals one dealer deals in a row; another run length
    than the match's makes it end early or run on into the next dealer's count."""
    for name, c in compiled.items():
        rule = c.doubling if c is not None else None
        if rule is not None and rule.duty_deals and rule.duty_deals != deals_per_dealer:
            bctx.warning(
                ("contracts", name, "doubling", "duty", "deals"),
                "M632",
                L_(
                    "the duty counts runs of {duty_deals} deals, but each dealer deals {deals_per_dealer} in a row (match.deals_per_dealer)",
                    duty_deals=rule.duty_deals,
                    deals_per_dealer=deals_per_dealer,
                ),
                L_("make the two agree"),
            )


def _check_partial(name: str, bctx, hand_size: int, players: int, deck: int) -> None:
    """A contract with a schema error: its declared total is still checked when the error is
    elsewhere (M601); when the error is in what decides the total, M618 says it was skipped."""
    declared = bctx.specs[name].total
    if declared is None:
        return
    w = ("contracts", name)
    partial = bctx.partial.get(name)
    total = contract_total(partial, hand_size, players, deck) if partial is not None else None
    if partial is None:
        spec = bctx.specs[name]
        broken = [n for n in DEAL_TYPES[spec.type].included(spec) if n in bctx.built and bctx.built[n] is None]
        if broken and all(_says_its_own_skip(n, bctx) for n in broken):
            return  # said once, at the contract it includes (no follow-on of a follow-on)
        where = (
            L_("in it or in {names}, which it includes,", names=", ".join(repr(n) for n in broken))
            if broken
            else L_("in this contract")
        )
        includers = [] if broken else _includers(name, bctx)
        also = (
            L_(" (nor that of {names}, which includes it)", names=", ".join(repr(n) for n in includers))
            if includers
            else ""
        )
        bctx.warning(
            w + ("total",),
            "M618",
            L_(
                "the total of contract {name!r} was not checked{also}: the errors above {where} stop it",
                name=name,
                also=also,
                where=where,
            ),
            L_("fix them; the declared total is checked then"),
            advise=False,
        )
    elif total is not None and total != declared:
        _total_differs(bctx, w, name, declared, total)


def _total_differs(bctx, w: tuple, name: str, declared: int, total: int) -> None:
    """M601: contract ``name`` (at ``w``) declares a total its scoring does not give."""
    bctx.error(
        w + ("total",),
        "M601",
        L_(
            "contract {name!r} declares total {declared} but its scoring gives {total}",
            name=name,
            declared=declared,
            total=total,
        ),
        L_("correct the points or the declared total"),
    )


def _says_its_own_skip(name: str, bctx) -> bool:
    """Whether a broken contract reports its own M618 (it declares a total and its own errors stop it)."""
    spec = bctx.specs.get(name)
    return (
        spec is not None
        and spec.total is not None
        and bctx.partial.get(name) is None
        and not [n for n in DEAL_TYPES[spec.type].included(spec) if n in bctx.built and bctx.built[n] is None]
    )


def _includers(name: str, bctx) -> list:
    """The contracts with a declared total that include ``name``."""
    return [
        n
        for n, s in bctx.specs.items()
        if s is not None and s.total is not None and n != name and name in DEAL_TYPES[s.type].included(s)
    ]


#: A rule and the key that says it in words to a player who breaks it.
REASON_OF = {"lead_ban": "lead_ban_reason"}


def check_inherited_reasons(bctx) -> None:
    """M624: a variant that rewrites a rule but inherits its reason from the base would tell
    players the base's rule."""
    here = os.path.abspath(bctx.path)
    for name in bctx.specs:
        for rule, reason in REASON_OF.items():
            rule_node, reason_node = (
                bctx.nodes.get(("contracts", name, rule)),
                bctx.nodes.get(("contracts", name, reason)),
            )
            if rule_node is None or reason_node is None:
                continue
            base = node_path(reason_node, bctx.path)
            if os.path.abspath(node_path(rule_node, bctx.path)) != here or os.path.abspath(base) == here:
                continue
            said = " ".join(str(getattr(reason_node, "value", "")).split())
            bctx.warning(
                ("contracts", name, rule),
                "M624",
                L_(
                    "{rule} of {name!r} is changed here but {reason} is inherited from {base}: a player who breaks the new rule is told {said!r}",
                    rule=rule,
                    name=name,
                    reason=reason,
                    base=os.path.basename(base),
                    said=said,
                ),
                L_("write {reason} for the new rule, or '{reason}: null' to have it said from the rule", reason=reason),
            )


#: Deals in a match beyond which lint warns (Kierki plays 12, Barbu 28, WALC 4 × 12; Hearts
#: until -100 stops at max_deals 200).
LONG_MATCH = 1000


def _check_length(match, schedule: list, series: int, bctx) -> None:
    """M619: a match far longer than any real one (a slip in repeat, series or max_deals)."""
    if match.until is not None:
        n, where = (
            match.max_deals,
            ("match", "max_deals") if ("match", "max_deals") in bctx.nodes else ("match", "until"),
        )
        what = L_("may last up to {n} deals (max_deals)", n=n)
    else:
        n, where = len(schedule) * series, ("match", "series") if series > 1 else ("match", "schedule")
        what = (
            L_("lasts {n} deals ({scheduled} scheduled × {series} series)", n=n, scheduled=len(schedule), series=series)
            if series > 1
            else L_("lasts {n} deals", n=n)
        )
    if n > LONG_MATCH:
        bctx.warning(
            where,
            "M619",
            L_(
                "the match {what}: more than {limit}, far longer than any real match",
                what=what,
                limit=LONG_MATCH,
            ),
            L_("check repeat, series and max_deals"),
        )


def _check_match_values(match, schedule: list, series: int, bctx) -> None:
    """M643: rules that read the match's running totals in a match of one deal, where they are
    always those of the start (every total 0, no deal played)."""
    if match.until is not None or len(schedule) * series != 1 or schedule[0] is None:
        return
    for where in schedule[0].match_readers():
        bctx.warning(
            where,
            "M643",
            L_(
                "this rule reads the match's running totals (match.*), but the match is one deal: "
                "they are always those of its start (every total 0)"
            ),
            L_("play more deals (schedule, series, or until), or read the deal's own values"),
        )


def _check_choices(schedule: list, series: int, deals_per_dealer: int, players: int, bctx) -> None:
    """Each schedule slot checks how often the schedule uses it (``check_count``), in all and
    by the dealer (seats counted from the first dealer: the deal passes on after every
    ``deals_per_dealer`` deals, each series starting one seat on)."""
    played = schedule * series
    by_dealer: dict = {}
    for k, c in enumerate(played):
        if c is not None:
            run, j = divmod(k, len(schedule))
            seat = (run + j // deals_per_dealer) % players
            counts = by_dealer.setdefault(id(c), [0] * players)
            counts[seat] += 1
    seen = set()
    for c in played:
        if c is None or id(c) in seen:
            continue
        seen.add(id(c))
        c.check_count(sum(1 for x in played if x is c), players, bctx, max(by_dealer[id(c)]))


def _check_contract(name, c, w, bctx, hand_size, players, deck) -> None:
    c.check(name, bctx.specs[name], w, bctx, hand_size, players, deck)


__all__ = ["contract_total", "part_of", "range_total", "check_ruleset", "check_unused", "check_inherited_reasons"]
