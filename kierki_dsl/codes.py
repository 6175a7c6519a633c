"""Every finding code, by phase, with its explanation and a bad and a good example.

The codes of the file, the schema, expressions, references, the match and trick play are this
module's; each phase of a deal declares its own (``lint_codes`` of its unit, beside the checks
that report them) and ``declare`` adds them when the phase registers. This table drives ``kierki lint --explain CODE``, ``docs/lint-codes.md`` (generated, and
checked to be current by the tests) and the per-code tests: each bad example must produce
its code at ``at`` (line, column), each good example must not produce it.
"""

from __future__ import annotations

import re
from typing import Optional

from .values import frozen

PHASES = {
    "Y": "YAML: bytes, encoding and the YAML structure",
    "S": "Schema: keys, types and values",
    "E": "Expression syntax",
    "N": "Names and types in expressions",
    "R": "References between contracts",
    "M": "Rule semantics computed from the ruleset",
    "X": "Run time (reported by kierki run, not by lint)",
}

HEAD = "kierki: 1\nname: example\n"
MATCH = "match: {schedule: [bez_lew]}\n"
OK = HEAD + MATCH + "contracts:\n  bez_lew:\n    total: -260\n    score: [{per_trick: -20}]\n"


def example(body: str, schedule: str = "[bez_lew]") -> str:
    """A ruleset of one match whose contracts are ``body`` (a code's bad or good example)."""
    return HEAD + f"match: {{schedule: {schedule}}}\ncontracts:\n" + body


@frozen
class Code:
    code: str
    title: str
    explanation: str
    bad: str
    good: str
    at: Optional[tuple] = None  # (line, col) of the finding in `bad`; None: no position
    severity: str = "error"
    lint: bool = True  # False: reported at run time only
    base: str = ""  # a ruleset the examples extend, as base.yaml beside them (a variant's finding)

    @property
    def phase(self) -> str:
        return PHASES[self.code[0]]


#: Every code: this module's own (the file, the schema, expressions, references, the match and
#: trick play), then those each phase declares (its ``lint_codes``, added by ``declare`` when the
#: phase registers: ``kierki_dsl.phases``).
CODES: dict[str, Code] = {}


def _add(*args, **kw) -> None:
    c = Code(*args, **kw)
    CODES[c.code] = c


def table(*codes: Code) -> dict:
    """A phase's lint codes, by code (its ``lint_codes``)."""
    return {c.code: c for c in codes}


def declare(codes: dict, owner: str) -> None:
    """Add a phase's codes to ``CODES``; ``ValueError`` when ``owner`` declares a code that is
    already another's (the same code declared again, as by a phase registered again, is fine)."""
    for code, c in codes.items():
        if CODES.get(code, c) != c:
            raise ValueError(f"lint code {code} of phase {owner!r} is already declared: {CODES[code].title!r}")
        CODES[code] = c


