"""Designer layouts: a card face as a list of elements with boxes, bound to card attributes.

A :class:`Layout` is what a spec's ``layouts:`` compiles to (see :mod:`printkit.layout.compile`):
elements drawn in order, each with a box measured in the card's trim, bleed or safe frame, a
style, and strings with ``{attribute}`` placeholders. :func:`draw` turns a layout and a card into
the same drawing ops every other face is made of, so layouts print (and rasterise) exactly as
the games' own designs do.

Placeholders: ``{name}`` is the card's attribute (a list prints as ``a, b``), ``{name:.1f}`` formats
a number, ``{title|name|_group}`` is the first of those the card has (and is not empty), ``{{`` and
``}}`` are literal braces. ``{minerals[0]}`` is the first item of a list attribute and
``{names[minerals[0]]}`` that item looked up in ``names``, one of the spec's ``lookups:``
(:func:`item_of`, :func:`looked_up`). ``{_group}`` is the card's group, ``{_back_label}`` the deck's back label
(``art.back.label``), ``{_background_image}`` the file name of the card's background picture, and
``{_attributes}`` every attribute
no other element shows, as ``key: value`` lines. Templates are read left to right once, in time
linear in their length.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from printkit.deck import Card, CardSize, matches
from printkit.layout.anchors import Anchor, anchored_box
from printkit.layout.color import mix, on_color
from printkit.layout.geometry import Box, bleed_box, safe_box
from printkit.layout.icons import Icon
from printkit.layout.markup import BREAK, CODE, ICON, LITERAL, TEXT, tokenize
from printkit.layout.ops import Ellipse, Face, Image, Line, Op, Rect
from printkit.memo import Memo
from printkit.layout.richtext import RichStyle, RichTextError, fit_rich
from printkit.layout.shapes import hatch, lattice, turn_ops
from printkit.typography import smarten
from printkit.errors import DeckError, LayoutError

if TYPE_CHECKING:
    from printkit.layout.table import Table

# Names a template may use besides the card's attributes.
BUILTIN_VALUES = ("_group", "_attributes", "_back_label", "_background_image", "_back_image")
# A condition's name a card "has" when its art has a background picture (``when_lacks`` it: an
# opaque tint that would hide the picture steps aside).
BACKGROUND_IMAGE = "_background_image"
# Likewise for a back picture (art.back.image): a back's own drawing steps aside for it.
BACK_IMAGE = "_back_image"
# A condition's name a card has when its back has a label (art.back.label): what frames it is drawn.
BACK_LABEL = "_back_label"
ATTRIBUTES = "_attributes"
DEFAULT_INK = "#1d1d1f"
DEFAULT_BACKGROUND = "#ffffff"
DEFAULT_BACK = "#404040"
# Plain number formats only: sign, zero padding, width (two digits at most), grouping, precision.
_FORMAT = re.compile(r"^[+ -]?0?[0-9]{0,2},?(?:\.[0-9]{1,2})?[dfeg%]?$")
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
# The key of a card's values holding its layout's lookups (no placeholder can spell it).
LOOKUPS = "[lookups]"
# A lattice's diamonds are this share of its spacing wide.
LATTICE_DIAMOND = 0.55
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


# --- templates ----------------------------------------------------------------------------------


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
    text = _format(key, Placeholder(("",)))
    if text not in entries:
        raise LayoutError(f"lookup {lookup!r} has no entry {text!r} (entries: {', '.join(entries)})")
    return entries[text]


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
            text = _format(part.value(name, values), part)
            out.append(literal(text) if literal and name != ATTRIBUTES else text)
        return "".join(out)

    def shown(self, values: Mapping[str, Any]) -> tuple[str, ...]:
        """The names whose values this template shows for a card with ``values``."""
        return tuple(n for n in (p.choose(values) for p in self.placeholders) if n is not None)


def _format(value: Any, placeholder: Placeholder) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_format(v, placeholder) for v in value)
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


# --- compiled layouts --------------------------------------------------------------------------


@dataclass(frozen=True)
class Length:
    """A box length: millimetres, or a percentage of the frame's side; negative counts from the far edge."""

    value: float  # the size, negative only as a box sum's result ("0% - 1.5%")
    percent: bool = False
    from_end: bool = False  # written with a minus: measured from the right or bottom edge
    offset_mm: float = 0.0  # added to a percentage: "100% - 6mm"

    def mm(self, side_mm: float) -> float:
        return self.value * side_mm / 100.0 + self.offset_mm if self.percent else self.value


