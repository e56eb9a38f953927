"""The speed floor for `printkit build calc --variant expert`: plain reportlab, nothing else.

Draws the 177 Calc expert cards (44 per symbol: numbers -1..9 x 4 copies, plus a joker) on A4,
3 x 3 per sheet, with each front page followed by its back page and crop marks in the margins,
using the same embedded, subset TrueType font as printkit (Pretendard Bold). Each face has what a
Calc face has: a background to the bleed, a rounded panel, the number in two corners (one turned),
a small and a large symbol shape. Backs: a coloured panel, a frame and a label.

It writes the two PDFs printkit writes for a deck's sheets (OUT.pdf, fronts with their backs, and
OUT-fronts.pdf, the fronts alone) with printkit's library settings: invariant, Flate-compressed
binary streams (no ASCII85), the same font. The fastest plain way to the same output: the floor.

    python benchmarks/floor_calc.py OUT.pdf
"""

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

FONT = Path(__file__).resolve().parent.parent / "fonts" / "Pretendard-Bold.ttf"
W, H, BLEED = 63.5 * mm, 88.9 * mm, 3.175 * mm
PAGE_W, PAGE_H = 210 * mm, 297 * mm
COLORS = {"plus": "#0072b2", "minus": "#d55e00", "times": "#009e73", "power": "#cc79a7", "joker": "#e69f00"}


def cards():
    for symbol in ("plus", "minus", "times", "power"):
        for number in range(-1, 10):
            for _ in range(4):
                yield symbol, number
    yield "joker", None


def symbol_shape(c, symbol, cx, cy, size):
    t = size * 0.22
    p = c.beginPath()
    if symbol in ("plus", "joker"):
        p.rect(cx - size / 2, cy - t / 2, size, t)
        p.rect(cx - t / 2, cy - size / 2, t, size)
    elif symbol == "minus":
        p.rect(cx - size / 2, cy - t / 2, size, t)
    elif symbol == "times":
        c.saveState()
        c.translate(cx, cy)
        c.rotate(45)
        p.rect(-size / 2, -t / 2, size, t)
        p.rect(-t / 2, -size / 2, t, size)
        c.drawPath(p, stroke=0, fill=1, fillMode=1)  # non-zero winding: overlapping bars stay filled
        c.restoreState()
        return
    else:
        p.moveTo(cx - size / 2, cy - size / 3)
        p.lineTo(cx, cy + size / 2)
        p.lineTo(cx + size / 2, cy - size / 3)
        p.lineTo(cx + size / 2 - t, cy - size / 3)
        p.lineTo(cx, cy + size / 2 - 1.6 * t)
        p.lineTo(cx - size / 2 + t, cy - size / 3)
        p.close()
    c.drawPath(p, stroke=0, fill=1, fillMode=1)  # non-zero winding: overlapping bars stay filled


def front(c, x, y, symbol, number):
    color = COLORS[symbol]
    c.setFillColor("#fbf8f1")
    c.rect(x, y, W, H, stroke=0, fill=1)
    c.setFillColor("#e8eef4")
    c.setStrokeColor(color)
    c.setLineWidth(0.8 * mm)
    c.roundRect(x + 3 * mm, y + 3 * mm, W - 6 * mm, H - 6 * mm, 3 * mm, stroke=1, fill=1)
    c.setFillColor(color)
    if number is not None:
        c.setFont("Pretendard-Bold", 12 * mm)
        c.drawRightString(x + W - 5 * mm, y + H - 15 * mm, str(number))
        c.saveState()
        c.translate(x + 5 * mm, y + 15 * mm)
        c.rotate(180)
        c.drawRightString(0, 0, str(number))
        c.restoreState()
        symbol_shape(c, symbol, x + W - 10 * mm, y + H - 22 * mm, 6 * mm)
        symbol_shape(c, symbol, x + 10 * mm, y + 22 * mm, 6 * mm)
    symbol_shape(c, symbol, x + W / 2, y + H / 2, 30 * mm)


def back(c, x, y):
    c.setFillColor("#1f3b5a")
    c.rect(x, y, W, H, stroke=0, fill=1)
    c.setStrokeColor("#9aa9bb")
    c.setLineWidth(0.8 * mm)
    c.roundRect(x + 4 * mm, y + 4 * mm, W - 8 * mm, H - 8 * mm, 3 * mm, stroke=1, fill=0)
    c.setFillColor("#ffffff")
    c.setFont("Pretendard-Bold", 9 * mm)
    c.drawCentredString(x + W / 2, y + H / 2 - 3 * mm, "CALC")


def main(out):
    pdfmetrics.registerFont(TTFont("Pretendard-Bold", str(FONT)))
    def write(out, backs):
        """One of the two PDFs printkit writes: the duplex sheets (fronts, then their backs), or
        the fronts alone."""
        c = Canvas(out, pagesize=(PAGE_W, PAGE_H), invariant=1, initialFontName="Pretendard-Bold")
        left, top = (PAGE_W - 3 * W) / 2, (PAGE_H - 3 * H) / 2
        slots = [(left + col * W, PAGE_H - top - (row + 1) * H) for row in range(3) for col in range(3)]
        all_cards = list(cards())
        for start in range(0, len(all_cards), 9):
            chunk = all_cards[start:start + 9]
            for (x, y), (symbol, number) in zip(slots, chunk):
                front(c, x, y, symbol, number)
            c.setLineWidth(0.2 * mm)
            c.setStrokeColor("#000000")
            for i in range(4):
                c.line(left + i * W, PAGE_H - top + BLEED + 1 * mm, left + i * W, PAGE_H)
                c.line(left + i * W, top - BLEED - 1 * mm, left + i * W, 0)
                c.line(0, top + i * H, left - BLEED - 1 * mm, top + i * H)
                c.line(PAGE_W - left + BLEED + 1 * mm, top + i * H, PAGE_W, top + i * H)
            c.showPage()
            if backs:
                for (x, y), _ in zip(slots, chunk):
                    back(c, PAGE_W - x - W, y)  # mirrored for a long-edge flip
                c.showPage()
        c.save()

    write(out, True)
    write(str(Path(out).with_name(Path(out).stem + "-fronts" + Path(out).suffix)), False)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "floor_calc.pdf")
