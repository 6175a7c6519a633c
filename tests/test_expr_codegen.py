"""The generated evaluator (``expr/codegen.py``) against the closure compiler it replaced
(``expr/compile.py``, the reference): random well-typed expressions over every scope of
ruleset expressions, random environments built by the scope's own constructor
(``interpreter/envs.py``), the same values, free names, seen masks and located errors."""
from __future__ import annotations

import inspect
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kierki_dsl.cards import FULL_DECK, card_str
from kierki_dsl.expr import CARD_SCOPE, EvalError, ExprText, RuleRuntimeError, compile_expr
from kierki_dsl.expr.builtins import FUNCTIONS
from kierki_dsl.expr.check import RANK_CONSTANTS, SUIT_CONSTANTS, check
from kierki_dsl.expr.codegen import generate
from kierki_dsl.expr.compile import CardPredicate, Compiled, compile_tree
from kierki_dsl.expr.parser import parse
from kierki_dsl.expr.types import BOOL, CARD, INT, PRED, RANK, SEAT, SUIT, Scope, Var
from kierki_dsl.interpreter.envs import ENVIRONMENTS

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHORT_DECK = sum(1 << (13 * s + r) for s in range(4) for r in range(5, 13))  # 7..A


def _names(scope: Scope) -> dict:
    """Type -> the names of that type an expression in ``scope`` may write."""
    out: dict = {}
    for name, var in scope.vars.items():
        if name.startswith("$"):
            continue
        items = var.items() if isinstance(var, dict) else [(None, var)]
        for attr, v in items:
            out.setdefault(v.type, []).append(name if attr is None else f"{name}.{attr}")
    return out


def _provides(scope: Scope, key: str) -> bool:
    return any((isinstance(v, Var) and v.key == key) or (isinstance(v, dict) and any(m.key == key for m in v.values()))
               for v in scope.vars.values())


def _functions(scope: Scope) -> dict:
    """Result type -> the built-in functions available in ``scope``."""
    out: dict = {}
    for fn in FUNCTIONS.values():
        if all(_provides(scope, k) for k in fn.needs):
            out.setdefault(fn.result, []).append(fn)
    return out


def _card_scope(scope: Scope) -> Scope:
    merged = dict(scope.vars)
    merged.update(CARD_SCOPE.vars)
    return Scope(f"a card predicate in {scope.name}", merged)


def _paren(s):
    return st.builds(lambda x: f"({x})", s)


_MEMO: dict = {}


def exprs(t, scope: Scope, depth: int):
    """Text of a random expression of type ``t`` that checks in ``scope``."""
    key = (t, scope.name, depth)
    if key not in _MEMO:
        _MEMO[key] = _exprs(t, scope, depth)
    return _MEMO[key]


def _exprs(t, scope: Scope, depth: int):
    names, fns = _names(scope), _functions(scope)
    leaves = {
        INT: [st.integers(0, 30).map(str)],
        BOOL: [st.sampled_from(["true", "false"])],
        SUIT: [st.sampled_from(sorted(SUIT_CONSTANTS))],
        RANK: [st.sampled_from(sorted(RANK_CONSTANTS))],
        CARD: [st.integers(0, 51).map(card_str)],
        SEAT: [],
    }[t]
    if names.get(t):
        leaves.append(st.sampled_from(names[t]))
    assert leaves, f"no {t} to write in {scope.name}"
    if depth <= 0:
        return st.one_of(leaves)
    sub = lambda u: exprs(u, scope, depth - 1)  # noqa: E731
    more = list(leaves)
    if t == INT:
        more += [st.builds(lambda a, op, b: f"({a}) {op} ({b})", sub(INT), st.sampled_from("+-*/%"), sub(INT)),
                 st.builds(lambda a: f"-({a})", sub(INT))]
    if t == BOOL:
        more += [
            st.builds(lambda a, op, b: f"({a}) {op} ({b})", sub(BOOL), st.sampled_from(["and", "or"]), sub(BOOL)),
            st.builds(lambda a: f"not ({a})", sub(BOOL)),
            st.builds(lambda a, op, b: f"({a}) {op} ({b})", sub(INT), st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
                      sub(INT)),
            st.builds(lambda a, op, b: f"({a}) {op} ({b})", sub(RANK), st.sampled_from(["==", "<", ">=", "!="]),
                      st.one_of(sub(RANK), st.integers(2, 10).map(str))),
            st.builds(lambda a, op, b: f"({a}) {op} ({b})", sub(SUIT), st.sampled_from(["==", "!="]), sub(SUIT)),
            st.builds(lambda a, op, b: f"({a}) {op} ({b})", sub(CARD), st.sampled_from(["==", "!="]), sub(CARD)),
            st.builds(lambda a, b: f"({a}) in [{', '.join(b)}]", sub(SUIT), st.lists(sub(SUIT), min_size=1, max_size=3)),
            st.builds(lambda a, b: f"({a}) not in [{', '.join(b)}]", sub(INT), st.lists(sub(INT), min_size=1, max_size=3)),
            st.builds(lambda a, b, c: f"({a}) in [{', '.join([b] + c)}]", sub(RANK), sub(RANK),
                      st.lists(st.one_of(sub(RANK), st.integers(2, 10).map(str)), max_size=2)),
        ]
        if names.get(SEAT):
            more.append(st.builds(lambda a, op, b: f"({a}) {op} ({b})", sub(SEAT), st.sampled_from(["==", "!="]),
                                  sub(SEAT)))
    if t == SUIT:
        more.append(st.builds(lambda a: f"({a}).suit", sub(CARD)))
    if t == RANK:
        more.append(st.builds(lambda a: f"({a}).rank", sub(CARD)))
    if t == SEAT and not names.get(SEAT):
        return st.one_of(leaves)
    if t in (INT, SUIT, RANK, CARD, SEAT, BOOL):
        more.append(st.builds(lambda c, a, b: f"if {c} then ({a}) else ({b})", sub(BOOL), sub(t), sub(t)))
    for fn in fns.get(t, []):
        if SEAT in fn.params and not names.get(SEAT):
            continue
        args = [exprs(BOOL, _card_scope(scope), depth - 1) if p == PRED else sub(p) for p in fn.params]
        more.append(st.builds(lambda *a, name=fn.name: f"{name}({', '.join(a)})", *args))
    return st.one_of(more)


