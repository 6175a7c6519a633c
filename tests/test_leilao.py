"""Brazilian King's leilão (issue 16): an auction with a seller, offers that may be made again
after a pass, "pela mão" holding, and a deal the seller may decline at fixed scores.

The rules are Copag's (rulesets/games/king_brazil.yaml names the source and the reading
shipped); the features are the general `auction` keys `passes`, `hold`, `seller`, `decline`.
"""
from __future__ import annotations

import io

import pytest

from kierki_dsl.interpreter.actions import ACCEPT, DECLINE, PASS, REFUSE, bid, call, parse_action
from kierki_dsl.interpreter.reasons import illegal_reason
from kierki_dsl.interpreter.view import SeatView
from kierki_dsl.lint import lint_file
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.record import match_record, replay
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS
from test_variants import C

N, E, S, W = 0, 1, 2, 3
PATH = RULESETS / "games" / "king_brazil.yaml"
SEED_WITH_DECLINE = 15  # a heuristic match with a declined deal (found by trying seeds)
HANDS = [C(*(r + s for r in "AKQJT98765432")) for s in "SHDC"]


@pytest.fixture(scope="module")
def rs():
    return Ruleset.load(str(PATH))


def trunfo(rs, hands=HANDS, dealer=W):
    return rs.contracts["trunfo"].new_deal(4, rs.deck, dealer, [list(h) for h in hands])


def play_out(st):
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    return st.returns()


def test_the_leilao_lets_a_buyer_name_trumps_and_pay_the_dealer(rs):
    """N holds all the spades, W (the dealer) all the clubs. Without the leilão W names trumps
    and takes every trick; sold for 3 tricks, N names spades, ruffs every trick and pays W 75."""
    st = trunfo(rs)
    assert st.phase == "auction" and st.current_player() == N, "offers start left of the dealer; he does not bid"
    for action in (bid(3), PASS, PASS):
        st.apply_action(action)
    assert st.current_player() == W and st.legal_actions() == [ACCEPT, REFUSE], "3 tricks: too much to decline"
    sold = trunfo(rs)
    for action in (bid(3), PASS, PASS, ACCEPT):
        sold.apply_action(action)
    assert (sold.phase, sold.caller, sold.bidder, sold.bid) == ("call", N, N, 3)
    sold.apply_action(call(0))
    assert play_out(sold) == [13 * 25 - 75, 0, 0, 75]
    kept = trunfo(rs)
    for action in (bid(3), PASS, PASS, REFUSE):
        kept.apply_action(action)
    assert (kept.caller, kept.bidder, kept.bid) == (W, W, 0), "refused: the dealer names trumps, nothing is paid"
    kept.apply_action(call(3))
    assert play_out(kept) == [0, 0, 0, 325]
    plain = Ruleset.load(str(RULESETS / "kierki_standard.yaml")).contracts["atu"]
    assert plain.auction is None, "the plain trump deal has the dealer's call and no leilão"


def test_pela_mao_an_earlier_speaker_may_match_and_a_pass_is_not_final(rs):
    st = trunfo(rs)
    st.apply_action(bid(2))  # N
    st.apply_action(bid(3))  # E
    assert bid(3) not in st.legal_actions(), "S speaks after E: he must offer more"
    assert st.why_illegal(bid(3)) == ("a bid must be higher than 3, the bid standing (only a player who speaks "
                                      "before its bidder may match it)")
    st.apply_action(PASS)  # S
    assert st.current_player() == N and bid(3) in st.legal_actions(), "N speaks before E: he may hold 3"
    st.apply_action(bid(3))
    assert (st.current_player(), st.auction.bidder) == (E, N)
    assert bid(3) not in st.legal_actions() and bid(4) in st.legal_actions()
    st.apply_action(PASS)  # E
    assert st.current_player() == S and bid(4) in st.legal_actions(), "S passed once but may speak again"
    st.apply_action(PASS)  # S: everybody but N has passed since his offer
    assert st.current_player() == W and st.view(W).bid == 3 and st.view(W).bidder == N


