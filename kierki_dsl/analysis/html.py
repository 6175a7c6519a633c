"""``--html FILE``: one self-contained page with the tables and plots of a simulation.

The plots are drawn with matplotlib (the optional ``plots`` extra) and embedded as PNG
``data:`` URIs, so the page needs no server, no script and no network: any browser opens it
as it is. Plots: the distribution of final scores, each contract's points per seat and deal
side by side (A and B), the advantage by seat, first dealer, dealer, trump caller and first
player with 95% intervals, and the running total over a match (median and quartiles).
"""

from __future__ import annotations

import base64
import html
import io

from ..words import contract_title
from .verdict import verdict
from .wording import HEADINGS, fmt, grouped, item_words

COLOURS = ("#1f77b4", "#d62728")  # A, B


def plots_missing():
    """None when matplotlib can be imported, else a message saying how to install it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "--html needs matplotlib: pip install 'kierki-dsl[plots]'"
    return None


def _figure(width: float = 7.5, height: float = 3.6):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _img(fig, alt: str) -> str:
    return f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{_png(fig)}"><figcaption>{html.escape(alt)}</figcaption></figure>'


def final_scores_plot(games: dict) -> str:
    """Histogram of every seat's final score, one colour per ruleset."""
    fig = _figure()
    ax = fig.add_subplot()
    for (label, gs), colour in zip(games.items(), COLOURS):
        ax.hist([t for g in gs for t in g.totals], bins=40, alpha=0.55, color=colour, label=f"{label}")
    ax.set_xlabel("final score of a seat")
    ax.set_ylabel("seats")
    ax.legend()
    return _img(fig, "Distribution of final scores (every seat of every match)")


def contract_plot(games: dict, titles: dict) -> str:
    """Box plots of a seat's points per deal, by contract (by ``titles``), the rulesets side by side."""
    names = list(dict.fromkeys(r.contract for gs in games.values() for g in gs for r in g.deals))
    fig = _figure(min(11.0, max(7.5, 0.6 * len(names) * len(games))), 4.2)
    ax = fig.add_subplot()
    width = 0.8 / len(games)
    for j, ((label, gs), colour) in enumerate(zip(games.items(), COLOURS)):
        data = [[x for g in gs for r in g.deals if r.contract == c for x in r.scores] or [0] for c in names]
        pos = [i + (j - (len(games) - 1) / 2) * width for i in range(len(names))]
        box = ax.boxplot(data, positions=pos, widths=width * 0.9, patch_artist=True, showfliers=False)
        for patch in box["boxes"]:
            patch.set_facecolor(colour)
            patch.set_alpha(0.6)
        ax.plot([], [], color=colour, label=label, linewidth=6, alpha=0.6)
    ax.set_xticks(range(len(names)), [item_words(n, titles) for n in names], rotation=30, ha="right")
    ax.set_ylabel("points of a seat in one deal")
    ax.legend()
    return _img(fig, "Points per seat and deal, by contract (box: quartiles, whiskers: 1.5 IQR)")


def advantage_plot(summaries: dict) -> str:
    """Bars of every advantage measure with its 95% interval."""
    keys = list(dict.fromkeys(k for s in summaries.values() for k in s["measures"] if k.startswith("advantage:")))
    fig = _figure()
    ax = fig.add_subplot()
    width = 0.8 / len(summaries)
    for j, ((label, s), colour) in enumerate(zip(summaries.items(), COLOURS)):
        m = s["measures"]
        xs = [i + (j - (len(summaries) - 1) / 2) * width for i in range(len(keys))]
        ys = [m[k]["mean"] if k in m else 0 for k in keys]
        err = [(m[k]["ci95"] or 0) if k in m else 0 for k in keys]
        ax.bar(xs, ys, width, yerr=err, color=colour, alpha=0.7, label=label, capsize=3)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(keys)), [k.partition(":")[2] for k in keys], rotation=30, ha="right")
    ax.set_ylabel("points above the table's mean")
    ax.legend()
    return _img(fig, "Advantage by seat, first dealer, dealer, trump caller and first player (95% intervals)")


