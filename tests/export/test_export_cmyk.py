"""`--cmyk` for the print-shop export: every colour and picture in press CMYK, named by the profile."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image as PILImage
from PIL import ImageCms

from export_helpers import qpdf_check
from printkit.cli import main
from printkit.fonts import SYMBOLS
from printkit.export import ExportOptions, export_deck
from printkit.layout.geometry import Size
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Rect, Text
from printkit.render import cmyk
from printkit.render.pdf import render_pages
from printkit.decks import load_deck

REPO = Path(__file__).resolve().parents[2]
# Content-stream colour operators: RGB and grey ones must not appear in a CMYK document.
DEVICE_OPS = re.compile(rb"(?<![\w/])(rg|RG|g|G|sc|SC|scn|SCN|cs|CS)(?![\w])")
CMYK_FILL = re.compile(rb"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) k(?![\w])")


def _streams(reader):
    """Every content stream of the document (pages and the forms they use) and every image XObject."""
    from pypdf.generic import IndirectObject

    contents, images, seen = [], [], set()

    def walk(resources):
        for ref in ((resources or {}).get("/XObject") or {}).values():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            if key in seen:
                continue
            seen.add(key)
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                images.append(obj)
            else:
                contents.append(obj.get_data())
                walk(obj.get("/Resources"))

    for page in reader.pages:
        contents.append(page.get_contents().get_data())
        walk(page.get("/Resources"))
    return contents, images


def _back_to_srgb(c: float, m: float, y: float, k: float) -> tuple[int, int, int]:
    """Ink values read back through the press profile to sRGB (LittleCMS, as a viewer would)."""
    press = ImageCms.ImageCmsProfile(io.BytesIO(cmyk.press_icc()))
    transform = ImageCms.buildTransform(press, ImageCms.createProfile("sRGB"), "CMYK", "RGB",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    pixel = PILImage.new("CMYK", (1, 1), tuple(round(v * 255) for v in (c, m, y, k)))
    return ImageCms.applyTransform(pixel, transform).getpixel((0, 0))


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def test_the_profile_is_bundled_with_its_licence_and_is_a_cmyk_output_profile():
    icc = REPO / "printkit" / "render" / "icc"
    licence = (icc / "LICENSE-ISOcoated_v2_300_bas.txt").read_text(encoding="utf-8")
    assert "zlib" in licence and "basICColor" in licence and "may not be removed" in licence
    profile = ImageCms.ImageCmsProfile(io.BytesIO(cmyk.press_icc())).profile
    assert profile.xcolor_space.strip() == "CMYK" and profile.device_class == "prtr"
    assert "ISO Coated v2" in cmyk.profile_name()
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"printkit.render" = ["icc/*.icc", "icc/*.txt"]' in pyproject  # installed with the package


def test_vector_colours_go_through_the_profile_and_pure_black_is_k_alone():
    # Colours a coated press can print (no saturated screen primaries), so the round trip is close.
    # (Greys, near-blacks included, print on K alone: tests/export/test_export_black.py.)
    colours = ["#b8432f", "#1f5f86", "#4a7a34", "#e8c07a", "#6b5a48", "#f7f3ea"]
    ops = [Rect(0, i * 5, 10, 5, fill=c) for i, c in enumerate(colours)]
    ops += [Text(1, 45, "Aa", SYMBOLS, 4, "#000000"), Text(1, 48, "Bb", SYMBOLS, 2, "#000000", rotate_deg=90)]
    pdf = render_pages([Page(Size(10, 50), (Placement(Face(tuple(ops)), 0, 0),))], cmyk=True)
    from pypdf import PdfReader

    contents, images = _streams(PdfReader(io.BytesIO(pdf)))
    code = b"\n".join(contents)
    assert not DEVICE_OPS.search(code) and not images
    fills = [tuple(float(v) for v in m.groups()) for m in CMYK_FILL.finditer(code)]
    assert len(fills) == len(colours) + 2
    drawn, text = fills[:len(colours)], fills[len(colours):]
    assert text == [(0, 0, 0, 1)] * 2  # #000000 text, upright and turned: one ink
    for colour, inks in zip(colours, drawn):
        assert sum(inks) <= 3.0 + 1e-6, colour  # the profile's total ink limit
        back = _back_to_srgb(*inks)
        want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert max(abs(a - b) for a, b in zip(back, want)) <= 6, (colour, inks, _hex(back))
    assert code.count(b" Tj") == 2 and b"/FontFile2" in pdf  # text stays text, in an embedded font


def _spec_with_picture(tmp_path: Path, picture: str) -> Path:
    spec = tmp_path / "deck.yaml"
    spec.write_text(f"""game: pictures
name: Pictures
art:
  colors: {{background: "#1f5f86"}}
  background_image: {picture}
groups:
  - name: n
    cards: [{{title: Stone}}]
