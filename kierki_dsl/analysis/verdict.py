"""The answer to an author's question "what does my variant change?", in words, from a
``summary.compare`` result: who wins, how the seats' order holds, how the advantages moved,
which deals changed (by their rules, or beyond noise by their measures) — each figure with its
95% interval. A deal is named only when its rules differ or one of its measures stands out
from noise with every measure compared at once (``paired.flag``); the others are counted.

``verdict(result)`` gives (heading, sentences) pairs that the text and the HTML report both
print as they are.
"""

from __future__ import annotations

from .wording import VERDICT_WORDS, fmt, item_words, split

_PER_DEAL = ("points", "spread", "decisive", "early", "blocked")  # sections measured per contract


def verdict(result: dict) -> list:
    """(heading, sentences) of the verdict: the summary, the advantages, the deals."""
    return [("Verdict", _summary(result)), ("Advantages", _advantages(result)), ("Deals", _deals(result))]


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def _ruling(d: dict) -> str:
    return "beyond noise" if d["flagged"] else "within noise"


def _summary(result: dict) -> list:
    n = result["games"]
    deals = (
        "on the same deals with the same seats"
        if result["same_deals"]
        else "with the same seeds and seats, but other deals (another deck or first-dealer rule), so the "
        "differences include the luck of the cards"
    )
    lines = [
        f"B against A: {n} matches each {deals}; 95% intervals; a difference is beyond noise only when it stands "
        f"out with all {len(result['difference'])} measures compared at once."
    ]
    titles = result.get("titles", {})
    changed = result.get("rules_changed", [])
    lines.append(
        f"The rules of {_count(len(changed), 'deal')} differ: "
        + "; ".join(item_words(c, titles) for c in changed)
        + "."
        if changed
        else "No deal's rules differ in words: the change is in the match around them."
    )
    w = result["winner_changes"]
    lines.append(
        f"The winner of a match changes in {w['changed']} of {w['matches']} matches: {_pct(w['share'])} "
        f"(95% interval {_pct(w['low'])} to {_pct(w['high'])})."
    )
    lines.append(_agreement(result["rank_agreement"]))
    moved = [item for key, item in _keys(result, "advantage") if result["difference"][key]["flagged"]]
    lines.append(
        "Advantages moved beyond noise: "
        + (", ".join(moved) if moved else "none")
        + " (below, each with its interval)."
    )
    named = _named(result)
    quiet = len(titles) - len(named)
    for way in ("more", "less"):
        which = [item_words(c, titles) for c in named if _decisive_way(result, c) == way]
        lines.append(f"Deals {way} decisive beyond noise: " + ("; ".join(which) if which else "none") + ".")
    match_wide = [
        _moved(result, key, item) for key, item in _match_keys(result) if result["difference"][key]["flagged"]
    ]
    if match_wide:
        lines.append("Across the match, beyond noise: " + "; ".join(match_wide) + ".")
    if quiet > 0 and named:
        lines.append(
            f"The other {_count(quiet, 'deal')}: neither the rules nor any measure changed beyond noise "
            "(so they are not named)."
        )
    elif not named:
        lines.append("No deal changed: neither a deal's rules nor any of its measures changed beyond noise.")
    return lines


def _count(k: int, what: str) -> str:
    return f"{k} {what}" + ("" if k == 1 else "s")


def _agreement(r: dict) -> str:
    if not r["n"]:
        return "The seats' final order cannot be compared: every match tied every seat under one of the rulesets."
    hw = "n/a" if r["ci95"] is None else f"{r['ci95']:.2f}"
    out = (
        f"The seats' final order under B agrees with A's at a Kendall's tau of {r['mean']:+.2f} ± {hw} per match "
        "(+1: the same order, 0: unrelated, -1: reversed)"
    )
    return out + (f"; {r['left_out']} matches with every seat tied left out." if r["left_out"] else ".")


def _keys(result: dict, section: str) -> list:
    """(key, item) of one section's differences, in the report's order."""
    return [(k, split(k)[1]) for k in result["difference"] if split(k)[0] == section]


def _match_keys(result: dict) -> list:
    """The differences measured over whole matches or parts, not per deal or advantage."""
    titles = result.get("titles", {})
    return [
        (k, item)
        for k, (section, item) in ((k, split(k)) for k in result["difference"])
        if section != "advantage" and not (section in _PER_DEAL and item in titles)
    ]


def _moved(result: dict, key: str, item: str) -> str:
    """A match-wide measure that moved, in words: ``the final scores' spread down -11.8 ± 2.2``."""
    section = split(key)[0]
    d = result["difference"][key]
    way = "up" if d["mean"] > 0 else "down"
    what = {"final": f"the final scores' {item}", "lead": f"lead {item}"}.get(
        section, f"{VERDICT_WORDS.get(section, section)} in the {item}"
    )
    return f"{what} {way} {fmt(d, section, 0).strip()}"


def _named(result: dict) -> list:
    """The contracts a person is told about: rules changed, or a measure beyond noise."""
    changed = set(result.get("rules_changed", []))
    out = []
    for name in result.get("titles", {}):
        flagged = any(result["difference"].get(f"{s}:{name}", {}).get("flagged") for s in _PER_DEAL)
        if name in changed or flagged:
            out.append(name)
    return out


def _decisive_way(result: dict, name: str) -> str:
    d = result["difference"].get(f"decisive:{name}")
    if not d or not d["flagged"]:
        return ""
    return "more" if d["mean"] > 0 else "less"


def _advantages(result: dict) -> list:
    """Each advantage (seat, first dealer, dealer, trump caller, first turn: only those the
    rulesets have) under A and B, and how it moved."""
    a, b = result["a"]["measures"], result["b"]["measures"]
    lines = [
        "Points above the table's mean (seat and first dealer per match, the others per deal), "
        "under A, under B, and how far they moved:"
    ]
    for key, item in _keys(result, "advantage"):
        d = result["difference"][key]
        lines.append(
            f"{item}: {fmt(a[key], 'advantage', 0).strip()} under A, {fmt(b[key], 'advantage', 0).strip()} under B; "
            f"moved {fmt(d, 'advantage', 0).strip()}, {_ruling(d)}."
        )
    return lines


def _deals(result: dict) -> list:
    """Each deal named (``_named``): whether its rules changed, how decisive it is under A and
    B, and every measure of it that moved beyond noise."""
    titles = result.get("titles", {})
    changed = set(result.get("rules_changed", []))
    a, b, diff = result["a"]["measures"], result["b"]["measures"], result["difference"]
    lines = []
    for name in _named(result):
        words = ["rules changed" if name in changed else "rules unchanged"]
        key = f"decisive:{name}"
        if key in a and key in b:
            words.append(
                f"decisive in {_pct(a[key]['mean'])} of its deals under A, {_pct(b[key]['mean'])} under B"
                + (f" ({fmt(diff[key], 'decisive', 0).strip()}, {_ruling(diff[key])})" if key in diff else "")
            )
        elif key in b:
            words.append("played only under B")
        elif key in a:
            words.append("played only under A")
        words += [
            f"{VERDICT_WORDS[s]} {'up' if diff[k]['mean'] > 0 else 'down'} {fmt(diff[k], s, 0).strip()}"
            for s in _PER_DEAL
            for k in [f"{s}:{name}"]
            if k in diff and diff[k]["flagged"] and s != "decisive"
        ]
        lines.append(f"{titles.get(name, name)}: " + "; ".join(words) + ".")
    return lines or ["No deal changed beyond noise, and no deal's rules differ."]


__all__ = ["verdict"]
