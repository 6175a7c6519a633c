"""Where the rulesets shipped with kierki-dsl are, in a checkout and in an installed wheel.

A wheel carries them as package data, ``kierki_dsl/rulesets/`` (``setup.py`` copies the
repository's ``rulesets/`` there when it builds); a checkout or an editable install reads the
repository's ``rulesets/`` folder itself, so editing a ruleset there needs no reinstall."""
from __future__ import annotations

import os

PACKAGE = os.path.dirname(os.path.realpath(__file__))  # a link tree (strict editable install) leads back to the checkout


def rulesets_dir() -> str:
    """The folder of the shipped rulesets (``kierki_standard.yaml``, ``variants/``, ``games/``)."""
    inside = os.path.join(PACKAGE, "rulesets")
    if os.path.isdir(inside):
        return inside
    return os.path.join(os.path.dirname(PACKAGE), "rulesets")


def shipped_ruleset(relative: str) -> str:
    """The path of a shipped ruleset, e.g. ``shipped_ruleset("games/sik.yaml")``."""
    return os.path.join(rulesets_dir(), *relative.split("/"))