@dataclass(frozen=True)
class Element:
    """One compiled element; ``label`` names it in messages (its name, or its kind and index)."""

    kind: str
    label: str
    x: Length
    y: Length
    width: Length
    height: Length
    frame: str = "trim"
    name: str | None = None
    when: Mapping[str, Any] | None = None
    when_has: tuple[str, ...] = ()
    when_lacks: tuple[str, ...] = ()
    text: Template | None = None
    image: Template | None = None
    icon: Template | None = None
    font: Path | None = None
    font_bold: Path | None = None
    font_italic: Path | None = None
    size_mm: float = 4.0
    min_size_mm: float | None = None
    size_pct: float | None = None  # the size as a percentage of the box's height, instead of size_mm
    min_size_pct: float | None = None
    padding_mm: float = 0.0
    wrap: bool = True
    keep_words: bool = False  # a Hangul word never broken between syllables (RichStyle.keep_words)
    markup: bool = True
    plate: bool = False
    bold: bool = False
    italic: bool = False
    color: Template | None = None
    align: str = "start"
    valign: str = "top"
    line_spacing: float = 1.2
    paragraph_spacing: float = 0.35  # extra space before a paragraph, in text sizes
    rotate: int = 0
    both_ends: bool = False  # drawn again turned half a turn about the card's centre
    fit: str | None = None
    fill: Template | None = None
    stroke: Template | None = None
    stroke_width_mm: float = 0.3
    radius_mm: float = 0.0
    spacing_mm: float = 5.0  # a lattice's diamonds, centre to centre along a row; a hatch's stripes
    border_mm: float = 0.0  # a hatch's stripes only this far in from its box's edges (0: everywhere)
    anchor: Anchor | None = None  # placed by a text drawn before it (printkit.layout.anchors)
    table: Table | None = None  # a table element's columns and rows
    source: str | None = None  # "spec.yaml:LINE:COLUMN" of the element
    # What a rulebook's anatomy figure calls it: (language tag, label) pairs, "" for every language.
    labels: tuple[tuple[str, str], ...] = ()

    @cached_property
    def templates(self) -> tuple[Template, ...]:
        own = tuple(t for t in (self.text, self.image, self.icon, self.color, self.fill, self.stroke) if t)
        return own + (self.table.templates if self.table is not None else ())

    @property
    def reads(self) -> tuple[str, ...]:
        """Every attribute the element reads: in its strings and its conditions."""
        names = [n for t in self.templates for n in t.names]
        names += list(self.when or ()) + [split_item(n)[0] for n in self.when_has + self.when_lacks]
        return tuple(dict.fromkeys(names))

    def shown_for(self, card: Card) -> bool:
        attrs = card.attrs
        if any(not _has(card, name) for name in self.when_has):
            return False
        if any(_has(card, name) for name in self.when_lacks):
            return False
        return self.when is None or matches(self.when, attrs)

    def box(self, size: CardSize) -> Box:
        """The element's box in the card frame (mm, y down)."""
        # The same few card sizes come back for every card: each box is worked out once.
        boxes = self.__dict__.setdefault("_boxes", {})
        box = boxes.get(size)
        if box is None:
            box = boxes[size] = self._box(size)
        return box

    def _box(self, size: CardSize) -> Box:
        frame = {"trim": Box(0.0, 0.0, size.width_mm, size.height_mm), "bleed": bleed_box(size),
                 "safe": safe_box(size)}[self.frame]
        w, h = self.width.mm(frame.w_mm), self.height.mm(frame.h_mm)
        x, y = self.x.mm(frame.w_mm), self.y.mm(frame.h_mm)
        left = frame.right_mm - x - w if self.x.from_end else frame.x_mm + x
        top = frame.bottom_mm - y - h if self.y.from_end else frame.y_mm + y
        pad = self.padding_mm
        return Box(left + pad, top + pad, max(w - 2 * pad, 0.0), max(h - 2 * pad, 0.0))


