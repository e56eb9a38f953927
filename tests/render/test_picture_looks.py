"""Pictures print as viewers show them: every PNG bit depth and colour type, and a photo's EXIF
orientation; checked on pixels rendered from the PDF."""

import io
import struct
import zlib

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

from printkit.layout.geometry import Size
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Image
from printkit.render.pdf import render_pages
from printkit.render.pngfile import PNG_SIGNATURE, chunk

WHITE = (255, 255, 255)


def _png(width, height, depth, color_type, rows, *extra):
    """A PNG of ``rows`` (each a list of pixels, each a tuple of samples), written by hand: Pillow
    saves few of these kinds."""
    def packed(row):
        if depth == 16:
            return b"".join(struct.pack(">H", s) for pixel in row for s in pixel)
        if depth == 8:
            return bytes(s for pixel in row for s in pixel)
        bits, count = 0, 0
        out = bytearray()
        for (s,) in row:
            bits, count = bits << depth | s, count + depth
            if count == 8:
                out.append(bits)
                bits, count = 0, 0
        if count:
            out.append(bits << (8 - count))
        return bytes(out)

    raw = b"".join(b"\0" + packed(row) for row in rows)
    return (PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0))
            + b"".join(chunk(kind, body) for kind, body in extra)
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _over_white(grey_or_rgb, alpha=255):
    rgb = grey_or_rgb if isinstance(grey_or_rgb, tuple) else (grey_or_rgb,) * 3
    return tuple(round(c * alpha / 255 + 255 * (1 - alpha / 255)) for c in rgb)


def _to8(sample16):
    return round(sample16 / 257)


GREYS16 = [0, 4000, 16000, 30000, 40000, 52000, 60000, 65535]
PALETTE = [(200, 30, 40), (20, 160, 60), (30, 40, 200), (250, 220, 10)]


def _cases():
    """(name, PNG bytes, the 8 x 1 pixels a viewer shows on white[, the pixels its transparent
    colour clears])."""
    yield ("grey 16-bit", _png(8, 1, 16, 0, [[(g,) for g in GREYS16]]), [_over_white(_to8(g)) for g in GREYS16])
    alphas = [65535, 65535, 40000, 20000, 0, 65535, 30000, 65535]
    yield ("grey+alpha 16-bit", _png(8, 1, 16, 4, [[(g, a) for g, a in zip(GREYS16, alphas)]]),
           [_over_white(_to8(g), _to8(a)) for g, a in zip(GREYS16, alphas)])
    yield ("grey 16-bit, one grey transparent", _png(8, 1, 16, 0, [[(g,) for g in GREYS16]],
                                                     (b"tRNS", struct.pack(">H", 16000))),
           [WHITE if g == 16000 else _over_white(_to8(g)) for g in GREYS16], [2])
    for depth in (1, 2, 4):
        top = (1 << depth) - 1
        samples = [min(top, s) for s in (0, 1, 2, 3, 5, 8, 12, 15)]
        yield (f"grey {depth}-bit", _png(8, 1, depth, 0, [[(s,) for s in samples]]),
               [_over_white(round(s * 255 / top)) for s in samples])
        yield (f"grey {depth}-bit, one grey transparent",
               _png(8, 1, depth, 0, [[(s,) for s in samples]], (b"tRNS", struct.pack(">H", 1))),
               [WHITE if s == 1 else _over_white(round(s * 255 / top)) for s in samples],
               [n for n, s in enumerate(samples) if s == 1])
    greys = [0, 40, 90, 128, 170, 200, 230, 255]
    yield ("grey 8-bit, one grey transparent", _png(8, 1, 8, 0, [[(g,) for g in greys]], (b"tRNS", bytes([0, 40]))),
           [WHITE if g == 40 else _over_white(g) for g in greys], [1])
    colours = [(10 * n, 200 - 20 * n, 90) for n in range(8)]
    yield ("RGB 8-bit, one colour transparent", _png(8, 1, 8, 2, [colours], (b"tRNS", struct.pack(">HHH", 30, 140, 90))),
           [WHITE if c == (30, 140, 90) else c for c in colours], [3])
    yield ("RGB 16-bit, one colour transparent",
           _png(8, 1, 16, 2, [[tuple(s * 257 for s in c) for c in colours]],
                (b"tRNS", struct.pack(">HHH", 30 * 257, 140 * 257, 90 * 257))),
           [WHITE if c == (30, 140, 90) else c for c in colours], [3])
    yield ("RGBA 16-bit", _png(8, 1, 16, 6, [[tuple(s * 257 for s in c) + (a,) for c, a in zip(colours, alphas)]]),
           [_over_white(c, _to8(a)) for c, a in zip(colours, alphas)])
    plte = (b"PLTE", b"".join(bytes(c) for c in PALETTE))
    for depth in (2, 4, 8):
        indices = [n % 4 for n in range(8)]
        yield (f"palette {depth}-bit, with transparency",
               _png(8, 1, depth, 3, [[(i,) for i in indices]], plte, (b"tRNS", bytes([255, 0, 128, 255]))),
               [_over_white(PALETTE[i], (255, 0, 128, 255)[i]) for i in indices])


