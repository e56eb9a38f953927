"""Clag's glyphs: the four suits as vector shapes, offered to layouts and rich text as icons.

Suits are drawn as shapes rather than glyphs, so they print the same whatever the font (the bundled
text font lacks three of the four suits). ``size_mm`` is the height of the shape's bounding box;
shapes are centred on ``(cx, cy)``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from printkit.layout import shapes
from printkit.layout.color import DEFAULT_INK
from printkit.layout.icons import Icon, ShapeIcon
from printkit.layout.ops import Point
from printkit.layout.shapes import Shape

def _unit_heart() -> list[Point]:
    right = shapes.path(
        (0.0, -0.26),
        [
            ((0.02, -0.44), (0.14, -0.5), (0.26, -0.5)),
            ((0.42, -0.5), (0.5, -0.38), (0.5, -0.22)),
            ((0.5, 0.0), (0.22, 0.22), (0.0, 0.5)),
        ],
    )
    return shapes.mirror_closed(right)


def _unit_stem(top: float, bottom: float, half_width: float) -> list[Point]:
    """A flared foot for spades and clubs, from a narrow neck at ``top`` to the base at ``bottom``."""
    neck = 0.035
    right = shapes.path((0.0, top), [])
    right.append((neck, top))
    right.extend(shapes.cubic((neck, top), (neck, bottom - 0.06), (half_width * 0.5, bottom), (half_width, bottom)))
    return shapes.mirror_closed(right)


def heart(cx: float, cy: float, size_mm: float) -> Shape:
    """♥: two lobes meeting in a point at the bottom."""
    return shapes.place([_unit_heart()], cx, cy, size_mm)


def spade(cx: float, cy: float, size_mm: float) -> Shape:
    """♠: an upturned heart on a flared stem."""
    body_h = 0.8  # the body takes the top 80 %, the stem reaches the bottom
    body = [(x * body_h * 1.05, -y * body_h - 0.5 + body_h / 2) for x, y in _unit_heart()]
    stem = _unit_stem(0.05, 0.5, 0.2)
    return shapes.place([body, stem], cx, cy, size_mm)


def diamond(cx: float, cy: float, size_mm: float) -> Shape:
    """♦: a lozenge with slightly curved sides."""
    right = shapes.path(
        (0.0, -0.5),
        [
            ((0.12, -0.3), (0.28, -0.12), (0.37, 0.0)),
            ((0.28, 0.12), (0.12, 0.3), (0.0, 0.5)),
        ],
    )
    return shapes.place([shapes.mirror_closed(right)], cx, cy, size_mm)


def club(cx: float, cy: float, size_mm: float) -> Shape:
    """♣: three discs joined in the middle, on a flared stem."""
    r = 0.215
    discs = [shapes.circle(0.0, -0.5 + r, r), shapes.circle(-0.255, 0.02, r), shapes.circle(0.255, 0.02, r)]
    joint = [(0.0, -0.2), (0.17, 0.02), (0.0, 0.14), (-0.17, 0.02)]
    stem = _unit_stem(0.0, 0.5, 0.2)
    return shapes.place([*discs, joint, stem], cx, cy, size_mm)


SUITS = {"spades": spade, "hearts": heart, "diamonds": diamond, "clubs": club}


def suit(name: str, cx: float, cy: float, size_mm: float) -> Shape:
    """The suit shape for ``spades``, ``hearts``, ``diamonds`` or ``clubs``."""
    try:
        return SUITS[name](cx, cy, size_mm)
    except KeyError:
        raise ValueError(f"unknown suit {name!r} (expected one of {', '.join(SUITS)})") from None


# Suits print red and black unless a layout asks for other colours.
SUIT_COLORS = {"hearts": "#c8102e", "diamonds": "#c8102e", "clubs": DEFAULT_INK, "spades": DEFAULT_INK}

# The icons Clag offers: hearts and diamonds red, clubs and spades near-black.
ICONS: Mapping[str, Icon] = MappingProxyType({name: ShapeIcon(SUITS[name], SUIT_COLORS[name]) for name in ("hearts", "diamonds", "clubs", "spades")})
