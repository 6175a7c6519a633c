"""The DSL's reach (issue 16): sourced variants and related games shipped as data files.

Every file here lints clean, plays a whole match with every kind of player (the human prompt
answered by a script), records and replays; and each one's distinctive rule is pinned by a
situation built by hand in which it decides differently from the standard.
"""
from __future__ import annotations

import functools
import io

import pytest

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter.actions import CHOOSE_BASE, PASS, call
from kierki_dsl.interpreter.match import MatchRunner, deal_out
from kierki_dsl.lint import lint_file
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS, STANDARD
from test_variants import C, P, _deal6_penalties, _lead, deal, full

N, E, S, W = 0, 1, 2, 3

SHIPPED = {
    "variants": ["third_and_eighth", "sixth_and_last", "heart_ban_in_deal_one", "no_heart_lead_ban",
                 "robber_counted_once", "short_kierki", "three_players_enc", "declarer_chooses_negatives",
                 "fantan_pass_at_will", "fantan_seven_diamonds_starts", "fantan_seven_hearts_starts",
                 "fantan_extra_turn_ace_or_two", "iks_scale", "fantan_eight_before_lower", "auction_for_trumps",
                 "kierki_dominowe"],
    "games": ["omnibus", "omnibus_ten_diamonds", "black_maria", "black_maria_four_players", "pink_lady",
              "russian_king", "trix"],
}
PATHS = [RULESETS / folder / f"{name}.yaml" for folder, names in SHIPPED.items() for name in names]


@functools.lru_cache(maxsize=None)
def load(name: str) -> Ruleset:
    if name == "standard":
        return Ruleset.load(str(STANDARD))
    folder = next(f for f, names in SHIPPED.items() if name in names) if any(
        name in v for v in SHIPPED.values()) else "games"
    return Ruleset.load(str(RULESETS / folder / f"{name}.yaml"))


class AlwaysFirst(io.StringIO):
    """A person who always types 1: the first choice of every prompt."""

    def readline(self, *args) -> str:
        return "1\n"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_shipped_file_lints_clean_and_names_its_source(path):
    assert [str(d) for d in lint_file(str(path))] == []
    head = path.read_text("utf-8").split("\nkierki:")[0]
    assert any(tag in head for tag in ("RULES.md", "PL-BOOK", "WALC", "SIK", "IKS", "SZB", "PL-ENC")), path.stem
    rs = Ruleset.load(str(path))
    assert "PL:" in rs.description and "EN:" in rs.description


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_every_player_plays_a_recorded_match(path):
    """The human prompt (scripted), search, heuristic and random play a match that replays."""
    rs = Ruleset.load(str(path))
    shown = io.StringIO()
    human = HumanPlayer(stdin=AlwaysFirst(), stdout=shown, ruleset=rs)
    players = [human, make_player("search:2"), make_player("heuristic"), make_player("random")][: rs.players]
    runner = MatchRunner(rs, players, seed=11)
    results = list(runner.deals())
    assert results and "Legal:" in shown.getvalue()
    for r in results:
        if r.contract.total is not None:
            assert sum(r.scores) == r.contract.total, (path.stem, r.contract.name)
    if rs.total is not None:
        assert sum(results[-1].totals) == rs.total
    report = replay(rs, match_record(rs, 11, runner.first_dealer, results))
    assert report.ok, [str(v) for v in report.violations]
    assert [d["scores"] for d in report.deals] == [list(r.scores) for r in results]


# -- V2: the penalised tricks of deal 6 ------------------------------------------------------

def test_deal_6_third_and_eighth_and_sixth_and_last():
    assert _deal6_penalties(load("standard")) == {7: -75, 13: -75}
    assert _deal6_penalties(load("third_and_eighth")) == {3: -75, 8: -75}
    assert _deal6_penalties(load("sixth_and_last")) == {6: -75, 13: -75}


# -- V3: which deals ban heart leads ---------------------------------------------------------

def test_heart_lead_ban_in_deal_one_too():
    h1 = ("AH", "5H", "3C")  # KQ-02's hand H1
    assert _lead(load("standard"), "bez_lew", h1) == set(C(*h1))
    assert _lead(load("heart_ban_in_deal_one"), "bez_lew", h1) == set(C("3C"))
    assert _lead(load("heart_ban_in_deal_one"), "bez_dam", h1) == set(C(*h1)), "deal 3 keeps no ban"
    assert _lead(load("heart_ban_in_deal_one"), "bez_lew", ("KH", "5H")) == set(C("KH", "5H"))