@dataclass(frozen=True)
class Layout:
    name: str
    elements: tuple[Element, ...]
    # The spec's lookups (``lookups:``), each entry as text: {lookup[attribute]} reads them.
    lookups: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    requires: Mapping[str, Any] | None = None  # a match every card drawn must meet (``requires:``)

    @property
    def reads(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([n for e in self.elements for n in e.reads] + list(self.requires or ())))

    @cached_property
    def anchored_to(self) -> frozenset[str]:
        """The names of the texts an element is anchored to: their extents are wanted."""
        return frozenset(e.anchor.to for e in self.elements if e.anchor is not None)


@dataclass(frozen=True)
class Resources:
    """What drawing needs from outside: the deck's icons and a checked path for each image name."""

    icons: Mapping[str, Icon] = field(default_factory=dict)  # the deck's and the built-in ones
    image_path: Callable[[str], Path] = lambda name: Path(name)


# --- drawing -----------------------------------------------------------------------------------


def card_face(layout: Layout, card: Card, resources: Resources, side: str = "front", *,
              proving: bool = False) -> Face:
    """:func:`draw`, a mistake named as the card's (a DeckError beginning with its label)."""
    try:
        return draw(layout, card, resources, side, proving=proving)
    except LayoutError as exc:
        raise DeckError(f"{card.label}: {exc}") from None


def draw(layout: Layout, card: Card, resources: Resources, side: str = "front", *,
         proving: bool = False) -> Face:
    """The face ``layout`` makes of ``card``: its background, its elements in order, its overlay.

    LayoutError names the element and what is wrong; the caller adds the card and where it came from.
    ``proving`` (a check, which draws nothing): a text a bound proves to fit is left out of the
    ops instead of set; the face's errors and warnings are the same.
    """
    check_requires(layout, card)
    size = card.size
    bleed = bleed_box(size)
    ops: list[Op] = []
    if side == "back":
        ops.append(_shared(Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, fill=card.art.back_color or DEFAULT_BACK)))
        if card.art.back_image is not None:
            ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.back_image, fit="cover"))
    else:
        ops.append(_shared(Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm,
                                fill=card.art.color("background", DEFAULT_BACKGROUND))))
        if card.art.background_image is not None:
            ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.background_image, fit="cover"))
    warnings: list[str] = []
    shown = [e for e in layout.elements if e.shown_for(card)]
    values = own_values(card)
    values[LOOKUPS] = layout.lookups
    if any(ATTRIBUTES in t.names for e in shown for t in e.templates):
        values[ATTRIBUTES] = _attribute_lines(card, shown, values)
    extents: dict[str, Box] = {}  # where the texts anchored to were set on this card
    for element in shown:
        box = _placed_box(element, size, extents)
        if box is None:
            continue
        wanted = element.name in layout.anchored_to
        try:
            drawn, said, extent = _draw_element(element, card, values, resources, proving and not wanted, box)
        except (LayoutError, RichTextError) as exc:
            raise LayoutError(f"layout {layout.name!r}, element {element.label}: {exc}") from None
        if wanted and extent is not None:
            extents[element.name] = extent
        ops.extend(drawn)
        if element.both_ends:
            ops.extend(turn_ops(drawn, 2, size.width_mm / 2, size.height_mm / 2))
        warnings.extend(said)
    if side != "back" and card.art.foreground_image is not None:
        ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.foreground_image, fit="cover"))
    for art in (card.art.back_image,) if side == "back" else (card.art.background_image, card.art.foreground_image):
        if art is not None:
            warnings.extend(picture_warnings(art, Path(art).name))
    return Face(tuple(ops), tuple(warnings))


