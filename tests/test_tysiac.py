"""Tysiąc (issue 16's reach test beyond the family): a rank order given by the data (the ten
beats the king), marriages as declarations that score and change trumps mid-deal, card points
rounded to 10, play to 1000. Each distinctive rule is pinned by a situation built by hand."""
from __future__ import annotations

import io
import random

import attrs
import pytest

from kierki_dsl.cards import parse_card
from kierki_dsl.expr import compile_expr
from kierki_dsl.expr.types import INT
from kierki_dsl.interpreter.actions import PASS, bid
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.interpreter.scopes import SEAT_END
from kierki_dsl.lint import lint_file
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS, STANDARD

PATH = RULESETS / "games" / "tysiac.yaml"
TYSIAC = Ruleset.load(str(PATH))
HEARTS = 1
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
HANDS = (  # dealer 2: seat 0 bids first and, alone bidding, leads
    "KH QH AS TS 9S JD 9D AC",
    "TH 9H KS QS JS AD TD KD",
    "AH JH QD 9C TC KC QC JC",
)
# Each hand's last card was dealt to the musik (the widow): seat 0 takes it and gives seat 1
# and seat 2 their last cards back, so the hands in play are the ones written.


def c(text: str) -> int:
    return parse_card(text)


def _deal(hands=HANDS, bids=(100, 0, 0)):
    """A Tysiąc deal whose hands in play are ``hands``, dealer 2: seat 0 wins the auction (0 in
    ``bids`` is a pass), takes the musik (the last card of each hand), gives seats 1 and 2
    their last cards and keeps his bid as his contract."""
    contract = TYSIAC.contracts["tysiac"]
    dealt = [[c(x) for x in h.split()] for h in hands]
    st = contract.new_deal(3, TYSIAC.deck, 2, dealt, 1, 1)
    for value in bids:
        st.apply_action(bid(value) if value else PASS)
    assert st.phase == "exchange" and st.bidder == 0
    assert sorted(st.view(1).widow) == sorted(d[-1] for d in dealt), "the musik is shown to everybody"
    st.apply_action(dealt[1][-1])
    st.apply_action(dealt[2][-1])
    assert st.phase == "exchange" and st.legal_actions()[0] == bid(st.bid), "he names his contract"
    st.apply_action(bid(st.bid))
    assert st.phase == "play" and [st.hands[s] for s in range(3)] == [sum(1 << x for x in d) for d in dealt]
    return st


def _play(st, *cards: str) -> None:
    for x in cards:
        st.apply_action(c(x))


def test_the_ruleset_lints_clean_and_names_its_sources():
    assert [str(d) for d in lint_file(str(PATH))] == []
    head = PATH.read_text("utf-8").split("\nkierki:")[0]
    assert "zagraj.pl" in head and "pagat" in head and "Not modelled" in head
    assert "PL:" in TYSIAC.description and "EN:" in TYSIAC.description


def test_the_ten_beats_the_king_by_the_decks_order():
    st = _deal()
    assert st.trick_value([(0, c("KH")), (1, c("TH")), (2, c("JH"))])[0] == 1, "A 10 K Q J 9: the ten wins"
    assert st.trick_value([(0, c("TH")), (1, c("AH")), (2, c("KH"))])[0] == 1
    standard = Ruleset.load(str(STANDARD)).contracts["bez_lew"]
    plain = standard.new_deal(4, (1 << 52) - 1, 0, [list(range(i, 52, 4)) for i in range(4)], 1, 1)
    assert plain.trick_value([(0, c("KH")), (1, c("TH")), (2, c("JH")), (3, c("2H"))])[0] == 0, "usual: K beats 10"


def test_rank_comparisons_in_rules_follow_the_order_too():
    """The duty to beat the winning card (`card.rank > winning.rank`): over a king only the ten
    and the ace beat it, the queen does not."""
    st = _deal(hands=("KH AS TS 9S JD 9D AC 9C", "TH QH 9H KS QS JS AD TD", "AH JH QD KD TC KC QC JC"))
    _play(st, "KH")
    assert sorted(st.legal_actions()) == [c("TH")]
    assert "beat" in st.why_illegal(c("QH"))


def test_a_marriage_led_scores_and_makes_its_suit_trumps_at_once():
    st = _deal()
    _play(st, "AS", "JS", "9C")  # trick 1: no trumps yet, seat 2 void in spades plays anything
    assert st.to_move == 0 and st.trump == -1
    before = st.trick_value([(0, c("AC")), (1, c("9H")), (2, c("TC"))])[0]
    _play(st, "QH")  # trick 2: the queen led, the king held: a marriage of hearts
    assert st.trump == HEARTS and st.declared == [100, 0, 0]
    made = ((0, "marriage", 100, HEARTS),)
    assert all(st.view(s).declarations == made and st.view(s).trump == HEARTS for s in range(3)), "public"
    after = st.trick_value([(0, c("AC")), (1, c("9H")), (2, c("TC"))])[0]
    assert (before, after) == (0, 1), "a heart now trumps a club"
    rebuilt = TYSIAC.contracts["tysiac"].from_view(st.view(1), list(st.hands))
    assert rebuilt.trump == HEARTS and rebuilt.declared == [100, 0, 0], "search rebuilds it from a view"
    shown = io.StringIO()
    HumanPlayer(stdin=AlwaysFirst(), stdout=shown, ruleset=TYSIAC).act(st.view(1))
    assert "Declared: P0 marriage (+100, trumps ♥)" in shown.getvalue()
    assert "♦ A 10 K" in shown.getvalue(), "the prompt shows a hand in the deck's order"
    _play(st, "TH", "AH")  # seat 1 must beat the queen; seat 2 must beat the ten
    assert st.to_move == 2


