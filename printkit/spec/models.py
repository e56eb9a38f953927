"""Typed models of a deck spec. ``printkit schema`` prints their JSON Schema.

Each model is a frozen dataclass whose fields carry the kind of value they hold
(:mod:`printkit.spec.fields`); :func:`validate` checks data read from YAML into a :class:`Spec`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from printkit.deck import OWN_VALUES, own_value_message
from printkit.spec.fields import (
    INVALID,
    Checked,
    Flag,
    Kind,
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
MAX_CARDS = 100_000
MAX_COMPONENTS = 200  # component groups, as many as a spec may have groups of cards
MAX_VARIANTS = 100
LANG_TAG = r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$"  # a BCP 47 language tag: ko, en, pt-BR, zh-Hant

AttrValue = Union[str, int, float, bool, list]

SCALAR = Scalar()
ATTR_VALUE = OneOf(SCALAR, ListOf(SCALAR), noun="text, a number, true/false or a list of those")
NAME = Text(max_length=64, pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$", mismatch=name_message)
TEXT = Text()


def attribute_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a card attribute, or None if it can: the one rule for a spec's
    attribute names and a data file's column names (each caller says where the name is)."""
    if len(name) > NAME.max_length:
        # quoted in part only: a data file's header cell may be long
        return f"{name[:20]!r}... is too long for a name: at most {NAME.max_length} characters, got {len(name)}"
    if not re.fullmatch(NAME.pattern, name):
        return name_message(name)
    if name in OWN_VALUES:
        return own_value_message(name)
    return None


def _attribute_name(name: str) -> str:
    problem = attribute_name_problem(name)
    if problem:
        raise ValueError(problem)
    return name


# A card attribute's name: a name, but none of printkit's own values a layout reads.
ATTR_NAME = Checked(TEXT, _attribute_name, {"type": "string", "maxLength": NAME.max_length, "pattern": NAME.pattern,
                                            "not": {"enum": list(OWN_VALUES)}}, noun=NAME.noun)


def _attribute_key_message(key: Any) -> str:
    # a key YAML read as a number (or true) is not a name either
    return (attribute_name_problem(key) if isinstance(key, str) else None) or name_message(key)


def _attributes(value: Kind) -> MapOf:
    """A mapping of attribute names to ``value``s, a bad name said at its key."""
    return MapOf(value, key=ATTR_NAME, bad_key=_attribute_key_message)


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
# What a layout draws: each attribute's value, or a list of at least one.
REQUIRES = MapOf(OneOf(SCALAR, ListOf(SCALAR, min_length=1), noun="text, a number, true/false or a list of those"),
                 key=TEXT)
# A pattern's period: patterns finer than this would be millions of shapes, and print as grey.
MIN_SPACING_MM = 0.5


# A share of the card's shorter side (trim), the same on a portrait and a landscape card: "8%short".
SHORT_RE = re.compile(r"^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*%short\s*$")


def _short_or(check):
    """``check``, letting a share of the card's shorter side (``8%short``) through."""
    def checked(value: str | int | float) -> str | int | float:
        if isinstance(value, str) and SHORT_RE.fullmatch(value):
            if float(value.strip()[:-len("%short")]) > 1000:
                raise ValueError(f"{value!r} is more than ten times the card's shorter side")
            return value
        if isinstance(value, str) and "%" in value:
            raise ValueError(f"expected a length such as '3mm', or a share of the card's shorter side such as "
                             f"'8%short', got {value!r}")
        return check(value)
    return checked


def _spacing(value: str | int | float) -> str | int | float:
    if parse_length_mm(_length(value)) < MIN_SPACING_MM:
        raise ValueError(f"a pattern's spacing is at least {MIN_SPACING_MM:g}mm, got {value!r}")
    return value


SPACING = Checked(OneOf(Text(), Number()), _short_or(_spacing),
                  {"anyOf": [{"type": "string", "pattern": LENGTH_RE.pattern},
                             {"type": "string", "pattern": SHORT_RE.pattern}, {"type": "number"}]},
                  noun="a length of at least 0.5mm, or a share of the card's shorter side such as '14%short'")