def check_requires(layout: Layout, card: Card) -> None:
    """LayoutError unless ``card`` meets the layout's ``requires:`` match (a card the design does not
    draw, such as an aid of a kind or language it has no words for)."""
    if layout.requires is None or matches(layout.requires, card.attrs):
        return
    wanted = "; ".join(f"{key} {' or '.join(repr(v) for v in (value if isinstance(value, list) else [value]))}"
                       for key, value in layout.requires.items())
    have = ", ".join(f"{key} {card.attrs[key]!r}" if key in card.attrs else f"no {key}"
                     for key in layout.requires)
    raise LayoutError(f"layout {layout.name!r} draws only cards with {wanted}; this card has {have}")


def _has(card: Card, name: str) -> bool:
    if name == BACKGROUND_IMAGE:
        return card.art.background_image is not None
    if name == BACK_IMAGE:
        return card.art.back_image is not None
    if name == BACK_LABEL:
        return bool(card.art.back_label)
    if name.endswith("]"):  # minerals[2]: the list attribute has a third item
        attr, index = split_item(name)
        return attr in card.attrs and index is not None and item_of(card.attrs[attr], index) is not None
    return name in card.attrs


def own_values(card: Card) -> dict[str, Any]:
    """What a card's placeholders may read: its attributes and printkit's own values but ``_attributes``."""
    picture = card.art.background_image
    return {**card.attrs, "_group": card.group, "_back_label": card.art.back_label or "",
            BACKGROUND_IMAGE: picture.name if picture is not None else ""}


def picture_warnings(path: Path, shown: str) -> tuple[str, ...]:
    """What printkit cannot draw as written in the picture ``shown`` (an SVG's filters, masks...),
    each a warning naming the picture, the element and its line."""
    from printkit.images import svg_warnings  # a face of no picture never loads the pictures' checks

    return tuple(f"picture {shown!r}: {warning}" for warning in svg_warnings(path))


def _placed_box(element: Element, size: CardSize, extents: Mapping[str, Box]) -> Box | None:
    """The element's box, moved by its anchor against the text it is anchored to as that text was
    set (``extents``); None when that text is not drawn on this card, so neither is the element."""
    box = element.box(size)
    if element.anchor is None:
        return box
    extent = extents.get(element.anchor.to)
    return None if extent is None else anchored_box(box, element.padding_mm, element.anchor, extent)


def placed_box(layout: Layout, element: Element, card: Card, resources: Resources) -> Box | None:
    """Where ``element`` of ``layout`` stands on ``card`` as :func:`draw` places it (for a figure
    that points at it): its box, or an anchored element's box placed by its text as set; None when
    that text is not drawn on the card, so neither is the element."""
    if element.anchor is None:
        return element.box(card.size)
    shown = [e for e in layout.elements if e.shown_for(card)]
    target = next((e for e in shown if e.name == element.anchor.to), None)
    box = placed_box(layout, target, card, resources) if target is not None else None
    if box is None:
        return None
    values = own_values(card)
    if any(ATTRIBUTES in t.names for t in target.templates):
        values[ATTRIBUTES] = _attribute_lines(card, shown, values)
    extent = _text(target, card, values, resources, box)[2]
    return None if extent is None else anchored_box(element.box(card.size), element.padding_mm, element.anchor, extent)


