"""SVG art: drawn as vectors (a form XObject, no image), fitted like pictures, and refused when hostile."""

from __future__ import annotations

import base64
import json
import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image as PILImage
from pypdf import PdfReader

from printkit.memo import Memo
from printkit.pipeline.build import load_decks
from printkit.cli import main
from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.images import MAX_SVG_BYTES, MAX_SVG_ELEMENTS, ImageError, svg_art
from printkit.layout.geometry import Size
from printkit.layout.imposition import Page, Placement, card_page
from printkit.layout.ops import Face, Image, Rect
from printkit.render.pdf import render_pages
from printkit.render.png import DPI, card_png, render_face

POKER = CardSize(63.5, 88.9, bleed_mm=3.175)
RED, BLUE, WHITE, GREEN = (255, 0, 0), (0, 0, 255), (255, 255, 255), (0, 255, 0)

# Two squares side by side: red left, blue right; 2:1. width/height disagree with the viewBox on
# purpose: the viewBox decides the shape.
HALVES = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="50" height="50">
  <rect x="0" y="0" width="100" height="100" fill="#ff0000"/>
  <rect x="100" y="0" width="100" height="100" fill="#0000ff"/>
</svg>"""


def at(image, x_mm, y_mm, size=POKER):
    return image.getpixel((int((x_mm + size.bleed_mm) * DPI / 25.4), int((y_mm + size.bleed_mm) * DPI / 25.4)))


def svg_file(tmp_path: Path, text: str = HALVES, name: str = "art.svg") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def xobjects(resources):
    """Every XObject reachable from ``resources``, forms' own resources included."""
    for ref in (resources.get("/XObject") or {}).values():
        obj = ref.get_object()
        yield obj
        if obj.get("/Subtype") == "/Form" and "/Resources" in obj:
            yield from xobjects(obj["/Resources"].get_object())


def fonts(resources):
    yield from ((resources.get("/Font") or {}).values())
    for obj in xobjects(resources):
        if obj.get("/Subtype") == "/Form" and "/Resources" in obj:
            yield from ((obj["/Resources"].get_object().get("/Font") or {}).values())


def assert_fonts_embedded(pdf: bytes) -> None:
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in fonts(page["/Resources"].get_object()):
            font = ref.get_object()
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
            assert descriptor is not None, f"font {font.get('/BaseFont')} is not embedded"
            assert "/FontFile2" in descriptor.get_object(), f"font {font.get('/BaseFont')} is not embedded"


# --- drawn as vectors ---------------------------------------------------------------------------


def test_svg_is_drawn_as_vectors_once_per_document(tmp_path):
    art = svg_file(tmp_path)
    faces = [Face((Image(0, 0, 40, 20, art, fit="stretch"), Rect(0, 30, 5 + i, 5, fill="#000000")))
             for i in range(3)]
    pdf = render_pages([card_page(face, POKER) for face in faces])
    reader = PdfReader(io.BytesIO(pdf))
    found = [x for page in reader.pages for x in xobjects(page["/Resources"].get_object())]
    assert not [x for x in found if x.get("/Subtype") == "/Image"]
    assert b"/Subtype /Image" not in pdf
    # The SVG's form is the one whose box is the art's: 200x100 user units, 150x75 pt.
    svg_forms = {x.indirect_reference.idnum for x in found
                 if x.get("/Subtype") == "/Form" and x.get("/BBox") == [0, 0, 150, 75]}
    assert len(svg_forms) == 1  # three faces, one embedded drawing
    assert_fonts_embedded(pdf)


def test_svg_shows_in_the_png_where_it_paints(tmp_path):
    art = svg_file(tmp_path)
    image = render_face(Face((Image(10, 10, 40, 20, art, fit="stretch"),)), POKER)
    assert at(image, 15, 20) == RED
    assert at(image, 45, 20) == BLUE
    assert at(image, 55, 20) == WHITE and at(image, 15, 35) == WHITE


