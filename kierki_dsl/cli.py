"""The ``kierki`` command: run, replay, lint, schema.

Exit codes (documented in the README):
  0 success · 1 a problem in the input (ruleset findings, an illegal record, a corrupt file,
  a rule that fails while playing) · 2 usage error (bad option, missing file) ·
  70 internal error (a bug: please report it) · 130 interrupted (Ctrl-C) · 141 the output's
  reader went away (``kierki ... | head``).

Heavy modules are imported inside the commands so that ``kierki --help`` stays fast.
"""

from __future__ import annotations

import io
import ipaddress
import json
import os
import re
import sys
from enum import Enum
from typing import TYPE_CHECKING, List, Optional, cast

import typer

from .exits import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, failure_exit, interrupted_exit
from .exits import stderr_line as _err

if TYPE_CHECKING:
    from .players.human import HumanPlayer

try:  # click's exception classes, vendored inside newer typer releases
    from typer._click import exceptions as _CLICK_EXCEPTIONS
except ImportError:  # older typer depends on click itself
    import click.exceptions as _CLICK_EXCEPTIONS  # type: ignore[no-redef,unused-ignore]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Kierki as data: play, check and replay rulesets of the Polish compendium card game.",
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

_state = {"debug": False}


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class LintFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def _usage(message: str) -> "typer.Exit":
    _err(f"kierki: error: {message}")
    return typer.Exit(EXIT_USAGE)


def _bounded(**values) -> None:
    """Numeric options within their documented bounds (``limits.py``), else a usage error."""
    from .limits import first_problem

    problem = first_problem(**values)
    if problem is not None:
        raise _usage(problem)


def _version(value: bool) -> None:
    if value:
        print(f"kierki {version()}")
        raise typer.Exit(EXIT_OK)


