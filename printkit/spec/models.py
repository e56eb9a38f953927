"""Typed models of a deck spec (pydantic). ``printkit schema`` prints their JSON Schema."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from printkit.units import parse_length_mm

MAX_COPIES = 1000
MAX_CARDS = 10_000

Scalar = StrictStr | StrictInt | StrictFloat | StrictBool
AttrValue = Scalar | list[Scalar]
Name = Annotated[StrictStr, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$", max_length=64)]

_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def _color(value: str) -> str:
    if not _HEX.match(value):
        raise ValueError(f"expected a colour such as '#1f3b5a', got {value!r}")
    if len(value) == 4:
        value = "#" + "".join(ch * 2 for ch in value[1:])
    return value.lower()


def _length(value: str | int | float) -> str | int | float:
    mm = parse_length_mm(value)
    if not 0 <= mm <= 1000:
        raise ValueError(f"length {value!r} is outside 0..1000 mm")
    return value


Color = Annotated[StrictStr, AfterValidator(_color)]
Length = Annotated[StrictStr | StrictInt | StrictFloat, AfterValidator(_length)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_CARDS)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BackArt(_Model):
    """The card back: a colour, a label printed on it, or an image covering it."""

    color: Color | None = None
    label: StrictStr | None = Field(default=None, max_length=40)
    image: StrictStr | None = None


class ArtSpec(_Model):
    """Art customisation; set on the deck, a group or an override (later levels win)."""

    colors: dict[StrictStr, Color] = Field(default_factory=dict, description="Named colours used by the card templates.")
    font: StrictStr | None = Field(default=None, description="A font file in fonts/ or a path relative to the spec.")
    font_bold: StrictStr | None = None
    background_image: StrictStr | None = Field(default=None, description="PNG/JPEG drawn under the face.")
    foreground_image: StrictStr | None = Field(default=None, description="PNG/JPEG drawn over the face art.")
    back: BackArt | None = None


class SizeSpec(_Model):
    width: Length
    height: Length


class CardFormatSpec(_Model):
    """Card trim size (a name or explicit lengths) with bleed, safe zone and corner radius."""

    size: StrictStr | SizeSpec = Field(default="poker", description="poker, bridge, mini, tarot, square, or {width, height}.")
    bleed: Length = "3mm"
    safe: Length = "3mm"
    corner_radius: Length = "3mm"


class CombineSpec(_Model):
    """Cards holding every ``size``-element combination of ``of`` in attribute ``attr``."""

    attr: Name
    of: Annotated[list[Scalar], Field(min_length=1, max_length=64)]
    size: StrictInt | list[StrictInt]


class ExpectSpec(_Model):
    """Expected counts that `printkit check` compares with the expanded deck."""

    total: Count | None = None
    groups: dict[StrictStr, Count] = Field(default_factory=dict)
    by: dict[StrictStr, dict[StrictStr, Count]] = Field(default_factory=dict)


Match = dict[StrictStr, AttrValue]


class Override(_Model):
    """Changes for the cards a ``match`` selects: copies, extra attributes, art."""

    match: Match
    copies: Annotated[StrictInt, Field(ge=0, le=MAX_COPIES)] | None = None
    attrs: dict[Name, AttrValue] = Field(default_factory=dict)
    art: ArtSpec | None = None


class GroupSpec(_Model):
    """A group of cards from exactly one source: ``generate``, ``combine`` or ``cards``."""

    name: Name
    attrs: dict[Name, AttrValue] = Field(default_factory=dict, description="Attributes every card of the group has.")
    generate: dict[Name, Annotated[list[Scalar], Field(min_length=1)]] | None = Field(
        default=None, description="The product of attribute lists, e.g. symbol x number."
    )
    combine: CombineSpec | None = None
    cards: list[dict[Name, AttrValue]] | None = None
    copies: Annotated[StrictInt, Field(ge=0, le=MAX_COPIES)] = 1
    exclude: list[Match] = Field(default_factory=list)
    overrides: list[Override] = Field(default_factory=list)
    art: ArtSpec | None = None
    variants: list[StrictStr] | None = Field(default=None, description="Only in these variants.")
    size: StrictStr | SizeSpec | None = Field(default=None, description="A card size for this group only (components).")
    expect: ExpectSpec | None = None

    @model_validator(mode="after")
    def _one_source(self) -> "GroupSpec":
        sources = [name for name in ("generate", "combine", "cards") if getattr(self, name) is not None]
        if len(sources) != 1:
            found = ", ".join(sources) if sources else "none"
            raise ValueError(f"group {self.name!r} needs exactly one of generate, combine, cards (found: {found})")
        return self


class VariantSpec(_Model):
    description: StrictStr | None = None
    exclude: list[Match] = Field(default_factory=list)
    expect: ExpectSpec | None = None
    options: dict[Name, Scalar] = Field(default_factory=dict)


class Spec(_Model):
    """A deck specification: one YAML file in decks/."""

    game: Name = Field(description="The rule engine: calc, stack or clag (others build but are not played).")
    name: StrictStr = Field(max_length=100)
    names: dict[Annotated[StrictStr, Field(pattern=r"^[a-z]{2,3}$")], Annotated[StrictStr, Field(max_length=100)]] = Field(
        default_factory=dict, description="The deck's name in other languages, e.g. {ko: 스택 오리지널}; rulebooks use it."
    )
    description: StrictStr | None = None
    card: CardFormatSpec = Field(default_factory=CardFormatSpec)
    count_by: list[StrictStr] = Field(default_factory=list, description="Attributes `check` counts by.")
    art: ArtSpec | None = None
    options: dict[Name, Scalar] = Field(default_factory=dict, description="Rule engine options (e.g. hook: true).")
    groups: Annotated[list[GroupSpec], Field(min_length=1, max_length=200)]
    components: list[GroupSpec] = Field(default_factory=list, description="Printed extras counted apart from the deck.")
    variants: dict[Name, VariantSpec] = Field(default_factory=dict)
    default_variant: StrictStr | None = None
    expect: ExpectSpec | None = None


def json_schema() -> dict[str, Any]:
    schema = Spec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "printkit deck spec"
    return schema
