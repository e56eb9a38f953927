"""PDFs written object by object into a file (write_pages) are the very bytes render_pages returns."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image as PILImage

from printkit.memo import Memo
from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.fonts import KOREAN, KOREAN_BOLD
from printkit.layout.geometry import paper_size
from printkit.layout.imposition import impose, sheet_pages
from printkit.layout.ops import Face, Image, Rect, Text
from printkit.render import pdf as pdf_module, pictures as pictures_module
from printkit.render.pdf import SharedPages, render_pages, write_pages

POKER = CardSize(63.5, 88.9)
SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30">
<rect x="2" y="2" width="36" height="26" fill="#3a7d44"/><circle cx="20" cy="15" r="9" fill="#f2c14e" opacity="0.7"/>
</svg>"""


def noise(mode: str, size=(48, 36), seed=1) -> PILImage.Image:
    rng = random.Random(seed)
    img = PILImage.new(mode, size)
    bands = len(img.getbands())
    img.putdata([tuple(rng.randrange(256) for _ in range(bands)) if bands > 1 else rng.randrange(256)
                 for _ in range(size[0] * size[1])])
    return img


@pytest.fixture
def art(tmp_path):
    """One picture of each kind printkit draws: plain RGB and grey PNGs (embedded as they are), a
    PNG with alpha (decoded), JPEGs in colour and grey, and an SVG."""
    files = {}
    for name, mode, kind in (("rgb.png", "RGB", "PNG"), ("grey.png", "L", "PNG"), ("alpha.png", "RGBA", "PNG"),
                             ("photo.jpg", "RGB", "JPEG"), ("grey.jpg", "L", "JPEG")):
        path = tmp_path / name
        noise(mode, seed=len(files)).save(path, kind)
        files[name] = path
    files["art.svg"] = tmp_path / "art.svg"
    files["art.svg"].write_text(SVG, encoding="utf-8")
    return files


def card(n: int, picture=None) -> Face:
    drawn = (Image(4, 15, 55.5, 45, picture, fit="cover"),) if picture is not None else ()
    return Face((Rect(-3, -3, 69.5, 94.9, fill="#f4efe6"),
                 Text(5, 10, f"Card {n}", KOREAN_BOLD, 5.0, "#202020", "start"), *drawn,
                 Text(5, 70, f"숫자 {n}", KOREAN, 3.0, "#202020", "start")))


BACK = Face((Rect(-3, -3, 69.5, 94.9, fill="#2b2d42"), Text(10, 44, "쿼카", KOREAN, 6.0, "#ffffff", "start")))


def sheets(art, count=14):
    """Duplex and fronts-only sheets: a first sheet of cards without pictures (pages two documents
    can share), then cards with each picture, one of them three times (drawn as a form)."""
    pictures = list(art.values())
    fronts = ([card(n) for n in range(9)] + [card(n, pictures[n % len(pictures)]) for n in range(count)]
              + [card(0, pictures[0])] * 2)
    layout = impose(paper_size("a4"), POKER)
    return sheet_pages(layout, fronts, [BACK] * len(fronts)), sheet_pages(layout, fronts, None)


