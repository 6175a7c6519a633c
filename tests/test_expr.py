"""The expression language: parsing, checking, compiling to masks and closures, errors."""
from __future__ import annotations

import pytest

from kierki_dsl.cards import SUIT_MASK, parse_card, popcount
from kierki_dsl.diagnostics import DiagnosticError
from kierki_dsl.expr import CARD_SCOPE, INT, compile_text
from kierki_dsl.interpreter import scopes
from kierki_dsl.report import render_diagnostics


def mask(text, scope=CARD_SCOPE):
    return compile_text(text, scope, predicate=True)


@pytest.mark.parametrize("text,count", [
    ("card.suit == hearts", 13),
    ("card.rank == Q", 4),
    ("card.rank in [K, J]", 8),
    ("card.rank in [K, 10]", 8),
    ("card == KH", 1),
    ("card == 10S or card == TS", 1),
    ("card.rank >= 10 and card.suit != clubs", 15),
    ("not (card.suit == hearts)", 39),
    ("card.rank > 2 and card.rank < 5", 8),
    ("card.rank > 3 and card.rank < 5", 4),
    ("if card.suit == spades then card.rank == A else false", 1),
    ("count(card.rank == Q) == 4", 52),
])
def test_card_predicates_fold_to_masks(text, count):
    p = mask(text)
    assert p.const is not None, "a predicate over the card alone is folded at load"
    assert popcount(p.const) == count


def test_predicates_reading_context_are_memoised_per_context():
    p = compile_text("card.suit == led_suit", scopes.PLAY_PREDICATE, predicate=True)
    assert p.const is None and p.keys == ("led_suit",)
    assert p.mask({"led_suit": 1}) == SUIT_MASK[1]
    assert p.mask({"led_suit": 1}) is p.mask({"led_suit": 1})
    assert len(p.memo) == 1


def test_trick_points_and_constant_folding():
    c = compile_text("if trick.number == 7 or trick.is_last then -75 else 0", scopes.TRICK_POINTS, INT)
    assert c.free == {"trick.number", "trick.is_last"}
    assert [c({"trick.number": n, "trick.is_last": n == 13}) for n in (1, 7, 12, 13)] == [0, -75, 0, -75]
    k = compile_text("-20 * (3 + 2) / 2 % 7", scopes.TRICK_POINTS, INT)
    assert k.is_const and k.const == -50 % 7 - 7 * 0 or k.const == -1 * (50 % 7)


def test_integer_division_truncates_toward_zero():
    assert compile_text("-7 / 2", scopes.TRICK_POINTS, INT).const == -3
    assert compile_text("7 / -2", scopes.TRICK_POINTS, INT).const == -3
    assert compile_text("-7 % 2", scopes.TRICK_POINTS, INT).const == -1


def test_keywords_do_not_swallow_identifiers():
    with pytest.raises(DiagnosticError) as e:
        compile_text("notes == 1 and order > 0", scopes.END_WHEN)
    assert "unknown name 'notes'" in str(e.value)
    assert "unknown name 'order'" in str(e.value), "every error of the expression is reported"


def test_card_literals_and_names():
    assert mask("card == 2C").const == 1 << parse_card("2C")
    with pytest.raises(DiagnosticError, match="unknown name 'KHX'"):
        mask("card == KHX")


@pytest.mark.parametrize("text,scope,fragment", [
    ("card.rank == hearts", CARD_SCOPE, "cannot compare a rank with a suit"),
    ("card.suitt == hearts", CARD_SCOPE, "did you mean 'suit'?"),
    ("tricks_taken + true", scopes.SEAT_END, "operator '+' cannot be applied to a bool"),
    ("taken(card.suit == hearts, 2)", scopes.SEAT_END, "taken() takes 1 argument(s), got 2"),
    ("taken(card.suit == hearts)", scopes.TRICK_POINTS, "function 'taken' is not available in trick scoring"),
    ("countt(card.rank == Q)", scopes.SEAT_END, "did you mean 'count'?"),
    ("trick.number", scopes.END_WHEN, "unknown name 'trick'"),
    ("9 ** 2", scopes.TRICK_POINTS, "there is no '**' operator"),
    ("1 +", scopes.TRICK_POINTS, "unexpected end of expression"),
    ("'a' == 'b'", scopes.TRICK_POINTS, "expected an int here, got a bool"),
    ("1 / 0", scopes.TRICK_POINTS, "division by zero"),
    ("__class__", scopes.TRICK_POINTS, "names starting with '_' are not allowed"),
    ("card.__class__", CARD_SCOPE, "names starting with '_' are not allowed"),
    ("9" * 19, scopes.TRICK_POINTS, "integer has 19 digits (limit 18)"),
    ("(" * 40 + "1" + ")" * 40, scopes.TRICK_POINTS, "nests deeper than 32"),
])
def test_errors(text, scope, fragment):
    with pytest.raises(DiagnosticError) as e:
        compile_text(text, scope, INT if scope is not CARD_SCOPE else None, predicate=scope is CARD_SCOPE)
    rendered = "\n".join(f"{d.headline()} {d.hint}" for d in e.value.diagnostics)
    assert fragment in rendered