@pytest.mark.parametrize("fit, red, blue, white", [
    # Box 40x40 at (10, 10); the art is 2:1.
    ("stretch", [(12, 12), (12, 48)], [(48, 12), (48, 48)], [(52, 30)]),
    # contain: 40x20, centred: y 20..40.
    ("contain", [(12, 22), (28, 38)], [(32, 22), (48, 38)], [(30, 15), (30, 45)]),
    # cover: 80x40 centred on x 30 (x -10..70), clipped to the box: red x 10..30, blue 30..50.
    ("cover", [(12, 12), (28, 48)], [(32, 12), (48, 48)], [(8, 30), (52, 30), (30, 8), (30, 52)]),
])
def test_cover_contain_and_stretch_place_svg_as_pictures(tmp_path, fit, red, blue, white):
    art = svg_file(tmp_path)
    image = render_face(Face((Image(10, 10, 40, 40, art, fit=fit),)), POKER)
    for points, colour in ((red, RED), (blue, BLUE), (white, WHITE)):
        for x, y in points:
            assert at(image, x, y) == colour, (fit, x, y)


def test_svg_inside_a_rulebook_style_drawing_on_a_page(tmp_path):
    # Ops drawn straight onto a page (page ops, figures) define the SVG's form mid-page.
    art = svg_file(tmp_path)
    pdf = render_pages([Page(Size(100, 100), (), ops=(Image(10, 10, 40, 20, art, fit="stretch"),))])
    assert b"/Subtype /Image" not in pdf
    assert_fonts_embedded(pdf)


def _green_png_base64() -> str:
    """A small green PNG as a data URI's base64 text."""
    buffer = io.BytesIO()
    PILImage.new("RGB", (4, 4), GREEN).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def test_embedded_png_in_svg_is_allowed(tmp_path):
    data = _green_png_base64()
    art = svg_file(tmp_path, f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                             f'viewBox="0 0 10 10"><image width="10" height="10" '
                             f'xlink:href="data:image/png;base64,{data}"/></svg>')
    image = render_face(Face((Image(10, 10, 20, 20, art, fit="stretch"),)), POKER)
    assert at(image, 20, 20) == GREEN


@pytest.mark.parametrize("href", [" data:image/png;base64,{}", "DATA:image/PNG;base64,{}"], ids=["spaced", "capitals"])
def test_an_embedded_picture_is_drawn_as_the_check_reads_its_data_uri(tmp_path, href):
    # The check accepts these (spaces around it, a scheme in capitals); so must drawing, which
    # svglib's own reading of data: URIs would leave out.
    data = _green_png_base64()
    art = svg_file(tmp_path, f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                             f'<rect width="10" height="10" fill="#ffffff"/>'
                             f'<image width="10" height="10" href="{href.format(data)}"/></svg>')
    image = render_face(Face((Image(10, 10, 20, 20, art, fit="stretch"),)), POKER)
    assert at(image, 20, 20) == GREEN


def test_an_svg_is_parsed_once_per_content(tmp_path):
    data = HALVES.encode()
    assert svg_art(data) is svg_art(bytes(data))
    assert svg_art(data).width / svg_art(data).height == pytest.approx(2)


def test_an_svg_swapped_after_the_check_is_checked_again(tmp_path):
    art = svg_file(tmp_path)
    face = Face((Image(0, 0, 40, 20, art),))
    render_pages([card_page(face, POKER)])
    art.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
                   '<image href="file:///etc/passwd" width="1" height="1"/></svg>')
    with pytest.raises(BuildError, match="self-contained"):
        render_pages([card_page(face, POKER)])


# --- specs with SVG art, through the CLI ----------------------------------------------------------

SPEC = """game: things
name: Things
art:
  colors: {{background: "#ffffff"}}
  background_image: {image}
groups:
  - name: n
    cards: [{{title: Stone}}, {{title: Leaf}}]
"""
WHERE = "deck.yaml:5:21"  # the background_image value


def write_spec(tmp_path: Path, image: str = "art.svg") -> Path:
    (tmp_path / "deck.yaml").write_text(SPEC.format(image=image), encoding="utf-8")
    return tmp_path / "deck.yaml"


