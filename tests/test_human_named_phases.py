"""The two decisions the rules of issue 24 added, taken by a person at the terminal: naming the
domino's opening rank (Barbu, ``start_rank: named``) and naming a contract after the musik
(Tysiąc, ``raise_bid``) — each refused first with words a person reads, then accepted."""
from __future__ import annotations

from kierki_dsl.interpreter.actions import action_str, is_bid
from kierki_dsl.interpreter.match import Match
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import load_ruleset

from conftest import ROOT


def _person_at(path: str, wanted, answers: list) -> tuple:
    """(the person's action, what the terminal said, the view) at the first decision ``wanted``
    accepts in seeded matches of heuristic bots."""
    rs, _ = load_ruleset(str(ROOT / path))
    for seed in range(1, 40):
        match = Match(rs, seed)
        bots = [make_player("heuristic") for _ in range(rs.players)]
        for s, b in enumerate(bots):
            b.reset(s + 1, s, rs)
        while not match.over:
            seat = match.to_move()
            view = match.view(seat)
            if wanted(view):
                person, said, feed = make_player("human"), [], list(answers)
                person.rules = rs
                person.say = lambda *words, said=said: said.append(" ".join(map(str, words)))
                person.ask = lambda prompt, said=said, feed=feed: (said.append(prompt), feed.pop(0))[1]
                person.reset(1, seat, rs)
                return person.act(view), said, view
            match.apply(bots[seat].act(view))
    raise AssertionError(f"no such decision in {path}")


def test_a_person_names_the_dominos_opening_rank():
    action, said, view = _person_at("rulesets/games/barbu.yaml", lambda v: v.phase == "name", ["Z", "10"])
    assert "Ranks: 2 3 4 5 6 7 8 9 10 J Q K A" in said
    assert "Type a rank from the list, such as 7 or K." in said
    assert action_str(action) == "rank:T" and action in view.legal


def test_a_person_names_his_contract_after_the_musik():
    def raising(v):
        return v.phase == "exchange" and v.legal and is_bid(v.legal[0])

    action, said, view = _person_at("rulesets/games/tysiac.yaml", raising, ["abc", "99999", "1"])
    assert "Type a contract from the list, such as 120, or its number." in said
    assert any(line.startswith("99999 is not a contract you may name: name one of ") for line in said)
    assert action == view.legal[0] and is_bid(action)
