"""attrs classes, declared the project's way: ``@frozen`` and ``@define``.

They are ``attrs.frozen`` and ``attrs.define`` with one difference: the ``__repr__`` is a
single shared function that reads ``attrs.fields`` when called, instead of one that attrs
writes and compiles for every class at import. That compile is a third of what an attrs
class costs to create, and a command such as ``kierki lint`` creates about fifty of them
before it reads a line; the output is the same (fields marked ``repr=False`` are left out,
a callable ``repr=`` is honoured).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs


def field_repr(self) -> str:
    """``ClassName(field=value, ...)``, as attrs writes it."""
    parts = []
    for a in attrs.fields(type(self)):
        if a.repr is False:
            continue
        value = getattr(self, a.name)
        parts.append(f"{a.name}={a.repr(value) if callable(a.repr) else repr(value)}")
    return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({', '.join(parts)})"


def _declare(make, cls, options: dict):
    def apply(c):
        if options.get("repr", True) is not False and "__repr__" not in c.__dict__:
            c.__repr__ = field_repr
        return make(c, **{**options, "repr": False})

    return apply if cls is None else apply(cls)


if TYPE_CHECKING:  # a type checker reads @frozen and @define classes as the attrs classes they are
    from attrs import define, frozen
else:

    def frozen(cls=None, **options):
        """``attrs.frozen`` (immutable, slotted) with the shared ``__repr__``."""
        return _declare(attrs.frozen, cls, options)

    def define(cls=None, **options):
        """``attrs.define`` (mutable, slotted) with the shared ``__repr__``."""
        return _declare(attrs.define, cls, options)