def test_a_spec_with_svg_art_builds_vector_pdfs_and_reproducible_pngs(tmp_path, monkeypatch):
    svg_file(tmp_path)
    write_spec(tmp_path)
    monkeypatch.chdir(tmp_path)
    runs = []
    for out in ("out1", "out2"):
        result = CliRunner().invoke(main, ["build", "deck.yaml", "--per-card", "--no-rulebooks", "--out", out])
        assert result.exit_code == 0, result.output
        runs.append({p.relative_to(tmp_path / out): p.read_bytes() for p in (tmp_path / out).rglob("*.png")
                     if "cards" in p.parts})  # the per-card files (the proof page's pictures are in proof/)
    assert runs[0] == runs[1] and len(runs[0]) == 3  # two fronts and a back, byte for byte again
    front = next(p for p in runs[0] if p.name.startswith("001"))
    pdf = (tmp_path / "out1" / front).with_suffix(".pdf").read_bytes()
    assert b"/Subtype /Image" not in pdf
    assert_fonts_embedded(pdf)
    assert_fonts_embedded((tmp_path / "out1/deck/sheets-a4.pdf").read_bytes())
    png = PILImage.open(io.BytesIO(runs[0][front]))
    assert png.getpixel((2, 2)) == RED  # the background covers the card: its left half is red
    assert png.getpixel((png.width - 3, png.height - 3)) == BLUE
    size = load_decks([str(tmp_path / "deck.yaml")])[0].size
    assert runs[0][front] == card_png(pdf, size)  # the PNG is that PDF rasterised


HOSTILE = {
    "entity bomb": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
                    '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
                    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><desc>&c;</desc>'
                    '<rect width="1" height="1"/></svg>', "declares XML entities"),
    "external entity": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><desc>&x;</desc>'
                        '<rect width="1" height="1"/></svg>', "declares XML entities"),
    "image of a system file": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
                               '<image href="file:///etc/passwd" width="1" height="1"/></svg>',
                               "refers to 'file:///etc/passwd' in <image> at line 1"),
    "image outside the folder": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                                 'viewBox="0 0 1 1"><image xlink:href="../outside.png" width="1" height="1"/></svg>',
                                 "refers to '../outside.png' in <image>"),
    "css import": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><style>@import url(x.css);</style>'
                   '<rect width="1" height="1"/></svg>', "imports a stylesheet"),
    "css url to a file": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
                          '<rect width="1" height="1" style="fill: url(other.svg#g)"/></svg>',
                          "refers to 'other.svg#g' in CSS url()"),
    "oversized": ("<svg/>" + " " * (MAX_SVG_BYTES + 1), f"is {MAX_SVG_BYTES + 7} bytes; the limit is {MAX_SVG_BYTES}"),
    "100k elements": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
                      + '<rect width="1" height="1"/>' * 100_000 + "</svg>",
                      f"has more than {MAX_SVG_ELEMENTS} elements"),
    "use bomb": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1">'
                 '<defs><g id="a"><rect width="1" height="1"/><rect width="1" height="1"/></g>'
                 + "".join(f'<g id="{chr(98 + i)}">' + f'<use xlink:href="#{chr(97 + i)}"/>' * 10 + "</g>"
                           for i in range(6))
                 + '</defs><use xlink:href="#g"/></svg>', "once <use> is expanded"),
    "malformed": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect></svg>',
                  "is not well-formed XML"),
    "not svg": ('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', "is XML but not SVG (its root element is <html>)"),
    "no size": ('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>', "has no size"),
    "percent size": ('<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="100%"><rect width="1" height="1"/></svg>',
                     "has an unusable width '100%'"),
    "draws nothing": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><desc>empty</desc></svg>', "draws nothing"),
    "text": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text x="1" y="5">Hi</text></svg>',
             "convert the SVG's text to paths"),
}


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_svg_is_one_located_error_line(tmp_path, monkeypatch, command, case):
    text, said = HOSTILE[case]
    (tmp_path / "outside.png").write_bytes(b"")
    folder = tmp_path / "spec"
    folder.mkdir()
    svg_file(folder, text)
    write_spec(folder)
    monkeypatch.chdir(folder)
    argv = ["check", "deck.yaml", "--no-play"] if command == "check" else \
        ["build", "deck.yaml", "--no-rulebooks", "--out", "out"]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert lines[0].startswith(f"{WHERE}: image 'art.svg' "), lines[0]
    assert said in lines[0]
    assert not (folder / "out").exists()


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_svg_in_an_op_is_a_build_error(tmp_path, case):
    art = svg_file(tmp_path, HOSTILE[case][0])
    with pytest.raises(BuildError, match="image .*art.svg"):
        render_pages([card_page(Face((Image(0, 0, 10, 10, art),)), POKER)])