CASES = [case if len(case) == 4 else case + ([],) for case in _cases()]


def _rendered(pdf: bytes, width_px: int) -> PILImage.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        return page.render(scale=width_px / page.get_size()[0]).to_pil().convert("RGB")
    finally:
        document.close()


def _picture_pdf(path, box=(60, 20), fit="stretch", cmyk=False) -> bytes:
    face = Face((Image(0, 0, box[0], box[1], path, fit=fit),))
    return render_pages([Page(Size(*box), (Placement(face, 0, 0),))], cmyk=cmyk)


@pytest.mark.parametrize("name, data, shown, clear", CASES, ids=[c[0] for c in CASES])
def test_every_kind_of_png_prints_as_it_looks(tmp_path, name, data, shown, clear):
    path = tmp_path / "art.png"
    path.write_bytes(data)
    with PILImage.open(path) as opened:  # a kind Pillow reads
        opened.load()
    page = _rendered(_picture_pdf(path), 480)  # each picture pixel 60 pixels wide
    got = [page.getpixel((60 * n + 30, page.height // 2)) for n in range(8)]
    for n, (have, want) in enumerate(zip(got, shown)):
        assert max(abs(a - b) for a, b in zip(have, want)) <= 2, f"{name}: pixel {n} is {have}, shows {want}"


OPAQUE_OR_CLEAR = [c for c in CASES if c[0] == "grey 16-bit" or "transparent" in c[0]]


@pytest.mark.parametrize("name, data, shown, clear", OPAQUE_OR_CLEAR, ids=[c[0] for c in OPAQUE_OR_CLEAR])
def test_every_kind_of_png_goes_to_the_press_as_it_looks(name, data, shown, clear):
    from printkit.render.cmyk import cmyk_picture, cmyk_shape

    image, alpha = cmyk_picture(data)
    assert (alpha is not None) == ("transparent" in name) == cmyk_shape(data)[2]
    if alpha is not None:
        assert clear and [n for n in range(8) if alpha.getpixel((n, 0)) != 255] == clear
    expected, _ = cmyk_picture(_as_rgb_png(shown))  # the same picture as plain 8-bit RGB
    for n in range(8):
        if n not in clear:
            have, want = image.getpixel((n, 0)), expected.getpixel((n, 0))
            assert max(abs(a - b) for a, b in zip(have, want)) <= 3, f"{name}: pixel {n} is {have}, not {want}"


def _as_rgb_png(pixels) -> bytes:
    image = PILImage.new("RGB", (len(pixels), 1))
    image.putdata(pixels)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


QUADRANTS = [(220, 30, 30), (30, 30, 220), (30, 180, 40), (240, 220, 20)]  # red, blue / green, yellow


def _quartered(size=(400, 200)) -> PILImage.Image:
    image = PILImage.new("RGB", size)
    w, h = size
    for n, colour in enumerate(QUADRANTS):
        image.paste(colour, (n % 2 * w // 2, n // 2 * h // 2, (n % 2 + 1) * w // 2, (n // 2 + 1) * h // 2))
    return image


def _quadrants(image: PILImage.Image) -> list:
    w, h = image.size
    return [image.getpixel((int(w * x), int(h * y))) for y in (0.25, 0.75) for x in (0.25, 0.75)]


def _near(have, want, tolerance=12):
    return all(max(abs(a - b) for a, b in zip(p, q)) <= tolerance for p, q in zip(have, want))


def _with_orientation(path, kind, orientation):
    exif = PILImage.Exif()
    exif[0x0112] = orientation
    _quartered().save(path, kind, exif=exif, **({"quality": 95} if kind == "JPEG" else {}))


@pytest.mark.parametrize("kind", ["JPEG", "PNG"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_picture_prints_turned_as_its_exif_orientation_shows_it(tmp_path, kind, orientation):
    from PIL import ImageOps

    from printkit.images import picture

    path = tmp_path / f"photo.{kind.lower()}"
    _with_orientation(path, kind, orientation)
    with PILImage.open(path) as opened:
        shown = ImageOps.exif_transpose(opened)
    assert (picture(path).width, picture(path).height) == shown.size  # fitted as shown
    box = (20, 40) if shown.height > shown.width else (40, 20)
    pdf = _picture_pdf(path, box)
    if kind == "JPEG":
        assert path.read_bytes() in pdf  # its own bytes, turned where they are drawn
    page = _rendered(pdf, 10 * box[0])
    assert _near(_quadrants(page), _quadrants(shown)), (_quadrants(page), _quadrants(shown))
    # In a square box, "contain" leaves white on the sides its shown shape does not reach.
    square = _rendered(_picture_pdf(path, (40, 40), fit="contain"), 400)
    edges = [square.getpixel((10, 200)), square.getpixel((200, 10))]  # left middle, top middle
    assert edges[0 if shown.height > shown.width else 1] == WHITE
    assert edges[1 if shown.height > shown.width else 0] != WHITE


def test_the_tester_s_portrait_photo_prints_portrait_red_on_top(tmp_path):
    path = tmp_path / "photo.jpg"
    image = PILImage.new("RGB", (400, 200), (220, 30, 30))
    image.paste((30, 30, 220), (200, 0, 400, 200))
    exif = PILImage.Exif()
    exif[0x0112] = 6
    image.save(path, "JPEG", exif=exif)
    page = _rendered(_picture_pdf(path, (20, 40), fit="cover"), 200)
    assert _near([page.getpixel((100, 100)), page.getpixel((100, 300))], [(220, 30, 30), (30, 30, 220)])


def test_a_16_bit_rgb_png_s_transparent_colour_is_a_warning_on_check(tmp_path):
    from click.testing import CliRunner

    from printkit.cli import main

    colours = [(10 * n, 200 - 20 * n, 90) for n in range(8)]
    key = (b"tRNS", struct.pack(">HHH", 30 * 257, 140 * 257, 90 * 257))
    (tmp_path / "sixteen.png").write_bytes(_png(8, 1, 16, 2, [[tuple(s * 257 for s in c) for c in colours]], key))
    (tmp_path / "eight.png").write_bytes(_png(8, 1, 8, 2, [colours], (b"tRNS", struct.pack(">HHH", 30, 140, 90))))
    (tmp_path / "deck.yaml").write_text("""game: pictures
name: Pictures
layouts:
  card:
    elements:
      - {kind: image, image: "{picture}", x: 0, y: 0, width: 100%, height: 50%}
groups:
  - name: n
    layout: card
    cards: [{title: Sixteen, picture: sixteen.png}, {title: Eight, picture: eight.png}]
""", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "deck.yaml")])
    assert result.exit_code == 0, result.output
    assert "picture 'sixteen.png': its transparent colour (tRNS) is matched on the top 8" in result.output
    # (Both are 8 px across a card, so both are also said to print far below 150 DPI.)
    assert "eight.png': its transparent colour" not in result.output


def test_a_png_s_xmp_orientation_turns_it_as_exif_transpose_does(tmp_path):
    from PIL import ImageOps, PngImagePlugin

    path = tmp_path / "art.png"
    info = PngImagePlugin.PngInfo()
    info.add_itxt("XML:com.adobe.xmp", '<x:xmpmeta><rdf:Description tiff:Orientation="8"/></x:xmpmeta>')
    _quartered().save(path, "PNG", pnginfo=info)
    with PILImage.open(path) as opened:
        shown = ImageOps.exif_transpose(opened)
    assert shown.size == (200, 400)
    page = _rendered(_picture_pdf(path, (20, 40)), 200)
    assert _near(_quadrants(page), _quadrants(shown))


@pytest.mark.parametrize("after", [False, True])
def test_a_png_s_exif_orientation_is_read_before_or_after_its_pixels(tmp_path, after):
    from printkit.images import exif_orientation

    path = tmp_path / "art.png"
    _with_orientation(path, "PNG", 6)
    data = path.read_bytes()
    chunks, at = [], 8
    while at < len(data):  # the file's chunks, whole, in order
        length = struct.unpack(">I", data[at:at + 4])[0]
        chunks.append(data[at:at + 12 + length])
        at += 12 + length
    exif = next(c for c in chunks if c[4:8] == b"eXIf")
    rest = [c for c in chunks if c is not exif]
    last_pixels = max(i for i, c in enumerate(rest) if c[4:8] == b"IDAT")
    rest.insert(last_pixels + 1 if after else 1, exif)  # after the pixels, or just after IHDR
    data = data[:8] + b"".join(rest)
    with PILImage.open(io.BytesIO(data)) as opened:
        opened.load()
        assert opened.getexif().get(0x0112) == 6  # Pillow reads it from either place
    assert exif_orientation(data) == 6


# --- pictures embedded in SVG art (data: URIs) print as a browser shows them ----------------------


def _svg_with(data: bytes, kind: str, width: int, height: int, sized: bool = True) -> str:
    """SVG art of ``width`` x ``height`` holding one picture embedded as a data: URI, over all of it
    (with no width or height of its own when not ``sized``: the picture's own size, as shown)."""
    import base64

    size = f'width="{width}" height="{height}" ' if sized else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}">'
            f'<image {size}href="data:image/{kind};base64,{base64.b64encode(data).decode()}"/></svg>')


def _svg_picture_pdf(tmp_path, text: str, box, cmyk: bool = False) -> bytes:
    path = tmp_path / "art.svg"
    path.write_text(text, encoding="utf-8")
    face = Face((Image(0, 0, box[0], box[1], path, fit="stretch"),))
    return render_pages([Page(Size(*box), (Placement(face, 0, 0),))], cmyk=cmyk)


def _red_left_blue_right_jpeg(orientation: int) -> bytes:
    image = PILImage.new("RGB", (400, 200), (220, 30, 30))
    image.paste((30, 30, 220), (200, 0, 400, 200))
    exif = PILImage.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif)
    return buffer.getvalue()


def test_the_tester_s_portrait_photo_inside_svg_art_prints_red_on_top(tmp_path):
    """A card built from a spec whose art is an SVG holding a phone photo (stored landscape, EXIF
    orientation 6): printed as a browser shows the SVG, portrait with the red half on top."""
    from click.testing import CliRunner

    from printkit.cli import main

    (tmp_path / "art.svg").write_text(_svg_with(_red_left_blue_right_jpeg(6), "jpeg", 20, 40), encoding="utf-8")
    (tmp_path / "deck.yaml").write_text("""game: photos
name: Photos
card: {size: poker, bleed: 0mm}
layouts:
  card:
    elements:
      - {kind: image, image: art.svg, x: 0, y: 0, width: 100%, height: 100%, fit: stretch}
groups:
  - name: n
    layout: card
    cards: [{title: Photo}]
""", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(tmp_path / "deck.yaml"), "--out", str(out), "--per-card",
                                       "--no-cache"])
    assert result.exit_code == 0, result.output
    pdfs = sorted(out.rglob("*.pdf"))
    card = next(p for p in pdfs if p.parent != out)  # the card's own PDF
    page = _rendered(card.read_bytes(), 200)
    top, bottom = page.getpixel((100, page.height // 4)), page.getpixel((100, 3 * page.height // 4))
    assert _near([top, bottom], [(220, 30, 30), (30, 30, 220)]), (top, bottom, pdfs)


@pytest.mark.parametrize("cmyk", [False, True], ids=["srgb", "cmyk"])
@pytest.mark.parametrize("kind", ["JPEG", "PNG"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_picture_inside_svg_art_prints_turned_as_its_exif_orientation_shows_it(tmp_path, kind, orientation,
                                                                                   cmyk):
    from PIL import ImageOps

    path = tmp_path / f"photo.{kind.lower()}"
    _with_orientation(path, kind, orientation)
    with PILImage.open(path) as opened:
        shown = ImageOps.exif_transpose(opened)
    box = (20, 40) if shown.height > shown.width else (40, 20)
    text = _svg_with(path.read_bytes(), kind.lower(), *shown.size, sized=orientation % 2 == 0)
    page = _rendered(_svg_picture_pdf(tmp_path, text, box, cmyk), 10 * box[0])
    if cmyk:  # as the press prints the picture file itself (turned as shown: the test above)
        shown = _rendered(_picture_pdf(path, box, cmyk=True), 10 * box[0])
    assert _near(_quadrants(page), _quadrants(shown)), (_quadrants(page), _quadrants(shown))


SHOWN_RULE = [c for c in CASES if "16-bit" in c[0] or "transparent" in c[0] or "palette" in c[0]]


@pytest.mark.parametrize("cmyk", [False, True], ids=["srgb", "cmyk"])
@pytest.mark.parametrize("name, data, shown, clear", SHOWN_RULE, ids=[c[0] for c in SHOWN_RULE])
def test_every_kind_of_png_inside_svg_art_prints_as_it_looks(tmp_path, name, data, shown, clear, cmyk):
    def pixels(pdf: bytes) -> list:
        page = _rendered(pdf, 480)
        return [page.getpixel((60 * n + 30, page.height // 2)) for n in range(8)]

    got = pixels(_svg_picture_pdf(tmp_path, _svg_with(data, "png", 8, 1), (60, 20), cmyk))
    if cmyk:  # as the press prints the picture file itself
        path = tmp_path / "art.png"
        path.write_bytes(data)
        shown = pixels(_picture_pdf(path, cmyk=True))
    for n, (have, want) in enumerate(zip(got, shown)):
        assert max(abs(a - b) for a, b in zip(have, want)) <= 2, f"{name}: pixel {n} is {have}, shows {want}"


def test_a_turned_photo_in_a_box_of_its_stored_shape_is_fitted_whole_as_a_browser_fits_it(tmp_path):
    """Art made by a tool that reads no EXIF gives the photo's <image> its stored shape (landscape):
    a browser shows the photo turned (portrait) and whole inside that box (preserveAspectRatio's
    default, xMidYMid meet), white on either side."""
    text = _svg_with(_red_left_blue_right_jpeg(6), "jpeg", 400, 200)
    page = _rendered(_svg_picture_pdf(tmp_path, text, (40, 20)), 400)  # 10 px a millimetre
    assert _near([page.getpixel((200, 50)), page.getpixel((200, 150))], [(220, 30, 30), (30, 30, 220)])
    assert page.getpixel((100, 100)) == WHITE and page.getpixel((300, 100)) == WHITE