def _draw_element(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
                  proving: bool = False, box: Box | None = None) -> tuple[Sequence[Op], Sequence[str], Box | None]:
    """The element's ops and warnings, and for a text where it was set (its extent, or None)."""
    box = element.box(card.size) if box is None else box
    if element.kind == "text":
        return _text(element, card, values, resources, box, proving)  # text turns inside its box itself
    if element.kind == "table":
        ops, warnings = _table(element, card, values, resources, box)
    else:
        ops, warnings = _draw_shape(element, card, values, resources, box, share=not proving)
    if element.rotate:
        ops = turn_ops(ops, element.rotate // 90, box.cx_mm, box.cy_mm)
    return ops, warnings, None


def _draw_shape(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
                box: Box, share: bool = True) -> tuple[Sequence[Op], Sequence[str]]:
    kept = _shared if share else _as_is  # a check's faces are not drawn: kept once for nothing
    if element.kind == "image":
        if not (box.w_mm > 0 and box.h_mm > 0):
            return (), ()
        name = element.image.render(values)
        path = resources.image_path(name)
        return (Image(box.x_mm, box.y_mm, box.w_mm, box.h_mm, path, fit=element.fit or "cover"),), \
            picture_warnings(path, name)
    if element.kind == "icon":
        name = element.icon.render(values)
        icon = find_icon(name, resources.icons)
        color = color_of(element.color, values, card) if element.color else None
        if element.stroke is not None:
            icon = outlined_icon(name, icon, color_of(element.stroke, values, card))
        return icon_ops(icon, element.fit, box, color), ()
    fill = color_of(element.fill, values, card) if element.fill else None
    stroke = color_of(element.stroke, values, card) if element.stroke else None
    if element.kind == "rect":
        return (kept(Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=fill, stroke=stroke,
                          stroke_mm=element.stroke_width_mm, radius_mm=element.radius_mm)),), ()
    if element.kind == "ellipse":
        return (kept(Ellipse(box.cx_mm, box.cy_mm, box.w_mm / 2, box.h_mm / 2, fill=fill, stroke=stroke,
                             stroke_mm=element.stroke_width_mm)),), ()
    if element.kind == "lattice":
        return lattice(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, box.cx_mm, box.cy_mm, element.spacing_mm,
                       fill or _ink(card), size=LATTICE_DIAMOND), ()
    if element.kind == "hatch":
        return hatch(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, element.spacing_mm, fill or _ink(card),
                     element.border_mm), ()
    if element.kind == "line":
        return (kept(Line(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, color=stroke or _ink(card),
                          width_mm=element.stroke_width_mm)),), ()
    raise LayoutError(f"unknown element kind {element.kind!r}")


# Equal shapes (a frame, a band in its type's colour, the background) are drawn on thousands of
# cards of a big deck: each is kept once. Ops are immutable, so sharing one changes nothing drawn.
_SHAPES = Memo("shapes", entries=4096)


def _shared(op: Op) -> Op:
    kept = _SHAPES.get(op)
    if kept is None:
        _SHAPES.put(op, op)
        kept = op
    elif _zero_signs(kept) != _zero_signs(op):  # 0.0 == -0.0, yet they may print differently
        return op
    return kept


def _as_is(op: Op) -> Op:
    return op


def _zero_signs(op: Op) -> tuple[float, ...]:
    return tuple(math.copysign(1.0, value) for value in map(op.__getattribute__, op.__slots__)
                 if value == 0 and isinstance(value, float))


