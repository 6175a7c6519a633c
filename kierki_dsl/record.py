"""Game records (``kierki-record/1``): writing them safely, reading and re-checking them.

A record is JSON: ``{"format": "kierki-record/1", "deals": [...]}``; each deal has
``dealer``, ``hands`` (by seat, in the order dealt), ``trump`` (a suit letter or null),
``plays`` (cards in play order; ``"pass"`` in layout deals) and optionally ``scores``.
The deal's position in the ruleset's schedule says which contract it is. Everything else
(``contract``, ``seed``, ``ruleset``, ``totals``) is informative and never required.
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import phases
from .cards import CardError, card_str, parse_card, popcount
from .diagnostics import quoted
from .interpreter import matchvalues
from .paths import OUTPUT_MODE, ReadError, read_limited, write_atomic  # noqa: F401  (records are written through the one output module)
from .values import define, frozen

FORMAT = "kierki-record/1"
MAX_RECORD_BYTES = 16 * 1024 * 1024


def deal_entry(result) -> dict:
    """The record of one played deal (a ``DealResult``)."""
    entry = {
        "contract": result.contract.name,
        "dealer": result.dealer,
        "hands": [[card_str(c) for c in hand] for hand in result.dealt],
        "trump": None if result.trump < 0 else "SHDC"[result.trump],
        "caller": None if result.caller < 0 else result.caller,
        "plays": list(result.plays),
        "scores": list(result.scores),
    }
    for unit in _sections():
        section = unit.record_section(result)
        if section:
            entry[unit.record_key] = section
    return entry


def match_record(ruleset, seed: Optional[int], first_dealer: int, results) -> dict:
    """A played match (its deals' results) as a JSON-ready record that ``replay`` checks."""
    totals = [0] * ruleset.players
    for r in results:
        totals = list(r.totals)
    return {
        "format": FORMAT,
        "ruleset": {"name": ruleset.name, "path": ruleset.path, "fingerprint": ruleset.fingerprint},
        "seed": seed,
        "players": ruleset.players,
        "first_dealer": first_dealer,
        "deals": [deal_entry(r) for r in results],
        "totals": totals,
    }


class RecordError(Exception):
    """A record that cannot be read at all (not JSON, wrong format, wrong shape)."""


@frozen
class Violation:
    """A rule a record breaks, located by deal (1-based), trick and seat where they apply."""

    deal: int
    message: str
    trick: Optional[int] = None
    seat: Optional[int] = None
    turn_word: str = "trick"

    def __str__(self) -> str:
        where = f"deal {self.deal}"
        if self.trick is not None:
            where += f", {self.turn_word} {self.trick}"
        if self.seat is not None:
            where += f", seat {self.seat}"
        return f"{where}: {self.message}"


@define
class ReplayReport:
    deals: list = attrs.Factory(list)  # dicts: contract, scores
    totals: list = attrs.Factory(list)
    violations: list = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "deals": self.deals,
            "totals": self.totals,
            "violations": [
                {"deal": v.deal, "trick": v.trick, "seat": v.seat, "message": v.message, "text": str(v)}
                for v in self.violations
            ],
        }


def _record_schema():
    """The shape of a ``kierki-record/1`` document (values are checked by ``replay``)."""
    from .jsonshape import Int, List, Null, Obj, OneOf, Str

    cards = List(Str(), name="a list of cards")
    deal = Obj(
        {
            "contract": OneOf((Str(), Null())),
            "dealer": Int(name="a seat number"),
            "hands": List(cards, name="a list of hands (lists of cards)"),
            "trump": OneOf((Str(), Null()), name="a suit letter or null"),
            "caller": OneOf((Int(), Null()), name="a seat number or null"),
            "plays": List(Str(), name='a list of cards ("pass" in layout deals)'),
            "scores": OneOf((List(Int()), Null()), name="a list of integers or null"),
            "passes": List(cards, name="a list of passed cards per seat"),
            "bets": List(Str(), name='a list of bets such as "double:1"'),
            "exchange": List(Str(), name="a list of cards (a widow's taker's)"),
            "auction": List(Str(), name='a list of bids such as "bid:120", "pass", "accept"'),
            "added": List(Str(), name='a list of actions of phases added by a module, such as "face_down:KH"'),
        },
        required=("dealer", "hands", "plays"),
        name="a deal (an object)",
    )
    ruleset = Obj({"name": Str(), "path": Str(), "fingerprint": Str()}, name="an object")
    return Obj(
        {
            "format": Str(),
            "ruleset": OneOf((ruleset, Null()), name="an object or null"),
            "seed": OneOf((Int(), Null()), name="an integer or null"),
            "players": Int(1, 8),
            "first_dealer": OneOf((Int(), Null()), name="a seat number or null"),
            "deals": List(deal, name="a list of deals"),
            "totals": List(Int(), name="a list of integers"),
        },
        required=("format", "deals"),
        name="a JSON object with 'format' and 'deals'",
    )


