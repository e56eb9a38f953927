"""Imposition: where cards go on a sheet of paper, crop marks, duplex backs and the alignment test.

Everything here is pure geometry in millimetres in the *page frame* (origin at the paper's top-left
corner, y downwards). The result is a list of :class:`Page` plans that a backend only draws.

Cards sit in a centred grid. With no gap, neighbours share their cut lines and each card paints
only its trim box towards a neighbour; with a gap, a card's bleed may fill up to half the gap.
Towards the paper margin every card keeps its bleed where the margin has room for it besides a
printable crop mark (on Letter, three poker cards high leave room for marks but not for bleed at
the top and bottom). Crop marks are short lines in the margins on the extension of every cut
line; they never touch a card.

Duplex: the back page of a sheet puts the back of each card behind its front. Turning the paper
over its long edge mirrors left and right (``flip="long"``); over its short edge it mirrors top and
bottom (``flip="short"``). ``back_offset_mm`` = (dx, dy) moves everything on the back side by dx
to the right and dy down *as seen through the paper from the front*, for printers that print the
second side slightly off; the alignment test page measures how far off (use the negative).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Literal, Sequence

from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.layout.geometry import Box, Size
from printkit.layout.ops import Face, Line, Op, Rect, Text

Flip = Literal["long", "short"]

# Cards stay this far inside the paper edge: home printers cannot print closer.
MIN_MARGIN_MM = 4.0
# Crop marks start this far outside the painted card area and are at most this long.
MARK_OFFSET_MM = 1.0
MARK_LENGTH_MM = 6.0
# Bleed towards the margin is cut back so at least this much crop mark lies in the printable area.
MIN_MARK_MM = 2.0
MARK_WIDTH_MM = 0.2
MARK_COLOR = "#000000"


@dataclass(frozen=True)
class Slot:
    """One card position: its trim box and the box it may paint (trim plus allowed bleed)."""

    index: int
    column: int
    row: int
    trim: Box
    paint: Box

    @property
    def clip_in_card_frame(self) -> Box:
        """The paint box relative to the card's trim origin (what backends clip a face to)."""
        return self.paint.shift(-self.trim.x_mm, -self.trim.y_mm)


@dataclass(frozen=True)
class SheetLayout:
    """A grid of card slots on one paper size, with the crop marks that go with it."""

    paper: Size
    card: CardSize
    columns: int
    rows: int
    gap_mm: float
    slots: tuple[Slot, ...]
    crop_marks: tuple[Line, ...]

    @property
    def per_page(self) -> int:
        return len(self.slots)

    def marks_for(self, count: int) -> tuple[Line, ...]:
        """Crop marks for a page holding only the first ``count`` slots (no marks for empty ones)."""
        if count >= len(self.slots):
            return self.crop_marks
        return _crop_marks(self.paper, self.slots, self.slots[:count])

    def back_slots(self, flip: Flip = "long", offset_mm: tuple[float, float] = (0.0, 0.0)) -> tuple[Slot, ...]:
        """The slots of the back page: slot i lies behind front slot i once the paper is turned."""
        return tuple(
            Slot(s.index, s.column, s.row, mirror_box(s.trim.shift(*offset_mm), self.paper, flip),
                 mirror_box(s.paint.shift(*offset_mm), self.paper, flip))
            for s in self.slots
        )


def mirror_box(box: Box, paper: Size, flip: Flip) -> Box:
    """Where ``box`` on a front page lies on the back page after turning the paper over."""
    if flip == "long":
        return Box(paper.width_mm - box.right_mm, box.y_mm, box.w_mm, box.h_mm)
    if flip == "short":
        return Box(box.x_mm, paper.height_mm - box.bottom_mm, box.w_mm, box.h_mm)
    raise ValueError(f"unknown flip {flip!r} (expected 'long' or 'short')")


def grid_fit(paper_mm: float, card_mm: float, gap_mm: float, margin_mm: float = MIN_MARGIN_MM) -> int:
    """How many cards of length ``card_mm`` with ``gap_mm`` between them fit along ``paper_mm``."""
    usable = paper_mm - 2 * margin_mm
    return max(0, math.floor((usable + gap_mm) / (card_mm + gap_mm) + 1e-9))


