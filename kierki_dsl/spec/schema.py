"""The ruleset schema as data: one description drives validation and the JSON Schema.

Validation turns the YAML node tree into typed values: each ``Obj`` becomes a frozen attrs
``Spec`` with every default applied (lists are tuples; a ``MapOf`` of user-chosen names stays
a dict; ``ExprSource`` for expressions), and collects *every* problem with its position
(``Ctx.nodes`` maps each value's path to its YAML node). It never guesses what a scalar means the YAML 1.1 way: ``no`` is not false and
``010`` is not 8.
"""

from __future__ import annotations

import keyword
import re
from typing import Any, Optional

import attrs

from ..cards import RANK_NAMES, CardError, meant_card, parse_card, parse_rank
from ..diagnostics import Diagnostics, Pos, did_you_mean
from ..i18n import L_
from ..values import define, field_repr, frozen
from .yamlsafe import Map, Node, Scalar, Seq, node_path

_INT = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_LEADING_ZERO = re.compile(r"^[-+]?0[0-9_]+$")
_YAML11_BOOL = {"yes", "no", "on", "off", "y", "n", "true", "false"}
MAX_INT_DIGITS = 18
_YAML11_SURPRISE = re.compile(
    r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE|~|null|Null|NULL"
    r"|[-+]?0[0-7_]+|[-+]?0x[0-9a-fA-F_]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"
    r"|[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*)$"
)


@frozen
class ExprSource:
    """An expression as written in the ruleset, with the scalar that locates it."""

    text: str
    node: Optional[Scalar] = attrs.field(default=None, eq=False)

    @property
    def pos(self) -> Optional[Pos]:
        return self.node.pos if self.node else None


def _kind(node: Node) -> str:
    if isinstance(node, Map):
        return L_("a mapping")
    if isinstance(node, Seq):
        return L_("a list")
    return f"{node.value!r}" if node.plain else L_("the string {value!r}", value=node.value)


class Ctx:
    """Where validation is: the file, the findings, and node positions by path."""

    def __init__(self, path: str, diags: Diagnostics) -> None:
        self.path = path
        self.diags = diags
        self.nodes: dict[tuple, Node] = {}
        self.invalid: set[tuple] = set()  # paths whose value was reported and left out

    def is_valid(self, prefix: tuple) -> bool:
        """True if nothing at or below ``prefix`` was reported invalid."""
        n = len(prefix)
        return not any(p[:n] == prefix for p in self.invalid)

    def error(self, node: Optional[Node], code: str, msg: str, hint: str = "") -> None:
        pos = None
        if isinstance(node, Scalar):
            pos = node.span()
        elif node is not None:
            pos = node.pos
        self.diags.error(node_path(node, self.path), pos, code, msg, hint)

    def warning(self, node: Node, code: str, msg: str, hint: str = "") -> None:
        self.diags.warning(node_path(node, self.path), node.pos, code, msg, hint)


_INVALID = object()


class Kind:
    """A schema type; ``load`` returns the value or ``_INVALID`` after reporting."""

    doc = ""

    def load(self, node: Node, ctx: Ctx, where: tuple, label: str) -> Any:  # pragma: no cover
        raise NotImplementedError

    def json(self) -> dict:  # pragma: no cover
        raise NotImplementedError

    def describe(self) -> str:
        return type(self).__name__.lower()


def _scalar(node: Node, ctx: Ctx, label: str, what: str) -> Optional[Scalar]:
    if isinstance(node, Scalar):
        return node
    ctx.error(node, "S202", L_("{label} must be {what}, got {kind}", label=label, what=what, kind=_kind(node)))
    return None