def test_no_heart_lead_ban_at_all():
    h1 = ("AH", "5H", "3C")
    for contract in ("bez_kierow", "bez_krola_kier", "rozbojnik"):
        assert _lead(load("standard"), contract, h1) == set(C("3C"))
        assert _lead(load("no_heart_lead_ban"), contract, h1) == set(C(*h1)), contract


# -- V6: the robber counting each card once --------------------------------------------------

def test_robber_counts_each_card_once_under_its_heaviest_heading():
    std, once = load("standard"), load("robber_counted_once")
    kq06 = P((E, "3S"), (S, "2H"), (W, "KH"), (N, "QS"))
    assert full(std, "rozbojnik").trick_value(kq06, 7) == (N, -375)
    assert full(once, "rozbojnik").trick_value(kq06, 7) == (N, -20 - 20 - 150 - 60 - 75)
    kq07 = P((S, "4D"), (W, "JD"), (N, "QH"), (E, "KC"))
    assert full(std, "rozbojnik").trick_value(kq07, 13) == (W, -235)
    assert full(once, "rozbojnik").trick_value(kq07, 13) == (W, -20 - 60 - 30 - 30 - 75)
    assert full(once, "bez_kierow").trick_value(kq07, 13) == (W, -20), "deal 2 is unchanged"


# -- V7: short kierki ------------------------------------------------------------------------

def test_short_kierki_is_four_robbers_and_four_trump_deals_on_the_small_scale():
    rs = load("short_kierki")
    assert [c.name for c in rs.schedule] == ["rozbojnik"] * 4 + ["atu"] * 4
    kq06 = P((E, "3S"), (S, "2H"), (W, "KH"), (N, "QS"))
    assert full(rs, "rozbojnik").trick_value(kq06, 7) == (N, -2 - 2 * 2 - 5 - 3 - 16 - 9)
    assert rs.total == -260, "the totals cannot balance, and the file says so"


# -- V12/V23: PL-ENC's three players ---------------------------------------------------------

def test_three_players_enc_caller_sees_six_and_trump_tricks_score_twenty():
    rs = load("three_players_enc")
    deck = [c for c in range(52) if rs.deck >> c & 1]
    st = rs.contracts["atu"].new_deal(3, rs.deck, S, deal_out(deck, S, 3))
    assert st.current_player() == S and st.view(S).hand.bit_count() == 6, "the dealer calls after 6 cards"
    st.apply_action(call(2))
    assert st.trick_value(P((N, "AS"), (E, "3S"), (S, "4S")), 1) == (N, 20)
    six = rs.contracts["bez_siodmej_i_ostatniej"].new_deal(3, rs.deck, 0, [deck[i::3] for i in range(3)])
    assert [six.trick_value(P((E, "AS"), (S, "3S"), (N, "4S")), n)[1] for n in (7, 16, 17)] == [-70, 0, -70]
    std3 = Ruleset.load(str(RULESETS / "variants" / "three_players.yaml"))
    s3 = std3.contracts["bez_siodmej_i_ostatniej"].new_deal(3, std3.deck, 0, [deck[i::3] for i in range(3)])
    assert s3.trick_value(P((E, "AS"), (S, "3S"), (N, "4S")), 7)[1] == 0, "PL-BOOK's reading spares trick 7"


# -- V24: the dealer chooses the negative deal -----------------------------------------------

def test_each_negative_contract_once_in_the_match_whoever_chooses():
    rs = load("declarer_chooses_negatives")
    slot = rs.schedule[0]
    memory = {}
    hands = deal_out(list(range(52)), W, 4)
    first = slot.new_deal(4, rs.deck, W, hands, memory=memory)
    assert first.current_player() == W and len(first.legal_actions()) == 7
    first.apply_action(CHOOSE_BASE + 6)  # W names the robber
    second = slot.new_deal(4, rs.deck, N, deal_out(list(range(52)), N, 4), memory=memory)
    assert second.current_player() == N
    assert CHOOSE_BASE + 6 not in second.legal_actions() and len(second.legal_actions()) == 6, \
        "another dealer may not name the robber again"
    results = list(MatchRunner(rs, [make_player("random") for _ in range(4)], seed=5).deals())
    assert sorted(r.contract.name for r in results[:7]) == sorted(o.name for o in slot.options)
    assert sum(results[-1].totals) == 0


