"""Issue #25 item 1: every rule a person reads is in words (its label, or words made from the
rule), never expression source: no backticks, no operators, in explain and in the game's rules
screens (the terminal and the web page read the same aspects)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kierki_dsl.explain import aspects, explain
from kierki_dsl.ruleset.model import Ruleset

RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").rglob("*.yaml"))
CODE = re.compile(r"`|==|!=|<=|>=|\b(?:card|trick|lead)\.[a-z_]+|[a-z]+_[a-z_]+\(")


def _description_free(text: str, rs) -> str:
    """The explain text without the author's own description (free prose, may quote anything)."""
    text = text.replace(" ".join((rs.description or "").split()), "")
    return "\n".join(line for line in text.splitlines() if line.strip("=").strip())  # the title's underline


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_no_shipped_ruleset_shows_players_code(path):
    rs = Ruleset.load(str(path))
    text = _description_free(explain(rs), rs)
    assert not CODE.search(text), CODE.search(text).group() + " in: " + next(
        line for line in text.splitlines() if CODE.search(line))
    for name in rs.contracts:  # what the terminal's and the web page's rules screens show
        for sentence in aspects(rs, name).values():
            assert not CODE.search(sentence), sentence


def test_a_scoring_rule_is_shown_with_its_label(tmp_path):
    """`label: each black queen` is what players read, not `card.rank == Q and ...`."""
    house = tmp_path / "house.yaml"
    house.write_text("kierki: 1\nname: house\nmatch: {schedule: [bez_dam]}\ncontracts:\n  bez_dam:\n    pl: Bez dam\n"
                     "    total: -200\n    score:\n"
                     "      - per_card: card.rank == Q and card.suit in [spades, clubs]\n        points: -100\n"
                     "        label: each black queen\n", "utf-8")
    rs = Ruleset.load(str(house))
    assert aspects(rs, "bez_dam")["scoring"] == "each black queen taken: -100"
    assert "scoring: each black queen taken: -100." in explain(rs)


def test_an_unlabelled_rule_is_put_into_words():
    from kierki_dsl.exprwords import words

    assert words("card.suit == hearts and card != AH") == "the card's suit is hearts and the card is not the ace of hearts"
    assert words("trick.number in [3, 8]") == "the trick's number is 3 or 8"
    assert words("not hearts_broken") == "not (hearts have been broken)"


COMPARED = [("kierki_standard.yaml", "variants/jacks_only.yaml"), ("kierki_standard.yaml", "variants/early_stop.yaml"),
            ("games/hearts.yaml", "games/hearts.yaml")]


def _page_text(page: str) -> str:
    """What a person reads of an HTML report: the text between the tags, the style left out."""
    import html

    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


@pytest.mark.parametrize("a, b", COMPARED, ids=lambda p: Path(p).stem)
def test_compare_report_is_in_words(tmp_path, a, b):
    """compare's text and HTML report: no expression source, and every contract by its title
    (``Bez panów — No jacks``), never by its id (``bez_panow``); the rulesets' paths aside."""
    pytest.importorskip("matplotlib")
    from conftest import run_cli

    root = Path(__file__).resolve().parent.parent / "rulesets"
    paths = [str(root / a), str(root / b)]
    report = tmp_path / "report.html"
    rc, out, err, _ = run_cli("compare", *paths, "--games", "3", "--seed", "1", "--players", "random",
                              "--html", str(report))
    assert rc == 0, err
    ids = set(Ruleset.load(paths[0]).contracts) | set(Ruleset.load(paths[1]).contracts)
    for text in (out, _page_text(report.read_text(encoding="utf-8"))):
        for p in paths:
            text = text.replace(p, "")
        assert not CODE.search(text), CODE.search(text).group()
        named = {i for i in ids if re.search(rf"(?<![\w/]){re.escape(i)}(?![\w.])", text)}
        assert not named, named
