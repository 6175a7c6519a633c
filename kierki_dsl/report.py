"""Text and JSON reports of matches, replays and findings."""

from __future__ import annotations

import json
from typing import Iterable, Optional

from .cards import suit_word
from .diagnostics import Diagnostic, quoted, render
from .i18n import tr
from .words import SEAT_LETTERS, contract_title, seat_name  # noqa: F401  (SEAT_LETTERS kept importable from here)


def read_seat(text: str, players: int) -> int:
    """A seat a person names: its number (``0``), its name at the table (``S``; ``P2``) or, at a
    table of four, its letter in any case; ``ValueError`` saying what may be written otherwise."""
    t = text.strip().upper()
    names = [seat_name(s, players).upper() for s in range(players)]
    if t in names:
        return names.index(t)
    if t.isdecimal() and len(t) <= 3 and int(t) < players:
        return int(t)
    raise ValueError(f"not a seat: {quoted(text)} (one of {', '.join(n for n in names)} or 0..{players - 1})")


def title_width(ruleset) -> int:
    """The width of the contract column: the longest title of the ruleset (at least 48)."""
    titles = [contract_title(c) for c in ruleset.contracts.values()]
    return max([48] + [len(t) for t in titles])


def match_header(ruleset, seed: Optional[int], first_dealer: int, players: Optional[list] = None) -> str:
    """The first lines of ``kierki run``: the ruleset, the seed (None: kept for the end, as in a
    match with a person at the table), who sits where, and the column heads."""
    n = ruleset.players
    shown = "" if seed is None else tr("seed {seed}, ").format(seed=seed)
    lines = [f"{ruleset.name} — {shown}" + tr("first dealer {seat}").format(seat=seat_name(first_dealer, n))]
    if players:
        lines.append(tr("Players: ") + ", ".join(f"{seat_name(s, n)} {tr(p)}" for s, p in enumerate(players)))
    seats = "".join(f"{seat_name(s, n):>7}" for s in range(n))
    deal, contract, dealer, trump = tr("deal"), tr("contract"), tr("dealer"), tr("trump")
    heads = f"{deal:>4}  {contract:<{title_width(ruleset)}} {dealer:<6} {trump:<14}"
    lines.append(heads + seats)
    return "\n".join(lines)


def deal_lines(r, players: int, width: int = 48) -> str:
    """A deal's row of the results table and the running totals under it (contract titles are
    never cut: ``width`` is the column's width, see ``title_width``)."""
    trump = "-" if r.trump < 0 else suit_word(r.trump)
    if r.caller >= 0:
        called = trump if r.trump >= 0 else tr("none")
        trump = f"{called} ({seat_name(r.caller, players)})"
    pts = "".join(f"{s:>7}" for s in r.scores)
    tot = "".join(f"{t:>7}" for t in r.totals)
    title = contract_title(r.contract)
    early = tr("  (ended early)") if r.ended_early else ""
    running = tr("running total")
    bets = ""
    if r.wagers:
        made = ", ".join(
            (tr("{seat} redoubled {other}") if f == 2 else tr("{seat} doubled {other}")).format(
                seat=seat_name(a, players), other=seat_name(b, players)
            )
            for a, b, f in r.wagers
        )
        bets = f"{'':>4}  " + tr("bets: {bets}").format(bets=made) + "\n"
    return (
        f"{r.number:>4}  {title:<{width}} {seat_name(r.dealer, players):<6} {trump:<14}{pts}{early}\n"
        f"{bets}{'':>4}  {running:<{width}} {'':<6} {'':<14}{tot}"
    )


def standings(totals: Iterable[int], players: int) -> list[tuple[int, int, int]]:
    """(place, seat, total), highest total first; equal totals share a place."""
    order = sorted(range(players), key=lambda s: (-list(totals)[s], s))
    totals = list(totals)
    out: list = []
    for i, s in enumerate(order):
        place = i + 1
        if i and totals[s] == totals[order[i - 1]]:
            place = out[-1][0]
        out.append((place, s, totals[s]))
    return out


def standings_text(totals, players: int) -> str:
    lines = [tr("Final standings:")]
    for place, s, t in standings(totals, players):
        lines.append(f"  {place}. {seat_name(s, players)} " + tr("(seat {seat})").format(seat=s) + f" {t:+d}")
    lines.append("  " + tr("sum of scores: {total}").format(total=sum(totals)))
    return "\n".join(lines)


def match_json(ruleset, seed, first_dealer, results, warnings=()) -> str:
    return json.dumps(
        {
            "ruleset": ruleset.name,
            "seed": seed,
            "players": ruleset.players,
            "first_dealer": first_dealer,
            "deals": [
                {
                    "number": r.number,
                    "contract": r.contract.name,
                    "pl": r.contract.pl,
                    "en": r.contract.en,
                    "dealer": r.dealer,
                    "trump": None if r.trump < 0 else "SHDC"[r.trump],
                    "caller": None if r.caller < 0 else r.caller,
                    "scores": list(r.scores),
                    "totals": list(r.totals),
                    "ended_early": r.ended_early,
                    "bets": [{"doubler": a, "target": b, "redoubled": f == 2} for a, b, f in r.wagers],
                }
                for r in results
            ],
            "totals": list(results[-1].totals) if results else [0] * ruleset.players,
            "standings": [
                {"place": p, "seat": s, "total": t} for p, s, t in standings(results[-1].totals, ruleset.players)
            ]
            if results
            else [],
            "warnings": list(warnings),
        },
        indent=2,
        ensure_ascii=False,
    )


def render_diagnostics(diags: Iterable[Diagnostic]) -> str:
    """Every finding with its source line and caret (sources read once per file)."""
    sources: dict = {}
    out = []
    for d in diags:
        if d.path not in sources:
            sources[d.path] = _source(d.path) if d.pos is not None else None
        out.append(render(d, sources[d.path]))
    return "\n".join(out)


def _source(path: str):
    """The text of a regular file (to quote a finding's line), or None: a FIFO is never opened."""
    from .paths import read_problem

    if read_problem(path) is not None:
        return None
    try:
        with open(path, "rb") as f:
            raw = f.read(1024 * 1024)
        return raw.decode("utf-8", "replace").lstrip("\ufeff")
    except OSError:
        return None
