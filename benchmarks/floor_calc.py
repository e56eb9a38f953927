"""The speed floor for `printkit build calc --variant expert --no-rulebooks --no-proof`: plain reportlab.

Writes into OUTDIR the files that command writes, drawn as that command draws them:

- ``calc/expert/sheets-a4.pdf``: 181 faces (the 177 expert cards and the deck's four player aids,
  two aids in English and Korean) on A4, 3 x 3 a sheet, cards abutting, each front page followed
  by its backs mirrored for a long-edge flip; crop marks and two slug lines a page;
- ``calc/expert/sheets-fronts-a4.pdf``: the fronts alone;
- ``alignment-a4.pdf``: the duplex alignment test (scales on the front, crosses on the back);
- ``manifest.json``: what printkit's says of each file (kind, deck, variant, paper, cards, pages,
  sha256, and its size, place and times when written, signed).

Each PDF as printkit starts it: its title, subject, creator and producer, sRGB named as its
output intent with the ICC profile, and a TrimBox and BleedBox on every page.

Each face has what printkit's Calc design draws: a number card its tint to the bleed, the symbol,
the number in two corners (one turned), each over a disc with the symbol, 6 and 9 underlined; the
joker its four symbol cells, a star in a ring and two corner stars with a word; the back its
lattice, two rows of symbols and the label on a band; a player aid its title band, wrapped rules
and (scoring) five small cards with running totals; an aid's back its light lattice and names.

With printkit's library and interpreter settings: invariant, Flate-compressed binary streams (no
ASCII85), the same two fonts embedded as subsets (Pretendard Bold and Regular), the cycle
collector off while drawing and the survivors frozen at exit. As printkit does, each distinct
face is drawn once as a form and placed where it prints (the fastest plain way with reportlab):
this is the floor. One thing it does that printkit does not: it draws the fronts-only file's pages
again, where printkit writes the duplex file's front pages' content streams into it a second time
(through reportlab's internals; reportlab's own calls have no way to give one page to two
documents). That is about 35 ms of the floor's drawing, and docs/performance.md gives the ratio
both ways.

    python benchmarks/floor_calc.py OUTDIR
"""

import atexit
import gc
import hashlib
import hmac
import json
import math
import os
import sys
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

# Streams as printkit writes them: binary, Flate-compressed, not ASCII85 (reportlab's default
# encodes every stream in ASCII85 through its charmap codec).
rl_config.useA85 = 0

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "fonts"
SRGB = ROOT / "printkit" / "render" / "icc" / "sRGB.icc"
W, H, B = 63.5, 88.9, 3.175  # card and bleed, mm
PAGE_W, PAGE_H = 210.0, 297.0
LEFT, TOP = (PAGE_W - 3 * W) / 2, (PAGE_H - 3 * H) / 2
BACKGROUND, INK, BACK, WHITE = "#fbf8f1", "#1d1d1f", "#1f3b5a", "#ffffff"
COLORS = {"plus": "#0072b2", "minus": "#d55e00", "times": "#009e73", "power": "#cc79a7", "joker": "#e69f00"}
T = 0.24  # a symbol's stroke, of its size