def test_nobody_offers_and_the_dealer_declines_the_deal(rs):
    st = trunfo(rs, dealer=S)
    for _ in range(3):
        st.apply_action(PASS)
    assert st.current_player() == S and st.legal_actions() == [REFUSE, DECLINE]
    assert st.why_illegal(ACCEPT) == "nobody has bid: there is no offer to accept"
    st.apply_action(DECLINE)
    assert st.is_terminal() and st.returns() == [75, 75, 100, 75] and st.ended_early
    two = trunfo(rs, dealer=S)
    for action in (bid(2), PASS, PASS):
        two.apply_action(action)
    assert two.why_illegal(DECLINE) == "the deal may be declined only while the best offer is at most 1, and it is 2"
    one = trunfo(rs, dealer=S)
    for action in (bid(1), PASS, PASS):
        one.apply_action(action)
    assert one.legal_actions() == [ACCEPT, REFUSE, DECLINE], "an offer of one trick may be declined too"
    assert one.why_illegal(PASS).startswith("the seller accepts or refuses the best offer")


def test_views_reasons_and_search_rebuild_the_sellers_turn(rs):
    st = trunfo(rs)
    for action in (bid(1), PASS, PASS):
        st.apply_action(action)
    view = st.view(W)
    assert SeatView.from_json(view.to_json()) == view and view.seller == W
    assert view.auction == ((N, 1), (E, 0), (S, 0)) and view.legal == (ACCEPT, REFUSE, DECLINE)
    assert illegal_reason(view, bid(2), rs.contracts["trunfo"]).startswith("the seller accepts or refuses")
    assert illegal_reason(st.view(N), ACCEPT, rs.contracts["trunfo"]) == "it is not your turn"
    again = rs.contracts["trunfo"].from_view(view, list(st.hands))
    assert again.current_player() == W and again.legal_actions() == [ACCEPT, REFUSE, DECLINE]
    again.apply_action(ACCEPT)
    assert (again.phase, again.caller, again.bid) == ("call", N, 1)
    for name in ("accept", "refuse", "decline"):
        assert parse_action(name) in (ACCEPT, REFUSE, DECLINE)


def test_bots_sell_sensibly(rs):
    """W holds all the clubs: keeping the deal is worth 325 to him, so both bots refuse 3 tricks;
    with thirteen low cards and an offer of one trick the heuristic declines (100 beats playing)."""
    st = trunfo(rs)
    for action in (bid(3), PASS, PASS):
        st.apply_action(action)
    for name in ("heuristic", "search:4"):
        p = make_player(name)
        p.reset(1, W, rs)
        assert p.act(st.view(W)) == REFUSE, name
    low = C(*"2S 3S 4S 5S 6S 2H 3H 4H 5H 6H 2D 3D 4D".split())  # W: thirteen low cards
    rest = [c for c in range(52) if c not in low]
    st = trunfo(rs, [rest[0:13], rest[13:26], rest[26:39], low])
    for action in (bid(1), PASS, PASS):
        st.apply_action(action)
    h = make_player("heuristic")
    h.reset(1, W, rs)
    assert h.act(st.view(W)) == DECLINE
    strong = trunfo(rs)
    h.reset(1, N, rs)
    assert h.act(strong.view(N)) == bid(1), "thirteen spades: the heuristic buys, at the lowest offer"


def test_the_human_prompt_sells_with_reasons(rs):
    st = trunfo(rs)
    for action in (bid(2), PASS, PASS):
        st.apply_action(action)
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("decline\nsell\naccept\n"), stdout=out, ruleset=rs)
    human.reset(1, W)
    assert human.act(st.view(W)) == ACCEPT
    shown = out.getvalue()
    assert "Auction so far: N 2, E pass, S pass" in shown and "the best offer is 2 by N" in shown
    assert "You cannot decline: the deal may be declined only while the best offer is at most 1" in shown
    assert "Type a number from the list" in shown


