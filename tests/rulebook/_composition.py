"""Read a built rulebook PDF back as pages of text lines and ink, and check its page composition.

Everything is read from the PDF (pypdfium2's character boxes and a low-resolution raster), so the
checks hold for any rule text, not just the shipped ones. The rules, measured in PDF points:

- **empty foot**: on every page but the book's last, the lowest ink of the text frame sits at most
  25% of the frame's height above the frame's foot. Exempt are the title and contents pages (those
  before the first numbered heading), the page before one that opens with a chapter heading, and
  the page before one that opens with a figure taller than the empty foot: a figure is ink that is
  not text (card frames, table shading), starting within three body lines of the frame's top; its
  height runs from the frame's top to the end of that ink (gaps under two body lines bridged, so a
  figure and its table are one) and three body lines for its caption and the space around it.
- **heading at the foot**: no numbered heading (bold, larger than body text, ``1``, ``1.2`` …) is
  the lowest ink on a page.
- **runt**: no line is one word of at most 4 characters that ends a paragraph begun on the line
  above (same left edge, one leading apart, the line above holding several words).
- **split word**: every word set in a table cell is a whole word of the book's source strings.
- **back cover**: a booklet's last page (its outside back cover) carries no text.
- **caption**: no page opens with a caption (text at the caption's size) under no figure.
- **small text**: no character anywhere on a page (page numbers and card text in figures included)
  prints smaller than 6 pt: its font size times the scale of the matrix it is drawn with.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections import Counter
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from printkit.rulebook import book
from printkit.rulebook import booklet as bk
from printkit.units import mm_to_pt

MAX_EMPTY_FOOT = 0.25
RUNT_CHARS = 4
CAPTION_LINES = 3  # a figure's caption (text under its ink) and the space kept around it
LEAD_LINES = 5  # a figure opens a page when its first ink is within this many body lines of the top
RASTER_SCALE = 1.0  # one pixel per point: fine enough for gaps of a body line


@dataclass
class Line:
    """A run of characters on one baseline, without a gap wider than a font size."""

    x0: float
    x1: float
    baseline: float
    top: float
    bottom: float
    size: float
    bold: bool
    fonts: set[str]
    text: str
    smallest: float = math.inf  # the size of its smallest character
    scaled: bool = False  # drawn in a scaled frame: card text in a figure

    @property
    def words(self) -> list[str]:
        return self.text.split()


@dataclass
class Page:
    """One book page: its text lines (top to bottom) and where ink is, in points from the page's foot."""

    number: int  # 1-based place in the book
    frame: tuple[float, float, float, float]  # x0, y0 (foot), x1, y1 (top)
    lines: list[Line] = field(default_factory=list)  # inside the text frame
    footer: list[Line] = field(default_factory=list)  # under it: the page number
    ink_bottom: float | None = None  # lowest ink inside the frame; None: no ink
    figure_rows: list[tuple[float, float]] = field(default_factory=list)  # (top, bottom) bands of non-text ink
    blank: bool = False
    notes: bool = False  # a booklet's notes page, added to fill its last sheet


def _char_lines(textpage, x_range: tuple[float, float]) -> list[Line]:
    """Lines in the order the PDF sets its characters (reportlab sets a line, or a cell's line, at a time)."""
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    lines: list[Line] = []
    space = False
    for i in range(textpage.count_chars()):
        ch = textpage.get_text_range(i, 1)
        if not ch or ch.isspace() or ch in "\ufffe\x02":
            space = True
            continue
        left, bottom, right, top = textpage.get_charbox(i)
        if not x_range[0] - 1 <= (left + right) / 2 <= x_range[1] + 1:
            continue
        ox, oy = ctypes.c_double(), ctypes.c_double()
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, i, ctypes.byref(ox), ctypes.byref(oy))
        pdfium_c.FPDFText_GetFontInfo(textpage.raw, i, name, 128, ctypes.byref(flags))
        # the size as printed: a card face in a figure is drawn in a scaled frame of millimetres
        matrix = pdfium_c.FS_MATRIX()
        pdfium_c.FPDFText_GetMatrix(textpage.raw, i, ctypes.byref(matrix))
        scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
        size = round(pdfium_c.FPDFText_GetFontSize(textpage.raw, i) * scale, 2)
        font = name.value.decode("latin-1").split("+")[-1]
        base = oy.value
        last = lines[-1] if lines else None
        if last is not None and abs(last.baseline - base) < 0.6 and -0.5 < left - last.x1 < size * 0.8:
            last.text += (" " if space else "") + ch
            last.x1 = max(last.x1, right)
            last.top, last.bottom = max(last.top, top), min(last.bottom, bottom)
            last.fonts.add(font)
            last.bold = last.bold and "Bold" in font
            last.size = max(last.size, size)
            last.smallest = min(last.smallest, size)
            last.scaled = last.scaled or abs(scale - 1) > 1e-3
        else:
            lines.append(Line(left, right, base, top, bottom, size, "Bold" in font, {font}, ch, size,
                              abs(scale - 1) > 1e-3))
        space = False
    return lines