def test_a_per_match_choice_block_longer_than_its_options_is_an_error(tmp_path):
    p = tmp_path / "long.yaml"
    p.write_text(f"kierki: 1\nextends: {STANDARD}\nname: long\nmatch:\n  total: null\n  parts: null\n"
                 "  schedule:\n    - choose: {by: dealer, from: [bez_lew, bez_dam], once_in_match: true}\n"
                 "      repeat: 3\n", "utf-8")
    found = [d for d in lint_file(str(p)) if d.code == "M613"]
    assert found and "each once in the match" in found[0].message


# -- V14, V16, V17: loteryjka ----------------------------------------------------------------

def test_holder_of_the_seven_starts_loteryjka():
    for name, card in (("fantan_seven_diamonds_starts", "7D"), ("fantan_seven_hearts_starts", "7H")):
        rs = load(name)
        for dealer in range(4):
            hands = deal_out(list(range(52)), dealer, 4)
            st = rs.contracts["loteryjka"].new_deal(4, rs.deck, dealer, hands)
            holder = next(s for s in range(4) if parse_card(card) in hands[s])
            assert st.current_player() == holder, (name, dealer)
    std = load("standard").contracts["loteryjka"]
    hands = deal_out(list(range(52)), E, 4)
    assert std.new_deal(4, load("standard").deck, E, hands).current_player() == S


def test_pass_at_will_in_loteryjka():
    hands = [C("7S", "8S"), C("7H"), C("7D"), C("7C")]
    std, free = load("standard"), load("fantan_pass_at_will")
    st = std.contracts["loteryjka"].new_deal(4, std.deck, W, hands)
    assert st.legal_actions() == C("7S") and st.why_illegal(PASS) == "you must play when you can"
    st = free.contracts["loteryjka"].new_deal(4, free.deck, W, hands)
    assert st.legal_actions() == C("7S") + [PASS]
    st.apply_action(PASS)
    assert st.current_player() == E


def test_extra_card_after_an_ace_or_a_two():
    def after_two(name):
        rs = load(name) if name != "fantan_extra_turn" else Ruleset.load(str(RULESETS / "variants" / f"{name}.yaml"))
        st = rs.contracts["loteryjka"].new_deal(4, rs.deck, W, [C("2S", "AS", "QH"), C("8S", "3H"), C("JD", "4H"),
                                                                 C("KC", "5H")])
        st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=N)
        st.apply_action(parse_card("2S"))
        return st.current_player()

    assert after_two("standard") == E
    assert after_two("fantan_extra_turn") == E, "the ace-only form gives no extra card after a two"
    assert after_two("fantan_extra_turn_ace_or_two") == N
    rs = load("fantan_extra_turn_ace_or_two")
    st = rs.contracts["loteryjka"].new_deal(4, rs.deck, W, [C("2S", "AS", "QH"), C("8S", "3H"), C("JD", "4H"),
                                                           C("KC", "5H")])
    st.set_rows([(parse_card("3S"), parse_card("7S")), None, None, None], to_move=N)
    st.apply_action(parse_card("2S"))
    assert st.legal_actions() == C("AS") + [PASS], "the extra card may be declined"