def read_record(path: str) -> dict:
    """Load a record file; raise ``RecordError`` (``FILE:LINE: error: ...``) if it is unusable:
    not UTF-8, not JSON, nested too deeply, another format, or not of the record's shape."""
    from .jsonshape import ShapeError, check, line_of, load

    try:
        data = read_limited(path, MAX_RECORD_BYTES)
    except ReadError as e:
        raise RecordError(
            f"{path}: error: record is {e.size} bytes (limit {MAX_RECORD_BYTES})"
            if e.size is not None
            else f"{path}: error: cannot read record: {e}"
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RecordError(f"{path}:{line}: error: record is not UTF-8 (byte {e.start})") from None
    try:
        obj, lines = load(text)
    except ShapeError as e:
        raise RecordError(f"{path}:{e.where}: error: record is {e.message}") from None
    if not isinstance(obj, dict):
        raise RecordError(f"{path}:1: error: a record is a JSON object with 'format' and 'deals'")
    if obj.get("format") != FORMAT:
        raise RecordError(
            f"{path}:{line_of(lines, ('format',))}: error: unknown record format "
            f"{quoted(obj.get('format'))} (expected {FORMAT!r})"
        )
    problem = check(obj, _record_schema())
    if problem is not None:
        where, message = problem
        raise RecordError(f"{path}:{line_of(lines, where)}: error: {message}")
    return obj


def fingerprint_warning(ruleset, record: dict, path: str) -> Optional[str]:
    """A warning when the record names a ruleset fingerprint other than ``ruleset``'s."""
    named = record.get("ruleset")
    if not isinstance(named, dict):
        named = {}
    theirs = named.get("fingerprint")
    if not isinstance(theirs, str) or theirs == ruleset.fingerprint:
        return None
    what = f" ({named['name']})" if isinstance(named.get("name"), str) else ""
    return (
        f"{path}: warning: the record was played under ruleset {theirs}{what}, not {ruleset.fingerprint} "
        f"({ruleset.path}): another ruleset or another version of it; every play is checked against the one given"
    )


def replay(ruleset, record: dict) -> ReplayReport:
    """Re-check every deal of a record against the ruleset; collect violations."""
    report = ReplayReport()
    n = ruleset.players
    totals = [0] * n
    deals = record["deals"]
    first_dealer = None
    chosen: dict = {}
    if isinstance(record.get("players"), int) and record["players"] != n:
        report.violations.append(
            Violation(1, f"the record is of a match of {record['players']} players; the ruleset seats {n}")
        )
        return report
    if record.get("fixed_deals") is True:  # a match of given deals (--deals): each names its contract
        return _replay_fixed(ruleset, deals, report)
    for k, entry in enumerate(deals):
        if ruleset.match_over(k, totals):
            report.violations.append(
                Violation(k + 1, f"the match is over after {k} deals but the record has {len(deals)}")
            )
            break
        if isinstance(entry, dict) and isinstance(entry.get("dealer"), int) and first_dealer is None:
            first_dealer = (entry["dealer"] - ruleset.direction * (k // ruleset.deals_per_dealer)) % n
        contract, violation = _chosen(ruleset, ruleset.contract_at(k), k, entry, chosen)
        if violation is not None:
            report.violations.append(violation)
            report.deals.append({"contract": None, "scores": None})
            continue
        matchvalues.note(chosen, totals, k)
        scores, violation = _replay_deal(ruleset, contract, k, entry, first_dealer, chosen)
        if violation is not None:
            report.violations.append(violation)
            report.deals.append({"contract": contract.name, "scores": None})
            continue
        totals = [t + s for t, s in zip(totals, scores)]
        report.deals.append({"contract": contract.name, "scores": scores})
    report.totals = totals
    return report


def _replay_fixed(ruleset, deals: list, report: ReplayReport) -> ReplayReport:
    """Re-check a record of fixed deals: any number of deals, each of the contract it names,
    dealt by the dealer it names (no schedule, no dealer rotation)."""
    from .interpreter.protocol import CompiledContract

    totals = [0] * ruleset.players
    memory: dict = {}  # as the match of fixed deals keeps it (the running totals, duties)
    for k, entry in enumerate(deals):
        name = entry.get("contract") if isinstance(entry, dict) else None
        contract = ruleset.contracts.get(name) if isinstance(name, str) else None
        if not isinstance(contract, CompiledContract):
            report.violations.append(
                Violation(k + 1, f"'contract' must name a contract of the ruleset, got {quoted(name)}")
            )
            report.deals.append({"contract": None, "scores": None})
            continue
        matchvalues.note(memory, totals, k)
        scores, violation = _replay_deal(ruleset, contract, k, entry, None, memory)
        report.deals.append({"contract": contract.name, "scores": scores})
        if violation is not None:
            report.violations.append(violation)
            continue
        totals = [t + s for t, s in zip(totals, scores)]
    report.totals = totals
    return report


def _chosen(ruleset, slot, k: int, entry, chosen: dict):
    """The contract deal k plays: the slot's own, or the one a record names for a
    declarer's-choice deal, if the chooser may name it."""
    from .interpreter.match import MatchError

    d = k + 1
    if not isinstance(entry, dict):
        return None, Violation(d, "a deal must be a JSON object")
    # a bad dealer or bad hands are reported by _replay_deal, which checks them in full
    dealer = entry.get("dealer")
    dealer = dealer if isinstance(dealer, int) and 0 <= dealer < ruleset.players else 0
    dealt, problem = _hands(entry.get("hands"), ruleset)
    masks = [0] * ruleset.players if problem else [sum(1 << c for c in h) for h in dealt]
    named = entry.get("contract")

    def pick(chooser: int, allowed: list) -> int:
        names = [c.name for c in slot.options]
        if named not in names:
            raise MatchError(
                f"a declarer's-choice deal needs 'contract', one of {', '.join(names)}; got {quoted(named)}"
            )
        if names.index(named) not in allowed:
            raise MatchError(f"seat {chooser} already chose {quoted(named)} in this match")
        return names.index(named)

    try:
        contract = slot.resolve(dealer, ruleset.players, masks, ruleset.deck, chosen, pick)
    except MatchError as e:
        return None, Violation(d, str(e))
    if isinstance(named, str) and named != contract.name:
        return None, Violation(
            d, f"the record names contract {quoted(named)}, but deal {d} of this ruleset plays {contract.name!r}"
        )
    return contract, None


def _replay_deal(ruleset, contract, k: int, entry, first_dealer: Optional[int], memory: Optional[dict] = None):
    n = ruleset.players
    d = k + 1
    if not isinstance(entry, dict):
        return None, Violation(d, "a deal must be a JSON object")
    dealer = entry.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        return None, Violation(d, f"'dealer' must be a seat 0..{n - 1}, got {quoted(dealer)}")
    if first_dealer is not None and dealer != ruleset.dealer_of(first_dealer, k):
        return None, Violation(
            d,
            f"dealer is seat {dealer} but the deal passes on in turn: expected seat {ruleset.dealer_of(first_dealer, k)}",
        )
    dealt, problem = _hands(entry.get("hands"), ruleset)
    if problem:
        return None, Violation(d, f"hands are not a valid deal: {problem}")
    if k == 0 and ruleset.first_dealer_expr is not None:
        named = ruleset.first_dealer_from([sum(1 << c for c in h) for h in dealt], dealer)
        if named != dealer:
            return None, Violation(
                d, f"dealer is seat {dealer} but the first dealer is {ruleset.first_dealer_text}: seat {named}"
            )
    state = contract.new_deal(n, ruleset.deck, dealer, dealt, ruleset.direction, k + 1, memory)
    v = _replay_phases(state, entry, d, contract.name)
    if v is not None:
        return None, v
    state.remember(memory)  # later deals check a duty to double against it
    scores = state.returns()
    recorded = entry.get("scores")
    if recorded is not None and list(recorded) != scores:
        return None, Violation(d, f"recorded scores {list(recorded)} disagree with the rules, which give {scores}")
    return scores, None


def _sections() -> list:
    """The phases that write a section of their own, one per record key, in the order records
    keep their keys."""
    units: dict = {}
    for unit in sorted(phases.UNITS.values(), key=lambda u: u.record_rank):
        if unit.record_key:
            units.setdefault(unit.record_key, unit)
    return list(units.values())


def _replay_phases(state, entry: dict, d: int, contract: str) -> Optional[Violation]:
    """Apply a deal's recorded actions, each from the section of the phase deciding (its
    ``record_*`` hooks say how it is kept); the violation, if any."""
    lanes: dict = {}  # record key -> the section's lists of entries, by lane
    taken: dict = {}  # (record key, lane) -> the entries applied
    units: dict = {}  # record key -> the phase that read it
    deciding: dict = {}  # the deal's phase -> its unit (asked of a seat's view once per phase)
    while not state.is_terminal():
        seat = state.current_player()
        unit = deciding.get(state.phase)
        if unit is None:
            unit = deciding[state.phase] = phases.phase_of(state.view(seat))
        where = {"seat": seat}
        if unit.record_by_trick:
            where.update(trick=state.position()[0], turn_word=state.contract.turn_word)
        key = unit.record_key
        if key not in lanes:
            lanes[key], problem = unit.record_lanes(entry.get(key), state.players)
            if problem is not None:
                return Violation(d, problem, **where)
            units[key] = unit
        lane = unit.record_lane(seat)
        entries = lanes[key].get(lane, [])
        i = taken.get((key, lane), 0)
        if i >= len(entries):
            return Violation(d, unit.record_short(state, seat, entries), **where)
        try:
            action = unit.record_action(entries[i])
        except ValueError as e:
            return Violation(d, str(e), **where)
        v = _apply_checked(state, action, d, unit.record_shown(entries[i]), **where)
        if v is not None:
            return v
        taken[key, lane] = i + 1
    return _left_over(state, entry, d, contract, lanes, taken, units)


def _left_over(state, entry: dict, d: int, contract: str, lanes: dict, taken: dict, units: dict) -> Optional[Violation]:
    """The violation of a record that holds more than the deal took: entries left in a section the
    deal read, a section of a phase the deal never came to, or a trump that is not the deal's."""
    for key, by_lane in lanes.items():
        for lane, entries in by_lane.items():
            if taken.get((key, lane), 0) < len(entries):
                return Violation(d, units[key].record_extra(entries, taken.get((key, lane), 0)))
    for unit in _sections():
        if unit.record_key not in lanes:
            message = unit.record_absent(entry.get(unit.record_key), contract, d)
            if message is not None:
                return Violation(d, message)
    trump = entry.get("trump")
    got = None if trump is None else str(trump).upper()
    want = None if state.record_trump() < 0 else "SHDC"[state.record_trump()]
    if got != want:
        return Violation(d, f"'trump' is {quoted(trump)} but this contract has {'no trumps' if want is None else want}")
    return None


def _apply_checked(state, action: int, deal: int, shown: str, **where) -> Optional[Violation]:
    """Apply a recorded action, or the violation naming the rule it breaks."""
    reason = state.why_illegal(action)
    if reason is not None:
        return Violation(deal, f"{shown} is illegal: {reason}", **where)
    state.apply_action(action)
    return None


def _hands(hands, ruleset):
    n = ruleset.players
    if not isinstance(hands, list) or len(hands) != n:
        return None, f"'hands' must be {n} lists of cards"
    dealt = []
    seen = 0
    for s, hand in enumerate(hands):
        if not isinstance(hand, list):
            return None, f"hand of seat {s} is not a list"
        cards = []
        for t in hand:
            try:
                c = parse_card(str(t))
            except CardError as e:
                return None, f"seat {s}: {e}"
            if seen >> c & 1:
                return None, f"{card_str(c)} is dealt twice"
            if not ruleset.deck >> c & 1:
                return None, f"{card_str(c)} is not in this ruleset's deck"
            seen |= 1 << c
            cards.append(c)
        if len(cards) != ruleset.hand_size:
            return None, f"seat {s} has {len(cards)} cards, a hand is {ruleset.hand_size}"
        dealt.append(cards)
    if seen != ruleset.deck:
        return None, f"{popcount(ruleset.deck & ~seen)} cards of the deck are missing"
    return dealt, None