AIDS = {
    ("turn", "en"): ("Your turn", [
        "Do one of these:",
        "\u2022 Play 1 card on any pay, yours or another's: it must match the top card's number or symbol. "
        "An empty pay takes any card.",
        "\u2022 Or draw 1 card, while the deck lasts.",
        "A 7 on top: only the pay's owner may play there.",
        "A joker goes on any pay; a joker on top makes the pay count as empty.",
        "The game ends when a hand is empty or the deck runs out."]),
    ("turn", "ko"): ("\ub0b4 \ucc28\ub840", [
        "\ub458 \uc911 \ud558\ub098\ub97c \ud55c\ub2e4:",
        "\u2022 \uce74\ub4dc 1\uc7a5\uc744 \uc544\ubb34 \ud398\uc774(\ub0b4 \uac83\uc774\ub4e0 \ub0a8\uc758 "
        "\uac83\uc774\ub4e0)\uc5d0 \ub0b8\ub2e4. \ub9e8 \uc704 \uce74\ub4dc\uc640 \uc22b\uc790\ub098 "
        "\uae30\ud638\uac00 \uac19\uc544\uc57c \ud55c\ub2e4. \ube48 \ud398\uc774\uc5d0\ub294 \uc544\ubb34 "
        "\uce74\ub4dc\ub098 \ub0bc \uc218 \uc788\ub2e4.",
        "\u2022 \ub610\ub294 \ub371\uc5d0\uc11c 1\uc7a5\uc744 \uac00\uc838\uc628\ub2e4(\ub371\uc774 "
        "\ub0a8\uc544 \uc788\ub294 \ub3d9\uc548).",
        "\ub9e8 \uc704\uac00 7\uc778 \ud398\uc774\uc5d0\ub294 \uc8fc\uc778\ub9cc \ub0bc \uc218 \uc788\ub2e4.",
        "\uc870\ucee4\ub294 \uc5b4\ub290 \ud398\uc774\uc5d0\ub098 \ub0bc \uc218 \uc788\uace0, \uc870\ucee4\uac00 "
        "\ub9e8 \uc704\uc778 \ud398\uc774\ub294 \ube48 \ud398\uc774\ub85c \uce5c\ub2e4.",
        "\ub204\uad70\uac00\uc758 \uc190\ud328\uac00 \ub5a8\uc5b4\uc9c0\uac70\ub098 \ub371\uc774 \ubc14\ub2e5\ub098\uba74 "
        "\ub05d\ub09c\ub2e4."]),
    ("scoring", "en"): ("Scoring", [
        "Start at 0. The bottom card adds its number; each card above applies its symbol to its number, "
        "strictly from bottom to top (no precedence).",
        "Only cards above the topmost joker count.",
        "Fewest cards in hand: +5. Highest score wins."]),
    ("scoring", "ko"): ("\uc810\uc218 \uacc4\uc0b0", [
        "0\uc5d0\uc11c \uc2dc\uc791\ud55c\ub2e4. \ub9e8 \uc544\ub798 \uce74\ub4dc\ub294 \uc22b\uc790\ub97c "
        "\ub354\ud558\uace0, \uadf8 \uc704\uc758 \uce74\ub4dc\ub294 \uc544\ub798\uc5d0\uc11c \uc704\ub85c "
        "\ucc28\ub840\ub300\ub85c \uae30\ud638\ub97c \uc22b\uc790\uc5d0 \uc801\uc6a9\ud55c\ub2e4(\uc6b0\uc120"
        "\uc21c\uc704 \uc5c6\uc74c).",
        "\ub9e8 \uc704 \uc870\ucee4\ubcf4\ub2e4 \uc704\uc758 \uce74\ub4dc\ub9cc \uc13c\ub2e4.",
        "\uc190\ud328\uac00 \uac00\uc7a5 \uc801\uc740 \uc0ac\ub78c +5. \uc810\uc218\uac00 \uac00\uc7a5 "
        "\ub192\uc740 \uc0ac\ub78c\uc774 \uc774\uae34\ub2e4."]),
}
EXAMPLE = [("9", "minus", "9"), ("5", "times", "45"), ("2", "minus", "43"), ("1", "plus", "44"), ("8", "plus", "52")]


