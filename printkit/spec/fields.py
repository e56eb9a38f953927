"""The kinds of value a deck spec holds, each able to check data read from YAML and describe itself.

A kind's ``check(value, at, problems)`` returns the checked value, or ``INVALID`` after appending
a :class:`Problem` for every mistake it finds (siblings are still checked, so the caller can report
the first problem in file order). ``schema()`` gives the kind's JSON Schema. Spec models are frozen
dataclasses whose fields carry their kind (see :func:`spec_field`); :class:`Model` checks a mapping
against one and builds it.

Values are strict, as YAML types them: ``"3"`` is text, not a number, and ``true`` is not 1.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterable, Sequence

from printkit.suggest import close_match as close_key  # spec code (and check, expand) ask it by this name

PathKey = tuple[Any, ...]

# A checked value that failed; never stored in a model.
INVALID: Any = type("Invalid", (), {"__repr__": lambda self: "INVALID"})()


@dataclass(frozen=True)
class Problem:
    """One mistake at ``at`` (a path of keys and indexes); ``key`` when the key itself is wrong."""

    at: PathKey
    message: str
    key: bool = False


class Kind:
    """A kind of value: how to check it, what it is called in messages, its JSON Schema."""

    noun = "a value"

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` has this kind's shape (used to choose a branch of :class:`OneOf`)."""
        return True

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        raise NotImplementedError

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError


