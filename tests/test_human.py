"""Play at the terminal: what the person sees at each turn and how typed input is read."""
from __future__ import annotations

import io

import pytest

from kierki_dsl.cards import card_str, parse_card
from kierki_dsl.interpreter.actions import PASS
from kierki_dsl.players.human import HumanPlayer, read_card, read_suit
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS, STANDARD, run_cli

RS = Ruleset.load(str(STANDARD))


def _deal(contract: str, hands, dealer: int = 3, rs=RS):
    return rs.contracts[contract].new_deal(rs.players, rs.deck, dealer, [[parse_card(c) for c in h] for h in hands])


def _human(text: str, seat: int, rs=RS):
    out = io.StringIO()
    h = HumanPlayer(stdin=io.StringIO(text), stdout=out, ruleset=rs)
    h.reset(1, seat)
    return h, out


def test_a_finished_trick_and_its_taker_are_shown_and_last_shows_it_again():
    st = _deal("bez_kierow", (["4C", "2D"], ["9C", "KH"], ["3H", "5C"], ["2C", "5D"]))
    h, out = _human("2\nlast\n?\n\n", 0)
    first = h.act(st.view(0))
    assert card_str(first) == "4C"
    for c in ("4C", "9C", "5C", "2C", "KH", "3H", "5D"):  # E takes trick 1 and leads trick 2
        if c != "4C":
            st.apply_action(parse_card(c))
        else:
            st.apply_action(first)
    before = len(out.getvalue())
    assert card_str(h.act(st.view(0))) == "2D"
    later = out.getvalue()[before:]
    assert "Trick 1: N 4♣, E 9♣, S 5♣, W 2♣ — taken by E" in later
    assert later.count("Previous trick (1): N 4♣, E 9♣, S 5♣, W 2♣ — taken by E") == 2, "'last' and '?'"


def test_the_turn_screen_has_the_deal_number_totals_robber_values_and_marked_trumps():
    h, out = _human("\n", 0)
    h.deal_over(6, (-100, 20, -40, -40))
    atu = _deal("atu", [list(card_str(c) for c in range(i, 52, 4)) for i in range(4)], dealer=3)
    atu.apply_action(53 + 1)  # hearts called by... whoever calls first
    seat = atu.current_player()
    h.reset(1, seat)
    view = atu.view(seat)
    h._table(view)
    text = out.getvalue()
    assert "Deal 1 of 12: Rozgrywka atutowa" in text
    assert "Match totals:     N -100  E +20  S -40  W -40" in text
    assert "← trumps" in next(line for line in text.splitlines() if line.startswith("  ♥"))
    h, out = _human("", 0)
    robber = _deal("rozbojnik", [list(card_str(c) for c in range(i, 52, 4)) for i in range(4)])
    h._table(robber.view(robber.current_player()))
    assert "Bez lew (each trick won: -20)" in out.getvalue() and "Bez kierów (hearts taken: -20 each)" in out.getvalue()


def test_a_single_legal_card_is_the_default():
    st = _deal("bez_kierow", (["4C", "2D"], ["9C", "KH"], ["3H", "5C"], ["2C", "5D"]))
    st.apply_action(parse_card("4C"))
    st.apply_action(parse_card("9C"))
    h, out = _human("\n", 2)
    assert card_str(h.act(st.view(2))) == "5C"
    assert "[Enter: 5♣]" in out.getvalue()


@pytest.mark.parametrize("text,card", [
    ("QS", "QS"), ("10h", "TH"), ("q♠", "QS"), ("♦8", "8D"), ("h5", "5H"), ("10 kier", "TH"), ("kiery 10", "TH"),
    ("as pik", "AS"), ("2 trefl", "2C"), ("K hearts", "KH"), ("heart 3", "3H"), ("ks", "KS"), ("SK", "KS"),
])
def test_cards_typed_in_many_ways(text, card):
    assert card_str(read_card(text)) == card


@pytest.mark.parametrize("text,suit", [("kiery", 1), ("kier", 1), ("heart", 1), ("Hearts", 1), ("piki", 0),
                                       ("karo", 2), ("trefle", 3), ("club", 3), ("♦", 2), ("s", 0)])
def test_suits_in_english_and_polish(text, suit):
    assert read_suit(text) == suit


def test_numbers_off_the_list_and_passing_are_refused_with_the_reason():
    st = _deal("bez_kierow", (["4C", "2D"], ["9C", "KH"], ["3H", "5C"], ["2C", "5D"]))
    h, out = _human("14\n0\npass\n1\n", 0)
    h.act(st.view(0))
    text = out.getvalue()
    assert "14 is not on the list: the legal cards are numbered 1 to 2" in text
    assert "0 is not on the list" in text
    assert "there is no passing in this deal: play a card" in text
    lot = _deal("loteryjka", [list(card_str(c) for c in range(i, 52, 4)) for i in range(4)])
    seat = lot.current_player()
    legal = lot.legal_actions()
    assert PASS not in legal and legal
    h, out = _human("pass\n1\n", seat)
    h.act(lot.view(seat))
    assert "pass is not allowed: you must play when you can" in out.getvalue()