def impose(paper: Size, card: CardSize, gap_mm: float = 0.0, margin_mm: float = MIN_MARGIN_MM) -> SheetLayout:
    """Lay out as many cards as fit on ``paper``, centred, with ``gap_mm`` between neighbours."""
    if gap_mm < 0:
        raise BuildError(f"gap must not be negative, got {gap_mm!r} mm")
    columns = grid_fit(paper.width_mm, card.width_mm, gap_mm, margin_mm)
    rows = grid_fit(paper.height_mm, card.height_mm, gap_mm, margin_mm)
    if columns == 0 or rows == 0:
        raise BuildError(
            f"a {card.width_mm:g}x{card.height_mm:g} mm card does not fit on "
            f"{paper.width_mm:g}x{paper.height_mm:g} mm paper with a {margin_mm:g} mm margin"
            + (f" and a {gap_mm:g} mm gap" if gap_mm else "")
        )
    grid_w = columns * card.width_mm + (columns - 1) * gap_mm
    grid_h = rows * card.height_mm + (rows - 1) * gap_mm
    left = (paper.width_mm - grid_w) / 2
    top = (paper.height_mm - grid_h) / 2
    inner = min(card.bleed_mm, gap_mm / 2)
    # Outer bleed: as much as the margin allows while MIN_MARK_MM of crop mark stays printable
    # (outside the printer's unprintable border); cutting needs the marks more than the bleed.
    outer_x = max(0.0, min(card.bleed_mm, left - MARK_OFFSET_MM - margin_mm - MIN_MARK_MM))
    outer_y = max(0.0, min(card.bleed_mm, top - MARK_OFFSET_MM - margin_mm - MIN_MARK_MM))
    slots = []
    for row in range(rows):
        for column in range(columns):
            trim = Box(left + column * (card.width_mm + gap_mm), top + row * (card.height_mm + gap_mm),
                       card.width_mm, card.height_mm)
            paint = trim.grow(
                outer_x if column == 0 else inner,
                outer_y if row == 0 else inner,
                outer_x if column == columns - 1 else inner,
                outer_y if row == rows - 1 else inner,
            )
            slots.append(Slot(len(slots), column, row, trim, paint))
    marks = _crop_marks(paper, slots, slots)
    return SheetLayout(paper, card, columns, rows, gap_mm, tuple(slots), marks)


def _crop_marks(paper: Size, grid: Sequence[Slot], used: Sequence[Slot]) -> tuple[Line, ...]:
    """Marks on the cut lines of the ``used`` slots, in the four margins around the whole ``grid``."""
    xs = sorted({round(v, 6) for s in used for v in (s.trim.x_mm, s.trim.right_mm)})
    ys = sorted({round(v, 6) for s in used for v in (s.trim.y_mm, s.trim.bottom_mm)})
    top = min(s.paint.y_mm for s in grid) - MARK_OFFSET_MM
    bottom = max(s.paint.bottom_mm for s in grid) + MARK_OFFSET_MM
    left = min(s.paint.x_mm for s in grid) - MARK_OFFSET_MM
    right = max(s.paint.right_mm for s in grid) + MARK_OFFSET_MM
    marks: list[Line] = []

    def add(x1: float, y1: float, x2: float, y2: float) -> None:
        if abs(x2 - x1) + abs(y2 - y1) > 0.5:  # no stubs where the margin has no room
            marks.append(Line(x1, y1, x2, y2, MARK_COLOR, MARK_WIDTH_MM))

    for x in xs:
        add(x, top, x, max(0.0, top - MARK_LENGTH_MM))
        add(x, bottom, x, min(paper.height_mm, bottom + MARK_LENGTH_MM))
    for y in ys:
        add(left, y, max(0.0, left - MARK_LENGTH_MM), y)
        add(right, y, min(paper.width_mm, right + MARK_LENGTH_MM), y)
    return tuple(marks)


@dataclass(frozen=True)
class Placement:
    """A face drawn with its trim top-left at ``(x_mm, y_mm)`` on the page, clipped to ``clip``.

    ``clip`` is in the card frame (None: no clipping, the face may paint its whole bleed).
    """

    face: Face
    x_mm: float
    y_mm: float
    clip: Box | None = None


@dataclass(frozen=True)
class Page:
    """One page to draw: placed faces, then page-level ops (crop marks, test patterns).

    ``trim`` and ``bleed`` become the PDF TrimBox and BleedBox (page frame); None means the page.
    """

    size: Size
    placements: tuple[Placement, ...] = ()
    ops: tuple[Op, ...] = ()
    trim: Box | None = None
    bleed: Box | None = None


def sheet_pages(
    layout: SheetLayout,
    fronts: Sequence[Face],
    backs: Sequence[Face] | None,
    flip: Flip = "long",
    back_offset_mm: tuple[float, float] = (0.0, 0.0),
) -> list[Page]:
    """Pages for ``fronts`` on ``layout``; with ``backs`` every front page is followed by its back page."""
    if backs is not None and len(backs) != len(fronts):
        raise ValueError(f"{len(fronts)} fronts but {len(backs)} backs")
    back_slots = layout.back_slots(flip, back_offset_mm)
    pages: list[Page] = []
    for start in range(0, len(fronts), layout.per_page):
        chunk = range(start, min(start + layout.per_page, len(fronts)))
        pages.append(Page(layout.paper, tuple(
            _place(fronts[i], layout.slots[i - start]) for i in chunk), layout.marks_for(len(chunk))))
        if backs is not None:
            pages.append(Page(layout.paper, tuple(_place(backs[i], back_slots[i - start]) for i in chunk)))
    return pages