@define(eq=False)
class Int(Kind):
    min: Optional[int] = None
    max: Optional[int] = None
    doc: str = ""

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("an integer"))
        if s is None:
            return _INVALID
        v = parse_int(s, ctx, label)
        if v is _INVALID:
            return v
        if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
            ctx.error(
                s, "S204", L_("{label} must be {bounds}, got {value}", label=label, bounds=self.bounds(), value=v)
            )
            return _INVALID
        return v

    def bounds(self) -> str:
        """The values allowed, in words: ``1``, ``between 1 and 13``, ``at least 0``, ``at most 8``."""
        if self.min is not None and self.min == self.max:
            return str(self.min)
        if self.max is None:
            return L_("at least {min}", min=self.min)
        if self.min is None:
            return L_("at most {max}", max=self.max)
        return L_("between {min} and {max}", min=self.min, max=self.max)

    def json(self):
        d: dict = {"type": "integer"}
        if self.min is not None:
            d["minimum"] = self.min
        if self.max is not None:
            d["maximum"] = self.max
        return d


def parse_int(s: Scalar, ctx: Ctx, label: str):
    text = s.value.strip()
    digits = len(text.lstrip("+-"))
    if s.plain and digits > MAX_INT_DIGITS and text.lstrip("+-").isdigit():
        ctx.error(
            s,
            "S209",
            L_("integer has {digits} digits (limit {limit})", digits=digits, limit=MAX_INT_DIGITS),
        )
        return _INVALID
    if not s.plain:
        ctx.error(
            s,
            "S202",
            L_("{label} must be an integer, got the string {value!r}", label=label, value=s.value),
            L_("remove the quotes"),
        )
        return _INVALID
    if _LEADING_ZERO.match(text):
        ctx.error(
            s, "S207", L_("integer with leading zero {text!r} is ambiguous (YAML 1.1 reads it as octal)", text=text)
        )
        return _INVALID
    if not _INT.match(text):
        ctx.error(s, "S202", L_("{label} must be an integer, got {text!r}", label=label, text=text))
        return _INVALID
    return int(text)


@define(eq=False)
class Bool(Kind):
    doc: str = ""

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("true or false"))
        if s is None:
            return _INVALID
        if s.plain and s.value.lower() in ("true", "false"):
            return s.value.lower() == "true"
        hint = ""
        if s.plain and s.value.lower() in _YAML11_BOOL:
            hint = L_("YAML 1.1 tools read this as a boolean, YAML 1.2 as a string; write true or false")
        ctx.error(
            s, "S208", L_("{label} must be a bool (true or false), got {value!r}", label=label, value=s.value), hint
        )
        return _INVALID

    def json(self):
        return {"type": "boolean"}


@define(eq=False)
class Str(Kind):
    pattern: Optional[str] = None
    doc: str = ""

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("a string"))
        if s is None:
            return _INVALID
        if self.pattern and not re.fullmatch(self.pattern, s.value):
            ctx.error(
                s,
                "S204",
                L_("{label} {value!r} does not match {pattern}", label=label, value=s.value, pattern=self.pattern),
            )
            return _INVALID
        if s.plain and _YAML11_SURPRISE.match(s.value):
            ctx.warning(
                s,
                "Y114",
                L_("plain {value!r} is not a string to YAML 1.1 tools (a boolean, null or number)", value=s.value),
                L_("quote it"),
            )
        return s.value

    def json(self):
        d: dict = {"type": "string"}
        if self.pattern:
            d["pattern"] = "^" + self.pattern + "$"
        return d


@define(eq=False)
class Enum(Kind):
    values: tuple
    doc: str = ""

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("one of {values}", values="/".join(self.values)))
        if s is None:
            return _INVALID
        if s.value in self.values:
            return s.value
        hint = did_you_mean(s.value, self.values)
        if s.plain and s.value.lower() in _YAML11_BOOL:
            hint = L_("YAML 1.1 reads this as a boolean; {hint}", hint=hint or L_("use one of the names"))
        ctx.error(
            s,
            "S204",
            L_(
                "{label} must be one of {values}, got {value!r}",
                label=label,
                values="/".join(self.values),
                value=s.value,
            ),
            hint,
        )
        return _INVALID

    def json(self):
        return {"enum": list(self.values)}


