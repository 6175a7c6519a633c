"""Moved to ``kierki_dsl.spec.schema``; this name stays an alias of that very module (the
same object, so patching either patches both) for code written before the move. New code
imports ``kierki_dsl.spec.schema``: the layer contract (``pyproject.toml``) forbids the
engine to import ``kierki_dsl.ruleset``."""
import sys

from ..spec import schema

sys.modules[__name__] = schema
