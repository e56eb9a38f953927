"""Typed models of a deck spec. ``printkit schema`` prints their JSON Schema.

Each model is a frozen dataclass whose fields carry the kind of value they hold
(:mod:`printkit.spec.fields`); :func:`validate` checks data read from YAML into a :class:`Spec`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from printkit.spec.fields import (
    INVALID,
    Checked,
    ListOf,
    MapOf,
    Model,
    Number,
    OneOf,
    Optional,
    Problem,
    Scalar,
    Text,
    Whole,
    name_message,
    spec_field,
)
from printkit.units import LENGTH_RE, parse_length_mm

if TYPE_CHECKING:
    from printkit.spec.data import DataTable

MAX_COPIES = 1000
MAX_CARDS = 10_000

AttrValue = Union[str, int, float, bool, list]

SCALAR = Scalar()
ATTR_VALUE = OneOf(SCALAR, ListOf(SCALAR), noun="text, a number, true/false or a list of those")
NAME = Text(max_length=64, pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$", mismatch=name_message)
TEXT = Text()
COUNT = Whole(ge=0, le=MAX_CARDS)
COPIES = Whole(ge=0, le=MAX_COPIES)

_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def _color(value: str) -> str:
    if not _HEX.fullmatch(value):
        raise ValueError(f"expected a colour such as '#1f3b5a', got {value!r}")
    if len(value) == 4:
        value = "#" + "".join(ch * 2 for ch in value[1:])
    return value.lower()


def _length(value: str | int | float) -> str | int | float:
    mm = parse_length_mm(value)
    if mm < 0:
        raise ValueError(f"a length cannot be negative, got {value!r}")
    if mm > 1000:
        raise ValueError(f"length {value!r} is more than 1000 mm")
    return value


COLOR = Checked(Text(), _color, {"type": "string", "pattern": _HEX.pattern}, noun="a colour such as '#1f3b5a'")
LENGTH = Checked(OneOf(Text(), Number()), _length,
                 {"anyOf": [{"type": "string", "pattern": LENGTH_RE.pattern}, {"type": "number"}]},
                 noun="a length such as '3mm' or '0.125in'")
MATCH = MapOf(ATTR_VALUE, key=TEXT)


def _data_message(value: str) -> str:
    return f"data file {value!r} must be a .csv, .tsv, .xlsx or .ods file"


@dataclass(frozen=True, kw_only=True)
class BackArt:
    """The card back: a colour, a label printed on it, or an image covering it."""

    color: str | None = spec_field(Optional(COLOR), None)
    label: str | None = spec_field(Optional(Text(max_length=40)), None)
    image: str | None = spec_field(Optional(TEXT), None)


@dataclass(frozen=True, kw_only=True)
class ArtSpec:
    """Art customisation; set on the deck, a group or an override (later levels win)."""

    colors: dict[str, str] = spec_field(MapOf(COLOR, key=TEXT), factory=dict,
                                        description="Named colours used by the card templates.")
    font: str | None = spec_field(Optional(TEXT), None, description="A font file in fonts/ or a path relative to the spec.")
    font_bold: str | None = spec_field(Optional(TEXT), None)
    background_image: str | None = spec_field(Optional(TEXT), None, description="PNG/JPEG drawn under the face.")
    foreground_image: str | None = spec_field(Optional(TEXT), None, description="PNG/JPEG drawn over the face art.")
    back: BackArt | None = spec_field(Optional(Model(BackArt)), None)


@dataclass(frozen=True, kw_only=True)
class SizeSpec:
    width: str | int | float = spec_field(LENGTH)
    height: str | int | float = spec_field(LENGTH)


SIZE = OneOf(TEXT, Model(SizeSpec))


@dataclass(frozen=True, kw_only=True)
class CardFormatSpec:
    """Card trim size (a name or explicit lengths) with bleed, safe zone and corner radius."""

    size: str | SizeSpec = spec_field(SIZE, "poker", description="poker, bridge, mini, tarot, square, or {width, height}.")
    bleed: str | int | float = spec_field(LENGTH, "3mm")
    safe: str | int | float = spec_field(LENGTH, "3mm")
    corner_radius: str | int | float = spec_field(LENGTH, "3mm")


@dataclass(frozen=True, kw_only=True)
class CombineSpec:
    """Cards holding every ``size``-element combination of ``of`` in attribute ``attr``."""

    attr: str = spec_field(NAME)
    of: list = spec_field(ListOf(SCALAR, min_length=1, max_length=64))
    size: int | list[int] = spec_field(OneOf(Whole(), ListOf(Whole()), noun="a whole number or a list of whole numbers"))


@dataclass(frozen=True, kw_only=True)
class ExpectSpec:
    """Expected counts that `printkit check` compares with the expanded deck."""

    total: int | None = spec_field(Optional(COUNT), None)
    groups: dict[str, int] = spec_field(MapOf(COUNT, key=TEXT), factory=dict)
    by: dict[str, dict[str, int]] = spec_field(MapOf(MapOf(COUNT, key=TEXT), key=TEXT), factory=dict)


@dataclass(frozen=True, kw_only=True)
class Override:
    """Changes for the cards a ``match`` selects: copies, extra attributes, art."""

    match: dict[str, AttrValue] = spec_field(MATCH)
    copies: int | None = spec_field(Optional(COPIES), None)
    attrs: dict[str, AttrValue] = spec_field(MapOf(ATTR_VALUE, key=NAME), factory=dict)
    art: ArtSpec | None = spec_field(Optional(Model(ArtSpec)), None)


@dataclass(frozen=True, kw_only=True)
class GroupSpec:
    """A group of cards from exactly one source: ``generate``, ``combine``, ``cards`` or ``data``."""

    name: str = spec_field(NAME)
    attrs: dict[str, AttrValue] = spec_field(MapOf(ATTR_VALUE, key=NAME), factory=dict,
                                             description="Attributes every card of the group has.")
    generate: dict[str, list] | None = spec_field(Optional(MapOf(ListOf(SCALAR, min_length=1), key=NAME)), None,
                                                  description="The product of attribute lists, e.g. symbol x number.")
    combine: CombineSpec | None = spec_field(Optional(Model(CombineSpec)), None)
    cards: list[dict[str, AttrValue]] | None = spec_field(Optional(ListOf(MapOf(ATTR_VALUE, key=NAME))), None)
    data: str | None = spec_field(Optional(Text(pattern=r"^.*\.(?:[cC][sS][vV]|[tT][sS][vV]|[xX][lL][sS][xX]|[oO][dD][sS])$",
                                                mismatch=_data_message)), None,
                                  description="A CSV, TSV, XLSX or ODS file beside the spec: a header row of "
                                              "attribute names, then one card per row (a 'copies' or 'qty' column "
                                              "sets copies).")
    sheet: str | None = spec_field(Optional(TEXT), None, description="The workbook sheet to read (default: the first).")
    copies: int = spec_field(COPIES, 1)
    exclude: list[dict[str, AttrValue]] = spec_field(ListOf(MATCH), factory=list)
    overrides: list[Override] = spec_field(ListOf(Model(Override)), factory=list)
    art: ArtSpec | None = spec_field(Optional(Model(ArtSpec)), None)
    variants: list[str] | None = spec_field(Optional(ListOf(TEXT)), None, description="Only in these variants.")
    size: str | SizeSpec | None = spec_field(Optional(SIZE), None, description="A card size for this group only (components).")
    expect: ExpectSpec | None = spec_field(Optional(Model(ExpectSpec)), None)
    # The rows of ``data``, read when the spec is loaded (not a key of the spec).
    table: DataTable | None = field(default=None, compare=False, repr=False)

    def validate(self) -> str | None:
        """A group takes its cards from exactly one source."""
        sources = [name for name in ("generate", "combine", "cards", "data") if getattr(self, name) is not None]
        if len(sources) != 1:
            found = ", ".join(sources) if sources else "none"
            return f"group {self.name!r} needs exactly one of generate, combine, cards, data (found: {found})"
        if self.sheet is not None and self.data is None:
            return f"group {self.name!r} has a 'sheet' but no 'data' workbook to read it from"
        return None


@dataclass(frozen=True, kw_only=True)
class VariantSpec:
    description: str | None = spec_field(Optional(TEXT), None)
    exclude: list[dict[str, AttrValue]] = spec_field(ListOf(MATCH), factory=list)
    expect: ExpectSpec | None = spec_field(Optional(Model(ExpectSpec)), None)
    options: dict[str, Any] = spec_field(MapOf(SCALAR, key=NAME), factory=dict)


def _language_message(value: str) -> str:
    return f"{value!r} is not a language code such as 'ko' or 'en'"


@dataclass(frozen=True, kw_only=True)
class Spec:
    """A deck specification: one YAML file in decks/."""

    game: str = spec_field(NAME, description="The rule engine: calc, stack or clag (others build but are not played).")
    name: str = spec_field(Text(max_length=100))
    names: dict[str, str] = spec_field(
        MapOf(Text(max_length=100), key=Text(pattern=r"^[a-z]{2,3}$"), bad_key=_language_message), factory=dict,
        description="The deck's name in other languages, e.g. {ko: 스택 오리지널}; rulebooks use it.")
    description: str | None = spec_field(Optional(TEXT), None)
    card: CardFormatSpec = spec_field(Model(CardFormatSpec), factory=CardFormatSpec)
    count_by: list[str] = spec_field(ListOf(TEXT), factory=list, description="Attributes `check` counts by.")
    art: ArtSpec | None = spec_field(Optional(Model(ArtSpec)), None)
    options: dict[str, Any] = spec_field(MapOf(SCALAR, key=NAME), factory=dict,
                                         description="Rule engine options (e.g. hook: true).")
    groups: list[GroupSpec] = spec_field(ListOf(Model(GroupSpec), min_length=1, max_length=200))
    components: list[GroupSpec] = spec_field(ListOf(Model(GroupSpec)), factory=list,
                                             description="Printed extras counted apart from the deck.")
    variants: dict[str, VariantSpec] = spec_field(MapOf(Model(VariantSpec), key=NAME), factory=dict)
    default_variant: str | None = spec_field(Optional(TEXT), None)
    expect: ExpectSpec | None = spec_field(Optional(Model(ExpectSpec)), None)


SPEC = Model(Spec)


def validate(data: Any) -> tuple[Spec | None, list[Problem]]:
    """``data`` (plain values read from YAML) checked into a Spec, or None and every problem found."""
    problems: list[Problem] = []
    spec = SPEC.check(data, (), problems)
    return (None if spec is INVALID else spec), problems


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a deck spec, for editors that check YAML as it is typed."""
    defs: dict[str, Any] = {}
    schema = SPEC.definition(defs)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema,
            "title": "printkit deck spec", "$defs": defs}
