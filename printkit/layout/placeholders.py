"""Templates: strings with ``{placeholder}``s, parsed once and filled for each card.

``{name}`` is the card's attribute (a list prints as ``a, b``), ``{name:.1f}`` formats a number,
``{title|name}`` is the first of those the card has (and is not empty), ``{{`` and ``}}`` are
literal braces. ``{minerals[0]}`` is the first item of a list attribute and
``{names[minerals[0]]}`` that item looked up in ``names``, one of the spec's ``lookups:``
(:func:`item_of`, :func:`looked_up`; a lookup's ``"*"`` entry answers a key it lacks). A template
is read left to right once, in time linear in its length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Mapping

from printkit.errors import LayoutError

# Plain number formats only: sign, zero padding, width (two digits at most), grouping, precision.
_FORMAT = re.compile(r"^[+ -]?0?[0-9]{0,2},?(?:\.[0-9]{1,2})?[dfeg%]?$")
# The key of a card's values holding its layout's lookups (no placeholder can spell it).
LOOKUPS = "[lookups]"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
# printkit's list of the attributes no other element shows: printed as written already.
ATTRIBUTES = "_attributes"


@dataclass(frozen=True)
class Placeholder:
    """``{a|b:fmt}``: the first of ``names`` the card has, formatted; ``{a[i]}`` the item ``index``
    of the attribute, ``{t[a]}`` (``{t[a[i]]}``) its value looked up in the layout's ``lookup``."""

    names: tuple[str, ...]
    format: str = ""
    index: int | None = None
    lookup: str | None = None

    def choose(self, values: Mapping[str, Any]) -> str | None:
        """The name whose value is shown: the first the card has that is not empty, else None."""
        if self.index is not None:
            name = self.names[0]
            return name if name in values and item_of(values[name], self.index) is not None else None
        # printkit's own values (``_attributes``) count even when empty: they then show nothing.
        return next((n for n in self.names if n in values and (n.startswith("_") or _filled(values[n]))), None)

    @property
    def spelled(self) -> str:
        """The placeholder's name as written (``minerals[0]``), for messages."""
        name = "|".join(self.names) + (f"[{self.index}]" if self.index is not None else "")
        return f"{self.lookup}[{name}]" if self.lookup else name

    def value(self, name: str, values: Mapping[str, Any]) -> Any:
        """The value shown for the chosen ``name``: the attribute, its item, or what its lookup says."""
        value = values[name] if self.index is None else item_of(values[name], self.index)
        return value if self.lookup is None else looked_up(values.get(LOOKUPS) or {}, self.lookup, value)


# --- items of list attributes and lookups (the spec's ``lookups:``) -------------------------------

_ITEM = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)\[([0-9]{1,2})\]$")
_LOOKUP = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)\[([A-Za-z_][A-Za-z0-9_-]*)(?:\[([0-9]{1,2})\])?\]$")


def item_of(value: Any, index: int) -> Any:
    """Item ``index`` (from 0) of a list attribute, else None; a single value is a list of one."""
    items = value if isinstance(value, (list, tuple)) else (value,)
    return items[index] if index < len(items) else None


def split_item(name: str) -> tuple[str, int | None]:
    """``minerals[2]`` as ("minerals", 2); a plain name with None."""
    item = _ITEM.match(name)
    return (item.group(1), int(item.group(2))) if item else (name, None)


def looked_up(lookups: Mapping[str, Mapping[str, str]], lookup: str, key: Any) -> str:
    """The entry ``key`` of ``lookup``; LayoutError naming the entries the lookup has."""
    if lookup not in lookups:
        raise LayoutError(f"there is no lookup {lookup!r} (lookups: {', '.join(sorted(lookups)) or 'none'})")
    entries = lookups[lookup]
    text = format_value(key, Placeholder(("",)))
    if text not in entries and OTHER_KEYS in entries:
        return entries[OTHER_KEYS]
    if text not in entries:
        raise LayoutError(f"lookup {lookup!r} has no entry {text!r} (entries: {', '.join(entries)})")
    return entries[text]


# A lookup's entry for every key it does not list (a language it has no words for).
OTHER_KEYS = "*"


def _lookup_placeholder(spelled: str, fmt: str) -> Placeholder | None:
    """``name[i]``, ``lookup[name]`` or ``lookup[name[i]]`` as a placeholder, else None."""
    item = _ITEM.match(spelled)
    if item:
        return Placeholder((item.group(1),), fmt, index=int(item.group(2)))
    lookup = _LOOKUP.match(spelled)
    if lookup:
        index = int(lookup.group(3)) if lookup.group(3) is not None else None
        return Placeholder((lookup.group(2),), fmt, index=index, lookup=lookup.group(1))
    return None


def _filled(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, (list, tuple)):
        return bool(value)
    return True