@define(eq=False)
class Expr(Kind):
    """An expression of the given result type; plain ints are accepted for int expressions."""

    result: str  # "int" | "bool" | "seat" | "pred"
    doc: str = ""

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("an expression ({type})", type=self.result))
        if s is None:
            return _INVALID
        if self.result == "int" and s.plain and _INT.match(s.value.strip()):
            v = parse_int(s, ctx, label)
            return _INVALID if v is _INVALID else ExprSource(s.value.strip(), s)
        if s.plain and _LEADING_ZERO.match(s.value.strip()):
            ctx.error(s, "S207", L_("integer with leading zero {value!r} is ambiguous", value=s.value))
            return _INVALID
        return ExprSource(s.value, s)

    def json(self):
        if self.result == "int":
            return {"type": ["integer", "string"], "description": "an int expression"}
        if self.result in ("bool", "pred"):
            return {"type": ["string", "boolean"]}
        return {"type": "string"}


@define(eq=False)
class SeatOrRandom(Kind):
    """``random``, a seat number, or (with ``expression``) a seat expression (an ``ExprSource``)."""

    doc: str = ""
    expression: bool = False

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("'random' or a seat number"))
        if s is None:
            return _INVALID
        if s.value == "random":
            return s.value
        if self.expression and not (s.plain and _INT.match(s.value.strip())):
            return ExprSource(s.value, s)
        if s.plain and _INT.match(s.value):
            v = parse_int(s, ctx, label)
            if v is _INVALID:
                return v
            if 0 <= v < 8:
                return v
        ctx.error(s, "S204", L_("{label} must be 'random' or a seat number, got {value!r}", label=label, value=s.value))
        return _INVALID

    def json(self):
        seat = [{"const": "random"}, {"type": "integer", "minimum": 0, "maximum": 7}]
        return {"anyOf": seat + ([{"type": "string", "description": "a seat expression"}] if self.expression else [])}


@define(eq=False)
class RankKind(Kind):
    """A rank (2-10, J, Q, K, A), or one of ``words`` (returned as written)."""

    doc: str = ""
    words: tuple = ()

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("a rank"))
        if s is None:
            return _INVALID
        if s.value in self.words:
            return s.value
        if s.plain and _LEADING_ZERO.match(s.value):
            ctx.error(
                s,
                "S207",
                L_("integer with leading zero {value!r} is ambiguous (YAML 1.1 reads it as octal)", value=s.value),
            )
            return _INVALID
        try:
            return parse_rank(s.value)
        except CardError:
            words = "".join(L_(" or {word}", word=w) for w in self.words)
            ctx.error(
                s,
                "S204",
                L_(
                    "{label} must be a rank (2-10, J, Q, K, A){words}, got {value!r}",
                    label=label,
                    words=words,
                    value=s.value,
                ),
            )
            return _INVALID

    def json(self):
        rank = {"type": ["integer", "string"], "pattern": "^(10|[2-9TJQKAtjqka])$"}
        return {"anyOf": [rank, {"enum": list(self.words)}]} if self.words else rank


@define(eq=False)
class CardKind(Kind):
    doc: str = ""

    def load(self, node, ctx, where, label):
        s = _scalar(node, ctx, label, L_("a card"))
        if s is None:
            return _INVALID
        try:
            return parse_card(s.value)
        except CardError as e:
            meant = meant_card(s.value)
            ctx.error(
                s,
                "S204",
                L_("{label}: {e}", label=label, e=e),
                L_("did you mean {close!r}?", close=meant) if meant and len(meant) <= 3 else "",
            )
            return _INVALID

    def json(self):
        return {"type": "string", "pattern": "^(10|[2-9TJQKAtjqka])[SHDCshdc]$"}