def version() -> str:
    """The installed kierki-dsl version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("kierki-dsl")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown (not installed)"


@app.callback()
def _main(
    debug: bool = typer.Option(False, "--debug", help="Show Python tracebacks for internal errors."),
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    _state["debug"] = debug


def _lang_option():
    return typer.Option(
        None, "--lang", help="Language of what a person reads: en or pl (default: KIERKI_LANG, else en)."
    )


def _speak(lang: Optional[str]) -> None:
    """Speak ``lang`` from here on (None: ``KIERKI_LANG`` or English); a usage error for one there are no words for."""
    from .i18n import set_language

    if lang is None:
        return
    try:
        set_language(lang)
    except ValueError as e:
        raise _usage(f"--lang: {e}") from None


def _no_file(kind: str, path: str) -> str:
    """The message for a ``kind`` file (save, record) that is not there, or is a folder."""
    if os.path.isdir(path):
        return f"{path} is a folder, not a {kind} file"
    return f"no such {kind} file: {path}"


def _load_ruleset(path: str, show_warnings: bool = False):
    """The compiled ruleset; its errors as ``kierki lint`` shows them and exit 1. ``show_warnings``:
    its lint warnings too, on stderr, as ``kierki lint`` shows them (``kierki run``: before the
    match, so that stdout stays the match's own output)."""
    from .diagnostics import DiagnosticError, Diagnostics
    from .report import render_diagnostics
    from .ruleset.model import Ruleset
    from .shipped import find_ruleset, not_found

    found = find_ruleset(path)
    if found is None:
        code = re.fullmatch(r"[YSENRMXysenrmx]\d{3}", path) is not None
        raise _usage(not_found(path) + (f" (a finding code? kierki lint --explain {path.upper()})" if code else ""))
    path = found
    warnings = Diagnostics()
    try:
        rs = Ruleset.load(path, warnings)
    except DiagnosticError as e:
        from .lint import by_position

        _err(render_diagnostics(by_position(e.diagnostics)))
        raise typer.Exit(EXIT_FINDINGS)
    if show_warnings and len(warnings):
        from .lint import by_position, unique

        _err(render_diagnostics(unique(by_position(warnings))))
    return rs


def _player_names(spec: str, n: int) -> list:
    names = [x.strip() for x in spec.split(",") if x.strip()]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise _usage(f"--players needs 1 or {n} names, got {len(names)}")
    return names


def _players(spec: str, n: int, ruleset=None, prompts=None):
    """The seats' players; a human seat talks on ``prompts`` (stdout unless given: with
    ``--format json`` stdout is kept for the JSON document alone)."""
    from .players.base import make_player

    out = []
    for name in _player_names(spec, n):
        try:
            p = make_player(name)
        except KeyError as e:
            raise _usage(str(e.args[0]))
        if name == "human":
            human = cast("HumanPlayer", p)  # what make_player("human") makes
            human.ruleset = ruleset
            if prompts is not None:
                human.out = prompts
        out.append(p)
    return out


@app.command()
def run(
    ruleset: str = typer.Argument(..., help="The ruleset file (YAML)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for a reproducible match (printed when not given)."),
    players: str = typer.Option(
        "heuristic",
        "--players",
        help="Players per seat, comma-separated (random, heuristic, search, search:64, search:0.2s, pimc, ismcts, "
        "ismcts:0.2s, human, or your bot as exec:COMMAND: docs/bot-protocol.md), or one for all.",
    ),
    human: Optional[str] = typer.Option(
        None,
        "--human",
        help="Play this seat yourself: N, E, S, W (as join --seat takes) or 0..3 (P0, P1... with 3 or 5 players).",
    ),
    fmt: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text or json."),
    record: Optional[str] = typer.Option(None, "--record", help="Write the match as a kierki-record/1 file."),
    save: Optional[str] = typer.Option(
        None, "--save", help="Keep the match durably in this save file as it goes (kierki resume continues it)."
    ),
    think: Optional[str] = typer.Option(
        None, "--think", help="Strength of the search players: a time per decision (0.2s) or a sample count (64)."
    ),
    deals: Optional[str] = typer.Option(
        None,
        "--deals",
        help="Play the fixed deals of this match file (SIK format, 5 lines a deal) instead of shuffled ones.",
    ),
    deal_types: Optional[str] = typer.Option(
        None,
        "--deal-types",
        help="With --deals: which contract each deal type plays, e.g. 1=no_tricks,2=no_hearts (default: type t is the t-th schedule entry).",
    ),
    force: bool = typer.Option(
        False, "--force", help="With --save: replace the file even when it holds an unfinished match."
    ),
    lang: Optional[str] = _lang_option(),
) -> None:
    """Play one whole match and print every deal's scores and the totals."""
    import secrets

    _speak(lang)
    _bounded(seed=seed)
    rs = _load_ruleset(ruleset, show_warnings=True)
    if seed is None:
        seed = secrets.randbelow(2**31)
    names = _player_names(players, rs.players)
    if think is not None:
        _players(f"search:{think}", 1)  # checked even when no seat plays search (a usage error, not ignored)
        names = [f"search:{think}" if x == "search" else x for x in names]
    if human is not None:
        from .report import read_seat

        try:
            names[read_seat(human, rs.players)] = "human"
        except ValueError as e:
            raise _usage(f"--human: {e}") from None
    fixed = _fixed_deals(deals, rs, deal_types)
    _check_output(record, "--record")
    _check_output(save, "--save")
    writer = None
    if save:
        from .table.savefile import header

        writer = _new_save(save, header(rs, seed, names, _deals_entry(deals, deal_types)), force)
    _play(rs, seed, names, fmt, record, writer, None, fixed)


def _new_save(save: str, head: dict, force: bool):
    """The save file of a new match; exit 1 when it is another process's or holds an unfinished
    match (unless ``--force``)."""
    from .table.savefile import SaveError
    from .table.session import new_save

    try:
        return new_save(save, head, force, deals_of=_match_file_of)
    except SaveError as e:
        _err(str(e))
        raise typer.Exit(EXIT_FINDINGS)


@app.command()
def resume(
    save: str = typer.Argument(..., help="A save file written by kierki run --save."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="The ruleset (default: the path in the save file)."),
    fmt: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text or json."),
    record: Optional[str] = typer.Option(None, "--record", help="Write the finished match as a kierki-record/1 file."),
    lang: Optional[str] = _lang_option(),
) -> None:
    """Continue a saved match exactly where it stopped."""
    _speak(lang)
    from .table.savefile import SaveError
    from .table.session import open_save

    if not os.path.isfile(save):
        raise _usage(_no_file("save", save))
    _check_output(record, "--record")
    try:
        opened = open_save(save)  # locked: one process plays a save file at a time
    except SaveError as e:
        _err(str(e))
        raise typer.Exit(EXIT_FINDINGS)
    try:
        rs, names, fixed = _resumable(save, opened.head, ruleset)
    except BaseException:
        opened.close()
        raise
    _play(rs, opened.head["seed"], names, fmt, record, opened.writer(), (save, opened.actions), fixed)


def _resumable(save: str, head: dict, ruleset: Optional[str]) -> tuple:
    """(ruleset, player names, fixed deals) of a save file that ``kierki resume`` can continue."""
    path = ruleset or head["ruleset"]["path"]
    if not os.path.isfile(path):
        _err(f"{save}:1: error: the ruleset {path!r} of this save file is not found (give it with --ruleset)")
        raise typer.Exit(EXIT_FINDINGS)
    rs = _load_ruleset(path)
    if head["ruleset"]["fingerprint"] != rs.fingerprint:
        _err(f"{save}:1: error: this save file belongs to another ruleset (or another version of {path})")
        raise typer.Exit(EXIT_FINDINGS)
    if "bots" in head:  # written by kierki serve
        _err(
            f"{save}:1: error: this save file is a table's: continue it with kierki serve RULESET --save {save} --resume"
        )
        raise typer.Exit(EXIT_FINDINGS)
    names = head["players"]
    if len(names) != rs.players:
        _err(f"{save}:1: error: the header names {len(names)} players; the ruleset has {rs.players} seats")
        raise typer.Exit(EXIT_FINDINGS)
    from .players.base import make_player

    for name in names:
        try:
            make_player(name)
        except KeyError as e:
            _err(f"{save}:1: error: {e.args[0]}")
            raise typer.Exit(EXIT_FINDINGS)
    return rs, names, _saved_deals(save, head, rs)


def _play(rs, seed: int, names: list, fmt, record, writer, saved: Optional[tuple] = None, fixed=None) -> None:
    """Run (or continue) a match over the session layer, printing deals; save and record it;
    handle Ctrl-C and a person who quits.

    ``saved``: ``(save file, saved actions)`` to replay first (``kierki resume``); ``fixed``: the
    fixed deals to play (``--deals``)."""
    from .i18n import N_, tr
    from .players.base import PlayerQuit
    from .record import match_record
    from .report import deal_lines, match_header, match_json, standings_text, title_width
    from .table import Session

    text = fmt == OutputFormat.text
    results, warnings = [], []
    width = title_width(rs)

    def finished_deal(r) -> None:
        results.append(r)
        if r.contract.total is not None and sum(r.scores) != r.contract.total:
            warnings.append(
                (
                    N_("deal {number}: scores sum to {got}, the ruleset declares {declared}"),
                    {"number": r.number, "got": sum(r.scores), "declared": r.contract.total},
                )
            )
        for p in seat_players:
            if hasattr(p, "deal_over"):
                p.deal_over(r.number, r.totals, r.plays)
        if text:
            print(deal_lines(r, rs.players, width), flush=True)

    try:
        seat_players = _players(",".join(names), rs.players, rs, None if text else sys.stderr)
        if fixed is not None:  # a match file's deals, not the schedule's: "Deal k of n" counts them
            for p in seat_players:
                if hasattr(p, "set_match_length"):
                    p.set_match_length(len(fixed))
        session = Session(rs, seed, seat_players, fixed, on_deal=finished_deal)
    except BaseException:
        if writer is not None:
            writer.close()
        raise
    person = "human" in names  # the seed would show every hand (--record): said at the end only
    first_dealer = session.match.first_dealer
    if text:
        shown = [tr("{player} (you)").format(player=x) if x == "human" else x for x in names]
        print(match_header(rs, None if person else seed, first_dealer, shown), flush=True)
    interrupted = record_lost = False
    try:
        outcome = session.resume(saved[1], saved[0]) if saved is not None else None
        if outcome is None or outcome.ok:
            if writer is not None:
                session.keep(writer)
            session.run_bots()
    except (KeyboardInterrupt, PlayerQuit):
        interrupted = True
    finally:
        if writer is not None:
            writer.close()
        if record:  # an unfinished match with a person at the table keeps its seed (and the hands to come) to itself
            shown_seed = seed if session.finished or not person else None
            rec = _fixed_record(match_record(rs, shown_seed, first_dealer, results), fixed)
            record_lost = not _keep_record(record, _json_dump(rec))
    if record_lost:
        raise typer.Exit(EXIT_FINDINGS)
    if interrupted:
        where = f"; the match is saved: kierki resume {writer.path}" if writer is not None else ""
        _err(f"kierki: interrupted{where}")
        raise typer.Exit(EXIT_INTERRUPTED)
    if session.failure is not None:
        _err(session.failure.line())
        if record:
            _err(f"kierki: the {len(results)} finished deal(s) are kept in {record}")
        raise typer.Exit(EXIT_FINDINGS)
    if results and rs.stopped_at_max_deals(len(results), results[-1].totals):
        warnings.append(
            (
                N_("the match stopped at max_deals ({deals} deals) before its until condition held"),
                {"deals": rs.max_deals},
            )
        )
    if text:  # a person reads them in the language in force; a program reads the JSON's English
        print(standings_text(results[-1].totals if results else [0] * rs.players, rs.players))
        for w, fields in warnings:  # on stderr, as the ruleset's lint warnings: stdout is the match
            _err(tr("warning: {warning}").format(warning=tr(w).format(**fields)))
        if person:
            print(
                tr("seed {seed} (kierki run {path} --seed {seed} plays these deals again)").format(
                    seed=seed, path=rs.path
                )
            )
    else:
        print(match_json(rs, seed, first_dealer, results, [w.format(**fields) for w, fields in warnings]))


def _check_output(path: Optional[str], option: str, folder: bool = False, names: Optional[str] = None) -> None:
    """An output option's path must take what kierki writes (exit 2 before any work otherwise)."""
    from .paths import OutputError, check_file, check_folder

    if not path:
        return
    try:
        check_folder(path, option, names) if folder else check_file(path, option)
    except OutputError as e:
        raise _usage(str(e))


def _keep_record(path: str, text: str) -> bool:
    """Write the record; False (and a message) when it cannot be written."""
    from .paths import OutputError, write_atomic

    try:
        write_atomic(path, text, "--record")
    except OutputError as e:
        _err(f"kierki: error: the record is not written: {e}")
        return False
    except OSError as e:
        _err(f"kierki: error: the record is not written: {path}: {e.strerror or e}")
        return False
    return True


def _fixed_deals(path: Optional[str], rs, types: Optional[str] = None):
    """``--deals FILE``: the match file's deals for this ruleset (None without the option)."""
    from .net.commands import CommandError, load_deals

    try:
        return load_deals(path, rs, types)
    except CommandError as e:
        _err(f"kierki: error: {e}" if e.code == EXIT_USAGE else str(e))
        raise typer.Exit(e.code)


def _fixed_record(rec: dict, fixed) -> dict:
    """A record of fixed deals says so: replay then takes each deal's contract from the deal."""
    if fixed is not None:
        rec["fixed_deals"] = True
    return rec


def _deals_entry(path: Optional[str], types: Optional[str] = None) -> Optional[dict]:
    """What a save header says of the match file a match plays (path, fingerprint, deal types)."""
    if not path:
        return None
    from .net.deals import fingerprint

    return {"deals": {"path": os.path.abspath(path), "fingerprint": fingerprint(path), "types": types}}


def _saved_deals(save: str, head: dict, rs):
    """The fixed deals a save file plays (None for shuffled deals); the file must be unchanged."""
    try:
        return _match_file_of(head, rs)
    except _MatchFileChanged as e:
        _err(f"{save}: error: the match file {e.args[0]!r} of this save file is missing or changed")
        raise typer.Exit(EXIT_FINDINGS)


class _MatchFileChanged(Exception):
    """The match file a save header names is missing or no longer the one it played."""


def _match_file_of(head: dict, rs):
    """The fixed deals a save header plays, or None; ``_MatchFileChanged`` when its match file
    is missing or changed (the session layer asks this of the front end: it reads no files)."""
    saved = head.get("deals")
    if not saved:
        return None
    from .net.deals import fingerprint

    path = str(saved.get("path") or "") if isinstance(saved, dict) else ""
    if not os.path.isfile(path) or fingerprint(path) != saved.get("fingerprint"):
        raise _MatchFileChanged(path)
    return _fixed_deals(path, rs, saved.get("types"))


def _json_dump(obj) -> str:

    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


@app.command()
def replay(
    record: str = typer.Argument(..., help="A kierki-record/1 file."),
    ruleset: str = typer.Option(..., "--ruleset", help="The ruleset the record was played under."),
    fmt: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text or json."),
) -> None:
    """Re-check every play of a record against a ruleset and print the scores."""

    from .record import RecordError, fingerprint_warning, read_record
    from .record import replay as do_replay
    from .report import contract_title, seat_name, title_width

    rs = _load_ruleset(ruleset)
    if not os.path.isfile(record):
        raise _usage(_no_file("record", record))
    try:
        rec = read_record(record)
    except RecordError as e:
        _err(str(e))
        raise typer.Exit(EXIT_FINDINGS)
    warning = fingerprint_warning(rs, rec, record)
    if warning:
        _err(warning)
    report = do_replay(rs, rec)
    if fmt == OutputFormat.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        n, width = rs.players, title_width(rs)
        print(f"deal  {'contract':<{width}}" + "".join(f"{seat_name(s, n):>7}" for s in range(n)))
        for i, d in enumerate(report.deals):
            pts = "".join(f"{s:>7}" for s in d["scores"]) if d["scores"] is not None else "  (refused)"
            c = rs.contracts.get(d["contract"]) if d["contract"] else None
            print(f"{i + 1:>4}  {contract_title(c) if c is not None else '(unknown)':<{width}}{pts}")
        print(f"{'totals':<{width + 6}}" + "".join(f"{t:>7}" for t in report.totals))
    for v in report.violations:
        _err(f"{record}: {v}")
    if not report.ok:
        raise typer.Exit(EXIT_FINDINGS)


@app.command()
def lint(
    paths: Optional[List[str]] = typer.Argument(None, help="Ruleset files or folders (every *.yaml below)."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail too."),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="No summary line (files, errors, warnings) after the findings."
    ),
    fmt: LintFormat = typer.Option(LintFormat.text, "--format", help="text, json, github or sarif."),
    explain: Optional[str] = typer.Option(
        None, "--explain", help="Explain a finding code (e.g. M601) with a bad and a good example."
    ),
    lang: Optional[str] = typer.Option(
        None,
        "--lang",
        help="Language of the text findings and summary: en or pl (default: KIERKI_LANG, else en); "
        "json, github and sarif stay English.",
    ),
) -> None:
    """Check rulesets and report every finding with its position."""
    from .i18n import set_language
    from .lint import lint_paths

    if lang is None:
        set_language(None)  # KIERKI_LANG, else English (as the plain call's path does)
    _speak(lang)

    if explain is not None:
        from .codes import explain as explain_code
        from .interpreter.extensions import load_plugins

        load_plugins()  # the codes of the phase modules named in KIERKI_PHASES

        text = explain_code(explain)
        if text is None:
            from .codes import codes_about, suggest

            named = codes_about(explain)
            if named:  # a topic asked about, and answered: not a mistake
                print(
                    f"codes about {explain!r}:\n"
                    + "".join(f"  {c.code} {c.title}\n" for c in named)
                    + "run `kierki lint --explain CODE` for one of them"
                )
                raise typer.Exit(EXIT_OK)
            hint = suggest(explain)
            raise _usage(
                f"unknown code {explain!r}; "
                + (f"{hint}; " if hint else "")
                + "the codes are listed in docs/lint-codes.md"
            )
        print(text, end="")
        raise typer.Exit(EXIT_OK)
    if not paths:
        raise _usage("give one or more ruleset files or folders (or --explain CODE)")

    code = lint_paths(paths, strict=strict, fmt=fmt.value, out=sys.stdout, err=sys.stderr, quiet=quiet)
    raise typer.Exit(code)


@app.command("explain")
def explain_cmd(
    ruleset: str = typer.Argument(..., help="The ruleset file."), lang: Optional[str] = _lang_option()
) -> None:
    """Print the rules of a ruleset as text a player can read."""
    from .explain import explain

    _speak(lang)
    print(explain(_load_ruleset(ruleset)), end="")


@app.command("diff")
def diff_cmd(
    a: str = typer.Argument(..., help="The first ruleset."),
    b: str = typer.Argument(..., help="The second ruleset."),
    lang: Optional[str] = _lang_option(),
) -> None:
    """List what changes at the table between two rulesets."""
    from .explain import diff

    _speak(lang)
    print(diff(_load_ruleset(a), _load_ruleset(b)), end="")


class Backend(str, Enum):
    local = "local"
    dask = "dask"


@app.command()
def simulate(
    ruleset: str = typer.Argument(..., help="The ruleset file."),
    games: int = typer.Option(100, "--games", help="How many matches."),
    players: str = typer.Option("random", "--players", help="Players per seat (rotated every match), or one for all."),
    seed: int = typer.Option(1, "--seed", help="Seed of the whole simulation."),
    workers: int = typer.Option(1, "--workers", help="Local worker processes."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local processes, or a Dask cluster."),
    address: Optional[str] = typer.Option(None, "--address", help="With --backend dask: the scheduler, HOST:PORT."),
    fmt: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text or json."),
    records: Optional[str] = typer.Option(None, "--records", help="Keep every match as a record in this folder."),
    html: Optional[str] = typer.Option(
        None, "--html", help="Also write a self-contained HTML report with plots (needs the plots extra)."
    ),
    csv: Optional[str] = typer.Option(
        None, "--csv", help="Also write one row per match and per deal to CSV files in this folder."
    ),
) -> None:
    """Play many matches and report points, intervals, per-contract figures, advantages and total checks."""
    from .analysis.summary import summarize
    from .analysis.text import text_report

    rs = _load_ruleset(ruleset)
    plan = _simulation_plan([rs], players, seed, games, workers, backend, address, records, html, csv)
    results, interrupted = _run_plan(plan)
    games_a = [g for (g,) in results.games]
    summary = summarize(rs, list(plan.names), games_a, results.measured and results.measured[0])
    summary["seed"] = seed
    summary["complete"] = not interrupted
    _print_summary(summary, fmt, text_report)
    _write_outputs(html, csv, plan, {"A": games_a}, [rs], summary)
    _interrupted_exit(interrupted, len(games_a), games)
    if not summary["declared_totals_hold"]:
        raise typer.Exit(EXIT_FINDINGS)


@app.command()
def compare(
    a: str = typer.Argument(..., help="Ruleset A (the reference)."),
    b: str = typer.Argument(..., help="Ruleset B (the house rule), with as many players as A."),
    games: int = typer.Option(200, "--games", help="How many matches of each ruleset (the same deals for both)."),
    players: str = typer.Option(
        "heuristic",
        "--players",
        help="Players per seat (rotated every match), or one for all; search for the seats that matter.",
    ),
    seed: int = typer.Option(1, "--seed", help="Seed of the whole comparison."),
    workers: int = typer.Option(1, "--workers", help="Local worker processes."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local processes, or a Dask cluster."),
    address: Optional[str] = typer.Option(None, "--address", help="With --backend dask: the scheduler, HOST:PORT."),
    fmt: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text or json."),
    html: Optional[str] = typer.Option(
        None, "--html", help="Also write a self-contained HTML report with plots (needs the plots extra)."
    ),
    csv: Optional[str] = typer.Option(
        None, "--csv", help="Also write one row per match and per deal to CSV files in this folder."
    ),
) -> None:
    """Play two rulesets on the same deals and report what differs, with 95% intervals."""
    from .analysis.summary import compare as compare_results
    from .analysis.text import compare_report

    rs_a, rs_b = _load_ruleset(a), _load_ruleset(b)
    if rs_a.players != rs_b.players:
        raise _usage(f"the rulesets need the same number of players ({rs_a.players} and {rs_b.players})")
    plan = _simulation_plan([rs_a, rs_b], players, seed, games, workers, backend, address, None, html, csv)
    results, interrupted = _run_plan(plan)
    result = compare_results(rs_a, rs_b, list(plan.names), results.games, results.measured)
    result["seed"] = seed
    result["complete"] = not interrupted
    _print_summary(result, fmt, compare_report)
    _write_outputs(
        html, csv, plan, {"A": [x for x, _ in results.games], "B": [y for _, y in results.games]}, [rs_a, rs_b], result
    )
    _interrupted_exit(interrupted, len(results.games), games)


def _simulation_plan(
    rulesets: list, players: str, seed: int, games: int, workers: int, backend, address, records, html, csv
):
    """Check the options of simulate/compare (usage errors before any work) and plan the run."""
    from .simrun import Plan

    n = rulesets[0].players
    names = _player_names(players, n)
    _bots_only(names)
    _players(",".join(names), n)
    _bounded(games=games, workers=workers, seed=seed)
    if backend == Backend.dask and not address:
        raise _usage("--backend dask needs --address HOST:PORT")
    if html:
        from .analysis.html import plots_missing

        missing = plots_missing()
        if missing:
            raise _usage(missing)
    from .analysis.csvio import FILES
    from .simrun import RECORD_FILES

    _check_output(html, "--html")
    _check_output(csv, "--csv", folder=True, names=FILES)
    _check_output(records, "--records", folder=True, names=RECORD_FILES)
    refs = tuple((os.path.abspath(rs.path), rs.fingerprint) for rs in rulesets)
    from .simulate import adopt

    for rs, (path, _) in zip(rulesets, refs):
        adopt(rs, path)  # loaded once: the workers do not load it again
    return Plan(refs, tuple(names), seed, games, workers, address if backend == Backend.dask else None, records)


def _bots_play(play):
    """``play()`` for a command where bots play matches: a rule that fails while playing (an
    X-code, a match that cannot go on) is a located message and exit 1."""
    from .expr import RuleRuntimeError
    from .interpreter.match import MatchError
    from .report import render_diagnostics

    try:
        return play()
    except RuleRuntimeError as e:
        _err(render_diagnostics([e.diagnostic]))
        raise typer.Exit(EXIT_FINDINGS)
    except MatchError as e:
        _err(f"kierki: error: {e}")
        raise typer.Exit(EXIT_FINDINGS)


def _run_plan(plan) -> tuple:
    """Play the plan; a rule that fails while playing is a located message and exit 1."""
    from .paths import OutputError
    from .simrun import run

    try:
        results, interrupted = _bots_play(lambda: run(plan))
    except typer.Exit:  # click's Exit is a RuntimeError too
        raise
    except OutputError as e:  # something took the place of the --records folder meanwhile
        _err(f"kierki: error: {e}")
        raise typer.Exit(EXIT_FINDINGS)
    except RuntimeError as e:
        _err(f"kierki: error: {e}")
        raise typer.Exit(EXIT_USAGE)
    if not results.games:
        _err("kierki: interrupted before any match finished")
        raise typer.Exit(EXIT_INTERRUPTED)
    return results, interrupted


def _print_summary(summary: dict, fmt, text) -> None:

    if fmt == OutputFormat.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        print(text(summary))


def _write_outputs(html, csv, plan, games: dict, rulesets: list, summary: dict) -> None:
    """The --csv folder and the --html report of simulate/compare (exit 1 if one cannot be written)."""
    from .paths import OutputError

    try:
        _write_files(html, csv, plan, games, rulesets, summary)
    except OutputError as e:
        _err(f"kierki: error: {e}")
        raise typer.Exit(EXIT_FINDINGS)
    except OSError as e:
        _err(f"kierki: error: cannot write {e.filename or 'the output'}: {e.strerror or e}")
        raise typer.Exit(EXIT_FINDINGS)


def _write_files(html, csv, plan, games: dict, rulesets: list, summary: dict) -> None:
    if csv:
        from .analysis.csvio import write_csv

        write_csv(csv, games, rulesets, plan)
        _err(f"kierki: CSV written to {csv}")
    if html:
        from .analysis.html import write_html

        write_html(html, games, rulesets, summary)
        _err(f"kierki: HTML report written to {html}")


def _interrupted_exit(interrupted: bool, finished: int, games: int) -> None:
    if interrupted:
        _err(f"kierki: interrupted after {finished} of {games} matches (the results above are for those)")
        raise typer.Exit(EXIT_INTERRUPTED)


@app.command()
def ladder(
    ruleset: str = typer.Argument(..., help="The ruleset file."),
    pairs: str = typer.Option(
        "search:heuristic,heuristic:random",
        "--pairs",
        help="A:B pairs to compare, comma-separated; a player's setting goes after its name as in --players (search:64:heuristic).",
    ),
    seeds: int = typer.Option(40, "--seeds", help="How many duplicate deal sets."),
    first_seed: int = typer.Option(1, "--first-seed", help="The first seed."),
    workers: int = typer.Option(1, "--workers", help="Matches played at once (processes)."),
) -> None:
    """Measure player strength: a two-player tournament per pair (duplicate deals), 95% intervals."""
    from .ladder import report

    _bounded(seeds=seeds, first_seed=first_seed, workers=workers)
    rs = _load_ruleset(ruleset)
    duels = [_pair(pair) for pair in pairs.split(",")]
    for a, b in duels:
        _bots_only([a, b])
        for name in (a, b):
            _players(name, rs.players)
    print(_bots_play(lambda: report(rs, duels, range(first_seed, first_seed + seeds), workers=workers)))


@app.command()
def tournament(
    ruleset: str = typer.Argument(..., help="The ruleset file."),
    players: str = typer.Option(
        ...,
        "--players",
        help="Two or more players, comma-separated, as in kierki run (built-in, plug-ins, exec:COMMAND).",
    ),
    seeds: int = typer.Option(10, "--seeds", help="How many duplicate deal sets each pair plays."),
    first_seed: int = typer.Option(1, "--first-seed", help="The first seed."),
    workers: int = typer.Option(1, "--workers", help="Matches played at once (processes)."),
    journal: Optional[str] = typer.Option(
        None,
        "--journal",
        help="A file of finished matches: a killed tournament started again with it goes on where it stopped.",
    ),
    sprt: Optional[str] = typer.Option(
        None,
        "--sprt",
        help="ELO0,ELO1[,ALPHA,BETA]: stop once the first two players are shown apart (default alpha = beta = 0.05).",
    ),
    bot_failure: str = typer.Option(
        "forfeit",
        "--bot-failure",
        help="Who plays an exec: bot's seat once the bot failed: forfeit (its first legal action every turn), "
        "or a player name.",
    ),
    html: Optional[str] = typer.Option(
        None, "--html", help="Also write the table with plots to this HTML file (needs matplotlib)."
    ),
    fmt: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text or json."),
) -> None:
    """Round-robin of N players in duplicate form: ratings, pairwise differences, SPRT (docs/bots.md)."""
    from .tournament import JournalError
    from .tournament import run as run_tournament
    from .tournament import text as tournament_text

    rs = _load_ruleset(ruleset)
    names = [x.strip() for x in players.split(",") if x.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise _usage("--players needs two or more different players")
    _bounded(seeds=seeds, first_seed=first_seed)  # (seeds are 63-bit, as every command's: limits.py)
    if not 1 <= workers <= 64:
        raise _usage("--workers must be 1..64")
    _bots_only(names)
    for name in names:
        _players(name, rs.players)
    test = _sprt_setting(sprt) if sprt is not None else None
    _check_output(journal, "--journal")
    _check_output(html, "--html")
    if html:
        from .analysis.html import plots_missing

        if plots_missing():
            raise _usage(plots_missing())
    if bot_failure != "forfeit":
        _bots_only([bot_failure])
        _players(bot_failure, rs.players)

    def progress(done: int, total: int) -> None:
        _err(f"tournament: {done}/{total} matches")

    try:
        table = _bots_play(
            lambda: run_tournament(
                rs,
                names,
                range(first_seed, first_seed + seeds),
                workers=workers,
                journal=journal,
                progress=progress,
                sprt=test,
                on_failure=bot_failure,
            )
        )
    except typer.Exit:
        raise
    except JournalError as e:  # a --journal that is not this tournament's: a bad input file, never written over
        _err(str(e))
        raise typer.Exit(EXIT_FINDINGS)
    except RuntimeError as e:  # openskill not installed
        _err(f"kierki: error: {e}")
        raise typer.Exit(EXIT_USAGE)
    print(_json_dump(table), end="") if fmt == OutputFormat.json else print(tournament_text(table))
    if html:
        _tournament_page(html, table, tournament_text(table))


def _tournament_page(path: str, table: dict, text: str) -> None:
    from .analysis.tourney import render
    from .record import write_atomic

    try:
        write_atomic(path, render(table, text))
    except OSError as e:
        _err(f"kierki: error: cannot write {e.filename or path}: {e.strerror or e}")
        raise typer.Exit(EXIT_FINDINGS)
    _err(f"kierki: HTML report written to {path}")


def _sprt_setting(text: str) -> tuple:
    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        values = []
    if len(values) == 2:
        values += [0.05, 0.05]
    if (
        len(values) != 4
        or not all(-1000 <= v <= 1000 for v in values[:2])  # (nan and infinity too: no test)
        or values[0] >= values[1]
        or not all(0 < v < 0.5 for v in values[2:])
    ):
        raise _usage(
            "--sprt expects ELO0,ELO1[,ALPHA,BETA] with -1000 <= ELO0 < ELO1 <= 1000 and 0 < ALPHA, BETA < 0.5"
        )
    return tuple(values)


def _bots_only(names: list) -> None:
    """Simulations and ladders are played by bots: a person is a usage error (exit 2)."""
    if any(name.partition(":")[0] == "human" for name in names):
        raise _usage("a person cannot sit at a simulation or a ladder; play with kierki run --human SEAT")


def _pair(text: str) -> tuple:
    """``A:B`` of two player specs written as in ``--players`` (``search:64:heuristic`` is
    search with 64 samples against heuristic): a part that names a player starts the next
    player, any other part is the previous player's setting (``@`` is accepted for ``:``)."""
    from .players.base import player_names

    known = player_names()
    specs: list = []
    for part in text.strip().replace("@", ":").split(":"):
        if part in known or not specs:
            specs.append(part)
        else:
            specs[-1] += ":" + part
    first = specs[0].split(":")[0] if specs else ""
    if first and first not in known:  # a typo: every later part was read as its settings
        raise _usage(f"--pairs: unknown player {first!r} in {text!r} (known: {', '.join(sorted(known))})")
    if len(specs) != 2 or not all(specs):
        raise _usage(f"--pairs expects A:B with each player as in --players (search:64:heuristic), got {text!r}")
    return specs[0], specs[1]


@app.command()
def schema() -> None:
    """Print the JSON Schema of the ruleset format."""

    from .ruleset.format import json_schema

    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))


@app.command()
def serve(
    ruleset: str = typer.Argument(..., help="The ruleset (e.g. rulesets/games/sik.yaml)."),
    deals: Optional[str] = typer.Option(
        None, "--deals", help="The match file: fixed deals, 5 lines each (the SIK format)."
    ),
    port: int = typer.Option(0, "--port", help="TCP port (0: the system picks one and it is printed)."),
    host: Optional[str] = typer.Option(
        None, "--host", help="Address to listen on (default: every interface, IPv4 and IPv6)."
    ),
    seat: Optional[List[str]] = typer.Option(
        None, "--seat", help="Fill a seat with a kierki-dsl bot: N=search, E=heuristic, S=random (repeatable)."
    ),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the bots (and of the deals without --deals)."),
    save: Optional[str] = typer.Option(None, "--save", help="Keep the match durably in this save file."),
    resume: bool = typer.Option(
        False, "--resume", help="Continue the match kept in --save FILE (after a crash); clients reconnect."
    ),
    force: bool = typer.Option(
        False, "--force", help="With --save: replace the file even when it holds an unfinished match."
    ),
    timeout: float = typer.Option(
        5.0, "--timeout", help="Seconds to wait for IAM, and before asking a silent player again."
    ),
    deal_types: Optional[str] = typer.Option(
        None,
        "--deal-types",
        help="Which contract each SIK deal type plays, e.g. 1=no_tricks,2=no_hearts (default: type t is the t-th schedule entry).",
    ),
) -> None:
    """Host a table over the SIK Kierki protocol; print the protocol report; exit when the match is over."""
    _net_command(
        lambda: _serve_command(ruleset, deals, port, host, seat or [], seed, save, resume, timeout, deal_types, force)
    )


def _serve_command(ruleset, deals, port, host, seats, seed, save, resume, timeout, deal_types, force) -> int:
    from .net.commands import serve as do_serve

    _bounded(port=port, timeout=timeout, seed=seed)
    _check_output(save, "--save")
    return do_serve(_load_ruleset(ruleset), deals, host, port, seats, seed, save, resume, timeout, deal_types, force)


@app.command()
def join(
    host: str = typer.Argument(..., help="The server's host name or address."),
    port: int = typer.Argument(..., help="The server's port."),
    seat: str = typer.Option(..., "--seat", help="The seat to claim: N, E, S or W."),
    player: str = typer.Option(
        "heuristic", "--player", help="Who plays: random, heuristic, search, search:0.2s, pimc, exec:COMMAND, or human."
    ),
    ruleset: str = typer.Option(
        "", "--ruleset", help="The rules the server plays (default: the shipped games/sik.yaml)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the bot (as kierki run --seed, for the same decisions)."),
    ipv4: bool = typer.Option(False, "-4", help="IPv4 only."),
    ipv6: bool = typer.Option(False, "-6", help="IPv6 only."),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds to wait for a connection."),
    retry: float = typer.Option(
        0.0,
        "--retry",
        help="If the connection is lost mid-match, keep trying to reconnect to the seat for this many seconds.",
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No protocol report (the default for a human player)."),
    deal_types: Optional[str] = typer.Option(
        None,
        "--deal-types",
        help="Which contract each deal type of the server plays, e.g. 1=no_tricks (default: type t is the t-th schedule entry).",
    ),
    lang: Optional[str] = _lang_option(),
) -> None:
    """Sit a kierki-dsl bot (or yourself) at a SIK server."""
    _speak(lang)
    _net_command(
        lambda: _join_command(host, port, seat, player, ruleset, seed, ipv4, ipv6, timeout, quiet, retry, deal_types)
    )


def _join_command(host, port, seat, player, ruleset, seed, ipv4, ipv6, timeout, quiet, retry, deal_types) -> int:
    from .net.client import join as do_join
    from .net.commands import load_types, parse_seat
    from .players.base import make_player

    if ipv4 and ipv6:
        raise _usage("-4 and -6 exclude each other")
    _bounded(port_arg=port, timeout=timeout, retry=retry, seed=seed)
    from .shipped import shipped_ruleset

    path = ruleset or shipped_ruleset("games/sik.yaml")
    rs = _load_ruleset(path)
    try:
        bot = make_player(player)
    except KeyError as e:
        raise _usage(str(e.args[0]))
    if player == "human":
        cast("HumanPlayer", bot).ruleset = rs  # what make_player("human") makes
    family = 4 if ipv4 else 6 if ipv6 else 0
    return do_join(
        host,
        port,
        parse_seat(seat),
        bot,
        rs,
        seed,
        family,
        timeout,
        report=not (quiet or player == "human"),
        retry=max(0.0, retry),
        types=load_types(rs, deal_types),
    )


@app.command()
def lsp() -> None:
    """Serve the ruleset language server over stdio (needs the lsp extra: pip install 'kierki-dsl[lsp]')."""
    try:
        from .lsp.server import main as serve
    except ImportError:
        raise _usage("kierki lsp needs pygls: pip install 'kierki-dsl[lsp]'") from None
    serve()


@app.command()
def web(
    port: int = typer.Option(8000, "--port", help="TCP port (0: the system picks one; the address is printed)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    db: str = typer.Option("kierki-web.sqlite3", "--db", help="A SQLite file, or a postgresql:// URL (needs psycopg)."),
    rulesets: Optional[List[str]] = typer.Option(
        None, "--rulesets", help="A folder of more rulesets to offer (repeatable)."
    ),
    max_tables: int = typer.Option(100, "--max-tables", help="Tables live at once."),
    idle: float = typer.Option(
        1800.0, "--idle", help="Seconds before a table nobody is connected to is put away (it stays stored)."
    ),
    bot_delay: float = typer.Option(0.6, "--bot-delay", help="Seconds a bot waits before each action."),
    keep_days: float = typer.Option(30.0, "--keep-days", help="Days a finished or closed table is kept (0: forever)."),
    creates: float = typer.Option(
        20.0, "--creates-per-minute", help="Tables created and uploads checked per client address."
    ),
    unopened: float = typer.Option(
        600.0, "--unopened", help="Seconds before a table none of whose links was opened is deleted."
    ),
    per_address: int = typer.Option(10, "--tables-per-address", help="Live tables created from one client address."),
    proxies: Optional[List[str]] = typer.Option(
        None, "--proxy", help="Address of a reverse proxy whose X-Forwarded-For is believed (repeatable)."
    ),
    bot: Optional[List[str]] = typer.Option(
        None,
        "--bot",
        help="Offer another bot to table creators: NAME=PLAYER, e.g. mybot='exec:./mybot --level 3' or strong=search:1s (repeatable).",
    ),
) -> None:
    """Serve tables in the browser: any ruleset, people and bots; print the address."""
    _web_command(
        port,
        host,
        db,
        rulesets or [],
        max_tables,
        idle,
        bot_delay,
        keep_days,
        creates,
        {"unopened_seconds": unopened, "tables_per_address": per_address, "proxies": tuple(proxies or ())},
        _offered_bots(bot or []),
    )


def _offered_bots(specs: list) -> dict:
    """``--bot NAME=PLAYER`` options as config settings (each player made once to check it)."""
    from .players.base import make_player
    from .web.config import BOTS

    offered: dict = {}
    for spec in specs:
        name, eq, player = spec.partition("=")
        name = name.strip()
        if not eq or not player.strip() or not re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", name):
            raise _usage(f"--bot takes NAME=PLAYER with a lower-case name (e.g. mybot=exec:./mybot), got {spec!r}")
        if name in BOTS or name == "human" or name in offered:
            raise _usage(f"--bot {name}: the name is taken (built-in bots: {', '.join(BOTS)}; human)")
        _bots_only([player.strip()])
        try:
            getattr(make_player(player.strip()), "close", lambda: None)()
        except KeyError as e:
            raise _usage(f"--bot {name}: {e.args[0]}")
        offered[name] = player.strip()
    return {"bots": BOTS + tuple(offered), "bot_specs": tuple(offered.items())}


def _web_command(
    port, host, db, rulesets, max_tables, idle, bot_delay, keep_days, creates, limits: dict, bots: Optional[dict] = None
) -> None:
    from .web.server import missing_extra

    problem = missing_extra()
    if problem:
        _err(f"kierki: error: {problem}")
        raise typer.Exit(EXIT_USAGE)
    _bounded(
        port=port,
        max_tables=max_tables,
        idle=idle,
        bot_delay=bot_delay,
        keep_days=keep_days,
        creates_per_minute=creates,
    )
    if limits["unopened_seconds"] <= 0 or limits["tables_per_address"] < 1:
        raise _usage("--unopened must be positive and --tables-per-address at least 1")
    for proxy in limits["proxies"]:
        if _network(proxy) is None:
            raise _usage(f"--proxy takes an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8), got {proxy!r}")
    limits["proxies"] = tuple(_network(p) for p in limits["proxies"])
    for folder in rulesets:
        if not os.path.isdir(folder):
            raise _usage(f"no such folder: {folder}")
    from .web.config import WebConfig
    from .web.server import serve as web_serve
    from .web.storage import Storage, StorageError

    config = WebConfig(
        db=db,
        rulesets=tuple(os.path.abspath(f) for f in rulesets),
        max_tables=max_tables,
        idle_seconds=idle,
        bot_delay=bot_delay,
        keep_days=keep_days,
        creates_per_minute=creates,
        **limits,
        **(bots or {}),
    )
    try:
        Storage(db).close()  # a bad URL or an unwritable file is a usage error, before listening
    except (StorageError, Exception) as e:  # a URL is not printed: it may hold a password
        shown = "" if "://" in db else f" {db!r}"
        _err(f"kierki: error: cannot open the database{shown}: {e}")
        raise typer.Exit(EXIT_USAGE)
    try:
        web_serve(config, host, port)
    except OSError as e:
        _err(f"kierki: error: cannot listen on {host}:{port}: {e.strerror or e}")
        raise typer.Exit(EXIT_USAGE)
    except KeyboardInterrupt:
        pass


def _network(text: str) -> Optional[str]:
    """An IP address or network as a network (``10.0.0.1`` -> ``10.0.0.1/32``), or None."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        return None


def _net_command(work) -> None:
    """Run serve/join: one-line messages and their exit codes for every expected failure."""
    from .net.commands import CommandError

    try:
        code = work()
    except CommandError as e:
        _err(f"kierki: error: {e}" if e.code == EXIT_USAGE else str(e))
        raise typer.Exit(e.code)
    except KeyboardInterrupt:
        _err("kierki: interrupted")
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(code)


def _click_exceptions():
    """Click's exception classes, vendored inside newer typer releases."""
    return _CLICK_EXCEPTIONS


def _show_cut(e) -> None:
    """Click's usage message, with any value over 80 characters cut (a 5000-digit number is not echoed)."""

    from .diagnostics import QUOTE_LIMIT

    text = io.StringIO()
    e.show(file=text)
    sys.stderr.write(
        re.sub(
            r"[^\s']{%d,}" % (QUOTE_LIMIT + 1),
            lambda m: f"{m.group()[:QUOTE_LIMIT]}... ({len(m.group())} characters)",
            text.getvalue(),
        )
    )


def main(argv: Optional[list] = None) -> int:
    """Run the typer application; turn every failure into a message and an exit code.

    The ``kierki`` command starts in ``entry.main``, which sends plain lint calls past typer.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        rv = app(args=args, prog_name="kierki", standalone_mode=False)
        return interrupted_exit(rv) if isinstance(rv, int) else EXIT_OK
    except typer.Exit as e:
        return interrupted_exit(e.exit_code)
    except SystemExit as e:  # typer ends a command whose reader went away with exit 1: 141, as documented
        if isinstance(e.__context__, BrokenPipeError):
            return failure_exit(e.__context__, debug=False)
        raise
    except (Exception, KeyboardInterrupt) as e:  # click usage errors and real bugs
        if isinstance(e, typer.Abort):
            e = KeyboardInterrupt()
        click_exception = getattr(_click_exceptions(), "ClickException", ())
        if isinstance(e, click_exception):
            _show_cut(e)
            return EXIT_USAGE
        return failure_exit(e, debug="--debug" in args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
