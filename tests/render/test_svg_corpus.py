"""SVG art drawn as the SVG says: every file of ``svg_corpus/`` rendered through printkit's card
rasteriser (the per-card PNG path: PDF, then PDFium) against resvg's picture of the same file.

Tolerance: the mean difference over every pixel and channel is at most 8 (of 255), and away from
the edges of resvg's picture (2 px either side) at most 0.4% of pixels differ by more than 48 in
a channel. The renderers differ along edges (anti-aliasing) and by a few levels inside gradients
(how each steps a shading); nothing else may. A gradient printed black, or small arrow heads and
dots left out, each moves past the bounds (the control tests).

What printkit cannot draw (``svg_corpus/unsupported/``) is a warning naming the element and its
line, in ``check`` and ``build`` alike, and the proof page marks the card.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image as PILImage
from pypdf import PdfReader
from svg_pictures import MAX_MEAN, MAX_SHARE_OFF, difference, printkit_picture

from printkit.cli import main
from printkit.deck import CardSize
from printkit.layout.imposition import card_page
from printkit.layout.ops import Face, Image
from printkit.render.pdf import render_pages

resvg_py = pytest.importorskip("resvg_py")

CORPUS = Path(__file__).parent / "svg_corpus"
DRAWN = sorted(CORPUS.glob("*.svg"))
UNSUPPORTED = sorted((CORPUS / "unsupported").glob("*.svg"))


def resvg_picture(path: Path, width: int, height: int) -> PILImage.Image:
    data = bytes(resvg_py.svg_to_bytes(svg_path=str(path), width=width, height=height, background="#ffffff"))
    return PILImage.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("path", DRAWN, ids=lambda p: p.stem)
def test_printkit_draws_the_svg_as_resvg_does(path):
    ours = printkit_picture(path)
    theirs = resvg_picture(path, ours.width, ours.height)
    mean, off = difference(ours, theirs)
    assert mean <= MAX_MEAN and off <= MAX_SHARE_OFF, f"{path.name}: mean {mean:.2f}, {off:.2%} of pixels off"


def test_the_tolerance_tells_a_wrong_picture_apart():
    ours = printkit_picture(CORPUS / "linear-gradient.svg")
    black = PILImage.new("RGB", ours.size, (0, 0, 0))  # what a gradient printed as before
    assert difference(black, resvg_picture(CORPUS / "linear-gradient.svg", *ours.size))[0] > 50
    other = resvg_picture(CORPUS / "radial-gradient.svg", *ours.size)
    mean, off = difference(ours, other)
    assert mean > MAX_MEAN or off > MAX_SHARE_OFF


def test_the_tolerance_sees_small_marks_left_out(tmp_path):
    bare = tmp_path / "bare.svg"
    bare.write_text(re.sub(r'marker-\w+="url\(#\w+\)"', "", (CORPUS / "markers.svg").read_text()))
    ours = printkit_picture(CORPUS / "markers.svg")
    assert difference(ours, resvg_picture(bare, *ours.size))[1] > MAX_SHARE_OFF


def test_a_gradient_form_lists_the_shadings_it_paints():
    pdf = render_pages([card_page(Face((Image(0, 0, 60, 60, CORPUS / "gradient-focal-opacity.svg", fit="stretch"),)),
                                  CardSize(60, 60, bleed_mm=0))])
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    forms = [ref.get_object() for ref in page["/Resources"]["/XObject"].values()]
    art = next(form for form in forms if b" sh" in form.get_data())
    painted = set(re.findall(rb"/(\w+) sh", art.get_data()))
    listed = {name.lstrip("/").encode() for name in art["/Resources"]["/Shading"]}
    assert painted and painted <= listed
    states = set(re.findall(rb"/(\w+) gs", art.get_data()))
    assert states and {s.decode() for s in states} <= {n.lstrip("/") for n in art["/Resources"]["/ExtGState"]}


def test_gradient_stops_are_cmyk_in_a_press_document():
    face = Face((Image(0, 0, 60, 60, CORPUS / "linear-gradient.svg", fit="stretch"),))
    pdf = render_pages([card_page(face, CardSize(60, 60, bleed_mm=0))], cmyk=True)
    text = pdf.decode("latin-1")
    assert "/ShadingType 2" in text
    assert "/ColorSpace /DeviceCMYK" in text and "/ColorSpace /DeviceRGB" not in text


SPEC = """game: sky
name: Sky
layouts:
  front:
    elements:
      - {{kind: image, image: "{{art}}", frame: bleed, fit: stretch}}
groups:
  - name: cards
    layout: front
    cards: [{{id: dawn, art: {art}}}]
