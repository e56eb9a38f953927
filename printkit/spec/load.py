"""Load a spec file into a validated Spec, turning every problem into one located SpecError."""

from __future__ import annotations

import difflib
import types
import typing
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from printkit.spec.models import Spec
from printkit.spec.yamlread import Located, PathKey, parse_yaml, read_spec_bytes


@dataclass(frozen=True)
class LoadedSpec:
    """A validated spec with its source positions (for errors found later, e.g. in expansion)."""

    spec: Spec
    source: Located

    @property
    def path(self) -> Path:
        return self.source.path


def load_spec(path: str | Path) -> LoadedSpec:
    """Read, parse and validate one spec file.

    The file is read on every call; parsing and validation happen once per distinct content,
    so a build that loads the same spec for its sheets and its rulebooks parses it once.
    """
    path = Path(path)
    return _parse_and_validate(path, read_spec_bytes(path))


# Keyed by the path as given (it appears in error messages) and the file's bytes; LoadedSpec and
# what it holds are only read after loading, so callers can share one.
@lru_cache(maxsize=16)
def _parse_and_validate(path: Path, raw: bytes) -> LoadedSpec:
    source = parse_yaml(raw, path)
    try:
        spec = Spec.model_validate(source.data)
    except ValidationError as exc:
        raise _first_error(exc, source) from None
    return LoadedSpec(spec, source)


def _first_error(exc: ValidationError, source: Located):
    """The first problem in file order, preferring the most specific one at each place.

    A value that fits none of a union's branches (``size: poker`` or ``size: {width, height}``)
    yields one error per branch; the one that reaches deepest into the value says what is wrong.
    """
    raw = exc.errors(include_url=False)
    paths = [_data_path(tuple(err["loc"]), source) for err in raw]
    specific = [
        err for err, path in zip(raw, paths)
        if not any(len(other) > len(path) and other[:len(path)] == path for other in paths)
    ]
    errors = [_located_error(err, source) for err in specific]
    errors.sort(key=lambda e: (e.line or 0, e.column or 0))
    return errors[0]


def _located_error(err: dict[str, Any], source: Located):
    loc = _data_path(tuple(err["loc"]), source)
    kind = err["type"]
    dotted = _dotted(loc)
    if "[key]" in err["loc"]:
        key = loc[-1] if loc else "?"
        return source.error(loc, f"{key!r} is not a valid name: use ASCII letters, digits, '_' and '-', starting with a letter", key=True)
    if kind == "extra_forbidden":
        key = loc[-1]
        allowed = _allowed_keys(loc[:-1])
        hint = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
        message = f"unknown key {key!r}"
        if hint:
            message += f" (did you mean {hint[0]!r}?)"
        elif allowed:
            message += f" (expected one of: {', '.join(allowed)})"
        return source.error(loc, message, key=True)
    if kind == "missing":
        parent = loc[:-1]
        where = f" in {_dotted(parent)}" if parent else ""
        return source.error(parent, f"missing required key {loc[-1]!r}{where}")
    value = _value_at(source.data, loc)
    msg = err["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    elif kind in ("string_type", "int_type", "float_type", "bool_type", "dict_type", "list_type",
                  "model_type", "model_attributes_type"):
        msg = f"{_expected(kind)}, got {_describe(value)}"
    elif kind in ("too_short", "too_long"):
        ctx = err.get("ctx", {})
        if kind == "too_short":
            msg = f"needs at least {ctx.get('min_length')} item(s), got {ctx.get('actual_length')}"
        else:
            msg = f"may have at most {ctx.get('max_length')} items, got {ctx.get('actual_length')}"
    elif kind in _BOUNDS:
        msg = f"{_BOUNDS[kind]} {next(iter(err['ctx'].values()))}, got {value!r}"
    elif value is not _MISSING and not isinstance(value, (dict, list)):
        msg = f"{msg} (got {value!r})"
    prefix = f"{dotted}: " if dotted else ""
    return source.error(loc, prefix + msg)


_MISSING = object()
_BOUNDS = {
    "less_than_equal": "must be at most",
    "greater_than_equal": "must be at least",
    "less_than": "must be less than",
    "greater_than": "must be more than",
}


def _expected(kind: str) -> str:
    return {
        "string_type": "expected text",
        "int_type": "expected a whole number",
        "float_type": "expected a number",
        "bool_type": "expected true or false",
        "dict_type": "expected a mapping of keys",
        "model_type": "expected a mapping of keys",
        "model_attributes_type": "expected a mapping of keys",
        "list_type": "expected a list",
    }[kind]


def _describe(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "an empty value"
    return repr(value)


def _value_at(data: Any, loc: PathKey) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return data


def _data_path(loc: PathKey, source: Located) -> PathKey:
    """Drop pydantic's union/validator tags from ``loc``, keeping keys that exist in the data."""
    path: PathKey = ()
    data = source.data
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(data, dict) and part in data:
            path += (part,)
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            path += (part,)
            data = data[part]
        elif last and isinstance(data, dict) and isinstance(part, str) and not _is_tag(part):
            path += (part,)  # a missing key
    return path


def _is_tag(part: str) -> bool:
    return "[" in part or part in {"str", "int", "float", "bool", "list", "dict"} or part[:1].isupper()


def _dotted(loc: PathKey) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _allowed_keys(loc: PathKey) -> list[str]:
    """Field names of the model found at ``loc`` inside Spec (empty for free-form mappings)."""
    model: Any = Spec
    for part in loc:
        model = _step(model, part)
        if model is None:
            return []
    model = _unwrap_model(model)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return list(model.model_fields)
    return []


def _unwrap_model(tp: Any) -> Any:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    for arg in typing.get_args(tp):
        found = _unwrap_model(arg)
        if found is not None:
            return found
    return None


def _step(tp: Any, part: str | int) -> Any:
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _step(typing.get_args(tp)[0], part)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            found = _step(arg, part)
            if found is not None:
                return found
        return None
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        field = tp.model_fields.get(str(part))
        return field.annotation if field else None
    if origin is list and isinstance(part, int):
        return typing.get_args(tp)[0]
    if origin is dict:
        return typing.get_args(tp)[1]
    return None
