"""The message catalogue, kept with Babel (build and test time only; the package reads the
compiled catalogue with the standard library's ``gettext``).

    python tools/i18n.py check     # every message id translated, the compiled catalogue up to date
    python tools/i18n.py update    # new message ids of the code added to pl.po (untranslated), gone ones dropped
    python tools/i18n.py compile   # pl.po -> kierki_dsl/i18n/locale/pl/LC_MESSAGES/kierki.mo

Message ids are marked in Python with ``tr``, ``trn`` (singular, plural), ``N_``, ``R_`` and ``L_`` (a
finding's message), and in the
table page's script with ``t``.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kierki_dsl"
PO = PACKAGE / "i18n" / "pl.po"
MO = PACKAGE / "i18n" / "locale" / "pl" / "LC_MESSAGES" / "kierki.mo"
#: The pages' scripts whose words are marked with ``t`` (``common.js`` defines it).
SCRIPTS = ("common", "index", "match", "table", "admin")
#: Where message ids are marked, and by which functions: Python by ``tr``, ``trn`` and ``N_``, the
#: pages' scripts by ``t``.
SOURCES = [
    (
        [(f"**/static/{page}.js", "javascript") for page in SCRIPTS] + [("**.js", "ignore"), ("**.py", "ignore")],
        {"t": None},
    ),
    ([("**.py", "python"), ("**.js", "ignore")], {"tr": None, "N_": None, "R_": None, "L_": None, "trn": (1, 2)}),
]


PAGES = [PACKAGE / "web" / "static" / f"{page}.html" for page in ("index", "match", "table", "admin")]
#: An element of a page whose text the page's script translates (``<h2 data-t>Your hand</h2>``).
MARKED = re.compile(r"<\w+[^>]*\sdata-t[\s>][^<]*?(?<=>)([^<]+)<")


#: Shipped rulesets whose sentences (description, rules' reasons) have their Polish words in the
#: catalogue: those whose text the golden tests fingerprint (a ruleset's own ``words`` block would
#: change it). Every other ruleset gives its Polish in its ``words`` block (docs/polish.md).
RULESETS = [
    ROOT / "rulesets" / "kierki_standard.yaml",
    ROOT / "rulesets" / "variants" / "jacks_only.yaml",
    ROOT / "rulesets" / "variants" / "declarer_chooses_negatives.yaml",
]
RULESET_TEXTS = ("description", "lead_ban_reason", "reason")


def _ruleset_texts(node):
    """The sentences a ruleset's author wrote (its description, its rules' reasons), anywhere in it."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in RULESET_TEXTS and isinstance(value, str):
                yield " ".join(value.split())
            else:
                yield from _ruleset_texts(value)
    elif isinstance(node, list):
        for item in node:
            yield from _ruleset_texts(item)


def extracted() -> Catalog:
    """The message ids marked in the code and pages, each with where it stands."""
    cat = Catalog(project="kierki-dsl", domain="kierki")
    for methods, keywords in SOURCES:
        for path, line, message, comments, _ in extract_from_dir(
            str(PACKAGE), methods, keywords=keywords, comment_tags=("i18n:",), strip_comment_tags=True
        ):
            cat.add(message, locations=[(f"kierki_dsl/{path}", line)], auto_comments=comments)
    for ruleset in RULESETS:
        for text in _ruleset_texts(yaml.safe_load(ruleset.read_text(encoding="utf-8"))):
            cat.add(text, locations=[(str(ruleset.relative_to(ROOT)), 0)])
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in MARKED.finditer(text):
            cat.add(m.group(1), locations=[(str(page.relative_to(ROOT)), text.count("\n", 0, m.start()) + 1)])
    return cat


def polish() -> Catalog:
    """The Polish catalogue as written (``pl.po``)."""
    with open(PO, "rb") as f:
        return read_po(f, locale="pl")


def compiled(cat: Catalog) -> bytes:
    """``cat`` compiled to the bytes of a ``.mo`` file."""
    out = io.BytesIO()
    write_mo(out, cat)
    return out.getvalue()


def missing(code: Catalog, po: Catalog) -> list:
    """The message ids of the code with no Polish words (absent, empty or fuzzy in ``pl.po``)."""
    out = []
    for m in code:
        if not m.id:
            continue
        t = po.get(m.id)
        words = t.string if t is not None else None
        empty = not words or (isinstance(words, tuple) and not all(words))
        if t is None or empty or t.fuzzy:
            out.append(m.id)
    return out


def update() -> None:
    po = polish() if PO.exists() else Catalog(locale="pl", project="kierki-dsl", domain="kierki")
    po.update(extracted(), no_fuzzy_matching=True)
    po.obsolete.clear()
    with open(PO, "wb") as f:
        write_po(f, po, width=120, sort_output=False, omit_header=False)


def compile_mo() -> None:
    MO.parent.mkdir(parents=True, exist_ok=True)
    MO.write_bytes(compiled(polish()))


def check() -> int:
    gaps = missing(extracted(), polish())
    stale = not MO.exists() or MO.read_bytes() != compiled(polish())
    for m in gaps:
        print(f"untranslated: {m!r}")
    if stale:
        print(f"{MO.relative_to(ROOT)} is not {PO.relative_to(ROOT)} compiled: run python tools/i18n.py compile")
    return 1 if gaps or stale else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_mo()
    else:
        sys.exit(check())
