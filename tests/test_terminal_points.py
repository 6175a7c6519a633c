"""The terminal as a person plays it (issue 22, item 4): the Rozbójnik's long scoring sentence
once per deal, one card notation in loteryjka's refusals, a one-card row drawn as one card, who
played which card to the layout, Polish card letters typed, ``--human S`` and the card winning
the trick in progress."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess

import pytest

from kierki_dsl import phases
from kierki_dsl.cards import card_pretty, parse_card, pretty_cards, read_card
from kierki_dsl.interpreter.match import Match
from kierki_dsl.players.human import HumanPlayer
from kierki_dsl.report import read_seat
from kierki_dsl.ruleset.model import Ruleset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STANDARD = os.path.join(ROOT, "rulesets", "kierki_standard.yaml")
RECORD_CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


@pytest.fixture(scope="module")
def rules():
    return Ruleset.load(STANDARD)


def _views(rs, contract: str, seat: int = 0, seed: int = 5):
    """Every view of ``seat`` deciding in deal ``contract``, the other decisions random (seeded)."""
    m, rng = Match(rs, seed), random.Random(seed)
    out = []
    while not m.over:
        s = m.to_move()
        v = m.view(s)
        if v.contract == contract and s == seat:
            out.append(v)
        elif out and v.contract != contract:
            break
        m.apply(rng.choice(v.legal))
    return out


def _terminal(rs, views, typed: str):
    """What the terminal shows a person deciding at ``views`` in turn, typing ``typed``."""
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO(typed), stdout=out, ruleset=rs)
    human.reset(1, views[0].seat, rs)
    for v in views:
        human.act(v)
    return out.getvalue()


def test_the_rozbojnik_scoring_sentence_is_shown_once_per_deal_then_on_asking(rules):
    views = _views(rules, "rozbojnik")[:3]
    shown = _terminal(rules, views, "1\n1\nrules\n1\n")
    assert shown.count("everything that scores in") == 2, shown  # the first card, and once asked
    assert shown.count("Deal 7 of 12: Rozbójnik") == 4  # the title before every card (and with 'rules')
    assert "'rules' shows them again" in shown


def test_the_rules_are_shown_again_in_the_next_deal(rules):
    first = _views(rules, "bez_lew")[:1]
    second = _views(rules, "bez_kierow")[:1]
    shown = _terminal(rules, first + second, "1\n1\n")
    assert shown.count("scoring:") == 2, shown


def _layout_views(rs):
    return [v for v in _views(rs, "loteryjka") if v.legal and v.legal != (52,)]


def test_a_layout_refusal_speaks_of_cards_in_one_notation(rules):
    views = _layout_views(rules)
    def misfits(v):  # held cards of an open row that do not fit
        return [c for c in range(52) if v.hand >> c & 1 and c not in v.legal and v.layout[c // 13] is not None]

    view = next(v for v in views if misfits(v))
    bad = misfits(view)[0]
    shown = _terminal(rules, [view], f"{card_pretty(bad)}\n1\n")
    refusal = next(line for line in shown.splitlines() if "is not allowed" in line).partition("> ")[2]
    assert refusal == f"{card_pretty(bad)} is not allowed: {card_pretty(bad)} does not fit next to an end of its row"
    assert not RECORD_CARD.search(refusal), refusal


def test_pretty_cards_rewrites_record_notation_only():
    assert pretty_cards("AS does not fit; the 8S must follow the TS") == "A♠ does not fit; the 8♠ must follow the 10♠"
    assert pretty_cards("as is not AS") == "as is not A♠"


def test_a_one_card_row_is_drawn_as_one_card(rules):
    view = next(v for v in _layout_views(rules) if any(r is not None and r[0] == r[1] for r in v.layout))
    rows = {r["label"]: r["text"] for r in phases.phase_of(view).panel(view, rules)}
    single = next(s for s, r in enumerate(view.layout) if r is not None and r[0] == r[1])
    assert rows["♠♥♦♣"[single]] == card_pretty(view.layout[single][0])


def test_the_layout_says_who_played_which_card(rules):
    views = _layout_views(rules)
    shown = _terminal(rules, views[:3], "1\n1\n1\n")
    news = [line for line in shown.splitlines() if line.startswith(("Since your last turn", "Played so far"))]
    assert news, shown
    for line in news:
        for part in line.partition(": ")[2].split(", "):
            who, _, what = part.partition(" ")
            assert who in "NESW" and (what == "passed" or read_card(what) in range(52)), line
    # every card new on the table is named with the seat that played it
    last, now = views[1], views[2]
    new = {c for c in range(52) if now.played >> c & 1 and not last.played >> c & 1 and not last.hand >> c & 1}
    line = phases.phase_of(now).news(now, last)[0]
    assert {read_card(p.split(" ")[1]) for p in line.partition(": ")[2].split(", ") if "passed" not in p} == new


@pytest.mark.parametrize(
    "typed, card",
    [("D♠", "QS"), ("DS", "QS"), ("ds", "QS"), ("W♣", "JC"), ("WC", "JC"), ("DD", "QD"), ("KD", "KD"),
     ("D10", "TD"), ("10d", "TD"), ("d kier", "QH"), ("dama pik", "QS"), ("walet trefl", "JC"), ("A karo", "AD"),
     ("król kier", "KH"), ("♦W", "JD")],
)
def test_polish_card_letters_and_words_are_read(typed, card):
    assert read_card(typed) == parse_card(card)


def test_a_polish_card_letter_is_played_at_the_terminal(rules):
    view = next(v for v in _views(rules, "bez_lew") if v.phase == "play" and any(c % 13 in (9, 10) for c in v.legal))
    card = next(c for c in view.legal if c % 13 in (9, 10))
    typed = ("D" if card % 13 == 10 else "W") + "SHDC"[card // 13]
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO(typed + "\n"), stdout=out, ruleset=rules)
    human.reset(1, view.seat, rules)
    assert human.act(view) == card, out.getvalue()


def test_seats_are_named_as_join_names_them():
    assert [read_seat(t, 4) for t in ("N", "e", "S", "w", "2")] == [0, 1, 2, 3, 2]
    assert read_seat("P2", 3) == 2
    for bad in ("X", "4", "P1", "-1", "\u00b2"):  # ² is a digit to str.isdigit, not to int()
        with pytest.raises(ValueError, match="not a seat"):
            read_seat(bad, 4)


def test_run_takes_the_seat_letter(tmp_path):
    env = dict(os.environ, KIERKI_LANG="en")
    done = subprocess.run(
        ["/work/venv/bin/kierki", "run", STANDARD, "--seed", "3", "--human", "S"],
        input="", capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode != 2, done.stderr
    assert "Your hand (S):" in done.stdout
    bad = subprocess.run(
        ["/work/venv/bin/kierki", "run", STANDARD, "--human", "X"], input="", capture_output=True, text=True,
        env=env, timeout=120,
    )
    assert bad.returncode == 2 and "not a seat: 'X'" in bad.stderr, bad.stderr


def test_the_terminal_marks_the_card_winning_the_trick(rules):
    view = next(v for v in _views(rules, "atu") if v.phase == "play" and len(v.trick) >= 2 and v.trump >= 0)
    rows = {r["label"]: r["text"] for r in phases.phase_of(view).panel(view, rules)}
    led = view.trick[0][1] // 13
    trumps = [(s, c) for s, c in view.trick if c // 13 == view.trump]
    pool = trumps or [(s, c) for s, c in view.trick if c // 13 == led]
    s, c = max(pool, key=lambda p: p[1] % 13)
    assert rows["Winning so far"] == f"{'NESW'[s]} {card_pretty(c)}"
    assert "Winning so far: " + rows["Winning so far"] in _terminal(rules, [view], "1\n")