"""


def sky_deck(tmp_path: Path, art: Path) -> Path:
    (tmp_path / art.name).write_bytes(art.read_bytes())
    (tmp_path / "deck.yaml").write_text(SPEC.format(art=art.name), encoding="utf-8")
    return tmp_path / "deck.yaml"


def test_a_linear_gradient_sky_prints_light_blue_at_its_top(tmp_path, monkeypatch):
    sky_deck(tmp_path, CORPUS / "linear-gradient.svg")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "deck.yaml", "--per-card", "--no-rulebooks", "--out", "out"])
    assert result.exit_code == 0, result.output
    png = PILImage.open(next((tmp_path / "out/deck/cards").glob("001-*.png"))).convert("RGB")
    top = png.getpixel((png.width // 2, 3))
    bottom = png.getpixel((png.width // 2, png.height - 4))
    assert all(abs(a - b) <= 8 for a, b in zip(top, (0x87, 0xce, 0xeb))), top  # #87ceeb, not black
    assert all(abs(a - b) <= 8 for a, b in zip(bottom, (0x1e, 0x3a, 0x8a))), bottom
    assert "warning" not in result.output


def test_colour_keywords_browsers_know_print_in_any_case(tmp_path):
    # resvg knows neither rebeccapurple nor var(): the colours browsers paint, read off the card.
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">'
           '<style>:root { --brand: #cc0000 } .b { fill: var(--brand) }</style>'
           '<rect width="50" height="50" fill="RebeccaPurple"/><rect class="b" x="50" width="50" height="50"/></svg>')
    path = tmp_path / "rebecca.svg"
    path.write_text(svg, encoding="utf-8")
    picture = printkit_picture(path)
    for x, colour in ((picture.width // 4, (0x66, 0x33, 0x99)), (3 * picture.width // 4, (0xcc, 0, 0))):
        seen = picture.getpixel((x, picture.height // 2))
        assert all(abs(a - b) <= 4 for a, b in zip(seen, colour)), (x, seen)


def test_a_stylesheet_with_vendor_properties_and_a_var_fallback_prints(tmp_path):
    path = tmp_path / "vendor.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><style>rect { -webkit-transform: none;'
                    ' fill: var(--undefined, rgb(0, 170, 0)) }</style><rect width="10" height="10"/></svg>',
                    encoding="utf-8")
    picture = printkit_picture(path)
    seen = picture.getpixel((picture.width // 2, picture.height // 2))
    assert all(abs(a - b) <= 4 for a, b in zip(seen, (0, 170, 0))), seen


EXPECTED = {
    "filter": "<circle> at line 6: its filter is not drawn",
    "mask": "<rect> at line 5: its mask is not drawn",
    "pattern": "<circle> at line 7: its fill url(#fine) is not drawn (a pattern inside a pattern's tile); fill it "
               "with a colour, or expand the pattern into paths",
    "pattern-use": "<use> at line 8: its fill url(#dots) is not drawn (printkit fills shapes with patterns, not "
                   "<use>)",
    "pattern-tiles": "<rect> at line 8: its fill url(#grain) is not drawn (its tiles would pass 5,000 tiles",
    "stroke-gradient": "<circle> at line 5: a stroke painted with a gradient or pattern is not drawn",
    "pattern-fallback": "<rect> at line 8: its fill url(#dots) is not drawn (its tile has no width or height); "
                        "its fallback #0000cc is drawn instead",
    "paint-order-markers": "<path> at line 4: its paint-order 'markers stroke fill' is not drawn (markers are "
                           "painted last)",
    "unreadable-colour": "<rect> at line 3: its fill '#f0' is not a colour printkit can read, and is left out",
    "unreadable-transform": "<rect> at line 3: its transform 'rotate(45deg)' cannot be read",
    "transform-origin-keyword": "<rect> at line 3: its transform-origin 'center' is not drawn",
    "css-variable-undefined": "<rect> at line 4: its fill uses a CSS variable (var(--brand)) that is not defined",
}


def test_every_unsupported_case_has_its_expectation():
    assert {p.stem for p in UNSUPPORTED} == set(EXPECTED)


@pytest.mark.parametrize("path", UNSUPPORTED, ids=lambda p: p.stem)
def test_what_printkit_cannot_draw_is_a_located_warning_in_check_build_and_proof(tmp_path, monkeypatch, path):
    sky_deck(tmp_path, path)
    monkeypatch.chdir(tmp_path)
    said = f"picture '{path.name}': {EXPECTED[path.stem]}"
    checked = CliRunner().invoke(main, ["check", "deck.yaml", "--no-play"])
    assert checked.exit_code == 0 and said in checked.output, checked.output
    built = CliRunner().invoke(main, ["build", "deck.yaml", "--no-rulebooks", "--out", "out"])
    assert built.exit_code == 0 and said in built.output, built.output
    proof = (tmp_path / "out/deck/proof.html").read_text(encoding="utf-8")
    assert 'class="has-warn" data-side="front"' in proof
    assert html.escape(EXPECTED[path.stem].split(": ", 1)[1]) in proof
