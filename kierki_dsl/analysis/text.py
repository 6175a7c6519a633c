"""The text reports of ``kierki simulate`` and ``kierki compare``."""

from __future__ import annotations

SHARES = ("decisive", "early", "blocked")  # sections whose observations are 0/1 shares
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


def fmt(e, section: str = "", width: int = 7) -> str:
    """'mean ± half width' of a measure's JSON form; shares as percentages; 'n/a' without interval."""
    scale, unit = (100.0, "%") if section in SHARES else (1.0, "")
    mean = f"{e['mean'] * scale:+{width}.1f}{unit}"
    hw = "n/a" if e.get("ci95") is None else f"{e['ci95'] * scale:.1f}{unit}"
    return f"{mean} ± {hw:<7}"


def _split(key: str) -> tuple:
    section, _, item = key.partition(":")
    return section, item


def _hidden(section: str, values: list) -> bool:
    """Early ends and blocks are listed only where they happen."""
    return section in ("early", "blocked") and all(v is None or v["mean"] == 0 for v in values)


def _grouped(keys: list) -> dict:
    groups: dict = {s: [] for s in ORDER}
    for key in keys:
        section, item = _split(key)
        groups.setdefault(section, []).append((key, item))
    return groups


def player_lines(summary: dict) -> list:
    """Per player: points per match with the interval, and the win rate."""
    lines = [f"{'player':<16}{'points per match':>24}{'win rate':>10}"]
    for p, v in summary["players"].items():
        hw = "n/a" if v["ci95"] is None else f"{v['ci95']:.1f}"
        lines.append(f"{p:<16}{v['mean']:>+14.1f} ± {hw:<7}{v['win_rate']:>10.1%}")
    return lines


def _contract_lines(summary: dict) -> list:
    players = list(summary["players"])
    lines = [f"{'contract (mean per deal by player)':<36}" + "".join(f"{p[:18]:>22}" for p in players)]
    for c, per in summary["contracts"].items():
        cells = "".join(
            f"{per[p]['mean']:>+12.1f} (sd {per[p]['sd']:>5.1f})" if p in per else f"{'':>22}" for p in players
        )
        lines.append(f"{c:<36}{cells}")
    return lines


def measure_lines(measures: dict) -> list:
    """Every measure of one ruleset, section by section."""
    lines = []
    for section, items in _grouped(list(measures)).items():
        if not items or _hidden(section, [measures[k] for k, _ in items]):
            continue
        lines += ["", HEADINGS.get(section, section)]
        for key, item in items:
            lines.append(f"  {item:<30}{fmt(measures[key], section)}")
    return lines


def quantile_line(q: dict) -> str:
    """The quantiles of the final scores on one line."""
    return "final scores, quantiles over every seat: " + "  ".join(f"{k} {v:+.0f}" for k, v in q.items())


def _players_line(summary: dict) -> str:
    names = summary.get("names") or []
    seed = f"; seed {summary['seed']}" if "seed" in summary else ""
    return f"players, rotated through the seats: {', '.join(names)}{seed}"


def text_report(summary: dict) -> str:
    """The report of one ruleset (``kierki simulate``)."""
    lines = [f"{summary['ruleset']}: {summary['games']} matches, seats rotated", _players_line(summary), ""]
    lines += player_lines(summary)
    seats = "  ".join(
        f"{s}: {v['mean']:+.1f} ± {'n/a' if v['ci95'] is None else format(v['ci95'], '.1f')}"
        for s, v in summary["seats"].items()
    )
    lines += ["", "by seat: " + seats, ""]
    lines += _contract_lines(summary)
    lines += measure_lines(summary["measures"])
    lines += ["", quantile_line(summary["final_quantiles"]), ""]
    lines.append(
        "declared totals: every deal adds up as declared"
        if summary["declared_totals_hold"]
        else f"declared totals: {len(summary['mismatches'])} deal(s) do not add up, e.g. {summary['mismatches'][0]}"
    )
    return "\n".join(lines)


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


def verdict_lines(result: dict, most: int = 8) -> list:
    """The answer first: which measures B moved beyond noise, in words, with their intervals."""
    found = [(k, d) for k, d in result["difference"].items() if d and d.get("significant")]
    found.sort(key=lambda kd: ORDER.index(_split(kd[0])[0]) if _split(kd[0])[0] in ORDER else len(ORDER))
    if not found:
        return [f"verdict: no measure differs beyond noise in {result['games']} matches (95% intervals)"]
    lines = [f"verdict: {len(found)} measure(s) differ beyond noise in {result['games']} matches (95% intervals):"]
    for key, d in found[:most]:
        section, item = _split(key)
        way = "up" if d["mean"] > 0 else "down"
        lines.append(f"  {item}: {VERDICT_WORDS.get(section, section)} {way}, B - A = {fmt(d, section, 0).strip()}")
    if len(found) > most:
        lines.append(f"  and {len(found) - most} more below")
    return lines


def compare_report(result: dict) -> str:
    """The report of two rulesets on the same deals (``kierki compare``)."""
    a, b, diff = result["a"], result["b"], result["difference"]
    lines = [f"A: {a['ruleset']} ({a['path']})", f"B: {b['ruleset']} ({b['path']})"]
    if result["same_deals"]:
        lines.append(
            f"{result['games']} matches each on the same deals with the same seats (duplicate); "
            "95% intervals; * marks a significant difference"
        )
    else:
        lines.append(
            f"{result['games']} matches each with the same seeds and seats, but the deals differ (another "
            "deck or first-dealer rule): the differences include the luck of the cards; 95% intervals; "
            "* marks a significant difference"
        )
    lines.append(_players_line(result))
    lines += [""] + verdict_lines(result)
    lines.append("")
    lines.append(f"{'':<32}{'A':>20}{'B':>20}{'B - A':>22}")
    keys = list(dict.fromkeys(list(a["measures"]) + list(b["measures"])))
    for section, items in _grouped(keys).items():
        if not items or _hidden(
            section, [a["measures"].get(k) for k, _ in items] + [b["measures"].get(k) for k, _ in items]
        ):
            continue
        lines += ["", HEADINGS.get(section, section)]
        for key, item in items:
            cells = [
                fmt(m[key], section) if key in m else f"{'(not played)':>20}" for m in (a["measures"], b["measures"])
            ]
            d = diff.get(key)
            mark = ("*" if d["significant"] else " ") if d else " "
            delta = f"{fmt(d, section)}{mark}" if d else ""
            lines.append(f"  {item:<30}{cells[0]:>20}{cells[1]:>20}{delta:>22}")
    lines += ["", "A " + quantile_line(a["final_quantiles"]), "B " + quantile_line(b["final_quantiles"])]
    for tag, s in (("A", a), ("B", b)):
        if not s["declared_totals_hold"]:
            lines.append(
                f"{tag} declared totals: {len(s['mismatches'])} deal(s) do not add up, e.g. {s['mismatches'][0]}"
            )
    return "\n".join(lines)


__all__ = ["compare_report", "fmt", "text_report"]
