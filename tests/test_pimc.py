"""``pimc``'s choices beyond the solver's values: near-ties go to ``search``'s rollouts, and
without the sweep in the solve (tests/test_solver_sweep.py) a card whose deal's seat scoring
(Hearts' shooting the moon) is still open goes to ``search`` (``solver.seat_scoring_open``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kierki_dsl import load_ruleset
from kierki_dsl.cards import SUIT_MASK, parse_card
from kierki_dsl.interpreter import solver
from kierki_dsl.interpreter.match import MatchRunner
from kierki_dsl.players.base import make_player
from kierki_dsl.players.pimc import PimcPlayer
from kierki_dsl.players.search import best_of
from tests.test_solver import HEARTS, KIERKI, endgame

ROOT = Path(__file__).resolve().parent.parent
SHORT = load_ruleset(str(ROOT / "rulesets" / "variants" / "short_kierki.yaml"))
QS = parse_card("QS")


class Recording(PimcPlayer):
    """pimc that keeps every solved decision's view, solved totals and choice."""

    def __init__(self, setting: str = "") -> None:
        super().__init__(setting)
        self.seen: list = []

    def _best(self, view, legal, totals, scale):
        choice = super()._best(view, legal, totals, scale)
        self.seen.append((view, dict(totals), scale, choice))
        return choice


def _recorded(rs, setting: str, seed: int) -> Recording:
    me = Recording(setting)
    players = [me] + [make_player("heuristic") for _ in range(3)]
    for _ in MatchRunner(rs, players, seed).deals():
        pass
    return me


def test_tied_cards_go_to_search_s_rollouts():
    """Where several cards share the best solved total, pimc plays the one ``search`` values
    most on the same decision — not the lowest card, as before; elsewhere the best solved
    (a margin of 0: exact ties only)."""
    me = _recorded(SHORT, "4:5:400000:0", 3)
    ties = broke = 0
    for view, totals, _, choice in me.seen:
        top = max(totals.values())
        tied = [a for a in view.legal if totals[a] == top]
        if len(tied) == 1:
            assert choice == tied[0]
            continue
        ties += 1
        averages = me.search.averages(view)
        assert choice == max(tied, key=lambda a: (averages[a], -a))
        broke += choice != min(tied)
    assert me.stats["ties"] == ties > 0
    assert broke > 0, "no tie where search's card differs from the lowest: the test shows nothing"


def test_a_near_tie_margin_widens_the_cards_search_chooses_among():
    """With a margin of 2, search chooses among the cards within two steps of the contract's
    points a world of the best solved (scale: the worlds times the step)."""
    me = _recorded(SHORT, "4:5:13000:2", 3)
    assert me.margin == 2.0
    wider = 0
    for view, totals, scale, choice in me.seen:
        unit = solver.tables_of(me.contract_of(view), view).unit
        assert scale == 4 * unit
        top = max(totals.values())
        assert totals[choice] >= top - 2.0 * scale
        averages = me.search.averages(view)
        near = [a for a in view.legal if totals[a] >= top - 2.0 * scale]
        if len(near) > 1:
            assert choice == max(near, key=lambda a: (averages[a], totals[a], -a))
            wider += totals[choice] < top
    assert wider > 0, "no near-tie chose a card below the best solved: the test shows nothing"


def test_the_margin_setting():
    assert make_player("pimc:8").margin == 1.0
    assert make_player("pimc:8:13:5000:0.5").margin == 0.5
    for bad in ("pimc:8:13:5000:x", "pimc:8:13:5000:-1", "pimc:8:13:5000:nan"):
        with pytest.raises(KeyError):
            make_player(bad)


def test_a_superscript_digit_in_a_setting_is_refused_by_what_the_setting_is():
    """``²`` is a digit to ``str.isdigit`` but not to ``int()``: each setting's own message, not
    Python's ``invalid literal for int()``."""
    for bad, message in (
        ("pimc:\u00b2", "pimc: expected a world count"),
        ("pimc:\u00b2s", "pimc: expected a world count"),
        ("search:\u00b2", "search: expected a sample count"),
        ("pimc:8:\u00b2", "pimc: the cards per hand to solve from must be 1..13"),
        ("pimc:8:13:\u00b2\u00b2\u00b2\u00b2", "pimc: the positions a world may take must be 1000..10"),
    ):
        with pytest.raises(KeyError, match=message):
            make_player(bad)


def test_a_count_in_a_setting_is_read_as_the_messages_write_it():
    """The messages write 10_000: that form is read; a number of 5,000 digits is refused by the
    setting's own message, not Python's "Exceeds the limit (4300 digits)"."""
    assert make_player("pimc:10_000").worlds == 10_000
    assert make_player("search:100_000").samples == 100_000
    assert make_player("pimc:8:13:2_000_000").limit == 2_000_000
    huge = "9" * 5000
    for bad, message in (
        (f"pimc:{huge}", "pimc: expected a world count"),
        (f"pimc:8:{huge}", "pimc: the cards per hand to solve from must be 1..13"),
        (f"pimc:8:13:{huge}", "pimc: the positions a world may take must be 1000..10"),
        ("pimc:1__0", "pimc: expected a world count"),
        ("pimc:_10", "pimc: expected a world count"),
        ("pimc:8:13:400000_", "pimc: the positions a world may take"),
    ):
        with pytest.raises(KeyError, match=message):
            make_player(bad)


