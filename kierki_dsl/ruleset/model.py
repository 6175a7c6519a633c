"""``Ruleset.load``: file -> YAML tree -> validated values -> compiled contracts -> checks."""

from __future__ import annotations

import os
from typing import Any, Optional

import attrs

from ..cards import FULL_DECK, RANK_MASK, RANK_NAMES, popcount
from ..diagnostics import Diagnostic, DiagnosticError, Diagnostics
from ..expr.types import BOOL, SEAT
from ..i18n import L_
from ..interpreter.choice import Choice
from ..interpreter.envs import match_end_env, seat_env
from ..interpreter.scopes import MATCH_END, SEAT_EXPR
from ..spec import yamlsafe
from ..spec.schema import INVALID, Ctx, ExprSource
from ..values import frozen
from .build import BuildContext
from .format import ruleset_schema
from .words import check_words, words_of


@frozen(eq=False)
class Ruleset:
    """A loaded, checked and compiled ruleset, ready to play."""

    path: str
    name: str
    description: str
    players: int
    deck: int
    hand_size: int
    first_dealer: Optional[int]  # None = random
    direction: int  # +1 clockwise, -1 counterclockwise
    schedule: tuple  # compiled contracts, one per deal of a match
    contracts: dict  # name -> compiled contract
    total: Optional[int]
    source: Optional[yamlsafe.Source] = attrs.field(default=None, repr=False)
    until: Any = None  # compiled match end condition (the schedule repeats until it holds)
    max_deals: int = 0
    deals_per_dealer: int = 1
    series: int = 1  # the schedule is played this many times, each series one dealer on
    texts: tuple = attrs.field(default=(), repr=False)  # the file's text and those it extends
    specs: dict = attrs.field(factory=dict, repr=False)  # name -> the contract's validated Spec, for explain/diff
    parts: tuple = attrs.field(default=(), repr=False)  # the validated match.parts (PartSpec), for explain/diff
    #: the base file the description is inherited from ("" when this file writes it): explain
    #: does not present a base's description as the variant's
    description_from: str = attrs.field(default="", repr=False)
    until_text: str = attrs.field(default="", repr=False)  # match.until as written, for explain/diff
    #: match.first_dealer as a compiled seat expression over the first deal's hands (else None),
    #: and as written
    first_dealer_expr: Any = attrs.field(default=None, repr=False)
    first_dealer_text: str = attrs.field(default="", repr=False)
    #: the ruleset's own sentences in other languages (``words``): {language: {sentence: words}}
    words: dict = attrs.field(factory=dict, repr=False)

    @property
    def fingerprint(self) -> str:
        """A short hash of the ruleset's text (and of what it extends): records name it."""
        import hashlib

        return hashlib.sha256("\0".join(self.texts).encode("utf-8")).hexdigest()[:16]

    def dealer_of(self, first_dealer: int, k: int) -> int:
        """The dealer of deal k (0-based): the deal passes on after every ``deals_per_dealer`` deals,
        and each series of the schedule starts one seat on from the previous series' start."""
        from ..interpreter.match import dealer_of

        series, j = divmod(k, len(self.schedule)) if self.series > 1 else (0, k)
        return dealer_of(first_dealer, series + j // self.deals_per_dealer, self.players, self.direction)

    def first_dealer_from(self, hands, dealt_by: int) -> int:
        """The first dealer once the first deal is dealt (by ``dealt_by``, drawn at random):
        the seat ``first_dealer``'s expression names over those hands (masks), e.g. the holder
        of 7♥; ``dealt_by`` itself when the first dealer is not an expression."""
        if self.first_dealer_expr is None:
            return dealt_by

        return self.first_dealer_expr.seat(seat_env(dealt_by, self.players, -1, hands, self.deck), self.players)

    def contract_at(self, k: int):
        """The contract of deal k (0-based); with ``until`` the schedule repeats."""
        if k < len(self.schedule) * self.series:
            return self.schedule[k % len(self.schedule)]
        if self.until is not None and k < self.max_deals:
            return self.schedule[k % len(self.schedule)]
        return None

    def match_over(self, k: int, totals) -> bool:
        """Whether the match ends after ``k`` deals with these running totals."""
        if self.until is None:
            return k >= len(self.schedule) * self.series
        if k >= self.max_deals:
            return True

        return bool(self.until(match_end_env(totals, k, self.players)))

    def stopped_at_max_deals(self, k: int, totals) -> bool:
        """Whether a match of ``k`` deals ended only because it reached ``max_deals`` (its
        ``until`` condition never held)."""
        if self.until is None or k < self.max_deals:
            return False

        return not self.until(match_end_env(totals, k, self.players))

    @classmethod
    def load(cls, path: str, warnings: Optional[Diagnostics] = None) -> "Ruleset":
        """Load and compile a ruleset file; raise ``DiagnosticError`` listing every error."""
        ruleset, diags = load_ruleset(path)
        if warnings is not None:
            warnings.extend(d for d in diags if d.severity != "error")
        if ruleset is None or diags.has_errors():
            raise DiagnosticError(diags.errors)
        return ruleset


def read_bytes(path: str) -> bytes:
    """The file's bytes, refusing one over the size limit before reading all of it (Y113), and
    any path that is not a readable regular file (a FIFO would block, a device never end: Y116)."""
    from ..paths import ReadError, read_limited

    try:
        return read_limited(path, yamlsafe.MAX_BYTES)
    except ReadError as e:
        if e.size is None:
            raise DiagnosticError([Diagnostic(path, None, "Y116", L_("cannot read the ruleset: {e}", e=e))]) from None
        raise DiagnosticError(
            [
                Diagnostic(
                    path,
                    None,
                    "Y113",
                    L_(
                        "ruleset is {size}; limit {limit}",
                        size=yamlsafe.human_size(e.size),
                        limit=yamlsafe.human_size(yamlsafe.MAX_BYTES),
                    ),
                    hint=L_("a ruleset is a few kilobytes; is this the right file?"),
                )
            ]
        ) from None


def load_ruleset(path: str, data: Optional[bytes] = None) -> tuple[Optional[Ruleset], Diagnostics]:
    """Every finding for a ruleset file, and the compiled ruleset when there is no error;
    ``data`` is the file's unsaved text (an editor's buffer) when given."""
    diags = Diagnostics()
    try:
        src, root, texts = load_tree(path, diags, data=data)
    except DiagnosticError as e:
        diags.extend(e.diagnostics)
        return None, diags
    ruleset = compile_tree(path, src, root, diags, texts)
    return ruleset, diags


def load_tree(path: str, diags: Diagnostics, chain: tuple = (), data: Optional[bytes] = None):
    """The YAML tree of a ruleset with its ``extends`` chain merged in (variant values win)."""
    from .extends import resolve_extends

    if data is None:
        data = read_bytes(path)
    elif len(data) > yamlsafe.MAX_BYTES:  # an editor's buffer: the same limit as a file
        raise DiagnosticError(
            [
                Diagnostic(
                    path,
                    None,
                    "Y113",
                    L_(
                        "ruleset is {size}; limit {limit}",
                        size=yamlsafe.human_size(len(data)),
                        limit=yamlsafe.human_size(yamlsafe.MAX_BYTES),
                    ),
                )
            ]
        )
    soft: list = []
    src, root = yamlsafe.load(path, data, soft)
    diags.extend(soft)
    root, texts = resolve_extends(path, root, diags, chain, load_tree)
    return src, root, [src.text] + texts


def compile_tree(path: str, src, root, diags: Diagnostics, texts=()) -> Optional[Ruleset]:
    ctx = Ctx(path, diags)
    spec = ruleset_schema().load(root, ctx, (), "ruleset")
    ctx.nodes.setdefault((), root)  # the document itself (findings at a variant's `extends`)
    if spec is INVALID:
        return None
    from .semantics import check_ruleset

    players = spec.players
    deck = _deck(spec.deck)
    contracts_spec = spec.contracts if spec.contracts is not None else {}
    bctx = BuildContext(path, diags, contracts_spec, ctx.nodes, players, deck, ctx.invalid)
    bctx.order = _order(spec.deck, deck, bctx)
    check_words(bctx)
    compiled = {}
    for name in contracts_spec:
        compiled[name] = bctx.contract(name, ("contracts", name))
    schedule = []
    match = spec.match
    if match:
        for i, entry in enumerate(match.schedule or ()):
            repeat = 1 if isinstance(entry, str) else entry.repeat  # a contract's name, or an entry's spec
            if not isinstance(entry, str) and entry.choose is not None:
                if entry.contract is not None:
                    bctx.error(
                        ("match", "schedule", i), "S210", L_("a schedule entry has either 'contract' or 'choose'")
                    )
                    continue
                schedule.extend([_choice(entry.choose, compiled, bctx, ("match", "schedule", i, "choose"))] * repeat)
                continue
            name = entry if isinstance(entry, str) else entry.contract
            if name is None:
                if ctx.is_valid(("match", "schedule", i)):  # else its contract or choose was reported
                    bctx.error(("match", "schedule", i), "S203", L_("a schedule entry needs 'contract' or 'choose'"))
                continue
            if name not in contracts_spec:
                bctx.contract(name, ("match", "schedule", i))
                schedule.extend([None] * repeat)  # its deals still count (no follow-on about the length)
                continue
            schedule.extend([compiled.get(name)] * repeat)
    hand_size = popcount(deck) // players
    # a bad deck or number of players was left out: what follows from the cards dealt (M610 and
    # every semantic check) would be about a table nobody wrote
    table_known = ctx.is_valid(("deck",)) and ctx.is_valid(("players",))
    if popcount(deck) % players and table_known:
        bctx.error(
            ("deck",) if ("deck",) in ctx.nodes else ("players",),
            "M610",
            L_("{cards} cards do not deal evenly to {players} players", cards=popcount(deck), players=players),
        )
    first: Any = match.first_dealer if match else "random"
    first_dealer = None if first == "random" else first  # 'random', a seat or an expression
    first_expr = None
    if isinstance(first_dealer, ExprSource):
        first_expr = bctx.expr(first_dealer, SEAT_EXPR, SEAT, ("match", "first_dealer"))
        first_dealer = None
    if first_dealer is not None and first_dealer >= players:
        bctx.error(
            ("match", "first_dealer"),
            "S204",
            L_("first_dealer {first_dealer} is not a seat (0..{last})", first_dealer=first_dealer, last=players - 1),
        )
    until = None
    if match and match.until is not None:
        until = bctx.expr(match.until, MATCH_END, BOOL, ("match", "until"))
        if until is not None and until.is_const:
            bctx.error(("match", "until"), "M604", L_("match.until is always {lower}", lower=str(until.const).lower()))
    series = match.series if match else 1
    if until is not None and series > 1:
        bctx.error(
            ("match", "series"),
            "S210",
            L_("a match has either 'series' or 'until'"),
            L_("until already plays the schedule again and again"),
        )
    if diags.has_errors() or any(c is None for c in schedule):
        if table_known:
            check_ruleset(spec, compiled, schedule, bctx, hand_size, diags)
        else:  # only what does not depend on the cards and the players
            from .semantics import check_inherited_reasons, check_unused

            check_inherited_reasons(bctx)
            check_unused(spec, bctx)
        return None
    ruleset = Ruleset(
        path=path,
        name=spec.name or "",
        description=spec.description or "",
        players=players,
        deck=deck,
        hand_size=hand_size,
        first_dealer=first_dealer,
        direction=-1 if match.direction == "counterclockwise" else 1,
        schedule=tuple(schedule),
        contracts=compiled,
        total=match.total,
        source=src,
        texts=tuple(texts) if texts else (src.text,),
        until=until,
        deals_per_dealer=match.deals_per_dealer,
        series=series,
        max_deals=match.max_deals if until is not None else len(schedule) * series,
        specs=contracts_spec,
        parts=match.parts,
        description_from=_inherited_from(ctx.nodes.get(("description",)), path),
        until_text=" ".join(match.until.text.split()) if until is not None else "",
        first_dealer_expr=first_expr,
        first_dealer_text=" ".join(match.first_dealer.text.split()) if first_expr is not None else "",
        words=words_of(spec),
    )
    check_ruleset(spec, compiled, schedule, bctx, hand_size, diags)
    return ruleset


def _inherited_from(node, path: str) -> str:
    """The file ``node`` was written in, when that is not ``path`` (a value from a base)."""
    where = yamlsafe.node_path(node, path) if node is not None else path
    return "" if os.path.abspath(where) == os.path.abspath(path) else where


def _choice(spec, compiled: dict, bctx, where: tuple):

    by = bctx.expr(spec.by, SEAT_EXPR, SEAT, where + ("by",))
    options = []
    for j, name in enumerate(spec.from_ or ()):
        c = compiled.get(name) if name in compiled else bctx.contract(name, where + ("from", j))
        options.append(c)
    if by is None or any(c is None for c in options):
        return None
    return Choice(by, tuple(options), spec.once_each, " ".join(spec.by.text.split()), once_in_match=spec.once_in_match)


def _order(spec, deck: int, bctx) -> Optional[tuple]:
    """The rank order of the validated ``deck.order`` (``rankorder``; None: the usual order).
    M640: it must list every rank of the deck, and only those."""
    from ..rankorder import strength_of

    if spec is None or spec.order is None:
        return None
    in_deck = {r for r in range(13) if deck & RANK_MASK[r]}
    listed = set(spec.order)
    if listed != in_deck:
        names = lambda rs: " ".join(RANK_NAMES[r] for r in sorted(rs))  # noqa: E731
        missing, extra = in_deck - listed, listed - in_deck
        bctx.error(
            ("deck", "order"),
            "M640",
            L_(
                "deck.order must list exactly the ranks of the deck{missing}{extra}",
                missing=L_("; missing: {ranks}", ranks=names(missing)) if missing else "",
                extra=L_("; not in the deck: {ranks}", ranks=names(extra)) if extra else "",
            ),
            L_("write every rank in play once, strongest first"),
        )
        return None
    return strength_of(spec.order)


def _deck(spec) -> int:
    """The card mask of the validated ``deck`` (None: the full pack)."""
    if spec is None:
        return FULL_DECK
    deck = FULL_DECK
    if spec.ranks:
        deck = 0
        for r in spec.ranks:
            deck |= RANK_MASK[r]
    if spec.remove:
        for c in spec.remove:
            deck &= ~(1 << c)
    return deck
