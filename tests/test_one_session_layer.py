"""One session layer under every front end (issue #21 item 3), checked in the code.

``kierki run`` (cli.py), ``kierki serve`` (net/) and ``kierki web`` (web/) build their match with
``table.Session``, take a person's action through its ``act`` (accepted / refused with the rule's
reason / failed), and let its bots play through ``Session.run_bots`` or ``table.drive.drive_bots``.
None of them makes a match, applies an action, asks a bot for its action, words a refusal or tells a
person who quits by the class name of an exception on its own. The behaviour is tested in
tests/test_session_layer.py (act, bots, failure, what a ruleset needs), tests/test_sessions.py and
tests/test_resume_property.py (the save journal and resume).
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "kierki_dsl"
FRONT_ENDS = ["cli.py", "net", "web"]
#: Files that may step a match themselves, and why.
EXCEPT = {
    "web/frames.py": "a finished match shown card by card: replayed from its seed, every hand public",
    "net/client.py": "the SIK client: the player at the far end of the protocol asks its own player",
}
OWN_DRIVING = [
    re.compile(r"\bMatch\("),  # a match made by the front end
    re.compile(r"\.apply(_action)?\("),  # an action applied past the session
    re.compile(r"\billegal_reason\b"),  # a refusal worded by the front end
    re.compile(r"\.act\(\s*view\b|player\.act\b"),  # a bot asked by the front end
    re.compile(r"__name__\s*[!=]=|\.__name__\s+in\b"),  # an exception told by its class's name
    re.compile(r"bot of seat"),  # a bot's failure worded by the front end (``table.drive.bot_failure``)
]


def _files():
    for name in FRONT_ENDS:
        root = PACKAGE / name
        yield from (sorted(root.rglob("*.py")) if root.is_dir() else [root])


def test_no_front_end_drives_a_match_past_the_session():
    found = []
    for path in _files():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in EXCEPT:
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if 'if __name__ == "__main__"' in code:
                continue
            if any(p.search(code) for p in OWN_DRIVING):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "a front end drives a match past the session layer:\n" + "\n".join(found)


def test_each_command_builds_its_match_with_the_session():
    text = {name: (PACKAGE / name).read_text("utf-8") for name in ("cli.py", "net/commands.py", "web/rooms.py")}
    for name, source in text.items():
        assert re.search(r"\bSession\(", source), name
    for name in ("net/server.py", "web/rooms.py"):  # the event-loop front ends' bots
        assert "drive_bots" in (PACKAGE / name).read_text("utf-8"), name
    assert "session.run_bots()" in text["cli.py"]


def test_the_search_finds_a_front_end_driving_a_match():
    for line in (
        "m = Match(rs, seed)",
        "state.apply_action(a)",
        "match.apply(action)",
        "reason = illegal_reason(view, a, c)",
        "action = player.act(view)",
        "a = self.bots[s].act(view)",
        'if type(e).__name__ == "PlayerQuit":',
    ):
        assert any(p.search(line) for p in OWN_DRIVING), line
    for line in (
        "outcome = self.session.act(seat, action)",
        "outcome = self.table.act(seat, action)",
        "session.run_bots()",
    ):
        assert not any(p.search(line) for p in OWN_DRIVING), line


def test_a_bot_that_fails_is_told_in_the_session_s_words_at_every_front_end():
    """``drive_bots`` (``kierki serve`` and ``kierki web``) hands the front end its failure already
    worded, with the seat as a person reads it."""
    import asyncio
    import concurrent.futures

    from kierki_dsl.table.drive import drive_bots

    class Broken:
        def act(self, view):
            raise RuntimeError("boom")

    class Table:
        players, stopped = 4, False

        def bot_turn(self):
            return 1, Broken(), None

    told = []
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        asyncio.run(drive_bots(Table(), asyncio.Event(), pool, lambda s, a: None, lambda s, m: told.append((s, m))))
    assert told == [(1, "the bot of seat E failed: RuntimeError: boom")]
