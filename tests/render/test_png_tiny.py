"""Tiny and thin cards: templates squeezed below zero must draw nothing there, not crash a backend.

A spec may size its cards 10x10 mm or 10x100 mm; a card's safe inset then leaves boxes of
negative width and corner radii larger than half a side. Both backends skip such boxes and clamp
the radius, so ``build --per-card`` writes every front and back.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from printkit.pipeline.build import build, load_decks
from printkit.pipeline.context import BuildOptions
from printkit.pipeline.names import all_cards, card_key
from printkit.deck import CardSize
from printkit.layout.imposition import card_page
from printkit.layout.ops import Ellipse, Face, Image, Rect
from printkit.render.pdf import render_pages
from printkit.render.png import card_pixel_size, png_bytes, render_face

# A few cards of each game, covering every kind of face its templates draw.
SPECS = {
    "calc": """
game: calc
name: Calc
card: {{ size: {{ width: {w}, height: {h} }}, bleed: 0.125in, safe: 3mm }}
art:
  font: Pretendard-Bold.ttf
  back: {{ color: "#1f3b5a", label: CALC }}
groups:
  - name: numbers
    attrs: {{ kind: number }}
    generate: {{ symbol: [minus, power], number: [-1, 9] }}
  - name: joker
    cards: [{{ kind: joker }}]
components:
  - name: player_aids
    generate: {{ aid: [turn], lang: [ko] }}
""",
    "stack": """
game: stack
name: Stack Original
card: {{ size: {{ width: {w}, height: {h} }}, bleed: 0.125in, safe: 3mm }}
art:
  font: Pretendard-Bold.ttf
  back: {{ color: "#3b2f2f", label: STACK }}
groups:
  - name: cards
    cards: [{{ cost: 1, minerals: [ruby] }}, {{ cost: 3, minerals: [gold, sapphire, coal] }}]
components:
  - name: terrains
    cards: [{{ terrain: eldorado, mineral: gold }}]
  - name: generated_markers
    cards: [{{ generated: true, minerals: [ruby, coal] }}]
  - name: reference
    cards: [{{ reference: actions, lang: en }}]
  - name: player_aids
    cards: [{{ aid: turn, lang: ko }}]
""",
    "clag": """
game: clag
name: Clag
card: {{ size: {{ width: {w}, height: {h} }}, bleed: 0.125in, safe: 3mm }}
art:
  font: DejaVuSans-Bold.ttf
  back: {{ color: "#7a1f2b", label: CLAG }}
groups:
  - name: standard
    generate: {{ suit: [hearts], rank: [2, 10, Q, A] }}
components:
  - name: player_aids
    generate: {{ aid: [rounds], lang: [en] }}
""",
}

SIZES_MM = [(10, 10), (10, 100), (100, 10)]


@pytest.mark.parametrize("game", sorted(SPECS))
@pytest.mark.parametrize("width_mm, height_mm", SIZES_MM)
def test_per_card_build_of_tiny_and_thin_cards(tmp_path, game, width_mm, height_mm):
    spec = tmp_path / f"{game}.yaml"
    spec.write_text(SPECS[game].format(w=f"{width_mm}mm", h=f"{height_mm}mm"), encoding="utf-8")
    decks = load_decks([str(spec)])
    out = tmp_path / "out"
    result = build(decks, BuildOptions(out_dir=out, per_card=True, rulebooks=False))

    pngs = [e for e in result.entries if e.kind in ("card-png", "card-back-png")]
    fronts = [e for e in result.entries if e.kind == "card-png"]
    assert len(fronts) == len({card_key(c) for d in decks for c in all_cards(d)}) >= 4
    assert any(e.kind == "card-back-png" for e in pngs)
    size = decks[0].size
    for entry in pngs:
        with PILImage.open(out / entry.path) as image:
            assert image.size == card_pixel_size(size)
            # The card is drawn, not left blank: its colours vary.
            assert len(image.getcolors(maxcolors=1 << 20) or range(2)) > 1
    for entry in result.entries:
        if entry.kind in ("card-pdf", "card-back-pdf"):
            page = PdfReader(out / entry.path).pages[0]
            assert float(page.trimbox.width) == pytest.approx(width_mm / 25.4 * 72, abs=0.01)


def test_degenerate_ops_draw_nothing_or_within_bounds(tmp_path):
    picture = tmp_path / "p.png"
    PILImage.new("RGB", (4, 4), "#808080").save(picture)
    size = CardSize(width_mm=8.0, height_mm=8.0, bleed_mm=0.0, safe_mm=0.0, corner_radius_mm=0.0)
    face = Face(ops=(
        Rect(2.0, 2.0, -3.0, 4.0, fill="#ff0000", stroke="#ff0000", radius_mm=1.0),  # negative width
        Rect(2.0, 2.0, 4.0, 0.0, fill="#ff0000", stroke="#ff0000"),  # no height
        Ellipse(4.0, 4.0, -1.0, 2.0, fill="#ff0000", stroke="#ff0000"),  # negative radius
        Image(0.0, 0.0, -5.0, 5.0, path=picture, fit="cover"),  # negative width
        Rect(0.0, 6.0, 8.0, 2.0, fill="#0000ff", radius_mm=30.0),  # radius over half the side
        Rect(1.0, 1.0, 0.01, 0.01, fill="#00ff00", radius_mm=5.0),  # under one pixel
    ))
    image = render_face(face, size)
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    assert not any(r > 200 and g < 60 and b < 60 for r, g, b in colours)  # no red: skipped boxes
    # The strip with an oversized radius is a stadium: blue in its middle, white at its corners.
    w, h = image.size
    assert image.getpixel((w // 2, h - h // 8)) == (0, 0, 255)
    assert image.getpixel((0, h - 1)) == (255, 255, 255)
    assert png_bytes(image).startswith(b"\x89PNG")
    pdf = render_pages([card_page(face, size)], "degenerate")
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