def test_the_eight_before_any_lower_card():
    """RULES.md §d.9: with up_first the 8 must lie on the 7 before the 6 may be laid."""
    hands = [C("8S", "2H"), C("6S", "9S", "3H"), C("4H"), C("5H")]
    std, up = load("standard").contracts["loteryjka"], load("fantan_eight_before_lower").contracts["loteryjka"]
    deck = load("standard").deck
    seven = [(parse_card("7S"), parse_card("7S")), None, None, None]
    st = std.new_deal(4, deck, W, hands)
    st.set_rows(seven, to_move=E)
    assert st.legal_actions() == C("6S")
    st = up.new_deal(4, deck, W, hands)
    st.set_rows(seven, to_move=E)
    assert st.legal_actions() == [PASS]
    assert st.why_illegal(parse_card("6S")) == "the 8S must follow the 7S before any lower card"
    from kierki_dsl.interpreter.reasons import illegal_reason

    assert illegal_reason(st.view(E), parse_card("6S"), up) == "the 8S must follow the 7S before any lower card"
    st = up.new_deal(4, deck, W, hands)
    st.set_rows(seven, to_move=N)
    st.apply_action(parse_card("8S"))
    assert set(st.legal_actions()) == set(C("6S", "9S")), "with the 8 down the row grows both ways"
    again = up.from_view(st.view(E), [st.hands[i] for i in range(4)])
    assert set(again.legal_actions()) == set(C("6S", "9S")), "a position rebuilt from a view (search)"
    # a whole deal from the 7s: no card below a 7 before its 8
    for dealer in range(4):
        st = up.new_deal(4, deck, dealer, deal_out(list(range(52)), dealer, 4))
        while not st.is_terminal():
            action = st.legal_actions()[0]
            if action != PASS and action % 13 < 5:
                assert st.played >> (action // 13 * 13 + 6) & 1, "the 8 lies before any lower card"
            st.apply_action(action)


def test_up_first_that_never_applies_is_found(tmp_path):
    p = tmp_path / "top.yaml"
    p.write_text(f"kierki: 1\nextends: {STANDARD}\nname: top\ncontracts:\n  loteryjka:\n    start_rank: K\n"
                 "    up_first: true\n", "utf-8")
    found = [d for d in lint_file(str(p)) if d.code == "M645"]
    assert found and found[0].pos.line == 7 and "never applies" in found[0].message
    p.write_text(f"kierki: 1\nextends: {STANDARD}\nname: top\ndeck: {{ranks: [2, 3, 4, 5, 6, 7, 9, 10, J, Q, K, A]}}\n"
                 "match: {total: null, parts: null}\ncontracts:\n  loteryjka:\n    total: null\n    up_first: true\n",
                 "utf-8")
    found = [d for d in lint_file(str(p)) if d.code == "M645"]
    assert found and "can never be laid" in found[0].message


# -- V21: the IKS scale ----------------------------------------------------------------------

def test_iks_scale():
    rs = load("iks_scale")
    assert [c.name for c in rs.schedule] == ["bez_lew", "bez_kierow", "bez_dam", "bez_panow", "bez_siodmej_i_ostatniej"]
    trick = P((N, "QS"), (E, "AS"), (S, "KS"), (W, "JS"))
    assert full(rs, "bez_dam").trick_value(trick, 1) == (E, -52), "aces count with the queens"
    assert full(load("standard"), "bez_dam").trick_value(trick, 1) == (E, -60)
    assert full(rs, "bez_panow").trick_value(trick, 1) == (E, -26)
    assert _lead(rs, "bez_lew", ("AH", "5H", "3C")) == set(C("3C"))


# -- the Hearts family ------------------------------------------------------------------------

def _hearts_trick(name, trick):
    rs = load(name) if name != "hearts" else Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))
    st = full(rs, "hand")
    while st.phase == "pass":  # the cards passed before play do not matter here
        st.apply_action(st.legal_actions()[0])
    return st.trick_value(trick, 5)


def test_omnibus_and_its_ten_of_diamonds_form():
    trick = P((N, "2D"), (E, "JD"), (S, "TD"), (W, "QD"))
    assert _hearts_trick("hearts", trick) == (W, 0)
    assert _hearts_trick("omnibus", trick) == (W, 10)
    assert _hearts_trick("omnibus_ten_diamonds", trick) == (W, 10)
    jack = P((N, "2D"), (E, "JD"), (S, "3D"), (W, "4D"))
    assert _hearts_trick("omnibus", jack) == (E, 10)
    assert _hearts_trick("omnibus_ten_diamonds", jack) == (E, 0)


def test_black_maria_and_pink_lady():
    spades = P((N, "AS"), (E, "KS"), (S, "2S"), (W, "3S"))
    assert _hearts_trick("hearts", spades) == (N, 0)
    assert _hearts_trick("black_maria_four_players", spades) == (N, -17)
    queen = P((N, "QH"), (E, "2H"), (S, "3H"), (W, "4H"))
    assert _hearts_trick("hearts", queen) == (N, -4)
    assert _hearts_trick("pink_lady", queen) == (N, -13 - 3)


