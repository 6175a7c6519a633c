"""What a variant changes match by match, read from the same matches played under both
rulesets (game i under A and game i under B: the same deals, the same seats): how often the
winner changes, how well the seats' final order agrees, which contracts' rules differ, and
which measured differences stand out from noise once every measure compared is allowed for.
"""

from __future__ import annotations

from math import sqrt
from typing import Optional

from ..stats import estimate, holm, normal_p, share_interval, sign_test
from ..words import contract_title
from .measures import SHARES, leaders


def winner_changes(pairs: list) -> dict:
    """How many matches another seat (or another set of seats, for a shared win) won under B
    than under A, as a share with its 95% interval."""
    changed = sum(1 for a, b in pairs if leaders(a.totals) != leaders(b.totals))
    n = len(pairs)
    low, high = share_interval(changed, n)
    return {"changed": changed, "matches": n, "share": changed / n if n else 0.0, "low": low, "high": high}


def kendall_tau(xs, ys) -> Optional[float]:
    """Kendall's tau-b of two orders of the same seats (ties allowed); None when one of them
    ranks every seat alike (no order to agree with)."""
    concordant = discordant = tied_x = tied_y = pairs = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            pairs += 1
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            tied_x += dx == 0
            tied_y += dy == 0
            s = dx * dy
            concordant += s > 0
            discordant += s < 0
    scale = sqrt((pairs - tied_x) * (pairs - tied_y))
    return (concordant - discordant) / scale if scale else None


def rank_agreement(pairs: list) -> dict:
    """The mean over matches of Kendall's tau-b between the seats' final totals under A and
    under B, with its 95% interval (matches where either ruleset tied every seat left out)."""
    taus = [t for t in (kendall_tau(a.totals, b.totals) for a, b in pairs) if t is not None]
    e = estimate(taus)
    return {"mean": e.mean, "ci95": e.half_width, "n": e.n, "left_out": len(pairs) - len(taus)}


def titles(rs_a, rs_b) -> dict:
    """Contract name -> the title players read (``explain``'s), the variant's where it has one."""
    out = {name: contract_title(c) for name, c in rs_a.contracts.items()}
    out.update((name, contract_title(c)) for name, c in rs_b.contracts.items())
    return out


def rules_changed(rs_a, rs_b) -> list:
    """The contracts whose rules read differently in words (``explain``), or that only one
    ruleset has, in the variant's order."""
    names = list(dict.fromkeys(list(rs_b.contracts) + list(rs_a.contracts)))
    out = []
    for name in names:
        ca, cb = rs_a.contracts.get(name), rs_b.contracts.get(name)
        if ca is None or cb is None or ca.words(rs_a) != cb.words(rs_b):
            out.append(name)
    return out


def p_value(key: str, diffs: list, e) -> float:
    """The p-value of a paired difference: the exact sign test for shares (0/1 per deal, where
    the normal approximation is poor with few matches), else the normal one of its interval."""
    return sign_test(diffs) if key.partition(":")[0] in SHARES else normal_p(e)


def flag(difference: dict) -> None:
    """Mark each difference ``flagged`` when it stands out from noise with all the others
    compared at once (Holm's correction of their p-values, 95%)."""
    beyond = holm({key: d["p"] for key, d in difference.items()})
    for key, d in difference.items():
        d["flagged"] = beyond[key]


__all__ = ["flag", "kendall_tau", "p_value", "rank_agreement", "rules_changed", "titles", "winner_changes"]