def _ink_rows(image, frame, height_pt: float, lines: list[Line], x_offset: float) -> tuple[float | None, list]:
    """The lowest ink in the frame and the rows (top down, in points) with ink that is not text."""
    from PIL import Image, ImageDraw

    x0, y0, x1, y1 = frame
    box = (int((x0 - x_offset) * RASTER_SCALE) - 2, int((height_pt - y1) * RASTER_SCALE) - 2,
           int((x1 - x_offset) * RASTER_SCALE) + 2, int((height_pt - y0) * RASTER_SCALE) + 1)
    ink = image.convert("L").crop(box).point(lambda v: 255 if v < 235 else 0)
    bbox = ink.getbbox()
    if bbox is None:
        return None, []
    lowest = height_pt - (box[1] + bbox[3]) / RASTER_SCALE
    draw = ImageDraw.Draw(ink)
    for l in lines:
        draw.rectangle(((l.x0 - x_offset - 1) * RASTER_SCALE - box[0], (height_pt - l.top - 1) * RASTER_SCALE - box[1],
                        (l.x1 - x_offset + 1) * RASTER_SCALE - box[0], (height_pt - l.bottom + 1) * RASTER_SCALE - box[1]),
                       fill=0)
    profile = ink.resize((1, ink.height), Image.Resampling.BOX).get_flattened_data()
    graphic = [height_pt - (box[1] + row) / RASTER_SCALE for row, v in enumerate(profile) if v > 0]
    return lowest, graphic


def _bands(ys: list[float], bridge: float) -> list[tuple[float, float]]:
    bands: list[list[float]] = []
    for y in ys:  # from the top down
        if bands and bands[-1][1] - y <= bridge:
            bands[-1][1] = y
        else:
            bands.append([y, y])
    return [(a, b) for a, b in bands]


def read_book(data: bytes, paper: str, is_booklet: bool = False) -> tuple[list[Page], float]:
    """The pages of a built rulebook (a booklet's sheets cut back into its pages, in reading order)
    and the book's body font size."""
    pdf = pdfium.PdfDocument(data)
    p = book.paper(bk.imposition_for(paper).page_paper if is_booklet else paper)
    margin = mm_to_pt(p.margin_mm)
    page_w, page_h = mm_to_pt(p.width_mm), mm_to_pt(p.height_mm)
    frame = (margin, margin * 1.2, page_w - margin, page_h - margin)
    body_leading = p.body_pt * 1.55
    slots: list[tuple[int, int, int]] = []  # (book page, sheet side, slot)
    if is_booklet:
        sides = bk.saddle_stitch_order(len(pdf) * 2)
        for index, side in enumerate(sides):
            slots += [(side.left, index, 0), (side.right, index, 1)]
        slots.sort()
    else:
        slots = [(i + 1, i, 0) for i in range(len(pdf))]
    pages = []
    for number, index, slot in slots:
        pdf_page = pdf[index]
        x_offset = slot * page_w
        f = (frame[0] + x_offset, frame[1], frame[2] + x_offset, frame[3])
        lines = _char_lines(pdf_page.get_textpage(), (x_offset, x_offset + page_w))
        in_frame = [l for l in lines if l.top > f[1]]  # the page number sits under the frame
        image = pdf_page.render(scale=RASTER_SCALE, crop=(x_offset, 0, pdf_page.get_width() - x_offset - page_w, 0)).to_pil() \
            if is_booklet else pdf_page.render(scale=RASTER_SCALE).to_pil()
        lowest, graphic = _ink_rows(image, f, page_h, in_frame, x_offset)
        pages.append(Page(number, f, in_frame, [l for l in lines if l.top <= f[1]], lowest,
                          _bands(graphic, 2 * body_leading), blank=not lines,
                          notes=[l.text for l in lines] in ([label] for label in bk.NOTES.values())))
    return pages, p.body_pt