# --- YAML -----------------------------------------------------------------------------------
_add(
    "Y101",
    "YAML syntax error",
    "The file is not well-formed YAML.",
    HEAD + "match: {schedule: [bez_lew]\n" + "contracts: {}\n",
    OK,
    (4, 1),
)
_add(
    "Y102",
    "tab in indentation",
    "YAML forbids tabs for indentation; editors show them differently.",
    HEAD + MATCH + "contracts:\n\tbez_lew: {score: [{per_trick: -20}]}\n",
    OK,
    (5, 1),
)
_add(
    "Y103",
    "duplicate key",
    "PyYAML and most tools silently keep only the last of two equal keys; the first "
    "is lost. kierki refuses the file and names both places.",
    OK + "name: again\n",
    OK,
    (8, 1),
)
_add(
    "Y104",
    "explicit tag",
    "Tags such as !!python/object can make YAML loaders construct objects or run code. A ruleset is plain data.",
    'kierki: 1\nname: !!python/object/apply:os.system ["echo"]\n',
    OK,
    (2, 7),
)
_add(
    "Y105",
    "anchor or alias",
    "Anchors and aliases let a small file expand into a huge one (billion laughs). "
    "Write values out, or use `include` to share scoring. lint reports every anchor and the first alias of each, "
    "and goes on reading for other YAML findings; the schema is not checked while aliases are left out.",
    HEAD + "x: &a [1, 2]\ny: *a\n" + MATCH,
    OK,
    (3, 4),
)
_add(
    "Y106",
    "merge key",
    "`<<` merge keys are not supported; write the keys out.",
    HEAD + MATCH + "contracts:\n  bez_lew:\n    <<: {total: -260}\n    score: [{per_trick: -20}]\n",
    OK,
    (6, 5),
)
_add(
    "Y107",
    "key that is not a string",
    "Keys such as `~`, `null`, `1`, `yes` or `on` are not strings to YAML tools, and two of them may collide.",
    HEAD + "1: one\n" + MATCH,
    OK,
    (3, 1),
)
_add(
    "Y108",
    "several documents",
    "A ruleset is one YAML document; a second `---` is refused (the first document is still checked).",
    OK + "---\nkierki: 1\n",
    OK,
    (8, 1),
)
_add("Y109", "not UTF-8", "Save the file as UTF-8 (a BOM is accepted).", 'kierki: 1\nname: "Kr\udcf3l"\n', OK, (2, 10))
_add(
    "Y110",
    "control character",
    "Control characters (e.g. NUL) are not allowed anywhere in a ruleset.",
    'kierki: 1\nname: "a\x00b"\n',
    OK,
    (2, 9),
)
_add("Y111", "empty file", "The file holds no YAML document.", "# nothing here\n", OK, (1, 1))
_add(
    "Y112",
    "nesting too deep",
    "Nesting deeper than 32 levels is refused before anything recursive runs.",
    HEAD + "x: " + "[" * 40 + "]" * 40 + "\n",
    OK,
    (3, 35),
)
_add(
    "Y113",
    "file too large",
    "A ruleset over 128 KiB is refused before it is parsed.",
    HEAD + "#" + "x" * (130 * 1024) + "\n",
    OK,
    None,
)
_add(
    "Y116",
    "not a regular file",
    "A ruleset (or the base it extends) is read only from a regular file: a "
    "folder, a FIFO, a device, a socket, a dangling or looping symlink or an unreadable file is refused, never opened "
    "(a FIFO would block the reader, a device never end).",
    HEAD.replace("kierki: 1\n", "kierki: 1\nextends: ..\n") + OK[len(HEAD) :],
    OK,
    (2, 10),
)
_add(
    "Y114",
    "YAML 1.1 surprise",
    "A plain `no`, `on`, `010` or `1:20` where a string is meant is read as a "
    "boolean or number by YAML 1.1 tools. Quote it.",
    HEAD.replace("name: example", "name: no") + OK[len(HEAD) :],
    OK,
    (2, 7),
    severity="warning",
)
_add(
    "Y115",
    "top level not a mapping",
    "The file must be a mapping of keys (kierki, name, match, contracts).",
    "- kierki: 1\n",
    OK,
    (1, 1),
)
# --- schema ---------------------------------------------------------------------------------
_add(
    "S201",
    "unknown key",
    "A key the format does not know (often a typo: the hint suggests the closest).",
    example("  bez_lew:\n    totl: -260\n    score: [{per_trick: -20}]\n"),
    OK,
    (6, 5),
)
_add(
    "S202",
    "wrong type",
    "A value of the wrong kind: a list where a mapping is needed, a string where an integer is, `1.10` for a version.",
    OK.replace("total: -260", "total: '-260'"),
    OK,
    (6, 12),
)
_add("S203", "missing required key", "A required key is absent.", example("  bez_lew:\n    total: -260\n"), OK, (6, 5))
_add(
    "S204",
    "value out of range",
    "A number outside its range, or a name that is not one of the allowed ones.",
    OK.replace("kierki: 1\nname: example\n", "kierki: 1\nname: example\nplayers: 9\n"),
    OK,
    (3, 10),
)
_add(
    "S205",
    "unknown deal type",
    "`type` names no deal type of the catalogue (tricks, layout).",
    example("  bez_lew:\n    type: trick\n    score: [{per_trick: -20}]\n"),
    OK,
    (6, 11),
)
_add(
    "S206",
    "duplicate value",
    'A list that must hold distinct values repeats one (after normalising: `10` and "10" are the same rank).',
    OK.replace("match:", 'deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, "10"]}\nmatch:'),
    OK,
    (3, 56),
)
_add(
    "S207",
    "ambiguous integer",
    "An integer with a leading zero (`010`) is octal 8 to YAML 1.1 and 10 to YAML 1.2; write it without the zero.",
    example("  lot:\n    type: layout\n    start_rank: 07\n    prizes: [800, 500]\n", "[lot]"),
    example("  lot:\n    type: layout\n    start_rank: 7\n    prizes: [800, 500]\n", "[lot]"),
    (7, 17),
)
_add(
    "S208",
    "not a bool",
    "Booleans are `true` or `false`; `on`, `yes` mean different things to different YAML versions.",
    OK.replace("    total: -260\n", "    total: -260\n    follow_suit: yes\n"),
    OK,
    (7, 18),
)
_add(
    "S209",
    "integer too long",
    "Integers have at most 18 digits.",
    OK.replace("total: -260", "total: -2600000000000000000000"),
    OK,
    (6, 12),
)
_add(
    "S210",
    "conflicting keys",
    "A score component needs exactly one of per_trick, per_card, per_seat and include; "
    "a restriction exactly one of forbid and require.",
    example("  bez_lew:\n    score: [{per_trick: -20, include: bez_lew}]\n"),
    OK,
    (6, 13),
)
# --- expressions: syntax --------------------------------------------------------------------
_add(
    "E301",
    "expression syntax error",
    "The expression does not parse; the caret shows where. Reserved words "
    "(and, or, not, in, if, then, else, true, false) are never names: one written where a name belongs is "
    "reported at the word.",
    example('  bez_lew:\n    score: [{per_trick: "-20 * * 2"}]\n'),
    OK,
    (6, 32),
)
_add(
    "E302",
    "expression too long",
    "Expressions have at most 500 characters.",
    example('  bez_lew:\n    score: [{per_trick: "' + "+".join(["1"] * 300) + '"}]\n'),
    OK,
    (6, 26),
)
_add(
    "E303",
    "expression nests too deeply",
    "At most 32 nested brackets, and at most 64 operators inside one "
    "another (a chain such as `- - - 1` or `not not not x` counts one level per operator).",
    example('  bez_lew:\n    score: [{per_trick: "' + "(" * 33 + "1" + ")" * 33 + '"}]\n'),
    OK,
    (6, 58),
)
_add(
    "E304",
    "integer literal too long",
    "Integer literals have at most 18 digits.",
    example('  bez_lew:\n    score: [{per_trick: "1 + 1234567890123456789"}]\n'),
    OK,
    (6, 30),
)
# --- expressions: names and types -----------------------------------------------------------
_add(
    "N401",
    "unknown name",
    "A name that is not defined where the expression stands (the hint lists the close ones or all of them).",
    example("  bez_kierow:\n    score: [{per_card: card.suit == heart, points: -20}]\n", "[bez_kierow]"),
    example("  bez_kierow:\n    score: [{per_card: card.suit == hearts, points: -20}]\n", "[bez_kierow]"),
    (6, 37),
)
_add(
    "N402",
    "unknown attribute",
    "A card has `suit` and `rank`; `trick` has number, is_first, is_last, leader, winner.",
    example("  bez_lew:\n    score: [{per_trick: -75, when: trick.numbr == 7}]\n"),
    example("  bez_lew:\n    score: [{per_trick: -75, when: trick.number == 7}]\n"),
    (6, 42),
)
_add(
    "N403",
    "unknown function",
    "A function the language does not have.",
    example("  bez_lew:\n    score: [{per_seat: cnt(card.rank == Q)}]\n"),
    example("  bez_lew:\n    score: [{per_seat: count(card.rank == Q)}]\n"),
    (6, 24),
)
_add(
    "N404",
    "type error",
    "Operands of the wrong type: a rank compared with a suit, a bool where points are expected, '+' on a string.",
    example("  bez_lew:\n    score: [{per_trick: trick.is_last}]\n"),
    example("  bez_lew:\n    score: [{per_trick: -20}]\n"),
    (6, 25),
)
_add(
    "N405",
    "wrong number of arguments",
    "A function called with too many or too few arguments.",
    example('  bez_lew:\n    score: [{per_seat: "taken(card.rank == Q, 2)"}]\n'),
    example('  bez_lew:\n    score: [{per_seat: "taken(card.rank == Q)"}]\n'),
    (6, 25),
)
_add(
    "N406",
    "private name",
    "Names starting with `_` are never allowed (no way into Python internals).",
    example("  bez_lew:\n    score: [{per_trick: __import__}]\n"),
    OK,
    (6, 25),
)
_add(
    "N407",
    "function not available here",
    "The function needs context this expression does not have (e.g. `taken` only in per_seat scoring).",
    example('  bez_lew:\n    score: [{per_trick: "taken(card.rank == Q)"}]\n'),
    example('  bez_lew:\n    score: [{per_seat: "taken(card.rank == Q)"}]\n'),
    (6, 26),
)
_add(
    "N410",
    "constant expression fails",
    "A constant expression that cannot be evaluated, such as a division by zero.",
    example('  bez_lew:\n    score: [{per_trick: "20 / 0"}]\n'),
    OK,
    (6, 29),
)
_add(
    "N411",
    "card not in the deck",
    "An expression names a card the deck does not have (a removed card, a rank "
    "left out): it is never dealt, so `holder(2C)` is nobody — as a dealer or a leader that stops the match at "
    "run time — and `card == 2C` never holds.",
    HEAD + "players: 3\ndeck: {remove: [2C]}\n" + MATCH + "contracts:\n  bez_lew:\n    total: -340\n"
    "    first_lead: holder(2C)\n    score: [{per_trick: -20}]\n",
    HEAD + "players: 3\ndeck: {remove: [2C]}\n" + MATCH + "contracts:\n  bez_lew:\n    total: -340\n"
    "    first_lead: holder(3C)\n    score: [{per_trick: -20}]\n",
    (9, 24),
    severity="warning",
)
_add(
    "N412",
    "divisor that can be 0",
    "A `/` or `%` whose divisor can be 0 where it is worked out: play would stop the deal there "
    "with X701. Lint bounds the divisor by what its names stand for (a number of tricks taken is 0 to 52; "
    "`players` is the ruleset's number of players) and by the conditions it stands under: in "
    "`if COND then A else B`, A where COND holds and B where it does not; the right of `and` where the left "
    "holds, of `or` where it does not. Comparisons of numbers (`x > 0`, `x >= 1`, `0 < x`, `x != 0`, "
    "`not (x == 0)`, joined by `and` and `or`) narrow what they compare. A divisor that may be 0 is a warning "
    "(the hint shows a guard); one that is always 0, in a division worked out whenever its expression is, is "
    "an error (a constant expression that divides by 0 is N410).",
    example('  bez_lew:\n    score: [{per_seat: "100 / tricks_taken"}]\n'),
    example('  bez_lew:\n    score: [{per_seat: "if tricks_taken > 0 then 100 / tricks_taken else 0"}]\n'),
    (6, 29),
    severity="warning",
)
# --- references -----------------------------------------------------------------------------
_add(
    "R501",
    "unknown contract",
    "A schedule entry or an include names no contract (the hint suggests one).",
    HEAD + "match: {schedule: [bez_lwe]}\ncontracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
    HEAD + "match: {schedule: [bez_lew]}\ncontracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
    (3, 20),
)
_add(
    "R502",
    "include cycle",
    "Contracts that include each other would score forever.",
    example("  a:\n    score: [{include: b}]\n  b:\n    score: [{include: a}]\n", "[a, b]"),
    OK,
    (8, 23),
)
_add(
    "R503",
    "include of a non-trick contract",
    "Only trick contracts have scoring components to include.",
    example("  a:\n    score: [{include: lot}]\n  lot:\n    type: layout\n    prizes: [800, 500]\n", "[a, lot]"),
    OK,
    (6, 23),
)
_add(
    "R504",
    "extends target not found",
    "`extends` names a file that does not exist (the path is relative to the variant file).",
    HEAD.replace("kierki: 1\n", "kierki: 1\nextends: no_such_base.yaml\n") + OK[len(HEAD) :],
    OK,
    (2, 10),
)
_add(
    "R505",
    "extends cycle",
    "Rulesets that extend each other (or a chain longer than 8) can never be merged.",
    "kierki: 1\nextends: bad.yaml\n",
    OK,
    (2, 10),
)
# --- semantics ------------------------------------------------------------------------------
_add(
    "M601",
    "declared total disagrees",
    "The contract's `total` differs from what its scoring gives over "
    "the deck (e.g. jacks only at -30 each is -120, not -240): a typo in a value is caught before anyone plays.",
    example("  bez_panow:\n    total: -240\n    score: [{per_card: card.rank == J, points: -30}]\n", "[bez_panow]"),
    example("  bez_panow:\n    total: -120\n    score: [{per_card: card.rank == J, points: -30}]\n", "[bez_panow]"),
    (6, 12),
)
_add(
    "M602",
    "dead penalty",
    "A per_card predicate that matches no card of the deck never scores.",
    example("  bez_lew:\n    score: [{per_card: card.rank == Q and card.rank == K, points: -60}]\n"),
    OK,
    (6, 24),
    severity="warning",
)
_add(
    "M603",
    "restriction without fallback",
    "With `fallback: false` a restriction can leave a player "
    "with no legal card; without it the rule yields when nothing else is possible.",
    example(
        "  bez_lew:\n    restrictions: [{phase: lead, forbid: card.suit == hearts, fallback: false}]\n    score: [{per_trick: -20}]\n"
    ),
    example(
        "  bez_lew:\n    restrictions: [{phase: lead, forbid: card.suit == hearts}]\n    score: [{per_trick: -20}]\n"
    ),
    (6, 42),
    severity="warning",
)
_add(
    "M604",
    "constant end condition",
    "An end condition that is always true or always false is a mistake (it ends every deal at once, or never).",
    example("  bez_lew:\n    end_when: 1 > 2\n    score: [{per_trick: -20}]\n"),
    example("  bez_lew:\n    end_when: not points_left\n    score: [{per_trick: -20}]\n"),
    (6, 15),
    severity="warning",
)
_add(
    "M605",
    "trump call after more cards than dealt",
    "The caller cannot see more cards than a hand holds.",
    example("  atu:\n    trump: {called_by: dealer, after: 14}\n    score: [{per_trick: 25}]\n", "[atu]"),
    example("  atu:\n    trump: {called_by: dealer, after: 5}\n    score: [{per_trick: 25}]\n", "[atu]"),
    (6, 39),
)
_add(
    "M608",
    "contract never played",
    "A contract that is neither scheduled nor included is dead weight (often a typo in the schedule).",
    OK + "  bez_dam:\n    score: [{per_card: card.rank == Q, points: -60}]\n",
    OK,
    (8, 3),
    severity="warning",
)
_add(
    "M609",
    "declared match total disagrees",
    "`match.total` differs from the sum of the deals' totals.",
    HEAD + "match: {schedule: [bez_lew], total: 0}\ncontracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
    HEAD + "match: {schedule: [bez_lew], total: -260}\ncontracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
    (3, 37),
)
_add(
    "M610",
    "cards do not deal evenly",
    "Every player must get the same number of cards.",
    OK.replace("match:", "players: 3\nmatch:").replace("    total: -260\n", ""),
    OK.replace("match:", "players: 3\ndeck: {remove: [2C]}\nmatch:").replace("    total: -260\n", ""),
    (3, 10),
)
_add(
    "M611",
    "declared part total disagrees",
    "A part (a block of deals) declares a total its deals do not add up to.",
    HEAD + "match:\n  schedule: [bez_lew]\n  parts: [{name: neg, first: 1, last: 1, total: -2600}]\n"
    "contracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
    HEAD + "match:\n  schedule: [bez_lew]\n  parts: [{name: neg, first: 1, last: 1, total: -260}]\n"
    "contracts:\n  bez_lew:\n    score: [{per_trick: -20}]\n",
    (5, 49),
)
_add(
    "M640",
    "rank order that is not the deck's",
    "`deck.order` lists the ranks in trick order, strongest first "
    "(Tysiąc: `[A, 10, K, Q, J, 9]`, the ten beats the king). It must list every rank of the deck once and no rank "
    "the deck leaves out; otherwise some card would have no place in the order. A layout contract's rows keep the usual "
    "sequence whatever the order (a warning).",
    HEAD
    + "players: 3\ndeck: {ranks: [9, 10, J, Q, K, A], order: [A, K, Q, J, 9]}\n"
    + MATCH
    + "contracts:\n  bez_lew: {score: [{per_trick: -20}]}\n",
    HEAD
    + "players: 3\ndeck: {ranks: [9, 10, J, Q, K, A], order: [A, 10, K, Q, J, 9]}\n"
    + MATCH
    + "contracts:\n  bez_lew: {score: [{per_trick: -20}]}\n",
    (4, 43),
)
_add(
    "M643",
    "match values in a match of one deal",
    "Seat scoring may read the match's running totals before the "
    "deal (`match.total`, `match.highest_total`, `match.lowest_total`, `match.deals_played`: Tysiąc's barrel). In a "
    "match of a single deal they never change: every total is 0 and no deal has been played, so the rule is "
    "probably a mistake. Reading them outside seat scoring is N401.",
    example(
        '  bez_lew:\n    score:\n      - per_trick: -20\n      - per_seat: "if match.total >= 100 then 5 else 0"\n'
    ),
    "kierki: 1\nname: example\nmatch: {schedule: [bez_lew], until: highest_total >= 100}\ncontracts:\n  bez_lew:\n"
    '    score:\n      - per_trick: 20\n      - per_seat: "if match.total >= 100 then 5 else 0"\n',
    (8, 9),
    severity="warning",
)
_add(
    "M634",
    "holder() of a card that may be in no hand",
    "`holder(card)` names the seat holding the card when "
    "the rule is read. A widow keeps cards out of every hand until it is taken (and for good when its taker lays "
    "cards aside), and a stock keeps the undealt cards: a widow's `taken_by` or a trump's `called_by` read then, "
    "or a `first_lead` after cards were laid aside or with cards left in the stock, may name nobody, and the "
    "deal would stop at run time (X701).",
    example(
        "  bez_lew:\n    auction: {min: 1, max: 13}\n    widow: {cards: 4, taken_by: holder(AS)}\n"
        "    first_lead: bidder\n    score: [{per_trick: -20}]\n"
    ),
    example(
        "  bez_lew:\n    auction: {min: 1, max: 13}\n    widow: {cards: 4, taken_by: bidder}\n"
        "    first_lead: bidder\n    score: [{per_trick: -20}]\n"
    ),
    (7, 33),
)
_add(
    "M618",
    "total not checked",
    "A contract whose scoring (or prizes, or trumps) has an error cannot have its "
    "declared total worked out, so that check is skipped until the error is fixed; an error elsewhere in the "
    "contract (say `ace: hi`) does not stop the total check.",
    example("  bez_lew:\n    total: -260\n    score: [{per_trick: -20, points: x}]\n"),
    OK,
    (6, 12),
    severity="warning",
)
_add(
    "M619",
    "match far too long",
    "A match of more than 1000 deals (schedule × repeat × series, or max_deals "
    "with until) is almost certainly a slip, and costs minutes or hours to play or simulate; a match with "
    "`until` that reaches max_deals stops there with a warning.",
    HEAD + "match: {schedule: [{contract: bez_lew, repeat: 200}], series: 8}\ncontracts:\n  bez_lew:\n"
    "    score: [{per_trick: -20}]\n",
    HEAD + "match: {schedule: [{contract: bez_lew, repeat: 12}], series: 4}\ncontracts:\n  bez_lew:\n"
    "    score: [{per_trick: -20}]\n",
    (3, 63),
    severity="warning",
)
_add(
    "M623",
    "scoring fails for some trick",
    "A score component that depends only on the trick number (and "
    "the trump, the number of tricks and players) cannot be evaluated for some trick, e.g. a division by zero "
    "in the last trick. Every deal would stop there with X701.",
    example('  bez_lew:\n    score: [{per_trick: "20 / (tricks - trick.number)"}]\n'),
    example('  bez_lew:\n    score: [{per_trick: "20 / max(1, tricks - trick.number)"}]\n'),
    (6, 13),
)
_BASE = example(
    "  bez_kierow:\n    lead_ban: card.suit == hearts\n"
    "    lead_ban_reason: hearts may not be led while you hold another suit\n"
    "    score: [{per_card: card.suit == hearts, points: -20}]\n",
    "[bez_kierow]",
)
_add(
    "M624",
    "reason inherited for a changed rule",
    "A variant rewrites a rule (`lead_ban`) but not the sentence "
    "that says it (`lead_ban_reason`), which it inherits from its base: a player who breaks the new rule is told "
    "the base's. Write the reason for the new rule, or `lead_ban_reason: null` to have it said from the rule.",
    "kierki: 1\nextends: base.yaml\nname: variant\ncontracts:\n  bez_kierow:\n    lead_ban: card == KH\n",
    "kierki: 1\nextends: base.yaml\nname: variant\ncontracts:\n  bez_kierow:\n    lead_ban: card == KH\n"
    "    lead_ban_reason: the king of hearts may not be led while you hold another card\n",
    (6, 15),
    severity="warning",
    base=_BASE,
)
_add(
    "M642",
    "points past the score limit",
    "A seat's points in one deal are limited to ±10^12 "
    "(docs/engine.md): lint bounds each score component's points (a trick's count once per trick, a card's once "
    "per card, a seat's once; names by what they stand for, e.g. a number of tricks at most 52), sums them, "
    "widens the sum for exposures and doubles, and refuses a contract that could pass the limit.",
    example('  bez_lew:\n    score: [{per_trick: "999999999 * 999999999"}]\n'),
    OK,
    (6, 25),
)
_WORDS_OK = OK.replace("name: example\n", "name: example\ndescription: one deal of no tricks\n")
_add(
    "M650",
    "words for a sentence the ruleset does not say",
    "A key under `words: {pl: ...}` is the ruleset's own sentence (its description, a contract's description, "
    "a rule's reason) as written, and its value that sentence in Polish (docs/polish.md). A key the ruleset "
    "does not say is never shown: a typo, or the English changed since the words were written.",
    _WORDS_OK + "words:\n  pl:\n    one deal of no trick: jedno rozdanie bez lew\n",
    _WORDS_OK + "words:\n  pl:\n    one deal of no tricks: jedno rozdanie bez lew\n",
    (11, 5),
    severity="warning",
)
# --- run time -------------------------------------------------------------------------------
_add(
    "X701",
    "expression failed while playing",
    "An expression that cannot be evaluated in some situation "
    "(a division by zero that depends on play: lint warns of a divisor that can be 0, N412). `kierki run` stops with this error; the record of the "
    "finished deals is kept.",
    example('  bez_lew:\n    score: [{per_seat: "100 / (tricks_taken - tricks_taken)"}]\n'),
    example('  bez_lew:\n    score: [{per_seat: "100 / max(1, tricks_taken)"}]\n'),
    (6, 24),
    lint=False,
)