@define(eq=False)
class List(Kind):
    item: Kind
    min_items: int = 0
    max_items: int = 1000
    unique: bool = False
    doc: str = ""

    def load(self, node, ctx, where, label):
        if not isinstance(node, Seq):
            ctx.error(node, "S202", L_("{label} must be a list, got {kind}", label=label, kind=_kind(node)))
            return _INVALID
        if len(node.items) < self.min_items:
            ctx.error(
                node, "S204", L_("{label} needs at least {min_items} item(s)", label=label, min_items=self.min_items)
            )
        if len(node.items) > self.max_items:
            ctx.error(
                node,
                "S204",
                L_(
                    "{label} has {n_items} items (limit {max_items})",
                    label=label,
                    n_items=len(node.items),
                    max_items=self.max_items,
                ),
            )
            return _INVALID
        out = []
        seen: dict = {}
        for i, item in enumerate(node.items):
            w = where + (i,)
            ctx.nodes[w] = item
            v = self.item.load(item, ctx, w, f"{label}[{i}]")
            if v is _INVALID:
                ctx.invalid.add(w)
                continue
            if self.unique:
                key = v if not isinstance(v, ExprSource) else v.text
                if key in seen:
                    first = seen[key]
                    ctx.error(
                        item,
                        "S206",
                        L_(
                            "{label}: {item} appears twice after normalising (first at {line}:{col})",
                            label=label,
                            item=_show(item),
                            line=first.line,
                            col=first.col,
                        ),
                    )
                    continue
                seen[key] = item.pos
            out.append(v)
        return tuple(out)

    def json(self):
        d = {"type": "array", "items": self.item.json()}
        if self.min_items:
            d["minItems"] = self.min_items
        return d


def _show(node: Node) -> str:
    return repr(node.value) if isinstance(node, Scalar) else _kind(node)


@define(eq=False)
class Field:
    kind: Kind
    doc: str = ""
    required: bool = False
    default: Any = None


def attr_name(key: str) -> str:
    """The attribute of a spec that holds YAML key ``key`` (``from`` is ``from_``)."""
    return key + "_" if keyword.iskeyword(key) else key


def _frozen_default(value: Any) -> Any:
    """A field's default as a spec holds it: lists become tuples."""
    return tuple(value) if isinstance(value, list) else value


def spec_class(name: str, keys: tuple) -> type:
    """A frozen attrs class with one attribute per YAML key (see ``attr_name``), all required
    (``Obj.load`` passes every one, defaults applied)."""
    # compared by identity (nothing compares specs) and built by ``Spec.__init__``: attrs compiles
    # no __init__, __eq__ or __hash__ for them, most of what making a class costs (lint makes
    # a dozen at start-up)
    cls = attrs.make_class(
        name,
        {attr_name(k): attrs.field() for k in keys},
        bases=(Spec,),
        frozen=True,
        slots=True,
        repr=False,
        eq=False,
        init=False,
    )
    cls.__repr__ = field_repr  # type: ignore[method-assign,assignment]
    cls.keys = keys  # type: ignore[attr-defined]
    return cls


_setattr = object.__setattr__


class Spec:
    """Base of the validated values of a schema ``Obj``: frozen, every field set (the
    defaults applied), lists as tuples, nested objects as their own specs. ``keys`` are the
    YAML keys, in schema order."""

    __slots__ = ()
    keys: tuple = ()

    def __init__(self, **values) -> None:
        """Set every attribute (a frozen class: through ``object.__setattr__``, as attrs does)."""
        for name, value in values.items():
            _setattr(self, name, value)

    def items(self):
        """(YAML key, value) pairs, in schema order."""
        return [(k, getattr(self, attr_name(k))) for k in self.keys]