# A rect's corner radius: a length, or a share of the card's shorter side.
RADIUS = Checked(OneOf(Text(), Number()), _short_or(_length),
                 {"anyOf": [{"type": "string", "pattern": LENGTH_RE.pattern},
                            {"type": "string", "pattern": SHORT_RE.pattern}, {"type": "number"}]},
                 noun="a length such as '1.5mm', or a share of the card's shorter side such as '6%short'")
# A box length: a length, or a percentage of the frame; negative measures from the far edge.
BOX_LENGTH_RE = re.compile(r"^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:\s*(?:mm|cm|in|pt|%short|%))?\s*$")
# A percentage less or more a length or another percentage: "100% - 61mm", "50% + 2mm", "0% - 1.5%"
# (a box starting a little before its frame's edge).
# The second term may be a share of the card's shorter side: "50% - 30%short".
BOX_SUM_RE = re.compile(r"^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*%\s*[+-]\s*(?:\d+(?:\.\d*)?|\.\d+)(?:\s*(?:mm|cm|in|pt|%short|%))?\s*$")


def _box_length(value: str | int | float) -> str | int | float:
    if isinstance(value, str) and not (BOX_LENGTH_RE.fullmatch(value) or BOX_SUM_RE.fullmatch(value)):
        raise ValueError(f"expected a length such as '3mm', '-5mm', '40%', '8%short' or '100% - 6mm', got {value!r}")
    return value


BOX_LENGTH = Checked(OneOf(Text(max_length=40), Number()), _box_length,
                     {"anyOf": [{"type": "string", "pattern": BOX_LENGTH_RE.pattern},
                                {"type": "string", "pattern": BOX_SUM_RE.pattern}, {"type": "number"}]},
                     noun="a length such as '3mm', '-5mm', '40%', '8%short' or '100% - 6mm'")


def _zero(value: str | int | float) -> bool:
    """Whether a box length (checked already) is nought, in any unit or sign."""
    return float(re.sub(r"[^0-9.]", "", str(value)) or 0) == 0


def _choice(*values: str) -> Text:
    listed = ", ".join(values)
    return Text(pattern=f"^(?:{'|'.join(values)})$", mismatch=lambda value: f"{value!r} is not one of: {listed}")


TEXT_SIZE_RE = re.compile(r"^\s*(?:\d+(?:\.\d*)?|\.\d+)(?:\s*(?:mm|cm|in|pt|%))?\s*$")


def _text_size(value: str | int | float) -> str | int | float:
    if isinstance(value, str) and not TEXT_SIZE_RE.fullmatch(value):
        raise ValueError(f"expected a size such as '4mm', '12pt' or '60%' (of the box's height), got {value!r}")
    if not isinstance(value, str) and value < 0:
        raise ValueError(f"a size cannot be negative, got {value!r}")
    return value


TEXT_SIZE = Checked(OneOf(Text(max_length=40), Number()), _text_size,
                    {"anyOf": [{"type": "string", "pattern": TEXT_SIZE_RE.pattern}, {"type": "number", "minimum": 0}]},
                    noun="a size such as '4mm' or '60%'")

# What a component is for, when it is not a playing card: each has a back of its own.
ROLES = ("aid", "reference", "token", "marker")
ELEMENT_KINDS = ("text", "image", "rect", "ellipse", "line", "icon", "lattice", "hatch", "table")
# Which keys, beyond the box and the conditions, each kind of element reads.
ELEMENT_KEYS = {
    "text": {"text", "font", "font_bold", "font_italic", "size", "min_size", "legibility_floor", "bold", "italic", "color",
             "align", "valign", "line_spacing", "paragraph_spacing", "fit", "wrap", "markup", "plate", "keep_words",
             "unless_repeats"},
    "image": {"image", "fit"},
    "rect": {"fill", "stroke", "stroke_width", "radius"},
    "ellipse": {"fill", "stroke", "stroke_width"},
    "line": {"stroke", "stroke_width"},
    "icon": {"icon", "color", "stroke", "fit"},
    "lattice": {"fill", "spacing"},
    "hatch": {"fill", "spacing", "border"},
    "table": {"table", "color", "stroke", "stroke_width"},
}
_COMMON_KEYS = {"name", "kind", "x", "y", "width", "height", "frame", "padding", "when", "when_has", "when_lacks",
                "before", "after", "label", "rotate", "both_ends", "anchor", "clear_of", "when_drawn"}