def dotted(at: PathKey) -> str:
    """``groups[0].copies`` for the path ``("groups", 0, "copies")``."""
    out = ""
    for part in at:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def describe(value: Any) -> str:
    """How a value is named after "got" in a message."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "an empty value"
    return repr(value)


def fail(problems: list[Problem], at: PathKey, message: str) -> Any:
    """Record a problem with a value (its path leads the message) and return INVALID."""
    where = dotted(at)
    problems.append(Problem(at, f"{where}: {message}" if where else message))
    return INVALID


def wrong_type(problems: list[Problem], at: PathKey, kind: Kind, value: Any) -> Any:
    return fail(problems, at, f"expected {kind.noun}, got {describe(value)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Text(Kind):
    """Text, optionally with a length limit and a pattern it must match."""

    noun = "text"

    def __init__(self, max_length: int | None = None, pattern: str | None = None,
                 mismatch: Callable[[str], str] | None = None):
        self.max_length = max_length
        self.pattern = pattern
        self._mismatch = mismatch or (lambda value: f"{value!r} does not match {pattern}")

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        if not isinstance(value, str):
            return wrong_type(problems, at, self, value)
        if self.max_length is not None and len(value) > self.max_length:
            return fail(problems, at, f"may have at most {self.max_length} characters, got {len(value)}")
        if self.pattern and not self._regex.fullmatch(value):  # '$' alone would let a final newline through
            return fail(problems, at, self._mismatch(value))
        return value

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        # Compiled when first a value is checked: most of the schema's patterns are never used by
        # one spec, and compiling them all cost a card build some milliseconds.
        return re.compile(self.pattern or "")

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string"}
        if self.max_length is not None:
            out["maxLength"] = self.max_length
        if self.pattern:
            out["pattern"] = self.pattern
        return out


def name_message(value: str) -> str:
    return f"{value!r} is not a valid name: use ASCII letters, digits, '_' and '-', starting with a letter"


class Whole(Kind):
    """A whole number, optionally bounded (inclusive)."""

    noun = "a whole number"

    def __init__(self, ge: int | None = None, le: int | None = None):
        self.ge, self.le = ge, le

    def accepts(self, value: Any) -> bool:
        return _is_int(value)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        if not _is_int(value):
            return wrong_type(problems, at, self, value)
        if self.ge is not None and value < self.ge:
            return fail(problems, at, f"must be at least {self.ge}, got {value!r}")
        if self.le is not None and value > self.le:
            return fail(problems, at, f"must be at most {self.le}, got {value!r}")
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer"}
        if self.ge is not None:
            out["minimum"] = self.ge
        if self.le is not None:
            out["maximum"] = self.le
        return out


class Number(Kind):
    """A number, whole or not."""

    noun = "a number"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        if self.accepts(value) and not math.isfinite(value):
            return fail(problems, at, f"expected a finite number, got {value!r}")
        return value if self.accepts(value) else wrong_type(problems, at, self, value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "number"}


class Flag(Kind):
    """true or false."""

    noun = "true or false"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        return value if self.accepts(value) else wrong_type(problems, at, self, value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "boolean"}


class Scalar(Kind):
    """One plain value: text, a number or true/false."""

    noun = "text, a number or true/false"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, (str, int, float))  # bool is an int

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        return value if self.accepts(value) else wrong_type(problems, at, self, value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": ["string", "number", "boolean"]}


class Checked(Kind):
    """A value of ``base`` kind passed through ``convert``, whose ValueError message is the problem."""

    def __init__(self, base: Kind, convert: Callable[[Any], Any], schema: dict[str, Any], noun: str | None = None):
        self.base = base
        self.convert = convert
        self._schema = schema
        self.noun = noun or base.noun

    def accepts(self, value: Any) -> bool:
        return self.base.accepts(value)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        if not self.base.accepts(value):
            return wrong_type(problems, at, self, value)
        value = self.base.check(value, at, problems)
        if value is INVALID:
            return INVALID
        try:
            return self.convert(value)
        except ValueError as exc:
            return fail(problems, at, str(exc))

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return dict(self._schema)


class Optional(Kind):
    """``kind`` or nothing (an empty value in YAML)."""

    def __init__(self, kind: Kind):
        self.kind = kind
        self.noun = kind.noun

    def accepts(self, value: Any) -> bool:
        return value is None or self.kind.accepts(value)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        return None if value is None else self.kind.check(value, at, problems)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [self.kind.schema(defs), {"type": "null"}]}


class OneOf(Kind):
    """The first of ``kinds`` whose shape the value has (text, a number, a list, a mapping ...)."""

    def __init__(self, *kinds: Kind, noun: str | None = None):
        self.kinds = kinds
        self.noun = noun or " or ".join(k.noun for k in kinds)

    def accepts(self, value: Any) -> bool:
        return any(k.accepts(value) for k in self.kinds)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        for kind in self.kinds:
            if kind.accepts(value):
                return kind.check(value, at, problems)
        return wrong_type(problems, at, self, value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [k.schema(defs) for k in self.kinds]}


class ListOf(Kind):
    """A list of ``item`` values, with optional limits on its length."""

    noun = "a list"

    def __init__(self, item: Kind, min_length: int | None = None, max_length: int | None = None):
        self.item, self.min_length, self.max_length = item, min_length, max_length

    def accepts(self, value: Any) -> bool:
        return isinstance(value, list)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        if not isinstance(value, list):
            return wrong_type(problems, at, self, value)
        if self.min_length is not None and len(value) < self.min_length:
            return fail(problems, at, f"needs at least {self.min_length} item(s), got {len(value)}")
        if self.max_length is not None and len(value) > self.max_length:
            return fail(problems, at, f"may have at most {self.max_length} items, got {len(value)}")
        items = [self.item.check(v, at + (i,), problems) for i, v in enumerate(value)]
        return INVALID if INVALID in items else items

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.schema(defs)}
        if self.min_length is not None:
            out["minItems"] = self.min_length
        if self.max_length is not None:
            out["maxItems"] = self.max_length
        return out


class MapOf(Kind):
    """A mapping from keys of kind ``key`` (text) to values of kind ``value``.

    A key that fails is reported at the key, with ``bad_key``'s message.
    """

    noun = "a mapping of keys"

    def __init__(self, value: Kind, key: Text | None = None, bad_key: Callable[[str], str] = name_message,
                 max_length: int | None = None):
        self.value, self.key, self.bad_key, self.max_length = value, key or Text(), bad_key, max_length

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        if not isinstance(value, dict):
            return wrong_type(problems, at, self, value)
        if self.max_length is not None and len(value) > self.max_length:
            return fail(problems, at, f"may have at most {self.max_length} entries, got {len(value)}")
        out: dict[str, Any] = {}
        for key, item in value.items():
            if self.key.check(key, at + (key,), []) is INVALID:
                problems.append(Problem(at + (key,), self.bad_key(key), key=True))
                out[key] = INVALID
            else:
                out[key] = self.value.check(item, at + (key,), problems)
        return INVALID if INVALID in out.values() else out

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "additionalProperties": self.value.schema(defs)}
        if self.max_length is not None:
            out["maxProperties"] = self.max_length
        key = self.key.schema(defs)
        if len(key) > 1:
            out["propertyNames"] = key
        return out


_REQUIRED = dataclasses.MISSING


def spec_field(kind: Kind, default: Any = _REQUIRED, *, factory: Callable[[], Any] | None = None,
               description: str | None = None) -> Any:
    """A model field holding a value of ``kind``: required unless it has a default or factory."""
    metadata = {"kind": kind, "description": description}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


class Model(Kind):
    """A mapping with a fixed set of keys, checked into the frozen dataclass ``cls``.

    Unknown keys are reported at the key (with the nearest known one as a hint), missing required
    keys at the mapping. After its fields, the class's ``validate`` method (if any) may return a
    problem with the whole.
    """

    noun = "a mapping of keys"

    def __init__(self, cls: type):
        self.cls = cls
        self.fields = [f for f in dataclasses.fields(cls) if "kind" in f.metadata]

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    @property
    def keys(self) -> list[str]:
        return [f.name for f in self.fields]

    def check(self, value: Any, at: PathKey, problems: list[Problem]) -> Any:
        if not isinstance(value, dict):
            return wrong_type(problems, at, self, value)
        known = self.keys
        failed = False
        meant: set[str] = set()  # known keys an unknown one is likely a misspelling of
        for key in value:
            if key not in known:
                hint = close_key(key, known)
                meant.update([hint] if hint else [])
                problems.append(Problem(at + (key,), unknown_key_message(key, known), key=True))
                failed = True
        checked: dict[str, Any] = {}
        for f in self.fields:
            key = f.name
            if key in value:
                checked[f.name] = f.metadata["kind"].check(value[key], at + (key,), problems)
                failed = failed or checked[f.name] is INVALID
            elif f.default is _REQUIRED and f.default_factory is _REQUIRED:
                failed = True
                if key not in meant:  # 'grups' is reported as a misspelling of 'groups', not twice
                    where = f" in {dotted(at)}" if at else ""
                    problems.append(Problem(at + (key,), f"missing required key {key!r}{where}"))
        if failed:
            return INVALID
        made = self.cls(**checked)
        whole = getattr(made, "validate", None)
        problem = whole() if whole else None
        return fail(problems, at, problem) if problem else made

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        name = self.cls.__name__
        if name not in defs:
            defs[name] = {}  # reserved first: a model may (indirectly) contain itself
            defs[name] = self.definition(defs)
        return {"$ref": f"#/$defs/{name}"}

    def definition(self, defs: dict[str, Any]) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required = []
        for f in self.fields:
            prop = f.metadata["kind"].schema(defs)
            if f.metadata["description"]:
                prop = {**prop, "description": f.metadata["description"]}
            if f.default is not _REQUIRED and _plain(f.default):
                prop = {**prop, "default": f.default}
            properties[f.name] = prop
            if f.default is _REQUIRED and f.default_factory is _REQUIRED:
                required.append(f.name)
        out: dict[str, Any] = {"title": self.cls.__name__, "type": "object", "properties": properties,
                               "additionalProperties": False}
        if self.cls.__doc__:
            out["description"] = " ".join(self.cls.__doc__.split())
        if required:
            out["required"] = required
        return out


def _plain(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def unknown_name(what: str, name: str, known: Iterable[str], none: str = "none: add them under layouts:") -> str:
    """``unknown layout 'fron' (did you mean 'front'?); known: back, front``."""
    known = sorted(known)
    hint = close_key(name, known)
    meant = f" (did you mean {hint!r}?)" if hint else ""
    listed = ", ".join(known) if known else none
    return f"unknown {what} {name!r}{meant}; known: {listed}"


def no_attribute(name: str, attributes: Iterable[str]) -> str:
    """``no card has attribute 'valeu' (cards have: fruit, value); did you mean 'value'?``

    The list leaves out printkit's own values (``_group``…) and stops at 20 names with "…"; the
    suggestion may still be one of them.
    """
    known = sorted(attributes)
    shown = [k for k in known if not k.startswith("_")]
    listed = ", ".join(shown[:20]) + (", …" if len(shown) > 20 else "")
    message = f"no card has attribute {name!r} " + (f"(cards have: {listed})" if shown else "(cards have no attributes)")
    hint = close_key(name, known)
    return message + (f"; did you mean {hint!r}?" if hint else "")


def unknown_key_message(key: Any, known: Sequence[str]) -> str:
    hint = close_key(key, known)
    message = f"unknown key {key!r}"
    if hint:
        return message + f" (did you mean {hint!r}?)"
    if known:
        return message + f" (expected one of: {', '.join(known)})"
    return message


def first_problem(problems: Sequence[Problem], position: Callable[[Problem], tuple[int | None, int | None]]) -> Problem:
    """The problem to report: the first in file order."""
    return min(problems, key=lambda p: tuple(n or 0 for n in position(p)))
