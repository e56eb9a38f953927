"""Imposition: where cards go on a sheet of paper, crop marks, duplex backs and the alignment test.

Everything here is pure geometry in millimetres in the *page frame* (origin at the paper's top-left
corner, y downwards). The result is a list of :class:`Page` plans that a backend only draws.

Cards sit in a centred grid. With no gap, neighbours share their cut lines and each card paints
only its trim box towards a neighbour; with a gap, a card's bleed may fill up to half the gap.
Crop marks are short lines in the margins on the extension of every cut line; they never touch a
card and never enter the printer's unprintable border (``MIN_MARGIN_MM`` from every paper edge).

Printable crop marks come first. Home printers cannot print the outer ~4 mm of a sheet, so a mark
is only useful where the margin holds that border, a small gap and at least ``MIN_MARK_MM`` of
line: ``MARK_MARGIN_MM`` in all. :func:`impose` tries the cards upright and turned a quarter turn
and keeps whichever puts more cards on the sheet with that margin on all four sides (upright on a
tie). Poker cards on A4 stay 3 x 3 upright; on Letter, three poker cards high leave 6.35 mm at the
top and bottom, where marks would be at most 1.35 mm of printable line, so Letter gets 2 x 4
quarter-turned cards (8 a sheet, full bleed, 6 mm marks all round) instead. The alternatives were
worse: squeezing 3 x 3 onto Letter keeps marks a printer draws barely or not at all (and cards
whose edge touches the border of many printers), and falling back to 3 x 2 upright wastes a third
of the sheet. Bleed towards the margin gives way where a margin has room for a printable mark but
not for the full bleed too (cutting needs the marks more than the bleed): poker cards on A4 have
9.75 mm beside them, so they keep 3 mm marks and 2.25 mm of bleed at the sides (the full 3.175 mm
would leave marks of 2.075 mm); the README's table lists every size. Only a card too big for
any such grid is laid out with the plain ``MIN_MARGIN_MM`` margin, and its marks shrink to what
fits in the printable area (or are left out).

A quarter-turned card is drawn with its top towards the page's right edge (``clockwise_deg`` 90).

A sheet that is not full (a deck's last) leaves slots without a card. A card whose neighbour
slot holds no card has that edge cut on its own, so it paints its full bleed into the slot
(:meth:`SheetLayout.slots_for`): nothing else is printed there but, on the last sheet of a larger
size, smaller cards (tokens), which keep clear of that bleed (:func:`packed_sheet_pages`). Where
two cards' bleeds meet in the corner of an empty slot, both lie outside both trims.

Duplex: the back page of a sheet puts the back of each card behind its front. Turning the paper
over its long edge mirrors left and right (``flip="long"``); over its short edge it mirrors top and
bottom (``flip="short"``). A turned card's back is turned the other way (270 degrees), so that the
card, flipped over the same axis of its own as an upright card would be, shows its back upright.
``back_offset_mm`` = (dx, dy) moves everything on the back side by dx to the right and dy down *as
seen through the paper from the front*, for printers that print the second side slightly off; the
alignment test page measures how far off (use the negative).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterable, Literal, Sequence

from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.layout.geometry import Box, Size
from printkit.layout.ops import Face, Line, Op, Rect, Text
from printkit.paper import MIN_MARGIN_MM, grid_fit

Flip = Literal["long", "short"]

# Crop marks start this far outside the painted card area and are at most this long.
MARK_OFFSET_MM = 0.5
MARK_LENGTH_MM = 6.0
# A crop mark shorter than this is hard to find and to line a blade up with.
MIN_MARK_MM = 3.0
# The margin a grid needs on every side for printable marks (border, gap, shortest mark).
MARK_MARGIN_MM = MIN_MARGIN_MM + MARK_OFFSET_MM + MIN_MARK_MM
MARK_WIDTH_MM = 0.2
MARK_COLOR = "#000000"


@dataclass(frozen=True)
class Slot:
    """One card position: its trim box and the box it may paint (trim plus allowed bleed), page frame.

    ``clockwise_deg`` (0, 90, 180 or 270) is how far the card is turned on the page; the boxes
    are the turned card's footprint.
    """

    index: int
    column: int
    row: int
    trim: Box
    paint: Box
    clockwise_deg: int = 0

    @cached_property  # every card placed in this slot shares it (a big deck places thousands)
    def origin(self) -> tuple[float, float]:
        """Where the card's own trim top-left corner lands on the page."""
        return card_origin(self.trim, self.clockwise_deg)

    @cached_property
    def clip_in_card_frame(self) -> Box:
        """The paint box in the card's own frame (what backends clip a face to)."""
        return to_card_frame(self.paint, self.origin, self.clockwise_deg)


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
    margin_mm: float = MIN_MARGIN_MM  # the printer's unprintable border: no mark goes there
    clockwise_deg: int = 0  # 90: every card quarter-turned (see the module docstring)

    @property
    def per_page(self) -> int:
        return len(self.slots)

    def marks_for(self, count: int) -> tuple[Line, ...]:
        """Crop marks for a page holding only the first ``count`` slots (no marks for empty ones)."""
        if count >= len(self.slots):
            return self.crop_marks
        return _crop_marks(_page_box(self.paper), self.slots, self.slots[:count], self.margin_mm)

    def slots_for(self, count: int) -> tuple[Slot, ...]:
        """The first ``count`` slots, for a page with cards in those only: a card beside a slot
        left without one paints its full bleed into it (that edge is cut on its own)."""
        if count >= len(self.slots):
            return self.slots
        return _exposed(self.slots, self.columns, self.rows, count, self.card.bleed_mm)

    def back_slots(self, flip: Flip = "long", offset_mm: tuple[float, float] = (0.0, 0.0),
                   count: int | None = None) -> tuple[Slot, ...]:
        """The slots of the back page: slot i lies behind front slot i once the paper is turned.

        Mirroring a turn gives the opposite turn: a card turned 90 degrees has its back at 270.
        With ``count``, the slots of a page holding that many cards (:meth:`slots_for`): the
        bleed towards an empty slot is on the mirrored side.
        """
        slots = self.slots if count is None else self.slots_for(count)
        return tuple(back_slot(s, self.paper, flip, offset_mm) for s in slots)


