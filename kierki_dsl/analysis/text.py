"""The text reports of ``kierki simulate`` and ``kierki compare``."""

from __future__ import annotations

from .verdict import verdict
from .wording import HEADINGS, fmt, grouped, item_words


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
    """Every measure of one ruleset, section by section (rows that cannot apply left out)."""
    lines = []
    for section, items in grouped(list(measures), measures).items():
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


def compare_report(result: dict) -> str:
    """The report of two rulesets on the same deals (``kierki compare``): the verdict first,
    then every measure side by side, contracts by their titles."""
    a, b, diff = result["a"], result["b"], result["difference"]
    titles = result.get("titles", {})
    lines = [f"A: {a['ruleset']} ({a['path']})", f"B: {b['ruleset']} ({b['path']})", _players_line(result)]
    for heading, sentences in verdict(result):
        lines += ["", heading] + [f"  {x}" for x in sentences]
    keys = list(dict.fromkeys(list(a["measures"]) + list(b["measures"])))
    groups = grouped(keys, a["measures"], b["measures"])
    width = max([30] + [len(item_words(item, titles)) + 2 for items in groups.values() for _, item in items])
    lines += ["", "Every measure (* beyond noise, with every measure compared at once)"]
    lines.append(f"  {'':<{width}}{'A':>20}{'B':>20}{'B - A':>22}")
    for section, items in groups.items():
        lines += ["", HEADINGS.get(section, section)]
        for key, item in items:
            cells = [
                fmt(m[key], section) if key in m else f"{'(not played)':>20}" for m in (a["measures"], b["measures"])
            ]
            d = diff.get(key)
            delta = f"{fmt(d, section)}{'*' if d['flagged'] else ' '}" if d else ""
            lines.append(f"  {item_words(item, titles):<{width}}{cells[0]:>20}{cells[1]:>20}{delta:>22}")
    lines += ["", "A " + quantile_line(a["final_quantiles"]), "B " + quantile_line(b["final_quantiles"])]
    for tag, s in (("A", a), ("B", b)):
        if not s["declared_totals_hold"]:
            lines.append(
                f"{tag} declared totals: {len(s['mismatches'])} deal(s) do not add up, e.g. {s['mismatches'][0]}"
            )
    return "\n".join(lines)


__all__ = ["compare_report", "fmt", "text_report"]