_REQUIRED_KEYS = {"text": "text", "image": "image", "icon": "icon", "table": "table"}
_FITS = {"text": ("shrink", "none"), "image": ("cover", "contain", "stretch"), "icon": ("contain", "square", "stretch")}
NAMES = OneOf(NAME, ListOf(NAME, min_length=1, max_length=64), noun="an attribute name or a list of them")
ELEMENT_NAMES = OneOf(NAME, ListOf(NAME, min_length=1, max_length=64), noun="an element's name or a list of them")
# How an anchored element's box stands by its text, across and down (printkit.layout.anchors);
# the spaced ones leave a gap between them.
ANCHOR_ACROSS = ("start", "center", "centre", "end", "after", "before")
ANCHOR_DOWN = ("top", "middle", "bottom", "above", "below")
ANCHOR_SPACED = ("after", "before", "above", "below")
# An attribute, or one item of a list attribute (minerals[2], counted from 0), that a condition asks for.
ITEM_NAME = Text(max_length=64, pattern=r"^[A-Za-z_][A-Za-z0-9_-]*(\[[0-9]{1,2}\])?$",
                 mismatch=lambda v: f"expected an attribute name such as cost, or an item of one such as minerals[2], got {v!r}")
ITEM_NAMES = OneOf(ITEM_NAME, ListOf(ITEM_NAME, min_length=1, max_length=64),
                   noun="an attribute name (or an item such as minerals[2]) or a list of them")
# A spec's lookups: a name, then each key's value (a text or a colour).
LOOKUPS = MapOf(MapOf(SCALAR, key=TEXT, max_length=1000), key=NAME, max_length=100)


def _data_message(value: str) -> str:
    return f"data file {value!r} must be a .csv, .tsv, .xlsx or .ods file"


@dataclass(frozen=True, kw_only=True)
class ExportSpec:
    """What ``printkit export`` takes from the deck beyond its faces."""

    description: str | None = spec_field(Optional(NAME), None, description="The card attribute whose text "
                                         "is a card's description in Tabletop Simulator (default: text, then rules).")


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
class AnchorSpec:
    """An element's box placed by a text drawn before it, where that text is set on each card."""

    to: str = spec_field(NAME, description="The name of a text element drawn before this one.")
    x: str | None = spec_field(Optional(_choice(*ANCHOR_ACROSS)), None, description="start, center or end: "
                               "the box's left edge, centre or right edge at the text's; after / before: the "
                               "box just after the text's end / before its start, gap apart (default: as x puts it).")
    y: str | None = spec_field(Optional(_choice(*ANCHOR_DOWN)), None, description="top, middle or bottom: the "
                               "box's top, middle or bottom at the top of the text's capitals, their middle or its "
                               "last baseline; below / above: gap under the last baseline / over the capitals "
                               "(default: as y puts it).")
    gap: str | int | float = spec_field(LENGTH, 0, description="The room after, before, below or above leaves.")

    def validate(self) -> str | None:
        if self.x is None and self.y is None:
            return "an anchor says how the box stands by the text: give it x (start, center, end, after, " \
                   "before), y (top, middle, bottom, above, below) or both"
        if parse_length_mm(self.gap) and self.x not in ANCHOR_SPACED and self.y not in ANCHOR_SPACED:
            return "gap is the room an anchor's after, before, above or below leaves; lining edges up " \
                   "(start, center, end, top, middle, bottom) takes none"
        return None


