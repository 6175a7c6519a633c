"""The session layer (issue 21, item 3): one driver under every front end. Its answers are
typed (accepted / refused with the rule's reason / failed), it drives the bots, keeps and
resumes the save journal, and says what a ruleset needs of a front end."""
from __future__ import annotations

import json

import pytest

from kierki_dsl.cards import card_list
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.table import ACCEPTED, Failed, Refused, Session, needs

from conftest import RULESETS, ROOT
from test_envs import BARBU_BY_HOLDER

SIK = Ruleset.load(str(RULESETS / "games" / "sik.yaml"))
NAMES = ["random", "heuristic", "random", "heuristic"]


def test_a_session_of_bots_plays_the_match_of_the_match_runner():
    session = Session(SIK, 9, [make_player(n) for n in NAMES])
    assert session.run_bots() == ACCEPTED and session.over and session.failure is None
    reference = list(MatchRunner(SIK, [make_player(n) for n in NAMES], 9).deals())
    assert [r.plays for r in session.results] == [r.plays for r in reference]


def test_actions_are_accepted_or_refused_with_the_rule_s_reason():
    session = Session(SIK, 4, [None] + [make_player("heuristic") for _ in range(3)])
    heard: list = []
    assert session.table.sit(0, heard.append)
    while session.table.match.to_move() != 0:
        assert session.run_bots() == ACCEPTED
    view = session.table.view(0)
    assert session.act(1, 0) == Refused("it is not your turn")
    not_held = card_list(((1 << 52) - 1) & ~view.hand)[0]
    refused = session.act(0, not_held)
    assert isinstance(refused, Refused) and refused.reason.endswith("is not in your hand") and not refused.ok
    assert session.table.view(0).ply == view.ply, "a refused action changes nothing"
    assert session.act(0, view.legal[0]) == ACCEPTED


def test_a_match_that_cannot_go_on_is_a_failed_outcome_and_keeps_its_deals(tmp_path):
    path = tmp_path / "barbu_holder_once.yaml"
    path.write_text(BARBU_BY_HOLDER.format(base=ROOT / "rulesets/games/barbu.yaml").replace("once_each: false",
                                                                                            "once_each: true"))
    rs = Ruleset.load(str(path))
    dealt: list = []
    session = Session(rs, 1, [make_player("random") for _ in range(4)], on_deal=dealt.append)
    outcome = session.run_bots()
    assert isinstance(outcome, Failed) and "no contract left to choose" in outcome.message
    assert outcome.line() == f"kierki: error: {outcome.message}"
    assert session.stopped and not session.over and session.failure == outcome
    assert dealt == session.results and len(dealt) == session.match.deal_index
    assert session.act(0, 0) == outcome, "a failed match answers every action with its failure"


def test_what_a_ruleset_needs_of_a_front_end():
    sik = needs(SIK)
    assert (sik.seats, sik.hand_size, sik.choice) == (4, 13, False)
    assert {phase for _, phase in sik.decisions} == {"play"}
    hearts = needs(Ruleset.load(str(RULESETS / "games" / "hearts.yaml")))
    assert ("hand", "pass") in hearts.decisions
    assert needs(Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))).choice


def _table_session(save, seats, resume=False, force=False):
    from kierki_dsl.net.commands import _resume_header, _table_session

    opened = _resume_header(str(save), SIK) if resume else None
    try:
        return _table_session(SIK, None, seats, 2, str(save), opened, None, force)[0]
    except BaseException:
        if opened is not None:
            opened.close()
        raise


BOTS = ["N=random", "E=random", "S=random", "W=random"]


def test_serve_keeps_an_unfinished_table_save_and_refuses_lines_after_its_end(tmp_path):
    from kierki_dsl.net.commands import CommandError

    save = tmp_path / "table.save"
    session = _table_session(save, BOTS)
    try:
        assert session.run_bots() == ACCEPTED and session.over
    finally:
        session.close()
    lines = save.read_text("utf-8").splitlines()
    save.write_text("\n".join(lines[:40]) + "\n", "utf-8")
    with pytest.raises(CommandError, match=f"kierki serve RULESET --save {save} --resume, or give --force"):
        _table_session(save, BOTS)
    resumed = _table_session(save, [], resume=True)
    try:
        assert resumed.run_bots() == ACCEPTED
    finally:
        resumed.close()
    assert save.read_text("utf-8").splitlines() == lines, "resumed to the same match, each action saved once"
    save.write_text("\n".join(lines + lines[-2:]) + "\n", "utf-8")
    with pytest.raises(CommandError, match=f"{save}:{len(lines) + 1}: error: the match is over before this line"):
        _table_session(save, [], resume=True)
    head = json.loads(lines[0])
    assert head["bots"] == {"0": "random", "1": "random", "2": "random", "3": "random"}


class _Catalogue:
    """The one ruleset a stored table names."""

    def __init__(self, ruleset):
        self.ruleset = ruleset

    def get(self, ref):
        return (ref, self.ruleset)


def test_a_web_table_whose_stored_actions_do_not_fit_is_closed_saying_which(tmp_path):
    import asyncio

    from kierki_dsl.interpreter.match import Match
    from kierki_dsl.web.config import WebConfig
    from kierki_dsl.web.rooms import Rooms
    from kierki_dsl.web.storage import Storage, token_hash

    db = str(tmp_path / "w.sqlite3")
    store = Storage(db)
    try:
        store.create({"id": "t1", "ruleset_kind": "shipped", "ruleset_ref": "sik.yaml", "ruleset_text": None,
                      "fingerprint": SIK.fingerprint, "seed": 1, "seats": ["human", "random", "random", "random"],
                      "creator_hash": token_hash("c")}, {0: token_hash("t")})
        match = Match(SIK, 1)
        seat = match.to_move()
        store.add_action("t1", 0, 0, seat, match.view(seat).legal[0])
        store.add_action("t1", 1, 0, seat, match.view(seat).legal[0])  # the same seat again: not its turn

        async def load():
            rooms = Rooms(WebConfig(db=db), store, _Catalogue(SIK))
            try:
                return rooms.room("t1")
            finally:
                await rooms.stop()

        assert asyncio.run(load()) is None
        row = store.get("t1")
        assert row["status"] == "closed"
        assert row["note"].startswith(f"cannot be resumed: stored action 2: error: the saved action is seat {seat}'s")
    finally:
        store.close()
