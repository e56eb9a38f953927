"""Named icons: shapes printkit draws as vectors, offered to layouts and rich text.

An icon draws itself into a square box (top-left corner and side in millimetres, card frame, y
down). It is scaled so that its outlines, strokes included, stay inside the box, and centred on
their bounds, so every icon sits in the middle of its box whatever its proportions.

The generic icons (:data:`GENERIC_ICONS`) are plain shapes ``star``, ``circle``, ``square``,
``triangle``, which have no colour of their own (black when drawn alone; rich text draws them in
the colour of the text around them). A game's glyphs (Calc's symbols, Clag's suits, Stack's
minerals) live in its own folder (``printkit/games/<game>/icons.py``) and the games registry
offers them beside these.

``color`` None draws an icon in its own colours; a colour draws the whole icon in that hue.
:class:`ImageIcon` is an icon from a picture file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Mapping, Protocol

from printkit.layout import shapes
from printkit.layout.ops import Image, Op


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
class ImageIcon:
    """An icon from a picture file (SVG, PNG or JPEG), fitted whole into the box and centred
    there; an SVG's ``currentColor`` is the colour it is drawn in. ``shown`` is the file as the
    spec names it (``art/fire.svg``), for warnings about the picture."""

    path: Path
    shown: str = field(default="", compare=False)

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


GENERIC_ICONS: Mapping[str, Icon] = MappingProxyType({
    "star": ShapeIcon(shapes.star),
    "circle": ShapeIcon(_circle),
    "square": ShapeIcon(_square, scale=0.88),
    "triangle": ShapeIcon(_triangle),
})


def takes_text_color(icon: Icon) -> bool:
    """Whether ``icon`` has no colour of its own, so text draws it in the text's colour."""
    return isinstance(icon, ShapeIcon) and icon.default_color is None


__all__ = ["Icon", "ShapeIcon", "ImageIcon", "GENERIC_ICONS", "takes_text_color"]