@dataclass(frozen=True, kw_only=True)
class TableColumnSpec:
    """One column of a table: its width, its heading and how its cells' text is set."""

    width: str | int | float = spec_field(BOX_LENGTH, description="mm, or % of the width the columns share.")
    header: str | None = spec_field(Optional(SCALAR), None, description="The column's heading.")
    size: str | int | float = spec_field(TEXT_SIZE, "3mm", description="The cells' largest text size.")
    min_size: str | int | float = spec_field(TEXT_SIZE, "1.6mm")
    bold: bool = spec_field(Flag(), True)
    color: str | None = spec_field(Optional(TEXT), None, description="The cells' text colour (default ink).")
    align: str = spec_field(_choice("left", "center", "centre", "right"), "center")
    inset: str | int | float = spec_field(LENGTH, "0.5mm", description="Room left and right of a cell's text.")
    same_size: bool = spec_field(Flag(), False, description="Every cell of the column at one size: the "
                                 "largest at which all fit.")


@dataclass(frozen=True, kw_only=True)
class TableRowSpec:
    """One row of a table: its cells' texts (the first columns), a fill and a mark for repeated columns."""

    cells: list[str | int | float] = spec_field(ListOf(SCALAR, max_length=50), factory=list)
    fill: str | None = spec_field(Optional(TEXT), None, description="The row's colour behind its cells.")
    mark: str | None = spec_field(Optional(SCALAR), None, description="Printed in the first column of every "
                                  "repeat, on a grey cell: nothing is written there in this row.")


@dataclass(frozen=True, kw_only=True)
class TableRepeatSpec:
    """Columns repeated a number of times (one group per player), sharing the width the others leave."""

    count: str | int = spec_field(OneOf(Whole(ge=1, le=20), TEXT), description="How many groups: a number "
                                  "or a placeholder such as {max_players}.")
    header: str | None = spec_field(Optional(TEXT), None, description="Each group's label; {n} is its number.")
    fill: str | None = spec_field(Optional(TEXT), None, description="The colour behind each group's label.")
    columns: list[TableColumnSpec] = spec_field(ListOf(Model(TableColumnSpec), min_length=1, max_length=20))


@dataclass(frozen=True, kw_only=True)
class TableSpec:
    """A ruled table: columns with headings, a repeated group of columns, rows and summary rows."""

    columns: list[TableColumnSpec] = spec_field(ListOf(Model(TableColumnSpec), max_length=20), factory=list)
    repeat: TableRepeatSpec | None = spec_field(Optional(Model(TableRepeatSpec)), None)
    header_height: str | int | float = spec_field(LENGTH, "7mm", description="The heading row (with a repeat: "
                                                  "the groups' labels).")
    subheader_height: str | int | float = spec_field(LENGTH, "5mm", description="With a repeat: the row of "
                                                     "its columns' headings.")
    row_height: str | int | float = spec_field(LENGTH, "9mm", description="The rows' height at most; less when "
                                               "the rows would not fit the box.")
    rows: list[TableRowSpec] = spec_field(ListOf(Model(TableRowSpec), max_length=200), factory=list)
    rows_shown: str | int | None = spec_field(Optional(OneOf(Whole(ge=0, le=200), TEXT)), None,
                                              description="Only this many of the rows: a number or a placeholder.")
    footer: list[str] = spec_field(ListOf(SCALAR, max_length=10), factory=list,
                                   description="Summary rows' labels, across the first columns.")
    footer_fill: str | None = spec_field(Optional(TEXT), None)
    mark_fill: str = spec_field(TEXT, "#d9d9d9", description="The colour of a row's marked cells.")
    header_size: str | int | float = spec_field(TEXT_SIZE, "3mm", description="The columns' headings' size.")
    subheader_size: str | int | float = spec_field(TEXT_SIZE, "2.6mm", description="The repeated columns' "
                                                   "headings' size (one for all, the largest that fits each).")
    label_size: str | int | float = spec_field(TEXT_SIZE, "1.9mm", description="Each group's label's size.")
    footer_size: str | int | float = spec_field(TEXT_SIZE, "3.4mm", description="The summary rows' labels' size.")