HEADING = re.compile(r"^\d+(\.\d+){0,2} \S")


def is_heading(line: Line, body_pt: float) -> bool:
    return line.bold and line.size > body_pt * 1.04 and bool(HEADING.match(line.text)) and "...." not in line.text.replace(" ", "")


def is_chapter(line: Line, body_pt: float) -> bool:
    return is_heading(line, body_pt) and line.size > body_pt * 1.5


def _last_page(pages: list[Page]) -> int:
    """The book's last page of text (a booklet's notes pages and blank back cover come after it)."""
    return max((p.number for p in pages if not (p.blank or p.notes)), default=0)


def blank_runs(pages: list[Page], most: int = 2) -> list[str]:
    """Runs of more than ``most`` blank pages in a row."""
    found, run = [], []
    for page in sorted(pages, key=lambda p: p.number):
        run = run + [page.number] if page.blank else []
        if len(run) == most + 1:
            found.append(f"pages {run[0]}\u2013: {most + 1} or more blank pages in a row")
    return found


def empty_feet(pages: list[Page], body_pt: float) -> list[str]:
    found = []
    first_heading = first_chapter_page(pages, body_pt)
    last = _last_page(pages)
    by_number = {p.number: p for p in pages}
    for page in pages:
        if page.blank or page.number >= last or first_heading is None or page.number < first_heading:
            continue
        x0, foot, x1, top = page.frame
        empty = ((page.ink_bottom if page.ink_bottom is not None else top) - foot)
        if empty <= MAX_EMPTY_FOOT * (top - foot):
            continue
        following = by_number[page.number + 1]
        if following.lines and is_chapter(following.lines[0], body_pt):
            continue
        figure = next(iter(following.figure_rows), None)
        if figure is not None and top - figure[0] <= body_pt * 1.55 * LEAD_LINES and \
                top - figure[1] + CAPTION_LINES * body_pt * 1.55 > empty:
            continue
        found.append(f"page {page.number}: {empty / (top - foot):.0%} of the frame empty at its foot")
    return found


def first_chapter_page(pages: list[Page], body_pt: float) -> int | None:
    """The page of the first chapter heading: the title and contents pages come before it."""
    return next((p.number for p in pages if any(is_chapter(l, body_pt) for l in p.lines)), None)


def headings_at_foot(pages: list[Page], body_pt: float) -> list[str]:
    found = []
    start = first_chapter_page(pages, body_pt) or 0
    for page in pages:
        if page.number >= start and page.lines and page.ink_bottom is not None:
            last = min(page.lines, key=lambda l: l.baseline)
            if is_heading(last, body_pt) and last.bottom - page.ink_bottom < 2:
                found.append(f"page {page.number}: heading {last.text!r} ends the page")
    return found


def runts(pages: list[Page]) -> list[str]:
    found = []
    for page in pages:
        for line in page.lines:
            if len(line.words) != 1 or len(line.text) > RUNT_CHARS:
                continue
            above = [a for a in page.lines if abs(a.x0 - line.x0) < 1 and abs(a.size - line.size) < 0.05
                     and 1.1 * line.size < a.baseline - line.baseline < 1.65 * line.size]
            if any(len(a.words) > 1 for a in above):
                found.append(f"page {page.number}: paragraph ends in {line.text!r} alone")
    return found


def split_words(pages: list[Page], cell_pt: float, source_words: set[str]) -> list[str]:
    found = []
    for page in pages:
        for line in page.lines:
            if abs(line.size - cell_pt) > 0.02 or line.scaled:
                continue
            for word in line.words:
                if word not in source_words:
                    found.append(f"page {page.number}: {word!r} in {line.text!r} is not a whole word")
    return found


def orphaned_captions(pages: list[Page], caption_pt: float) -> list[str]:
    """Pages that open with a caption (text at the caption's size) with no figure above it: a
    caption left behind by its figure or table."""
    found = []
    for page in pages:
        if not page.lines:
            continue
        first = max(page.lines, key=lambda l: l.top)
        if abs(first.size - caption_pt) < 0.02 and not any(top > first.top + 1 for top, _ in page.figure_rows):
            found.append(f"page {page.number}: opens with the caption {first.text[:40]!r}")
    return found