@define(eq=False)
class Obj(Kind):
    fields: dict
    doc: str = ""
    title: str = ""
    tag: str = ""  # a key set by ``Tagged`` (the deal type), not written in the mapping
    _cls: Any = attrs.field(default=None, repr=False)

    def spec_class(self) -> type:
        """The frozen attrs class of this object's validated values (made once, on first use)."""
        if self._cls is None:
            keys = tuple(self.fields) + ((self.tag,) if self.tag else ())
            name = "".join(w.title() for w in re.split(r"[^A-Za-z0-9]+", self.title) if w) or "Spec"
            self._cls = spec_class(name + ("Spec" if not name.endswith("Spec") else ""), keys)
        return self._cls

    def defaults(self):
        """The value of this object written empty (required keys None): a stand-in for one
        that was reported invalid, so that later checks can still run."""
        values = {attr_name(k): None if f.required else _frozen_default(f.default) for k, f in self.fields.items()}
        if self.tag:
            values[self.tag] = None
        return self.spec_class()(**values)

    def load(self, node, ctx, where, label, tag=None):
        if not isinstance(node, Map):
            ctx.error(node, "S202", L_("{label} must be a mapping, got {kind}", label=label, kind=_kind(node)))
            return _INVALID
        out: dict = {}
        strays = _strays(node, self.fields)
        for key, value in node.entries.items():
            f = self.fields.get(key)
            if key in strays:  # the cause, once; the keys left out of it are not findings of their own
                names = ", ".join(repr(k) for k in strays[key])
                ctx.error(
                    value,
                    "S202",
                    L_(
                        "{label} is empty, and {names} below it stands at the top level",
                        label=_join(label, key),
                        names=names,
                    )
                    if len(strays[key]) == 1
                    else L_(
                        "{label} is empty, and {names} below it stand at the top level",
                        label=_join(label, key),
                        names=names,
                    ),
                    L_("indent {names} (and what follows) under {key}:", names=names, key=key),
                )
                ctx.invalid.update({where + (key,)} | {where + (k,) for k in strays[key]})
                continue
            if f is None:
                if any(key in keys for keys in strays.values()):
                    continue
                hint = did_you_mean(key, self.fields, L_("allowed: {names}", names=", ".join(self.fields)))
                ctx.error(node.keys[key], "S201", L_("unknown key {key!r} in {label}", key=key, label=label), hint)
                ctx.invalid.add(where + (key,))  # what it meant is missing: no follow-on findings
                continue
            w = where + (key,)
            ctx.nodes[w] = value
            v = f.kind.load(value, ctx, w, _join(label, key))
            if v is not _INVALID:
                out[attr_name(key)] = v
            else:
                ctx.invalid.add(w)
        for key, f in self.fields.items():
            if key not in node.entries and f.required:
                ctx.error(
                    node,
                    "S203",
                    L_("{label} is missing required key {key!r}", label=label, key=key),
                    L_(f.doc) if f.doc else "",
                )
                ctx.invalid.add(where + (key,))
            # a key left out, or reported invalid, holds its default (None when required)
            out.setdefault(attr_name(key), None if f.required else _frozen_default(f.default))
        if self.tag:
            out[self.tag] = tag
        return self.spec_class()(**out)

    def json(self):
        props = {}
        for k, f in self.fields.items():
            j = dict(f.kind.json())
            doc = f.doc or f.kind.doc
            if doc:
                j["description"] = doc
            if f.default is not None and not isinstance(f.default, (list, dict)):
                j["default"] = RANK_NAMES[f.default] if isinstance(f.kind, RankKind) else f.default
            props[k] = j
        d = {"type": "object", "properties": props, "additionalProperties": False}
        req = [k for k, f in self.fields.items() if f.required]
        if req:
            d["required"] = req
        if self.doc:
            d["description"] = self.doc
        return d


def _join(label: str, key: str) -> str:
    return key if label in ("", "ruleset") else f"{label}.{key}"


def _strays(node: Map, fields: dict) -> dict:
    """Unknown keys written out of a mapping left empty just above them (``contracts:`` with its
    contracts at the top level): {the empty key: [the keys that belong under it]}."""
    out: dict = {}
    holder = None
    for key, value in node.entries.items():
        if key in fields:
            holder = key if _empty(value) and isinstance(fields[key].kind, (MapOf, Obj)) else None
        elif holder is not None:
            out.setdefault(holder, []).append(key)
    return out


def _empty(node: Node) -> bool:
    return isinstance(node, Scalar) and node.plain and node.value in ("", "~", "null")