class _Where:
    """"<card> <element>", the start of a text's messages, made only if one is said: most texts
    say nothing, and naming each card of a 10,000-card deck would keep 10,000 names."""

    __slots__ = ("card", "element")

    def __init__(self, card: Card, element: str) -> None:
        self.card, self.element = card, element

    def __str__(self) -> str:
        return f"{self.card.cut_label} {self.element}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _text(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
          box: Box, proving: bool = False) -> tuple[Sequence[Op], Sequence[str], Box | None]:
    # Curly quotes and minus signs are set before measuring; '*' is markup, not text, for the quotes.
    markup = smarten(_text_markup(element, values), transparent="*")
    if not markup.strip():
        return (), (), None
    if element.italic:
        markup = f"*{markup}*"
    turned = element.rotate in (90, 270)
    inner = Box(box.cx_mm - box.h_mm / 2, box.cy_mm - box.w_mm / 2, box.h_mm, box.w_mm) if turned else box
    if not (inner.w_mm > 0 and inner.h_mm > 0):
        return (), (), None
    regular, bold = _chains(element, card, resources)
    style = RichStyle(regular=bold if element.bold else regular, bold=bold,
                      italic=(element.font_italic,) + regular if element.font_italic else None,
                      color=color_of(element.color, values, card) if element.color else _ink(card),
                      align=element.align, valign=element.valign, leading=element.line_spacing,
                      keep_words=element.keep_words, paragraph_gap=element.paragraph_spacing)
    size = element.size_pct * inner.h_mm / 100 if element.size_pct is not None else element.size_mm
    if element.min_size_pct is not None:
        minimum = element.min_size_pct * inner.h_mm / 100
    else:
        minimum = element.min_size_mm if element.min_size_mm is not None else min(size, 2.0)
    if not size > 0:
        return (), (), None
    where = _Where(card, element.name or element.label)
    if not element.wrap:  # as large as keeps every line whole, but never below the minimum
        size = max(min(size, _unbroken_size(markup, bold if element.bold else regular, inner.w_mm, where)),
                   min(minimum, size))
    floor = card.size.min_text_mm
    fitted = fit_rich(markup, inner, style, max_size_mm=size, min_size_mm=min(minimum, size),
                      fit="none" if element.fit == "none" else "shrink", icons=resources.icons,
                      where=where, palette=palette(card) if "]{" in markup else None,
                      prove_from_mm=floor if proving and not element.plate else None)
    ops = fitted.ops
    warnings = list(fitted.warnings)
    if (ops or fitted.proved) and fitted.size_mm < floor - 1e-6 and not fitted.warnings:  # an overflow says it already
        warnings.append(f"{where}: text set at {fitted.size_mm:.2f} mm ({fitted.size_mm * 72 / 25.4:.1f} pt), below the "
                        f"legibility floor of {floor:.2f} mm ({floor * 72 / 25.4:.3g} pt); give it a larger box or "
                        "fewer words, or lower card.min_text_size")
    extent = fitted.extent
    if element.rotate:
        ops = turn_ops(ops, element.rotate // 90, box.cx_mm, box.cy_mm)
        extent = _turned_extent(extent, element.rotate // 90, box)
    if element.plate:
        from printkit.layout.templates._common import text_plate

        ops = tuple(text_plate(card, ops)) + tuple(ops)
    return ops, warnings, extent


def _turned_extent(extent: Box | None, quarter_turns: int, box: Box) -> Box | None:
    """A text's extent turned with its text about its box's centre."""
    if extent is None:
        return None
    (turned,) = turn_ops((Rect(extent.x_mm, extent.y_mm, extent.w_mm, extent.h_mm),), quarter_turns,
                         box.cx_mm, box.cy_mm)
    return Box(turned.x_mm, turned.y_mm, turned.w_mm, turned.h_mm)


def _table(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
           box: Box) -> tuple[Sequence[Op], Sequence[str]]:
    """A table element (:mod:`printkit.layout.table`): its ink is ``color``, its lines ``stroke``."""
    from printkit.layout.table import draw_table  # loaded by the decks that have a table

    ink = color_of(element.color, values, card) if element.color else _ink(card)
    stroke = color_of(element.stroke, values, card) if element.stroke else _ink(card)
    return draw_table(element.table, box, values, lambda t: color_of(t, values, card), ink, stroke,
                      element.stroke_width_mm, _chains(element, card, resources),
                      _Where(card, element.name or element.label))


def _text_markup(element: Element, values: Mapping[str, Any]) -> str:
    """The element's text as markup: as written, or (``markup: false``) escaped to print literally."""
    return element.text.render(values, None if element.markup else escape_markup)


# Widths are measured as plain text; markup and icons make a line a little wider or narrower, so
# an unbroken size keeps this much room.
_UNBROKEN_SLACK = 0.97


def _unbroken_size(markup: str, chain: tuple[Path, ...], width_mm: float, where: object) -> float:
    """The largest size at which no line of ``markup`` (measured as the text it prints, an icon as its
    ``:name:``) is wider than ``width_mm``."""
    from printkit.layout.text import _width_mm

    try:
        tokens = tokenize(markup)
    except RichTextError as exc:
        raise RichTextError(f"{where}: {exc}") from None
    lines: list[list[str]] = [[]]
    for kind, value, _ in tokens:
        if kind == BREAK:
            lines.append([])
        elif kind in (TEXT, LITERAL, CODE, ICON):
            lines[-1].append(f"`{value}`" if kind == CODE else f":{value}:" if kind == ICON else value)
    widest = max(_width_mm("".join(line).strip(), chain, 1.0) for line in lines)
    return width_mm * _UNBROKEN_SLACK / widest if widest > 0 else float("inf")


def _attribute_lines(card: Card, shown: Sequence[Element], values: Mapping[str, Any]) -> str:
    """The card's attributes that no shown element displays, one ``key: value`` line each, as text
    that prints as written (markup characters escaped)."""
    used = {n for e in shown for t in e.templates if ATTRIBUTES not in t.names for n in t.shown(values)}
    lines = [f"{key}: {_format(value, Placeholder((key,)))}" for key, value in card.attrs.items() if key not in used]
    return "\n".join(escape_markup(line) for line in lines)


def escape_markup(text: str) -> str:
    """``text`` with the characters rich text reads as markup escaped, so it prints as written."""
    escaped = text.replace("\\", "\\\\").replace("*", "\\*").replace(":", "\\:").replace("`", "\\`")
    return escaped.replace("]{", "\\]{") if "]{" in escaped else escaped  # not a span


def _chains(element: Element, card: Card, resources: Resources) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    from printkit.layout.templates._common import font_chain

    regular = font_chain(card, bold=False)
    bold = font_chain(card, bold=True)
    if element.font is not None:
        regular = tuple(dict.fromkeys((element.font,) + regular))
        bold = tuple(dict.fromkeys(((element.font_bold or element.font),) + bold))
    elif element.font_bold is not None:
        bold = tuple(dict.fromkeys((element.font_bold,) + bold))
    return regular, bold


def find_icon(name: str, icons: Mapping[str, Icon]) -> Icon:
    """The icon ``name`` (``icons`` holds the deck's and the built-in ones); LayoutError naming the known ones."""
    icon = icons.get(name)
    if icon is None:
        import difflib

        hint = difflib.get_close_matches(name, list(icons), n=1)
        meant = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise LayoutError(f"unknown icon {name!r}{meant}; known: {', '.join(sorted(icons))}")
    return icon


def outlined_icon(name: str, icon: Icon, stroke: str) -> Icon:
    """``icon`` with its outline in ``stroke`` (an icon element's ``stroke``), for icons that have an
    outline of their own to colour (``outlined``: Stack's minerals, a halo on a dark ground)."""
    outlined = getattr(icon, "outlined", None)
    if outlined is None:
        raise LayoutError(f"icon {name!r} has no outline to colour with stroke (leave stroke out; "
                          "icons with an outline: Stack's minerals)")
    return outlined(stroke)


def icon_ops(icon: Icon, fit: str | None, box: Box, color: str | None) -> tuple[Op, ...]:
    """``icon`` drawn in ``box`` as an icon element's ``fit`` says.

    ``contain`` (default): the drawing fitted and centred in the largest square of the box.
    ``square``: that square is the icon's own (``in_square``), the drawing where its maker placed it
    (Stack's gems sit as on Stack's cards), not fitted to its outline. ``stretch``: an icon of a
    shape of its own (``in_box``, a Stack terrain's scene) fills the whole box. An icon without the
    method asked for is fitted.
    """
    stretched = getattr(icon, "in_box", None) if fit == "stretch" else None
    if stretched is not None:
        return stretched(box.x_mm, box.y_mm, box.w_mm, box.h_mm, color)
    draw = getattr(icon, "in_square", icon.ops) if fit == "square" else icon.ops
    side = min(box.w_mm, box.h_mm)
    return draw(box.cx_mm - side / 2, box.cy_mm - side / 2, side, color)


def palette(card: Card) -> dict[str, str]:
    """The colour names a span in the card's text may use: its ``art.colors``, ink and background."""
    return {"ink": DEFAULT_INK, "background": DEFAULT_BACKGROUND, **card.art.colors}


def _ink(card: Card) -> str:
    return card.art.color("ink", DEFAULT_INK)


def color_of(template: Template, values: Mapping[str, Any], card: Card) -> str:
    """A colour from a template: ``#rrggbb`` (or ``#rgb``), a name in the card's ``art.colors``,
    ``mix(A, B, T)``, colour A moved the fraction T (0 to 1) of the way towards colour B, or
    ``on(A)``, white or the card's ink, whichever reads better on colour A."""
    text = template.render(values).strip()
    on = _ON.match(text)
    if on is not None:
        return _on_color(on.group(1).strip(), card)
    mixed = _MIX.match(text)
    if mixed is None:
        return _plain_color(text, card)
    first, second, amount = (part.strip() for part in mixed.group(1).split(","))
    try:
        t = float(amount)
    except ValueError:
        t = math.nan
    if not 0 <= t <= 1:
        raise LayoutError(f"{text!r}: the amount {amount!r} of a mix is not a number from 0 to 1")
    return mix(_plain_color(first, card), _plain_color(second, card), t)


def color_names(text: str) -> tuple[str, ...]:
    """The ``art.colors`` names a colour as written reads (two for a ``mix``, none for ``#rrggbb``)."""
    text = text.strip()
    on = _ON.match(text)
    if on is not None:
        text = on.group(1).strip()
    mixed = _MIX.match(text)
    parts = [p.strip() for p in mixed.group(1).split(",")[:2]] if mixed else [text]
    return tuple(p for p in parts if p and not p.startswith("#"))


# mix(A, B, T): exactly three parts, none holding brackets (linear time, no nesting).
_MIX = re.compile(r"^mix\(([^(),]*,[^(),]*,[^(),]*)\)$")
# on(A): one colour, no brackets inside.
_ON = re.compile(r"^on\(([^(),]*)\)$")


def _on_color(text: str, card: Card) -> str:
    """``on(A)``: white or the card's ink, whichever reads better on a fill of colour A (a title on a
    band of a colour the designer may change)."""
    if not text:
        raise LayoutError("'on()' names no colour: write on(A), A a colour such as '#1f3b5a' or a name in art.colors")
    return on_color(_plain_color(text, card), _ink(card))


def _plain_color(text: str, card: Card) -> str:
    if _HEX.match(text):
        if len(text) == 4:
            text = "#" + "".join(ch * 2 for ch in text[1:])
        return text.lower()
    palette = card.art.colors
    if text in palette:
        return palette[text]
    defaults = {"ink": DEFAULT_INK, "background": DEFAULT_BACKGROUND, "back": card.art.back_color or DEFAULT_BACK}
    if text in defaults:
        return defaults[text]
    known = ", ".join(sorted(set(palette) | set(defaults)))
    raise LayoutError(f"{text!r} is not a colour such as '#1f3b5a' nor a name in art.colors (names: {known})")
