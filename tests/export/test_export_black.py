"""Black and greys in CMYK print on K alone; a large solid black takes the press's rich black; no
colour or picture goes over the press's total ink limit, read from Ghostscript's separated plates."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image as PILImage
from PIL import ImageCms

from printkit.export import ExportOptions, export_deck
from printkit.fonts import SYMBOLS
from printkit.layout.geometry import Size
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Line, Rect, Text
from printkit.render import cmyk
from printkit.render.cmyk import Press
from printkit.render.pdf import render_pages
from printkit.decks import load_deck

K_ONLY = (0.0, 0.0, 0.0)


def fills_of_text(pdf) -> list[tuple]:
    """The fill colour of every text-showing operator, pages and the forms they place, in order:
    ``('k', c, m, y, k)`` or ``('rg', r, g, b)``."""
    shown: list[tuple] = []

    def walk(stream, resources, fill=None):
        saved = []
        for operands, op in pikepdf.parse_content_stream(stream):
            op = str(op)
            if op == "q":
                saved.append(fill)
            elif op == "Q":
                fill = saved.pop()
            elif op in ("k", "rg", "g", "sc", "scn"):
                fill = (op, *(round(float(v), 4) for v in operands))
            elif op in ("Tj", "TJ", "'", '"'):
                shown.append(fill)
            elif op == "Do":
                form = resources.get("/XObject", {}).get(operands[0])
                if form is not None and form.get("/Subtype") == "/Form":
                    walk(form, form.get("/Resources", resources), fill)

    for page in pdf.pages:
        walk(page, page.Resources)
    return shown


def plates_max_ink(path: Path, dpi: int = 30) -> dict[int, float]:
    """The most total ink (percent) on each page, from Ghostscript's tiffsep plates (one 8-bit
    grey TIFF per process colour, 0 = full ink)."""
    gs = shutil.which("gs")
    if gs is None:
        pytest.skip("Ghostscript is not installed (Debian package ghostscript; .ci/run installs it)")
    out = path.parent / f"{path.stem}-plates"
    out.mkdir()
    run = subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", f"-r{dpi}",
                          f"-sOutputFile={out}/p%04d.tif", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    worst = {}
    for composite in sorted(out.glob("p????.tif")):
        plates = [PILImage.open(out / f"{composite.stem}({name}).tif")
                  for name in ("Cyan", "Magenta", "Yellow", "Black")]
        assert all(plate.mode == "L" for plate in plates)
        data = [plate.tobytes() for plate in plates]
        most = max(1020 - c - m - y - k for c, m, y, k in zip(*data))
        worst[int(composite.stem[1:])] = most / 255 * 100
    return worst


def _page(ops) -> list[Page]:
    return [Page(Size(80, 80), (Placement(Face(tuple(ops)), 0, 0),))]


def test_black_and_greys_in_text_lines_and_small_shapes_are_k_alone():
    greys = ["#000000", "#1d1d1f", "#1f1f1f", "#222222", "#2b2118"]  # black, soft blacks, a warm ink-black
    ops = [Text(1, 5 + 5 * i, "Aa", SYMBOLS, 1.8, c) for i, c in enumerate(greys)]  # 5 pt type
    ops += [Text(20, 5, "Bb", SYMBOLS, 2, "#1f1f1f", rotate_deg=90)]
    ops += [Line(30, 1, 70, 1, "#222222", 0.1), Rect(30, 5, 4, 4, fill="#1d1d1f"),
            Rect(30, 10, 4, 4, fill="#808080"), Rect(30, 20, 40, 40, fill="#1d1d1f"),
            Rect(1, 60, 20, 15, fill="#b8432f")]
    with pikepdf.open(io.BytesIO(render_pages(_page(ops), cmyk=True))) as pdf:
        text = fills_of_text(pdf)
        code = b"".join(p.Contents.read_bytes() for p in pdf.pages).decode()
    assert text == [("k", 0, 0, 0, 1)] * (len(greys) + 1)  # every near-black text: 100% K, one ink
    assert "0 0 0 1 K" in code  # the hairline
    lines = code.splitlines()
    # Small dark square: K alone; the mid grey: a K tint; the large dark square: the rich black.
    assert lines.count("0 0 0 1 k") >= 1
    assert any(line.startswith("0 0 0 .") and line.endswith(" k") for line in lines)
    assert ".6 .4 .4 1 k" in code
    red = [line for line in lines if line.endswith(" k") and not line.startswith("0 0 0 ")
           and line != ".6 .4 .4 1 k"]
    assert len(red) == 1 and all(float(v) > 0 for v in red[0].split()[:3])  # a colour keeps its inks


def test_a_grey_is_the_k_tint_of_its_lightness_and_rich_black_follows_the_press():
    press = ImageCms.ImageCmsProfile(io.BytesIO(cmyk.press_icc()))
    to_lab = ImageCms.buildTransform(press, ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                     renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    from_srgb = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    for grey in (0x40, 0x80, 0xb0, 0xe0):
        c, m, y, k = cmyk.ink_of(grey, grey, grey)
        assert (c, m, y) == K_ONLY and 0 < k < 1
        printed = ImageCms.applyTransform(PILImage.new("CMYK", (1, 1), (0, 0, 0, round(k * 255))), to_lab)
        wanted = ImageCms.applyTransform(PILImage.new("RGB", (1, 1), (grey,) * 3), from_srgb)
        assert abs(printed.getpixel((0, 0))[0] - wanted.getpixel((0, 0))[0]) <= 2, grey  # same L*
    assert cmyk.ink_of(0x1d, 0x1d, 0x1f, large=True) == (0.6, 0.4, 0.4, 1.0)
    assert cmyk.ink_of(0x1d, 0x1d, 0x1f, Press(rich_black=None), large=True) == (0, 0, 0, 1.0)
    assert cmyk.ink_of(0x80, 0x80, 0x80, large=True)[:3] == K_ONLY  # a large grey stays a K tint
    # A press's own limit: every colour within it, K kept.
    strict = Press(ink_limit=2.4)
    for rgb in ((0x3a, 0x1d, 0x16), (0x10, 0x1a, 0x33), (0x2a, 0x16, 0x22)):
        inks = cmyk.ink_of(*rgb, strict)
        assert sum(inks) <= 2.4 + 1e-9 and inks[3] == cmyk.cmyk_of(*rgb)[3]


def test_a_picture_over_the_limit_loses_cyan_magenta_and_yellow_only_where_it_is_over():
    import random

    rnd = random.Random(7)
    size = (40, cmyk.LIMIT_ROWS + 30)  # two strips
    picture = PILImage.new("CMYK", size)
    picture.frombytes(bytes(rnd.randrange(256) for _ in range(4 * size[0] * size[1])))
    limited = cmyk.limit_picture(picture, 2.4)

    def pixels(image):
        return zip(*(band.tobytes() for band in image.split()))

    for before, after in zip(pixels(picture), pixels(limited)):
        assert sum(after) <= 612 and after[3] == before[3]
        if sum(before) <= 612:
            assert after == before
        else:
            assert all(a <= b for a, b in zip(after[:3], before[:3]))
    opaque = PILImage.new("CMYK", size, (40, 30, 30, 100))
    assert cmyk.limit_picture(opaque, 3.0) is opaque


def test_clag_for_a_print_shop_has_no_text_in_four_inks_and_keeps_the_ink_limit(tmp_path):
    deck = load_deck("clag")
    rgb, press = tmp_path / "rgb", tmp_path / "cmyk"
    export_deck(deck, ExportOptions(target="print-shop", out_dir=rgb))
    export_deck(deck, ExportOptions(target="print-shop", out_dir=press, cmyk=True))
    neutral = 0
    for name in ("cards.pdf", "pages-a4.pdf"):
        with pikepdf.open(rgb / "upload" / name) as a, pikepdf.open(press / "upload" / name) as b:
            designed, printed = fills_of_text(a), fills_of_text(b)
        assert len(designed) == len(printed) > 0  # the same text runs, in the same order
        for colour, inks in zip(designed, printed):
            assert inks[0] == "k"
            r, g, b_ = colour[1:]
            if max(r, g, b_) - min(r, g, b_) <= 4 / 255:  # black or grey as designed (#1d1d1f ...)
                assert inks[1:4] == K_ONLY, (colour, inks)
                neutral += 1
        for page, ink in plates_max_ink(press / "upload" / name).items():
            assert ink <= 300.0, (name, page, ink)
    assert neutral > 100


def _opaque_black_picture_deck(tmp_path: Path) -> Path:
    image = PILImage.new("RGB", (60, 84), (0, 0, 0))  # sRGB black: the profile's ~300% rich black
    image.paste((30, 10, 40), (0, 0, 30, 84))
    image.save(tmp_path / "night.png")
    spec = tmp_path / "deck.yaml"
    spec.write_text("""game: pictures
name: Pictures
art:
  colors: {background: "#1f5f86"}
  background_image: night.png
groups:
  - name: n
    cards: [{title: Stone}]
""", encoding="utf-8")
    return spec


def test_pictures_are_held_to_the_service_ink_limit(tmp_path):
    spec = _opaque_black_picture_deck(tmp_path)
    out = tmp_path / "dtc"
    export_deck(load_deck(str(spec)), ExportOptions(target="drivethrucards", out_dir=out))
    (pdf,) = (out / "upload").glob("*.pdf")
    with pikepdf.open(pdf) as doc:
        images = [obj for obj in doc.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]
    assert [str(i.ColorSpace) for i in images] == ["/DeviceCMYK"]
    assert max(plates_max_ink(pdf).values()) <= 240.0  # DriveThruCards' limit, pictures included
    shop = tmp_path / "shop"
    export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=shop, cmyk=True))
    inks = plates_max_ink(shop / "upload" / "cards.pdf")
    assert max(inks.values()) <= 300.0 and max(inks.values()) > 260  # the print shop's own 300%