def test_a_layout_turn_says_who_played_and_who_passed_since():
    lot = _deal("loteryjka", [list(card_str(c) for c in range(i, 52, 4)) for i in range(4)])
    seat = lot.current_player()
    h, out = _human("1\n1\n1\n1\n1\n", seat)
    lot.apply_action(h.act(lot.view(seat)))
    while lot.current_player() != seat and not lot.is_terminal():
        lot.apply_action(lot.legal_actions()[0])
    before = len(out.getvalue())
    h.act(lot.view(seat))
    since = out.getvalue()[before:]
    assert "Since your last turn: " in since
    line = next(x for x in since.splitlines() if x.startswith("Since your last turn"))
    moves = line.partition(": ")[2].split(", ")  # each seat and the card it played, or "passed"
    assert len(moves) == 3 and all(m.split(" ")[1] == "passed" or m.split(" ")[1][-1] in "♠♥♦♣" for m in moves)


def test_run_with_a_person_prints_the_seed_at_the_end_and_who_sits_where(tmp_path):
    save = tmp_path / "m.save"
    rc, out, err, _ = run_cli("run", str(STANDARD), "--seed", "11", "--human", "2", "--players", "random",
                              "--save", str(save), input=b"1\n" * 700)
    assert rc == 0, err
    lines = out.splitlines()
    assert "seed" not in lines[0] and "11" not in lines[0]
    assert "Players: N random, E random, S human (you), W random" in out
    assert lines[-1].startswith("seed 11 ")
    assert '"seed": 11' in save.read_text("utf-8").splitlines()[0]


def test_the_results_table_does_not_cut_contract_names():
    rc, out, err, _ = run_cli("run", str(STANDARD), "--seed", "3", "--players", "random")
    assert rc == 0
    title = next(c for c in RS.contracts.values() if c.name == "bez_siodmej_i_ostatniej")
    assert f"{title.pl} — {title.en}" in out


def test_the_last_trick_of_a_deal_is_shown_with_its_taker():
    st = _deal("bez_kierow", (["4C"], ["9C"], ["5C"], ["2C"]))
    h, out = _human("\n", 0)
    h.act(st.view(0))
    for c in ("4C", "9C", "5C", "2C"):
        st.apply_action(parse_card(c))
    h.deal_over(1, (0, -20, 0, 0), st.record_plays())
    assert "Last trick (1): N 4♣, E 9♣, S 5♣, W 2♣ — taken by E" in out.getvalue()


def test_an_unfinished_match_with_a_person_keeps_its_seed_out_of_the_record(tmp_path):
    rec = tmp_path / "r.json"
    rc, out, err, _ = run_cli("run", str(STANDARD), "--seed", "11", "--human", "2", "--record", str(rec),
                              input=b"1\n" * 20)
    assert rc == 130
    import json

    assert json.loads(rec.read_text("utf-8"))["seed"] is None, "the seed would show the hands still to come"


def test_trumps_are_named_in_english_or_polish():
    from kierki_dsl.interpreter.actions import call

    atu = _deal("atu", [list(card_str(c) for c in range(i, 52, 4)) for i in range(4)], dealer=0)
    for typed, suit in (("kiery", 1), ("trefl", 3), ("diamond", 2), ("Spades", 0)):
        h, out = _human(f"{typed}\n", 0)
        assert h.act(atu.view(0)) == call(suit), typed


def test_deal_over_hands_out_plain_public_data_only(cli):
    """What `kierki run` tells players after a deal: ints and strings, no state, no hands."""
    from kierki_dsl.players.base import PLAYERS, RandomPlayer, register_player

    told = []

    @register_player
    class Recorder(RandomPlayer):
        name = "recorder-test"

        def deal_over(self, *args):
            told.append(args)

    try:
        code, out, err = cli("run", str(RULESETS / "games" / "hearts.yaml"), "--seed", "2", "--players", "recorder-test")
    finally:
        PLAYERS.pop("recorder-test", None)
    assert code == 0 and told
    stack = list(told)
    while stack:
        v = stack.pop()
        if isinstance(v, (tuple, list)):
            stack.extend(v)
        else:
            assert isinstance(v, (int, str)) and not isinstance(v, bool), v
    number, totals, plays = told[0]
    assert number == 1 and len(totals) == 4 and len(plays) == 52, "the plays only: no passes, no hands"


