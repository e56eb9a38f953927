"""Designer layouts: a card face as a list of elements with boxes, bound to card attributes.

A :class:`Layout` is what a spec's ``layouts:`` compiles to (see :mod:`printkit.spec.layouts`):
elements drawn in order, each with a box measured in the card's trim, bleed or safe frame, a
style, and strings with ``{attribute}`` placeholders. :func:`draw` turns a layout and a card into
the same drawing ops every other face is made of, so layouts print (and rasterise) exactly as
the games' own designs do.

Placeholders: ``{name}`` is the card's attribute (a list prints as ``a, b``), ``{name:.1f}`` formats
a number, ``{{`` and ``}}`` are literal braces. ``{_group}`` is the card's group. Templates are read
left to right once, in time linear in their length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from printkit.deck import Card, CardSize, matches
from printkit.layout.geometry import Box, bleed_box, safe_box
from printkit.layout.icons import Icon
from printkit.layout.ops import Ellipse, Face, Image, Line, Op, Rect
from printkit.layout.richtext import RichStyle, RichTextError, fit_rich
from printkit.layout.shapes import turn_ops

# Names a template may use besides the card's attributes.
BUILTIN_VALUES = ("_group",)
DEFAULT_INK = "#1d1d1f"
DEFAULT_BACKGROUND = "#ffffff"
DEFAULT_BACK = "#404040"
# Plain number formats only: sign, zero padding, width (two digits at most), grouping, precision.
_FORMAT = re.compile(r"^[+ -]?0?[0-9]{0,2},?(?:\.[0-9]{1,2})?[dfeg%]?$")
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class LayoutError(ValueError):
    """A layout cannot be drawn for a card (a missing attribute, an unknown colour …)."""


# --- templates ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placeholder:
    name: str
    format: str = ""


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
                name, _, fmt = inner.partition(":")
                if not name or not set(name) <= _NAME_CHARS or name[0] in "-0123456789":
                    raise LayoutError(f"{{{_short(inner)}}} is not a placeholder such as {{cost}} or {{cost:02d}}")
                if fmt and not _FORMAT.match(fmt):
                    raise LayoutError(f"{{{_short(inner)}}}: {fmt!r} is not a number format such as 02d or .1f")
                if literal:
                    parts.append("".join(literal))
                    literal = []
                parts.append(Placeholder(name, fmt))
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

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parts if isinstance(p, Placeholder))

    @property
    def constant(self) -> str | None:
        """The text when the template has no placeholder, else None."""
        return None if self.names else "".join(p for p in self.parts if isinstance(p, str))

    def render(self, values: Mapping[str, Any]) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            if part.name not in values:
                raise LayoutError(f"the card has no attribute {part.name!r}")
            out.append(_format(values[part.name], part))
        return "".join(out)


def _format(value: Any, placeholder: Placeholder) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_format(v, Placeholder(placeholder.name, placeholder.format)) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if placeholder.format and isinstance(value, (int, float)):
        try:
            return format(value, placeholder.format)
        except ValueError as exc:
            raise LayoutError(f"{{{placeholder.name}:{placeholder.format}}} cannot format {value!r}: {exc}") from None
    return str(value)


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- compiled layouts --------------------------------------------------------------------------


@dataclass(frozen=True)
class Length:
    """A box length: millimetres, or a percentage of the frame's side; negative counts from the far edge."""

    value: float  # the size, never negative
    percent: bool = False
    from_end: bool = False  # written with a minus: measured from the right or bottom edge

    def mm(self, side_mm: float) -> float:
        return self.value * side_mm / 100.0 if self.percent else self.value


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
    bold: bool = False
    italic: bool = False
    color: Template | None = None
    align: str = "start"
    valign: str = "top"
    line_spacing: float = 1.2
    rotate: int = 0
    fit: str | None = None
    fill: Template | None = None
    stroke: Template | None = None
    stroke_width_mm: float = 0.3
    radius_mm: float = 0.0
    source: str | None = None  # "spec.yaml:LINE:COLUMN" of the element

    @property
    def templates(self) -> tuple[Template, ...]:
        return tuple(t for t in (self.text, self.image, self.icon, self.color, self.fill, self.stroke) if t)

    @property
    def reads(self) -> tuple[str, ...]:
        """Every attribute the element reads: in its strings and its conditions."""
        names = [n for t in self.templates for n in t.names]
        names += list(self.when or ()) + list(self.when_has) + list(self.when_lacks)
        return tuple(dict.fromkeys(names))

    def guarded(self, name: str) -> bool:
        """Whether the element is drawn only for cards that have attribute ``name``."""
        return name in self.when_has or (self.when is not None and name in self.when)

    def shown_for(self, card: Card) -> bool:
        attrs = card.attrs
        if any(name not in attrs for name in self.when_has):
            return False
        if any(name in attrs for name in self.when_lacks):
            return False
        return self.when is None or matches(self.when, attrs)

    def box(self, size: CardSize) -> Box:
        """The element's box in the card frame (mm, y down)."""
        frame = {"trim": Box(0.0, 0.0, size.width_mm, size.height_mm), "bleed": bleed_box(size),
                 "safe": safe_box(size)}[self.frame]
        w, h = self.width.mm(frame.w_mm), self.height.mm(frame.h_mm)
        x, y = self.x.mm(frame.w_mm), self.y.mm(frame.h_mm)
        left = frame.right_mm - x - w if self.x.from_end else frame.x_mm + x
        top = frame.bottom_mm - y - h if self.y.from_end else frame.y_mm + y
        return Box(left, top, w, h)


