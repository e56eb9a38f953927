"""PNG backend: rasterises a per-card PDF with PDFium, so a card's PNG and its PDF never disagree.

Only this module speaks pixels. There is one drawing path: :mod:`printkit.render.pdf` draws the
ops; this module turns the per-card PDF (its page is the card's bleed box) into an RGB image of
exactly :func:`card_pixel_size` pixels, the page stretched edge to edge, and encodes it as a PNG
with 300 DPI metadata. PDFium renders the same bytes to the same pixels, and the PNG encoder
writes no timestamps, so the same card gives the same PNG bytes.

PDFium is not thread-safe: every call into it goes through :data:`_PDFIUM` (a lock), and every
document, page and bitmap is closed before the lock is released.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from contextlib import contextmanager
from functools import lru_cache
from typing import Sequence

from PIL import Image as PILImage

from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.layout.ops import Face
from printkit.render.pngfile import PNG_SIGNATURE, chunk
from printkit.units import mm_to_px

DPI = 300

# zlib's run-length strategy: a picture's rows, filtered as PNG does, deflate to files about a
# tenth larger than zlib's default strategy gives, in half the time. Pillow's ``compress_type``.
ENCODING = zlib.Z_RLE

# A card of flat colour, rules and text (most cards; not a photograph) is written with its rows
# unfiltered and deflated at zlib's level 3: Pillow picks a PNG filter for every row, which is two
# thirds of its time on such a card (a 300 DPI poker card: 10 ms against 24 ms, files within a
# few kilobytes either way), and Pillow has no setting to skip it. A card whose sampled rows
# deflate to more than FLAT_RATIO of their bytes is photographic: filtering makes it a quarter
# smaller, so Pillow writes it.
FLAT_LEVEL = 3
FLAT_RATIO = 0.10
_SAMPLE_EVERY = 16  # rows
# Screen previews (the proof page's contact sheets) are written unfiltered at zlib's level 1
# whatever the art: a preview is not print output, and deflating its rows is most of its cost.
# Measured on sheets of nine 100 DPI cards: flat art (Calc) 5% faster than at FLAT_LEVEL, files 4%
# larger; painted art with grain 2.3x faster than Pillow's filtered rows (55 ms against 24 ms a
# sheet), files 20% larger; Stack's patterned cards, which the flat test calls photographic, 3x
# faster and half the size.
PREVIEW_LEVEL = 1
# Larger images (a Tabletop Simulator sheet of seventy cards) go to Pillow: over so many rows its
# filters find far more that repeats, and the image is never copied whole.
FLAT_MAX_PIXELS = 4_000_000

# One PDFium call at a time in this process (the library keeps global state).
_PDFIUM = threading.Lock()


def card_pixel_size(size: CardSize, dpi: float = DPI) -> tuple[int, int]:
    """Pixel size of a card image with bleed, e.g. 825 x 1125 for 2.5 x 3.5 in with 1/8 in bleed."""
    return round(mm_to_px(size.bleed_width_mm, dpi)), round(mm_to_px(size.bleed_height_mm, dpi))


def rasterise(pdf: bytes, size: CardSize, dpi: float = DPI, pixels: tuple[int, int] | None = None) -> PILImage.Image:
    """The first page of a per-card PDF (``pdf``, as :func:`card_page` lays it out) as an RGB image.

    The page (the card's bleed box) fills exactly :func:`card_pixel_size` pixels (or ``pixels``,
    a print service's size); the scale per axis is what makes the rounded pixel size meet the
    page's edges.
    """
    return rasterise_pages(pdf, [(size, dpi)], [pixels])[0]


def rasterise_pages(pdf: bytes, pages: Sequence[tuple[CardSize, float]],
                    pixels: Sequence[tuple[int, int] | None] = (), first: int = 0) -> list:
    """Page *first + i* of ``pdf`` as an RGB image of :func:`card_pixel_size` for ``pages[i]`` (size,
    dpi), or of ``pixels[i]`` when given (a print service's size).

    One document for many faces shares its fonts and pictures between pages, and PDFium parses
    it once.
    """
    pdfium = _pdfium()
    _steady_allocator()
    with _document(pdfium, pdf, first, len(pages)) as document:
        out = []
        for index, (size, dpi) in enumerate(pages):
            image = _render_page(pdfium, document, first + index, size, dpi,
                                 pixels[index] if index < len(pixels) else None)
            out.append(image)
        return out


def _rasterise_into(pdf: bytes, pages: Sequence[tuple[CardSize, float]], first: int, rows: bytearray,
                    stride: int, starts: Sequence[int]) -> None:
    """Page *first + i* of ``pdf`` drawn into ``rows`` (white) from byte ``starts[i]`` on, ``stride``
    bytes a row (:func:`stacked_png`)."""
    import ctypes

    pdfium = _pdfium()
    _steady_allocator()
    buffer = (ctypes.c_ubyte * len(rows)).from_buffer(rows)
    try:
        with _document(pdfium, pdf, first, len(pages)) as document:
            for index, ((size, dpi), start) in enumerate(zip(pages, starts)):
                _render_page(pdfium, document, first + index, size, dpi,
                             into=(ctypes.addressof(buffer) + start, stride))
    finally:
        del buffer  # lets ``rows`` be resized or freed again


@contextmanager
def _document(pdfium, pdf: bytes, first: int, count: int):
    """``pdf`` open in PDFium, holding :data:`_PDFIUM`, with pages *first* … *first + count - 1*."""
    import ctypes

    with _PDFIUM:
        data = (ctypes.c_char * len(pdf)).from_buffer_copy(pdf)  # PDFium reads it until it is closed
        document = pdfium.FPDF_LoadMemDocument(data, len(pdf), None)
        if not document:
            raise BuildError(f"cannot rasterise a card's PDF: PDFium error {pdfium.FPDF_GetLastError()}")
        try:
            if pdfium.FPDF_GetPageCount(document) < first + count:
                raise BuildError(f"cannot rasterise pages {first + 1} to {first + count} "
                                 f"of a PDF of {pdfium.FPDF_GetPageCount(document)}")
            yield document
        finally:
            pdfium.FPDF_CloseDocument(document)


@lru_cache(maxsize=1)
def _pdfium():
    """PDFium's C functions, the library set up once per process.

    Its bindings alone (``pypdfium2_raw``): pypdfium2's Python layer over them took as long again
    to import (about 16 ms of every build that draws a proof page) and printkit calls only these.
    """
    import pypdfium2_raw as pdfium

    # As pypdfium2 sets it up (which does nothing when it, or this, did so first).
    pdfium.FPDF_InitLibraryWithConfig(pdfium.FPDF_LIBRARY_CONFIG(
        version=2, m_pUserFontPaths=None, m_pIsolate=None, m_v8EmbedderSlot=0))
    return pdfium


@lru_cache(maxsize=1)
def _steady_allocator() -> None:
    """Let glibc keep large buffers (a card's pixels, its PNG) in its heap for the next card.

    By default it maps every allocation over 128 KB afresh and unmaps it when freed, so each
    card's bitmap and encoding buffers cost page faults: about a fifth of a per-card PNG's CPU
    time, all of it system time (Emberfall's 66 PNGs: 111,000 minor faults against 24,000). Set
    once, when a process first rasterises; elsewhere (another C library) nothing changes.
    """
    import platform

    if platform.libc_ver()[0] != "glibc":
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    mallopt(m_mmap_threshold, 64 << 20)
    mallopt(m_trim_threshold, 128 << 20)


def _render_page(pdfium, document, index: int, size: CardSize, dpi: float,
                 pixels: tuple[int, int] | None = None,
                 into: tuple[int, int] | None = None) -> PILImage.Image | None:
    """One page of an open document (the caller holds :data:`_PDFIUM`), as an image; or, ``into``
    (an address and the bytes a row there takes, already white), drawn into that memory, and None."""
    import ctypes

    width_px, height_px = pixels or card_pixel_size(size, dpi)
    page = pdfium.FPDF_LoadPage(document, index)
    if not page:
        raise BuildError(f"cannot rasterise page {index + 1} of a card's PDF: PDFium error {pdfium.FPDF_GetLastError()}")
    try:
        if into is None:
            stride = 3 * width_px
            pixels_buffer = (ctypes.c_ubyte * (stride * height_px))()
            address = pixels_buffer
        else:
            address, stride = into
        bitmap = pdfium.FPDFBitmap_CreateEx(width_px, height_px, pdfium.FPDFBitmap_BGR, address, stride)
        try:
            # White, then antialiased paths, text and images (the default); no annotations, no LCD
            # text; bytes in RGB order (FPDF_REVERSE_BYTE_ORDER). Memory handed in is white already:
            # PDFium fills three-byte pixels one at a time, slower than setting the bytes at once.
            if into is None:
                pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width_px, height_px, 0xFFFFFFFF)
            pdfium.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width_px, height_px, 0,
                                         pdfium.FPDF_REVERSE_BYTE_ORDER)
            if into is not None:
                return None
            # A copy: Pillow keeps RGB as four bytes a pixel, so it cannot map three-byte pixels.
            return PILImage.frombuffer("RGB", (width_px, height_px), pixels_buffer, "raw", "RGB", stride, 1)
        finally:
            pdfium.FPDFBitmap_Destroy(bitmap)
    finally:
        pdfium.FPDF_ClosePage(page)


def png_bytes(image: PILImage.Image, dpi: float = DPI) -> bytes:
    """PNG bytes without timestamps or other varying chunks (the same image gives the same bytes).

    The image is tagged sRGB: an embedded ICC profile (``iCCP``), as printkit draws in sRGB.
    """
    from printkit.render.color import srgb_icc

    icc = srgb_icc()
    if image.mode == "RGB" and 0 < image.width * image.height <= FLAT_MAX_PIXELS:
        flat = _unfiltered_png(image, dpi, icc)
        if flat is not None:
            return flat
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_type=ENCODING, dpi=(dpi, dpi), icc_profile=icc)
    return buffer.getvalue()


def _unfiltered_png(image: PILImage.Image, dpi: float, icc: bytes) -> bytes | None:
    """An 8-bit RGB PNG of ``image``, every row with filter 0, with the chunks Pillow writes for
    the same image (ICC profile, resolution) in the same order; None when the image is not flat
    art (every sixteenth row, deflated fast, keeps more than :data:`FLAT_RATIO` of its bytes)."""
    stride = 3 * image.width
    # Each row after a zero byte (PNG's filter "none"), as the data stream holds it: Pillow's
    # encoder pads every row it writes to the stride asked for with zeros, so the padding after one
    # row is the next row's filter byte (a join of a slice per row cost a poker card's PNG a tenth
    # of its time).
    padded = image.tobytes("raw", ("RGB", stride + 1))
    rows = b"\0" + memoryview(padded)[:-1]
    del padded
    return _flat_png(rows, image.width, image.height, dpi, icc)


def _flat_png(rows, width: int, height: int, dpi: float, icc: bytes) -> bytes | None:
    """The PNG of ``rows`` (``height`` rows of ``width`` RGB pixels, each after its filter byte 0)
    as :func:`_unfiltered_png` writes it; None when they are not flat art."""
    stride = 3 * width
    sample = b"".join(rows[at + 1:at + 1 + stride] for at in range(0, len(rows), _SAMPLE_EVERY * (stride + 1)))
    if len(zlib.compress(sample, 1)) > FLAT_RATIO * len(sample):
        return None
    return _rows_png(rows, width, height, dpi, icc, FLAT_LEVEL)


def _rows_png(rows, width: int, height: int, dpi: float, icc: bytes, level: int) -> bytes:
    """The PNG of unfiltered ``rows`` (as :func:`_flat_png` takes them), deflated at ``level``."""
    per_metre = int(dpi / 0.0254 + 0.5)
    return b"".join((
        PNG_SIGNATURE,
        chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
        chunk(b"iCCP", b"ICC Profile\0\0" + zlib.compress(icc)),
        chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
        chunk(b"IDAT", zlib.compress(rows, level)),
        chunk(b"IEND", b""),
    ))


def stacked_png(pdf: bytes, pages: Sequence[tuple[CardSize, float]], first: int = 0, dpi: float = DPI) -> bytes:
    """A screen preview: one PNG of pages *first* … of ``pdf`` (each (size, dpi) as ``pages``
    says, the pixels :func:`rasterise_pages` gives), stacked top to bottom at their left edge,
    white where a narrower page leaves room; ``dpi`` is the PNG's stated resolution.

    PDFium draws each page straight into the PNG's rows (each after its filter byte), so no
    picture is copied between the raster and the encoder, and the rows are written unfiltered at
    :data:`PREVIEW_LEVEL` whatever the art (see there).
    """
    from printkit.render.color import srgb_icc

    sizes = [card_pixel_size(size, page_dpi) for size, page_dpi in pages]
    width, height = max(w for w, _ in sizes), sum(h for _, h in sizes)
    row = 3 * width + 1
    # White everywhere (PDFium draws each page onto it, and a narrower page leaves it beside),
    # every row after its filter byte 0 (none).
    rows = bytearray(b"\xff") * (row * height)
    rows[0::row] = bytes(height)
    top = 0
    targets = []
    for _, h in sizes:
        targets.append(top * row + 1)
        top += h
    _rasterise_into(pdf, pages, first, rows, row, targets)
    return _rows_png(rows, width, height, dpi, srgb_icc(), PREVIEW_LEVEL)


def card_png(pdf: bytes, size: CardSize, dpi: float = DPI) -> bytes:
    """The PNG of a per-card PDF: what ``build --per-card`` writes beside each card's PDF."""
    return png_bytes(rasterise(pdf, size, dpi), dpi)


def render_face(face: Face, size: CardSize, dpi: float = DPI) -> PILImage.Image:
    """A face with its bleed as an RGB image: its per-card PDF, rasterised (tests, figures)."""
    from printkit.layout.imposition import card_page
    from printkit.render.pdf import render_pages

    return rasterise(render_pages([card_page(face, size)]), size, dpi)