def _mask(rng, deck):
    return sum(1 << c for c in range(52) if deck >> c & 1 and rng.random() < 0.3)


def _arg(rng, name: str, players: int, deck: int):
    """A plausible value of an environment constructor's parameter."""
    if name in ("hands", "taken_all"):
        return [_mask(rng, deck) for _ in range(players)]
    if name == "tricks_won":
        return [rng.randrange(14) for _ in range(players)]
    if name == "totals":
        return [rng.randrange(-300, 300) for _ in range(players)]
    if name == "players":
        return players
    if name == "deck":
        return deck
    if name in ("hand", "taken", "cards", "played"):
        return _mask(rng, deck)
    if name in ("hearts_broken", "points_left"):
        return rng.random() < 0.5
    if name in ("led_suit", "trump"):
        return rng.randrange(-1, 4)
    if name in ("winning", "lead"):
        return rng.randrange(-1, 52)
    if name in ("caller", "bidder", "winner", "leader", "dealer", "seat", "doubler", "target"):
        return rng.randrange(-1, players)
    return rng.randrange(-3, 15)  # numbers: trick number, tricks, bid, value, declared...


def _env(make, rng, deck: int) -> dict:
    players = rng.randrange(2, 5)
    return make(*[_arg(rng, p, players, deck) for p in inspect.signature(make).parameters])


def _both(text: str, scope, expected, predicate: bool, deck: int, order):
    """(reference, generated) compiled the two ways, or (error, error) when folding fails."""
    source = ExprText(text, "the field")
    tree = parse(text)
    if predicate:
        scope, expected = _card_scope(scope), BOOL
    info = check(tree, scope, CARD_SCOPE, expected)
    assert not info.errors, [e.message for e in info.errors]

    def on_error(e):
        from kierki_dsl.diagnostics import Diagnostic
        return RuleRuntimeError(Diagnostic("<expr>", source.pos(e.offset), "X701", e.message))

    out = []
    for way in ("reference", "generated"):
        try:
            if way == "reference":
                fn, free, seen = compile_tree(tree, info, deck, order)
                compute = located = None
            else:
                fn, free, seen, compute, located = generate(tree, info, deck, order, predicate, on_error)
            binder = None if way == "reference" else (
                lambda params: generate(tree, info, deck, order, False, on_error, params)[4])
            out.append(CardPredicate(fn, free, deck, on_error, seen, compute) if predicate
                       else Compiled(fn, free, on_error, seen, located, binder))
        except EvalError as e:
            out.append(("folding", e.offset, e.message))
    return out


def _outcome(f):
    try:
        value = f()
    except RuleRuntimeError as e:
        return ("error", e.diagnostic.headline())
    return (type(value).__name__, value)


CASES = [(scope, make, t) for scope, make in ENVIRONMENTS for t in (INT, BOOL, SEAT, SUIT)
         if t != SEAT or _names(scope).get(SEAT)]