def test_svg_errors_name_no_file_of_their_own():
    with pytest.raises(ImageError, match="^has no size"):
        svg_art(b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>')


# --- kept between documents and builds -----------------------------------------------------------

def _with_picture() -> str:
    data = _green_png_base64()
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'viewBox="0 0 10 10"><image width="10" height="10" xlink:href="data:image/png;base64,{data}"/></svg>')


WITH_PICTURE = _with_picture()


class _Store:
    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    def get(self, name):
        return self.data.get(name)

    def put(self, name, data):
        self.data[name] = data


@pytest.mark.parametrize("text", [HALVES, WITH_PICTURE], ids=["shapes", "picture"])
def test_an_svg_form_from_the_store_draws_the_same_bytes_without_converting(tmp_path, monkeypatch, text):
    from printkit import images
    from printkit.render import svg

    path = svg_file(tmp_path, text)
    pages = [card_page(Face((Image(0, 0, 63.5, 40, path),)), POKER)]
    monkeypatch.setattr(svg, "_FORMS", Memo("svg", 256))
    store = _Store()
    token = svg.svg_form_store.set(store)  # the store a build lends (printkit.render.svg)
    try:
        drawn = render_pages(pages, "art")
        assert len(store.data) == 1
        # A later build: nothing converted in this process yet, the store holds the form.
        monkeypatch.setattr(svg, "_FORMS", Memo("svg", 256))
        monkeypatch.setattr(images, "_SVG_ARTS", Memo("svg art", 64))
        converted = []
        real = images._to_drawing
        monkeypatch.setattr(images, "_to_drawing", lambda root: converted.append(1) or real(root))
        again = render_pages(pages, "art")
    finally:
        svg.svg_form_store.reset(token)
    assert again == drawn
    stored = json.loads(next(iter(store.data.values())))
    assert (stored["commands"] is None) == (text is WITH_PICTURE)
    if stored["commands"] is None:  # names a document resource (its picture): drawn afresh
        assert converted
    else:
        assert not converted
    monkeypatch.setattr(svg, "_FORMS", Memo("svg", 256))
    assert render_pages(pages, "art") == drawn  # and the same as with no store at all


@pytest.mark.parametrize("written, read", [
    ("matrix(1 0 0 1-20 160)", [("matrix", ["1", "0", "0", "1", "-20", "160"])]),  # a minus sign separates
    ("translate(150-0)rotate(10)", [("translate", ["150", "-0"]), ("rotate", ["10"])]),
    ("translate(.5.5) , scale( 2,3 )", [("translate", [".5", ".5"]), ("scale", ["2", "3"])]),
    ("rotate(1e1-2E-1 3)", [("rotate", ["1e1", "-2E-1", "3"])]),
    ("", []),
    ("rotate(45deg)", None), ("translate(10,)", None), ("translate(1 2 3)", None), ("scale(2", None),
    ("spin(4)", None), ("translate(1)x", None),
])
def test_transform_lists_are_read_with_svg_number_syntax(written, read):
    from printkit.render.svg_normal import parse_transform

    assert parse_transform(written) == read


def test_art_drawn_right_before_is_not_rewritten():
    # What svglib reads as the SVG means stays as written, so it draws as it always did.
    from lxml import etree

    from printkit.render.svg_normal import normalise

    text = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g transform="translate(1 2) rotate(3)">'
            '<rect width="5" height="5" fill="red" opacity="0.5" rx="1"/><ellipse rx="1" ry="2" fill="#abc"/>'
            '<circle r="3" style="fill:darkolivegreen;stroke:none"/></g></svg>')
    root = etree.fromstring(text)
    assert normalise(root) == []
    assert etree.tostring(root).decode() == text