_add(
    "X702",
    "no card is legal",
    "A play restriction with `fallback: false` forbade every card of the hand of "
    "the player on turn (lint warns of such rules as M-codes where it can). `kierki run` stops with this "
    "error, naming the rule; the record of the finished deals is kept.",
    example(
        "  bez_lew:\n    restrictions: [{phase: any, forbid: trick.number == 5, fallback: false}]\n"
        "    score: [{per_trick: -20}]\n"
    ),
    example("  bez_lew:\n    restrictions: [{phase: any, forbid: trick.number == 5}]\n    score: [{per_trick: -20}]\n"),
    (6, 20),
    lint=False,
)

_add(
    "X703",
    "points past the score limit",
    "A seat's points in one deal passed ±10^12 (docs/engine.md) while "
    "playing. Lint refuses every ruleset whose points could (M642), so this is play's own guard, for a ruleset "
    "played without lint's checks: `kierki run` stops with this error, located at the contract's first score "
    "component; the record of the finished deals is kept. Neither engine ever wraps or overflows.",
    example('  bez_lew:\n    score: [{per_trick: "999999999 * 999999999"}]\n'),
    example('  bez_lew:\n    score: [{per_trick: "players * 9999"}]\n'),
    None,
    lint=False,
)


def explain(code: str) -> Optional[str]:
    """The text of ``kierki lint --explain CODE``."""
    c = CODES.get(code.upper())
    if c is None:
        return None
    return (
        f"{c.code} ({c.severity}): {c.title}\nphase: {c.phase}\n\n{c.explanation}\n\n"
        + (f"base.yaml (extended by both):\n{_indent(c.base)}\n" if c.base else "")
        + (f"Bad:\n{_indent(c.bad)}\nGood:\n{_indent(c.good)}" if c.bad or c.good else "")
    )