class Pieces:
    """A file stand-in that keeps each write apart, to see the document was written in pieces."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def getvalue(self) -> bytes:
        return b"".join(self.writes)


@pytest.mark.parametrize("cmyk", [False, True])
def test_streamed_sheets_are_the_bytes_rendered_in_memory(art, cmyk):
    duplex, _ = sheets(art)
    out = Pieces()
    size = write_pages(duplex, out, "sheets", cmyk=cmyk)
    whole = render_pages(duplex, "sheets", cmyk=cmyk)
    assert out.getvalue() == whole and size == len(whole)
    if cmyk:
        assert whole.count(b"/DeviceCMYK") >= 5  # every picture converted
    else:
        assert b"/DCTDecode" in whole and b"/SMask" in whole and b"/DecodeParms" in whole
    # One write for the header, one per object, the cross-reference table and the trailer.
    assert len(out.writes) == whole.count(b" obj\n") + 3


def test_streamed_shared_pages_are_the_bytes_rendered_in_memory(art):
    duplex, fronts_only = sheets(art)
    kept, streamed_kept = SharedPages(fronts_only), SharedPages(fronts_only)
    first, second = render_pages(duplex, "duplex", keep_for=kept), render_pages(fronts_only, "fronts", reuse=kept)
    out_first, out_second = io.BytesIO(), io.BytesIO()
    write_pages(duplex, out_first, "duplex", keep_for=streamed_kept)
    write_pages(fronts_only, out_second, "fronts", reuse=streamed_kept)
    assert out_first.getvalue() == first
    assert out_second.getvalue() == second == render_pages(fronts_only, "fronts")
    assert len(kept.streams) == 1 and streamed_kept.streams.keys() == kept.streams.keys()  # the first sheet


def test_a_jpeg_is_read_from_its_file_when_the_pdf_is_written(art):
    path = art["photo.jpg"]
    pages, _ = sheets({"photo.jpg": path})
    pdf = render_pages(pages)
    assert path.read_bytes() in pdf  # embedded as the file's own bytes
    data = bytearray(path.read_bytes())
    data[-40] ^= 0xFF  # the file changes after it was checked
    path.write_bytes(bytes(data))
    with pytest.raises(BuildError, match="photo.jpg' changed while the build drew it"):
        write_pages(pages, io.BytesIO())


def test_a_picture_that_fails_while_the_pdf_is_written_stops_it(art, monkeypatch):
    pages, _ = sheets(art)
    real = pictures_module._checked_bytes
    read = []

    def failing(path, digest):
        read.append(path)
        if len(read) == 3:
            raise BuildError(f"image {str(path)!r} cannot be read: gone")
        return real(path, digest)

    monkeypatch.setattr(pictures_module, "_checked_bytes", failing)
    out = Pieces()
    with pytest.raises(BuildError, match="cannot be read: gone"):
        write_pages(pages, out)
    assert out.writes  # it failed midway, with part of the document written


@pytest.mark.parametrize("cmyk", [False, True])
def test_a_document_holds_no_picture_data_until_it_is_written(art, cmyk):
    from printkit.render.pdf import PdfInfo
    from printkit.render.pictures import binary_streams

    pages, _ = sheets(art)
    with binary_streams():
        canvas, _ = pdf_module._drawn(pages, PdfInfo("sheets"), cmyk)
    objects = canvas._doc.idToObject.values()
    pictures = [o for o in objects if isinstance(o, (pdf_module.pdfdoc.PDFImageXObject, pictures_module._PngStream))]
    assert len(pictures) == 6  # the five pictures and the soft mask of the one with alpha
    assert all(getattr(o, "streamContent", None) is None for o in pictures)


@pytest.mark.parametrize("cmyk", [False, True])
def test_pictures_the_process_no_longer_keeps_are_made_again_when_written(art, monkeypatch, cmyk):
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    pages, _ = sheets(art)
    expected = render_pages(pages, "sheets", cmyk=cmyk)
    for name, value in (("_DECODED", Memo("none", 4096, max_bytes=0)),
                        ("_CMYK_PICTURES", Memo("none", 4096, max_bytes=0)), ("_LAST", Memo("last", 2))):
        monkeypatch.setattr(pictures_module, name, value)
    from printkit.render import cmyk as press

    decoded, converted = [], []
    real, convert = PDFImageXObject.loadImageFromSRC, press.cmyk_picture
    monkeypatch.setattr(PDFImageXObject, "loadImageFromSRC", lambda self, im: decoded.append(im) or real(self, im))
    monkeypatch.setattr(press, "cmyk_picture", lambda data: converted.append(data) or convert(data))
    out = io.BytesIO()
    write_pages(pages, out, "sheets", cmyk=cmyk)
    assert out.getvalue() == expected
    if cmyk:  # each picture once, for its image and its soft mask alike
        assert len(converted) == 5 and not decoded
    else:  # the PNG with alpha and its alpha, once for the image and its soft mask
        assert len(decoded) == 2 and not converted


@pytest.mark.parametrize("mode, transparent, masked", [
    ("RGB", None, False), ("L", None, False), ("CMYK", None, False), ("RGBA", None, True),
    ("RGBA", "opaque", False), ("P", "an index", True), ("P", None, False), ("LA", None, True),
])
def test_the_shape_of_a_cmyk_picture_is_what_converting_it_gives(tmp_path, mode, transparent, masked):
    from printkit.render.cmyk import cmyk_picture, cmyk_shape

    img = noise("RGBA" if mode in ("RGBA", "P", "LA") else mode, size=(31, 17))
    if transparent == "opaque":
        img.putalpha(255)
    if mode == "P":
        img = img.convert("RGB").convert("P")
        transparent = img.getpixel((0, 0)) if transparent else None  # an index the picture uses
    elif mode == "LA":
        img = img.convert("LA")
    buffer = io.BytesIO()
    extra = {"transparency": transparent} if mode == "P" and transparent is not None else {}
    img.save(buffer, "JPEG" if mode == "CMYK" else "PNG", **extra)
    data = buffer.getvalue()
    image, alpha = cmyk_picture(data)
    assert cmyk_shape(data) == (image.width, image.height, alpha is not None) == (31, 17, masked)
