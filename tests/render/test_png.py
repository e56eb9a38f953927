"""The PNG backend: a per-card PDF rasterised by PDFium, at the card's exact pixel size and 300 DPI."""

from __future__ import annotations

import io
import threading

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage
from PIL import ImageChops

from printkit.pipeline.build import build
from printkit.pipeline.context import BuildOptions
from printkit.pipeline.producers import produce_cards
from printkit.deck import Art, Card, CardSize, Deck
from printkit.errors import BuildError
from printkit.fonts import KOREAN_BOLD, SYMBOLS
from printkit.layout.imposition import card_page
from printkit.layout.ops import Ellipse, Face, Image, Line, Polygon, Rect, Text
from printkit.layout.templates import generic
from printkit.render.pdf import render_pages
from printkit.render.png import DPI, card_pixel_size, card_png, png_bytes, rasterise, render_face

POKER = CardSize(63.5, 88.9, bleed_mm=3.175)


def at(image, x_mm, y_mm, size=POKER):
    """Pixel at a card-frame point (origin at the trim's top-left)."""
    return image.getpixel((int((x_mm + size.bleed_mm) * DPI / 25.4), int((y_mm + size.bleed_mm) * DPI / 25.4)))


def pdf_of(face: Face, size: CardSize = POKER) -> bytes:
    return render_pages([card_page(face, size)])


def test_poker_with_eighth_inch_bleed_is_825_by_1125():
    assert card_pixel_size(POKER) == (825, 1125)
    assert render_face(Face(()), POKER).size == (825, 1125)
    assert card_pixel_size(CardSize(25, 25, bleed_mm=3.175)) == (370, 370)


