"""Named icons: the game symbols printkit draws as vectors, offered to layouts and rich text.

An icon draws itself into a square box (top-left corner and side in millimetres, card frame, y
down). It is scaled so that its outlines, strokes included, stay inside the box, and centred on
their bounds, so every icon sits in the middle of its box whatever its proportions.

Built-in icons (:data:`BUILTIN_ICONS`):

- Calc's symbols ``plus``, ``minus``, ``times``, ``power`` (Okabe-Ito colours);
- Stack's minerals ``ruby``, ``gold``, ``sapphire``, ``coal`` (their own colours and facets,
  the facets from 9 mm up, as on Stack's cards);
- the suits ``hearts``, ``diamonds`` (red), ``clubs``, ``spades`` (near-black);
- plain shapes ``star``, ``circle``, ``square``, ``triangle``, which have no colour of their own
  (black when drawn alone; rich text draws them in the colour of the text around them).

``color`` None draws an icon in its own colours; a colour draws the whole icon in that hue
(a mineral keeps its facets as tints and shades of it). :class:`ImageIcon` is an icon from a
picture file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Mapping, Protocol

from printkit.layout import minerals, shapes
from printkit.layout.color import DEFAULT_INK
from printkit.layout.ops import Image, Op, Polygon

# Suits print red and black unless a layout asks for other colours.
SUIT_COLORS = {"hearts": "#c8102e", "diamonds": "#c8102e", "clubs": DEFAULT_INK, "spades": DEFAULT_INK}


class Icon(Protocol):
    def ops(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        """The icon drawn in the square box with top-left (x_mm, y_mm) and side size_mm (card frame, y down).

        color None: the icon's own colours.
        """
        ...


@dataclass(frozen=True)
class ShapeIcon:
    """An icon filled from a :mod:`~printkit.layout.shapes` function ``draw(cx, cy, size_mm)``.

    ``default_color`` None makes an ink icon, one with no colour of its own (see
    :func:`takes_text_color`). ``scale`` is the share of the box the shape's larger side takes:
    below 1 for shapes that look bigger than others of the same extent (a square beside a circle).
    """

    draw: Callable[[float, float, float], shapes.Shape]
    default_color: str | None = None
    scale: float = 1.0

    def ops(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        x0, y0, x1, y1 = _unit_bounds(self.draw)
        k = size_mm * self.scale / max(x1 - x0, y1 - y0)
        cx = x_mm + size_mm / 2 - k * (x0 + x1) / 2
        cy = y_mm + size_mm / 2 - k * (y0 + y1) / 2
        fill = color or self.default_color or "#000000"
        return shapes.polygons(self.draw(cx, cy, k), fill)


@lru_cache(maxsize=None)
def _unit_bounds(draw: Callable[[float, float, float], shapes.Shape]) -> tuple[float, float, float, float]:
    """Bounds of a shape drawn at size 1 about the origin (shapes scale linearly about their centre)."""
    return shapes.bounds(draw(0.0, 0.0, 1.0))


@dataclass(frozen=True)
class MineralIcon:
    """One of Stack's minerals, drawn by :func:`~printkit.layout.minerals.mineral_icon`."""

    mineral: str

    def ops(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        outline = minerals.OUTLINES[self.mineral]
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        extent = max(max(xs) - min(xs), max(ys) - min(ys))
        # The silhouette's edge is stroked max(0.2 mm, 1.8 % of the drawing size) wide, half of
        # it outside the outline: the drawing size leaves room for it.
        k = max(min((size_mm - 0.2) / extent, size_mm / (extent + 0.018)), size_mm * 0.5 / extent)
        cx = x_mm + size_mm / 2 - k * (min(xs) + max(xs)) / 2
        cy = y_mm + size_mm / 2 - k * (min(ys) + max(ys)) / 2
        return minerals.mineral_icon(self.mineral, cx, cy, k, color or minerals.DEFAULT_COLORS[self.mineral])


@dataclass(frozen=True)
class ImageIcon:
    """An icon from a picture file (SVG, PNG or JPEG), fitted whole into the box and centred
    there; an SVG's ``currentColor`` is the colour it is drawn in."""

    path: Path

    def ops(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        # An SVG icon's currentColor takes the colour it is drawn in (its text's); other colours stay.
        tint = color if color is not None and Path(self.path).suffix.lower() == ".svg" else None
        return (Image(x_mm, y_mm, size_mm, size_mm, Path(self.path), fit="contain", color=tint),)


def _circle(cx: float, cy: float, size_mm: float) -> shapes.Shape:
    return (shapes.circle(cx, cy, size_mm / 2),)


def _square(cx: float, cy: float, size_mm: float) -> shapes.Shape:
    h = size_mm / 2
    return (((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)),)


def _triangle(cx: float, cy: float, size_mm: float) -> shapes.Shape:
    """An equilateral triangle pointing up, as wide as the box."""
    h = size_mm / 2
    tall = size_mm * math.sqrt(3) / 2
    return (((cx, cy - tall / 2), (cx + h, cy + tall / 2), (cx - h, cy + tall / 2)),)


def _suit(name: str) -> Callable[[float, float, float], shapes.Shape]:
    return shapes.SUITS[name]


BUILTIN_ICONS: Mapping[str, Icon] = MappingProxyType({
    **{name: ShapeIcon(draw, shapes.SYMBOL_COLORS[name]) for name, draw in shapes.SYMBOLS.items()},
    **{name: MineralIcon(name) for name in minerals.OUTLINES},
    **{name: ShapeIcon(_suit(name), SUIT_COLORS[name]) for name in ("hearts", "diamonds", "clubs", "spades")},
    "star": ShapeIcon(shapes.star),
    "circle": ShapeIcon(_circle),
    "square": ShapeIcon(_square, scale=0.88),
    "triangle": ShapeIcon(_triangle),
})


def builtin_icon(name: str) -> Icon | None:
    """The built-in icon called ``name``, or None."""
    return BUILTIN_ICONS.get(name)


def takes_text_color(icon: Icon) -> bool:
    """Whether ``icon`` has no colour of its own, so text draws it in the text's colour."""
    return isinstance(icon, ShapeIcon) and icon.default_color is None


__all__ = ["Icon", "ShapeIcon", "MineralIcon", "ImageIcon", "BUILTIN_ICONS", "SUIT_COLORS", "builtin_icon",
           "takes_text_color"]
