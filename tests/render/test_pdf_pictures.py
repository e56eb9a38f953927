"""Pictures in PDFs: PNGs embedded as they are, checked without a full decode, decoded at most once."""

import io
import random

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

from printkit.memo import Memo
from printkit.errors import BuildError
from printkit.images import ImageError, check_picture, png_info
from printkit.layout.geometry import Size
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Image
from printkit.render import pictures
from printkit.render.pdf import render_pages


def _noisy(mode="RGB", size=(37, 23)):
    rng = random.Random(7)
    img = PILImage.new(mode, size)
    bands = len(img.getbands())
    img.putdata([tuple(rng.randrange(256) for _ in range(bands)) if bands > 1 else rng.randrange(256)
                 for _ in range(size[0] * size[1])])
    return img


def _embedded_pixels(pdf: bytes) -> PILImage.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        images = [obj for obj in document[0].get_objects(max_depth=3) if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
        assert len(images) == 1
        return images[0].get_bitmap(render=False).to_pil().convert("RGB")
    finally:
        document.close()


def _one_picture_pdf(path) -> bytes:
    face = Face((Image(0, 0, 50, 50, path, fit="stretch"),))
    return render_pages([Page(Size(50, 50), (Placement(face, 0, 0),))])


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_a_png_is_embedded_losslessly_as_its_own_data(tmp_path, mode):
    img = _noisy(mode)
    path = tmp_path / "art.png"
    img.save(path)
    pdf = _one_picture_pdf(path)
    idat = b"".join(path.read_bytes()[o:o + n] for o, n in png_info(path.read_bytes()).idat)
    assert idat in pdf  # the file's own compressed data, not compressed again
    assert _embedded_pixels(pdf).tobytes() == img.convert("RGB").tobytes()


def test_a_png_with_alpha_is_decoded_once_per_process(tmp_path, monkeypatch):
    path = tmp_path / "alpha.png"
    _noisy("RGBA").save(path)
    calls = []
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    real = PDFImageXObject.loadImageFromSRC

    def counting(self, image):
        calls.append(image)
        return real(self, image)

    monkeypatch.setattr(PDFImageXObject, "loadImageFromSRC", counting)
    monkeypatch.setattr(pictures, "_DECODED", Memo("decoded", 4096, max_bytes=256 << 20))
    first, second = _one_picture_pdf(path), _one_picture_pdf(path)
    assert first == second
    assert len(calls) == 2  # the picture and its alpha channel (the soft mask), for both PDFs
    assert b"/SMask" in first


def test_a_png_changed_after_it_was_checked_is_never_drawn(tmp_path):
    path = tmp_path / "art.png"
    _noisy().save(path)
    _one_picture_pdf(path)
    data = bytearray(path.read_bytes())
    data[60] ^= 0xFF  # inside the image data: its CRC no longer holds
    path.write_bytes(bytes(data))
    # The picture drawn is the one checked; the file no longer holds it, so the build stops.
    with pytest.raises(BuildError, match="art.png' changed while the build drew it"):
        _one_picture_pdf(path)


def test_damaged_pictures_are_refused_without_a_full_decode(tmp_path):
    buffer = io.BytesIO()
    _noisy(size=(200, 100)).save(buffer, "PNG")
    png = buffer.getvalue()
    check_picture(png)
    for damaged in (png[:len(png) // 2], png[:-12], png[:70] + bytes([png[70] ^ 1]) + png[71:]):
        with pytest.raises(ImageError, match="cannot be read"):
            check_picture(damaged)
    buffer = io.BytesIO()
    _noisy(size=(200, 100)).save(buffer, "JPEG")
    jpeg = buffer.getvalue()
    check_picture(jpeg)
    with pytest.raises(ImageError, match="cannot be read"):
        check_picture(jpeg[:len(jpeg) // 2])


def test_a_png_with_valid_crcs_but_broken_rows_is_refused():
    import struct
    import zlib

    rows = b"".join(b"\x09" + b"\x00" * 30 for _ in range(10))  # filter type 9 does not exist

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 10, 10, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    with pytest.raises(ImageError, match="row filter"):
        check_picture(png)


def test_a_png_whose_data_unpacks_far_past_its_size_is_refused_without_being_held():
    import struct
    import tracemalloc
    import zlib

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    squeeze = zlib.compressobj(9)
    zeros = bytes(1 << 20)
    bomb = b"".join(squeeze.compress(zeros) for _ in range(200)) + squeeze.flush()  # 200 MB in 200 KB
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 10, 10, 8, 0, 0, 0, 0))
           + chunk(b"IDAT", bomb) + chunk(b"IEND", b""))
    tracemalloc.start()
    try:
        with pytest.raises(ImageError, match="holds more image data than its size"):
            check_picture(png)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20  # the 10x10 header promises 1,100 bytes: nothing near the 200 MB is held


def test_checked_pictures_kept_stay_within_their_bytes(tmp_path, monkeypatch):
    from printkit import images

    paths = []
    for n in range(4):
        paths.append(tmp_path / f"art{n}.png")
        _noisy(size=(60, 60)).save(paths[-1])
    size = len(paths[0].read_bytes())
    monkeypatch.setattr(images, "_PICTURES", Memo("pictures", 64, max_bytes=2 * size + size // 2))  # room for two
    for path in paths:
        images.checked_picture(path)
    assert [path in images._PICTURES for path in paths] == [False, False, True, True]  # the oldest went first
    assert images._PICTURES.kept_bytes == 2 * size
    read = []
    real = images._read_picture
    monkeypatch.setattr(images, "_read_picture", lambda path: read.append(path) or real(path))
    assert images.picture(paths[3]).width == 60 and read == []  # kept: not read again
    let_go = images.picture(paths[0])  # let go, yet known by its file's identity: not read either
    assert let_go.width == 60 and read == [] and paths[0] not in images._PICTURES
    assert let_go.data == paths[0].read_bytes() and read == [paths[0]]  # its bytes read where they are needed
    _noisy(size=(61, 60)).save(paths[0])  # another picture now: the one checked is gone
    with pytest.raises(ImageError, match="changed since it was checked"):
        let_go.data
    assert images.picture(paths[0]).digest != let_go.digest  # the file as it is now, read and checked


def test_a_picture_read_again_is_checked_by_its_hash_and_other_bytes_in_full(tmp_path, monkeypatch):
    from printkit import images

    monkeypatch.setattr(images, "_PICTURES", Memo("pictures", 1))  # each picture read lets the one before go
    monkeypatch.setattr(images, "_VERDICTS", Memo("verdicts", 100))
    checks = []
    real = images.check_picture
    monkeypatch.setattr(images, "check_picture", lambda data: checks.append(len(data)) or real(data))
    jpeg, png = tmp_path / "art.jpg", tmp_path / "art.png"
    _noisy(size=(80, 60)).save(jpeg, "JPEG")
    _noisy(size=(60, 40)).save(png)
    for path in (jpeg, png, jpeg, png):  # as two PDFs of a big deck draw them
        images.checked_picture(path)
    assert len(checks) == 2  # decoded (JPEG) and inflated (PNG) once each, however often read
    assert images.picture(jpeg).width == 80 and len(checks) == 2
    damaged = jpeg.read_bytes()
    jpeg.write_bytes(damaged[:len(damaged) // 2])  # other bytes at the same path: checked in full
    with pytest.raises(ImageError, match="cannot be read"):
        images.checked_picture(jpeg)
    assert len(checks) == 3


def test_a_jpeg_let_go_from_memory_is_read_whole_only_where_its_bytes_are_written(tmp_path, monkeypatch):
    from printkit import images

    monkeypatch.setattr(images, "_PICTURES", Memo("pictures", 1))
    monkeypatch.setattr(pictures, "_JPEG_MODELS", Memo("JPEG entries", 10))
    paths = [tmp_path / "a.jpg", tmp_path / "b.jpg", tmp_path / "c.jpg"]
    _noisy(size=(80, 60)).save(paths[0], "JPEG")
    _noisy("CMYK", size=(70, 50)).save(paths[1], "JPEG")
    _noisy(size=(60, 40)).save(paths[2], "JPEG")
    comment = b"\xff\xfe" + (60_002).to_bytes(2, "big") + b"x" * 60_000
    data = paths[2].read_bytes()  # comments longer than the head read for the frame header
    paths[2].write_bytes(data[:2] + comment + comment + data[2:])
    for path in reversed(paths):  # a.jpg kept in memory, the others let go
        images.checked_picture(path)
    whole = []
    real = images.bytes_checked
    monkeypatch.setattr(images, "bytes_checked", lambda path, digest: whole.append(path.name) or real(path, digest))
    face = Face(tuple(Image(0, 20 * n, 20, 20, path, fit="stretch") for n, path in enumerate(paths)))
    pdf = render_pages([Page(Size(60, 60), (Placement(face, 0, 0),))])
    # Each written once; its header read from its first bytes, but the long one's, read whole.
    assert sorted(whole) == ["a.jpg", "b.jpg", "c.jpg", "c.jpg"]
    for path in paths:
        assert path.read_bytes() in pdf  # the file's own bytes, not encoded again
    document = pdfium.PdfDocument(pdf)
    try:
        sizes = sorted(obj.get_px_size() for obj in document[0].get_objects(max_depth=3)
                       if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE)
    finally:
        document.close()
    assert sizes == [(60, 40), (70, 50), (80, 60)]