def test_the_bleed_box_fills_the_image_edge_to_edge():
    # A millimetre square in each corner of the bleed box lands in the image's corner pixels,
    # also for a size whose pixel count is rounded (25 mm + 2 x 3 mm is 366.1 px at 300 DPI).
    for size in (POKER, CardSize(25, 25, bleed_mm=3.0)):
        b, w, h = size.bleed_mm, size.width_mm, size.height_mm
        face = Face((Rect(-b, -b, 1, 1, fill="#ff0000"), Rect(w + b - 1, -b, 1, 1, fill="#00ff00"),
                     Rect(-b, h + b - 1, 1, 1, fill="#0000ff"), Rect(w + b - 1, h + b - 1, 1, 1, fill="#000000")))
        image = render_face(face, size)
        width, height = image.size
        assert image.size == card_pixel_size(size)
        assert image.getpixel((0, 0)) == (255, 0, 0)
        assert image.getpixel((width - 1, 0)) == (0, 255, 0)
        assert image.getpixel((0, height - 1)) == (0, 0, 255)
        assert image.getpixel((width - 1, height - 1)) == (0, 0, 0)
        assert image.getpixel((width // 2, height // 2)) == (255, 255, 255)


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


def test_png_bytes_are_reproducible_rgb_and_300_dpi():
    face = Face((Text(10, 20, "같은 그림", KOREAN_BOLD, 5), Rect(0, 0, 5, 5, fill="#123456")))
    first, second = card_png(pdf_of(face), POKER), card_png(pdf_of(face), POKER)
    assert first == second
    decoded = PILImage.open(io.BytesIO(first))
    assert decoded.format == "PNG" and decoded.mode == "RGB" and decoded.size == (825, 1125)
    assert decoded.info["dpi"] == pytest.approx((DPI, DPI), abs=0.05)  # stored per metre


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG's chunks as (type, body), once printkit's own check of pictures has passed it (every
    chunk's CRC, the header, the image data inflating to rows of valid filter types)."""
    import struct

    from printkit.images import png_info

    png_info(data)
    out, at = [], 8
    while at < len(data):
        (length,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        out.append((kind, data[at + 8:at + 8 + length]))
        at += 12 + length
    return out


def _card_like() -> PILImage.Image:
    image = PILImage.new("RGB", (300, 200), "#fbf8f1")
    image.paste((13, 80, 160), (40, 40, 260, 120))
    image.paste((200, 30, 40), (0, 150, 300, 152))
    return image


def _photo_like() -> PILImage.Image:
    import random

    rng = random.Random(7)
    image = PILImage.new("RGB", (300, 200))
    image.putdata([(min(255, x + rng.randrange(60)), min(255, y + rng.randrange(60)), rng.randrange(256))
                   for y in range(200) for x in range(300)])
    return image


def _pillows(image: PILImage.Image) -> bytes:
    import zlib

    from printkit.render.color import srgb_icc

    out = io.BytesIO()
    image.save(out, format="PNG", compress_type=zlib.Z_RLE, dpi=(DPI, DPI), icc_profile=srgb_icc())
    return out.getvalue()


@pytest.mark.parametrize("make", [_card_like, _photo_like])
def test_png_bytes_keep_every_pixel(make):
    image = make()
    data = png_bytes(image)
    decoded = PILImage.open(io.BytesIO(data))
    assert decoded.mode == "RGB" and decoded.tobytes() == image.tobytes()
    assert decoded.info["dpi"] == pytest.approx((DPI, DPI), abs=0.05) and decoded.info["icc_profile"]


def test_flat_art_is_written_unfiltered_with_the_chunks_pillow_writes():
    """A card of flat colour: rows unfiltered (Pillow's per-row filter choice is most of its time),
    and every chunk but the image data the same as Pillow's."""
    import zlib

    image = _card_like()
    ours, pillows = _chunks(png_bytes(image)), _chunks(_pillows(image))
    assert [kind for kind, _ in ours] == [kind for kind, _ in pillows] == [b"IHDR", b"iCCP", b"pHYs", b"IDAT", b"IEND"]
    assert [body for kind, body in ours if kind != b"IDAT"] == [body for kind, body in pillows if kind != b"IDAT"]
    rows = zlib.decompress(dict(ours)[b"IDAT"])
    stride = 1 + 3 * image.width
    assert len(rows) == stride * image.height and all(rows[at] == 0 for at in range(0, len(rows), stride))
    assert len(png_bytes(image)) < len(image.tobytes()) * 0.05


def test_a_photographic_image_is_written_by_pillow_with_its_filters():
    image = _photo_like()
    assert png_bytes(image) == _pillows(image)


def test_an_image_larger_than_a_card_is_written_by_pillow():
    """A sheet of many cards (a Tabletop Simulator export): Pillow's filters find what repeats
    across its rows, and the image is not copied whole."""
    from printkit.render import png

    image = PILImage.new("RGB", (2100, 2000), "#fbf8f1")  # 4.2 million pixels, all flat
    image.paste((13, 80, 160), (100, 100, 2000, 300))
    assert image.width * image.height > png.FLAT_MAX_PIXELS
    assert png_bytes(image) == _pillows(image)


def test_an_empty_image_is_refused_as_pillow_refuses_it():
    image = PILImage.new("RGB", (0, 5))
    with pytest.raises(Exception) as ours:
        png_bytes(image)
    with pytest.raises(Exception) as pillows:
        _pillows(image)
    assert type(ours.value) is type(pillows.value) and str(ours.value) == str(pillows.value)


def test_an_image_not_in_rgb_is_written_by_pillow():
    image = _card_like().convert("L")
    assert PILImage.open(io.BytesIO(png_bytes(image))).tobytes() == image.tobytes()
    assert png_bytes(image) == _pillows(image)


def test_a_rasterised_card_outlives_the_bitmap_it_was_drawn_in():
    """Each image is a copy, not a view of PDFium's bitmap (freed, then reused by the next page)."""
    from printkit.render.png import rasterise_pages

    red, blue = Face((Rect(-5, -5, 80, 100, fill="#ff0000"),)), Face((Rect(-5, -5, 80, 100, fill="#0000ff"),))
    pdf = render_pages([card_page(red, POKER), card_page(blue, POKER)])
    first, second = rasterise_pages(pdf, [(POKER, 30), (POKER, 30)])
    assert first.getpixel((10, 10)) == (255, 0, 0) and second.getpixel((10, 10)) == (0, 0, 255)
    assert first.tobytes() == PILImage.new("RGB", first.size, (255, 0, 0)).tobytes()

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


def test_png_is_the_pdfs_own_rasterisation(tmp_path):
    """The PNG holds what any PDFium rendering of the per-card PDF shows, at the same resolution."""
    face = _mixed_face(tmp_path)
    pdf = pdf_of(face)
    png = PILImage.open(io.BytesIO(card_png(pdf, POKER)))
    page = pdfium.PdfDocument(pdf)[0]
    # A hair under 300 DPI: pypdfium2 rounds the page's 825.0000000001 pixels up to 826.
    raster = page.render(scale=DPI / 72 - 1e-9).to_pil().convert("RGB")
    assert raster.size == png.size
    assert ImageChops.difference(png.convert("RGB"), raster).getbbox() is None  # not one pixel differs
    # And the colours are where the ops put them.
    assert at(png, 32.5, 40) == (0xd5, 0x5e, 0x00)  # inside the triangle
    assert at(png, 15, 70) == (0x00, 0x72, 0xb2)  # the ellipse
    assert at(png, 44, 68) == (0, 120, 200)  # the picture's blue half, cropped to its box
    assert at(png, 1, 1) == (0xfb, 0xf8, 0xf1)


def test_the_per_card_png_of_a_build_is_its_pdf_rasterised(tmp_path):
    cards = tuple(Card(f"c-{i}", "cards", {"n": i}, Art(colors={"background": c}, back_color="#1f3b5a"), POKER)
                  for i, c in enumerate(["#e6194b", "#3cb44b"]))
    deck = Deck(game="colourtest", name="Colours", deck_id="colours", variant=None,
                spec_path=tmp_path / "colours.yaml", size=POKER, art=Art(), cards=cards)
    out = tmp_path / "out"
    result = build([deck], BuildOptions(out_dir=out, per_card=True), producers=(produce_cards,))
    pngs = [e for e in result.entries if e.kind in ("card-png", "card-back-png")]
    assert len(pngs) == 3
    for entry in pngs:
        written = (out / entry.path).read_bytes()
        assert written == card_png((out / entry.path).with_suffix(".pdf").read_bytes(), POKER)
    front = PILImage.open(out / "colours/cards/001-cards-1.png")
    assert front.getpixel((2, 2)) == (0xe6, 0x19, 0x4b)  # the bleed carries the background
    assert PILImage.open(out / "colours/cards/back-1.png").getpixel((2, 2)) == (0x1f, 0x3b, 0x5a)


def test_generic_template_renders():
    card = Card("g-1", "things", {"name": "Stone", "cost": 2}, Art(colors={"background": "#eeeeee"}), POKER)
    image = render_face(generic.front(card), POKER)
    assert at(image, -2, -2) == (238, 238, 238)


def test_transparent_images_let_the_background_through(tmp_path):
    path = tmp_path / "half.png"
    picture = PILImage.new("RGBA", (20, 10), (0, 0, 255, 255))
    picture.paste((0, 0, 0, 0), (10, 0, 20, 10))
    picture.save(path)
    face = Face((Rect(-3.175, -3.175, 69.85, 95.25, fill="#ff0000"), Image(10, 10, 40, 20, path, fit="stretch")))
    image = render_face(face, POKER)
    assert at(image, 20, 20) == (0, 0, 255)
    assert at(image, 40, 20) == (255, 0, 0)


def test_rasterising_from_several_threads_gives_the_same_bytes():
    # PDFium is not thread-safe; the backend serialises its calls, so threads may share it.
    pdfs = [pdf_of(Face((Rect(0, 0, 10 + i, 10, fill="#336699"),))) for i in range(4)]
    expected = [card_png(pdf, POKER) for pdf in pdfs]
    results: dict[int, bytes] = {}

    def work(i: int) -> None:
        results[i] = card_png(pdfs[i % 4], POKER)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [results[i] for i in range(12)] == [expected[i % 4] for i in range(12)]


def test_bytes_that_are_not_a_pdf_are_a_build_error():
    with pytest.raises(BuildError, match="cannot rasterise"):
        rasterise(b"not a pdf", POKER)


def test_png_bytes_carry_the_dpi_asked_for():
    image = PILImage.new("RGB", (10, 10), "#ffffff")
    assert PILImage.open(io.BytesIO(png_bytes(image, 150))).info["dpi"] == pytest.approx((150, 150), abs=0.05)


def _stacked_by_pillow(pdf: bytes, pages, first: int = 0) -> PILImage.Image:
    """What a stacked PNG must show: each page rasterised alone, pasted under the last on white."""
    from printkit.render.png import rasterise_pages

    images = rasterise_pages(pdf, pages, first=first)
    sheet = PILImage.new("RGB", (max(i.width for i in images), sum(i.height for i in images)), "white")
    top = 0
    for image in images:
        sheet.paste(image, (0, top))
        top += image.height
    return sheet


def _filters(data: bytes, width: int) -> set[int]:
    """The PNG filter types of an 8-bit RGB PNG's rows."""
    import struct
    import zlib

    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    rows = zlib.decompress(idat)
    return set(rows[::3 * width + 1])


def test_a_stacked_png_is_its_pages_rasterised_alone_and_stacked(tmp_path):
    """PDFium draws the pages straight into the PNG's rows: the same pixels as rasterising each
    page and stacking the pictures, white beside a narrower page."""
    from printkit.render.png import stacked_png

    narrow = CardSize(41, 63, bleed_mm=3.0)
    red = Face((Rect(-5, -5, 80, 100, fill="#ff0000"),))
    pages = [card_page(_mixed_face(tmp_path), POKER), card_page(red, narrow), card_page(red, POKER)]
    pdf = render_pages(pages)
    sizes = [(POKER, 100), (narrow, 100), (POKER, 40)]
    for first in (0, 1):
        expected = _stacked_by_pillow(pdf, sizes[first:], first)
        data = stacked_png(pdf, sizes[first:], first, 100)
        shown = PILImage.open(io.BytesIO(data))
        assert shown.size == expected.size and shown.mode == "RGB"
        assert ImageChops.difference(shown.convert("RGB"), expected).getbbox() is None
        assert shown.info["dpi"] == pytest.approx((100, 100), abs=0.01)
        assert shown.info.get("icc_profile")  # tagged sRGB, as every PNG printkit writes
    shown = PILImage.open(io.BytesIO(stacked_png(pdf, sizes[1:2], 1, 100))).convert("RGB")
    assert shown.getpixel((0, 0)) == (255, 0, 0) and shown.size == card_pixel_size(narrow, 100)
    beside = PILImage.open(io.BytesIO(stacked_png(pdf, sizes[1:], 1, 100))).convert("RGB")
    below = card_pixel_size(narrow, 100)[1] + 10  # in the 40 DPI poker card, narrower than the first
    assert beside.getpixel((0, below)) == (255, 0, 0) and beside.getpixel((beside.width - 1, below)) == (255, 255, 255)


def test_a_stacked_png_of_photographic_pages_keeps_every_pixel_and_its_rows_unfiltered(tmp_path):
    """A preview is written fast, whatever the art: every row unfiltered (per-card PNGs of such art
    are filtered by Pillow), every pixel kept."""
    import random

    from printkit.render.png import stacked_png

    rng = random.Random(7)
    noise = PILImage.frombytes("RGB", (120, 160), bytes(rng.randrange(256) for _ in range(120 * 160 * 3)))
    noise.save(tmp_path / "noise.png")
    face = Face((Image(-3.175, -3.175, 69.85, 95.25, tmp_path / "noise.png", fit="cover"),))
    pdf = render_pages([card_page(face, POKER), card_page(face, POKER)])
    pages = [(POKER, 100), (POKER, 100)]
    expected = _stacked_by_pillow(pdf, pages)
    data = stacked_png(pdf, pages, 0, 100)
    assert ImageChops.difference(PILImage.open(io.BytesIO(data)).convert("RGB"), expected).getbbox() is None
    assert _filters(data, expected.width) == {0}
    assert _filters(png_bytes(expected, 100), expected.width) != {0}  # what a print PNG of it does
