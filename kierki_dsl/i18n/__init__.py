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
import re
import string
from typing import Iterator, Optional, overload

DOMAIN = "kierki"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
#: The languages there are words for; the first is the language of the message ids.
LANGUAGES = ("en", "pl")
DEFAULT = "en"

_CHOSEN: contextvars.ContextVar[Optional[str]] = contextvars.ContextVar("kierki_lang", default=None)
#: The words of the ruleset being shown, ``{language: {sentence: words}}`` (its ``words`` block).
_AUTHORED: contextvars.ContextVar[Optional[dict]] = contextvars.ContextVar("kierki_words", default=None)


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
def using(lang: Optional[str], words: Optional[dict] = None) -> Iterator[str]:
    """Speak ``lang`` inside the block (an unknown or missing one: the language in force), with
    ``words`` (a ruleset's ``words``: ``{language: {sentence: words}}``) for its own sentences."""
    token = _CHOSEN.set(known(lang) or language())
    said = _AUTHORED.set(words if words is not None else _AUTHORED.get())
    try:
        yield _CHOSEN.get() or DEFAULT
    finally:
        _AUTHORED.reset(said)
        _CHOSEN.reset(token)


@functools.lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the message ids themselves)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True)


def tr(message: str) -> str:
    """``message`` (an English message id) in the language in force; a ruleset's own sentence
    (its description, a rule's reason) from the words of the ruleset shown (``using``), or, for
    some shipped rulesets, from the catalogue too."""
    if not message:
        return message
    lang = language()
    words = translations(lang).gettext(message)
    if words is message and lang != DEFAULT:
        own = (_AUTHORED.get() or {}).get(lang)
        if own:
            return own.get(" ".join(message.split()), message)
    return words


def trn(singular: str, plural: str, n: int) -> str:
    """The singular or plural message for ``n`` in the language in force (Polish has three forms)."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` as a message id read later through ``tr`` (a class attribute, a table)."""
    return message


#: The English sentences with fields (``{bid}``) reasons are built from (``R_``), each with the
#: pattern that reads one back; the most literal first (a general sentence is the last resort).
_REASONS: dict = {}
_ORDER: list = []


def R_(template: str) -> str:
    """Mark ``template`` as the English words of a reason, filled in with ``.format``: the reason
    stays English wherever it travels (records, logs, protocols) and ``said`` words it in the
    language in force where a person reads it."""
    if template not in _REASONS:
        _REASONS[template] = re.compile(
            "".join(f"(?P<{field}>.+?)" if field else re.escape(literal) for literal, field in _parts(template)),
            re.S,
        )
        _ORDER[:] = sorted(_REASONS, key=lambda t: -len(re.sub(r"\{\w+\}", "", t)))
    return template


def _parts(template: str):
    """``(literal, "")`` and ``("", field)`` pieces of ``template``, in order."""
    for literal, field, _, _ in string.Formatter().parse(template):
        if literal:
            yield literal, ""
        if field:
            yield "", field


@overload
def said(text: str) -> str: ...
@overload
def said(text: None) -> None: ...
@overload
def said(text: Optional[str]) -> Optional[str]: ...
def said(text: Optional[str]) -> Optional[str]:
    """A reason (or any English message) in the language in force: its own message id's words, else
    the words of the reason sentence (``R_``) it was filled from, each field said in turn."""
    if not text or language() == DEFAULT:
        return text
    return _said(text, 3)


def _said(text: str, depth: int) -> str:
    words = tr(text)
    if words != text or depth == 0:
        return words
    for template in tuple(_ORDER):  # another thread may be adding a sentence
        found = _REASONS[template].fullmatch(text)
        if found is not None:
            fields = {k: _said(v, depth - 1) for k, v in found.groupdict().items()}
            return tr(template).format(**fields)
    return text


class Filled(str):
    """A finding's English text that remembers the sentence and the fields it was filled from
    (``L_``): it is, and compares as, the English text wherever it goes (a record, JSON, the
    editor's diagnostics); ``finding_said`` words it where a person reads it."""

    template: str
    fields: dict
    parts: tuple = ()  # L_join's: the sentences joined, each said in turn

    def __reduce__(self):  # to a worker and back: its fields as plain values
        plain = (str, int, float, bool, type(None))
        fields = {k: v if isinstance(v, plain) else str(v) for k, v in self.fields.items()}
        return _filled, (str(self), self.template, fields, self.parts)


def _filled(text: str, template: str, fields: dict, parts: tuple) -> "Filled":
    out = Filled(text)
    out.template, out.fields, out.parts = template, fields, parts
    return out


def L_(template: str, /, **fields) -> str:
    """A finding's message (or hint) in English: ``template`` filled in with ``fields`` (as
    ``str.format`` does, ``{name!r}`` and ``{n:,}`` too). The message stays English in the
    finding (JSON, SARIF, the editor's); ``finding_said`` words it in the language in force where
    a person reads it. Only the sentence is translated: a field (a name, a number, an expression)
    is shown as it was filled in, unless it is itself a sentence marked with ``L_``. A sentence
    without fields is the template itself (braces in it are text)."""
    text = Filled(template.format(**fields) if fields else template)
    text.template, text.fields = template, fields
    return text


def L_join(separator: str, items) -> str:
    """``separator.join(items)``, each item (a sentence marked with ``L_``) said in turn."""
    items = tuple(items)
    text = Filled(separator.join(items))
    text.template, text.fields, text.parts = separator, {}, items
    return text


def finding_said(text: Optional[str]) -> str:
    """A finding's message, hint or note in the language in force: the sentence it was filled
    from (``L_``) in that language, its fields as they were filled in (a field that is itself a
    marked sentence said in turn). A text not filled from a marked sentence is shown as it is:
    it is never guessed at."""
    if not text:
        return text or ""
    if not isinstance(text, Filled) or language() == DEFAULT:
        return text
    if text.parts:
        return text.template.join(finding_said(p) for p in text.parts)
    words = translations(language()).gettext(text.template)
    if not text.fields:
        return words
    fields = {k: finding_said(v) if isinstance(v, Filled) else v for k, v in text.fields.items()}
    try:
        return words.format(**fields)
    except (KeyError, IndexError, ValueError):  # Polish words that do not fit their English: the English
        return text


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


__all__ = [
    "LANGUAGES",
    "L_",
    "L_join",
    "N_",
    "R_",
    "Filled",
    "finding_said",
    "said",
    "accepted",
    "catalogue",
    "known",
    "language",
    "set_language",
    "tr",
    "trn",
    "using",
]
