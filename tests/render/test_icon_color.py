"""An SVG icon's currentColor paints the colour it is drawn in (its text's, a span's); colours
the SVG names itself stay."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from PIL import Image as PILImage

from printkit.cli import main
from printkit.deck import CardSize
from printkit.layout.icons import ImageIcon
from printkit.layout.ops import Face
from printkit.render.png import DPI, render_face

SIZE = CardSize(30, 30, bleed_mm=0)
MIXED = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10">
  <rect x="0" y="0" width="10" height="10" fill="currentColor"/>
  <rect x="10" y="0" width="10" height="10" fill="#0000ff"/>
</svg>"""


def pixel(image, x_mm, y_mm):
    return image.getpixel((int(x_mm * DPI / 25.4), int(y_mm * DPI / 25.4)))


def near(rgb, want, tolerance=6):
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, want))


def test_current_color_takes_the_colour_given_and_named_colours_stay(tmp_path):
    icon = tmp_path / "mixed.svg"
    icon.write_text(MIXED, encoding="utf-8")
    red = render_face(Face(ImageIcon(icon).ops(0, 0, 30, "#cc0000")), SIZE).convert("RGB")
    assert near(pixel(red, 7, 15), (0xcc, 0, 0)) and near(pixel(red, 22, 15), (0, 0, 255))
    plain = render_face(Face(ImageIcon(icon).ops(0, 0, 30, None)), SIZE).convert("RGB")
    assert near(pixel(plain, 7, 15), (0, 0, 0)) and near(pixel(plain, 22, 15), (0, 0, 255))
    # Two colours of one icon in one document: two forms, each its own colour.
    both = render_face(Face(ImageIcon(icon).ops(0, 0, 15, "#00aa00") + ImageIcon(icon).ops(15, 15, 15, "#cc0000")),
                       SIZE).convert("RGB")
    assert near(pixel(both, 3, 7), (0, 0xaa, 0)) and near(pixel(both, 18, 22), (0xcc, 0, 0))


SPEC = """game: tint
name: Tint
icons: {spark: spark.svg}
layouts:
  front:
    elements:
      - {kind: text, text: "{text}", x: 5mm, y: 5mm, width: 50mm, height: 20mm, size: 12mm}
groups:
  - name: cards
    layout: front
    cards:
      - {id: red, text: "[:spark:]{color=#cc0000}"}
"""


def test_an_icon_in_a_coloured_span_takes_its_colour_on_the_card(tmp_path, monkeypatch):
    (tmp_path / "spark.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                        '<rect width="10" height="10" fill="currentColor"/></svg>', encoding="utf-8")
    (tmp_path / "deck.yaml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "deck.yaml", "--per-card", "--no-rulebooks", "--out", "out"])
    assert result.exit_code == 0, result.output
    png = PILImage.open(next((tmp_path / "out/deck/cards").glob("001-*.png"))).convert("RGB")
    reds = sum(1 for x in range(0, png.width, 4) for y in range(0, png.height, 4)
               if near(png.getpixel((x, y)), (0xcc, 0, 0), 10))
    assert reds > 50
