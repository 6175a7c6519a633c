"""The language a person reads: English or Polish, from one message catalogue.

Every sentence a person reads at the terminal, in ``kierki explain`` and on the table page is
an English message id marked in the code (``tr("Your hand ({seat}):")``, ``N_`` where a message
is named before it is read); its Polish form lives in ``kierki_dsl/i18n/pl.po``, compiled to the
``.mo`` catalogue shipped in the package (``python tools/i18n.py compile`` writes it; a test
holds it up to date and every message translated). At run time only the standard library's
``gettext`` reads it.

The language is chosen by ``--lang``, else the ``KIERKI_LANG`` environment variable, else
English; a web table's seat reads its browser's (``Accept-Language``, or the page's switch).
It is a context variable, so each web connection speaks its own language (``using``).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import os
from typing import Iterator, Optional

DOMAIN = "kierki"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
#: The languages there are words for; the first is the language of the message ids.
LANGUAGES = ("en", "pl")
DEFAULT = "en"

_CHOSEN: contextvars.ContextVar[Optional[str]] = contextvars.ContextVar("kierki_lang", default=None)


def known(text: Optional[str]) -> Optional[str]:
    """The language ``text`` names (``pl``, ``pl_PL.UTF-8``, ``PL-pl``, ``en``), or None."""
    t = (text or "").strip().lower().replace("_", "-")
    code = t.split("-")[0].split(".")[0]
    return code if code in LANGUAGES else None


def language() -> str:
    """The language in force: chosen here (``set_language``/``using``), else ``KIERKI_LANG``, else English."""
    return _CHOSEN.get() or known(os.environ.get("KIERKI_LANG")) or DEFAULT


def set_language(lang: Optional[str]) -> str:
    """Choose the language for what follows (``None``: back to ``KIERKI_LANG`` or English); the
    language chosen. ``ValueError`` for a language there are no words for."""
    if lang is None:
        _CHOSEN.set(None)
        return language()
    code = known(lang)
    if code is None:
        raise ValueError(f"no words for the language {lang!r} (one of {', '.join(LANGUAGES)})")
    _CHOSEN.set(code)
    return code


@contextlib.contextmanager
def using(lang: Optional[str]) -> Iterator[str]:
    """Speak ``lang`` inside the block (an unknown or missing one: the language in force)."""
    token = _CHOSEN.set(known(lang) or language())
    try:
        yield _CHOSEN.get() or DEFAULT
    finally:
        _CHOSEN.reset(token)


@functools.lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the message ids themselves)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)


def tr(message: str) -> str:
    """``message`` (an English message id) in the language in force; a sentence of a shipped
    ruleset (its description, a rule's reason) is a message id too."""
    return translations(language()).gettext(message) if message else message


def trn(singular: str, plural: str, n: int) -> str:
    """The singular or plural message for ``n`` in the language in force (Polish has three forms)."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` as a message id read later through ``tr`` (a class attribute, a table)."""
    return message


def accepted(header: Optional[str]) -> str:
    """The language to speak to a browser sending ``Accept-Language: header`` (by its weights;
    English when it names none there are words for)."""
    best, weight = DEFAULT, -1.0
    for part in (header or "")[:512].split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = known(name)
        if code is not None and q > weight:
            best, weight = code, q
    return best


def catalogue(lang: str) -> dict:
    """Every message of ``lang`` as ``{message id: words}`` (empty for English): what the table
    page's ``t("...")`` reads."""
    found = translations(known(lang) or DEFAULT)
    table = getattr(found, "_catalog", {})
    return {k: v for k, v in table.items() if isinstance(k, str) and k}


__all__ = ["LANGUAGES", "N_", "accepted", "catalogue", "known", "language", "set_language", "tr", "trn", "using"]