def test_search_averages_are_what_it_chooses_by():
    """``search.averages`` of a decision: its best (ties to the lowest card) is ``act``'s card."""
    players = [make_player("search:6")] + [make_player("heuristic") for _ in range(3)]
    checked = 0

    class Check:
        def __init__(self, inner):
            self.inner = inner

        def reset(self, *a, **k):
            self.inner.reset(*a, **k)

        def act(self, view):
            nonlocal checked
            choice = self.inner.act(view)
            averages = self.inner.averages(view)
            if averages is not None and view.phase == "play":
                assert choice == best_of(averages)
                checked += 1
            return choice

        def __getattr__(self, name):
            return getattr(self.inner, name)

    players[0] = Check(players[0])
    for _ in MatchRunner(SHORT, players, 2).deals():
        break
    assert checked > 0


def _point_takers(view) -> set:
    """The seats that have taken a heart or the queen of spades in the view's finished tricks."""
    points = SUIT_MASK[1] | 1 << QS
    return {winner for _, plays, winner in view.completed if any(points >> c & 1 for _, c in plays)}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), left=st.integers(1, 12))
def test_hearts_seat_scoring_is_open_while_one_seat_holds_every_point_taken(seed, left):
    """Open while at most one seat took points and some point card is still to be taken (with
    none left the moon is decided: every end scores the same; hypothesis found seed 1190)."""
    contract, deal = endgame(HEARTS, "hand", seed, left)
    if deal.is_terminal():
        return
    view = deal.view(deal.current_player())
    taken = {c for _, plays, _ in view.completed for _, c in plays}
    points_left = any(c not in taken for c in range(52) if (SUIT_MASK[1] | 1 << QS) >> c & 1)
    assert solver.seat_scoring_open(contract, view) == (len(_point_takers(view)) <= 1 and points_left)


def test_contracts_without_seat_scoring_are_never_open():
    contract, deal = endgame(KIERKI, "bez_dam", 4, 6)
    assert not solver.seat_scoring_open(contract, deal.view(deal.current_player()))


def test_pimc_gives_hearts_cards_to_search_while_a_moon_is_possible():
    """Without the sweep in the solve (the setting's seventh part 0), cards of Hearts with the
    moon still possible are ``search``'s, the others solved (tests/test_solver_sweep.py: with it)."""
    rs = load_ruleset(str(ROOT / "benchmarks" / "hearts_short.yaml"))
    me = _recorded(rs, "4:13:20000:1:0.25:0", 1)
    assert me.stats["seat_scoring"] > 0 and me.stats["solved"] > 0
    for view, *_ in me.seen:
        assert len(_point_takers(view)) > 1


def test_the_probe_setting():
    assert make_player("pimc:8").probe == 0.25
    assert make_player("pimc:8:13:5000:1:1").probe == 1.0
    for bad in ("pimc:8:13:5000:1:0", "pimc:8:13:5000:1:2", "pimc:8:13:5000:1:x"):
        with pytest.raises(KeyError):
            make_player(bad)


def _limits_asked(monkeypatch, setting: str, seed: int) -> tuple:
    """Each solved-or-given-up decision's limits (one per world solved), and the player."""
    asked: list = []
    real = solver.solve

    def spy(contract, view, hands, python=False, limit=0, sweep=(0, ())):
        got = real(contract, view, hands, python=python, limit=limit, sweep=sweep)
        asked[-1].append((limit, got[1], bool(got[0])))
        return got

    class Marking(PimcPlayer):
        def _solve(self, view, legal, contract, sweep=(0, ())):
            asked.append([])
            return super()._solve(view, legal, contract, sweep)

    monkeypatch.setattr(solver, "solve", spy)
    me = Marking(setting)
    for _ in MatchRunner(SHORT, [me] + [make_player("heuristic") for _ in range(3)], seed).deals():
        pass
    return asked, me


def test_the_first_world_is_a_probe(monkeypatch):
    """The first world of a decision may take only the probe's share of the positions; the
    others the whole; a probe that runs out gives the decision to ``search``."""
    asked, me = _limits_asked(monkeypatch, "4:13:3000:1:0.25", 3)
    probes_out = 0
    for worlds in asked:
        assert worlds[0][0] == 750 and all(limit == 3000 for limit, _, _ in worlds[1:])
        probes_out += not worlds[0][2]
        assert all(ok for _, _, ok in worlds[:-1])  # a world out of positions ends the decision
    assert probes_out and me.stats["given_up"] >= probes_out
    whole, _ = _limits_asked(monkeypatch, "4:13:3000:1:1", 3)
    assert whole[0][0][0] == 3000


@pytest.mark.parametrize(
    "rs, name, stake, step",
    [
        (KIERKI, "bez_lew", 260, 20),  # a trick's 20: less than a seat's share (65)
        (KIERKI, "bez_dam", 240, 60),  # a queen's 60: a seat's share
        (KIERKI, "bez_krola_kier", 150, 37.5),  # the king holds every point: a share, not the king
        (KIERKI, "bez_siodmej_i_ostatniej", 150, 37.5),
        (KIERKI, "rozbojnik", 1300, 5),
        (HEARTS, "hand", 26, 1),
    ],
)
def test_a_near_tie_step_is_at_most_a_seat_s_share_of_the_stake(rs, name, stake, step):
    contract, deal = endgame(rs, name, 1, 6)
    view = deal.view(deal.current_player())
    assert solver.tables_of(contract, view).stake == stake
    assert PimcPlayer._step(view, contract) == step
