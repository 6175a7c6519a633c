"""Rules against their sources (issue 24): each test plays a position in which the source's
rule decides, and asserts the legal actions or the scores the source gives.

Sources are those each ruleset's header names (RULES.md's table and the issue's citations).
"""
from __future__ import annotations

import functools

from kierki_dsl.cards import parse_card
from kierki_dsl.interpreter import matchvalues
from kierki_dsl.interpreter.actions import PASS, bid, call, name_rank
from kierki_dsl.interpreter.match import deal_out
from kierki_dsl.interpreter.phases import Phase
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS

N, E, S, W = 0, 1, 2, 3


@functools.lru_cache(maxsize=None)
def load(path: str) -> Ruleset:
    """A shipped ruleset by its path under ``rulesets/``."""
    return Ruleset.load(str(RULESETS / path))


def C(*names):
    return [parse_card(n) for n in names]


def play(st, *cards) -> None:
    """Play the named cards in turn, each one a legal action."""
    for name in cards:
        card = parse_card(name)
        assert card in st.legal_actions(), (name, st.legal_actions())
        st.apply_action(card)


def play_out(st) -> list:
    """Finish the deal with each player's first legal action; the deal's scores."""
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    return st.returns()


# -- Omnibus: the moon needs all fifteen counting cards (bicyclecards.com "Omnibus Hearts") ----

def _omnibus(path, hands):
    rs = load(path)
    # deal 4 of the rotation passes no cards
    return rs.contracts["hand"].new_deal(4, rs.deck, W, [C(*h) for h in hands], number=4)


CLUBS = ("2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC")
SPADES = ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS")  # no Q, no A
HEARTS = ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH")


def _all_cards_to_north():
    """North holds every club and leads them: he takes every trick, all fifteen counting cards."""
    others = SPADES + ("AS", "QS") + HEARTS + tuple(f"{r}D" for r in "23456789TJQKA")
    return [CLUBS, others[0:13], others[13:26], others[26:39]]


def test_omnibus_moon_takes_all_fifteen_counting_cards():
    for path in ("games/omnibus.yaml", "games/omnibus_ten_diamonds.yaml"):
        st = _omnibus(path, _all_cards_to_north())
        assert play_out(st) == [-26 + 10 + 26, -26, -26, -26], path


def test_omnibus_fourteen_without_the_bonus_card_is_no_moon():
    """East wins trick 1 with A♣ and the bonus card discarded on it; North then takes every
    other trick: all thirteen hearts and Q♠, fourteen cards, which is no moon."""
    for path, bonus in (("games/omnibus.yaml", "JD"), ("games/omnibus_ten_diamonds.yaml", "TD")):
        diamonds = [f"{r}D" for r in "AKQJT98765432" if f"{r}D" != bonus and r != "2"]
        hands = [CLUBS[:12] + ("AS",), ("AC",) + SPADES + ("2D",),
                 ("QS", bonus) + tuple(diamonds[:6]) + HEARTS[:5], tuple(diamonds[6:]) + HEARTS[5:]]
        st = _omnibus(path, hands)
        play(st, "2C", "AC", bonus, diamonds[6], "2S", "QS", diamonds[7], "AS")
        assert play_out(st) == [-13 - 13, 10, 0, 0], path


# -- Fan Tan: the holder of the seven opens with that seven (FT-PAGAT's English Sevens) -------

def test_the_holder_of_the_seven_must_open_with_it():
    for path, card in (("variants/fantan_seven_diamonds_starts.yaml", "7D"),
                       ("variants/fantan_seven_hearts_starts.yaml", "7H")):
        rs = load(path)
        hands = [C("7S", "7C", card, "8S"), C("2H", "6S"), C("3H", "9S"), C("4H", "AS")]
        st = rs.contracts["loteryjka"].new_deal(4, rs.deck, W, hands)
        assert st.current_player() == N and st.legal_actions() == C(card), path
        assert st.why_illegal(parse_card("7S")) == f"the {card} must be laid first"
        play(st, card)
        # then every row may open: the others have nothing to lay, and North's other sevens are playable
        assert st.legal_actions() == [PASS]
        play_pass(st, 3)
        assert set(st.legal_actions()) == set(C("7S", "7C")), path


def play_pass(st, times: int) -> None:
    for _ in range(times):
        st.apply_action(PASS)


