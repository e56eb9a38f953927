"""PDF/X-1a:2001 for DriveThruCards (and `--pdfx`): every requirement checked in the file with
pikepdf, and Ghostscript renders it without a complaint."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image as PILImage

from printkit.cli import main
from printkit.errors import BuildError
from printkit.export import ExportOptions, export_deck
from printkit.render import cmyk
from printkit.decks import load_deck
from test_export_cmyk import _spec_with_picture

# Colour operators a PDF/X-1a page may use: CMYK and grey (k K g G); any other sets RGB or a
# colour space of its own.
OTHER_COLOUR_OPS = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS"}
RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/Lab", "/ICCBased", "/Indexed", "/DeviceN", "/Separation", "/Pattern"}


@pytest.fixture(scope="module")
def emberfall_pdfx(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("emberfall") / "export"
    export_deck(load_deck("emberfall"), ExportOptions(target="drivethrucards", out_dir=out))
    (pdf,) = (out / "upload").glob("*.pdf")
    return pdf


def _contents(pdf: pikepdf.Pdf):
    """Every content stream (pages, and the forms they place, once each) with its resources."""
    seen: set = set()

    def forms(resources):
        for xobject in (resources or {}).get("/XObject", {}).values():
            if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                yield xobject, xobject.get("/Resources", resources)
                yield from forms(xobject.get("/Resources"))

    for page in pdf.pages:
        yield page, page.Resources
        yield from forms(page.Resources)


def test_drivethrucards_writes_pdfx_1a_2001_meeting_every_requirement(emberfall_pdfx):
    assert emberfall_pdfx.read_bytes().startswith(b"%PDF-1.3\n")  # X-1a:2001 is based on PDF 1.3
    with pikepdf.open(emberfall_pdfx) as pdf:
        assert pdf.pdf_version == "1.3"
        info = pdf.docinfo
        assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1:2001"
        assert str(info["/GTS_PDFXConformance"]) == "PDF/X-1a:2001"
        assert info["/Trapped"] == pikepdf.Name("/False")
        assert str(info["/Title"]).startswith("Emberfall: ")
        for key in ("/CreationDate", "/ModDate"):
            assert str(info[key]).startswith("D:2")
        ids = pdf.trailer["/ID"]
        assert len(ids) == 2 and all(len(bytes(i)) == 16 for i in ids)

        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == cmyk.CONDITION
        assert str(intent.RegistryName) == "http://www.color.org" and str(intent.Info)
        profile = intent.DestOutputProfile
        assert profile.N == 4 and profile.read_bytes() == cmyk.press_icc()

        assert len(pdf.pages) > 0
        for page in pdf.pages:  # TrimBox inside BleedBox inside MediaBox, on every page
            media, bleed, trim = ([float(v) for v in page.obj[key]] for key in ("/MediaBox", "/BleedBox", "/TrimBox"))
            assert media[0] <= bleed[0] < trim[0] < trim[2] < bleed[2] <= media[2]
            assert media[1] <= bleed[1] < trim[1] < trim[3] < bleed[3] <= media[3]

        fonts = 0
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Dictionary):
                continue
            # No transparency anywhere: no soft mask, no opacity, no blend mode, no group.
            assert "/SMask" not in obj and "/Group" not in obj
            assert float(obj.get("/CA", 1)) == 1 and float(obj.get("/ca", 1)) == 1
            assert str(obj.get("/BM", "/Normal")) in ("/Normal", "/Compatible")
            if obj.get("/Type") == "/Font":  # every font embedded
                fonts += 1
                assert obj.Subtype in ("/TrueType", "/Type0", "/Type1", "/CIDFontType2")
                descriptor = obj.get("/FontDescriptor") or obj.DescendantFonts[0].FontDescriptor
                assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")), obj
            if obj.get("/Subtype") == "/Image":  # pictures CMYK or grey
                assert obj.get("/ColorSpace") in ("/DeviceCMYK", "/DeviceGray") or obj.get("/ImageMask")
            if "/ColorSpace" in obj and obj.get("/Subtype") != "/Image":
                spaces = obj.ColorSpace if isinstance(obj.ColorSpace, pikepdf.Dictionary) else {}
                for space in spaces.values():
                    assert str(space[0] if isinstance(space, pikepdf.Array) else space) not in RGB_SPACES
            if obj.get("/ShadingType") is not None:
                assert obj.ColorSpace in ("/DeviceCMYK", "/DeviceGray")
        assert fonts > 0

        operators = 0
        for stream, _resources in _contents(pdf):  # no RGB colour in any drawing
            for operands, op in pikepdf.parse_content_stream(stream):
                assert str(op) not in OTHER_COLOUR_OPS, (op, operands)
                assert str(op) != "BI"  # no inline images (their colour space goes unchecked)
                operators += str(op) in ("k", "K")
        assert operators > 0
        raw = b"".join(bytes(o.read_raw_bytes()) for o in pdf.objects if isinstance(o, pikepdf.Stream)
                       and o.get("/Subtype") != "/Image" and o.get("/Length1") is None)
        assert b"DeviceRGB" not in raw


def test_ghostscript_renders_the_pdfx_file_without_complaint(emberfall_pdfx):
    gs = shutil.which("gs")
    if gs is None:
        pytest.skip("Ghostscript is not installed (Debian package ghostscript; .ci/run installs it)")
    run = subprocess.run([gs, "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage", str(emberfall_pdfx)],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert "error" not in run.stdout.lower() and "warning" not in run.stdout.lower(), run.stdout


def test_the_readme_says_pdfx_and_no_pdfx_gives_the_srgb_file(emberfall_pdfx, tmp_path):
    readme = (emberfall_pdfx.parent.parent / "README.txt").read_text()
    assert "PDF/X-1a:2001" in readme and "240% ink" in readme and "K alone" in readme
    out = tmp_path / "srgb"
    export_deck(load_deck("emberfall"), ExportOptions(target="drivethrucards", out_dir=out, pdfx=False))
    with pikepdf.open(next((out / "upload").glob("*.pdf"))) as pdf:
        assert "/GTS_PDFXVersion" not in pdf.docinfo and pdf.Root.OutputIntents[0].S == "/GTS_PDFA1"


def test_the_print_shop_export_with_pdfx_is_pdfx_too(tmp_path):
    out = tmp_path / "shop"
    result = CliRunner().invoke(main, ["export", "calc", "--for", "print-shop", "--pdfx", "--out", str(out)])
    assert result.exit_code == 0, result.output
    for path in (out / "upload").glob("*.pdf"):
        with pikepdf.open(path) as pdf:
            assert pdf.pdf_version == "1.3" and str(pdf.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2001"
            assert pdf.Root.OutputIntents[0].S == "/GTS_PDFX"


@pytest.mark.parametrize("picture", ["glass.png", "veil.svg", "half-veil.svg"])
def test_a_transparent_picture_is_refused_by_name(tmp_path, picture):
    if picture.endswith(".png"):
        PILImage.new("RGBA", (20, 28), (200, 40, 40, 120)).save(tmp_path / picture)
    else:
        opacity = "50%" if picture.startswith("half") else "0.5"  # CSS writes opacity either way
        (tmp_path / picture).write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 28">'
                                        f'<rect width="20" height="28" fill="#c83030" opacity="{opacity}"/></svg>',
                                        encoding="utf-8")
    spec = _spec_with_picture(tmp_path, picture)
    with pytest.raises(BuildError, match=rf"{picture}: this picture has transparency .* PDF/X-1a cannot hold"):
        export_deck(load_deck(str(spec)), ExportOptions(target="drivethrucards", out_dir=tmp_path / "out"))
    result = CliRunner().invoke(main, ["export", str(spec), "--for", "drivethrucards", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and result.output.count("\n") == 1 and picture in result.output
    assert "Traceback" not in result.output
    # Without --pdfx the picture keeps its transparency (a soft mask) in the CMYK file.
    export_deck(load_deck(str(spec)), ExportOptions(target="drivethrucards", out_dir=tmp_path / "plain",
                                                    cmyk=True, pdfx=False))
