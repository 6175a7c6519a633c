"""Players: what a seat may see, sampling consistent with public information, reproducibility."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl.cards import SUIT_MASK
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.ladder import duel, estimate
from kierki_dsl.players.base import Player, make_player, register_player
from kierki_dsl.players.search import public_voids, sample_hands
from kierki_dsl.ruleset.model import Ruleset

from conftest import RULESETS, STANDARD

RS = Ruleset.load(str(STANDARD))


class Recorder(Player):
    """Plays like ``inner`` and keeps every view it was shown, with the true hands."""

    name = "recorder"

    def __init__(self, inner, log):
        self.inner, self.log = inner, log

    def reset(self, seed, seat, rules=None):
        super().reset(seed, seat, rules)
        self.inner.reset(seed, seat, rules)

    def act(self, view):
        self.log.append(view)
        return self.inner.act(view)


def test_a_seat_sees_only_its_own_cards():
    log = []
    players = [Recorder(make_player("random"), log)] + [make_player("random") for _ in range(3)]
    runner = MatchRunner(RS, players, seed=3)
    results = list(runner.deals())
    dealt = {r.number: r.dealt for r in results}
    for view in log:
        own = 0
        for c in dealt[view.deal_number][0]:
            own |= 1 << c
        assert view.hand & ~own == 0, "a view never holds another seat's card"
        if view.phase == "call":
            assert view.hand.bit_count() == 5, "the caller sees only his first five cards"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(4, 45))
def test_samples_respect_sizes_and_shown_voids(seed, stop):
    rng = random.Random(seed)
    from kierki_dsl.interpreter.match import deal_out, shuffled

    dealt = deal_out(shuffled(rng, RS.deck), 0, 4)
    state = RS.contracts["bez_kierow"].new_deal(4, RS.deck, 0, dealt)
    for _ in range(stop):
        acts = state.legal_actions()
        state.apply_action(acts[rng.randrange(len(acts))])
    if state.is_terminal():
        return
    view = state.view(state.current_player())
    voids = public_voids(view)
    for _ in range(5):
        hands = sample_hands(view, rng)
        assert hands[view.seat] == view.hand
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        union = 0
        for s, h in enumerate(hands):
            assert not union & h
            union |= h
            for suit in range(4):
                if voids[s] >> suit & 1:
                    assert not h & SUIT_MASK[suit], "a seat that showed out gets none of the suit"
        trick = sum(1 << c for _, c in view.trick)
        assert union | view.played | trick == RS.deck


def test_search_is_reproducible_for_a_sample_count():
    a = [r.totals for r in MatchRunner(RS, [make_player("search:4")] + [make_player("heuristic")] * 3, 9).deals()]
    b = [r.totals for r in MatchRunner(RS, [make_player("search:4")] + [make_player("heuristic")] * 3, 9).deals()]
    assert a == b


def test_player_names_and_settings():
    assert make_player("search:0.05s").seconds == 0.05
    assert make_player("search:64").samples == 64
    for bad in ("nobody", "search:lots", "random:3"):
        with pytest.raises(KeyError):
            make_player(bad)


def test_a_new_player_is_one_registered_class():
    @register_player
    class Lowest(Player):
        name = "lowest-test"

        def act(self, view):
            return min(view.legal)

    results = list(MatchRunner(RS, [make_player("lowest-test")] * 4, 2).deals())
    assert sum(results[-1].totals) == 0


def test_heuristic_beats_random_on_duplicate_deals():
    """Deterministic for these seeds: a pinned fact, not a sample that can flake."""
    res = duel(RS, "heuristic", "random", range(1, 7))
    assert res["match"].mean > 0 and res["match"].significant


def test_estimate():
    e = estimate([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5 and 1.2 < e.half_width < 1.3 and e.n == 4


@pytest.mark.parametrize("path", [RULESETS / "games" / "trix.yaml", RULESETS / "games" / "hearts.yaml",
                                  RULESETS / "variants" / "three_players.yaml", RULESETS / "games" / "barbu.yaml",
                                  RULESETS / "variants" / "fantan_free_start.yaml",
                                  RULESETS / "variants" / "fantan_pass_pool.yaml",
                                  RULESETS / "variants" / "fantan_extra_turn.yaml"], ids=lambda p: p.stem)
def test_every_player_plays_every_kind_of_ruleset(path):
    rs = Ruleset.load(str(path))
    names = ["search:2", "heuristic", "random", "heuristic"][: rs.players]
    results = list(MatchRunner(rs, [make_player(n) for n in names], 4).deals())
    assert results


def test_samples_agree_with_the_trump_call():
    from kierki_dsl.interpreter.actions import call
    from kierki_dsl.interpreter.match import deal_out, shuffled
    from kierki_dsl.players.search import caller_trumps_needed

    rng = random.Random(3)
    st = RS.contracts["atu"].new_deal(4, RS.deck, 1, deal_out(shuffled(rng, RS.deck), 1, 4))
    st.apply_action(call(1))  # the dealer (E) names hearts
    view = st.view(st.current_player())
    assert view.seat != 1 and caller_trumps_needed(view) == 2
    for _ in range(20):
        hands = sample_hands(view, rng)
        assert (hands[1] & SUIT_MASK[1]).bit_count() >= 2


def test_search_bets_by_playing_the_deal_out():
    from kierki_dsl.cards import parse_card
    from kierki_dsl.interpreter.actions import DONE, double

    rs = Ruleset.load(str(RULESETS / "games" / "barbu.yaml"))
    low = [parse_card(c) for c in "2S 3S 4S 5S 2H 3H 4H 2D 3D 4D 5D 2C 3C".split()]
    high = [parse_card(c) for c in "AS KS QS JS AH KH QH AD KD QD AC KC QC".split()]
    rest = [c for c in range(52) if c not in low and c not in high]
    for mine, other in ((low, high), (high, low)):
        st = rs.contracts["no_tricks"].new_deal(4, rs.deck, 3, [mine, other, rest[:13], rest[13:]])
        p = make_player("search:12")
        p.reset(5, 0, rs)
        action = p.act(st.view(0))
        if mine is low:  # almost no tricks to take: a bet on beating any other seat pays
            assert action in (double(1), double(2), double(3))
        else:  # the aces and kings take tricks: no bet
            assert action == DONE


def _fields(st) -> dict:
    """Every field of a deal state: its slots (``trickstate.SLOTS``) and its instance dict."""
    from kierki_dsl.interpreter.trickstate import SLOTS

    got = {**{name: getattr(st, name) for name in SLOTS if hasattr(st, name)}, **vars(st)}
    assert len(got) > 15  # the state's fields really are read, not skipped
    return got


def test_a_clone_has_every_field_of_the_state_and_lists_of_its_own():
    """``clone`` copies a trick deal's slots in one written-out function: every field, in any
    phase (passing, play), and playing on the clone leaves the original as it was."""
    from kierki_dsl.interpreter.match import deal_out, shuffled

    import copy

    rs = Ruleset.load(str(RULESETS / "games" / "hearts_openspiel.yaml"))
    st = rs.contracts["hand"].new_deal(4, rs.deck, 3, deal_out(shuffled(random.Random(3), rs.deck), 3, 4), 1, 1)
    lists = ("hands", "scores", "taken", "tricks_won", "actions", "trick", "completed", "passes", "_passable")
    for _ in range(20):  # passing, then the first two tricks
        before = _fields(st)
        held = copy.deepcopy({name: getattr(st, name) for name in lists})
        other = st.clone()
        assert _fields(other) == before
        other.apply_action(other.legal_actions()[-1])
        assert _fields(st) == before and {name: getattr(st, name) for name in lists} == held
        assert other.actions != st.actions
        st.apply_action(st.legal_actions()[0])


def test_play_legal_is_apply_action_without_the_check():
    """Search rollouts skip the legality check; the state they reach must be the same."""
    from kierki_dsl.interpreter.match import deal_out, shuffled

    rs = Ruleset.load(str(STANDARD))
    for name in ("bez_lew", "rozbojnik", "loteryjka"):
        st = rs.contracts[name].new_deal(4, rs.deck, 0, deal_out(shuffled(random.Random(name), rs.deck), 0, 4))
        while not st.is_terminal():
            for a in st.legal_actions():
                checked, trusted = st.clone(), st.clone()
                checked.apply_action(a)
                trusted.play_legal(a)
                assert _fields(checked) == _fields(trusted)
            st.apply_action(st.legal_actions()[-1])


def test_a_seat_knows_the_cards_it_passed_and_search_samples_keep_them_with_the_receiver():
    from kierki_dsl.interpreter.match import deal_out, shuffled

    rs = Ruleset.load(str(RULESETS / "games" / "hearts.yaml"))
    rng = random.Random(4)
    state = rs.contracts["hand"].new_deal(4, rs.deck, 0, deal_out(shuffled(rng, rs.deck), 0, 4), 1, 1)
    assert state.view(0).passed == ()  # nothing is known before the exchange
    while state.phase == "pass":
        state.apply_action(state.legal_actions()[0])
    view = state.view(state.current_player())
    assert len(view.passed) == 3 and view.passed_to == (view.seat + 1) % 4
    for c in view.passed:
        assert state.hands[view.passed_to] >> c & 1
    for _ in range(10):
        hands = sample_hands(view, rng)
        assert all(hands[view.passed_to] >> c & 1 for c in view.passed)


def test_a_search_decision_stops_at_its_time_cap():
    """A decision asked for many samples stops at the cap (a pathological ruleset cannot make one
    decision take minutes); the cap is counted."""
    from kierki_dsl.interpreter.match import deal_out, shuffled

    state = RS.contracts["bez_lew"].new_deal(4, RS.deck, 0, deal_out(shuffled(random.Random(2), RS.deck), 0, 4))
    from kierki_dsl.players.search import TIME_CAP

    for name in ("search", "search:100000"):  # the default player is capped, whatever it is asked
        assert make_player(name).cap == TIME_CAP and 0 < TIME_CAP <= 10, name
    p = make_player("search:100000")
    p.reset(1, state.current_player(), RS)
    p.cap = 0.05
    action = p.act(state.view(state.current_player()))
    assert action in state.legal_actions()
    assert p.stats["capped"] == 1 and p.stats["playouts"] < 100000


def test_dealing_out_unseen_cards_respects_room_and_bans_or_says_it_cannot():
    """The one sampling kernel of search and the adapters: every card placed once, no seat over
    its room, a banned card only when the last try relaxes the bans, None when nothing fits."""
    import random as _random

    from kierki_dsl.players.sampling import deal_out, draws

    rng = _random.Random(7)
    for _ in range(200):
        cards = rng.sample(range(52), rng.randrange(0, 20))
        room = [0] * 4
        for _c in cards:
            room[rng.randrange(4)] += 1
        bans = [rng.getrandbits(52) & rng.getrandbits(52) for _ in range(4)]
        seen_relax = []

        def able(c, relax):
            seen_relax.append(relax)
            return [s for s in range(4) if relax or not bans[s] >> c & 1]

        hands = deal_out(cards, room, able, draws(rng))
        assert hands is not None  # the relaxed try always fits: room adds up to the cards
        assert sum(h.bit_count() for h in hands) == len(cards) and [h.bit_count() for h in hands] == room
        assert sum(hands) == sum(1 << c for c in cards)  # disjoint and complete
        if not any(seen_relax):
            assert all(not (hands[s] & bans[s]) for s in range(4))
    assert deal_out([1, 2], [1, 0], lambda c, relax: [0], draws(rng)) is None


def test_built_in_players_are_made_without_scanning_for_plug_ins(monkeypatch):
    """Scanning installed packages costs tens of milliseconds in every simulate worker: only a
    name that is not built in triggers it (a plug-in player is still found, test_cli)."""
    from kierki_dsl.players import base

    scans = []
    monkeypatch.setattr(base, "load_plugins", lambda: scans.append(1))
    for name in ("random", "heuristic", "search:8", "human"):
        assert base.make_player(name).name == name.split(":")[0]
    assert scans == []
    with pytest.raises(KeyError, match="unknown player 'nobody'"):
        base.make_player("nobody")
    assert scans == [1]


def test_an_unknown_player_is_told_every_player_there_is():
    """Play-test 7: `--players randm` listed "heuristic, human, random, search, simple": not pimc,
    ismcts (loaded only when asked for) nor a bot of one's own (exec:)."""
    from kierki_dsl.players import base

    with pytest.raises(KeyError) as e:
        base.make_player("randm")
    said = str(e.value)
    assert all(name in said for name in ("pimc", "ismcts", "random", "search", "exec:COMMAND")), said