""", encoding="utf-8")
    return spec


def _gradient(mode: str, size=(60, 84)) -> PILImage.Image:
    """Muted colours across the picture; with alpha, its right half is fully transparent."""
    image = PILImage.new(mode, size)
    for x in range(size[0]):
        for y in range(size[1]):
            rgb = (120 + x, 80 + y // 2, 60 + (x + y) // 3)
            image.putpixel((x, y), rgb + ((255 if x < size[0] // 2 else 0),) if mode == "RGBA" else rgb)
    return image


@pytest.mark.parametrize("kind", ["png-alpha", "jpeg"])
def test_pictures_become_cmyk_images_and_keep_their_transparency(tmp_path, kind):
    from pypdf import PdfReader

    original = _gradient("RGBA" if kind == "png-alpha" else "RGB")
    name = "art.png" if kind == "png-alpha" else "art.jpg"
    original.save(tmp_path / name, **({"quality": 95} if name.endswith("jpg") else {}))
    out = tmp_path / "export"
    export_deck(load_deck(str(_spec_with_picture(tmp_path, name))),
                ExportOptions(target="print-shop", out_dir=out, cmyk=True))
    pdf = out / "upload" / "cards.pdf"
    qpdf_check(pdf)
    reader = PdfReader(pdf)
    contents, images = _streams(reader)
    assert not DEVICE_OPS.search(b"\n".join(contents))
    (picture,) = images
    assert picture["/ColorSpace"] == "/DeviceCMYK" and picture["/BitsPerComponent"] == 8
    assert (picture["/Width"], picture["/Height"]) == original.size
    inks = PILImage.frombytes("CMYK", original.size, picture.get_data())
    if kind == "png-alpha":
        mask = picture["/SMask"].get_object()
        assert mask["/ColorSpace"] == "/DeviceGray"
        assert mask.get_data() == original.getchannel("A").tobytes()
    else:
        assert "/SMask" not in picture
    for x, y in ((5, 5), (20, 60), (29, 40)):  # opaque pixels read back through the profile
        back = _back_to_srgb(*(v / 255 for v in inks.getpixel((x, y))))
        want = PILImage.open(tmp_path / name).convert("RGB").getpixel((x, y))
        assert max(abs(a - b) for a, b in zip(back, want)) <= 8, (x, y, back, want)
    # Rendered, the transparent half shows the card's blue background (converted too), the other
    # the picture: the page is drawn, in the right places.
    page = pdfium.PdfDocument(str(pdf))[0]
    shown = page.render(scale=2).to_pil().convert("RGB")
    w, h = shown.size
    left, right = shown.getpixel((w // 4, h // 2)), shown.getpixel((3 * w // 4, h // 2))
    if kind == "png-alpha":
        assert right[2] > right[0] + 40  # blue background through the transparent half
    assert left[0] > left[2]  # the picture's warm colours
    assert reader.trailer["/Root"]["/OutputIntents"][0].get_object()["/DestOutputProfile"]["/N"] == 4


def test_an_svg_picture_with_an_embedded_png_is_converted_too(tmp_path):
    import base64

    from pypdf import PdfReader

    buffer = io.BytesIO()
    _gradient("RGBA", (20, 20)).save(buffer, "PNG")
    data = base64.b64encode(buffer.getvalue()).decode()
    (tmp_path / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 20 20">'
        '<rect width="20" height="10" fill="#4a7a34"/>'
        f'<image x="0" y="0" width="20" height="20" xlink:href="data:image/png;base64,{data}"/></svg>',
        encoding="utf-8")
    out = tmp_path / "export"
    export_deck(load_deck(str(_spec_with_picture(tmp_path, "art.svg"))),
                ExportOptions(target="print-shop", out_dir=out, cmyk=True))
    qpdf_check(out / "upload" / "cards.pdf")
    contents, images = _streams(PdfReader(out / "upload" / "cards.pdf"))
    assert not DEVICE_OPS.search(b"\n".join(contents))
    assert [i["/ColorSpace"] for i in images] == ["/DeviceCMYK"] and "/SMask" in images[0]


def test_the_whole_print_shop_export_is_cmyk_with_the_profile_as_output_intent(tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "clag"
    export_deck(load_deck("clag"), ExportOptions(target="print-shop", out_dir=out, cmyk=True))
    pdfs = sorted(p.name for p in (out / "upload").glob("*.pdf"))
    assert pdfs == ["cards.pdf", "pages-a4.pdf"]  # the rulebooks are sRGB: left out, with a README line
    for name in pdfs:
        qpdf_check(out / "upload" / name)
        reader = PdfReader(out / "upload" / name)
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
        assert intent["/Info"] == cmyk.profile_name()
        profile = intent["/DestOutputProfile"].get_object()
        assert profile["/N"] == 4 and profile.get_data() == cmyk.press_icc()
        contents, images = _streams(reader)
        assert not images and not DEVICE_OPS.search(b"\n".join(contents)), name
        assert CMYK_FILL.search(b"\n".join(contents))
    readme = " ".join((out / "README.txt").read_text().split())  # as read, its lines wrapped
    assert "Colour: CMYK" in readme and "FOGRA39" in readme and "100% K" in readme
    assert "The rulebooks: printkit sets them in sRGB only" in readme


def test_cmyk_and_pdfx_are_for_the_pdf_targets_only():
    for flag in ("--cmyk", "--pdfx"):
        result = CliRunner().invoke(main, ["export", "calc", "--for", "tgc", flag])
        assert result.exit_code == 1
        assert result.output.strip() == (f"error: {flag} is for the PDF targets only (print-shop, drivethrucards); "
                                         "The Game Crafter takes sRGB images")
    with pytest.raises(Exception, match="--cmyk is for the PDF targets only"):
        export_deck(load_deck("calc"), ExportOptions(target="tts", cmyk=True))