def codes_about(query: str) -> list:
    """The codes whose title mentions ``query``, a word (``total``); none for a code-like query."""
    word = query.strip().lower()
    if not word or re.fullmatch(r"[a-z]\d*", word):
        return []
    return [c for c in CODES.values() if word in c.title.lower()]


def suggest(query: str) -> str:
    """For ``--explain`` with no such code: the codes whose title mentions ``query`` (a word,
    e.g. ``total``), else the codes closest to it (``M61`` -> M601, M610, ...)."""
    import difflib

    named = codes_about(query)
    if named:
        return f"codes about {query!r}: " + ", ".join(f"{c.code} ({c.title})" for c in named[:8])
    close = difflib.get_close_matches(query.strip().upper(), list(CODES), n=4, cutoff=0.6)
    return f"the closest: {', '.join(close)}" if close else ""


def _indent(text: str) -> str:
    lines = text.splitlines()
    if len(lines) > 14 or any(len(line) > 160 for line in lines):
        lines = [line if len(line) <= 160 else line[:157] + "..." for line in lines[:14]]
    return "\n".join("    " + _visible(line) for line in lines) + "\n"


def _visible(line: str) -> str:
    """Show bytes that are the point of an example (NUL, tab, invalid UTF-8) as escapes."""
    line = line.replace("\x00", "\\0").replace("\t", "\\t")
    return re.sub("[\udc80-\udcff]", lambda m: "\\x%02X" % (ord(m.group()) - 0xDC00), line)


def markdown() -> str:
    """docs/lint-codes.md, generated from this table."""
    out = ["# Finding codes", "", "Generated from `kierki_dsl/codes.py` (`kierki lint --explain CODE` prints one).", ""]
    for prefix, phase in PHASES.items():
        out.append(f"## {prefix} — {phase}")
        out.append("")
        for c in sorted(CODES.values(), key=lambda c: c.code):
            if c.code[0] != prefix:
                continue
            out.append(f"### {c.code} {c.title} ({c.severity})")
            out.append("")
            out.append(c.explanation)
            out.append("")
            if c.base:
                out.append("base.yaml (extended by both):")
                out.append("```yaml")
                out.append(_indent(c.base).replace("\n    ", "\n")[4:].rstrip("\n"))
                out.append("```")
            out.append("Bad:")
            out.append("```yaml")
            out.append(_indent(c.bad).replace("\n    ", "\n")[4:].rstrip("\n"))
            out.append("```")
            out.append("Good:")
            out.append("```yaml")
            out.append(_indent(c.good).replace("\n    ", "\n")[4:].rstrip("\n"))
            out.append("```")
            out.append("")
    return "\n".join(out)
