"""A finished match, card by card: what the whole table looked like after every action.

Only for finished matches (every hand is public once the match is over): the match is played
again from its seed with the stored actions, and each step keeps every seat's cards, the
trick on the table, the last finished trick and the deal's points.
"""

from __future__ import annotations

from .. import phases
from ..cards import card_list
from ..interpreter.actions import action_str
from ..phases import contract_name


def _frame(state, players: int, seat, action, label=None, ruleset=None) -> dict:
    """The table after ``action``: every hand, the trick, the last trick, the points, and every
    phase's panel (public parts as any seat sees them; a seat's own, such as cards received, as seat 0's)."""
    views = [state.view(s) for s in range(players)]
    v = views[0]
    return {
        "seat": seat,
        "action": None if action is None else action_str(action),
        "label": label,  # the action as a person reads it (its phase's label)
        "hands": [card_list(w.hand) for w in views],
        "trick": [list(p) for p in v.trick],
        "last": [v.completed[-1][2], [list(p) for p in v.completed[-1][1]]] if v.completed else None,
        "panels": phases.panels(v, ruleset),
        "scores": list(v.scores),
        "trump": v.trump,
    }


def match_frames(ruleset, record: dict, actions: list) -> list:
    """Per deal: its contract, dealer and the frames from the deal to its last action."""
    from ..interpreter.match import Match

    m = Match(ruleset, int(record["seed"]))
    n = ruleset.players
    deals: list = []
    for _, _seat, action in actions:
        if m.over:
            break
        state = m.state
        assert state is not None  # the match is not over
        if not deals or deals[-1]["number"] != m.deal_index + 1:
            deals.append(
                {
                    "number": m.deal_index + 1,
                    "dealer": m.dealer,
                    "frames": [_frame(state, n, None, None, None, ruleset)],
                }
            )
        who = m.to_move()
        label = phases.label(state.view(who), action, ruleset)
        m.apply(action)
        deals[-1]["contract"] = state.contract.name
        deals[-1]["title"] = contract_name(state.contract)  # as a person reads it, as the table's sheet
        deals[-1]["frames"].append(_frame(state, n, who, action, label, ruleset))
    return deals