GOLDEN_RULESET = """kierki: 1
name: golden
match: {schedule: [bez_kierow]}
contracts:
  bez_kierow:
    score:
      - per_card: card.suit == heart
        points: "-20 * card"
      - per_trick: |
          if trick.number == 7
            then -75 els 0
"""

GOLDEN = """{p}:7:32: error: N401 unknown name 'heart' in a scored-card predicate in contracts.bez_kierow.score[0].per_card
        - per_card: card.suit == heart
                                 ^~~~~
  hint: did you mean 'hearts'? (an expression writes a suit as hearts)
{p}:8:24: error: N401 unknown name 'card' in trick scoring in contracts.bez_kierow.score[0].points
          points: "-20 * card"
                         ^~~~
  hint: 'card' is defined in: card predicates (per_card, lead_ban, forbid, require)
{p}:11:22: error: E301 unexpected 'els' in contracts.bez_kierow.score[1].per_trick
              then -75 els 0
                       ^"""


def test_rendered_errors_are_pinned(tmp_path):
    from kierki_dsl.lint import lint_file

    p = tmp_path / "golden.yaml"
    p.write_text(GOLDEN_RULESET, "utf-8")
    out = render_diagnostics(lint_file(str(p)))
    assert out == GOLDEN.format(p=p)


def _errors(text):
    with pytest.raises(DiagnosticError) as e:
        compile_text(text, CARD_SCOPE, predicate=True)
    return e.value.diagnostics


@pytest.mark.parametrize("text", ["-" * 400 + "1 == 1", "not " * 120 + "true",
                                  "1" + " + 1" * 120 + " == 1"])
def test_deep_trees_are_a_finding_not_a_recursion_error(text):
    assert len(text) <= 500
    assert [d.code for d in _errors(text)] == ["E303"]


@pytest.mark.parametrize("text,col,word", [
    ("in == 1", 1, "in"), ("card.suit == hearts and and card.rank == Q", 25, "and"), ("card.if == 1", 6, "if"),
    ("true == then", 9, "then"), ("count(or) == 1", 7, "or"),
])
def test_reserved_words_are_syntax_errors_at_the_word(text, col, word):
    d = _errors(text)[0]
    assert d.code == "E301" and d.pos.col == col and f"unexpected {word!r}: a reserved word" in d.message


def test_positions_follow_yaml_escapes(tmp_path):
    from kierki_dsl.lint import lint_file

    for value, target in (('"trick.number\\x20==\\x2013 and and b"', "and b"),
                          ('"trick.number\\u0020== 13 and and b"', "and b"),
                          ("'trick.number == 13 and ''x'' == cardd'", "cardd")):
        f = tmp_path / "esc.yaml"
        f.write_text("kierki: 1\nname: x\nmatch: {schedule: [a]}\ncontracts:\n  a:\n"
                     f"    score: [{{per_trick: -20, when: {value}}}]\n", "utf-8")
        d = next(d for d in lint_file(str(f)) if d.code[0] in "EN")
        line = f.read_text("utf-8").splitlines()[5]
        assert (d.pos.line, d.pos.col) == (6, line.index(target) + 1), (value, d, line)


def test_a_deep_expression_ends_run_with_a_finding_not_an_internal_error(tmp_path):
    from conftest import run_cli

    f = tmp_path / "deep.yaml"
    f.write_text("kierki: 1\nname: x\nmatch: {schedule: [a]}\ncontracts:\n  a:\n"
                 f"    score: [{{per_trick: -20, when: \"{'-' * 400}1 == 1\"}}]\n", "utf-8")
    for cmd in (("lint", str(f)), ("run", str(f))):
        code, out, err, _ = run_cli(*cmd)
        assert code == 1 and "E303" in err and "internal error" not in err


@pytest.mark.parametrize("text,hint", [
    ("card > winning", "compare their ranks: card.rank > winning.rank"),
    ("card.suit < hearts", "suits have no order"),
])
def test_ordering_cards_or_suits_says_what_to_write_instead(text, hint):
    """Issue 15 play-test: `require: card > winning` (beat the trick) was N404 with no hint."""
    with pytest.raises(DiagnosticError) as e:
        compile_text(text, scopes.PLAY_PREDICATE, predicate=True)
    (d,) = e.value.diagnostics
    assert d.code == "N404" and hint in d.hint


# Play-test 7: an author who wrote `card.suit = hearts` (or `&&`, `||`, `!`) read only "unexpected
# character '='": the hint now says what an expression writes instead.
@pytest.mark.parametrize("text,col,hint", [
    ("card.suit = hearts", 11, "'=='"), ("card.suit == hearts && true", 21, "'and'"),
    ("card.rank == Q || card.rank == K", 16, "'or'"), ("!(card.rank == Q)", 1, "'not'"),
])
def test_another_languages_operator_is_told_what_to_write(text, col, hint):
    d = _errors(text)[0]
    assert d.code == "E301" and d.pos.col == col and hint in (d.hint or ""), (d.pos.col, d.hint)