# -- Russian King ------------------------------------------------------------------------------

def test_russian_king_has_32_cards_and_8_tricks():
    rs = load("russian_king")
    assert rs.deck.bit_count() == 32 and rs.hand_size == 8 and not rs.deck >> parse_card("6S") & 1
    hands = [("7S", "AH"), ("8S", "9H"), ("9S", "TH"), ("TS", "JH")]
    st = deal(rs, "chervi", W, hands)
    assert st.legal_actions() == C("7S"), "hearts may not be led while holding a spade"
    results = list(MatchRunner(rs, [make_player("random") for _ in range(4)], seed=2).deals())
    assert [len(r.plays) for r in results] == [32, 32, 32]
    assert [sum(r.scores) for r in results] == [-16, -16, -8]


# -- the auction (V8) ---------------------------------------------------------------------------

def _auction_deal(rs=None):
    rs = rs or load("auction_for_trumps")
    return rs, rs.contracts["atu"].new_deal(4, rs.deck, W, deal_out(list(range(52)), W, 4))


def test_an_auction_decides_who_names_trumps_and_what_it_costs():
    from kierki_dsl.interpreter.actions import bid

    rs, st = _auction_deal()
    assert st.phase == "auction" and st.current_player() == N, "bidding starts left of the dealer"
    assert st.view(N).hand.bit_count() == 13, "bidders see their whole hands"
    for action in (bid(30), bid(60), PASS, PASS):  # N 30, E 60, S passes, W passes
        st.apply_action(action)
    assert st.current_player() == N and st.legal_actions()[:2] == [PASS, bid(90)]
    assert st.why_illegal(bid(60)) == "a bid must be higher than 60, the bid standing"
    assert st.why_illegal(bid(100)) == "bids go from 30 to 300 in steps of 30"
    st.apply_action(PASS)  # N passes: E wins at 60
    assert (st.phase, st.bidder, st.bid, st.current_player()) == ("call", E, 60, E)
    assert st.view(E).hand.bit_count() == 13
    st.apply_action(call(0))
    assert st.current_player() == N, "the player left of the dealer still leads"
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    tricks = [25 * n for n in st.tricks_won]
    assert st.returns() == [t + (-60 if s == E else 20) for s, t in enumerate(tricks)]
    assert sum(st.returns()) == 325
    std = load("standard").contracts["atu"].new_deal(4, load("standard").deck, W, deal_out(list(range(52)), W, 4))
    assert std.phase == "call" and std.current_player() == W, "the standard profile has no auction"


def test_everybody_passes_and_the_dealer_plays_at_the_minimum():
    rs, st = _auction_deal()
    for _ in range(4):
        st.apply_action(PASS)
    assert (st.phase, st.bidder, st.bid, st.current_player()) == ("call", W, 30, W)


def test_the_highest_bid_ends_the_auction_at_once():
    from kierki_dsl.interpreter.actions import bid

    rs, st = _auction_deal()
    st.apply_action(bid(300))
    assert (st.phase, st.bidder, st.bid) == ("call", N, 300)


def test_auction_reasons_views_records_and_saves():
    from kierki_dsl.interpreter.actions import bid
    from kierki_dsl.interpreter.reasons import illegal_reason
    from kierki_dsl.interpreter.view import SeatView
    from kierki_dsl.table.savefile import decode, encode

    rs, st = _auction_deal()
    st.apply_action(bid(90))
    view = st.view(E)
    assert view.auction == ((N, 90),) and (view.bid, view.bidder) == (90, N)
    assert SeatView.from_json(view.to_json()) == view
    assert illegal_reason(view, bid(60), rs.contracts["atu"]) == "a bid must be higher than 90, the bid standing"
    assert decode(encode(bid(120))) == bid(120) and encode(bid(120)) == "bid:120"
    for _ in range(3):
        st.apply_action(PASS)
    st.apply_action(call(1))
    st.apply_action(st.legal_actions()[0])
    again = rs.contracts["atu"].from_view(st.view(S), list(st.hands))
    assert (again.bid, again.bidder) == (90, N), "search rebuilds the auction's outcome from a view"
    # a record holds the auction, and replay checks every bid
    runner = MatchRunner(rs, [make_player(n) for n in ("heuristic", "random", "search:2", "random")], seed=6)
    results = list(runner.deals())
    record = match_record(rs, 6, runner.first_dealer, results)
    deal8 = record["deals"][7]
    assert deal8["auction"] and deal8["caller"] == results[7].bidder
    assert replay(rs, record).ok
    deal8["auction"] = ["bid:45"] + deal8["auction"][1:]
    report = replay(rs, record)
    assert not report.ok and "bid:45 is illegal: bids go from 30 to 300 in steps of 30" in str(report.violations[0])


