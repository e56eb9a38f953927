"""Vector shapes for card faces, as polygons in millimetres (card frame: y downwards).

Symbols are drawn as shapes rather than glyphs, so they print the same whatever the font and keep
their meaning in greyscale (the games' own glyphs, suits and arithmetic symbols, are built from
these helpers in ``printkit/games/<game>/icons.py``). Each shape function
returns an :data:`Outline` set: one or more closed point lists that together form the shape when
all are filled in the same colour (a club is three discs, a joint and a stem). Curves are cubic
Béziers flattened into short straight segments.

``size_mm`` is the height of the shape's bounding box; shapes are centred on ``(cx, cy)``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from typing import Iterable, Sequence

from printkit.layout.ops import Ellipse, Image, Line, Op, Point, Polygon, Rect, Text

Outline = tuple[Point, ...]
Shape = tuple[Outline, ...]

# Points per flattened Bézier segment; at 30 mm a segment of 16 chords deviates < 0.05 mm.
_BEZIER_STEPS = 16
_CIRCLE_STEPS = 48


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = _BEZIER_STEPS) -> list[Point]:
    """Points along a cubic Bézier from ``p0`` to ``p3`` (``p0`` excluded, ``p3`` included)."""
    points = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        points.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return points


def path(start: Point, segments: Sequence[tuple[Point, Point, Point]]) -> list[Point]:
    """A start point followed by cubic segments given as (control 1, control 2, end)."""
    points = [start]
    for c1, c2, end in segments:
        points.extend(cubic(points[-1], c1, c2, end))
    return points


def mirror_closed(right_half: list[Point]) -> list[Point]:
    """Close a shape symmetric about x = 0 from its right half, drawn top to bottom."""
    left = [(-x, y) for x, y in reversed(right_half)]
    # Drop points on the axis that the mirror would duplicate.
    return right_half + [p for p in left if abs(p[0]) > 1e-12]


def place(outlines: Iterable[Sequence[Point]], cx: float, cy: float, size_mm: float) -> Shape:
    """Scale unit outlines (height 1, centred on 0, 0) to ``size_mm`` and move them to (cx, cy)."""
    return tuple(tuple((cx + x * size_mm, cy + y * size_mm) for x, y in outline) for outline in outlines)


def circle(cx: float, cy: float, r_mm: float, steps: int = _CIRCLE_STEPS) -> Outline:
    """A circle as a polygon."""
    return tuple(
        (cx + r_mm * math.cos(2 * math.pi * i / steps), cy + r_mm * math.sin(2 * math.pi * i / steps))
        for i in range(steps)
    )


def star(cx: float, cy: float, size_mm: float, points: int = 5, inner: float = 0.45) -> Shape:
    """A star with ``points`` tips, one pointing up; ``inner`` is the inner/outer radius ratio."""
    r_out = 0.5
    outline = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_out * inner
        angle = -math.pi / 2 + math.pi * i / points
        outline.append((r * math.cos(angle), r * math.sin(angle)))
    # Centre on the bounding box: a five-point star is lower at its bottom tips than at its top.
    ys = [y for _, y in outline]
    shift = -(min(ys) + max(ys)) / 2
    scale = 1.0 / (max(ys) - min(ys))
    return place([[(x * scale, (y + shift) * scale) for x, y in outline]], cx, cy, size_mm)


# --- helpers on points and ops --------------------------------------------------------------

def polygons(shape: Shape, fill: str) -> tuple[Polygon, ...]:
    """Drawing ops that fill every outline of ``shape`` in ``fill``."""
    return tuple(Polygon(points=outline, fill=fill) for outline in shape)


def rotate_points(points: Iterable[Point], cx: float, cy: float, deg: float) -> list[Point]:
    """Turn points about (cx, cy) by ``deg`` degrees, clockwise as seen on the page (y down)."""
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in points]


def turn_180(ops: Iterable[Op], cx: float, cy: float) -> tuple[Op, ...]:
    """The ops turned half a turn about (cx, cy): the lower, upside-down copy of a corner or pip."""

    def px(x: float) -> float:
        return 2 * cx - x

    def py(y: float) -> float:
        return 2 * cy - y

    turned: list[Op] = []
    for op in ops:
        if isinstance(op, Polygon):
            turned.append(Polygon(tuple((px(x), py(y)) for x, y in op.points), op.fill, op.stroke, op.stroke_mm))
        elif isinstance(op, Text):
            # Half a turn about the card point equals half a turn about the moved anchor.
            turned.append(replace(op, x_mm=px(op.x_mm), y_mm=py(op.y_mm), rotate_deg=(op.rotate_deg + 180.0) % 360.0))
        elif isinstance(op, Rect):
            turned.append(Rect(px(op.x_mm + op.w_mm), py(op.y_mm + op.h_mm), op.w_mm, op.h_mm,
                               op.fill, op.stroke, op.stroke_mm, op.radius_mm))
        elif isinstance(op, Ellipse):
            turned.append(Ellipse(px(op.cx_mm), py(op.cy_mm), op.rx_mm, op.ry_mm, op.fill, op.stroke, op.stroke_mm))
        elif isinstance(op, Line):
            turned.append(Line(px(op.x1_mm), py(op.y1_mm), px(op.x2_mm), py(op.y2_mm), op.color, op.width_mm))
        elif isinstance(op, Image):
            # Images cannot be drawn rotated by the backends; keep them upright in the turned box.
            turned.append(replace(op, x_mm=px(op.x_mm + op.w_mm), y_mm=py(op.y_mm + op.h_mm)))
        else:  # pragma: no cover - a new op type must be taught here
            raise TypeError(f"cannot turn {type(op).__name__}")
    return tuple(turned)


def turn_ops(ops: Iterable[Op], quarter_turns: int, cx: float, cy: float) -> tuple[Op, ...]:
    """The ops turned counter-clockwise (as seen on the page) by ``quarter_turns`` × 90° about (cx, cy).

    Negative counts turn clockwise. Rectangles and ellipses swap their sides on odd counts,
    text turns with its ``rotate_deg`` and images with their ``quarter_turns``, so unlike
    :func:`turn_180` every op, images included, comes out turned.
    """
    turns = quarter_turns % 4
    if turns == 0:
        return tuple(ops)
    # A quarter turn counter-clockwise in the y-down frame takes (dx, dy) to (dy, -dx).
    cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[turns]

    def pt(x: float, y: float) -> Point:
        dx, dy = x - cx, y - cy
        return cx + cos * dx + sin * dy, cy - sin * dx + cos * dy

    def box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        (x1, y1), (x2, y2) = pt(x, y), pt(x + w, y + h)
        return min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)

    turned: list[Op] = []
    for op in ops:
        if isinstance(op, Polygon):
            turned.append(replace(op, points=tuple(pt(x, y) for x, y in op.points)))
        elif isinstance(op, Text):
            x, y = pt(op.x_mm, op.y_mm)
            turned.append(replace(op, x_mm=x, y_mm=y, rotate_deg=(op.rotate_deg + 90.0 * turns) % 360.0))
        elif isinstance(op, Rect):
            x, y, w, h = box(op.x_mm, op.y_mm, op.w_mm, op.h_mm)
            turned.append(replace(op, x_mm=x, y_mm=y, w_mm=w, h_mm=h))
        elif isinstance(op, Ellipse):
            x, y = pt(op.cx_mm, op.cy_mm)
            rx, ry = (op.ry_mm, op.rx_mm) if turns % 2 else (op.rx_mm, op.ry_mm)
            turned.append(replace(op, cx_mm=x, cy_mm=y, rx_mm=rx, ry_mm=ry))
        elif isinstance(op, Line):
            (x1, y1), (x2, y2) = pt(op.x1_mm, op.y1_mm), pt(op.x2_mm, op.y2_mm)
            turned.append(replace(op, x1_mm=x1, y1_mm=y1, x2_mm=x2, y2_mm=y2))
        elif isinstance(op, Image):
            x, y, w, h = box(op.x_mm, op.y_mm, op.w_mm, op.h_mm)
            turned.append(replace(op, x_mm=x, y_mm=y, w_mm=w, h_mm=h, quarter_turns=(op.quarter_turns + turns) % 4))
        else:  # pragma: no cover - a new op type must be taught here
            raise TypeError(f"cannot turn {type(op).__name__}")
    return tuple(turned)


def bounds(shape: Shape) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) over every outline of ``shape``."""
    xs = [x for outline in shape for x, _ in outline]
    ys = [y for outline in shape for _, y in outline]
    return min(xs), min(ys), max(xs), max(ys)


