"""The floor for the art decks of ``art_decks.py``: plain reportlab, nothing else.

Reads ``cards.csv`` of a deck folder and draws every card on A4, 3 x 3 per sheet, each front page
followed by its back page (mirrored for a long-edge flip), crop marks in the margins, with the
same embedded, subset TrueType font as printkit (Pretendard Bold). Each front has the layout's
boxes: a background, a title band with the title, the card's picture (``canvas.drawImage`` by
file name, scaled to cover its window and clipped to it) and a rounded frame; each back a coloured
panel with its label.

It writes the two PDFs printkit writes for a deck's sheets (OUT.pdf, fronts with their backs, and
OUT-fronts.pdf, the fronts alone) with printkit's library settings: invariant, Flate-compressed
binary streams (no ASCII85: reportlab's default would push every JPEG through its charmap codec),
the same font. What it does less than printkit: no alignment test or manifest, no form XObjects,
no checks of the spec or the pictures.

    python benchmarks/floor_art_decks.py DECK_FOLDER OUT.pdf
"""

import atexit
import csv
import gc
import sys
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

# Streams as printkit writes them: binary, Flate-compressed, not ASCII85 (reportlab's default
# encodes every stream, pictures included, in ASCII85 through its charmap codec).
rl_config.useA85 = 0

FONTS = Path(__file__).resolve().parent.parent / "fonts"
BOLD = "Pretendard-Bold"
W, H, BLEED = 63.5, 88.9, 3.175  # mm
PAGE_W, PAGE_H = 210.0, 297.0
ART = (4.0, 15.0, 55.5, 45.0)  # x, y from the top, width, height (mm)
SIZE = (1000, 1400)  # the pictures' shape, 5:7 (art_decks.py makes 1000 x 1400, and 1500 x 2100 for photo)


def front(c, row, folder):
    c.setFillColor("#fbf8f1")
    c.rect(-BLEED, -H - BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setFillColor("#8c2f39")
    c.rect(-BLEED, -14.0, W + 2 * BLEED, 14.0 + BLEED, stroke=0, fill=1)
    c.setFillColor("#ffffff")
    c.setFont(BOLD, 4.5)
    c.drawString(4.0, -7.5 - 0.35 * 4.5, row["title"])
    x, y, w, h = ART
    scale = max(w / SIZE[0], h / SIZE[1])  # cover
    dw, dh = SIZE[0] * scale, SIZE[1] * scale
    c.saveState()
    p = c.beginPath()
    p.rect(x, -y - h, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.drawImage(str(folder / "art" / row["art"]), x + (w - dw) / 2, -y - h + (h - dh) / 2, dw, dh, mask="auto")
    c.restoreState()
    c.setStrokeColor("#1d1d1f")
    c.setLineWidth(0.3)
    c.roundRect(2.0, -86.9, 59.5, 84.9, 2.0, stroke=1, fill=0)


def back(c):
    c.setFillColor("#2b2d42")
    c.rect(-BLEED, -H - BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setFillColor("#ffffff")
    c.setFont(BOLD, 9.0)
    c.drawCentredString(W / 2, -H / 2 - 3.0, "ART")


def place(c, x, y, draw, *args):
    """Draw a card with its trim's top-left at page (x, y) mm from the top-left, clipped to the trim."""
    c.saveState()
    c.translate(x * mm, (PAGE_H - y) * mm)
    c.scale(mm, mm)
    p = c.beginPath()
    p.rect(0, -H, W, H)
    c.clipPath(p, stroke=0, fill=0)
    draw(c, *args)
    c.restoreState()


def main(folder, out):
    folder = Path(folder)
    pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "Pretendard-Bold.ttf")))
    with open(folder / "cards.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    def write(out, backs):
        """One of the two PDFs printkit writes: the duplex sheets (fronts, then their backs), or
        the fronts alone."""
        c = Canvas(out, pagesize=(PAGE_W * mm, PAGE_H * mm), invariant=1, initialFontName=BOLD)
        left, top = (PAGE_W - 3 * W) / 2, (PAGE_H - 3 * H) / 2
        slots = [(left + col * W, top + row * H) for row in range(3) for col in range(3)]
        for start in range(0, len(rows), 9):
            chunk = rows[start:start + 9]
            for (x, y), row in zip(slots, chunk):
                place(c, x, y, front, row, folder)
            c.setLineWidth(0.2 * mm)
            c.setStrokeColor("#000000")
            for i in range(4):
                c.line((left + i * W) * mm, (PAGE_H - top + 1) * mm, (left + i * W) * mm, PAGE_H * mm)
                c.line((left + i * W) * mm, (top - 1) * mm, (left + i * W) * mm, 0)
                c.line(0, (top + i * H) * mm, (left - 1) * mm, (top + i * H) * mm)
                c.line((PAGE_W - left + 1) * mm, (top + i * H) * mm, PAGE_W * mm, (top + i * H) * mm)
            c.showPage()
            if backs:
                for (x, y), _ in zip(slots, chunk):
                    place(c, PAGE_W - x - W, y, back)
                c.showPage()
        c.save()

    write(out, True)
    write(str(Path(out).with_name(Path(out).stem + "-fronts" + Path(out).suffix)), False)


if __name__ == "__main__":
    # printkit's interpreter settings: a build runs without the cycle collector and freezes what
    # is left at exit rather than have the last collection walk it (printkit/cli.py).
    gc.disable()
    atexit.register(gc.freeze)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "floor_art_decks.pdf")