def test_the_human_prompt_offers_bids_with_reasons():
    from kierki_dsl.interpreter.actions import bid

    rs, st = _auction_deal()
    st.apply_action(bid(60))
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("45\n30\n90\n"), stdout=out, ruleset=rs)
    human.reset(1, E)
    assert human.act(st.view(E)) == bid(90)
    shown = out.getvalue()
    assert "Auction so far: N 60" in shown and "the bid standing is 60 by N" in shown
    assert "45 is not allowed: bids go from 30 to 300 in steps of 30" in shown
    assert "30 is not allowed: a bid must be higher than 60, the bid standing" in shown


def test_search_and_heuristic_bid():
    from kierki_dsl.interpreter.actions import is_bid

    rs, st = _auction_deal()
    for name in ("search:4", "heuristic"):
        p = make_player(name)
        p.reset(3, N, rs)
        assert p.act(st.view(N)) in st.legal_actions()
    # a very strong hand bids, a very weak one passes
    strong = [C(*"AS KS QS JS TS 9S AH KH QH AD KD AC KC".split()), C(*"2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 2S 3S".split()),
              C(*"6H 7H 8H 9H 6D 7D 8D 9D 5C 6C 7C 4S 5S".split()), C(*"TH JH TD JD QD 8C 9C TC JC QC 6S 7S 8S".split())]
    st = rs.contracts["atu"].new_deal(4, rs.deck, W, strong)
    h = make_player("heuristic")
    h.reset(1, N, rs)
    assert is_bid(h.act(st.view(N)))
    st.apply_action(h.act(st.view(N)))
    h.reset(1, E, rs)
    assert h.act(st.view(E)) == PASS


def test_explain_and_diff_read_the_new_constructs(cli):
    """`kierki explain` says each new construct in words and `kierki diff` shows it."""
    std = str(STANDARD)
    cases = {
        "variants/auction_for_trumps.yaml": ("auction: before play, starting with the player to the dealer's left",
                                            "from 30 to 300 in steps of 30"),
        "variants/fantan_eight_before_lower.yaml": ("up first: in each row the 8 must follow the 7 before any lower card",),
        "variants/declarer_chooses_negatives.yaml": ("each contract once in the match, whoever chooses",),
    }
    for rel, phrases in cases.items():
        path = str(RULESETS / rel)
        rc, out, err = cli("explain", path)
        assert rc == 0 and all(p in out for p in phrases), (rel, out)
        rc, out, err = cli("diff", std, path)
        assert rc in (0, 1) and all(p.split(": ", 1)[-1] in out for p in phrases), (rel, out)


def test_every_auction_ends_with_the_last_bid_or_the_fallback():
    """Any sequence of legal bids and passes ends within players × levels turns; the winner
    made the highest bid (or, when everybody passed, the dealer plays at the minimum)."""
    import random

    from kierki_dsl.interpreter.actions import bid_value, is_bid

    rs = load("auction_for_trumps")
    for seed in range(200):
        rng = random.Random(seed)
        st = rs.contracts["atu"].new_deal(4, rs.deck, seed % 4, deal_out(list(range(52)), seed % 4, 4))
        made = []
        for _ in range(4 * 10 + 4):
            if st.phase != "auction":
                break
            action = rng.choice(st.legal_actions()[: rng.choice((2, 11))])
            if is_bid(action):
                made.append((st.current_player(), bid_value(action)))
            st.apply_action(action)
        assert st.phase == "call"
        assert (st.bidder, st.bid) == (made[-1] if made else (seed % 4, 30))
        assert st.current_player() == st.bidder