@dataclass(frozen=True)
class Layout:
    name: str
    elements: tuple[Element, ...]

    @property
    def reads(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for e in self.elements for n in e.reads))


@dataclass(frozen=True)
class Resources:
    """What drawing needs from outside: the deck's icons and a checked path for each image name."""

    icons: Mapping[str, Icon] = field(default_factory=dict)  # the deck's and the built-in ones
    image_path: Callable[[str], Path] = lambda name: Path(name)


# --- drawing -----------------------------------------------------------------------------------


def draw(layout: Layout, card: Card, resources: Resources, side: str = "front") -> Face:
    """The face ``layout`` makes of ``card``: its background, its elements in order, its overlay.

    LayoutError names the element and what is wrong; the caller adds the card and where it came from.
    """
    size = card.size
    bleed = bleed_box(size)
    ops: list[Op] = []
    if side == "back":
        ops.append(Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, fill=card.art.back_color or DEFAULT_BACK))
        if card.art.back_image is not None:
            ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.back_image, fit="cover"))
    else:
        ops.append(Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm,
                        fill=card.art.color("background", DEFAULT_BACKGROUND)))
        if card.art.background_image is not None:
            ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.background_image, fit="cover"))
    warnings: list[str] = []
    values = {**card.attrs, "_group": card.group}
    for element in layout.elements:
        if not element.shown_for(card):
            continue
        try:
            drawn, said = _draw_element(element, card, values, resources)
        except (LayoutError, RichTextError) as exc:
            raise LayoutError(f"layout {layout.name!r}, element {element.label}: {exc}") from None
        ops.extend(drawn)
        warnings.extend(said)
    if side != "back" and card.art.foreground_image is not None:
        ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.foreground_image, fit="cover"))
    return Face(tuple(ops), tuple(warnings))


def _draw_element(element: Element, card: Card, values: Mapping[str, Any],
                  resources: Resources) -> tuple[Sequence[Op], Sequence[str]]:
    box = element.box(card.size)
    if element.kind == "text":
        return _text(element, card, values, resources, box)
    if element.kind == "image":
        if not (box.w_mm > 0 and box.h_mm > 0):
            return (), ()
        path = resources.image_path(element.image.render(values))
        return (Image(box.x_mm, box.y_mm, box.w_mm, box.h_mm, path, fit=element.fit or "cover"),), ()
    if element.kind == "icon":
        name = element.icon.render(values)
        icon = find_icon(name, resources.icons)
        side = min(box.w_mm, box.h_mm)
        color = color_of(element.color, values, card) if element.color else None
        return icon.ops(box.cx_mm - side / 2, box.cy_mm - side / 2, side, color), ()
    fill = color_of(element.fill, values, card) if element.fill else None
    stroke = color_of(element.stroke, values, card) if element.stroke else None
    if element.kind == "rect":
        return (Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=fill, stroke=stroke,
                     stroke_mm=element.stroke_width_mm, radius_mm=element.radius_mm),), ()
    if element.kind == "ellipse":
        return (Ellipse(box.cx_mm, box.cy_mm, box.w_mm / 2, box.h_mm / 2, fill=fill, stroke=stroke,
                        stroke_mm=element.stroke_width_mm),), ()
    if element.kind == "line":
        return (Line(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, color=stroke or _ink(card),
                     width_mm=element.stroke_width_mm),), ()
    raise LayoutError(f"unknown element kind {element.kind!r}")


def _text(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
          box: Box) -> tuple[Sequence[Op], Sequence[str]]:
    markup = element.text.render(values)
    if not markup.strip():
        return (), ()
    if element.italic:
        markup = f"*{markup}*"
    turned = element.rotate in (90, 270)
    inner = Box(box.cx_mm - box.h_mm / 2, box.cy_mm - box.w_mm / 2, box.h_mm, box.w_mm) if turned else box
    if not (inner.w_mm > 0 and inner.h_mm > 0):
        return (), ()
    regular, bold = _chains(element, card, resources)
    style = RichStyle(regular=bold if element.bold else regular, bold=bold,
                      italic=(element.font_italic,) + regular if element.font_italic else None,
                      color=color_of(element.color, values, card) if element.color else _ink(card),
                      align=element.align, valign=element.valign, leading=element.line_spacing)
    size = element.size_mm
    minimum = element.min_size_mm if element.min_size_mm is not None else min(size, 2.0)
    where = f"{card.label} {element.label}"
    fitted = fit_rich(markup, inner, style, max_size_mm=size, min_size_mm=min(minimum, size),
                      fit="none" if element.fit == "none" else "shrink", icons=resources.icons,
                      where=where)
    ops = fitted.ops
    if element.rotate:
        ops = turn_ops(ops, element.rotate // 90, box.cx_mm, box.cy_mm)
    return ops, fitted.warnings


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


def _ink(card: Card) -> str:
    return card.art.color("ink", DEFAULT_INK)


def color_of(template: Template, values: Mapping[str, Any], card: Card) -> str:
    """A colour from a template: ``#rrggbb`` (or ``#rgb``), or a name in the card's ``art.colors``."""
    text = template.render(values).strip()
    if _HEX.match(text):
        if len(text) == 4:
            text = "#" + "".join(ch * 2 for ch in text[1:])
        return text.lower()
    palette = card.art.colors
    if text in palette:
        return palette[text]
    defaults = {"ink": DEFAULT_INK, "background": DEFAULT_BACKGROUND}
    if text in defaults:
        return defaults[text]
    known = ", ".join(sorted(set(palette) | set(defaults)))
    raise LayoutError(f"{text!r} is not a colour such as '#1f3b5a' nor a name in art.colors (names: {known})")