def mix(a, b, t):
    """``t`` of colour ``b`` over ``a``, as a hex colour."""
    ca, cb = (int(a[i:i + 2], 16) for i in (1, 3, 5)), (int(b[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(x * (1 - t) + y * t):02x}" for x, y in zip(ca, cb))


def cards():
    for symbol in ("plus", "minus", "times", "power"):
        for number in range(-1, 10):
            for _ in range(4):
                yield ("number", symbol, number)
    yield ("joker",)
    for aid in ("turn", "scoring"):
        for lang in ("en", "ko"):
            yield ("aid", aid, lang)


def outline(symbol):
    """The symbol's outline in a unit box centred on 0 (y down)."""
    h, t = 0.5, T / 2
    cross = [(-t, -h), (t, -h), (t, -t), (h, -t), (h, t), (t, t), (t, h), (-t, h), (-t, t), (-h, t), (-h, -t), (-t, -t)]
    if symbol == "plus":
        return cross
    if symbol == "minus":
        return [(-h, -t), (h, -t), (h, t), (-h, t)]
    if symbol == "times":
        c = math.sqrt(0.5)
        return [((x - y) * c, (x + y) * c) for x, y in cross]
    if symbol == "power":
        return [(-0.5, 0.34), (0.0, -0.34), (0.5, 0.34), (0.33, 0.34), (0.0, -0.05), (-0.33, 0.34)]
    points = []  # the star
    for i in range(10):
        r = 0.5 if i % 2 == 0 else 0.2
        a = math.pi * i / 5 - math.pi / 2
        points.append((r * math.cos(a), r * math.sin(a) + 0.05))
    return points


def icon(c, symbol, cx, cy, size, color):
    c.setFillColor(color)
    p = c.beginPath()
    pts = outline(symbol)
    p.moveTo(cx + pts[0][0] * size, cy + pts[0][1] * size)
    for x, y in pts[1:]:
        p.lineTo(cx + x * size, cy + y * size)
    p.close()
    c.drawPath(p, stroke=0, fill=1, fillMode=0)


def text(c, s, x, y, size, font="Pretendard-Bold", color=INK, anchor="left", turned=False):
    """``s`` with its baseline at y (y down), its start, centre or end at x; turned: a half turn
    about the card's centre."""
    width = pdfmetrics.stringWidth(s, font, size)
    x0 = x - {"left": 0, "centre": width / 2, "right": width}[anchor]
    c.saveState()
    c.setFillColor(color)
    if turned:
        c.transform(-1, 0, 0, 1, W - x0, H - y)
    else:
        c.transform(1, 0, 0, -1, x0, y)
    c.setFont(font, size)
    c.drawString(0, 0, s)
    c.restoreState()
    return x0, width


def number_face(c, symbol, number):
    color = COLORS[symbol]
    c.setFillColor(BACKGROUND)
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColor(mix(color, BACKGROUND, 0.88))
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    icon(c, symbol, W / 2, H / 2, 31.75, color)
    label = str(number)
    for turned in (False, True):
        x0, width = text(c, label, 58.0, 15.975, 15.24, anchor="right", turned=turned)
        cx = x0 + width / 2
        if turned:
            cx = W - cx
        cy = 25.22 if not turned else H - 25.22
        if number in (6, 9):
            c.setFillColor(INK)
            ux = x0 + width - 9.793
            c.rect(ux if not turned else W - ux - 9.793, 17.194 if not turned else H - 17.194 - 1.067,
                   9.793, 1.067, stroke=0, fill=1)
        c.setFillColor(color)
        c.circle(cx, cy, 5.3975, stroke=0, fill=1)
        icon(c, symbol, cx, cy, 6.2 if turned is False else -6.2, WHITE)


def joker_face(c):
    color = COLORS["joker"]
    c.setFillColor(BACKGROUND)
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColor(mix(color, BACKGROUND, 0.88))
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    for symbol, (x, y) in zip(("plus", "minus", "times", "power"), ((10.64, 23.34), (32.86, 23.34), (10.64, 45.56), (32.86, 45.56))):
        c.setFillColor(mix(COLORS[symbol], WHITE, 0.82))
        c.roundRect(x, y, 20.0, 20.0, 2, stroke=0, fill=1)
        icon(c, symbol, x + 10, y + 10, 13.3, COLORS[symbol])
    c.setFillColor(BACKGROUND)
    c.setStrokeColor(color)
    c.setLineWidth(0.8)
    c.circle(W / 2, H / 2, 6.985, stroke=1, fill=1)
    icon(c, "star", W / 2, H / 2, 9.9, color)
    for turned in (False, True):
        cx, cy = 50.93, 10.68
        icon(c, "star", W - cx if turned else cx, H - cy if turned else cy, 10.7 if not turned else -10.7, color)
        text(c, "JOKER", 50.93, 22.0, 4.445, color=INK, anchor="centre", turned=turned)


def lattice(c, fill):
    c.setFillColor(fill)
    p = c.beginPath()
    cell, half = 8.89, 8.89 * 0.25
    for i in range(-9, 10):
        for j in range(-12, 13):
            if (i + j) % 2:
                continue
            x, y = W / 2 + i * cell / 2, H / 2 + j * cell / 2
            if -B - half <= x <= W + B + half and -B - half <= y <= H + B + half:
                p.moveTo(x, y - half)
                p.lineTo(x + half, y)
                p.lineTo(x, y + half)
                p.lineTo(x - half, y)
                p.close()
    c.drawPath(p, stroke=0, fill=1)


def back_face(c):
    c.setFillColor(BACK)
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    lattice(c, mix(BACK, WHITE, 0.1))
    emblem = mix(BACK, WHITE, 0.55)
    for i, symbol in enumerate(("plus", "minus", "times")):
        x = 18.363 + i * 13.386
        icon(c, symbol, x, 22.796, 7.874, emblem)
        icon(c, symbol, W - x, H - 22.796, -7.874, emblem)
    c.setFillColor(BACK)
    c.setStrokeColor(emblem)
    c.setLineWidth(0.5)
    c.roundRect(8.0, 38.1, 47.5, 12.7, 1.5, stroke=1, fill=1)
    text(c, "CALC", W / 2, 46.9, 6.814, color=WHITE, anchor="centre")


def aid_face(c, aid, lang):
    title, paragraphs = AIDS[aid, lang]
    c.setFillColor(BACKGROUND)
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColor(COLORS["joker"])
    c.rect(-B, -B, W + 2 * B, 18.875, stroke=0, fill=1)
    text(c, title, W / 2, 12.06, 7.62, anchor="centre")
    size, y = 3.55, 22.0
    for paragraph in paragraphs:
        for line in simpleSplit(paragraph, "Pretendard-Regular", size, 55.5):
            text(c, line, 4.0, y, size, font="Pretendard-Regular")
            y += size * 1.25
        y += size * 0.45
    if aid == "scoring":
        for i, (number, symbol, total) in enumerate(EXAMPLE):
            x = 4.6 + i * 11.1
            c.setFillColor(mix(COLORS[symbol], WHITE, 0.85))
            c.setStrokeColor(COLORS[symbol])
            c.setLineWidth(0.4)
            c.roundRect(x, 65.85, 9.9, 11.81, 1, stroke=1, fill=1)
            text(c, number, x + 4.95, 72.47, 4.488, anchor="centre")
            icon(c, symbol, x + 4.95, 74.35, 3.07, COLORS[symbol])
            text(c, total, x + 4.95, 85.74, 4.57, anchor="centre")


def aid_back_face(c):
    field = mix(BACK, WHITE, 0.84)
    c.setFillColor(field)
    c.rect(-B, -B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    lattice(c, mix(BACK, WHITE, 0.7812))
    for turned in (False, True):
        text(c, "PLAYER AID", W / 2, 15.5, 7.0, color=BACK, anchor="centre", turned=turned)
        text(c, "\ub3c4\uc6c0\ub9d0", W / 2, 27.4, 6.2, color=BACK, anchor="centre", turned=turned)
    c.setFillColor(BACK)
    c.roundRect(12.7, 40.32, 38.1, 8.255, 4.1275, stroke=0, fill=1)
    text(c, "CALC", W / 2, 46.0, 4.2, color=field, anchor="centre")


def document(path, title, subject, initial_font):
    """A canvas as printkit starts each PDF: invariant, its information filled in, and sRGB named
    as the output intent with its ICC profile (reportlab has no call for that; printkit and this
    floor put it into the catalog)."""
    c = Canvas(str(path), pagesize=(PAGE_W * mm, PAGE_H * mm), invariant=1, initialFontName=initial_font)
    c.setCreator("printkit")
    c.setProducer("printkit (reportlab)")
    c.setTitle(title)
    c.setAuthor("")
    c.setSubject(subject)
    doc = c._doc
    profile = PDFStream(PDFDictionary({"N": 3}), SRGB.read_bytes())
    name = "sRGB IEC61966-2.1"
    doc.Catalog.OutputIntents = PDFArray([PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFA1"), "OutputConditionIdentifier": PDFString(name),
        "Info": PDFString(name), "RegistryName": PDFString("http://www.color.org"),
        "DestOutputProfile": doc.Reference(profile)})])
    doc.Catalog.__NoDefault__ = [*doc.Catalog.__NoDefault__, "OutputIntents"]
    return c


def boxes(c):
    """The page's TrimBox and BleedBox (the whole sheet, as printkit sets them on its sheets)."""
    c.setTrimBox((0, 0, PAGE_W * mm, PAGE_H * mm))
    c.setBleedBox((0, 0, PAGE_W * mm, PAGE_H * mm))


def face_name(card):
    return "f" + "_".join(str(p) for p in card).replace("-", "m")


def drawing(card):
    """The function drawing ``card``'s face (in mm, y down, the trim's top left at 0, 0)."""
    if card[0] == "number":
        return lambda c: number_face(c, card[1], card[2])
    if card[0] == "joker":
        return joker_face
    return lambda c: aid_face(c, card[1], card[2])


def place(c, x, y, clip, draw=None, form=None):
    """A face with its card's top left at (x, y) mm from the page's top left, clipped to the card
    and, on the sides ``clip`` names, its bleed: the form ``form``, or drawn here by ``draw``."""
    left, top, right, bottom = clip
    c.saveState()
    c.transform(mm, 0, 0, -mm, x * mm, (PAGE_H - y) * mm)
    p = c.beginPath()
    p.rect(-left, -top, W + left + right, H + top + bottom)
    c.clipPath(p, stroke=0, fill=0)
    if form is not None:
        c.doForm(form)
    else:
        draw(c)
    c.restoreState()


def page_furniture(c, caption, marks):
    """Crop marks (on the fronts) and the two slug lines, in mm from the top left."""
    c.saveState()
    c.transform(mm, 0, 0, -mm, 0, PAGE_H * mm)
    if marks:
        c.setStrokeColor("#000000")
        c.setLineWidth(0.2)
        for i in range(4):
            x = LEFT + i * W
            c.line(x, TOP - 3.675, x, TOP - 9.675)
            c.line(x, PAGE_H - TOP + 3.675, x, PAGE_H - TOP + 9.675)
            y = TOP + i * H
            c.line(LEFT - 2.75, y, LEFT - 5.75, y)
            c.line(PAGE_W - LEFT + 2.75, y, PAGE_W - LEFT + 5.75, y)
    for line, y in (("Print at 100% (actual size): no fit to page, no scaling", 8.019), (caption, 290.544)):
        c.saveState()
        c.transform(1, 0, 0, -1, PAGE_W / 2, y)
        c.setFillColor("#000000")
        c.setFont("Pretendard-Regular", 2.2)
        c.drawCentredString(0, 0, line)
        c.restoreState()
    c.restoreState()


def sheets(path, backs):
    c = document(path, "Calc (expert): duplex sheets" if backs else "Calc (expert): fronts",
                 "Card sheets: fronts and backs, for double-sided printing" if backs
                 else "Card sheets: fronts only, for one-sided printing", "Pretendard-Bold")
    deck = list(cards())
    # As printkit does: a face printed more than once is drawn once, as a form, and placed where
    # it prints; a face printed once is drawn in place.
    uses = {}
    for card in deck:
        uses[face_name(card)] = uses.get(face_name(card), 0) + 1
    forms = set()
    faces = {face_name(card): drawing(card) for card in deck}
    faces.update({"back": back_face, "aid_back": aid_back_face} if backs else {})
    uses.update({"back": 177, "aid_back": 4} if backs else {})
    for name, draw in faces.items():
        if uses[name] > 1:
            c.beginForm(name, lowerx=-B, lowery=-B, upperx=W + B, uppery=H + B)
            draw(c)
            c.endForm()
            forms.add(name)
    total = -(-len(deck) // 9)
    for sheet in range(total):
        chunk = deck[sheet * 9:sheet * 9 + 9]

        def clip(slot, mirrored=False):
            row, col = divmod(slot, 3)
            col_left, col_right = (2, 0) if mirrored else (0, 2)
            filled = lambda r, cl: 0 <= r < 3 and 0 <= cl < 3 and r * 3 + cl < len(chunk)
            side = lambda edge, r, cl, outer: outer if edge else (0 if filled(r, cl) else B)
            return (side(col == col_left, row, col - 1, 2.25), side(row == 0, row - 1, col, B),
                    side(col == col_right, row, col + 1, 2.25), side(row == 2, row + 1, col, B))

        boxes(c)
        for slot, card in enumerate(chunk):
            row, col = divmod(slot, 3)
            name = face_name(card)
            place(c, LEFT + col * W, TOP + row * H, clip(slot), faces[name], name if name in forms else None)
        page_furniture(c, f"Calc \u00b7 expert \u00b7 sheet {sheet + 1} of {total} \u00b7 fronts", True)
        c.showPage()
        if backs:
            boxes(c)
            for slot, card in enumerate(chunk):
                row, col = divmod(slot, 3)
                name = "aid_back" if card[0] == "aid" else "back"
                place(c, LEFT + (2 - col) * W, TOP + row * H, clip(slot), faces[name], name)
            page_furniture(c, f"Calc \u00b7 expert \u00b7 sheet {sheet + 1} of {total} \u00b7 backs", False)
            c.showPage()
    c.save()
    return 2 * total if backs else total


def alignment(path):
    """The duplex alignment test: three scales with a dot on the front, red crosses on the back."""
    c = document(path, "printkit duplex alignment test", "Print double-sided to measure how far the backs are off",
                 "Pretendard-Regular")
    points = ((105.0, 148.5), (52.5, 89.1), (157.5, 222.75))
    for back in (False, True):
        boxes(c)
        c.saveState()
        c.transform(mm, 0, 0, -mm, 0, PAGE_H * mm)
        if not back:
            c.setLineWidth(0.15)
            for px, py in points:
                c.setFillColor("#000000")
                c.rect(px - 0.4, py - 0.4, 0.8, 0.8, stroke=0, fill=1)
                for k in range(-10, 11):
                    tick = 5 if k == 0 else 3 if k % 5 == 0 else 1.5
                    c.line(px + k, py - 8.5 - tick, px + k, py - 8.5)
                    c.line(px - 8.5 - tick, py + k, px - 8.5, py + k)
                c.line(px - 10, py - 8.5, px + 10, py - 8.5)
                c.line(px - 8.5, py - 10, px - 8.5, py + 10)
            lines = [("printkit duplex alignment test", 5.0, 20.0),
                     ("Print both pages on one sheet (long-edge flip), then hold it against a light.", 3.2, 30.0),
                     ("Each red cross from the back should sit on the centre of its scale (1 mm ticks).", 3.2, 35.0),
                     ("If the crosses sit X mm right of and Y mm below the centre ticks (seen from this side),", 3.2, 40.0),
                     ("build again with --back-offset=-X,-Y (left and up are negative X and Y).", 3.2, 45.0)]
            caption = "duplex alignment test \u00b7 A4 \u00b7 sheet 1 of 1 \u00b7 front"
        else:
            c.setStrokeColor("#d00000")
            c.setLineWidth(0.35)
            for px, py in points:
                x = PAGE_W - px
                c.line(x - 14, py, x + 14, py)
                c.line(x, py - 14, x, py + 14)
            lines = [("back side: the red crosses must fall on the front's scales", 3.2, 277.0)]
            caption = "duplex alignment test \u00b7 A4 \u00b7 sheet 1 of 1 \u00b7 back"
        lines += [("Print at 100% (actual size): no fit to page, no scaling", 2.2, 287.83), (caption, 2.2, 291.13)]
        c.setFillColor("#000000")
        for line, size, y in lines:
            c.saveState()
            c.transform(1, 0, 0, -1, PAGE_W / 2, y)
            c.setFont("Pretendard-Regular", size)
            c.drawCentredString(0, 0, line)
            c.restoreState()
        c.restoreState()
        c.showPage()
    c.save()
    return 2


def write_atomically(path, write):
    """``write(temporary path)``, then the file renamed into place: as printkit writes outputs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".part")
    pages = write(temporary)
    with open(temporary, "rb") as f:
        os.fsync(f.fileno())
    os.replace(temporary, path)
    return pages


def main(out):
    out = Path(out)
    pdfmetrics.registerFont(TTFont("Pretendard-Bold", str(FONTS / "Pretendard-Bold.ttf")))
    pdfmetrics.registerFont(TTFont("Pretendard-Regular", str(FONTS / "Pretendard-Regular.ttf")))
    files = {  # path: (kind, deck, variant, cards, write)
        "alignment-a4.pdf": ("alignment", None, None, None, alignment),
        "calc/expert/sheets-a4.pdf": ("sheets", "calc", "expert", 181, lambda p: sheets(p, True)),
        "calc/expert/sheets-fronts-a4.pdf": ("sheets-fronts", "calc", "expert", 181, lambda p: sheets(p, False)),
    }
    key = hashlib.sha256(b"floor").digest()  # printkit signs what it wrote with a key of its own
    manifest = []
    for relative, (kind, deck, variant, count, write) in files.items():
        path = out / relative
        pages = write_atomically(path, write)
        data = path.read_bytes()
        info = path.stat()
        written = {"device": info.st_dev, "inode": info.st_ino, "mtime_ns": info.st_mtime_ns, "size": info.st_size}
        written["mac"] = hmac.new(key, json.dumps(written, sort_keys=True).encode(), "sha256").hexdigest()
        manifest.append({"cards": count, "deck": deck, "kind": kind, "pages": pages, "paper": "a4",
                         "path": relative, "sha256": hashlib.sha256(data).hexdigest(), "variant": variant,
                         "written": written})
    write_atomically(out / "manifest.json",
                     lambda p: p.write_text(json.dumps({"files": manifest}, indent=2, sort_keys=True)))


if __name__ == "__main__":
    # printkit's interpreter settings: a build runs without the cycle collector (it allocates
    # much that lives to the end and little cyclic garbage), and what is left at exit is frozen
    # rather than walked by the last collection.
    gc.disable()
    atexit.register(gc.freeze)
    main(sys.argv[1] if len(sys.argv) > 1 else "floor_calc")
