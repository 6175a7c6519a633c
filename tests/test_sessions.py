"""A person at the terminal, and matches that survive Ctrl-C and SIGKILL."""
from __future__ import annotations

import io
import json
import signal

from kierki_dsl.cards import SUIT_MASK, card_str, parse_card
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.ruleset.model import Ruleset
from kierki_dsl.table.savefile import seal

from conftest import RULESETS, STANDARD, poll_until, run_cli

RS = Ruleset.load(str(STANDARD))


def test_human_player_is_refused_an_illegal_card_with_the_rule():
    st = RS.contracts["bez_kierow"].new_deal(4, RS.deck, 3, [[parse_card(c) for c in h] for h in
                                                            (["4C", "2D"], ["9C", "KH"], ["3H", "5C"], ["2C", "5D"])])
    st.apply_action(parse_card("4C"))
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("3H\nKH\n1\n"), stdout=out, ruleset=RS)
    human.reset(1, 1)
    action = human.act(st.view(1))
    text = out.getvalue()
    assert card_str(action) == "9C"
    assert "you do not hold 3♥" in text
    assert "K♥ is not allowed: you must follow clubs" in text
    assert "Trick so far: N 4♣" in text and "scoring: hearts taken: -20 each" in text


def test_human_lead_ban_reason_and_trump_call():
    st = RS.contracts["bez_kierow"].new_deal(4, RS.deck, 3, [[parse_card(c) for c in h] for h in
                                                            (["AH", "3C"], ["9C", "3H"], ["KH", "5C"], ["2C", "5D"])])
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("ah\n1\n"), stdout=out, ruleset=RS)
    human.reset(1, 0)
    assert card_str(human.act(st.view(0))) == "3C"
    assert "hearts may not be led while you hold another suit" in out.getvalue()
    atu = RS.contracts["atu"].new_deal(4, RS.deck, 0, [list(range(i, 52, 4)) for i in range(4)])
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("x\n♥\n"), stdout=out, ruleset=RS)
    human.reset(1, 0)
    assert human.act(atu.view(0)) == 53 + 1
    assert "You name trumps" in out.getvalue()



def test_human_bets_in_a_doubling_round():
    from kierki_dsl.interpreter.actions import DONE, double

    barbu = Ruleset.load(str(STANDARD.parent / "games" / "barbu.yaml"))
    st = barbu.contracts["no_tricks"].new_deal(4, barbu.deck, 3, [list(range(i, 52, 4)) for i in range(4)])
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("double X\nd e\n"), stdout=out, ruleset=barbu)
    human.reset(1, 0)
    assert human.act(st.view(0)) == double(1)
    assert "1) double E  2) double S  3) double W  4) done" in out.getvalue()
    assert "Type a number from the list" in out.getvalue()
    st.apply_action(double(1))
    human = HumanPlayer(stdin=io.StringIO("done\n"), stdout=io.StringIO(), ruleset=barbu)
    human.reset(1, 0)
    assert human.act(st.view(0)) == DONE

def _first_human_decision(seed: int, seat: int):
    """The hand and trick the human will first face (bots are deterministic for a seed)."""
    seen = {}

    class Seen(Exception):
        pass

    class Spy(HumanPlayer):
        def act(self, view):
            seen.setdefault("view", view)
            raise Seen

    players = [make_player("heuristic") for _ in range(4)]
    players[seat] = Spy()
    try:
        list(MatchRunner(RS, players, seed).deals())
    except Seen:
        pass
    return seen["view"]