@define(eq=False)
class MapOf(Kind):
    value: Kind
    key_pattern: str = r"[a-z][a-z0-9_]*"
    doc: str = ""

    def load(self, node, ctx, where, label):
        if not isinstance(node, Map):
            ctx.error(node, "S202", L_("{label} must be a mapping, got {kind}", label=label, kind=_kind(node)))
            return _INVALID
        out = {}
        for key, value in node.entries.items():
            if not re.fullmatch(self.key_pattern, key):
                ctx.error(
                    node.keys[key],
                    "S204",
                    L_(
                        "name {key!r} in {label} must match {key_pattern}",
                        key=key,
                        label=label,
                        key_pattern=self.key_pattern,
                    ),
                )
                continue
            w = where + (key,)
            ctx.nodes[w] = value
            ctx.nodes[w + ("$key",)] = node.keys[key]
            v = self.value.load(value, ctx, w, _join(label, key))
            if v is not _INVALID:
                out[key] = v
            else:
                ctx.invalid.add(w)
        return out

    def json(self):
        return {
            "type": "object",
            "propertyNames": {"pattern": "^" + self.key_pattern + "$"},
            "additionalProperties": self.value.json(),
        }


@define(eq=False)
class OneOf(Kind):
    """Alternatives chosen by the node's shape: a scalar, a list or a mapping."""

    scalar: Optional[Kind] = None
    seq: Optional[Kind] = None
    mapping: Optional[Kind] = None
    doc: str = ""

    def load(self, node, ctx, where, label):
        k = {Scalar: self.scalar, Seq: self.seq, Map: self.mapping}[type(node)]
        if k is None:
            allowed = [n for n, x in (("a value", self.scalar), ("a list", self.seq), ("a mapping", self.mapping)) if x]
            ctx.error(
                node,
                "S202",
                L_(
                    "{label} must be {allowed}, got {kind}", label=label, allowed=" or ".join(allowed), kind=_kind(node)
                ),
            )
            return _INVALID
        return k.load(node, ctx, where, label)

    def json(self):
        return {"anyOf": [k.json() for k in (self.scalar, self.seq, self.mapping) if k is not None]}


@define(eq=False)
class Tagged(Kind):
    """A mapping whose ``type`` key picks the schema (the pluggable deal-type catalogue)."""

    key: str
    variants: dict  # type name -> Obj (without the type key)
    default: Optional[str] = None
    doc: str = ""

    def load(self, node, ctx, where, label):
        if not isinstance(node, Map):
            ctx.error(node, "S202", L_("{label} must be a mapping, got {kind}", label=label, kind=_kind(node)))
            return _INVALID
        tnode = node.get(self.key)
        tname = self.default
        if tnode is not None:
            if not isinstance(tnode, Scalar):
                ctx.error(tnode, "S202", L_("{label}.{key} must be a name", label=label, key=self.key))
                return _INVALID
            tname = tnode.value
        if tname not in self.variants:
            hint = did_you_mean(str(tname), self.variants, L_("known: {names}", names=", ".join(self.variants)))
            ctx.error(
                tnode or node, "S205", L_("unknown deal type {tname!r} in {label}", tname=tname, label=label), hint
            )
            return _INVALID
        obj: Obj = self.variants[tname]
        inner = Map(
            {k: v for k, v in node.entries.items() if k != self.key},
            {k: v for k, v in node.keys.items() if k != self.key},
            node.pos,
            node.source,
        )
        return obj.load(inner, ctx, where, label, tag=tname)

    def __attrs_post_init__(self) -> None:
        for obj in self.variants.values():
            obj.tag = self.key

    def json(self):
        alts = []
        for name, obj in self.variants.items():
            j = obj.json()
            j["properties"] = {self.key: {"const": name, "description": "deal type"}, **j["properties"]}
            if name != self.default:
                j["required"] = [self.key] + j.get("required", [])
            alts.append(j)
        return {"oneOf": alts}


def is_invalid(v: Any) -> bool:
    return v is _INVALID


INVALID = _INVALID