def test_an_extra_turn_does_not_claim_that_the_others_passed():
    rs = Ruleset.load(str(RULESETS / "variants" / "fantan_extra_turn.yaml"))
    lot = rs.contracts["loteryjka"]
    st = lot.new_deal(4, rs.deck, 3, [[parse_card(c) for c in h] for h in (["2S", "QH"], ["AS", "8S", "3H"],
                                                                           ["JD", "4H"], ["KC", "5H"])])
    st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=0)
    st.apply_action(parse_card("2S"))
    h, out = _human("AS\n8S\n", 1, rs)
    st.apply_action(h.act(st.view(1)))
    before = len(out.getvalue())
    assert card_str(h.act(st.view(1))) == "8S"
    assert "Since your last turn" not in out.getvalue()[before:]


def test_a_match_file_shorter_than_the_schedule_is_counted_as_played(tmp_path):
    """``kierki run --deals`` with a 2-deal file: "Deal k of 2", not the schedule's 7."""
    from net_support import match_file

    deals = tmp_path / "two.txt"
    deals.write_text(match_file(5, types=(2, 4)))
    rc, out, err, _ = run_cli("run", str(RULESETS / "games" / "sik.yaml"), "--deals", str(deals), "--seed", "1",
                              "--human", "0", "--players", "random", input=b"1\n" * 40)
    assert rc == 0, err
    assert "Deal 1 of 2: Bez kierów" in out and "Deal 2 of 2: Bez panów" in out and " of 7" not in out


def test_with_json_output_the_person_is_prompted_on_stderr_and_stdout_is_one_document():
    import json

    rc, out, err, _ = run_cli("run", str(STANDARD), "--seed", "4", "--human", "0", "--players", "random",
                              "--format", "json", input=b"1\n" * 700)
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["seed"] == 4 and len(doc["deals"]) == 12
    assert "Your hand (N):" in err and "your card>" in err


@pytest.mark.parametrize("stop", ["ctrl_c", "eof"])
def test_ctrl_c_or_end_of_input_at_the_prompt_leaves_the_prompt_line(stop):
    """Play-test of issue 15: 'your card> ^Ckierki: interrupted; ...' was one glued line; the
    message that follows a stop at the prompt starts a line of its own."""
    from kierki_dsl.players.human import HumanQuit

    class Stopped(io.StringIO):
        def readline(self, *args):
            if stop == "ctrl_c":
                raise KeyboardInterrupt
            return ""

    st = _deal("bez_kierow", (["4C", "2D"], ["9C", "KH"], ["3H", "5C"], ["2C", "5D"]))
    out = io.StringIO()
    h = HumanPlayer(stdin=Stopped(), stdout=out, ruleset=RS)
    h.reset(1, 0)
    with pytest.raises(KeyboardInterrupt if stop == "ctrl_c" else HumanQuit):
        h.act(st.view(0))
    assert out.getvalue().endswith("> \n")


@pytest.mark.parametrize("lang, title", [("en", "Deal 1: Hearts\n"), ("pl", "Rozdanie 1: Hearts\n")])
def test_a_game_without_polish_names_is_titled_by_its_english_name_not_its_key(lang, title):
    """Play-test 5: at the Hearts (or Barbu) table the person read 'Deal 1: hand — Hearts' in
    English and 'Rozdanie 1: hand' in Polish: the contract's key stood where its name belongs."""
    rc, out, err, _ = run_cli("run", str(RULESETS / "games" / "hearts.yaml"), "--seed", "2", "--human", "0",
                              "--players", "random", "--lang", lang, input=b"1\n" * 3)
    assert title in out, out[:600]
    assert "hand —" not in out and ": hand\n" not in out


def test_a_single_legal_card_of_the_layout_is_the_default_too():
    """Play-test 5: in loteryjka a turn with one legal card showed no "[Enter: ...]" and Enter
    asked again, though docs/playing.md says a single legal card is played with Enter."""
    lot = _deal("loteryjka", [list(card_str(c) for c in range(i, 52, 4)) for i in range(4)])
    while not lot.is_terminal():
        seat = lot.current_player()
        view = lot.view(seat)
        if len(view.legal) == 1 and view.legal[0] != PASS:
            break
        lot.apply_action(view.legal[0])
    assert not lot.is_terminal(), "no turn with a single legal card"
    h, out = _human("\n", seat)
    assert h.act(view) == view.legal[0]
    assert "[Enter: " in out.getvalue()


def test_pas_typed_in_polish_in_a_trick_deal_is_told_there_is_no_passing():
    """Play-test 5: 'pass' got "there is no passing in this deal", its Polish 'pas' only the
    general "type a card" help."""
    from kierki_dsl.i18n import using

    st = _deal("bez_kierow", (["4C", "2D"], ["9C", "KH"], ["3H", "5C"], ["2C", "5D"]))
    with using("pl"):
        h, out = _human("pas\n1\n", 0)
        h.act(st.view(0))
    assert "w tym rozdaniu nie ma pasowania: zagraj kartę" in out.getvalue(), out.getvalue()
