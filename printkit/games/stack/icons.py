"""Vector icons for Stack Original's four minerals, plus the stack token glyph.

Each mineral has its own silhouette so that shape alone tells them apart, whatever the colour
vision of the player or the printer's ink: ruby is a faceted gem with a flat crown and a pointed
pavilion, gold a trapezoid ingot, sapphire a pointy-topped hexagon cut, coal an irregular lump.
Icons are built in a unit square (-0.5..0.5 on both axes, y down) and scaled into place.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from printkit.games.stack.scenes import SCENES
from printkit.games.stack.words import DEFAULT_COLORS, MINERAL_NAMES, MINERALS
from printkit.layout.color import DEFAULT_INK, luminance, shade, tint
from printkit.layout.icons import Icon
from printkit.layout.ops import Line, Op, Point, Polygon

# Korean names as the game calls them, and the English ones in capitals for the small print.
KOREAN_NAMES = {mineral: ko for mineral, (ko, _) in MINERAL_NAMES.items()}
ENGLISH_NAMES = {mineral: en.upper() for mineral, (_, en) in MINERAL_NAMES.items()}


# Below this size facets are too small to print cleanly; only the silhouette is drawn.
_DETAIL_MIN_MM = 9.0


# Silhouettes in the unit square. Kept as data so tests and other icons can reuse them.
RUBY_OUTLINE: tuple[Point, ...] = ((-0.5, -0.14), (-0.3, -0.38), (0.3, -0.38), (0.5, -0.14), (0.0, 0.44))
GOLD_OUTLINE: tuple[Point, ...] = ((-0.5, 0.24), (-0.36, -0.1), (-0.24, -0.26), (0.3, -0.26), (0.5, 0.0), (0.5, 0.24))
# A pointy-topped hexagon (unit circumradius) scaled for the sapphire's outline and table.
_HEXAGON: tuple[Point, ...] = ((0.0, -1.0), (0.866, -0.5), (0.866, 0.5), (0.0, 1.0), (-0.866, 0.5), (-0.866, -0.5))
SAPPHIRE_OUTLINE: tuple[Point, ...] = tuple((0.48 * x, 0.48 * y) for x, y in _HEXAGON)
# Coal: a big lump with a smaller one against it, so its outline has a waist no gem has.
COAL_OUTLINE: tuple[Point, ...] = (
    (-0.5, 0.0), (-0.4, -0.24), (-0.2, -0.4), (0.04, -0.32), (0.2, -0.2), (0.16, 0.0), (0.3, 0.06),
    (0.48, 0.12), (0.5, 0.34), (0.3, 0.44), (0.12, 0.36), (-0.1, 0.2), (-0.34, 0.22),
)

OUTLINES = {"ruby": RUBY_OUTLINE, "gold": GOLD_OUTLINE, "sapphire": SAPPHIRE_OUTLINE, "coal": COAL_OUTLINE}


def mineral_icon(
    mineral: str,
    cx_mm: float,
    cy_mm: float,
    size_mm: float,
    color: str,
    *,
    halo: str | None = None,
    detail: bool | None = None,
) -> tuple[Op, ...]:
    """The icon of ``mineral`` centred at (cx, cy) in a square of side ``size_mm``.

    The first op is always the filled silhouette in ``color`` (tests and figures rely on it).
    ``halo`` draws a contrasting outline so dark icons stay visible on dark backgrounds.
    ``detail`` forces facets on or off; by default they appear from 9 mm up.
    """
    if mineral not in OUTLINES:
        raise ValueError(f"unknown mineral {mineral!r} (expected one of {', '.join(MINERALS)})")
    if detail is None:
        detail = size_mm >= _DETAIL_MIN_MM

    def pts(points) -> tuple[Point, ...]:
        return tuple((cx_mm + x * size_mm, cy_mm + y * size_mm) for x, y in points)

    edge = halo if halo else shade(color, 0.45)
    edge_mm = max(0.2, size_mm * (0.03 if halo else 0.018))
    ops: list[Op] = [Polygon(pts(OUTLINES[mineral]), fill=color, stroke=edge, stroke_mm=edge_mm)]
    if detail:
        ops.extend(_FACETS[mineral](pts, color, size_mm))
        # Redraw the outline on top so facet edges never soften the silhouette.
        ops.append(Polygon(pts(OUTLINES[mineral]), fill=None, stroke=edge, stroke_mm=edge_mm))
    return tuple(ops)


def _ruby_facets(pts, color: str, size_mm: float) -> list[Op]:
    girdle_l, girdle_r = pts(((-0.5, -0.14), (0.5, -0.14)))
    return [
        # Crown lit from above, table brightest, pavilion halves in light and shadow.
        Polygon(pts(((-0.5, -0.14), (-0.3, -0.38), (0.3, -0.38), (0.5, -0.14))), fill=tint(color, 0.3)),
        Polygon(pts(((-0.16, -0.38), (0.16, -0.38), (0.24, -0.14), (-0.24, -0.14))), fill=tint(color, 0.5)),
        Polygon(pts(((-0.5, -0.14), (-0.24, -0.14), (0.0, 0.44))), fill=shade(color, 0.15)),
        Polygon(pts(((0.24, -0.14), (0.5, -0.14), (0.0, 0.44))), fill=shade(color, 0.3)),
        Polygon(pts(((-0.24, -0.14), (0.24, -0.14), (0.0, 0.44))), fill=color),
        Line(*girdle_l, *girdle_r, color=shade(color, 0.35), width_mm=size_mm * 0.012),
        Polygon(pts(((-0.1, -0.34), (0.04, -0.34), (-0.06, -0.2), (-0.16, -0.2))), fill=tint(color, 0.8)),
    ]


def _gold_facets(pts, color: str, size_mm: float) -> list[Op]:
    return [
        # Top face (lit), front face, right end in shadow, and a stamped bar on the front.
        Polygon(pts(((-0.36, -0.1), (-0.24, -0.26), (0.3, -0.26), (0.22, -0.1))), fill=tint(color, 0.45)),
        Polygon(pts(((-0.5, 0.24), (-0.36, -0.1), (0.22, -0.1), (0.3, 0.24))), fill=color),
        Polygon(pts(((0.22, -0.1), (0.3, -0.26), (0.5, 0.0), (0.5, 0.24), (0.3, 0.24))), fill=shade(color, 0.25)),
        Polygon(pts(((-0.26, 0.02), (0.1, 0.02), (0.13, 0.12), (-0.3, 0.12))), fill=shade(color, 0.12)),
        Polygon(pts(((-0.2, -0.2), (0.1, -0.2), (0.06, -0.15), (-0.24, -0.15))), fill=tint(color, 0.8)),
    ]


def _sapphire_facets(pts, color: str, size_mm: float) -> list[Op]:
    outer = [(0.48 * x, 0.48 * y) for x, y in _HEXAGON]
    inner = [(0.24 * x, 0.24 * y) for x, y in _HEXAGON]
    # Six trapezoid facets around a hexagonal table, alternately light and dark like a cut stone.
    ops: list[Op] = []
    for i in range(6):
        j = (i + 1) % 6
        t = (0.05, 0.35, 0.2, -0.25, -0.1, 0.15)[i]
        fill = tint(color, t) if t >= 0 else shade(color, -t)
        ops.append(Polygon(pts((outer[i], outer[j], inner[j], inner[i])), fill=fill, stroke=shade(color, 0.3), stroke_mm=size_mm * 0.01))
    ops.append(Polygon(pts(inner), fill=tint(color, 0.35), stroke=shade(color, 0.3), stroke_mm=size_mm * 0.01))
    ops.append(Polygon(pts(((-0.1, -0.16), (0.02, -0.16), (-0.06, -0.06), (-0.14, -0.08))), fill=tint(color, 0.85)))
    return ops



def _coal_facets(pts, color: str, size_mm: float) -> list[Op]:
    # Coal is dark; its sheen is a few lighter grey planes so the lumps read as solid rock.
    crease_top, crease_bottom = pts(((0.16, 0.0), (0.1, 0.34)))
    return [
        Polygon(pts(((-0.4, -0.24), (-0.2, -0.4), (0.04, -0.32), (-0.06, -0.12), (-0.28, -0.06))), fill=tint(color, 0.28)),
        Polygon(pts(((0.04, -0.32), (0.2, -0.2), (0.16, 0.0), (-0.06, -0.12))), fill=tint(color, 0.15)),
        Polygon(pts(((0.16, 0.0), (0.3, 0.06), (0.48, 0.12), (0.34, 0.22), (0.18, 0.18))), fill=tint(color, 0.22)),
        Polygon(pts(((-0.24, -0.32), (-0.14, -0.33), (-0.2, -0.24))), fill=tint(color, 0.6)),
        Polygon(pts(((0.3, 0.09), (0.38, 0.11), (0.32, 0.15))), fill=tint(color, 0.5)),
        # The crease where the small lump rests against the big one.
        Line(*crease_top, *crease_bottom, color=shade(color, 0.5) if luminance(color) > 0.1 else tint(color, 0.35),
             width_mm=size_mm * 0.02),
    ]


_FACETS = {"ruby": _ruby_facets, "gold": _gold_facets, "sapphire": _sapphire_facets, "coal": _coal_facets}


def stack_glyph(cx_mm: float, cy_mm: float, size_mm: float, colors: tuple[str, str, str], edge: str) -> tuple[Op, ...]:
    """Three slabs stacked in isometric view: the mark of a stack token, bottom slab first."""
    ops: list[Op] = []
    slab_w, slab_h, thick = 0.46, 0.2, 0.1
    for level, color in enumerate(colors):
        y = 0.24 - level * 0.2
        top = ((-slab_w, y), (0.0, y - slab_h), (slab_w, y), (0.0, y + slab_h))
        side = ((-slab_w, y), (0.0, y + slab_h), (slab_w, y), (slab_w, y + thick), (0.0, y + slab_h + thick), (-slab_w, y + thick))
        ops.append(Polygon(tuple((cx_mm + x * size_mm, cy_mm + v * size_mm) for x, v in side), fill=shade(color, 0.3), stroke=edge, stroke_mm=size_mm * 0.02))
        ops.append(Polygon(tuple((cx_mm + x * size_mm, cy_mm + v * size_mm) for x, v in top), fill=color, stroke=edge, stroke_mm=size_mm * 0.02))
    return tuple(ops)


@dataclass(frozen=True)
class MineralIcon:
    """One of Stack's minerals, drawn by :func:`~printkit.games.stack.icons.mineral_icon`; ``halo``
    outlines it in a contrasting colour (a layout's icon ``stroke``), for a dark ground."""

    mineral: str
    halo: str | None = None

    def outlined(self, color: str) -> "MineralIcon":
        return MineralIcon(self.mineral, color)

    def in_square(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        """The mineral as Stack's cards place it: its unit square is the box (a layout's ``fit: square``)."""
        return mineral_icon(self.mineral, x_mm + size_mm / 2, y_mm + size_mm / 2, size_mm,
                            color or DEFAULT_COLORS[self.mineral], halo=self.halo)

    def ops(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        outline = OUTLINES[self.mineral]
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        extent = max(max(xs) - min(xs), max(ys) - min(ys))
        # The silhouette's edge is stroked max(0.2 mm, 1.8 % of the drawing size) wide, half of
        # it outside the outline: the drawing size leaves room for it.
        k = max(min((size_mm - 0.2) / extent, size_mm / (extent + 0.018)), size_mm * 0.5 / extent)
        cx = x_mm + size_mm / 2 - k * (min(xs) + max(xs)) / 2
        cy = y_mm + size_mm / 2 - k * (min(ys) + max(ys)) / 2
        return mineral_icon(self.mineral, cx, cy, k, color or DEFAULT_COLORS[self.mineral], halo=self.halo)


# The stack glyph's bounds in its unit square: x -0.46..0.46, y -0.36..0.54, plus its edge (the
# slabs' sharp side corners mitre out further than half the edge's width).
_GLYPH_EXTENT = 0.92 + 0.08
_GLYPH_MIDDLE_Y = 0.09


@dataclass(frozen=True)
class StackIcon:
    """The stack token's glyph (:func:`stack_glyph`): sapphire, gold and ruby slabs edged in ink,
    or all three in the colour it is drawn in."""

    def ops(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        k = size_mm / _GLYPH_EXTENT
        colors = (color,) * 3 if color else (DEFAULT_COLORS["sapphire"], DEFAULT_COLORS["gold"], DEFAULT_COLORS["ruby"])
        return stack_glyph(x_mm + size_mm / 2, y_mm + size_mm / 2 - k * _GLYPH_MIDDLE_Y, k, colors, edge=DEFAULT_INK)

    def in_square(self, x_mm: float, y_mm: float, size_mm: float, color: str | None) -> tuple[Op, ...]:
        """The glyph as the stack token places it: its unit square is the box (``fit: square``)."""
        colors = (color,) * 3 if color else (DEFAULT_COLORS["sapphire"], DEFAULT_COLORS["gold"], DEFAULT_COLORS["ruby"])
        return stack_glyph(x_mm + size_mm / 2, y_mm + size_mm / 2, size_mm, colors, edge=DEFAULT_INK)


# The icons Stack offers: its four minerals, the stack glyph and the terrains' scenes.
ICONS: Mapping[str, Icon] = MappingProxyType({**{name: MineralIcon(name) for name in OUTLINES}, "stack": StackIcon(),
                                              **SCENES})
