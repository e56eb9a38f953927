"""The reportlab backend, checked on rendered pixels (pypdfium2) and on the PDF's structure (pypdf)."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from printkit import fonts
from printkit.deck import CardSize
from printkit.fonts import KOREAN_BOLD, SYMBOLS
from printkit.layout.geometry import Box, Size
from printkit.layout.imposition import Page, Placement, card_page
from printkit.layout.ops import Ellipse, Face, Image, Line, Polygon, Rect, Text
from printkit.render.canvas import draw_ops
from printkit.render.pdf import new_canvas, render_pages

DPI = 144
RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)


def rasterise(pdf: bytes, index: int = 0) -> PILImage.Image:
    page = pdfium.PdfDocument(pdf)[index]
    return page.render(scale=DPI / 72).to_pil().convert("RGB")


def px(image: PILImage.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return image.getpixel((int(x_mm * DPI / 25.4), int(y_mm * DPI / 25.4)))


def close(a, b, tol=40):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def one_page(ops, x_mm=0.0, y_mm=0.0, clip=None, size=Size(100, 100)) -> bytes:
    return render_pages([Page(size, (Placement(Face(tuple(ops)), x_mm, y_mm, clip),))])


def test_draw_ops_places_the_card_frame_origin_at_top_left_offset():
    image = rasterise(one_page([Rect(0, 0, 20, 10, fill="#ff0000")], 30, 40))
    assert close(px(image, 35, 42), RED)
    assert close(px(image, 49, 49), RED)
    assert close(px(image, 28, 42), WHITE)
    assert close(px(image, 35, 52), WHITE)


def test_draw_ops_scale_and_clip_on_a_plain_canvas():
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, 100, 100)
    draw_ops(canvas, [Rect(0, 0, 20, 10, fill="#0000ff")], 10, 10, 100, scale=2.0)
    draw_ops(canvas, [Rect(0, 0, 20, 20, fill="#ff0000")], 10, 60, 100, clip_mm=Box(0, 0, 5, 5))
    canvas.showPage()
    canvas.save()
    image = rasterise(buffer.getvalue())
    assert close(px(image, 48, 28), BLUE)  # 20 mm wide at scale 2 reaches x = 50
    assert close(px(image, 52, 28), WHITE)
    assert close(px(image, 12, 62), RED)
    assert close(px(image, 17, 62), WHITE)  # clipped at 5 mm


def test_shapes_land_where_the_ops_say():
    ops = [
        Ellipse(50, 50, 10, 5, fill="#0000ff"),
        Polygon(((10, 80), (30, 80), (20, 95)), fill="#ff0000"),
        Line(70, 10, 90, 10, color="#ff0000", width_mm=2),
        Rect(70, 70, 20, 20, stroke="#0000ff", stroke_mm=2, radius_mm=3),
    ]
    image = rasterise(one_page(ops))
    assert close(px(image, 50, 50), BLUE) and close(px(image, 50, 57), WHITE)
    assert close(px(image, 20, 84), RED) and close(px(image, 12, 93), WHITE)
    assert close(px(image, 80, 10), RED)
    assert close(px(image, 80, 70), BLUE) and close(px(image, 80, 80), WHITE)


def test_text_anchor_and_rotation():
    def dark_rows(image, x_mm):
        return [y for y in range(image.height) if sum(image.getpixel((int(x_mm * DPI / 25.4), y))) < 300]

    upright = rasterise(one_page([Text(50, 50, "H", SYMBOLS, 10, anchor="middle")]))
    turned = rasterise(one_page([Text(50, 50, "H", SYMBOLS, 10, anchor="middle", rotate_deg=180)]))
    baseline = 50 * DPI / 25.4
    # "H" stands on its baseline; turned by 180 degrees it hangs below it.
    x_stem = 50 - 0.25 * 10  # left stem of an H centred on x=50 (mirrored when turned)
    assert dark_rows(upright, x_stem) and max(dark_rows(upright, x_stem)) <= baseline + 1
    assert dark_rows(turned, 100 - x_stem) and min(dark_rows(turned, 100 - x_stem)) >= baseline - 1


def test_fonts_are_embedded_as_subsets():
    pdf = one_page([Text(10, 20, "카드 Calc", KOREAN_BOLD, 5), Text(10, 40, "♦ − ×", SYMBOLS, 5)])
    reader = PdfReader(io.BytesIO(pdf))
    fonts = {}
    for font in reader.pages[0]["/Resources"]["/Font"].values():
        font = font.get_object()
        descriptor = (font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font)["/FontDescriptor"]
        fonts[str(font["/BaseFont"])] = "/FontFile2" in descriptor.get_object()
    assert fonts and all(fonts.values())
    assert any("Pretendard-Bold" in name for name in fonts) and any("DejaVuSans" in name for name in fonts)
    assert all("+" in name for name in fonts)  # subset tag, e.g. AAAAAA+Pretendard-Bold


def test_each_image_is_embedded_once(tmp_path):
    path = tmp_path / "dot.png"
    PILImage.new("RGB", (40, 20), "#00ff00").save(path)
    other = tmp_path / "other.jpg"
    PILImage.new("RGB", (10, 10), "#0000ff").save(other)
    ops = [Image(x, 5, 10, 10, path) for x in (5, 20, 35, 50)] + [Image(5, 50, 20, 20, other, fit="contain")]
    faces = [Placement(Face(tuple(ops)), 0, 0)]
    pdf = render_pages([Page(Size(100, 100), tuple(faces)), Page(Size(100, 100), tuple(faces))])
    reader = PdfReader(io.BytesIO(pdf))
    images, seen = set(), set()

    def walk(resources):
        for ref in resources.get("/XObject", {}).values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            xobject = ref.get_object()
            if xobject["/Subtype"] == "/Image":
                images.add(ref.idnum)
            elif "/Resources" in xobject:  # a form: faces are drawn once as forms
                walk(xobject["/Resources"])

    for page in reader.pages:
        walk(page["/Resources"])
    assert len(images) == 2
    image = rasterise(pdf)
    assert close(px(image, 10, 10), (0, 255, 0))
    assert close(px(image, 15, 60), BLUE)


def test_repeated_faces_are_drawn_once_as_forms():
    face = Face((Rect(0, 0, 10, 10, fill="#ff0000"), Text(2, 8, "A", SYMBOLS, 5)))
    other = Face((Rect(0, 0, 10, 10, fill="#0000ff"),))
    placements = tuple(Placement(face, x, 10) for x in (10, 30, 50)) + (Placement(other, 70, 10),)
    pdf = render_pages([Page(Size(100, 100), placements), Page(Size(100, 100), placements)])
    reader = PdfReader(io.BytesIO(pdf))
    forms = {ref.idnum for page in reader.pages for ref in page["/Resources"]["/XObject"].values()}
    assert len(forms) == 2
    image = rasterise(pdf, 1)
    assert close(px(image, 35, 12), RED) and close(px(image, 75, 12), BLUE) and close(px(image, 25, 12), WHITE)


def test_output_is_reproducible():
    ops = [Rect(0, 0, 10, 10, fill="#123456"), Text(5, 30, "같은 바이트", KOREAN_BOLD, 4)]
    assert one_page(ops) == one_page(ops)


def test_card_page_sets_media_trim_and_bleed_boxes():
    size = CardSize(63.5, 88.9, bleed_mm=3.175)
    reader = PdfReader(io.BytesIO(render_pages([card_page(Face(()), size)])))
    page = reader.pages[0]
    pt = 72 / 25.4
    assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 69.85 * pt, 95.25 * pt], abs=0.01)
    assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 69.85 * pt, 95.25 * pt], abs=0.01)
    assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 9 + 180, 9 + 252], abs=0.01)


def test_transparent_images_let_the_background_through(tmp_path):
    path = tmp_path / "half.png"
    picture = PILImage.new("RGBA", (20, 10), (0, 0, 255, 255))
    picture.paste((0, 0, 0, 0), (10, 0, 20, 10))  # right half fully transparent
    picture.save(path)
    image = rasterise(one_page([Rect(0, 0, 100, 100, fill="#ff0000"), Image(10, 10, 40, 20, path, fit="stretch")]))
    assert close(px(image, 20, 20), BLUE)
    assert close(px(image, 40, 20), RED)


def _ink_x(image: PILImage.Image, row_px: int) -> float:
    """Mean x (px) of dark pixels on one row."""
    xs = [x for x in range(image.width) if sum(image.getpixel((x, row_px))) < 300]
    assert xs, f"no ink on row {row_px}"
    return sum(xs) / len(xs)


def test_slanted_text_leans_right_about_its_baseline():
    upright = rasterise(one_page([Text(50, 60, "I", SYMBOLS, 30, anchor="middle")]))
    slanted = rasterise(one_page([Text(50, 60, "I", SYMBOLS, 30, anchor="middle", slant_deg=12)]))
    mm = DPI / 25.4
    near_base, near_top = int(59 * mm), int((60 - 0.7 * 30) * mm)
    # At the baseline the stem stays put; 20 mm up it has moved right by about tan(12°) * 20 mm.
    assert abs(_ink_x(slanted, near_base) - _ink_x(upright, near_base)) < 0.6 * mm
    lean = (_ink_x(slanted, near_top) - _ink_x(upright, near_top)) / mm
    assert lean == pytest.approx(0.2126 * (0.7 * 30), abs=0.6)


def test_text_without_slant_renders_byte_identically():
    assert one_page([Text(10, 20, "Calc", SYMBOLS, 5)]) == one_page([Text(10, 20, "Calc", SYMBOLS, 5, slant_deg=0.0)])


def _red_left_blue_right(tmp_path):
    path = tmp_path / "halves.png"
    picture = PILImage.new("RGB", (20, 10), BLUE)
    picture.paste(RED, (0, 0, 10, 10))
    picture.save(path)
    return path


@pytest.mark.parametrize("turns, first, second", [
    (1, BLUE, RED),   # counter-clockwise: the left half goes to the bottom
    (2, BLUE, RED),   # upside down: the left half goes to the right
    (3, RED, BLUE),   # clockwise: the left half goes to the top
])
def test_images_turn_by_quarter_turns(tmp_path, turns, first, second):
    path = _red_left_blue_right(tmp_path)
    if turns % 2:
        image = rasterise(one_page([Image(10, 10, 20, 40, path, fit="contain", quarter_turns=turns)]))
        # A 2:1 picture turned fills a 1:2 box: halves above and below each other.
        assert close(px(image, 20, 20), first) and close(px(image, 20, 40), second)
    else:
        image = rasterise(one_page([Image(10, 10, 40, 20, path, fit="contain", quarter_turns=turns)]))
        assert close(px(image, 20, 20), first) and close(px(image, 40, 20), second)


def test_images_without_turns_render_byte_identically(tmp_path):
    path = _red_left_blue_right(tmp_path)
    assert one_page([Image(10, 10, 40, 20, path)]) == one_page([Image(10, 10, 40, 20, path, quarter_turns=0)])


def _many_texts() -> list[Face]:
    """Faces with upright texts in two fonts, many characters (more than one font subset), escapes
    and Hangul, at sizes and places that format with many digits; and some the shortcut skips."""
    from printkit.fonts import KOREAN

    words = ["(paren) back\\slash", "한글 카드", "1/3 × ½ — “quoted”", "".join(chr(c) for c in range(0xac00, 0xad40))]
    faces = []
    for n in range(6):
        ops = [Rect(0, 0, 63.5, 88.9, fill="#fbf8f1"), Ellipse(50, 10, 4.9999, 5.0001, fill="#123456", stroke="#abcdef")]
        for i, word in enumerate(words):
            ops.append(Text(3.1 + n / 7, 10 + 7.3 * i + n / 3, word, KOREAN if i % 2 else KOREAN_BOLD, 3.2 - n / 9,
                            "#1d1d1f" if i else "#c8102e"))
        ops.append(Text(30, 80, "centred", KOREAN_BOLD, 4, "#000000", "middle"))
        ops.append(Text(30, 84, "turned", KOREAN_BOLD, 4, "#000000", rotate_deg=90))
        ops.append(Text(30, 86, "slanted", KOREAN_BOLD, 4, "#000000", slant_deg=12))
        faces.append(Face(tuple(ops)))
    return faces


def test_upright_text_is_written_as_the_canvas_writes_it(monkeypatch):
    from printkit.render import canvas as drawing

    pages = [Page(Size(210, 297), tuple(Placement(f, 10 + 60 * (i % 3), 10 + 90 * (i // 3)) for i, f in
                                        enumerate(_many_texts())))]
    direct = render_pages(pages)
    monkeypatch.setattr(drawing, "_upright_text", lambda *args: None)  # every text through reportlab's canvas
    assert render_pages(pages) == direct


def test_texts_coded_in_the_first_subset_are_written_as_split_by_reportlab(monkeypatch):
    """The shortcut for text whose characters are all coded already gives splitString's bytes:
    with a no-break space, a character the font lacks, parentheses and backslashes to escape,
    and more than 256 distinct Hangul syllables (a second subset)."""
    from printkit.render import canvas as drawing

    syllables = "".join(chr(0xAC00 + 37 * i) for i in range(300))
    lines = ["Deal (2) damage \\ to\u00a0any target", "알 수 없는 \U0001F525 글자", syllables[:150],
             syllables[150:], syllables[::7] + " mixed (Latin)"]
    face = Face(tuple(Text(2, 5 + 6 * i, line, KOREAN_BOLD if i % 2 else fonts.KOREAN, 3.0, "#102030", "start")
                      for i, line in enumerate(lines)))
    pages = [Page(Size(210, 297), (Placement(face, 10, 10), Placement(Face(face.ops[::-1]), 10, 150)))]
    shortcut = render_pages(pages)
    calls = []
    monkeypatch.setattr(drawing, "_first_subset", lambda canvas, font: calls.append(1) or (
        setattr(canvas, "_printkit_first_subsets", {}), (frozenset(), {}, ""))[1])
    assert render_pages(pages) == shortcut and calls


def test_shapes_repeated_from_card_to_card_are_written_as_drawn(monkeypatch):
    """Frames, bands and badges come back at the same place on every card: their path code is
    remembered, and the file is the one drawing each anew gives (signed zeros too)."""
    from printkit.render import canvas as drawing

    def card(n: int) -> Face:
        return Face((Rect(-3, -3, 69.5, 94.9, fill="#f0e0d0"), Rect(2, 2, 59.5, 10, fill="#8c2f39", radius_mm=2),
                     Ellipse(55, 8, 4, 4, fill="#ffd166", stroke="#202020", stroke_mm=0.4),
                     Line(4, 50, 59.5, 50, "#202020", 0.3), Rect(-0.0, 0.0, 10, 10 + n, stroke="#000000"),
                     Rect(0.0, -0.0, 10, 10 + n, stroke="#000000"), Line(-0.0, 1, 5, 1, "#202020", 0.2)))

    pages = [Page(Size(210, 297), tuple(Placement(card(i), 10 + 65 * (i % 3), 10 + 90 * (i // 3)) for i in range(9)))]
    remembered = render_pages(pages)
    monkeypatch.setattr(drawing, "_path", lambda canvas, draw, numbers, *paint: draw(*numbers, *paint))
    assert render_pages(pages) == remembered


def test_remembered_numbers_write_the_same_bytes_and_are_put_back(monkeypatch):
    import contextlib

    import reportlab.pdfgen.canvas as rl_canvas

    from printkit.render import canvas as drawing, pdf

    before = rl_canvas.fp_str
    pages = [Page(Size(100, 100), (Placement(f, 5, 5),)) for f in _many_texts()]
    remembered = render_pages(pages)
    assert rl_canvas.fp_str is before and pdf.fp_str is before and drawing.fp_str is before
    monkeypatch.setattr(pdf, "remembered_numbers", contextlib.nullcontext)
    assert render_pages(pages) == remembered


def test_a_polygon_drawn_again_reuses_its_code(monkeypatch):
    """A polygon's content-stream code is written once per process: a card's symbol drawn on its
    sheet is not formatted again for the proof page (or the next card); the bytes are the same."""
    from printkit.deck import CardSize
    from printkit.layout.imposition import card_page
    from printkit.layout.ops import Face, Polygon
    from printkit.render import canvas as canvas_module
    from printkit.render.pdf import render_pages

    size = CardSize(63.5, 88.9, bleed_mm=3.175)
    face = Face((Polygon(((1.234, 5.0), (40.5, 7.25), (20.0, 60.125)), fill="#123456"),))
    first = render_pages([card_page(face, size)])
    calls = []
    original = canvas_module._num
    monkeypatch.setattr(canvas_module, "_num", lambda value: calls.append(value) or original(value))
    assert render_pages([card_page(face, size)]) == first
    assert 1.234 not in calls and 60.125 not in calls


def test_an_uncompressed_pdf_draws_the_same_pixels():
    """compressed=False (the proof's PDF, only ever rasterised) leaves the streams unfiltered."""
    from printkit.deck import CardSize
    from printkit.fonts import SYMBOLS
    from printkit.layout.imposition import card_page
    from printkit.layout.ops import Face, Rect, Text
    from printkit.render.pdf import render_pages
    from printkit.render.png import rasterise

    size = CardSize(63.5, 88.9, bleed_mm=3.175)
    face = Face((Rect(0, 0, 20, 30, fill="#ff8800"), Text(5, 40, "−7 ♦", SYMBOLS, 12)))
    packed = render_pages([card_page(face, size)])
    plain = render_pages([card_page(face, size)], compressed=False)
    assert b"/FlateDecode" in packed and b"/FlateDecode" not in plain
    assert rasterise(plain, size, 100).tobytes() == rasterise(packed, size, 100).tobytes()
