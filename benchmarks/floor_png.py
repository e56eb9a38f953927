"""The speed floor for a per-card PNG: PDFium's raster of the card's PDF and a plain PNG writer.

The fastest plain way to the pixels and the file printkit writes for a card, with the same
libraries and settings: each per-card PDF (rendered beforehand, untimed) is opened with
pypdfium2 and rasterised at 300 DPI into one bitmap per size, made once and reused (no
allocation per card), its rows read straight from PDFium's buffer, each after a zero filter
byte, deflated with zlib at level 3 and written as PNG chunks (the same as printkit's flat-art
PNGs, without the sRGB profile and resolution chunks, which cost nothing). Beside it, in the same
process and on the same PDFs, printkit's own way to the same pixels and encoding
(:func:`printkit.render.png.card_png`), and the ratio of the two, CPU time per card.

The cards are Clag's distinct faces (its 52 fronts, its player aids and its back), as
``png_speed.py`` times them.

    PYTHONPATH=. python benchmarks/floor_png.py [--runs 5]

The target (issue 29): printkit's per-card PNG within 1.5x of this floor; the last line says
whether it is met.
"""

from __future__ import annotations

import argparse
import os
import statistics
import struct
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5
DPI = 300


def card_pdfs() -> list[tuple[bytes, object]]:
    """Each distinct Clag face as its per-card PDF, with its card size."""
    from printkit.pipeline.build import load_decks
    from printkit.pipeline.context import BuildContext, BuildOptions
    from printkit.layout import templates
    from printkit.layout.imposition import card_page
    from printkit.pipeline.names import all_cards, card_key
    from printkit.render.pdf import render_pages

    deck = load_decks([str(ROOT / "decks" / "clag.yaml")])[0]
    with tempfile.TemporaryDirectory() as tmp:
        faces = BuildContext(BuildOptions(out_dir=Path(tmp))).faces(deck)
        distinct = list({card_key(c): c for c in all_cards(deck) if not templates.is_page(c)}.values())
        jobs = [(faces.front(c), c.size) for c in distinct] + [(faces.back(distinct[0]), distinct[0].size)]
    return [(render_pages([card_page(face, size)]), size) for face, size in jobs]


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


class Floor:
    """PDFium into reused bitmaps, rows straight from its buffer, zlib, PNG chunks."""

    def __init__(self) -> None:
        import ctypes

        import pypdfium2 as pdfium
        import pypdfium2.raw as raw

        self.pdfium, self.raw, self.ctypes = pdfium, raw, ctypes
        self.bitmaps: dict[tuple[int, int], tuple[object, object]] = {}

    def png(self, pdf: bytes, width: int, height: int) -> bytes:
        raw, ctypes = self.raw, self.ctypes
        if (width, height) not in self.bitmaps:
            # One more byte a row than the pixels: the filter byte, written in place before each row.
            stride = 3 * width + 1
            buffer = ctypes.create_string_buffer(stride * height + 1)
            bitmap = raw.FPDFBitmap_CreateEx(width, height, raw.FPDFBitmap_BGR,
                                             ctypes.cast(ctypes.byref(buffer, 1), ctypes.c_void_p), stride)
            self.bitmaps[(width, height)] = (bitmap, buffer)
        bitmap, buffer = self.bitmaps[(width, height)]
        document = self.pdfium.PdfDocument(pdf)
        page = document[0]
        raw.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
        raw.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, raw.FPDF_REVERSE_BYTE_ORDER)
        page.close()
        document.close()
        stride = 3 * width + 1
        rows = bytearray(buffer.raw[:stride * height])
        rows[0::stride] = bytes(height)  # the filter bytes ("none"), over what the fill left there
        return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
                         _chunk(b"IDAT", zlib.compress(rows, 3)), _chunk(b"IEND", b"")))


def main() -> None:
    from printkit.render.png import card_pixel_size, card_png

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    pdfs = card_pdfs()
    floor = Floor()
    clock = time.process_time
    samples: dict[str, list[float]] = {"floor": [], "printkit": []}
    for run in range(args.runs + 1):  # the first pass is a warm-up (libraries loaded, bitmaps made)
        for name in samples:
            start = clock()
            for pdf, size in pdfs:
                if name == "floor":
                    floor.png(pdf, *card_pixel_size(size, DPI))
                else:
                    card_png(pdf, size, DPI)
            if run:
                samples[name].append((clock() - start) / len(pdfs) * 1000)
    floor_ms, printkit_ms = (statistics.median(samples[name]) for name in ("floor", "printkit"))
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; medians of {args.runs} passes "
          f"over {len(pdfs)} distinct Clag faces, alternating, CPU time")
    print(f"per card: floor (PDFium + plain PNG) {floor_ms:.1f} ms, printkit's card_png {printkit_ms:.1f} ms")
    ratio = printkit_ms / floor_ms
    print(f"printkit's per-card PNG: {ratio:.2f}x the floor (<= {TARGET}): {'met' if ratio <= TARGET else 'NOT MET'}")


if __name__ == "__main__":
    main()
