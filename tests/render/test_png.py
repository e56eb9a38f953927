"""The Pillow backend: sizes, positions, and agreement with the PDF backend on the same ops."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image as PILImage
from PIL import ImageChops, ImageStat

from printkit.deck import Art, Card, CardSize
from printkit.fonts import KOREAN_BOLD, SYMBOLS
from printkit.layout.imposition import card_page
from printkit.layout.ops import Ellipse, Face, Image, Line, Polygon, Rect, Text
from printkit.layout.templates import generic
from printkit.render.pdf import render_pages
from printkit.render.png import DPI, card_pixel_size, png_bytes, render_face

POKER = CardSize(63.5, 88.9, bleed_mm=3.175)


def at(image, x_mm, y_mm, size=POKER):
    """Pixel at a card-frame point (origin at the trim's top-left)."""
    return image.getpixel((int((x_mm + size.bleed_mm) * DPI / 25.4), int((y_mm + size.bleed_mm) * DPI / 25.4)))


def test_poker_with_eighth_inch_bleed_is_825_by_1125():
    assert card_pixel_size(POKER) == (825, 1125)
    assert render_face(Face(()), POKER).size == (825, 1125)
    assert card_pixel_size(CardSize(25, 25, bleed_mm=3.175)) == (370, 370)


def test_ops_land_in_the_card_frame():
    face = Face((
        Rect(-3.175, -3.175, 69.85, 95.25, fill="#ffffff"),
        Rect(0, 0, 10, 10, fill="#ff0000"),
        Ellipse(30, 40, 5, 5, fill="#0000ff"),
        Line(50, 80, 60, 80, color="#00ff00", width_mm=1.5),
    ))
    image = render_face(face, POKER)
    assert at(image, 5, 5) == (255, 0, 0)
    assert at(image, 11, 5) == (255, 255, 255)
    assert at(image, -1, 5) == (255, 255, 255)  # the bleed is outside the red box
    assert at(image, 30, 40) == (0, 0, 255)
    assert at(image, 55, 80)[1] > 200 and at(image, 55, 82) == (255, 255, 255)


def test_edges_are_antialiased():
    image = render_face(Face((Ellipse(30, 40, 20, 20, fill="#000000"),)), POKER)
    histogram = image.convert("L").histogram()
    assert sum(1 for v in range(1, 255) if histogram[v]) > 3


def test_png_bytes_are_reproducible():
    face = Face((Text(10, 20, "같은 그림", KOREAN_BOLD, 5), Rect(0, 0, 5, 5, fill="#123456")))
    assert png_bytes(render_face(face, POKER)) == png_bytes(render_face(face, POKER))
    decoded = PILImage.open(io.BytesIO(png_bytes(render_face(face, POKER))))
    assert decoded.format == "PNG" and decoded.size == (825, 1125)


def _mixed_face(tmp_path) -> Face:
    picture = tmp_path / "stripes.png"
    stripes = PILImage.new("RGB", (60, 20), "#ffcc00")
    stripes.paste((0, 120, 200), (0, 0, 30, 20))
    stripes.save(picture)
    return Face((
        Rect(-3.175, -3.175, 69.85, 95.25, fill="#fbf8f1"),
        Rect(3, 3, 57.5, 82.9, stroke="#1d1d1f", stroke_mm=0.8, radius_mm=3),
        Polygon(((20, 30), (45, 30), (32.5, 55)), fill="#d55e00", stroke="#000000", stroke_mm=0.5),
        Ellipse(15, 70, 6, 4, fill="#0072b2"),
        Line(5, 60, 58, 60, color="#009e73", width_mm=1.0),
        Text(58, 14, "−7", SYMBOLS, 9, anchor="end"),
        Text(5.5, 75, "9", SYMBOLS, 9, rotate_deg=180),
        Text(31.75, 84, "카드", KOREAN_BOLD, 4, anchor="middle"),
        Image(40, 62, 18, 12, picture, fit="cover"),
    ))


def test_png_matches_the_pdf_drawn_from_the_same_ops(tmp_path):
    face = _mixed_face(tmp_path)
    png = render_face(face, POKER)
    pdf = render_pages([card_page(face, POKER)])
    raster = pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("RGB").resize(png.size)
    diff = ImageChops.difference(png, raster).convert("L")
    # Antialiasing differs at edges; the drawing itself must coincide.
    assert ImageStat.Stat(diff).mean[0] < 4
    assert sum(diff.histogram()[129:]) < 0.01 * png.width * png.height


def test_generic_template_renders_in_both_backends():
    card = Card("g-1", "things", {"name": "Stone", "cost": 2}, Art(colors={"background": "#eeeeee"}), POKER)
    face = generic.front(card)
    image = render_face(face, POKER)
    assert at(image, -2, -2) == (238, 238, 238)
    assert render_pages([card_page(face, POKER)]).startswith(b"%PDF")


def test_transparent_images_let_the_background_through(tmp_path):
    path = tmp_path / "half.png"
    picture = PILImage.new("RGBA", (20, 10), (0, 0, 255, 255))
    picture.paste((0, 0, 0, 0), (10, 0, 20, 10))
    picture.save(path)
    face = Face((Rect(-3.175, -3.175, 69.85, 95.25, fill="#ff0000"), Image(10, 10, 40, 20, path, fit="stretch")))
    image = render_face(face, POKER)
    assert at(image, 20, 20) == (0, 0, 255)
    assert at(image, 40, 20) == (255, 0, 0)


def test_png_slant_and_image_turns_match_the_pdf(tmp_path):
    from printkit.layout.shapes import turn_ops

    face = _mixed_face(tmp_path)
    turned = Face(turn_ops(face.ops[1:], 2, 31.75, 44.45) + (
        Text(10, 30, "Slant", SYMBOLS, 8, slant_deg=12),
        Text(50, 40, "Up", SYMBOLS, 6, slant_deg=12, rotate_deg=90),
    ))
    turned = Face(face.ops[:1] + turned.ops)
    png = render_face(turned, POKER)
    pdf = render_pages([card_page(turned, POKER)])
    raster = pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("RGB").resize(png.size)
    diff = ImageChops.difference(png, raster).convert("L")
    assert ImageStat.Stat(diff).mean[0] < 4
    assert sum(diff.histogram()[129:]) < 0.01 * png.width * png.height
