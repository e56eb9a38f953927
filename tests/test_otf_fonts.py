"""OpenType fonts with CFF outlines (.otf): converted to TrueType outlines when loaded."""

from __future__ import annotations

import io
import shutil

import pytest
from cli_in import invoke_in
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen

from printkit import cff_fonts, fonts

UPEM = 1000


def _square(pen) -> None:
    pen.moveTo((100, 0))
    pen.lineTo((100, 700))
    pen.lineTo((600, 700))
    pen.lineTo((600, 0))
    pen.closePath()


def _disc(pen) -> None:
    # A circle of four cubic arcs around (350, 350), radius 300: curves the conversion must keep.
    k = 0.5523 * 300
    pen.moveTo((650, 350))
    pen.curveTo((650, 350 + k), (350 + k, 650), (350, 650))
    pen.curveTo((350 - k, 650), (50, 350 + k), (50, 350))
    pen.curveTo((50, 350 - k), (350 - k, 50), (350, 50))
    pen.curveTo((350 + k, 50), (650, 350 - k), (650, 350))
    pen.closePath()


def cff_font(family: str = "Test Otf") -> bytes:
    """A small OpenType font with CFF outlines: 'A' a solid square, 'O' a solid disc, a space."""
    builder = FontBuilder(UPEM, isTTF=False)
    order = [".notdef", "space", "A", "O"]
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap({0x20: "space", 0x41: "A", 0x4F: "O"})
    drawings = {".notdef": None, "space": None, "A": _square, "O": _disc}
    charstrings = {}
    for name, draw in drawings.items():
        pen = T2CharStringPen(700, None)
        if draw:
            draw(pen)
        charstrings[name] = pen.getCharString()
    builder.setupCFF(family.replace(" ", ""), {"FullName": family}, charstrings, {})
    bounds = {name: charstrings[name].calcBounds(None) for name in order}
    builder.setupHorizontalMetrics({name: (700, (bounds[name] or (0,))[0]) for name in order})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


SPEC = """game: demo
name: Otf
card: {size: poker, bleed: 3mm}
art: {colors: {background: "#ffffff"}}
layouts:
  big:
    elements:
      - {kind: text, text: "{word}", font: shapes.otf, size: 30mm, fit: none, frame: safe,
         align: center, valign: middle}
groups:
  - name: cards
    layout: big
    cards: [{word: "AO"}]
"""


def test_a_cff_font_becomes_a_truetype_font_with_the_same_glyphs(tmp_path):
    data = cff_font()
    assert data[:4] == b"OTTO"
    path = tmp_path / "shapes.otf"
    path.write_bytes(data)
    face = fonts.ttfont(path).face
    assert {0x41, 0x4F} <= fonts.glyph_set(path)
    assert fonts.text_width_mm("AO", path, 10) == pytest.approx(14.0)

    from fontTools.ttLib import TTFont

    converted = TTFont(io.BytesIO(cff_fonts.truetype_outlines(
        cff_fonts.FontBytes("any", data))))
    assert "glyf" in converted and "CFF " not in converted
    assert converted["maxp"].tableVersion == 0x00010000 and converted["post"].formatType == 2.0
    disc = converted["glyf"]["O"]
    assert (disc.xMin, disc.yMin, disc.xMax, disc.yMax) == (50, 50, 650, 650)
    assert face.charToGlyph[0x4F] == converted.getGlyphID("O")


def test_the_same_bytes_are_converted_once(tmp_path):
    data = cff_font("Once Only")
    for name in ("one.otf", "two.otf"):
        (tmp_path / name).write_bytes(data)
    cff_fonts.truetype_outlines.cache_clear()
    fonts.ttfont(tmp_path / "one.otf")
    fonts.ttfont(tmp_path / "two.otf")
    info = cff_fonts.truetype_outlines.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def _render(pdf):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return document[0].render(scale=3).to_pil().convert("L")
    finally:
        document.close()


