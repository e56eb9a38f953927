"""Calc's glyphs: the four arithmetic symbols as vector shapes, offered to layouts and rich text as icons.

``size_mm`` is the height of the shape's bounding box; shapes are centred on ``(cx, cy)``.
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import Mapping

from printkit.layout import shapes
from printkit.layout.icons import Icon, ShapeIcon
from printkit.layout.ops import Point
from printkit.layout.shapes import Shape

# Stroke thickness of the arithmetic symbols as a fraction of their size.
SYMBOL_STROKE = 0.24


def _bar(length: float, thickness: float) -> list[Point]:
    h, t = length / 2, thickness / 2
    return [(-h, -t), (h, -t), (h, t), (-h, t)]


def _cross(half_length: float, thickness: float) -> list[Point]:
    h, t = half_length, thickness / 2
    return [(-t, -h), (t, -h), (t, -t), (h, -t), (h, t), (t, t), (t, h), (-t, h), (-t, t), (-h, t), (-h, -t), (-t, -t)]


def plus(cx: float, cy: float, size_mm: float) -> Shape:
    """+ : a cross of two equal bars."""
    return shapes.place([_cross(0.5, SYMBOL_STROKE)], cx, cy, size_mm)


def minus(cx: float, cy: float, size_mm: float) -> Shape:
    """− : one horizontal bar, as long as the plus is wide."""
    return shapes.place([_bar(1.0, SYMBOL_STROKE)], cx, cy, size_mm)


def times(cx: float, cy: float, size_mm: float) -> Shape:
    """× : a cross turned 45°, its arms as long as fit the same square as the plus."""
    t = SYMBOL_STROKE * 0.92  # diagonal strokes look heavier; thin them a little
    # The turned arm's far corners reach (half_length + t/2) / sqrt(2) from the centre.
    half_length = 0.5 * math.sqrt(2) - t / 2
    return shapes.place([shapes.rotate_points(_cross(half_length, t), 0.0, 0.0, 45.0)], cx, cy, size_mm)


def power(cx: float, cy: float, size_mm: float) -> Shape:
    """^ : a thick chevron (caret) pointing up, its legs cut level at the bottom."""
    w, top, bottom = 0.5, -0.38, 0.3
    t = SYMBOL_STROKE
    apex, left, right = (0.0, top), (-w, bottom), (w, bottom)
    # The inner edge is each leg's outer edge moved inwards (downwards) by the stroke thickness.
    inner_right = _offset_line(apex, right, t)
    inner_left = _offset_line(left, apex, t)
    inner_apex = _intersect(inner_left, inner_right)
    inner_r = _intersect(inner_right, ((0.0, bottom), (1.0, bottom)))
    inner_l = _intersect(inner_left, ((0.0, bottom), (1.0, bottom)))
    outline = [left, apex, right, inner_r, inner_apex, inner_l]
    # Centre the chevron vertically on its own bounding box.
    shift = -(top + bottom) / 2
    return shapes.place([[(x, y + shift) for x, y in outline]], cx, cy, size_mm)


def _offset_line(a: Point, b: Point, dist: float) -> tuple[Point, Point]:
    """The line a-b moved by ``dist`` to its right-hand side (in a y-down frame: clockwise normal)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    return (a[0] + nx * dist, a[1] + ny * dist), (b[0] + nx * dist, b[1] + ny * dist)


def _intersect(l1: tuple[Point, Point], l2: tuple[Point, Point]) -> Point:
    (x1, y1), (x2, y2) = l1
    (x3, y3), (x4, y4) = l2
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    a = x1 * y2 - y1 * x2
    b = x3 * y4 - y3 * x4
    return ((a * (x3 - x4) - (x1 - x2) * b) / den, (a * (y3 - y4) - (y1 - y2) * b) / den)


SYMBOLS = {"plus": plus, "minus": minus, "times": times, "power": power}
# Each symbol's colour when a spec names none: Okabe-Ito hues, told apart by most colour-blind eyes.
SYMBOL_COLORS = {"plus": "#0072b2", "minus": "#d55e00", "times": "#009e73", "power": "#cc79a7"}


def symbol(name: str, cx: float, cy: float, size_mm: float) -> Shape:
    """The Calc symbol shape for ``plus``, ``minus``, ``times`` or ``power``."""
    try:
        return SYMBOLS[name](cx, cy, size_mm)
    except KeyError:
        raise ValueError(f"unknown symbol {name!r} (expected one of {', '.join(SYMBOLS)})") from None


# The icons Calc offers, in their Okabe-Ito colours.
ICONS: Mapping[str, Icon] = MappingProxyType({name: ShapeIcon(draw, SYMBOL_COLORS[name]) for name, draw in SYMBOLS.items()})
