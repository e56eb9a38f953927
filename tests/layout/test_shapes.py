"""Vector shapes: sizes, centres, symmetry, and the half-turn helper."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from printkit.games.calc import icons as calc_icons
from printkit.games.clag import icons as clag_icons
from printkit.layout import shapes
from printkit.layout.ops import Ellipse, Image, Line, Polygon, Rect, Text

ALL = [clag_icons.spade, clag_icons.heart, clag_icons.diamond, clag_icons.club, calc_icons.plus, calc_icons.minus,
       calc_icons.times, calc_icons.power, shapes.star]


def _area(outline):
    return 0.5 * abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1])))


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.__name__)
def test_shape_fits_its_size_and_is_centred(fn):
    shape = fn(10.0, 20.0, 8.0)
    x0, y0, x1, y1 = shapes.bounds(shape)
    assert x1 - x0 <= 8.0 * 1.06 and y1 - y0 <= 8.0 + 1e-9
    assert (x0 + x1) / 2 == pytest.approx(10.0, abs=1e-9)
    assert (y0 + y1) / 2 == pytest.approx(20.0, abs=1e-9)
    assert all(len(outline) >= 3 for outline in shape)
    assert sum(_area(list(o)) for o in shape) > 0.1 * 64


@pytest.mark.parametrize("name", ["spades", "hearts", "diamonds", "clubs"])
def test_suits_are_full_height_and_mirror_symmetric(name):
    shape = clag_icons.suit(name, 0.0, 0.0, 10.0)
    x0, y0, x1, y1 = shapes.bounds(shape)
    assert y1 - y0 == pytest.approx(10.0)
    assert x0 == pytest.approx(-x1)
    points = {(round(x, 6), round(y, 6)) for o in shape for x, y in o}
    assert all((round(-x, 6), y) in points for x, y in points)


def test_heart_points_down_spade_points_up():
    heart = clag_icons.heart(0, 0, 10)[0]
    spade_body = clag_icons.spade(0, 0, 10)[0]
    assert max(heart, key=lambda p: p[1])[0] == pytest.approx(0.0)  # lowest point on the axis
    assert min(spade_body, key=lambda p: p[1])[0] == pytest.approx(0.0)  # highest point on the axis


def test_symbols_differ_in_shape():
    areas = {name: sum(_area(list(o)) for o in calc_icons.symbol(name, 0, 0, 10)) for name in calc_icons.SYMBOLS}
    assert areas["minus"] < areas["plus"]
    heights = {name: shapes.bounds(calc_icons.symbol(name, 0, 0, 10)) for name in calc_icons.SYMBOLS}
    assert heights["minus"][3] - heights["minus"][1] == pytest.approx(10 * calc_icons.SYMBOL_STROKE)


def test_unknown_names_raise():
    with pytest.raises(ValueError, match="'cups'"):
        clag_icons.suit("cups", 0, 0, 1)
    with pytest.raises(ValueError, match="'divide'"):
        calc_icons.symbol("divide", 0, 0, 1)


def test_cubic_ends_at_endpoint():
    points = shapes.cubic((0, 0), (1, 0), (1, 1), (2, 1))
    assert points[-1] == (2, 1)
    assert len(points) == 16


def test_rotate_points_quarter_turn():
    ((x, y),) = shapes.rotate_points([(1.0, 0.0)], 0.0, 0.0, 90.0)
    assert (x, y) == pytest.approx((0.0, 1.0))


def test_turn_180_maps_every_op():
    font = Path("x.ttf")
    ops = (
        Polygon(((1, 2), (3, 2), (2, 4)), fill="#000000"),
        Text(5, 6, "A", font, 3.0, anchor="end"),
        Rect(1, 1, 2, 3, fill="#ffffff"),
        Ellipse(2, 3, 1, 1),
        Line(0, 0, 1, 1),
    )
    turned = shapes.turn_180(ops, 10, 20)
    assert turned[0].points == ((19, 38), (17, 38), (18, 36))
    assert (turned[1].x_mm, turned[1].y_mm, turned[1].rotate_deg, turned[1].anchor) == (15, 34, 180.0, "end")
    assert (turned[2].x_mm, turned[2].y_mm, turned[2].w_mm, turned[2].h_mm) == (17, 36, 2, 3)
    assert (turned[3].cx_mm, turned[3].cy_mm) == (18, 37)
    assert (turned[4].x1_mm, turned[4].y2_mm) == (20, 39)
    assert shapes.turn_180(turned, 10, 20) == tuple(
        op if not isinstance(op, Text) else dataclasses.replace(op, rotate_deg=0.0) for op in ops
    )


def test_circle_radius():
    outline = shapes.circle(1, 1, 2)
    assert all(math.hypot(x - 1, y - 1) == pytest.approx(2) for x, y in outline)


def test_turn_180_keeps_slant_and_image_turns():
    font = Path("x.ttf")
    text, image = shapes.turn_180((Text(5, 6, "A", font, 3.0, slant_deg=12), Image(1, 1, 4, 2, font, quarter_turns=1)), 0, 0)
    assert text.slant_deg == 12 and image.quarter_turns == 1


def test_turn_ops_quarter_turn_counter_clockwise():
    font = Path("x.ttf")
    ops = (
        Polygon(((11, 20), (10, 19)), fill="#000000"),
        Text(12, 20, "A", font, 3.0, anchor="end", slant_deg=12),
        Rect(10, 20, 4, 2, fill="#ffffff", radius_mm=0.5),
        Ellipse(12, 20, 3, 1),
        Line(10, 20, 14, 20),
        Image(10, 20, 4, 2, font, fit="contain"),
    )
    poly, text, rect, ellipse, line, image = shapes.turn_ops(ops, 1, 10, 20)
    # Right of the centre goes above it; above goes left.
    assert poly.points == ((10, 19), (9, 20))
    assert (text.x_mm, text.y_mm, text.rotate_deg, text.anchor, text.slant_deg) == (10, 18, 90.0, "end", 12)
    assert (rect.x_mm, rect.y_mm, rect.w_mm, rect.h_mm, rect.radius_mm) == (10, 16, 2, 4, 0.5)
    assert (ellipse.cx_mm, ellipse.cy_mm, ellipse.rx_mm, ellipse.ry_mm) == (10, 18, 1, 3)
    assert (line.x1_mm, line.y1_mm, line.x2_mm, line.y2_mm) == (10, 20, 10, 16)
    assert (image.x_mm, image.y_mm, image.w_mm, image.h_mm, image.quarter_turns) == (10, 16, 2, 4, 1)
    # Four quarter turns (or none) give the ops back; three equal one clockwise turn.
    assert shapes.turn_ops(ops, 0, 10, 20) == ops
    again = ops
    for _ in range(4):
        again = shapes.turn_ops(again, 1, 10, 20)
    assert [type(op) for op in again] == [type(op) for op in ops]
    assert again[2] == ops[2] and again[4] == ops[4] and again[0] == ops[0]
    assert shapes.turn_ops(ops, 3, 10, 20) == shapes.turn_ops(ops, -1, 10, 20)


def test_turn_ops_matches_turning_the_rendered_picture(tmp_path):
    import pypdfium2 as pdfium
    from PIL import Image as PILImage
    from PIL import ImageChops, ImageStat

    from printkit.fonts import SYMBOLS
    from printkit.layout.geometry import Size
    from printkit.layout.imposition import Page, Placement
    from printkit.layout.ops import Face
    from printkit.render.pdf import render_pages

    picture = tmp_path / "p.png"
    img = PILImage.new("RGB", (30, 10), "#0000ff")
    img.paste((255, 0, 0), (0, 0, 10, 10))
    img.save(picture)
    ops = (
        Rect(10, 10, 30, 8, fill="#00aa00", radius_mm=2),
        Polygon(((60, 10), (90, 10), (60, 30)), fill="#000000"),
        Ellipse(30, 70, 12, 5, fill="#aa00aa"),
        Line(55, 60, 90, 85, color="#000000", width_mm=1.5),
        Text(15, 45, "Turn", SYMBOLS, 12, slant_deg=12),
        Image(55, 40, 30, 10, picture, fit="stretch"),
    )

    def raster(o):
        pdf = render_pages([Page(Size(100, 100), (Placement(Face(tuple(o)), 0, 0),))])
        return pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("RGB")

    base = raster(ops)
    for turns in (1, 2, 3):
        turned = raster(shapes.turn_ops(ops, turns, 50, 50))
        expected = base.rotate(90 * turns)  # Pillow turns counter-clockwise
        diff = ImageChops.difference(turned, expected).convert("L")
        assert ImageStat.Stat(diff).mean[0] < 3, turns


def test_clip_to_box():
    square = [(-1.0, -1.0), (3.0, -1.0), (3.0, 3.0), (-1.0, 3.0)]
    assert sorted(shapes.clip_to_box(square, 0, 0, 2, 2)) == [(0.0, 0.0), (0.0, 2.0), (2.0, 0.0), (2.0, 2.0)]
    assert shapes.clip_to_box([(5, 5), (6, 5), (6, 6)], 0, 0, 2, 2) == []


def test_hatch_stripes_rise_half_a_period_wide_and_keep_to_the_border():
    whole = shapes.hatch(0, 0, 40, 60, 4.0, "#000000")
    # Every stripe lies in the box and along x + y = c, half a period (2 mm) across measured along x.
    for stripe in whole:
        assert all(-1e-9 <= x <= 40 + 1e-9 and -1e-9 <= y <= 60 + 1e-9 for x, y in stripe.points)
    sums = sorted({round(x + y, 6) for s in whole for x, y in s.points})
    assert sums[:3] == [0.0, 2.0, 4.0]
    framed = shapes.hatch(0, 0, 40, 60, 4.0, "#000000", border_mm=5)
    for stripe in framed:  # no corner of any stripe inside the frame's empty middle
        assert not any(5 + 1e-9 < x < 35 - 1e-9 and 5 + 1e-9 < y < 55 - 1e-9 for x, y in stripe.points)
    assert len(framed) > len(whole)  # a stripe crossing the frame is cut into its strips
    # Far down a page the stripes still reach the box.
    assert shapes.hatch(0, 500, 10, 510, 4.0, "#000000")