__all__ = [
    "Outline", "Shape", "cubic", "path", "mirror_closed", "place", "circle", "star",
    "polygons", "rotate_points", "turn_180", "turn_ops", "bounds",
]


def clip_to_box(points: Sequence[Point], box_x0: float, box_y0: float, box_x1: float,
                box_y1: float) -> list[Point]:
    """A convex polygon clipped to the rectangle x0..x1, y0..y1 (Sutherland-Hodgman)."""
    edges = (
        (lambda p: p[0] >= box_x0, lambda a, b: _cross_x(a, b, box_x0)),
        (lambda p: p[0] <= box_x1, lambda a, b: _cross_x(a, b, box_x1)),
        (lambda p: p[1] >= box_y0, lambda a, b: _cross_y(a, b, box_y0)),
        (lambda p: p[1] <= box_y1, lambda a, b: _cross_y(a, b, box_y1)),
    )
    out = list(points)
    for inside, cross in edges:
        if not out:
            break
        pts, out = out, []
        for i, cur in enumerate(pts):
            prev = pts[i - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(cross(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cross(prev, cur))
    return out


def _cross_x(a: Point, b: Point, x: float) -> Point:
    t = (x - a[0]) / (b[0] - a[0])
    return (x, a[1] + t * (b[1] - a[1]))


def _cross_y(a: Point, b: Point, y: float) -> Point:
    t = (y - a[1]) / (b[1] - a[1])
    return (a[0] + t * (b[0] - a[0]), y)


@lru_cache(maxsize=64)  # hundreds of diamonds, the same on every back of a size and colour: made once
def lattice(x0: float, y0: float, x1: float, y1: float, cx: float, cy: float, cell_mm: float,
            fill: str, *, size: float = 0.5) -> tuple[Polygon, ...]:
    """An all-over pattern of diamonds filling the box x0..x1, y0..y1, cut at its edges.

    The diamonds sit on a grid turned 45 degrees around (cx, cy) (one on that point), ``cell_mm``
    from centre to centre along a row, each ``size`` of a cell wide. Centred on a card's centre
    the pattern is the same under a half turn and runs into the bleed with no edge or line
    parallel to the cut, so a miscut or a back printed off by a millimetre or two does not show.
    """
    half = cell_mm * size / 2
    ops: list[Polygon] = []
    reach_x = int(max(cx - x0, x1 - cx) / (cell_mm / 2)) + 2
    reach_y = int(max(cy - y0, y1 - cy) / (cell_mm / 2)) + 2
    for i in range(-reach_x, reach_x + 1):
        for j in range(-reach_y, reach_y + 1):
            if (i + j) % 2:
                continue  # the grid is a checkerboard: diamonds on every other half step
            x, y = cx + i * cell_mm / 2, cy + j * cell_mm / 2
            diamond = ((x, y - half), (x + half, y), (x, y + half), (x - half, y))
            clipped = clip_to_box(diamond, x0, y0, x1, y1)
            if len(clipped) >= 3:
                ops.append(Polygon(tuple(clipped), fill=fill))
    return tuple(ops)


@lru_cache(maxsize=64)  # the same stripes on every marker of a size and colour: made once
def hatch(x0: float, y0: float, x1: float, y1: float, period_mm: float, fill: str,
          border_mm: float = 0.0) -> tuple[Polygon, ...]:
    """Diagonal stripes like warning tape across the box x0..x1, y0..y1, cut at its edges.

    Each stripe rises from lower left to upper right, half a ``period_mm`` wide, the first one
    starting at the box's top-left corner. ``border_mm`` above 0 keeps the stripes within that
    distance of the box's edges (a hatched frame around an empty middle); 0 stripes the whole box.
    """
    w, h = x1 - x0, y1 - y0
    if border_mm > 0 and 2 * border_mm < min(w, h):
        ix0, iy0, ix1, iy1 = x0 + border_mm, y0 + border_mm, x1 - border_mm, y1 - border_mm
        # The frame as four convex strips, so each stripe is clipped against rectangles only.
        strips = ((x0, y0, x1, iy0), (x0, iy1, x1, y1), (x0, iy0, ix0, iy1), (ix1, iy0, x1, iy1))
    else:
        strips = ((x0, y0, x1, y1),)
    ops: list[Polygon] = []
    width = period_mm / 2
    # A stripe is the band c <= x + y <= c + width, from y = -reach to reach (beyond the box).
    reach = max(w + h, abs(y0), abs(y1))
    c = x0 + y0
    while c < x1 + y1:
        band = ((c + reach, -reach), (c + width + reach, -reach), (c + width - reach, reach), (c - reach, reach))
        for strip in strips:
            clipped = clip_to_box(band, *strip)
            if len(clipped) >= 3:
                ops.append(Polygon(tuple(clipped), fill=fill))
        c += period_mm
    return tuple(ops)