# -- WALC's chapanka: head the trick without trumps; one rotating seat leads and calls --------

def _chapanka_trumps(dealer, hands):
    rs = load("variants/walc_chapanka.yaml")
    return rs.contracts["atu"].new_deal(4, rs.deck, dealer, [C(*h) for h in hands])


def test_chapanka_without_trumps_a_follower_must_head_the_trick():
    """WALC GameWnd.cpp CanPlayCard (issue 24's hand): against a 5♠ lead, K♠ only, not 2♠."""
    hands = [("5S", "2C", "3C", "4C", "5C"), ("2S", "KS", "2H", "3H", "4H"),
             ("6S", "6C", "7C", "8C", "9C"), ("7S", "TC", "JC", "QC", "KC")]
    st = _chapanka_trumps(W, hands)  # N, left of W, calls and leads
    assert st.current_player() == N
    st.apply_action(call(-1))
    play(st, "5S")
    assert st.legal_actions() == C("KS")
    assert st.why_illegal(parse_card("2S")) == "without trumps you must head the trick if you can"
    play(st, "KS")
    assert st.legal_actions() == C("6S"), "unable to head the trick, any spade follows"
    # with trumps called, following a plain suit asks no more than following it
    st = _chapanka_trumps(W, hands)
    st.apply_action(call(3))
    play(st, "5S")
    assert set(st.legal_actions()) == set(C("2S", "KS"))


def test_chapanka_one_rotating_seat_leads_every_deal_and_calls_trumps():
    rs = load("variants/walc_chapanka.yaml")
    hands = [list(range(s, 52, 4)) for s in range(4)]
    for dealer in (N, E, S, W):
        leaders = set()
        for contract in ("bez_lew", "rozbojnik", "atu"):
            st = rs.contracts[contract].new_deal(4, rs.deck, dealer, hands)
            if contract == "atu":
                assert st.current_player() == (dealer + 1) % 4, "left of the dealer calls"
                st.apply_action(call(0))
            leaders.add(st.current_player())
        assert leaders == {(dealer + 1) % 4}, dealer


# -- Black Maria: three players, 2♣ out, three cards passed right, left of dealer leads any card

