"""Where the rulesets shipped with kierki-dsl are, in a checkout and in an installed wheel.

A wheel carries them as package data, ``kierki_dsl/rulesets/`` (``setup.py`` copies the
repository's ``rulesets/`` there when it builds); a checkout or an editable install reads the
repository's ``rulesets/`` folder itself, so editing a ruleset there needs no reinstall."""

from __future__ import annotations

import os
from typing import Optional

from .i18n import L_

PACKAGE = os.path.dirname(
    os.path.realpath(__file__)
)  # a link tree (strict editable install) leads back to the checkout


def rulesets_dir() -> str:
    """The folder of the shipped rulesets (``kierki_standard.yaml``, ``variants/``, ``games/``)."""
    inside = os.path.join(PACKAGE, "rulesets")
    if os.path.isdir(inside):
        return inside
    return os.path.join(os.path.dirname(PACKAGE), "rulesets")


def shipped_ruleset(relative: str) -> str:
    """The path of a shipped ruleset, e.g. ``shipped_ruleset("games/sik.yaml")``."""
    return os.path.join(rulesets_dir(), *relative.split("/"))


#: The folders of the shipped rulesets searched for a bare name, in this order.
SHIPPED_FOLDERS = ("", "variants", "games")
#: A name under the repository's folder of the shipped rulesets (``rulesets/games/hearts.yaml``).
SHIPPED_PREFIX = "rulesets/"


def candidates(name: str, folder: str = "") -> list[str]:
    """Where a ruleset called ``name`` is looked for, in order: as written (relative to
    ``folder``, the naming file's own), then among the shipped rulesets (their top folder,
    ``variants/``, ``games/``); ``.yaml`` is added to a name written without it."""
    names = [name] if name.endswith((".yaml", ".yml")) else [name + ".yaml", name]
    out = [os.path.normpath(os.path.join(folder, n)) for n in names]
    if not os.path.isabs(name):
        # `rulesets/kierki_standard.yaml`, as the README writes it, is the shipped one from any folder too
        shipped = [n[len(SHIPPED_PREFIX) :] if n.startswith(SHIPPED_PREFIX) else n for n in names]
        out += [
            os.path.join(rulesets_dir(), sub, *n.split("/")) if sub else os.path.join(rulesets_dir(), *n.split("/"))
            for sub in SHIPPED_FOLDERS
            for n in shipped
        ]
    unique: list[str] = []
    for p in out:
        if p not in unique:
            unique.append(p)
    return unique


def find_ruleset(name: str, folder: str = "") -> Optional[str]:
    """The first ruleset file among ``candidates(name, folder)``, or None."""
    return next((p for p in candidates(name, folder) if os.path.isfile(p)), None)


def not_found(name: str, folder: str = "") -> str:
    """The message for a ruleset that is nowhere: what was asked and where it was looked for."""
    here = os.path.normpath(folder or ".")
    if os.path.isdir(os.path.join(folder, name)):
        return L_(
            "{name} is a folder, not a ruleset file (name one of its .yaml files; kierki lint checks a whole folder)",
            name=name,
        )
    if os.path.isabs(name):
        return L_("no such ruleset file: {name}", name=name)
    return L_(
        "no such ruleset: {name!r} (looked in {here}, then among the shipped rulesets: {shipped} and its {folders})",
        name=name,
        here=here,
        shipped=rulesets_dir(),
        folders=", ".join(s + "/" for s in SHIPPED_FOLDERS if s),
    )