def test_king_brazil_lints_plays_with_every_player_and_replays(rs):
    assert [str(d) for d in lint_file(str(PATH))] == []

    class AlwaysFirst(io.StringIO):
        """The first choice listed; where "1" is a bid that is not allowed (bids start at 1, so
        a pass is not numbered), the next answer passes."""
        answers = 0

        def readline(self, *args) -> str:
            self.answers += 1
            return "1\n" if self.answers % 2 else "p\n"

    human = HumanPlayer(stdin=AlwaysFirst(), stdout=io.StringIO(), ruleset=rs)
    runner = MatchRunner(rs, [human, make_player("search:2"), make_player("heuristic"), make_player("random")],
                         seed=2)
    results = list(runner.deals())
    assert all(sum(r.scores) == r.contract.total for r in results)
    record = match_record(rs, 2, runner.first_dealer, results)
    assert replay(rs, record).ok
    trump_deals = [d for d in record["deals"] if d.get("auction")]
    assert len(trump_deals) == 4 and all(d["auction"][-1] in ("accept", "refuse", "decline") for d in trump_deals)
    d = trump_deals[0]
    d["auction"] = d["auction"][:-1] + ["bid:20"]
    report = replay(rs, record)
    assert not report.ok and "is illegal" in str(report.violations[0])


def test_declined_deals_replay(rs):
    """A record whose seller declines holds no plays, and replays to the fixed scores."""
    runner = MatchRunner(rs, [make_player("heuristic") for _ in range(4)], seed=SEED_WITH_DECLINE)
    results = list(runner.deals())
    record = match_record(rs, SEED_WITH_DECLINE, runner.first_dealer, results)
    declined = [d for d in record["deals"] if d.get("auction", [""])[-1] == "decline"]
    assert declined, "this seed has a declined deal"
    for d in declined:
        assert not d.get("plays") and sorted(d["scores"]) == [75, 75, 75, 100]
    assert replay(rs, record).ok


def test_explain_and_diff_read_the_seller(cli):
    phrases = ("or passes and may bid again on his next turn", "or matches it if he speaks before its bidder",
               "the dealer does not bid but sells", "when the best bid is at most 1 he may instead decline the deal")
    rc, out, _ = cli("explain", str(PATH))
    assert rc == 0 and all(p in out for p in phrases), out
    rc, out, _ = cli("diff", str(RULESETS / "variants" / "auction_for_trumps.yaml"), str(PATH))
    assert rc in (0, 1) and all(p in out for p in phrases) and "or passes and is out" in out


def test_a_record_with_an_auction_or_exchange_the_deal_has_not_is_refused(rs, tmp_path, cli):
    """The new record keys are checked, not skipped: an `auction` on a deal without one, an
    `exchange` on a deal without a widow, and a malformed `auction` located at its line."""
    import json

    runner = MatchRunner(rs, [make_player("heuristic") for _ in range(4)], seed=2)
    record = match_record(rs, 2, runner.first_dealer, list(runner.deals()))
    plain = next(i for i, d in enumerate(record["deals"]) if "auction" not in d)
    sold = next(i for i, d in enumerate(record["deals"]) if d.get("auction"))
    for i, key, value, words in ((plain, "auction", ["pass"], "has no auction"),
                                 (sold, "exchange", ["2C"], "no widow")):
        bad = json.loads(json.dumps(record))
        bad["deals"][i][key] = value
        report = replay(rs, bad)
        assert not report.ok and words in str(report.violations[0]), report.violations
        assert report.violations[0].deal == i + 1
    bad = json.loads(json.dumps(record))
    bad["deals"][sold]["auction"][0] = 5
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad, indent=1), "utf-8")
    rc, _, err = cli("replay", str(path), "--ruleset", str(PATH))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.strip() == "5,")
    assert rc == 1 and f"bad.json:{line}: error: 'deals[{sold}].auction[0]' must be a string" in err, err


def test_the_prompt_does_not_number_pass_1_when_1_is_a_bid(rs):
    """Bids start at 1 here: "1" is the bid 1 (as the list of bids says), so a pass is
    offered by its word, not as "1) pass"; a seller's word typed while bidding is told why."""
    st = trunfo(rs)
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("accept\n0\n1\n"), stdout=out, ruleset=rs)
    human.reset(1, N)
    assert human.act(st.view(N)) == bid(1)
    shown = out.getvalue()
    assert "1) pass" not in shown and "Bids: 1, 2, … 13  or  pass" in shown, shown
    assert "You cannot accept: only the seller decides (accept), once the bidding is over" in shown
    assert "0 is not allowed: bids go from 1 to 13 in steps of 1" in shown
    st.apply_action(bid(1))
    human = HumanPlayer(stdin=io.StringIO("1\np\n"), stdout=io.StringIO(), ruleset=rs)
    human.reset(1, E)
    assert human.act(st.view(E)) == PASS, "1, not a bid allowed now, is refused; p passes"
