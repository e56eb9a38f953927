"""The speed floor for the data deck of ``data_deck.py``: plain reportlab, nothing else.

Reads ``cards.csv`` (10,000 rows) with the csv module and draws every card on A4, 3 x 3 per sheet,
each front page followed by its back page (mirrored for a long-edge flip), crop marks in the
margins, with the same embedded, subset TrueType fonts as printkit (Pretendard Regular and Pretendard
Bold from ``fonts/``). Each front has the boxes of the benchmark's layout: a background to the
bleed, a title band coloured by type, the title, a cost badge (ellipse and centred number), an art
window, the type line over a rule, the rules text with a star drawn for each ``:fire:``, the
flavour line in slanted regular type when the row has one, and a thin rounded frame. Each back is a
coloured panel with its label.

It writes the two PDFs printkit writes for a deck's sheets (OUT.pdf, fronts with their backs, and
OUT-fronts.pdf, the fronts alone) with printkit's library settings: invariant, Flate-compressed
binary streams (no ASCII85), the same fonts.

What it does less than printkit, honestly:

- Text is set at one size. The rules and flavour text are wrapped greedily to their box's width at
  their full size (the width of each word measured with ``pdfmetrics.stringWidth``, as
  ``simpleSplit`` does; ``:fire:`` counted as an icon-sized word and drawn as a star) and drawn
  even where the lines run past the box's bottom. printkit shrinks each text to the largest size
  on a 0.05 mm grid at which it fits (a binary search over sizes, every try a full line breaking),
  and also breaks over-long words, checks every character against the fonts and falls back to
  other fonts, and parses bold and italic markup. The title is measured once and scaled down
  when it is too wide, instead of searched for.
- No form XObjects, no per-face deduplication. printkit also writes the alignment test and the
  manifest, and checks the spec and every card's data.

    python benchmarks/floor_data_deck.py cards.csv OUT.pdf
"""

import atexit
import csv
import gc
import math
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
REGULAR, BOLD = "Pretendard-Regular", "Pretendard-Bold"
W, H, BLEED = 63.5, 88.9, 3.175  # mm
PAGE_W, PAGE_H = 210.0, 297.0
TYPES = {"Creature": "#8c2f39", "Spell": "#3d5a80", "Artifact": "#6b705c", "Land": "#5b8e7d", "Relic": "#a77b2c"}
INK, BACKGROUND, BACK = "#1d1d1f", "#fbf8f1", "#2b2d42"
LEADING = 1.2
SLANT = math.tan(math.radians(12))


def wrap(words, font, size, width):
    """Greedy lines of words (``:fire:`` as an icon-sized word) fitting ``width`` at ``size``."""
    space = pdfmetrics.stringWidth(" ", font, size)
    icon = 0.9 * size
    lines, line, used = [], [], 0.0
    for word in words:
        w = icon if word == ":fire:" else pdfmetrics.stringWidth(word, font, size)
        if line and used + space + w > width:
            lines.append(line)
            line, used = [], 0.0
        used += (space if line else 0.0) + w
        line.append((word, w))
    if line:
        lines.append(line)
    return lines


def star(c, cx, cy, side):
    p = c.beginPath()
    for k in range(10):
        r = side / 2 if k % 2 == 0 else side / 5
        a = math.pi / 2 + k * math.pi / 5
        (p.moveTo if k == 0 else p.lineTo)(cx + r * math.cos(a), cy + r * math.sin(a))
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def text_block(c, text, font, size, x, top, width, slant=False):
    """Wrapped text from the box's top (card frame: mm, y up from the card's top edge)."""
    space = pdfmetrics.stringWidth(" ", font, size)
    baseline = top - 0.85 * size
    for line in wrap(text.split(), font, size, width):
        cx = x
        run = []
        for word, w in line:
            if word == ":fire:":
                if run:
                    _draw(c, " ".join(run), font, size, run_x, baseline, slant)
                    run = []
                star(c, cx + w / 2, baseline + 0.35 * size, w)
            else:
                if not run:
                    run_x = cx
                run.append(word)
            cx += w + space
        if run:
            _draw(c, " ".join(run), font, size, run_x, baseline, slant)
        baseline -= LEADING * size


def _draw(c, text, font, size, x, y, slant):
    if slant:
        c.saveState()
        c.translate(x, y)
        c.skew(0, 12)
        c.setFont(font, size)
        c.drawString(0, 0, text)
        c.restoreState()
    else:
        c.setFont(font, size)
        c.drawString(x, y, text)


def front(c, row):
    # Card frame: origin at the trim's top-left, 1 unit = 1 mm, y up (so boxes go to negative y).
    c.setFillColor(BACKGROUND)
    c.rect(-BLEED, -H - BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setFillColor(TYPES[row["type"]])
    c.rect(-BLEED, -14.0, W + 2 * BLEED, 14.0 + BLEED, stroke=0, fill=1)
    c.setFillColor("#ffffff")
    size = 5.0
    width = pdfmetrics.stringWidth(row["title"], BOLD, size)
    if width > 44.0:
        size *= 44.0 / width
    c.setFont(BOLD, size)
    c.drawString(4.0, -7.0 - 0.35 * size, row["title"])
    c.setFillColor("#f2e8cf")
    c.setStrokeColor(INK)
    c.setLineWidth(0.4)
    c.ellipse(W - 14.0, -3.0, W - 4.0, -13.0, stroke=1, fill=1)
    c.setFillColor(INK)
    c.setFont(BOLD, 6.0)
    c.drawCentredString(W - 9.0, -8.0 - 0.35 * 6.0, row["cost"])
    c.setFillColor("#d9d4c7")
    c.roundRect(4.0, -45.0, 55.5, 30.0, 1.0, stroke=0, fill=1)
    c.setFillColor(INK)
    c.setFont(REGULAR, 3.0)
    c.drawString(4.0, -46.5 - 0.85 * 3.0, row["type"])
    c.setLineWidth(0.25)
    c.line(4.0, -52.0, 59.5, -52.0)
    text_block(c, row["text"], REGULAR, 3.2, 4.0, -54.0, 55.5)
    if row["flavor"]:
        text_block(c, row["flavor"], REGULAR, 2.6, 4.0, -77.0, 55.5, slant=True)
    c.setLineWidth(0.3)
    c.roundRect(2.0, -86.9, 59.5, 84.9, 2.0, stroke=1, fill=0)


def back(c):
    c.setFillColor(BACK)
    c.rect(-BLEED, -H - BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setFillColor("#ffffff")
    c.setFont(BOLD, 9.0)
    c.drawCentredString(W / 2, -H / 2 - 3.0, "EMBERFALL")


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


def main(cards_csv, out):
    pdfmetrics.registerFont(TTFont(REGULAR, str(FONTS / "Pretendard-Regular.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "Pretendard-Bold.ttf")))
    with open(cards_csv, encoding="utf-8", newline="") as handle:
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
                place(c, x, y, front, row)
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
                    place(c, PAGE_W - x - W, y, back)  # mirrored for a long-edge flip
                c.showPage()
        c.save()

    write(out, True)
    write(str(Path(out).with_name(Path(out).stem + "-fronts" + Path(out).suffix)), False)


if __name__ == "__main__":
    # printkit's interpreter settings: a build runs without the cycle collector and freezes what
    # is left at exit rather than have the last collection walk it (printkit/cli.py).
    gc.disable()
    atexit.register(gc.freeze)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "floor_data_deck.pdf")
