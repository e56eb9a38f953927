"""Stack Original's terrain scenes: a small landscape behind each terrain's mineral, offered to
layouts as icons (``scene_red_rye_field`` ...) that fill their box (``fit: stretch``).

A red rye field under a pale sky, sunlit gold rays over a stepped temple, a pale blue dot in a
sunbeam in space, a timbered mine under a hill.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from printkit.games.stack.words import DEFAULT_COLORS, TERRAIN_MINERAL, TERRAINS
from printkit.layout.color import mix, shade, tint
from printkit.layout.icons import Icon
from printkit.layout.ops import Ellipse, Line, Op, Polygon, Rect
from printkit.layout.shapes import clip_to_box

# A scene's shape on a poker card: 55.5 mm wide, 21 mm tall; its details scale with its height.
ASPECT = 55.5 / 21.0
_UNIT_HEIGHT_MM = 21.0


def scene_ops(terrain: str, x0: float, y0: float, w: float, h: float, color: str, k: float) -> list[Op]:
    """The landscape of ``terrain`` in the box (x0, y0, w, h) in the hue ``color``; ``k`` scales its
    details (1 on a poker card's 55.5 x 21 mm scene)."""
    ops: list[Op] = []
    if terrain == "pale_blue_dot":
        space = "#101a33"
        ops.append(Rect(x0, y0, w, h, fill=space, radius_mm=2.0 * k))
        for fx, fy, r in ((0.1, 0.2, 0.35), (0.22, 0.75, 0.25), (0.85, 0.15, 0.3), (0.9, 0.7, 0.4),
                          (0.7, 0.88, 0.25), (0.3, 0.1, 0.2), (0.62, 0.12, 0.25), (0.06, 0.55, 0.2)):
            ops.append(Ellipse(x0 + fx * w, y0 + fy * h, r * k, r * k, fill="#e8ecf8"))
        # A sunbeam crossing the frame, and the pale blue dot sitting in it.
        ops.append(Polygon(((x0 + w * 0.8, y0), (x0 + w * 0.86, y0), (x0 + w * 0.26, y0 + h), (x0 + w * 0.2, y0 + h)),
                           fill=mix(space, "#c9a66b", 0.16)))
        ops.append(Ellipse(x0 + w * 0.67, y0 + h * 0.28, 0.9 * k, 0.9 * k, fill="#9fc4ff"))
        return ops
    sky = tint(color, 0.86)
    ops.append(Rect(x0, y0, w, h, fill=sky, radius_mm=2.0 * k))
    if terrain == "red_rye_field":
        ground_y = y0 + h * 0.72
        ops.append(Rect(x0, ground_y, w, h - (ground_y - y0), fill=tint(color, 0.45), radius_mm=2.0 * k))
        ops.append(Rect(x0, ground_y, w, 2.0 * k, fill=tint(color, 0.45)))
        n = 13
        for i in range(n):
            x = x0 + w * (i + 0.5) / n
            top = ground_y - h * (0.3 + 0.08 * ((i * 7) % 3))
            ops.append(Line(x, ground_y + 2 * k, x, top, color=shade(color, 0.2), width_mm=0.35 * k))
            for j in range(3):
                gy = top + j * 1.3 * k
                ops.append(Ellipse(x - 0.55 * k, gy + 0.6 * k, 0.45 * k, 0.8 * k, fill=color))
                ops.append(Ellipse(x + 0.55 * k, gy + 0.6 * k, 0.45 * k, 0.8 * k, fill=color))
    elif terrain == "eldorado":
        cx, cy = x0 + w / 2, y0 + h * 0.5
        ray = min(w, h) * 0.75
        for i in range(12):
            a0 = math.tau * i / 12
            a1 = a0 + math.tau / 36
            wedge = ((cx, cy), (cx + ray * math.cos(a0), cy + ray * math.sin(a0)),
                     (cx + ray * math.cos(a1), cy + ray * math.sin(a1)))
            # Rays stop at the panel's edge (inset by its corner radius so they stay inside it).
            clipped = clip_to_box(wedge, x0 + 1.0 * k, y0 + 1.0 * k, x0 + w - 1.0 * k, y0 + h - 1.0 * k)
            if len(clipped) >= 3:
                ops.append(Polygon(tuple(clipped), fill=tint(color, 0.6)))
        # Stepped golden temple on the horizon.
        base_y = y0 + h
        for level in range(3):
            lw = w * (0.86 - level * 0.2)
            ops.append(Rect(cx - lw / 2, base_y - (level + 1) * 3.0 * k, lw, 3.0 * k, fill=tint(color, 0.25 + 0.1 * level),
                            stroke=shade(color, 0.25), stroke_mm=0.2 * k))
    elif terrain == "coal_mine":
        ground = shade(color, 0.1)
        ops.append(Polygon(((x0, y0 + h * 0.55), (x0 + w * 0.3, y0 + h * 0.3), (x0 + w * 0.55, y0 + h * 0.42),
                            (x0 + w * 0.8, y0 + h * 0.22), (x0 + w, y0 + h * 0.4), (x0 + w, y0 + h), (x0, y0 + h)),
                           fill=tint(color, 0.55)))
        # A timbered mine entrance under the hill.
        mx, mw, mh = x0 + w * 0.5, w * 0.5, h * 0.62
        ops.append(Rect(mx - mw / 2, y0 + h - mh, mw, mh, fill=ground))
        beam = "#8a5a2b"
        ops.append(Rect(mx - mw / 2 - 1.2 * k, y0 + h - mh - 1.2 * k, mw + 2.4 * k, 2.4 * k, fill=beam))
        ops.append(Rect(mx - mw / 2 - 1.2 * k, y0 + h - mh, 2.4 * k, mh, fill=beam))
        ops.append(Rect(mx + mw / 2 - 1.2 * k, y0 + h - mh, 2.4 * k, mh, fill=beam))
        ops.append(Rect(x0, y0 + h - 1.4 * k, w, 1.4 * k, fill=shade(color, 0.2)))
    return ops


@dataclass(frozen=True)
class SceneIcon:
    """A terrain's scene as an icon: stretched to its box (``in_box``), or at its own shape
    centred in a square; in the colour it is drawn in, else its mineral's."""

    terrain: str

    def in_box(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float, color: str | None) -> tuple[Op, ...]:
        hue = color or DEFAULT_COLORS[TERRAIN_MINERAL[self.terrain]]
        return tuple(scene_ops(self.terrain, x_mm, y_mm, w_mm, h_mm, hue, h_mm / _UNIT_HEIGHT_MM))

    def ops(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        h = size_mm / ASPECT
        return self.in_box(x_mm, y_mm + (size_mm - h) / 2, size_mm, h, color)


# The icons of Stack's scenes: scene_<terrain>.
SCENES: Mapping[str, Icon] = MappingProxyType({f"scene_{t}": SceneIcon(t) for t in TERRAINS})