@dataclass(frozen=True)
class Template:
    """A string with placeholders, parsed once."""

    parts: tuple[str | Placeholder, ...]

    @classmethod
    def parse(cls, text: str) -> "Template":
        """Parse ``text``; LayoutError for a brace that opens no valid placeholder."""
        parts: list[str | Placeholder] = []
        literal: list[str] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "{" and text.startswith("{{", i):
                literal.append("{")
                i += 2
            elif ch == "}" and text.startswith("}}", i):
                literal.append("}")
                i += 2
            elif ch == "{":
                end = text.find("}", i + 1)
                if end < 0:
                    raise LayoutError(f"'{{' at character {i + 1} is not closed (write '{{{{' for a brace)")
                inner = text[i + 1:end]
                spelled, _, fmt = inner.partition(":")
                names = tuple(spelled.split("|"))
                lookup = _lookup_placeholder(spelled, fmt) if "[" in spelled else None
                if lookup is None and "[" in spelled:
                    raise LayoutError(f"{{{_short(inner)}}} is not an item such as {{minerals[0]}} nor a lookup "
                                      "such as {names[mineral]} or {names[minerals[0]]}")
                if lookup is None and any(not n or not set(n) <= _NAME_CHARS or n[0] in "-0123456789" for n in names):
                    if text[i - 1:i] == "]":  # a span's style, written as a card's text writes it
                        raise LayoutError(f"{{{_short(inner)}}} is not a placeholder: a span's style in a layout's "
                                          f"text is written with doubled braces: ]{{{{{_short(inner)}}}}} (a card's "
                                          "attribute value takes single braces)")
                    raise LayoutError(f"{{{_short(inner)}}} is not a placeholder such as {{cost}}, {{cost:02d}} "
                                      "or {title|name}")
                if fmt and not _FORMAT.match(fmt):
                    raise LayoutError(f"{{{_short(inner)}}}: {fmt!r} is not a number format such as 02d or .1f")
                if literal:
                    parts.append("".join(literal))
                    literal = []
                parts.append(lookup or Placeholder(names, fmt))
                i = end + 1
            elif ch == "}":
                raise LayoutError(f"'}}' at character {i + 1} closes nothing (write '}}}}' for a brace)")
            else:
                nxt = min((p for p in (text.find("{", i), text.find("}", i)) if p >= 0), default=n)
                literal.append(text[i:nxt])
                i = nxt
        if literal:
            parts.append("".join(literal))
        return cls(tuple(parts))

    # Asked for each card a template draws: worked out once (a template never changes).
    @cached_property
    def placeholders(self) -> tuple[Placeholder, ...]:
        return tuple(p for p in self.parts if isinstance(p, Placeholder))

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Every name the template may read, alternatives included."""
        return tuple(n for p in self.placeholders for n in p.names)

    @cached_property
    def constant(self) -> str | None:
        """The text when the template has no placeholder, else None."""
        return None if self.names else "".join(p for p in self.parts if isinstance(p, str))

    def marked(self, mark: str) -> str:
        """The template's own text, each placeholder written ``mark``: what a layout says whatever
        the card, apart from what the card gives."""
        return "".join(p if isinstance(p, str) else mark for p in self.parts)

    def render(self, values: Mapping[str, Any], literal: Callable[[str], str] | None = None) -> str:
        """The text for a card with ``values``; ``literal`` (if given) is applied to every piece
        except an ``{_attributes}`` list, which is made to print as written already."""
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(literal(part) if literal else part)
                continue
            name = part.choose(values)
            if name is None:
                if part.index is not None:
                    raise LayoutError(f"the card has no attribute {part.names[0]!r} with an item {part.index} "
                                      f"(counted from 0) for {{{part.spelled}}}")
                if len(part.names) == 1:
                    raise LayoutError(f"the card has no attribute {part.names[0]!r}")
                listed = ", ".join(repr(n) for n in part.names)
                raise LayoutError(f"the card has none of the attributes {listed}")
            text = format_value(part.value(name, values), part)
            out.append(literal(text) if literal and name != ATTRIBUTES else text)
        return "".join(out)

    def shown(self, values: Mapping[str, Any]) -> tuple[str, ...]:
        """The names whose values this template shows for a card with ``values``."""
        return tuple(n for n in (p.choose(values) for p in self.placeholders) if n is not None)


def format_value(value: Any, placeholder: Placeholder) -> str:
    """``value`` as a placeholder prints it (its number format, lists joined, true/false)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(v, placeholder) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if placeholder.format and isinstance(value, (int, float)):
        try:
            return format(value, placeholder.format)
        except ValueError as exc:
            raise LayoutError(f"{{{'|'.join(placeholder.names)}:{placeholder.format}}} cannot format "
                              f"{value!r}: {exc}") from None
    return str(value)


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