def running_plot(games: dict) -> str:
    """The running total of a seat after each deal: median line and quartile band."""
    from ..stats import quantiles

    fig = _figure()
    ax = fig.add_subplot()
    for (label, gs), colour in zip(games.items(), COLOURS):
        by_deal: dict = {}
        for g in gs:
            running = [0] * len(g.totals)
            for k, r in enumerate(g.deals):
                running = [t + s for t, s in zip(running, r.scores)]
                by_deal.setdefault(k + 1, []).extend(running)
        ks = sorted(by_deal)
        qs = [quantiles(by_deal[k], (0.25, 0.5, 0.75)) for k in ks]
        ax.plot(ks, [q[1] for q in qs], color=colour, label=f"{label} median")
        ax.fill_between(
            ks, [q[0] for q in qs], [q[2] for q in qs], color=colour, alpha=0.25, label=f"{label} quartiles"
        )
    ax.set_xlabel("after deal")
    ax.set_ylabel("running total of a seat")
    ax.legend()
    return _img(fig, "Running total over a match (median and quartiles over every seat)")


def _table(summaries: dict, difference=None, titles=None) -> str:
    labels = list(summaries)
    keys = list(dict.fromkeys(k for s in summaries.values() for k in s["measures"]))
    head = "".join(f"<th>{html.escape(x)}</th>" for x in [""] + labels + (["B − A"] if difference is not None else []))
    rows = [f"<tr>{head}</tr>"]
    for section, items in grouped(keys, *(s["measures"] for s in summaries.values())).items():
        rows.append(f'<tr class="section"><th colspan="{len(labels) + 2}">{html.escape(HEADINGS[section])}</th></tr>')
        for key, item in items:
            cells = [fmt(s["measures"][key], section) if key in s["measures"] else "—" for s in summaries.values()]
            if difference is not None:
                d = difference.get(key)
                cells.append((fmt(d, section) + (" *" if d["flagged"] else "")) if d else "")
            rows.append(
                "<tr><td>"
                + html.escape(item_words(item, titles or {}))
                + "</td>"
                + "".join(f"<td>{html.escape(c)}</td>" for c in cells)
                + "</tr>"
            )
    return "<table>" + "\n".join(rows) + "</table>"


def _verdict(result: dict) -> str:
    """The verdict's sections (``verdict.verdict``): a heading and a list of sentences each."""
    return "\n".join(
        f"<h2>{html.escape(heading)}</h2><ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in sentences) + "</ul>"
        for heading, sentences in verdict(result)
    )


STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;font-size:90%}td,th{padding:2px 10px;text-align:right}
td:first-child{text-align:left}tr.section th{text-align:left;padding-top:1em}
figure{margin:1.5em 0}img{max-width:100%}"""


def render(games: dict, rulesets: list, summary: dict) -> str:
    """The page: ``games`` label -> GameResults; ``summary`` a simulate summary or a compare result."""
    summaries = {"A": summary["a"], "B": summary["b"]} if "difference" in summary else {"A": summary}
    title = " vs ".join(s["ruleset"] for s in summaries.values())
    titles = summary.get("titles") or {n: contract_title(c) for rs in rulesets for n, c in rs.contracts.items()}
    intro = "".join(
        f"<li>{label}: {html.escape(s['ruleset'])} ({html.escape(s['path'])}), {s['games']} matches</li>"
        for label, s in summaries.items()
    )
    note = "Means with 95% intervals over the matches."
    if len(summaries) == 2:
        deals = (
            "The same deals with the same seats under both rulesets (duplicate)"
            if summary["same_deals"]
            else "The same seeds and seats, but the deals differ (another deck or first-dealer rule)"
        )
        note = (
            f"{deals}; B − A is the mean of the per-match differences with its 95% interval, * where it stands out "
            "from noise with every measure compared at once."
        )
    quant = "".join(
        f"<li>{label}: " + html.escape(", ".join(f"{k} {v:+.0f}" for k, v in s["final_quantiles"].items())) + "</li>"
        for label, s in summaries.items()
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1><ul>{intro}</ul><p>{html.escape(note)}</p>",
        _verdict(summary) if len(summaries) == 2 else "",
        "<h2>Final scores</h2>",
        final_scores_plot(games),
        f"<p>Quantiles of the final scores:</p><ul>{quant}</ul>",
        "<h2>Contracts</h2>",
        contract_plot(games, titles),
        "<h2>Advantages</h2>",
        advantage_plot(summaries),
        "<h2>The course of a match</h2>",
        running_plot(games),
        "<h2>Every measure</h2>",
        _table(summaries, summary.get("difference"), titles),
        "</body></html>",
    ]
    return "\n".join(parts)


def write_html(path: str, games: dict, rulesets: list, summary: dict) -> None:
    """Write the page atomically."""
    from ..paths import write_atomic

    write_atomic(path, render(games, rulesets, summary), "--html")


__all__ = ["plots_missing", "render", "write_html"]
