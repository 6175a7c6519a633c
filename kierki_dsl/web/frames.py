"""A finished match, card by card: what the whole table looked like after every action.

Only for finished matches (every hand is public once the match is over): the match is played
again from its seed with the stored actions, and each step keeps every seat's cards, the
trick on the table, the last finished trick and the deal's points.
"""
from __future__ import annotations

from ..cards import card_list
from ..interpreter.actions import action_str


def _frame(state, players: int, seat, action) -> dict:
    views = [state.view(s) for s in range(players)]
    v = views[0]
    return {
        "seat": seat,
        "action": None if action is None else action_str(action),
        "hands": [card_list(w.hand) for w in views],
        "trick": [list(p) for p in v.trick],
        "last": [v.completed[-1][2], [list(p) for p in v.completed[-1][1]]] if v.completed else None,
        "layout": [list(r) if r is not None else None for r in v.layout] if v.layout is not None else None,
        "scores": list(v.scores),
        "trump": v.trump,
        "phase": v.phase,
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
        if not deals or deals[-1]["number"] != m.deal_index + 1:
            deals.append({"number": m.deal_index + 1, "dealer": m.dealer, "frames": [_frame(state, n, None, None)]})
        who = m.to_move()
        m.apply(action)
        deals[-1]["contract"] = state.contract.name
        deals[-1]["frames"].append(_frame(state, n, who, action))
    return deals