def small_text(pages: list[Page], least_pt: float) -> list[str]:
    """Lines holding a character printed smaller than ``least_pt`` (card text in figures included)."""
    found = []
    for page in pages:
        for line in page.lines + page.footer:
            if line.smallest < least_pt - 0.01:
                found.append(f"page {page.number}: {line.text[:40]!r} has text at {line.smallest:.2f} pt")
    return found


def back_cover_text(pages: list[Page]) -> list[str]:
    cover = max(pages, key=lambda p: p.number)
    return [f"back cover (page {cover.number}) holds {' '.join(l.text for l in cover.lines)[:60]!r}"] \
        if cover.lines else []


def words_of(strings) -> set[str]:
    return {w for s in strings for w in s.split()}


def most_common_size(pages: list[Page]) -> float:
    sizes = Counter(round(l.size, 2) for p in pages for l in p.lines for _ in l.text)
    return sizes.most_common(1)[0][0]


def _empty_share(page: Page) -> float:
    x0, foot, x1, top = page.frame
    return ((page.ink_bottom if page.ink_bottom is not None else top) - foot) / (top - foot)


def blank_halves(pages: list[Page], body_pt: float, most: float) -> list[str]:
    """Pages of text (from the first chapter to the book's last page, which is exempt) whose frame
    is more than ``most`` empty at its foot.

    Exempt is only a chapter's last page (the next opens with a chapter heading). A figure does
    not excuse the page before it: one of rows of cards, or a table set up seen from above, parts
    between its rows, and a heading and lead-in that a figure follows could stand on the emptier
    page."""
    first = first_chapter_page(pages, body_pt)
    last = _last_page(pages)
    by_number = {p.number: p for p in pages}
    found = []
    for page in pages:
        if first is None or not first <= page.number < last or page.blank or _empty_share(page) <= most:
            continue
        following = by_number[page.number + 1]
        if following.lines and is_chapter(following.lines[0], body_pt):
            continue
        found.append(f"page {page.number}: {_empty_share(page):.0%} of the frame empty at its foot")
    return found


def _key(text: str) -> str:
    """Letters and digits only: text as the PDF gives it back and as the source has it compare alike."""
    return "".join(ch for ch in text if ch.isalnum())


def cover_parts(pages: list[Page], title: str, subtitle: str) -> list[str]:
    """What of the cover (title, subtitle, art: ink that is not text) is not on the book's first page."""
    first = min(pages, key=lambda p: p.number)
    text = _key(" ".join(l.text for l in first.lines))
    missing = [f"{name} {words!r} is not on page 1" for name, words in (("title", title), ("subtitle", subtitle))
               if words and _key(words) not in text]
    if not first.figure_rows:
        missing.append("page 1 carries no cover art")
    return missing


def captions_out_of_section(pages: list[Page], body_pt: float, caption_pt: float,
                            sections: list[tuple[str, list[str]]]) -> list[str]:
    """Captions that do not print between their section's heading and the next heading.

    ``sections``: each numbered heading as set ("7.1 Working out a pay") with its captions. A
    place in the book is (page, height on the page), read from the top down.
    """
    headings: dict[str, tuple[int, float]] = {}
    captions: list[tuple[tuple[int, float], str]] = []
    start_page = first_chapter_page(pages, body_pt) or 0  # the contents list headings too
    for page in sorted(pages, key=lambda p: p.number):
        if page.number < start_page:
            continue
        for line in sorted(page.lines, key=lambda l: -l.top):
            place = (page.number, -line.top)
            if is_heading(line, body_pt):
                headings.setdefault(line.words[0], place)
            elif abs(line.size - caption_pt) < 0.02 and not line.scaled:
                captions.append((place, _key(line.text)))
    found = []
    for i, (heading, wanted) in enumerate(sections):
        if not wanted:
            continue
        number = heading.split()[0]
        start = headings.get(number)
        if start is None:
            found.append(f"heading {heading!r} not found")
            continue
        following = [headings[h.split()[0]] for h, _ in sections[i + 1:] if h.split()[0] in headings]
        end = following[0] if following else (math.inf, math.inf)
        for caption in wanted:
            key = _key(caption)
            place = next((at for at, text in captions if at > start and text and key.startswith(text[:20])
                          and len(text) >= min(8, len(key))), None)
            if place is None:
                found.append(f"caption {caption[:40]!r} of {heading!r} not found after its heading")
            elif place > end:
                found.append(f"caption {caption[:40]!r} of {heading!r} prints on page {place[0]}, "
                             f"past the next heading (page {end[0]})")
    return found
