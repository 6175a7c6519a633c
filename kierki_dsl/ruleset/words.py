"""A ruleset's own sentences in another language: the optional top-level ``words`` block.

.. code-block:: yaml

    words:
      pl:
        "hearts may not be led until a heart has been played": nie wolno wychodzić w kiery, dopóki kier nie padł

Under a language (``pl``) each key is a sentence the ruleset says -- its description, a
contract's description, a rule's reason -- written as in the ruleset (spaces and line breaks
do not count), and its value what a person reading that language is told instead: in
``kierki explain``, at the terminal and at the web table (``Ruleset.words``, read by
``i18n.tr`` inside ``i18n.using(lang, rs.words)``). A variant inherits its base's words and
adds or replaces its own. Lint: S204 for a language there are no words for, M650 for a
sentence the ruleset does not say (a typo, or English changed since).
"""

from __future__ import annotations

import os

from ..i18n import DEFAULT, L_, LANGUAGES
from ..spec.yamlsafe import Scalar


def _plain(text: str) -> str:
    return " ".join(str(text).split())


def words_of(spec) -> dict:
    """``{language: {sentence: its words}}`` of a validated ruleset (empty without ``words``)."""
    return {
        lang: {_plain(k): _plain(v) for k, v in (said or {}).items()}
        for lang, said in (spec.words or {}).items()
        if lang in LANGUAGES and lang != DEFAULT
    }


def check_words(bctx) -> None:
    """S204: a language with no words in the package; M650: words for a sentence not in the ruleset."""
    said = {
        _plain(node.value)
        for where, node in bctx.nodes.items()
        if where[:1] != ("words",) and isinstance(node, Scalar) and not where[-1:] == ("$key",)
    }
    languages = [w[1] for w in bctx.nodes if len(w) == 2 and w[0] == "words"]
    others = [lang for lang in LANGUAGES if lang != DEFAULT]
    for lang in languages:
        if lang not in others:
            bctx.error(
                ("words", lang, "$key"),
                "S204",
                L_(
                    "words for {lang!r}: the only language besides English is {others}",
                    lang=lang,
                    others=", ".join(others),
                ),
                L_("the sentences of the ruleset are its English words; give another language's under its code (pl)"),
            )
            continue
        for w in bctx.nodes:
            if len(w) != 4 or w[:2] != ("words", lang) or w[3] != "$key" or _plain(w[2]) in said:
                continue
            if os.path.abspath(bctx.locate(w)[0]) == os.path.abspath(bctx.path):  # a base's words: its own business
                bctx.warning(
                    w,
                    "M650",
                    L_("words for a sentence the ruleset does not say: {w!r}", w=_plain(w[2])[:80]),
                    L_("write the sentence exactly as the ruleset says it (its description, a rule's reason)"),
                    advise=False,
                )


__all__ = ["check_words", "words_of"]