@dataclass(frozen=True, kw_only=True)
class ElementSpec:
    """One thing a layout draws: a kind, a box and the style of that kind."""

    name: str | None = spec_field(Optional(NAME), None, description="Names the element, so a layout that "
                                  "extends this one can replace it.")
    label: str | dict[str, str] | None = spec_field(
        Optional(OneOf(Text(max_length=100), MapOf(Text(max_length=100), key=Text(pattern=LANG_TAG),
                                                   bad_key=lambda v: _language_message(v)))), None,
        description="What a rulebook's '::: anatomy' calls the element: a name, or one per language, "
                    "e.g. {en: Cost, ko: 비용} (default: the element's name).")
    kind: str = spec_field(_choice(*ELEMENT_KINDS), description="text, image, rect, ellipse, line, icon, lattice, "
                           "hatch or table.")
    x: str | int | float = spec_field(BOX_LENGTH, 0, description="Left edge from the frame's left (negative: "
                                      "the right edge from the frame's right); mm, cm, in, pt or % of the frame.")
    y: str | int | float = spec_field(BOX_LENGTH, 0, description="Top edge from the frame's top (negative: the "
                                      "bottom edge from the frame's bottom).")
    width: str | int | float = spec_field(BOX_LENGTH, "100%")
    height: str | int | float = spec_field(BOX_LENGTH, "100%")
    frame: str = spec_field(_choice("trim", "bleed", "safe"), "trim",
                            description="The box x, y, width and height are measured in: trim, bleed or safe.")
    padding: str | int | float = spec_field(LENGTH, 0, description="Room left inside the box on every side.")
    when: dict[str, AttrValue] | None = spec_field(Optional(MATCH), None,
                                                   description="Drawn only for cards this match selects.")
    when_has: str | list[str] | None = spec_field(Optional(ITEM_NAMES), None,
                                                  description="Drawn only for cards that have these attributes "
                                                              "(minerals[2]: a list attribute with a third item).")
    when_lacks: str | list[str] | None = spec_field(Optional(ITEM_NAMES), None,
                                                    description="Drawn only for cards without these attributes.")
    text: str | int | float | None = spec_field(Optional(SCALAR), None,
                                                description="Text with {attribute} placeholders, **bold**, "
                                                            "*italic* and :icon: markup.")
    image: str | None = spec_field(Optional(TEXT), None, description="A PNG, JPEG or SVG file beside the spec; "
                                   "placeholders pick one per card, e.g. art/{id}.svg.")
    icon: str | None = spec_field(Optional(TEXT), None, description="An icon name from the spec's icons or the "
                                  "built-in ones (placeholders allowed).")
    font: str | None = spec_field(Optional(TEXT), None)
    font_bold: str | None = spec_field(Optional(TEXT), None)
    font_italic: str | None = spec_field(Optional(TEXT), None)
    size: str | int | float | None = spec_field(Optional(TEXT_SIZE), None, description="The text size (its largest "
                                                "with fit: shrink); a percentage is of the box's height.")
    min_size: str | int | float | None = spec_field(Optional(TEXT_SIZE), None)
    legibility_floor: str | int | float | None = spec_field(Optional(LENGTH), None, description="This text's "
                                                            "legibility floor instead of card.min_text_size: "
                                                            "set smaller than it, the text is a warning (a "
                                                            "caption small by design, e.g. 4.5pt).")
    bold: bool = spec_field(Flag(), False)
    italic: bool = spec_field(Flag(), False)
    wrap: bool = spec_field(Flag(), True, description="false: lines are made smaller rather than broken.")
    markup: bool = spec_field(Flag(), True, description="false: **, * and :name: print as written.")
    keep_words: bool = spec_field(Flag(), False, description="true: a Korean word is never broken between "
                                  "syllables to fill a line; a word that does not fit starts the next one.")
    plate: bool = spec_field(Flag(), False, description="Over a background image, set the text on a plate of "
                             "the background colour.")
    color: str | None = spec_field(Optional(TEXT), None, description="Text or icon colour: '#rrggbb', a name "
                                   "in art.colors, or a placeholder.")
    align: str = spec_field(_choice("left", "center", "centre", "right"), "left")
    valign: str = spec_field(_choice("top", "middle", "bottom", "caps"), "top",
                             description="caps: the top of the capitals at the top of the box (lines text up "
                                         "with a shape beside it).")
    line_spacing: int | float = spec_field(Number(), 1.2, description="Baselines apart, in text sizes.")
    paragraph_spacing: int | float = spec_field(Number(), 0.35, description="Extra space before a paragraph "
                                                "(after an empty line), in text sizes.")
    rotate: int = spec_field(Whole(), 0, description="0, 90, 180 or 270 (degrees, counter-clockwise): a text or "
                             "picture turns within its box, a shape about the box's centre.")
    both_ends: bool = spec_field(Flag(), False, description="Also draw the element turned half a turn about the "
                                 "card's centre, as a playing card's corner index reads from either end.")
    fit: str | None = spec_field(Optional(TEXT), None, description="text: shrink (default) or none; "
                                 "image: cover (default), contain or stretch; icon: contain (default, the "
                                 "drawing fitted to the box), square (the icon's own square is the box) or "
                                 "stretch (a picture icon such as a scene fills the box).")
    fill: str | None = spec_field(Optional(TEXT), None)
    stroke: str | None = spec_field(Optional(TEXT), None)
    stroke_width: str | int | float = spec_field(LENGTH, "0.3mm")
    radius: str | int | float = spec_field(RADIUS, 0)
    spacing: str | int | float = spec_field(SPACING, "5mm", description="A lattice's diamonds, centre to centre "
                                            "along a row; a hatch's stripes, from one to the next.")
    border: str | int | float = spec_field(LENGTH, 0, description="A hatch: stripes only this far in from the "
                                           "box's edges (a hatched frame); 0 stripes the whole box.")
    table: TableSpec | None = spec_field(Optional(Model(TableSpec)), None, description="A table element's "
                                         "columns, rows and summary rows.")
    before: str | None = spec_field(Optional(NAME), None, description="In a layout that extends another: draw "
                                    "this element just before (under) the named element.")
    after: str | None = spec_field(Optional(NAME), None, description="In a layout that extends another: draw "
                                   "this element just after (over) the named element.")
    clear_of: str | list[str] | None = spec_field(Optional(ELEMENT_NAMES), None, description="Drawn only when its box "
                                                  "overlaps none of these elements' boxes, as drawn before it on "
                                                  "the card (a chip that steps aside when long names reach it).")
    when_drawn: str | list[str] | None = spec_field(Optional(ELEMENT_NAMES), None, description="Drawn only when "
                                                    "these elements were drawn before it on the card (a chip's "
                                                    "label goes with the chip).")
    unless_repeats: str | list[str] | None = spec_field(Optional(ELEMENT_NAMES), None, description="A text left "
                                                        "out on a card where it would print the same words as "
                                                        "these texts drawn before it (a second language's name "
                                                        "that falls back to the first's words).")
    anchor: AnchorSpec | None = spec_field(Optional(Model(AnchorSpec)), None, description="Place the box by a "
                                           "text drawn before it, as that text is set on each card, e.g. "
                                           "{to: title, x: after, gap: 1mm}.")

    def validate(self) -> str | None:
        """Each kind takes its own keys; text, image and icon elements say what they show."""
        if self.before is not None and self.after is not None:
            return "an element is placed either 'before' or 'after' another, not both"
        if self.anchor is not None:
            for axis, placed in (("x", self.anchor.x), ("y", self.anchor.y)):
                if placed is not None and not _zero(getattr(self, axis)):
                    return f"{axis} is where anchor.{axis} ({placed}) puts the box; leave {axis} out " \
                           "(the box keeps its width and height)"
        wanted = _REQUIRED_KEYS.get(self.kind)
        if wanted and getattr(self, wanted) is None:
            return f"a {self.kind} element needs '{wanted}'"
        allowed = ELEMENT_KEYS[self.kind] | _COMMON_KEYS
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        for key, default in defaults.items():
            if key not in allowed and getattr(self, key) != default:
                kinds = [k for k, keys in ELEMENT_KEYS.items() if key in keys]
                return f"'{key}' does not apply to a {self.kind} element (it is for: {', '.join(kinds)})"
        if self.fit is not None and self.fit not in _FITS.get(self.kind, ()):
            return f"fit {self.fit!r} is not one of: {', '.join(_FITS[self.kind])}"
        if self.rotate not in (0, 90, 180, 270):
            return f"rotate {self.rotate} is not one of: 0, 90, 180, 270"
        if not 0.5 <= self.line_spacing <= 5:
            return f"line_spacing {self.line_spacing:g} is not between 0.5 and 5"
        if not 0 <= self.paragraph_spacing <= 5:
            return f"paragraph_spacing {self.paragraph_spacing:g} is not between 0 and 5"
        return None