def _place(face: Face, slot: Slot) -> Placement:
    return Placement(face, slot.trim.x_mm, slot.trim.y_mm, slot.clip_in_card_frame)


def full_page(face: Face, paper: Size) -> Page:
    """A page-sized face (a score sheet) drawn at the paper's origin."""
    return Page(paper, (Placement(face, 0.0, 0.0, Box(0.0, 0.0, paper.width_mm, paper.height_mm)),))


def card_page(face: Face, card: CardSize) -> Page:
    """A page exactly the card's bleed size (a per-card PDF), with TrimBox and BleedBox."""
    size = Size(card.bleed_width_mm, card.bleed_height_mm)
    return Page(
        size,
        (Placement(face, card.bleed_mm, card.bleed_mm, None),),
        trim=Box(card.bleed_mm, card.bleed_mm, card.width_mm, card.height_mm),
        bleed=Box(0.0, 0.0, size.width_mm, size.height_mm),
    )


# The alignment test: the front page carries millimetre scales around three points; the back page
# prints a cross at the same points, mirrored for the flip and shifted by the back offset. Held
# against the light, each cross shows on the scales how far the printer misplaces the back side.
_SCALE_HALF_MM = 10
ALIGN_COLOR = "#000000"
CROSS_COLOR = "#d00000"


def alignment_pages(paper: Size, font, flip: Flip = "long",
                    back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> tuple[Page, Page]:
    """The two-page duplex alignment test for ``paper`` (``font``: a TrueType path for the labels)."""
    w, h = paper.width_mm, paper.height_mm
    points = [(w / 2, h / 2), (w * 0.25, h * 0.3), (w * 0.75, h * 0.75)]  # clear of the text
    front: list[Op] = []
    for cx, cy in points:
        front.extend(_scale_ops(cx, cy))
    front.append(Text(w / 2, 20, "printkit duplex alignment test", font, 5.0, anchor="middle"))
    lines = (
        f"Print both pages on one sheet ({flip}-edge flip), then hold it against a light.",
        "Each red cross from the back should sit on the centre of its scale (1 mm ticks).",
        "If the crosses sit X mm right of and Y mm below the centre ticks (seen from this side),",
        "build again with --back-offset=-X,-Y (left and up are negative X and Y).",
    )
    for i, line in enumerate(lines):
        front.append(Text(w / 2, 30 + 5 * i, line, font, 3.2, anchor="middle"))
    back: list[Op] = []
    dx, dy = back_offset_mm
    for cx, cy in points:
        bx, by = _mirror_point(cx + dx, cy + dy, paper, flip)
        # Arms long enough to cross both scales (which sit 8-11 mm from the point).
        back.append(Line(bx - 14, by, bx + 14, by, CROSS_COLOR, 0.35))
        back.append(Line(bx, by - 14, bx, by + 14, CROSS_COLOR, 0.35))
    back.append(Text(w / 2, h - 20, "back side: the red crosses must fall on the front's scales",
                     font, 3.2, anchor="middle"))
    return Page(paper, ops=tuple(front)), Page(paper, ops=tuple(back))


def _mirror_point(x: float, y: float, paper: Size, flip: Flip) -> tuple[float, float]:
    box = mirror_box(Box(x, y, 0.0, 0.0), paper, flip)
    return box.x_mm, box.y_mm


def _scale_ops(cx: float, cy: float) -> Iterable[Op]:
    yield Rect(cx - 0.4, cy - 0.4, 0.8, 0.8, fill=ALIGN_COLOR, stroke=None)
    for i in range(-_SCALE_HALF_MM, _SCALE_HALF_MM + 1):
        tick = 5.0 if i == 0 else 3.0 if i % 5 == 0 else 1.5  # the long tick is the centre
        yield Line(cx + i, cy - 8 - tick, cx + i, cy - 8, ALIGN_COLOR, 0.15)  # horizontal scale above
        yield Line(cx - 8 - tick, cy + i, cx - 8, cy + i, ALIGN_COLOR, 0.15)  # vertical scale at left
    yield Line(cx - _SCALE_HALF_MM, cy - 8, cx + _SCALE_HALF_MM, cy - 8, ALIGN_COLOR, 0.15)
    yield Line(cx - 8, cy - _SCALE_HALF_MM, cx - 8, cy + _SCALE_HALF_MM, ALIGN_COLOR, 0.15)
