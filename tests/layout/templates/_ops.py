"""Helpers for template tests: the extent of drawing ops, and the characters each font prints."""

from __future__ import annotations

from printkit.fonts import missing_glyphs, text_width_mm
from printkit.layout.ops import Ellipse, Image, Line, Polygon, Rect, Text
from printkit.layout.text import font_metrics


def op_bounds(op):
    """(x0, y0, x1, y1) covered by one op, in mm; text uses its advance width and font metrics."""
    if isinstance(op, (Rect, Image)):
        return op.x_mm, op.y_mm, op.x_mm + op.w_mm, op.y_mm + op.h_mm
    if isinstance(op, Polygon):
        xs = [x for x, _ in op.points]
        ys = [y for _, y in op.points]
        return min(xs), min(ys), max(xs), max(ys)
    if isinstance(op, Ellipse):
        return op.cx_mm - op.rx_mm, op.cy_mm - op.ry_mm, op.cx_mm + op.rx_mm, op.cy_mm + op.ry_mm
    if isinstance(op, Line):
        return min(op.x1_mm, op.x2_mm), min(op.y1_mm, op.y2_mm), max(op.x1_mm, op.x2_mm), max(op.y1_mm, op.y2_mm)
    if isinstance(op, Text):
        width = text_width_mm(op.text, op.font, op.size_mm)
        m = font_metrics(op.font)
        start = {"start": 0.0, "middle": -width / 2, "end": -width}[op.anchor]
        x0, x1 = op.x_mm + start, op.x_mm + start + width
        y0, y1 = op.y_mm - m.ascent * op.size_mm, op.y_mm + m.descent * op.size_mm
        assert op.rotate_deg in (0.0, 180.0), op
        if op.rotate_deg == 180.0:
            x0, x1 = 2 * op.x_mm - x1, 2 * op.x_mm - x0
            y0, y1 = 2 * op.y_mm - y1, 2 * op.y_mm - y0
        return x0, y0, x1, y1
    raise TypeError(op)


def assert_inside(ops, x0, y0, x1, y1, eps=1e-6):
    for op in ops:
        bx0, by0, bx1, by1 = op_bounds(op)
        assert bx0 >= x0 - eps and by0 >= y0 - eps and bx1 <= x1 + eps and by1 <= y1 + eps, (op, (x0, y0, x1, y1))


def assert_inside_bleed(face, card):
    s = card.size
    assert_inside(face.ops, -s.bleed_mm, -s.bleed_mm, s.width_mm + s.bleed_mm, s.height_mm + s.bleed_mm)


def assert_glyphs(face):
    for op in face.ops:
        if isinstance(op, Text):
            assert missing_glyphs(op.text, op.font) == "", (op.text, op.font.name)


def texts(face):
    return [op for op in face.ops if isinstance(op, Text)]



MAGENTA = (255, 0, 255)


def with_background_image(card, tmp_path):
    """The card with a plain magenta background image, easy to find in a rendering, with the
    pixels to print sharp across a card's bleed (300 DPI: no resolution warning)."""
    import dataclasses

    from PIL import Image as PILImage

    path = tmp_path / "magenta.png"
    if not path.exists():
        PILImage.new("RGB", (900, 1200), MAGENTA).save(path)
    return dataclasses.replace(card, art=dataclasses.replace(card.art, background_image=path))


def image_share(face, card, x0, y0, x1, y1, color=MAGENTA, dpi=100):
    """The share of pixels of ``color`` in the region (fractions of the trim size) of the face's
    per-card PDF, rasterised as its PNG is (at ``dpi``: enough for small text's antialiased edges
    to leave the plate round it its own colour)."""
    from printkit.render.png import render_face

    image = render_face(face, card.size, dpi=dpi)
    s = card.size
    px_per_mm = image.width / s.bleed_width_mm
    box = [round((s.bleed_mm + f * d) * px_per_mm) for f, d in
           ((x0, s.width_mm), (y0, s.height_mm), (x1, s.width_mm), (y1, s.height_mm))]
    region = image.crop(box)
    raw = region.tobytes()
    pixels = [raw[i:i + 3] for i in range(0, len(raw), 3)]
    return sum(1 for p in pixels if all(abs(a - b) < 8 for a, b in zip(p, color))) / len(pixels)


def assert_same_under_half_turn(face, card):
    """The face's outlines map onto themselves when the card is turned 180 degrees."""
    from printkit.layout import shapes

    polys = [op for op in face.ops if isinstance(op, Polygon)]
    assert polys

    def key(ops):
        # Each outline by its centroid and its point count; exact point lists differ in rounding.
        return sorted(
            (round(sum(x for x, _ in op.points) / len(op.points), 3),
             round(sum(y for _, y in op.points) / len(op.points), 3), len(op.points))
            for op in ops
        )

    size = card.size
    assert key(polys) == key(shapes.turn_180(polys, size.width_mm / 2, size.height_mm / 2))