@dataclass(frozen=True, kw_only=True)
class LayoutSpec:
    """A card face as a list of elements drawn in order; ``extends`` starts from another layout."""

    extends: str | None = spec_field(Optional(NAME), None, description="A layout whose elements come first; "
                                     "an element with the same name replaces the inherited one in place.")
    remove: list[str] = spec_field(ListOf(NAME, max_length=200), factory=list,
                                   description="Names of inherited elements this layout does not draw.")
    requires: dict[str, AttrValue] | None = spec_field(Optional(REQUIRES), None, description="A match every card "
                                                       "the layout draws must meet, e.g. {lang: [en, ko]}: a card "
                                                       "it does not select is an error naming the card.")
    elements: list[ElementSpec] = spec_field(ListOf(Model(ElementSpec), max_length=200), factory=list)


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
    min_text_size: str | int | float = spec_field(LENGTH, "6pt", description="Text set smaller than this on a "
                                                  "layout's or the generic face's text is a warning.")


@dataclass(frozen=True, kw_only=True)
class CombineSpec:
    """Cards holding every ``size``-element combination of ``of`` in attribute ``attr``."""

    attr: str = spec_field(ATTR_NAME)
    of: list = spec_field(ListOf(SCALAR, min_length=1, max_length=64))
    size: int | list[int] = spec_field(OneOf(Whole(), ListOf(Whole()), noun="a whole number or a list of whole numbers"))