@pytest.mark.slow  # a long property run: pytest -m slow
@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{s.name}-{t}" for s, _, t in CASES])
@SETTINGS
@given(data=st.data())
def test_generated_code_evaluates_as_the_closures(case, data):
    scope, make, t = CASES[case]
    text = data.draw(exprs(t, scope, 3).filter(lambda s: len(s) <= 500))
    predicate = t == BOOL and data.draw(st.booleans())  # a card predicate over the same names
    if predicate:
        text = data.draw(exprs(BOOL, _card_scope(scope), 3).filter(lambda s: len(s) <= 500))
    deck = data.draw(st.sampled_from([FULL_DECK, SHORT_DECK]))
    order = data.draw(st.sampled_from([None, tuple(reversed(range(13))), (12,) + tuple(range(12))]))
    ref, gen = _both(text, scope, t, predicate, deck, order)
    if isinstance(ref, tuple) or isinstance(gen, tuple):
        assert ref == gen
        return
    assert (ref.free if not predicate else ref.keys) == (gen.free if not predicate else gen.keys)
    assert ref.seen == gen.seen
    assert ref.const == gen.const
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(8):
        env = _env(make, rng, deck)
        if predicate:
            assert _outcome(lambda: ref.mask(env)) == _outcome(lambda: gen.mask(env)), text
            continue
        want = _outcome(lambda: ref(env))
        assert _outcome(lambda: gen(env)) == want, text
        assert _outcome(lambda: gen.call(env)) == want, text
        params = tuple(env)  # the environment's keys as positional arguments
        assert _outcome(lambda: gen.positional(params)(*env.values())) == want, text
        if t == SEAT:
            players = env.get("players", 4)
            assert _outcome(lambda: ref.seat(env, players)) == _outcome(lambda: gen.seat(env, players)), text


def test_a_division_by_zero_is_located_the_same_way():
    text = "taken(card.suit == hearts) / (tricks_taken - tricks_taken) + 1"
    from kierki_dsl.interpreter import scopes
    from kierki_dsl.interpreter.envs import seat_end_env

    ref, gen = _both(text, scopes.SEAT_END, INT, False, FULL_DECK, None)
    env = seat_end_env(0, 1, 4, -1, -1, 3, 13, 7, [7, 0, 0, 0], FULL_DECK)
    assert _outcome(lambda: ref(env)) == _outcome(lambda: gen(env)) == ("error", "<expr>:1:28: error: X701 division by zero")
    compiled, _ = compile_expr(ExprText(text, "per_seat"), scopes.SEAT_END, INT)
    with pytest.raises(RuleRuntimeError, match="division by zero in per_seat"):
        compiled.call(env)


def test_generated_source_holds_no_text_of_the_ruleset():
    """A string literal reaches the code as a constant of its namespace, never as source."""
    from kierki_dsl.expr import codegen
    from kierki_dsl.interpreter import scopes

    codegen._CODE.clear()
    text = "if 'x) or __import__(1' == 'y' then 1 else tricks_taken"
    ref, gen = _both(text, scopes.SEAT_END, INT, False, FULL_DECK, None)
    assert all("__import__" not in source for source in codegen._CODE)
    assert gen.free == ref.free == frozenset({"tricks_taken"})


PREDICATE_READS_HANDS = """\
kierki: 1
name: a card predicate that reads the hands
extends: {base}
contracts:
  bez_lew:
    first_lead: if count(suit_count(dealer) > 3) > 0 then dealer else left(dealer)
"""


def test_a_card_predicate_that_reads_a_list_plays(cli, tmp_path):
    """Found by the differential test: a predicate reading ``hands`` (a list) was memoised
    under an unhashable key (internal error)."""
    from conftest import STANDARD

    path = tmp_path / "hands.yaml"
    path.write_text(PREDICATE_READS_HANDS.format(base=STANDARD))
    code, out, err = cli("run", str(path), "--seed", "1", "--players", "random")
    assert code == 0, err
    assert "Final standings" in out


DEEP = [
    "not " * 63 + "true",
    "-" * 63 + "tricks_taken",
    "-(" * 31 + "tricks_taken" + ")" * 31,
    "min(" * 31 + "tricks_taken" + ", 1)" * 31,
    "if tricks_taken > 1 then " * 15 + "1" + " else 2" * 15,
    "taken(" * 31 + "card == QS" + ") > 0" * 30 + ")",
    "(" * 18 + "tricks_taken > 1" + " and tricks_taken > 2)" * 18,
    "tricks_taken in [-(-5), -3, --4, 1 + 1] and taken(card.rank in [2, Q, 10]) > 0",  # literals in lists
]


@pytest.mark.parametrize("text", DEEP, ids=range(len(DEEP)))
def test_extreme_expressions_compile_and_agree(text):
    """At the parser's limits the generated source stays within Python's own nesting limits,
    and predicates nested in predicates are generated once each (not twice per level); a
    list of literals (negated too) is one constant."""
    from kierki_dsl.interpreter import scopes
    from kierki_dsl.interpreter.envs import seat_end_env

    ref, gen = _both(text, scopes.SEAT_END, None, False, FULL_DECK, None)
    env = seat_end_env(1, 0, 4, -1, -1, 3, 13, 1 << 36, [1 << 36, 0, 0, 0], FULL_DECK)
    assert _outcome(lambda: ref(env)) == _outcome(lambda: gen(env))
