"""The sample game a designer copies: Emberfall, from a spreadsheet, layouts and SVG art."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from printkit.pipeline.build import build
from printkit.pipeline.context import BuildOptions
from printkit.cli import main
from printkit.layout import templates
from printkit.layout.ops import Ellipse, Image, Polygon, Text
from printkit.decks import load_deck


@pytest.fixture(scope="module")
def deck():
    return load_deck("emberfall")


@pytest.fixture(scope="module")
def built(tmp_path_factory, deck):
    out = tmp_path_factory.mktemp("emberfall")
    result = build([deck], BuildOptions(out_dir=out, per_card=True))
    return out, result


def test_check_counts_it_without_a_warning():
    result = CliRunner().invoke(main, ["check", "emberfall", "--json"])
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.stdout)["decks"]
    assert report["ok"] and report["total"] == 60 and report["warnings"] == []


def test_it_builds_sheets_rulebooks_and_per_card_files_without_warnings(built):
    out, result = built
    assert result.warnings == ()
    folder = out / "emberfall"
    for name in ("sheets-a4.pdf", "sheets-fronts-a4.pdf", "rulebook-en-a4.pdf", "rulebook-ko-a4.pdf"):
        assert (folder / name).is_file(), name
    fronts = sorted(p.name for p in (folder / "cards").glob("*.png") if not p.name.startswith("back-"))
    assert len(fronts) == 31  # 30 distinct cards and the ember token


def test_a_front_has_its_art_badge_type_line_italic_flavour_and_inline_icons(deck):
    drake = next(c for c in deck.cards if c.get("id") == "ember-drake")
    face = templates.front(drake, deck)
    assert face.warnings == ()
    pictures = [op for op in face.ops if isinstance(op, Image)]
    assert [p.path.name for p in pictures] == ["ember-drake.svg", "fire.svg", "fire.svg"]  # art, type icon, inline
    assert any(isinstance(op, Ellipse) for op in face.ops)  # the cost badge
    texts = {op.text: op for op in face.ops if isinstance(op, Text)}
    assert "Creature" in texts and texts["Creature"].color == "#b8432f"  # the type line in the element's colour
    assert "Ember Drake" in texts and "4" in texts
    flavour = [op for op in face.ops if isinstance(op, Text) and op.slant_deg]
    assert flavour and "remembers." in "".join(op.text for op in flavour)
    inline = pictures[2]  # on a line of the rules text: between a baseline and its capitals
    centre = inline.y_mm + inline.h_mm / 2
    rules = [op for op in face.ops if isinstance(op, Text) and op.font.name == "Pretendard-Regular.ttf"]
    assert any(op.y_mm - op.size_mm < centre < op.y_mm for op in rules)
    stone = next(c for c in deck.cards if c.get("id") == "standing-stone")
    assert any(isinstance(op, Polygon) for op in templates.front(stone, deck).ops)  # :glory:, a built-in star


def test_svg_art_is_vector_in_the_pdf_and_shows_in_the_png(built):
    out, _ = built
    cards = out / "emberfall" / "cards"
    pdf = next(cards.glob("001-*.pdf"))
    page = PdfReader(pdf).pages[0]
    subtypes = []

    def walk(resources):
        for obj in (resources or {}).get("/XObject", {}).values():
            obj = obj.get_object()
            subtypes.append(obj["/Subtype"])
            walk(obj.get("/Resources"))

    walk(page["/Resources"])
    assert "/Form" in subtypes and "/Image" not in subtypes
    png = next(cards.glob("001-*.png"))
    from PIL import Image as PILImage

    image = PILImage.open(png).convert("RGB")
    assert image.size == (825, 1125)
    # The art window (below the band) is the sunset's dark reds, not the parchment background.
    art = image.crop((60, 280, 765, 560)).getcolors(1 << 20)
    parchment = (0xf6, 0xef, 0xe2)
    assert sum(n for n, c in art if c == parchment) < 0.01 * 705 * 280
    reds = sum(n for n, (r, g, b) in art if r > g + 40 and r > b + 40)
    assert reds > 0.4 * 705 * 280


def test_the_png_is_the_pdf_rasterised(built):
    out, _ = built
    cards = out / "emberfall" / "cards"
    pdf = pdfium.PdfDocument(str(next(cards.glob("005-*.pdf"))))
    try:
        raster = pdf[0].render(scale=300 / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    from PIL import Image as PILImage
    from PIL import ImageChops, ImageStat

    png = PILImage.open(next(cards.glob("005-*.png"))).convert("RGB")
    raster = raster.resize(png.size)
    assert ImageStat.Stat(ImageChops.difference(png, raster).convert("L")).mean[0] < 2