def test_a_card_set_in_an_otf_font_prints_its_glyphs_from_an_embedded_truetype_font(tmp_path):
    from pypdf import PdfReader

    (tmp_path / "shapes.otf").write_bytes(cff_font())
    (tmp_path / "otf.yaml").write_text(SPEC)
    result = invoke_in(tmp_path, "build", "otf.yaml", "--per-card", "--no-rulebooks", "--no-proof", "--no-cache")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output.lower()
    pdf = next((tmp_path / "output").rglob("001-*.pdf"))

    page = PdfReader(pdf).pages[0]
    embedded = [font.get_object() for font in page["/Resources"]["/Font"].values()]
    descriptors = [font["/FontDescriptor"] for font in embedded if "/FontDescriptor" in font]
    assert any(font["/Subtype"] == "/TrueType" and font["/BaseFont"].endswith("+Test-Otf") for font in embedded)
    assert any("/FontFile2" in d for d in descriptors)  # TrueType outlines, not /FontFile3 (CFF)
    assert "AO" in page.extract_text()

    image = _render(pdf)
    width, height = image.size
    dark = [x for x in range(width) if image.getpixel((x, height // 2)) < 80]
    assert dark, "no ink on the card's middle row"
    # The ink runs from the square's left edge (unit 100) to the disc's right edge (700 + 650).
    left, unit = dark[0], (dark[-1] - dark[0]) / 1250

    def ink_height(at_unit: float) -> int:
        x = round(left + (at_unit - 100) * unit)
        return sum(1 for y in range(height) if image.getpixel((x, y)) < 80)

    square, disc = ink_height(350), ink_height(700 + 350)
    assert square == pytest.approx(700 * unit, abs=3) and disc == pytest.approx(600 * unit, abs=3)
    # Near their left edges the square is as tall as ever, the disc a short chord: curves, not boxes.
    assert ink_height(130) == square and ink_height(700 + 80) < 0.6 * disc


def _damaged(data: bytes) -> bytes:
    """``data`` with its CFF table's charstrings overwritten by noise."""
    start = data.find(b"CFF ")  # its entry in the table directory: tag, checksum, offset, length
    offset, length = int.from_bytes(data[start + 8:start + 12], "big"), int.from_bytes(data[start + 12:start + 16], "big")
    noisy = bytearray(data)
    noisy[offset + 4:offset + length] = bytes((i * 7919 + 13) & 0xFF for i in range(length - 4))
    return bytes(noisy)


def test_a_damaged_otf_is_one_error_line_at_the_spec_key(tmp_path):
    (tmp_path / "shapes.otf").write_bytes(_damaged(cff_font()))
    (tmp_path / "otf.yaml").write_text(SPEC)
    result = invoke_in(tmp_path, "check", "otf.yaml", "--no-play")
    assert result.exit_code == 1
    [line] = result.output.strip().splitlines()
    assert line.startswith("otf.yaml:8:44: font 'shapes.otf' cannot be used: ")
    assert "cannot be converted to TrueType outlines: its CFF data is damaged" in line


def _nested_subroutines(depth: int, calls: int = 1) -> bytes:
    """A CFF font whose 'A' calls a chain of ``depth`` local subroutines, each calling the next
    ``calls`` times, the last drawing a line."""
    from fontTools.misc.psCharStrings import T2CharString
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(cff_font()), recalcBBoxes=False)  # (bounds would run every glyph)
    top = font["CFF "].cff.topDictIndex[0]
    private = top.Private
    subrs = private.Subrs = type(top.CharStrings.charStringsIndex)()  # an empty charstring index
    bias = 107  # for fewer than 1240 subroutines
    for level in range(depth):
        program = [level + 1 - bias, "callsubr"] * calls + ["return"] if level + 1 < depth else [
            100, 0, "rmoveto", 500, 0, 0, 700, -500, 0, "rlineto", "return"]
        subrs.append(T2CharString(program=program, private=private, globalSubrs=top.GlobalSubrs))
    top.CharStrings["A"].program = [700, 0 - bias, "callsubr", "endchar"]
    top.CharStrings["A"].bytecode = None
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def test_subroutines_nested_beyond_the_format_limit_are_refused(tmp_path):
    fine = tmp_path / "fine.otf"
    fine.write_bytes(_nested_subroutines(9))
    assert 0x41 in fonts.glyph_set(fine)
    deep = tmp_path / "deep.otf"
    deep.write_bytes(_nested_subroutines(12))
    with pytest.raises(fonts.FontError, match="nest subroutines deeper than 10"):
        fonts.ttfont(deep)


def test_subroutines_called_over_and_over_are_refused_before_they_run_for_long(tmp_path):
    # 30 calls at each of 8 levels: 30**7 runs of the last subroutine, were they all made.
    bomb = tmp_path / "bomb.otf"
    bomb.write_bytes(_nested_subroutines(8, calls=30))
    assert len(bomb.read_bytes()) < 5_000
    with pytest.raises(fonts.FontError, match=r"its charstrings run more than \d+ bytes in all"):
        fonts.ttfont(bomb)


def test_a_truetype_font_is_read_as_it_was(tmp_path):
    # Only a font that starts as CFF OpenType is converted: a .ttf is never handed to fontTools.
    copy = tmp_path / "Copy.ttf"
    shutil.copy(fonts.SYMBOLS, copy)
    cff_fonts.truetype_outlines.cache_clear()
    assert fonts.ttfont(copy).face._ttf_data == fonts.SYMBOLS.read_bytes()
    assert cff_fonts.truetype_outlines.cache_info().misses == 0