@dataclass(frozen=True, kw_only=True)
class ExpectSpec:
    """Expected counts that `printkit check` compares with the expanded deck."""

    total: int | None = spec_field(Optional(COUNT), None)
    groups: dict[str, int] = spec_field(MapOf(COUNT, key=TEXT), factory=dict)
    by: dict[str, dict[str, int]] = spec_field(MapOf(MapOf(COUNT, key=TEXT), key=TEXT), factory=dict)


@dataclass(frozen=True, kw_only=True)
class OwnExpectSpec:
    """What a group or component expects of its own cards: how many there are (the deck's
    ``expect:`` counts its groups and values)."""

    total: int = spec_field(COUNT)


@dataclass(frozen=True, kw_only=True)
class Override:
    """Changes for the cards a ``match`` selects: copies, extra attributes, art."""

    match: dict[str, AttrValue] = spec_field(MATCH)
    copies: int | None = spec_field(Optional(COPIES), None)
    attrs: dict[str, AttrValue] = spec_field(_attributes(ATTR_VALUE), factory=dict)
    art: ArtSpec | None = spec_field(Optional(Model(ArtSpec)), None)
    layout: str | None = spec_field(Optional(NAME), None, description="The layout of these cards' fronts.")
    back_layout: str | None = spec_field(Optional(NAME), None, description="The layout of these cards' backs.")