def test_a_whole_match_through_the_real_command_with_an_illegal_input():
    seat = 2
    for seed in range(1, 40):  # a seed in which the human first has to follow suit
        view = _first_human_decision(seed, seat)
        if view.trick and view.hand & SUIT_MASK[view.trick[0][1] // 13] and view.hand & ~SUIT_MASK[view.trick[0][1] // 13]:
            break
    led = view.trick[0][1] // 13
    wrong = [c for c in range(52) if view.hand >> c & 1 and c // 13 != led]
    assert wrong and view.hand & SUIT_MASK[led]
    script = f"{card_str(wrong[0])}\nnonsense\n" + "1\n" * 600
    rc, out, err, _ = run_cli("run", str(STANDARD), "--seed", str(seed), "--human", str(seat), input=script.encode())
    assert rc == 0, err
    assert "is not allowed: you must follow" in out
    assert "Type a card such as QS" in out
    assert "Final standings:" in out and "sum of scores: 0" in out
    assert "Layout:" in out, "the Fan Tan deal shows the layout"


def _wait_for_lines(path, n, proc, timeout=60):
    poll_until(lambda: path.exists() and path.read_text("utf-8").count("\n") >= n, timeout, proc, f"{n} saved lines")


PLAYERS = "search:6,heuristic,random,search:6"


def test_sigkill_mid_deal_then_resume_gives_the_same_match(tmp_path, processes):
    save = tmp_path / "m.save"
    proc = processes(["run", str(STANDARD), "--seed", "5", "--players", PLAYERS, "--save", str(save)])
    _wait_for_lines(save, 90, proc)  # deal 2 is under way
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with open(save, "ab") as f:  # the action in flight, torn
        f.write(b'{"deal": 2, "se')
    record = tmp_path / "r.json"
    rc, out, err, _ = run_cli("resume", str(save), "--record", str(record), "--format", "json", timeout=300)
    assert rc == 0, err
    resumed = json.loads(out)
    rc, out, err, _ = run_cli("replay", str(record), "--ruleset", str(STANDARD), "--format", "json")
    assert rc == 0, err
    assert json.loads(out)["totals"] == resumed["totals"]
    rc, out, err, _ = run_cli("run", str(STANDARD), "--seed", "5", "--players", PLAYERS, "--format", "json", timeout=300)
    assert json.loads(out)["totals"] == resumed["totals"], "the same deals, the same bots, the same random state"


def test_ctrl_c_stops_with_one_line_and_the_match_saved(tmp_path, processes):
    save = tmp_path / "m.save"
    proc = processes(["run", str(STANDARD), "--seed", "6", "--players", "search:6", "--save", str(save)])
    _wait_for_lines(save, 20, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    err = err.decode()
    assert proc.returncode == 130
    assert err.strip().splitlines() == [f"kierki: interrupted; the match is saved: kierki resume {save}"]
    lines = save.read_text("utf-8").splitlines()
    assert all(json.loads(line) for line in lines), "every saved line is whole"


def test_corrupt_or_foreign_save_files_are_refused(tmp_path):
    save = tmp_path / "m.save"
    assert run_cli("run", str(STANDARD), "--seed", "7", "--players", "random", "--save", str(save))[0] == 0
    lines = save.read_text("utf-8").splitlines()
    bad = tmp_path / "bad.save"
    bad.write_text("\n".join(lines[:5] + ["{broken"] + lines[6:]) + "\n", "utf-8")
    rc, out, err, _ = run_cli("resume", str(bad))
    assert rc == 1 and f"{bad}:6: error: corrupt save file" in err
    foreign = tmp_path / "foreign.save"
    head = json.loads(lines[0])
    head["ruleset"]["fingerprint"] = "0000"  # as if the ruleset file had changed since
    head["check"] = seal(head)
    foreign.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", "utf-8")
    rc, out, err, _ = run_cli("resume", str(foreign))
    assert rc == 1 and "belongs to another ruleset" in err
    notsave = tmp_path / "x.save"
    notsave.write_text("hello\n", "utf-8")
    assert run_cli("resume", str(notsave))[0] == 1
    # a finished match resumes to the same result
    rc, out, err, _ = run_cli("resume", str(save), "--format", "json")
    again = run_cli("run", str(STANDARD), "--seed", "7", "--players", "random", "--format", "json")[1]
    assert rc == 0 and json.loads(out)["totals"] == json.loads(again)["totals"]


def test_save_files_encode_bets():
    from kierki_dsl.interpreter.actions import DONE, double, redouble
    from kierki_dsl.table.savefile import decode, encode

    from kierki_dsl.interpreter.actions import CHOOSE_BASE, PASS, call

    for action, text in ((DONE, "done"), (double(0), "double:0"), (redouble(3), "redouble:3"),
                         (CHOOSE_BASE + 2, "choose:2"), (PASS, "pass"), (call(-1), "call:none"), (5, "7S")):
        assert encode(action) == text and decode(text) == action
    every = [encode(a) for a in list(range(53)) + [call(s) for s in range(-1, 4)] + [double(s) for s in range(8)]
             + [redouble(s) for s in range(8)] + [DONE] + [CHOOSE_BASE + i for i in range(32)]]
    assert len(set(every)) == len(every), "action numbers of different kinds never collide"


def test_resume_in_the_middle_of_a_betting_round(tmp_path):
    barbu = str(STANDARD.parent / "games" / "barbu.yaml")
    save = tmp_path / "barbu.jsonl"
    rc, full, err, _ = run_cli("run", barbu, "--seed", "4", "--players", "heuristic", "--save", str(save),
                               "--format", "json")
    assert rc == 0, err
    lines = save.read_text("utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if '"double:' in line) + 1  # just after a double
    save.write_text("\n".join(lines[:cut]) + "\n", "utf-8")
    rc, resumed, err, _ = run_cli("resume", str(save), "--format", "json")
    assert rc == 0, err
    assert json.loads(resumed)["deals"] == json.loads(full)["deals"]


def test_a_flood_of_digits_at_the_prompt_is_refused_quickly():
    """A 20,000-digit answer is cut to what any answer can be and refused as off the list."""
    out = io.StringIO()
    st = RS.contracts["bez_lew"].new_deal(4, RS.deck, 3, [list(range(13)), list(range(13, 26)),
                                                         list(range(26, 39)), list(range(39, 52))])
    human = HumanPlayer(stdin=io.StringIO("9" * 20000 + "\n1\n"), stdout=out, ruleset=RS)
    human.reset(1, 0)
    assert human.act(st.view(0)) in st.legal_actions()
    assert "internal error" not in out.getvalue()


def test_the_passing_prompt_says_where_the_cards_go_and_how_many_are_chosen():
    from kierki_dsl.ruleset.model import Ruleset

    hearts = Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))
    st = hearts.contracts["hand"].new_deal(4, hearts.deck, 3, [list(range(13)), list(range(13, 26)),
                                                               list(range(26, 39)), list(range(39, 52))], 1, 1)
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("1\n1\n"), stdout=out, ruleset=hearts)
    human.reset(1, 0)
    st.apply_action(human.act(st.view(0)))
    st.apply_action(human.act(st.view(0)))
    text = out.getvalue()
    assert "Pass 3 cards to E: card 1 of 3" in text and "Pass 3 cards to E: card 2 of 3" in text


def test_after_the_exchange_a_seat_is_told_what_it_passed_and_received():
    from kierki_dsl.ruleset.model import Ruleset

    hearts = Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))
    st = hearts.contracts["hand"].new_deal(4, hearts.deck, 3, [list(range(13)), list(range(13, 26)),
                                                               list(range(26, 39)), list(range(39, 52))], 1, 1)
    while st.phase == "pass":
        st.apply_action(st.legal_actions()[0])
    view = st.view(1)
    assert view.passed == (13, 14, 15) and view.passed_to == 2 and view.received == (0, 1, 2)
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO(""), stdout=out, ruleset=hearts)
    human.reset(1, 1)
    human._table(view)
    assert "You passed 3 cards to S: 2♥ 3♥ 4♥; you received 3 cards from N: 2♠ 3♠ 4♠." in out.getvalue()