def back_slot(slot: Slot, paper: Size, flip: Flip, offset_mm: tuple[float, float]) -> Slot:
    """Where ``slot`` lies on the back page once the paper is turned (see :meth:`SheetLayout.back_slots`).

    A card is turned over side to side in the hand. The long-edge flip turns the paper that way
    too, which mirrors a turn; the short-edge flip turns it top over bottom, which is that and half
    a turn more, so the back is drawn upside down on the page to stand as its front does.
    """
    turn = -slot.clockwise_deg if flip == "long" else 180 - slot.clockwise_deg
    return Slot(slot.index, slot.column, slot.row, mirror_box(slot.trim.shift(*offset_mm), paper, flip),
                mirror_box(slot.paint.shift(*offset_mm), paper, flip), turn % 360)


def _exposed(slots: Sequence[Slot], columns: int, rows: int, count: int, bleed_mm: float) -> tuple[Slot, ...]:
    """The first ``count`` of ``slots`` (a grid of ``columns`` x ``rows``, row by row), each
    grown to its full ``bleed_mm`` on every side whose neighbour slot is one of the rest."""

    def empty(column: int, row: int) -> bool:
        return 0 <= column < columns and 0 <= row < rows and row * columns + column >= count

    out = []
    for s in slots[:count]:
        t, p = s.trim, s.paint
        x0 = min(p.x_mm, t.x_mm - bleed_mm) if empty(s.column - 1, s.row) else p.x_mm
        y0 = min(p.y_mm, t.y_mm - bleed_mm) if empty(s.column, s.row - 1) else p.y_mm
        x1 = max(p.right_mm, t.right_mm + bleed_mm) if empty(s.column + 1, s.row) else p.right_mm
        y1 = max(p.bottom_mm, t.bottom_mm + bleed_mm) if empty(s.column, s.row + 1) else p.bottom_mm
        out.append(s if (x0, y0, x1, y1) == (p.x_mm, p.y_mm, p.right_mm, p.bottom_mm)
                   else replace(s, paint=_micrometres(Box(x0, y0, x1 - x0, y1 - y0))))
    return tuple(out)


