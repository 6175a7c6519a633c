"""Moved to ``kierki_dsl.spec.yamlsafe``; this name stays an alias of that very module (the
same object, so patching either patches both) for code written before the move. New code
imports ``kierki_dsl.spec.yamlsafe``: the layer contract (``pyproject.toml``) forbids the
engine to import ``kierki_dsl.ruleset``."""
import sys

from ..spec import yamlsafe

sys.modules[__name__] = yamlsafe