def test_black_maria_is_the_three_player_game():
    rs = load("games/black_maria.yaml")
    assert rs.players == 3 and rs.deck.bit_count() == 51 and not rs.deck >> parse_card("2C") & 1
    order = [c for c in range(52) if rs.deck >> c & 1]
    dealer = E
    hands = deal_out(order, dealer, 3)
    st = rs.contracts["hand"].new_deal(3, rs.deck, dealer, hands)
    passed = {}
    while st.phase == Phase.PASS:  # each seat passes its three highest cards
        seat = st.current_player()
        give = sorted(hands[seat])[-3:]
        passed[seat] = give
        for c in give:
            st.apply_action(c)
    for seat, give in passed.items():
        receiver = (seat - 1) % 3  # the player on the right
        assert all(st.view(receiver).hand >> c & 1 for c in give), (seat, receiver)
    leader = (dealer + 1) % 3
    assert st.current_player() == leader
    hand = st.view(leader).hand
    assert st.legal_actions() == [c for c in range(52) if hand >> c & 1], "no lead restriction"
    hearts = [c for c in st.legal_actions() if c // 13 == parse_card("2H") // 13]
    assert hearts, "the leader holds a heart"
    st.apply_action(hearts[0])  # a heart may be led to the first trick
    assert sum(play_out(st)) == -43


def test_black_maria_four_player_form_keeps_hearts_rules():
    rs = load("games/black_maria_four_players.yaml")
    assert rs.players == 4 and rs.deck.bit_count() == 52
    hands = [CLUBS, SPADES + ("AS", "QS"), HEARTS, tuple(f"{r}D" for r in "23456789TJQKA")]
    st = rs.contracts["hand"].new_deal(4, rs.deck, W, [C(*h) for h in hands], number=4)
    assert st.current_player() == N and st.legal_actions() == C("2C")
    assert play_out(st) == [-13 - 13 - 10 - 7, 0, 0, 0]


# -- Tysiąc: the barrel — above 800, points count only when won on a bid ----------------------

def _tysiac_deal(dealer: int, seed: int, memory=None):
    """A random deal of Tysiąc played out with the same draws whatever the match's totals."""
    import random

    from kierki_dsl.interpreter.match import shuffled

    rs = load("games/tysiac.yaml")
    rng = random.Random(seed)
    st = rs.contracts["tysiac"].new_deal(3, rs.deck, dealer, deal_out(shuffled(rng, rs.deck), dealer, 3), 1, 1,
                                         memory)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_tysiac_defence_points_never_take_a_total_past_800():
    totals = (810, 790, 500)
    capped = 0
    for seed in range(12):
        alone = _tysiac_deal(seed % 3, seed)
        memory: dict = {}
        matchvalues.note(memory, totals, 7)
        barrel = _tysiac_deal(seed % 3, seed, memory)
        assert barrel.bidder == alone.bidder and barrel.actions == alone.actions
        for seat, (base, got) in enumerate(zip(alone.returns(), barrel.returns())):
            if seat == alone.bidder:
                assert got == base, "a won or lost bid counts in full"
            else:
                assert got == min(base, max(0, 800 - totals[seat])), (seed, seat)
                capped += got != base
    assert capped, "some defender's points were cut at 800"


def test_tysiac_match_nobody_passes_800_on_defence_and_the_record_replays():
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import make_player
    from kierki_dsl.record import match_record, replay

    rs = load("games/tysiac.yaml")
    runner = MatchRunner(rs, [make_player("heuristic") for _ in range(3)], seed=3)
    results = list(runner.deals())
    before, on_barrel = [0, 0, 0], 0
    for r in results:
        for seat in range(3):
            if seat != r.bidder:
                assert before[seat] + r.scores[seat] <= max(800, before[seat]), (r.number, seat)
                on_barrel += before[seat] >= 800
        before = list(r.totals)
    assert max(results[-1].totals) >= 1000 and on_barrel, "the match reached the barrel"
    report = replay(rs, match_record(rs, 3, runner.first_dealer, results))
    assert report.ok, [str(v) for v in report.violations]


# -- Tysiąc: after the musik the bidder may raise his contract (terazgry.pl) -------------------

def _tysiac_after_musik(hands):
    """Dealer 2; seat 0 bids 100 alone, takes the musik (each hand's last card) and gives seats
    1 and 2 their last cards back: the hands in play are ``hands``."""
    rs = load("games/tysiac.yaml")
    dealt = [C(*h.split()) for h in hands]
    st = rs.contracts["tysiac"].new_deal(3, rs.deck, 2, dealt, 1, 1)
    st.apply_action(bid(100))
    st.apply_action(PASS)
    st.apply_action(PASS)
    st.apply_action(dealt[1][-1])
    st.apply_action(dealt[2][-1])
    return st


def test_tysiac_bidder_names_his_contract_after_the_musik():
    marriage = ("KH QH AS TS 9S JD 9D AC", "TH 9H KS QS JS AD TD KD", "AH JH QD 9C TC KC QC JC")
    st = _tysiac_after_musik(marriage)
    assert st.phase == Phase.EXCHANGE and st.current_player() == 0
    assert st.legal_actions() == [bid(v) for v in range(100, 361, 10)], "with a marriage, up to 360"
    assert st.why_illegal(bid(90)) == "your contract is at least your bid, 100"
    none = ("KH JH AS TS 9S JD 9D AC", "TH 9H KS QS JS AD TD KD", "AH QH QD 9C TC KC QC JC")
    st = _tysiac_after_musik(none)
    assert st.legal_actions() == [bid(100), bid(110), bid(120)], "without a marriage, up to 120"
    assert st.why_illegal(bid(130)) == "a bid above 120 needs a marriage (the king and queen of one suit) in hand"
    st.apply_action(bid(120))
    assert st.phase == Phase.PLAY and st.bid == 120 and st.view(1).bid == 120
    assert st.record_exchange()[-1] == "bid:120"
    scores = play_out(st)
    assert scores[0] in (120, -120), "the bidder scores the contract he named"


# -- lint of the features these rules needed ---------------------------------------------------

def _lint(tmp_path, text: str) -> list:
    from kierki_dsl.lint import lint_file

    p = tmp_path / "r.yaml"
    p.write_text(text, "utf-8")
    return [(d.code, d.pos.line, d.pos.col) for d in lint_file(str(p)) if d.pos is not None]


def test_lint_places_misused_match_values_and_raises(tmp_path):
    head = "kierki: 1\nname: t\nmatch: {schedule: [a]}\ncontracts:\n  a:\n"
    got = _lint(tmp_path, head + '    score: [{per_trick: "match.total"}]\n')
    assert ("N401", 6, 26) in got, "match values are read only in seat scoring"
    got = _lint(tmp_path, head + '    score: [{per_seat: "match.total"}]\n')
    assert ("M643", 6, 13) in got, "a match of one deal: the totals never change"
    got = _lint(tmp_path, head + "    widow: {cards: 4, taken_by: dealer, raise_bid: true}\n"
                "    score: [{per_trick: -20}]\n")
    assert ("M633", 6, 52) in got, "raising needs an auction won by the widow's taker"
    got = _lint(tmp_path, head + "    type: layout\n    start_rank: named\n    first_card: 7D\n    prizes: [5, -5]\n")
    assert ("M644", 8, 17) in got, "a named start rank may not be the first card's"


MATCH_READER = """\
kierki: 1
name: a bonus for the seat behind
match: {schedule: [{contract: deal, repeat: 6}]}
contracts:
  deal:
    score:
      - per_trick: -1
      - per_seat: "if match.total == match.lowest_total and match.deals_played > 0 then 5 else 0"
"""


def test_rules_that_read_the_match_are_played_by_the_interpreter_everywhere(tmp_path):
    """The core and the fast paths decline such a contract; a match's scores follow the totals
    before each deal, and its record replays, deal by deal."""
    from kierki_dsl.interpreter import stepper
    from kierki_dsl.interpreter.match import MatchRunner
    from kierki_dsl.players.base import make_player
    from kierki_dsl.record import match_record, replay
    from kierki_dsl.simulate import FastMatch

    p = tmp_path / "m.yaml"
    p.write_text(MATCH_READER, "utf-8")
    rs = Ruleset.load(str(p))
    deal = rs.contracts["deal"]
    assert stepper.why_not_carried(deal) == "scoring that reads the match's totals"
    assert deal.fast_player(4, 13, rs.deck) is None and deal.fast_deal(4, 13, rs.deck) is None
    runner = MatchRunner(rs, [make_player("random") for _ in range(4)], seed=2)
    results = list(runner.deals())
    before = [0] * 4
    for r in results:
        low = min(before)
        for seat in range(4):
            bonus = 5 if r.number > 1 and before[seat] == low else 0
            assert r.scores[seat] <= bonus and r.scores[seat] - bonus >= -13, (r.number, seat)
        assert sum(r.scores) == -13 + 5 * sum(1 for t in before if t == low and r.number > 1)
        before = list(r.totals)
    assert replay(rs, match_record(rs, 2, runner.first_dealer, results)).ok
    rows, before = FastMatch(rs).play(3)[1], [0] * 4
    assert len(rows) == 6, "simulate plays it through the interpreter"
    for k, row in enumerate(rows):  # and reads the running totals as the match does
        assert sum(row.scores) == -13 + 5 * sum(1 for t in before if t == min(before) and k > 0), k
        before = [t + s for t, s in zip(before, row.scores)]


# -- Barbu's domino: the declarer names the starting rank, one he need not hold (RULES.md V13) -

def test_barbu_domino_declarer_names_a_rank_he_does_not_hold():
    rs = load("games/barbu.yaml")
    domino = next(o for o in rs.schedule[0].options if o.name == "domino")
    hands = [C("2S", "3S"), C("7S", "8S"), C("7H", "6S"), C("9S", "TS")]
    st = domino.new_deal(4, rs.deck, N, hands)  # N deals and declares
    assert st.phase == Phase.NAME and st.current_player() == N
    assert st.legal_actions() == [name_rank(r) for r in range(13)], "any rank, held or not"
    st.apply_action(name_rank(parse_card("7S") % 13))
    assert st.record_bets() == ["rank:7"] and st.view(E).opening_rank == parse_card("7S") % 13
    while st.phase == Phase.DOUBLE:  # the doubling round, whatever is bet
        legal = st.legal_actions()
        st.apply_action(legal[0])
    assert st.phase == Phase.PLAY and st.current_player() == N
    assert st.legal_actions() == [PASS], "the declarer holds no seven: he passes"
    st.apply_action(PASS)
    assert set(st.legal_actions()) == set(C("7S")), "the sevens open the rows"