def _turn(u: float, v: float, clockwise_deg: int) -> tuple[float, float]:
    """A card-frame vector turned clockwise on the page (y downwards) by a multiple of 90 degrees."""
    quarter = (clockwise_deg // 90) % 4
    for _ in range(quarter):
        u, v = -v, u
    return u, v


def card_origin(footprint: Box, clockwise_deg: int) -> tuple[float, float]:
    """The page point of a card's trim top-left corner when the turned card fills ``footprint``."""
    if clockwise_deg % 90:
        raise ValueError(f"cards turn in quarter turns only, not {clockwise_deg!r} degrees")
    size_w, size_h = (footprint.w_mm, footprint.h_mm) if clockwise_deg % 180 == 0 else (footprint.h_mm, footprint.w_mm)
    corners = [_turn(u, v, clockwise_deg) for u, v in ((0, 0), (size_w, 0), (0, size_h), (size_w, size_h))]
    return footprint.x_mm - min(x for x, _ in corners), footprint.y_mm - min(y for _, y in corners)


def to_card_frame(box: Box, origin: tuple[float, float], clockwise_deg: int) -> Box:
    """A page-frame box in the frame of a card whose trim corner is at ``origin``, turned as given."""
    corners = [_turn(x - origin[0], y - origin[1], -clockwise_deg % 360)
               for x in (box.x_mm, box.right_mm) for y in (box.y_mm, box.bottom_mm)]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def mirror_box(box: Box, paper: Size, flip: Flip) -> Box:
    """Where ``box`` on a front page lies on the back page after turning the paper over."""
    if flip == "long":
        return Box(paper.width_mm - box.right_mm, box.y_mm, box.w_mm, box.h_mm)
    if flip == "short":
        return Box(box.x_mm, paper.height_mm - box.bottom_mm, box.w_mm, box.h_mm)
    raise ValueError(f"unknown flip {flip!r} (expected 'long' or 'short')")


def impose(paper: Size, card: CardSize, gap_mm: float = 0.0, margin_mm: float = MIN_MARGIN_MM) -> SheetLayout:
    """Lay out as many cards as fit on ``paper`` with printable crop marks, centred, ``gap_mm`` apart.

    ``margin_mm`` is the printer's unprintable border. Cards are quarter-turned when that fits
    more of them (see the module docstring).
    """
    if gap_mm < 0:
        raise BuildError(f"gap must not be negative, got {gap_mm!r} mm")
    mark_margin = margin_mm + MARK_OFFSET_MM + MIN_MARK_MM
    upright = _grid_size(paper, card.width_mm, card.height_mm, gap_mm, mark_margin)
    turned = _grid_size(paper, card.height_mm, card.width_mm, gap_mm, mark_margin)
    if upright[0] * upright[1] == 0 and turned[0] * turned[1] == 0:
        # Too big for marks that print: the card itself comes first, the marks shrink. Upright
        # if it fits so, else turned (a landscape card on portrait paper).
        plain = _grid_size(paper, card.width_mm, card.height_mm, gap_mm, margin_mm)
        plain_turned = _grid_size(paper, card.height_mm, card.width_mm, gap_mm, margin_mm)
        if plain[0] * plain[1] == 0 and plain_turned[0] * plain_turned[1] > 0:
            (columns, rows), clockwise = plain_turned, 90
        else:
            (columns, rows), clockwise = plain, 0
    elif turned[0] * turned[1] > upright[0] * upright[1]:
        (columns, rows), clockwise = turned, 90
    else:
        (columns, rows), clockwise = upright, 0
    if columns == 0 or rows == 0:
        raise BuildError(
            f"a {card.width_mm:g}x{card.height_mm:g} mm card does not fit on "
            f"{paper.width_mm:g}x{paper.height_mm:g} mm paper with a {margin_mm:g} mm margin"
            + (f" and a {gap_mm:g} mm gap" if gap_mm else "")
        )
    card_w, card_h = (card.width_mm, card.height_mm) if clockwise == 0 else (card.height_mm, card.width_mm)
    grid_w = columns * card_w + (columns - 1) * gap_mm
    grid_h = rows * card_h + (rows - 1) * gap_mm
    left = (paper.width_mm - grid_w) / 2
    top = (paper.height_mm - grid_h) / 2
    # Outer bleed: as much as the margin allows while MIN_MARK_MM of crop mark stays printable
    # (outside the printer's unprintable border); cutting needs the marks more than the bleed.
    outer_x = max(0.0, min(card.bleed_mm, left - MARK_OFFSET_MM - margin_mm - MIN_MARK_MM))
    outer_y = max(0.0, min(card.bleed_mm, top - MARK_OFFSET_MM - margin_mm - MIN_MARK_MM))
    slots = _grid(left, top, columns, rows, card_w, card_h, gap_mm, min(card.bleed_mm, gap_mm / 2),
                  outer_x, outer_y, clockwise)
    marks = _crop_marks(_page_box(paper), slots, slots, margin_mm)
    return SheetLayout(paper, card, columns, rows, gap_mm, slots, marks, margin_mm, clockwise)


def _grid(left: float, top: float, columns: int, rows: int, card_w: float, card_h: float, gap_mm: float,
          inner: float, outer_x: float, outer_y: float, clockwise: int) -> tuple[Slot, ...]:
    """Slots row by row from ``(left, top)``: bleed ``inner`` between cards, ``outer_x`` and
    ``outer_y`` at the grid's sides and its top and bottom."""
    slots = []
    for row in range(rows):
        for column in range(columns):
            trim = Box(left + column * (card_w + gap_mm), top + row * (card_h + gap_mm), card_w, card_h)
            paint = trim.grow(
                outer_x if column == 0 else inner,
                outer_y if row == 0 else inner,
                outer_x if column == columns - 1 else inner,
                outer_y if row == rows - 1 else inner,
            )
            slots.append(Slot(len(slots), column, row, _micrometres(trim), _micrometres(paint), clockwise))
    return tuple(slots)


def _page_box(paper: Size) -> Box:
    return Box(0.0, 0.0, paper.width_mm, paper.height_mm)


def _micrometres(box: Box) -> Box:
    # Rounded so neighbours whose bleeds meet in a gap touch exactly instead of overlapping by 1e-14.
    return Box(*(round(v, 6) for v in (box.x_mm, box.y_mm, box.w_mm, box.h_mm)))


def _grid_size(paper: Size, card_w_mm: float, card_h_mm: float, gap_mm: float,
               margin_mm: float) -> tuple[int, int]:
    """(columns, rows) of cards ``card_w_mm`` wide and ``card_h_mm`` high that fit inside ``margin_mm``."""
    return (grid_fit(paper.width_mm, card_w_mm, gap_mm, margin_mm),
            grid_fit(paper.height_mm, card_h_mm, gap_mm, margin_mm))


def _crop_marks(area: Box, grid: Sequence[Slot], used: Sequence[Slot],
                margin_mm: float = MIN_MARGIN_MM) -> tuple[Line, ...]:
    """Marks on the cut lines of the ``used`` slots, in the four margins around the whole ``grid``.

    Each mark ends ``margin_mm`` inside the edge of ``area`` (the paper: a printer would drop
    anything beyond).
    """
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

    low_x, high_x = area.x_mm + margin_mm, area.right_mm - margin_mm
    low_y, high_y = area.y_mm + margin_mm, area.bottom_mm - margin_mm
    for x in xs:
        if top > low_y:
            add(x, top, x, max(low_y, top - MARK_LENGTH_MM))
        if bottom < high_y:
            add(x, bottom, x, min(high_y, bottom + MARK_LENGTH_MM))
    for y in ys:
        if left > low_x:
            add(left, y, max(low_x, left - MARK_LENGTH_MM), y)
        if right < high_x:
            add(right, y, min(high_x, right + MARK_LENGTH_MM), y)
    return tuple(marks)


@dataclass(frozen=True, slots=True)
class Placement:
    """A face drawn with its trim top-left at ``(x_mm, y_mm)`` on the page, clipped to ``clip``.

    ``clip`` is in the card frame (None: no clipping, the face may paint its whole bleed).
    ``clockwise_deg`` turns the face about that corner, clockwise as seen on the page. ``scale``
    draws it that many times its size (the proof page's contact sheets show full pages smaller).
    """

    face: Face
    x_mm: float
    y_mm: float
    clip: Box | None = None
    clockwise_deg: int = 0
    scale: float = 1.0


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
    pages: list[Page] = []
    full_backs = layout.back_slots(flip, back_offset_mm) if backs is not None else ()  # shared by every full sheet
    for start in range(0, len(fronts), layout.per_page):
        chunk = range(start, min(start + layout.per_page, len(fronts)))
        slots = layout.slots_for(len(chunk))  # a part-filled sheet bleeds towards its empty slots
        pages.append(Page(layout.paper, tuple(
            _place(fronts[i], slots[i - start]) for i in chunk), layout.marks_for(len(chunk))))
        if backs is not None:
            back_slots = full_backs if len(chunk) == layout.per_page else layout.back_slots(
                flip, back_offset_mm, len(chunk))
            pages.append(Page(layout.paper, tuple(_place(backs[i], back_slots[i - start]) for i in chunk)))
    return pages


def fits_in_slot(layout: SheetLayout, card: CardSize) -> bool:
    """Whether a card of size ``card`` fits, trim and bleed, in one slot of ``layout`` (upright)."""
    return (card.width_mm <= layout.card.width_mm and card.height_mm <= layout.card.height_mm
            and card.bleed_width_mm <= layout.card.bleed_width_mm
            and card.bleed_height_mm <= layout.card.bleed_height_mm)


def _room(slot: Slot, cards: Sequence[Slot]) -> Box:
    """What a slot without a card holds for smaller cards and their marks: its trim less the
    bleed its neighbours paint into it, ``MARK_OFFSET_MM`` clear of both."""
    x0, y0, x1, y1 = slot.trim.x_mm, slot.trim.y_mm, slot.trim.right_mm, slot.trim.bottom_mm
    for card in cards:
        if card.row == slot.row and card.column == slot.column - 1:
            x0 = max(x0, card.paint.right_mm)
        elif card.row == slot.row and card.column == slot.column + 1:
            x1 = min(x1, card.paint.x_mm)
        elif card.column == slot.column and card.row == slot.row - 1:
            y0 = max(y0, card.paint.bottom_mm)
        elif card.column == slot.column and card.row == slot.row + 1:
            y1 = min(y1, card.paint.y_mm)
    return Box(x0, y0, x1 - x0, y1 - y0).grow(-MARK_OFFSET_MM)


def slot_grid(slot: Slot, room: Box, card: CardSize, gap_mm: float, count: int) -> tuple[tuple[Slot, ...], tuple[Line, ...]]:
    """Up to ``count`` smaller cards in one slot's ``room``, turned as the slot is: a centred grid
    of as many as fit with their full bleed and ``MIN_MARK_MM`` of mark on every side (at least
    one), sharing cut lines as cards on a sheet do; and their marks, inside ``room``.

    Cut the slot out on the sheet's marks, then the small cards on these.
    """
    turned = slot.clockwise_deg % 180 == 90
    w, h = (card.height_mm, card.width_mm) if turned else (card.width_mm, card.height_mm)
    margin = card.bleed_mm + MARK_OFFSET_MM + MIN_MARK_MM
    columns = max(1, grid_fit(room.w_mm, w, gap_mm, margin))
    rows = max(1, min(grid_fit(room.h_mm, h, gap_mm, margin), math.ceil(count / columns)))
    columns = min(columns, math.ceil(count / rows))  # as few rows, then columns, as the cards need
    grid_w, grid_h = columns * w + (columns - 1) * gap_mm, rows * h + (rows - 1) * gap_mm
    grid = _grid(room.cx_mm - grid_w / 2, room.cy_mm - grid_h / 2, columns, rows, w, h, gap_mm,
                 min(card.bleed_mm, gap_mm / 2), card.bleed_mm, card.bleed_mm, slot.clockwise_deg)
    # Within the slot less its neighbours' bleed (a card too big for marks keeps less bleed).
    limit = room.grow(MARK_OFFSET_MM)
    grid = tuple(replace(s, paint=_micrometres(s.paint.intersection(limit))) for s in grid)
    used = _exposed(grid, columns, rows, min(count, len(grid)), card.bleed_mm)
    used = tuple(replace(s, paint=_micrometres(s.paint.intersection(limit))) for s in used)
    return used, _crop_marks(room, grid, used, 0.0)


def packed_sheet_pages(
    layout: SheetLayout,
    fronts: Sequence[Face],
    backs: Sequence[Face] | None,
    fill: Sequence[tuple[CardSize, Face, Face | None]] = (),
    flip: Flip = "long",
    back_offset_mm: tuple[float, float] = (0.0, 0.0),
) -> tuple[list[Page], int]:
    """:func:`sheet_pages`, then smaller cards (``fill``: size, front, back) in the free slots of
    the last sheet, as many to a slot as fit (:func:`slot_grid`), with marks of their own inside
    the slot, clear of the bleed the cards beside the slot paint into it.

    Each smaller card's back lies behind its front on the back page. Returns the pages and how
    many of ``fill`` found a place (the rest go on sheets of their own grid).
    """
    pages = sheet_pages(layout, fronts, backs, flip, back_offset_mm)
    used = len(fronts) % layout.per_page
    if not used or not fill:
        return pages, 0
    cards = layout.slots_for(used)
    placements: list[Placement] = []
    back_placements: list[Placement] = []
    marks: list[Line] = []
    taken = filled = 0
    for slot in layout.slots[used:]:  # a prefix of ``fill``, so the cards left over keep their order
        if taken == len(fill) or not fits_in_slot(layout, fill[taken][0]):
            break
        size = fill[taken][0]
        run = next((i for i in range(taken, len(fill)) if fill[i][0] != size), len(fill)) - taken
        inner, inner_marks = slot_grid(slot, _room(slot, cards), size, layout.gap_mm, run)
        for place, (_, front, back) in zip(inner, fill[taken:taken + len(inner)]):
            placements.append(_place(front, place))
            back_placements.append(_place(back if back is not None else front,
                                          back_slot(place, layout.paper, flip, back_offset_mm)))
        marks.extend(inner_marks)
        taken += len(inner)
        filled += 1
    if not taken:
        return pages, 0
    marks[:0] = layout.marks_for(used + filled)
    if backs is not None:
        pages[-2] = Page(layout.paper, pages[-2].placements + tuple(placements), tuple(marks))
        pages[-1] = Page(layout.paper, pages[-1].placements + tuple(back_placements))
    else:
        pages[-1] = Page(layout.paper, pages[-1].placements + tuple(placements), tuple(marks))
    return pages, taken


def _place(face: Face, slot: Slot) -> Placement:
    x_mm, y_mm = slot.origin
    return Placement(face, x_mm, y_mm, slot.clip_in_card_frame, slot.clockwise_deg)


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
