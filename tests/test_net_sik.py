"""The SIK wire codec and the match-file reader: the protocol page's examples, tolerance, and
no exception on any input."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl.cards import parse_card
from kierki_dsl.net.deals import DealsError, deal_types, parse_deals
from kierki_dsl.net import sik
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS, STANDARD

RS = Ruleset.load(str(RULESETS / "games" / "sik.yaml"))


def cards(*names):
    return tuple(parse_card(n) for n in names)


def test_numbers_and_cards_that_run_together_are_read_with_the_counts_and_the_expected_trick():
    assert sik.parse_server("TAKEN18C6C2C3CS") == sik.Taken(1, cards("8C", "6C", "2C", "3C"), 2)
    assert sik.parse_server("TAKEN1110C6C2C3CW") == sik.Taken(11, cards("10C", "6C", "2C", "3C"), 3)
    assert sik.parse_server("TRICK12C", expected=1) == sik.TrickRequest(1, cards("2C"))
    assert sik.parse_server("TRICK12", expected=12) == sik.TrickRequest(12, ())
    assert sik.parse_server("TRICK110C", expected=1) == sik.TrickRequest(1, cards("10C"))
    assert sik.parse_server("TRICK1310HQS") == sik.TrickRequest(13, cards("10H", "QS"))
    assert sik.parse_play("TRICK310C", expected=3) == (3, parse_card("10C"))
    assert sik.parse_play("TRICK13KH") == (13, parse_card("KH"))  # 13 + KH; 1 + 3KH is no card


def test_scores_are_seat_points_pairs_in_any_order():
    assert sik.parse_server("SCOREN0E5S13W2") == sik.Points("SCORE", (0, 5, 13, 2))
    assert sik.parse_server("TOTALW2S13E5N0") == sik.Points("TOTAL", (0, 5, 13, 2))
    for bad in ("SCOREN0E5S13", "SCOREN0N5S13W2", "SCOREN0E5S13W", "SCOREX1E5S13W2"):
        assert sik.parse_server(bad) is None


def test_other_messages_and_what_is_not_one():
    deal = sik.parse_server("DEAL3W2C3C4C5C6C7C8C9C10CJCQCKCAC")
    assert deal == sik.Deal(3, 3, tuple(range(39, 52)))
    assert sik.parse_server("BUSYNES") == sik.Busy((0, 1, 2))
    assert sik.parse_server("WRONG7") == sik.Wrong(7)
    assert sik.parse_iam("IAMS") == 2
    for bad in ("DEAL8N2C3C4C5C6C7C8C9C10CJCQCKCAC", "DEAL1N2C2C4C5C6C7C8C9C10CJCQCKCAC", "TRICK14", "TRICK0",
                "TRICK1ZZ", "WRONG0", "WRONG", "TAKEN18C6C2CS", "BUSY", "BUSYNN", "HELLO", ""):
        assert sik.parse_server(bad) is None, bad
    for bad in ("IAM", "IAMX", "IAMNN", "iamN"):
        assert sik.parse_iam(bad) is None


def test_what_is_written_reads_back():
    hand = cards("10C", "QH", "2S")
    assert sik.trick(4, hand) == "TRICK410CQH2S"
    assert sik.parse_server(sik.trick(4, hand), 4) == sik.TrickRequest(4, hand)
    assert sik.parse_server(sik.taken(10, hand + cards("AD"), 1), 10) == sik.Taken(10, hand + cards("AD"), 1)
    assert sik.points("SCORE", (1, 0, 12, 0)) == "SCOREN1E0S12W0"
    assert sik.busy({3, 0}) == "BUSYNW"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="TRICKAENDLWOGSBUYIM0123456789JQKHDC\x00\xff", max_size=40), st.integers(1, 13))
def test_no_message_makes_a_parser_raise(text, expected):
    sik.parse_server(text, expected)
    sik.parse_play(text, expected)
    sik.parse_iam(text)


def _file(*deals):
    return "\n".join(deals).encode()


ONE = ["1N", "2C3C4C5C6C7C8C9C10CJCQCKCAC", "2D3D4D5D6D7D8D9D10DJDQDKDAD", "2H3H4H5H6H7H8H9H10HJHQHKHAH",
       "2S3S4S5S6S7S8S9S10SJSQSKSAS"]


def test_a_match_file_maps_types_to_schedule_entries_and_leaders_to_dealers():
    deals = parse_deals(_file(*ONE, "7W", *ONE[1:]) + b"\r\n\r\n", RS)
    assert [d.contract.name for d in deals] == ["bez_lew", "rozbojnik"]
    assert [d.dealer for d in deals] == [3, 2]
    assert deals[0].dealt[0] == tuple(range(39, 52))
    standard = Ruleset.load(str(STANDARD))
    assert parse_deals(_file(*ONE), standard)[0].contract.name == "bez_lew"


@pytest.mark.parametrize("lines, message", [
    (["1X"] + ONE[1:], ":1: error: expected a deal type digit and the first seat"),
    (["9N"] + ONE[1:], ":1: error: deal type 9 names no contract"),
    (ONE[:4], ":5: error: the file ends inside a deal"),
    (ONE[:2] + ["2D3D4D"] + ONE[3:], ":3: error: E has 3 cards"),
    (ONE[:2] + ["2C3D4D5D6D7D8D9D10DJDQDKDAD"] + ONE[3:], ":3: error: 2C is dealt twice"),
    (ONE[:1] + ["1C3C4C5C6C7C8C9C10CJCQCKCAC"] + ONE[2:], ":2: error: the cards of N cannot be read"),
    ([], ":1: error: the match file has no deals"),
])
def test_a_broken_match_file_is_refused_with_its_line(lines, message):
    with pytest.raises(DealsError) as e:
        parse_deals(_file(*lines), RS, "m.txt")
    assert str(e.value).startswith("m.txt") and message in str(e.value)


def test_a_match_file_that_is_not_ascii_is_refused():
    with pytest.raises(DealsError, match=r"m.txt:2: error: the match file is not ASCII"):
        parse_deals("1N\n2♣".encode(), RS, "m.txt")


def test_deal_types_can_name_the_contracts_of_any_ruleset():
    barbu = Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))
    types = deal_types(barbu, "1=no_tricks, 3=no_queens,5=barbu")
    deals = parse_deals(_file(*ONE, "5S", *ONE[1:]), barbu, "m.txt", types)
    assert [d.contract.name for d in deals] == ["no_tricks", "barbu"]
    assert 2 not in types
    with pytest.raises(DealsError, match="deal type 2 names no contract.*1=no_tricks, 3=no_queens, 5=barbu"):
        parse_deals(_file("2N", *ONE[1:]), barbu, "m.txt", types)
    for bad in ("1", "0=no_tricks", "x=no_tricks", "1=nothing", "\u00b2=no_tricks"):  # ² is a digit int() refuses
        with pytest.raises(DealsError, match="--deal-types"):
            deal_types(barbu, bad)
    assert deal_types(barbu) == {}, "Barbu's schedule is a declarer's choice: no default types"