@dataclass(frozen=True, kw_only=True)
class GroupSpec:
    """A group of cards from exactly one source: ``generate``, ``combine``, ``cards`` or ``data``."""

    name: str = spec_field(NAME)
    attrs: dict[str, AttrValue] = spec_field(_attributes(ATTR_VALUE), factory=dict,
                                             description="Attributes every card of the group has.")
    generate: dict[str, list] | None = spec_field(Optional(_attributes(ListOf(SCALAR, min_length=1))), None,
                                                  description="The product of attribute lists, e.g. symbol x number.")
    combine: CombineSpec | None = spec_field(Optional(Model(CombineSpec)), None)
    cards: list[dict[str, AttrValue]] | None = spec_field(Optional(ListOf(_attributes(ATTR_VALUE))), None)
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
    expect: OwnExpectSpec | None = spec_field(Optional(Model(OwnExpectSpec)), None)
    layout: str | None = spec_field(Optional(NAME), None, description="The layout of the group's fronts (a name "
                                    "in layouts); without one, the game's own design or the generic face.")
    back_layout: str | None = spec_field(Optional(NAME), None, description="The layout of the group's backs.")
    face_on_both_sides: bool = spec_field(Flag(), False, description="Print the front on the back too "
                                          "(tokens), instead of the deck's back.")
    role: str | None = spec_field(Optional(_choice(*ROLES)), None,
                                  description="aid, reference, token or marker: the cards get printkit's back for "
                                              "that role, named in the rulebook's languages (a token: its front "
                                              "again); a back_layout still wins.")
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
    layout: str | None = spec_field(Optional(NAME), None, description="The fronts' layout in this variant, "
                                    "for groups that do not pick their own.")
    back_layout: str | None = spec_field(Optional(NAME), None)


def _language_message(value: str) -> str:
    return f"{value!r} is not a language code such as 'ko', 'en' or 'pt-BR'"


@dataclass(frozen=True, kw_only=True)
class Spec:
    """A deck specification: one YAML file in decks/."""

    game: str = spec_field(NAME, description="The rule engine: calc, stack or clag (others build but are not played).")
    name: str = spec_field(Text(max_length=100))
    names: dict[str, str] = spec_field(
        MapOf(Text(max_length=100), key=Text(pattern=LANG_TAG), bad_key=_language_message), factory=dict,
        description="The deck's name in other languages, e.g. {ko: 스택 오리지널}; rulebooks use it.")
    description: str | None = spec_field(Optional(TEXT), None)
    author: str | None = spec_field(Optional(Text(max_length=200)), None,
                                    description="Who made the deck: the Author of every PDF printkit writes for it.")
    card: CardFormatSpec = spec_field(Model(CardFormatSpec), factory=CardFormatSpec)
    count_by: list[str] = spec_field(ListOf(TEXT), factory=list, description="Attributes `check` counts by.")
    art: ArtSpec | None = spec_field(Optional(Model(ArtSpec)), None)
    options: dict[str, Any] = spec_field(MapOf(SCALAR, key=NAME), factory=dict,
                                         description="Rule engine options (e.g. hook: true).")
    groups: list[GroupSpec] = spec_field(ListOf(Model(GroupSpec), min_length=1, max_length=200))
    components: list[GroupSpec] = spec_field(ListOf(Model(GroupSpec), max_length=MAX_COMPONENTS), factory=list,
                                             description="Printed extras counted apart from the deck.")
    variants: dict[str, VariantSpec] = spec_field(MapOf(Model(VariantSpec), key=NAME, max_length=MAX_VARIANTS),
                                                  factory=dict)
    default_variant: str | None = spec_field(Optional(TEXT), None)
    expect: ExpectSpec | None = spec_field(Optional(Model(ExpectSpec)), None)
    layouts: dict[str, LayoutSpec] = spec_field(MapOf(Model(LayoutSpec), key=NAME), factory=dict,
                                                description="Named card layouts that groups pick with layout:.")
    lookups: dict[str, dict[str, Any]] = spec_field(LOOKUPS, factory=dict,
                                                    description="Lookups for layouts: {names[minerals[0]]} is the "
                                                                "entry of lookup names for a card's first mineral.")
    icons: dict[str, str] = spec_field(MapOf(Text(max_length=1000), key=NAME), factory=dict,
                                       description="Icon names for :name: in text and icon elements: a PNG, "
                                                   "JPEG or SVG file beside the spec, or a built-in icon's name.")
    export: ExportSpec = spec_field(Model(ExportSpec), factory=ExportSpec,
                                    description="Settings of `printkit export`: {description: ATTRIBUTE}.")


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
