"""The words and number formats the reports of ``simulate`` and ``compare`` share (text and
HTML): each section's heading, its measure in a few words, a mean with its interval."""

from __future__ import annotations

from .measures import SHARES

HEADINGS = {
    "points": "points a deal gives out (all seats together), per deal; per part, per match",
    "spread": "spread between the seats (standard deviation of their points), per deal; per part, per match",
    "decisive": "decisive: share of deals without which another seat would have won the match",
    "early": "ended early: share of deals that stopped before every card was played",
    "blocked": "blocked: share of layout deals in which nobody could play",
    "final": "final scores",
    "advantage": "advantage: points above the table's mean (seat, first dealer: per match; the others: per deal)",
    "lead": "lead changes during a match (how long the outcome stays open)",
}
ORDER = ("points", "spread", "decisive", "early", "blocked", "final", "advantage", "lead")

#: Each section's measure in a few words, for the verdict.
VERDICT_WORDS = {
    "points": "points given out",
    "spread": "spread between the seats",
    "decisive": "share of deals that decide the match",
    "early": "share of deals ended early",
    "blocked": "share of blocked layouts",
    "final": "final score",
    "advantage": "advantage",
    "lead": "lead changes",
}


def fmt(e, section: str = "", width: int = 7) -> str:
    """'mean ± half width' of a measure's JSON form; shares as percentages; 'n/a' without interval."""
    scale, unit = (100.0, "%") if section in SHARES else (1.0, "")
    mean = f"{e['mean'] * scale:+{width}.1f}{unit}"
    hw = "n/a" if e.get("ci95") is None else f"{e['ci95'] * scale:.1f}{unit}"
    return f"{mean} ± {hw:<7}"


def split(key: str) -> tuple:
    """A measure's name as (section, item): ``points:bez_lew`` -> ("points", "bez_lew")."""
    section, _, item = key.partition(":")
    return section, item


def item_words(item: str, titles: dict) -> str:
    """What a person reads for a measure's item: a contract's title, else the item's words."""
    return titles.get(item, item)


def never_seen(key: str, *measures: dict) -> bool:
    """Whether a row cannot apply: the deals ended early, or the layouts blocked, that no match
    of any ruleset met (a trick deal never blocks; most never end early)."""
    if split(key)[0] not in ("early", "blocked"):
        return False
    return all(m.get(key) is None or m[key]["mean"] == 0 for m in measures)


def grouped(keys: list, *measures: dict) -> dict:
    """Section -> its (key, item) rows in the report's order, rows that cannot apply left out."""
    groups: dict = {s: [] for s in ORDER}
    for key in keys:
        if not never_seen(key, *measures):
            section, item = split(key)
            groups.setdefault(section, []).append((key, item))
    return {s: rows for s, rows in groups.items() if rows}


__all__ = ["HEADINGS", "ORDER", "VERDICT_WORDS", "fmt", "grouped", "item_words", "never_seen", "split"]