def test_no_marriage_in_the_first_trick_nor_without_both_cards():
    st = _deal()
    _play(st, "QH")  # trick 1
    assert st.trump == -1 and st.declared == [0, 0, 0] and st.view(1).declarations == ()
    st = _deal(hands=("KH 9H AS TS 9S JD 9D AC", "TH QH KS QS JS AD TD KD", "AH JH QD 9C TC KC QC JC"))
    _play(st, "AS", "JS", "9C", "KH")  # trick 2, the king led without the queen
    assert st.trump == -1 and st.declared == [0, 0, 0]


def test_the_bidder_scores_his_bid_or_loses_it_and_the_others_their_rounded_points():
    from kierki_dsl.interpreter.match import deal_out, shuffled

    rng = random.Random(4)
    contract = TYSIAC.contracts["tysiac"]
    for dealer in range(6):
        st = contract.new_deal(3, TYSIAC.deck, dealer % 3, deal_out(shuffled(rng, TYSIAC.deck), dealer % 3, 3, 1), 1, 1)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        got = []
        for s in range(3):
            pts = sum(POINTS[x[0]] for x in (card_name(k) for k in range(52) if st.taken[s] >> k & 1))
            total = pts + st.declared[s]
            got.append((st.bid if total >= st.bid else -st.bid) if s == st.bidder else (total + 5) // 10 * 10)
        assert st.returns() == got


def card_name(card: int) -> str:
    from kierki_dsl.cards import card_str

    return card_str(card)


@pytest.mark.parametrize("text, value", [("round(85, 10)", 90), ("round(84, 10)", 80), ("round(-85, 10)", -90),
                                         ("round(7, 0)", 7), ("round(120, 10)", 120)])
def test_round_to_the_nearest_multiple(text, value):
    from kierki_dsl.expr import ExprText

    compiled, diags = compile_expr(ExprText(text, "t", "<t>"), SEAT_END, INT)
    assert diags == [] and compiled.const == value


class AlwaysFirst(io.StringIO):
    def readline(self, *args) -> str:
        return "1\n"


def test_every_player_plays_recorded_deals_that_replay():
    rs = attrs.evolve(TYSIAC, max_deals=3)
    shown = io.StringIO()
    human = HumanPlayer(stdin=AlwaysFirst(), stdout=shown, ruleset=rs)
    for players in ([human, make_player("search:2"), make_player("heuristic")],
                    [make_player("random"), make_player("ismcts:8"), make_player("heuristic")]):
        runner = MatchRunner(rs, players, seed=7)
        results = list(runner.deals())
        assert len(results) == 3
        report = replay(rs, match_record(rs, 7, runner.first_dealer, results))
        assert report.ok, [str(v) for v in report.violations]
        assert [d["scores"] for d in report.deals] == [list(r.scores) for r in results]
    out = shown.getvalue()
    assert "Legal:" in out and "bid" in out.lower()


def test_a_whole_match_ends_at_1000():
    runner = MatchRunner(TYSIAC, [make_player("heuristic") for _ in range(3)], seed=3)
    results = list(runner.deals())
    assert max(results[-1].totals) >= 1000 and all(max(r.totals) < 1000 for r in results[:-1])


def test_explain_and_diff_read_the_order_and_the_declarations(tmp_path):
    from kierki_dsl.explain import diff, explain

    text = explain(TYSIAC)
    assert "highest first: A 10 K Q J 9" in text and "marriage: declared by leading a card" in text
    assert "until a declaration makes another suit trumps" in text
    plain = tmp_path / "plain.yaml"
    plain.write_text(f"kierki: 1\nextends: {PATH}\nname: plain\ndeck: {{order: null}}\n"
                     "contracts:\n  tysiac:\n    declarations: null\n", "utf-8")
    changes = diff(TYSIAC, Ruleset.load(str(plain)))
    assert "ranks: in each suit, highest first: A 10 K Q J 9 → (nothing)" in changes
    assert "declarations: marriage" in changes


def test_lint_finds_declarations_whose_points_nobody_reads(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kierki: 1\nname: t\nmatch: {schedule: [gra]}\ncontracts:\n  gra:\n"
                   "    declarations: [{name: m, when: lead.rank == K, points: 20}]\n"
                   "    score: [{per_trick: 1}]\n", "utf-8")
    found = [d for d in lint_file(str(bad)) if d.code == "M641"]
    assert found and found[0].severity == "warning" and "declared" in found[0].message
    assert (found[0].pos.line, found[0].pos.col) == (6, 19)  # the list of declarations


def test_declarations_work_with_a_stock_too(tmp_path):
    """Declarations are a general feature: a deal with a stock declares after its leads as well."""
    from kierki_dsl.interpreter.match import deal_out, shuffled

    path = tmp_path / "stock.yaml"
    path.write_text("kierki: 1\nname: t\nplayers: 4\nmatch: {schedule: [gra]}\ncontracts:\n  gra:\n"
                    "    stock: {hand: 6}\n    declarations: [{name: any_king, when: lead.rank == K, points: 20}]\n"
                    "    score: [{per_seat: declared}]\n", "utf-8")
    rs = Ruleset.load(str(path))
    rng = random.Random(1)
    kings = declared = 0
    for _ in range(4):
        st = rs.contracts["gra"].new_deal(4, rs.deck, 0, deal_out(shuffled(rng, rs.deck), 0, 4, 1), 1, 1)
        while not st.is_terminal():
            card = rng.choice(st.legal_actions())
            if not st.trick and card % 13 == 11:
                kings += 1
                seat = st.current_player()
                st.apply_action(card)
                assert st.view((seat + 1) % 4).declarations[-1] == (seat, "any_king", 20, -1)
                continue
            st.apply_action(card)
        assert sum(st.returns()) == 20 * len(st.declarations_made)
        declared += len(st.declarations_made)
    assert kings and declared == kings


def test_bots_know_tricks_pay_although_only_seat_scoring_says_so():
    """Tysiąc scores only at the end (`per_seat`): the bots' hint reads that scoring when the
    static scoring is nothing, so the heuristic and search rollouts try to win tricks."""
    from kierki_dsl.interpreter.trickkernel import seat_gain

    contract = TYSIAC.contracts["tysiac"]
    assert seat_gain(contract, 8, -1, 3) == 120 and contract.wants_tricks(8, 3) is True


def test_a_second_marriage_changes_trumps_again_and_the_ten_takes_the_king():
    st = _deal(hands=("AS KH QH AH TH KD QD AD", "9H TS KS QS JS 9S 9D JD", "JH TD 9C TC KC QC JC AC"))
    _play(st, "AS", "9S", "9C")
    _play(st, "QH", "9H", "JH")  # a marriage of hearts: trumps ♥, seat 0 keeps the lead
    assert (st.trump, st.declared, st.to_move) == (HEARTS, [100, 0, 0], 0)
    _play(st, "KD")  # and one of diamonds: trumps ♦
    assert (st.trump, st.declared) == (2, [180, 0, 0])
    assert st.legal_actions() == [c("9D"), c("JD")], "neither beats the king: any diamond"
    _play(st, "9D")
    assert st.legal_actions() == [c("TD")], "the ten beats the king, so it must be played"
    _play(st, "TD")
    assert st.to_move == 2 and st.completed[-1][2] == 2
    assert [d[1:] for d in st.view(2).declarations] == [("marriage", 100, HEARTS), ("marriage", 80, 2)]


def test_lint_says_a_layout_ignores_the_rank_order(tmp_path):
    path = tmp_path / "layout.yaml"
    path.write_text("kierki: 1\nname: t\ndeck: {order: [A, 10, K, Q, J, 9, 8, 7, 6, 5, 4, 3, 2]}\n"
                    "match: {schedule: [lot]}\ncontracts:\n  lot: {type: layout, prizes: [100, 50]}\n", "utf-8")
    found = [d for d in lint_file(str(path)) if d.code == "M640"]
    assert [(d.severity, d.pos.line, d.pos.col) for d in found] == [("warning", 3, 15)]
    assert "layout contract 'lot'" in found[0].message


def test_the_browser_is_told_the_rank_order_and_the_usual_order_is_not_sent():
    from kierki_dsl.web.snapshot import contract_info

    strength = contract_info(TYSIAC, "tysiac")["rank_order"]
    ranked = sorted(range(13), key=lambda r: -strength[r])[:6]
    assert ranked == [12, 8, 11, 10, 9, 7], "A 10 K Q J 9 by rank id"
    assert contract_info(Ruleset.load(str(STANDARD)), "bez_lew")["rank_order"] is None


def test_a_bid_above_120_needs_a_marriage_in_the_hand_bid_from():
    """Bidding comes before the musik is taken: seat 0's queen of hearts lies in the musik, so
    with the king alone it may bid 120 but not 130; seat 1 holds K♠ Q♠ and may."""
    hands = ("KH AS TS 9S JD 9D AC QH", "TH 9H KS QS JS AD TD KD", "AH JH QD 9C TC KC QC JC")
    st = TYSIAC.contracts["tysiac"].new_deal(3, TYSIAC.deck, 2, [[c(x) for x in h.split()] for h in hands], 1, 1)
    assert bid(120) in st.legal_actions() and bid(130) not in st.legal_actions()
    assert "marriage" in st.why_illegal(bid(130))
    st.apply_action(bid(120))
    assert bid(130) in st.legal_actions() and bid(360) in st.legal_actions()
