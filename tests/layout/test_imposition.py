"""Sheet imposition: grid fit, positions, bleed allowance, crop marks, duplex mirroring."""

from __future__ import annotations

import itertools

import pytest

from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.layout.geometry import Box, paper_size
from printkit.layout.imposition import (
    MARK_MARGIN_MM,
    MARK_OFFSET_MM,
    MIN_MARGIN_MM,
    MIN_MARK_MM,
    alignment_pages,
    card_origin,
    card_page,
    grid_fit,
    impose,
    mirror_box,
    sheet_pages,
    to_card_frame,
)
from printkit.layout.ops import Face, Line, Rect
from printkit.fonts import SYMBOLS

POKER = CardSize(63.5, 88.9, bleed_mm=3.175)
A4, LETTER = paper_size("a4"), paper_size("letter")


def test_nine_upright_poker_cards_on_a4_eight_turned_on_letter():
    a4 = impose(A4, POKER)
    assert (a4.columns, a4.rows, a4.per_page, a4.clockwise_deg) == (3, 3, 9, 0)
    # 3 x 3 upright would leave Letter 6.35 mm top and bottom: no room for a mark that prints.
    letter = impose(LETTER, POKER)
    assert (letter.columns, letter.rows, letter.per_page, letter.clockwise_deg) == (2, 4, 8, 90)
    assert letter.slots[0].trim.w_mm == pytest.approx(88.9) and letter.slots[0].trim.h_mm == pytest.approx(63.5)


def test_grid_is_centred_and_cards_touch_without_gap():
    layout = impose(A4, POKER)
    first, last = layout.slots[0].trim, layout.slots[-1].trim
    assert first.x_mm == pytest.approx(A4.width_mm - last.right_mm)
    assert first.y_mm == pytest.approx(A4.height_mm - last.bottom_mm)
    assert first.x_mm == pytest.approx((210 - 3 * 63.5) / 2)
    assert layout.slots[1].trim.x_mm == pytest.approx(first.right_mm)


def test_gap_separates_cards_and_bleed_fills_half_of_it():
    layout = impose(A4, POKER, gap_mm=4.0)
    a, b = layout.slots[0], layout.slots[1]
    assert b.trim.x_mm - a.trim.right_mm == pytest.approx(4.0)
    assert a.paint.right_mm == pytest.approx(a.trim.right_mm + 2.0)
    assert b.paint.x_mm == pytest.approx(b.trim.x_mm - 2.0)
    wide = impose(A4, POKER, gap_mm=10.0).slots[0]
    assert wide.paint.right_mm == pytest.approx(wide.trim.right_mm + 3.175)  # never more than the bleed


def test_no_gap_means_shared_cut_lines_and_outer_bleed_only():
    layout = impose(A4, POKER)
    middle = layout.slots[4]
    assert middle.paint == middle.trim
    corner = layout.slots[0]
    assert corner.paint.y_mm == pytest.approx(corner.trim.y_mm - 3.175)  # 15 mm top margin: full bleed
    # 9.75 mm side margin: 0.5 mm gap, 3 mm of mark and the 4 mm border leave 2.25 mm of bleed.
    assert corner.paint.x_mm == pytest.approx(corner.trim.x_mm - 2.25)
    assert corner.paint.right_mm == pytest.approx(corner.trim.right_mm)


def test_paint_boxes_never_overlap():
    for gap in (0.0, 2.0, 6.35):
        slots = impose(LETTER, POKER, gap_mm=gap).slots
        for a, b in itertools.combinations(slots, 2):
            assert not a.paint.intersects(b.paint)


def test_cards_stay_inside_the_printable_margin():
    for paper, card, gap in [(A4, POKER, 0), (LETTER, POKER, 3), (A4, CardSize(70, 120), 0), (A4, CardSize(25, 25), 2),
                             (A4, CardSize(200, 100), 0)]:
        layout = impose(paper, card, gap)
        printable = Box(MIN_MARGIN_MM, MIN_MARGIN_MM, paper.width_mm - 2 * MIN_MARGIN_MM, paper.height_mm - 2 * MIN_MARGIN_MM)
        assert all(printable.contains(s.trim) for s in layout.slots)


def test_grid_fit_counts():
    assert grid_fit(210, 63.5, 0) == 3
    assert grid_fit(210, 63.5, 7) == 2  # 3 * 63.5 + 2 * 7 = 204.5 > 202
    assert impose(A4, CardSize(25, 25), 2).per_page == 7 * 10
    assert impose(A4, CardSize(70, 120)).per_page == 4


def test_a_landscape_card_too_big_for_marks_lies_turned_inside_the_plain_margin():
    layout = impose(A4, CardSize(280, 200))  # fits A4 only turned, and only without room for marks
    assert (layout.columns, layout.rows, layout.clockwise_deg) == (1, 1, 90)
    slot = layout.slots[0]
    assert slot.trim.w_mm == 200 and slot.trim.h_mm == 280
    assert slot.trim.x_mm >= 4 and slot.trim.y_mm >= 4 and slot.trim.right_mm <= 206 and slot.trim.bottom_mm <= 293
    upright = impose(A4, CardSize(200, 280))
    assert (upright.columns, upright.rows, upright.clockwise_deg) == (1, 1, 0)


def test_card_too_big_for_the_paper_is_an_error():
    with pytest.raises(BuildError, match="does not fit"):
        impose(A4, CardSize(250, 300))
    with pytest.raises(BuildError, match="negative"):
        impose(A4, POKER, gap_mm=-1)


@pytest.mark.parametrize("gap", [0.0, 3.0])
@pytest.mark.parametrize("paper", [A4, LETTER])
def test_crop_marks_lie_in_the_margins_only(paper, gap):
    layout = impose(paper, POKER, gap)
    grid = Box(
        min(s.paint.x_mm for s in layout.slots), min(s.paint.y_mm for s in layout.slots),
        max(s.paint.right_mm for s in layout.slots) - min(s.paint.x_mm for s in layout.slots),
        max(s.paint.bottom_mm for s in layout.slots) - min(s.paint.y_mm for s in layout.slots),
    )
    assert layout.crop_marks
    for mark in layout.crop_marks:
        box = Box(min(mark.x1_mm, mark.x2_mm), min(mark.y1_mm, mark.y2_mm),
                  abs(mark.x2_mm - mark.x1_mm), abs(mark.y2_mm - mark.y1_mm)).grow(mark.width_mm / 2)
        assert not box.intersects(grid)
        assert Box(0, 0, paper.width_mm, paper.height_mm).contains(box.grow(-mark.width_mm / 2))


def test_every_cut_line_gets_marks_on_both_sides():
    layout = impose(A4, POKER)
    vertical = [m for m in layout.crop_marks if m.x1_mm == m.x2_mm]
    horizontal = [m for m in layout.crop_marks if m.y1_mm == m.y2_mm]
    assert len(vertical) == 2 * 4 and len(horizontal) == 2 * 4  # 4 cut lines each way, top+bottom / left+right
    assert {round(m.x1_mm, 6) for m in vertical} == {round(layout.slots[0].trim.x_mm + i * 63.5, 6) for i in range(4)}


def test_mirror_box_long_and_short_edge():
    box = Box(10, 20, 30, 40)
    assert mirror_box(box, A4, "long") == Box(210 - 40, 20, 30, 40)
    assert mirror_box(box, A4, "short") == Box(10, 297 - 60, 30, 40)
    assert mirror_box(mirror_box(box, A4, "long"), A4, "long") == box
    with pytest.raises(ValueError):
        mirror_box(box, A4, "diagonal")


def test_back_slots_sit_behind_their_fronts():
    layout = impose(A4, POKER)
    backs = layout.back_slots("long")
    for front, back in zip(layout.slots, backs):
        assert back.trim == mirror_box(front.trim, A4, "long")
    # Long-edge flip swaps the columns: the back of slot 0 (top-left) is printed top-right.
    assert backs[0].trim.x_mm == pytest.approx(layout.slots[2].trim.x_mm)
    short = layout.back_slots("short")
    assert short[0].trim.y_mm == pytest.approx(layout.slots[6].trim.y_mm)


def test_back_offset_is_measured_as_seen_from_the_front():
    layout = impose(A4, POKER)
    plain = layout.back_slots("long")[0].trim
    shifted = layout.back_slots("long", (1.0, 2.0))[0].trim
    # Seen from the front, "1 mm right" is 1 mm left on the back page of a long-edge flip.
    assert shifted.x_mm == pytest.approx(plain.x_mm - 1.0)
    assert shifted.y_mm == pytest.approx(plain.y_mm + 2.0)


def test_sheet_pages_interleave_fronts_and_backs():
    layout = impose(A4, POKER)
    fronts = [Face((Rect(0, 0, 1, 1, fill="#000000"),)) for _ in range(10)]
    backs = [Face(()) for _ in range(10)]
    pages = sheet_pages(layout, fronts, backs)
    assert [len(p.placements) for p in pages] == [9, 9, 1, 1]
    assert pages[0].ops == layout.crop_marks and pages[1].ops == ()
    assert len(sheet_pages(layout, fronts, None)) == 2
    with pytest.raises(ValueError):
        sheet_pages(layout, fronts, backs[:3])


def test_card_page_boxes():
    page = card_page(Face(()), POKER)
    assert page.size.width_mm == pytest.approx(69.85) and page.size.height_mm == pytest.approx(95.25)
    assert page.trim == Box(3.175, 3.175, 63.5, 88.9)
    assert page.placements[0].x_mm == 3.175 and page.placements[0].clip is None


def test_alignment_back_crosses_mirror_the_front_scales():
    front, back = alignment_pages(A4, SYMBOLS, "long", (0.0, 0.0))
    centre_lines = [op for op in back.ops if isinstance(op, Line)]
    # The middle point is on the flip axis, so its cross is at the page centre.
    assert any(op.x1_mm == op.x2_mm == pytest.approx(105.0) for op in centre_lines)
    _, shifted = alignment_pages(A4, SYMBOLS, "long", (2.0, 0.0))
    assert any(op.x1_mm == op.x2_mm == pytest.approx(103.0) for op in shifted.ops if isinstance(op, Line))


@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("gap", [0.0, 3.0])
def test_every_cut_line_keeps_a_printable_crop_mark(paper, gap):
    layout = impose(paper, POKER, gap)
    printable = Box(MIN_MARGIN_MM, MIN_MARGIN_MM, paper.width_mm - 2 * MIN_MARGIN_MM, paper.height_mm - 2 * MIN_MARGIN_MM)
    left = layout.slots[0].trim.x_mm
    top = layout.slots[0].trim.y_mm
    for mark in layout.crop_marks:
        if mark.x1_mm == mark.x2_mm:
            inside = min(max(mark.y1_mm, mark.y2_mm), printable.bottom_mm) - max(min(mark.y1_mm, mark.y2_mm), printable.y_mm)
            room = top - MARK_OFFSET_MM - MIN_MARGIN_MM  # what a mark could have with no bleed at all
        else:
            inside = min(max(mark.x1_mm, mark.x2_mm), printable.right_mm) - max(min(mark.x1_mm, mark.x2_mm), printable.x_mm)
            room = left - MARK_OFFSET_MM - MIN_MARGIN_MM
        assert inside >= min(MIN_MARK_MM, room) - 1e-6, mark


def test_letter_keeps_full_bleed_and_long_marks_with_turned_cards():
    layout = impose(LETTER, POKER)
    corner = layout.slots[0]
    expected = corner.trim.grow(3.175, 3.175, 0, 0)  # full outer bleed, none between cards
    assert [corner.paint.x_mm, corner.paint.y_mm, corner.paint.w_mm, corner.paint.h_mm] == pytest.approx(
        [expected.x_mm, expected.y_mm, expected.w_mm, expected.h_mm])
    assert min(_length(m) for m in layout.crop_marks) > 5.0  # 12.7 mm margin - bleed - 4 mm border
    a4 = impose(A4, POKER).slots[0]
    assert a4.paint.y_mm == pytest.approx(a4.trim.y_mm - 3.175)


def _length(mark: Line) -> float:
    return abs(mark.x2_mm - mark.x1_mm) + abs(mark.y2_mm - mark.y1_mm)


CARDS = {"poker": POKER, "bridge": CardSize(57.15, 88.9, bleed_mm=3.175), "mini": CardSize(44.45, 63.5, bleed_mm=3),
         "tarot": CardSize(70, 120, bleed_mm=3), "token": CardSize(25, 25, bleed_mm=3.175),
         "huge": CardSize(200, 100, bleed_mm=3)}


@pytest.mark.parametrize("card", list(CARDS))
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("gap", [0.0, 3.0])
def test_crop_marks_stay_off_the_printers_border_and_off_every_card(paper, card, gap):
    layout = impose(paper, CARDS[card], gap)
    printable = Box(4.0, 4.0, paper.width_mm - 8.0, paper.height_mm - 8.0)
    for count in range(1, layout.per_page + 1):
        for mark in layout.marks_for(count):
            line = Box(min(mark.x1_mm, mark.x2_mm), min(mark.y1_mm, mark.y2_mm),
                       abs(mark.x2_mm - mark.x1_mm), abs(mark.y2_mm - mark.y1_mm))
            assert printable.contains(line), (card, mark)  # the line itself is at least 4 mm from every edge
            assert not any(line.grow(mark.width_mm / 2).intersects(s.paint) for s in layout.slots), (card, mark)
    if card != "huge":  # grids that fit with room for marks: every mark is a full-size printable one
        assert layout.crop_marks and min(_length(m) for m in layout.crop_marks) >= MIN_MARK_MM - 1e-9
        assert all(min(s.trim.x_mm, s.trim.y_mm) >= MARK_MARGIN_MM - 1e-9 for s in layout.slots)


def test_turned_slots_place_the_card_frame_on_its_footprint():
    layout = impose(LETTER, POKER)
    slot = layout.slots[0]
    # Turned clockwise, the card's top-left corner is the footprint's top-right corner.
    assert slot.origin == pytest.approx((slot.trim.right_mm, slot.trim.y_mm))
    # The clip is the paint box in the card's own frame: trim plus the bleed it keeps on each side.
    # Page left (outer bleed) is the card's bottom; page top (outer bleed) is the card's left.
    clip = slot.clip_in_card_frame
    assert (clip.x_mm, clip.y_mm) == pytest.approx((-3.175, 0.0))
    assert (clip.w_mm, clip.h_mm) == pytest.approx((63.5 + 3.175, 88.9 + 3.175))
    page = sheet_pages(layout, [Face(())], [Face(())])
    front, back = page[0].placements[0], page[1].placements[0]
    assert (front.x_mm, front.y_mm, front.clockwise_deg) == pytest.approx((*slot.origin, 90))
    # The back, mirrored for a long-edge flip, is turned the other way round.
    back_slot = layout.back_slots("long")[0]
    assert back.clockwise_deg == 270 and back_slot.trim == mirror_box(slot.trim, LETTER, "long")
    assert (back.x_mm, back.y_mm) == pytest.approx((back_slot.trim.x_mm, back_slot.trim.bottom_mm))
    assert back_slot.clip_in_card_frame.w_mm == pytest.approx(63.5 + 3.175)


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_card_frame_round_trip(turn):
    footprint = Box(10, 20, 30, 40)
    origin = card_origin(footprint, turn)
    inner = to_card_frame(footprint, origin, turn)
    assert (inner.x_mm, inner.y_mm) == pytest.approx((0, 0))
    assert {round(inner.w_mm, 9), round(inner.h_mm, 9)} == {30, 40}
    with pytest.raises(ValueError):
        card_origin(footprint, 45)


def test_mini_cards_turn_on_a4_when_that_fits_more():
    layout = impose(A4, CardSize(44.45, 63.5))
    assert (layout.per_page, layout.clockwise_deg) == (18, 90)  # upright: 4 x 4 = 16
    assert impose(A4, CardSize(70, 120)).clockwise_deg == 0  # 4 either way: upright wins the tie


def test_a_part_filled_sheet_marks_only_its_cards_cut_lines():
    layout = impose(A4, POKER)
    marks = layout.marks_for(1)
    first = layout.slots[0].trim
    xs = {round(m.x1_mm, 6) for m in marks if m.x1_mm == m.x2_mm}
    ys = {round(m.y1_mm, 6) for m in marks if m.y1_mm == m.y2_mm}
    assert xs == {round(first.x_mm, 6), round(first.right_mm, 6)}
    assert ys == {round(first.y_mm, 6), round(first.bottom_mm, 6)}
    # Still in the margins of the whole grid, not in the empty slots.
    assert max(max(m.y1_mm, m.y2_mm) for m in marks if m.x1_mm == m.x2_mm) > layout.slots[-1].trim.bottom_mm
    assert set(layout.marks_for(9)) == set(layout.crop_marks)
    pages = sheet_pages(layout, [Face(())] * 10, None)
    assert pages[0].ops == layout.crop_marks and pages[1].ops == marks


def test_the_readmes_bleed_table_is_what_impose_lays_out():
    # The command reference tells users how much bleed survives at the paper's edges and why;
    # the numbers there must be the ones printed.
    import re
    from pathlib import Path

    from printkit.deck import CARD_SIZES_MM

    readme = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    row = re.compile(r"^\| (A4|Letter) \| (\w+) \| (\d+) × (\d+)( turned)? \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \|$")
    rows = [m.groups() for m in map(row.match, readme.splitlines()) if m]
    assert {(paper, card) for paper, card, *_ in rows} == {(p, c) for p in ("A4", "Letter") for c in CARD_SIZES_MM}
    for paper, card, columns, rows_, turned, margin_x, margin_y, bleed_x, bleed_y in rows:
        layout = impose(paper_size(paper.lower()), CardSize(*CARD_SIZES_MM[card], bleed_mm=3.175))
        corner = layout.slots[0]
        assert (layout.columns, layout.rows, layout.clockwise_deg) == (int(columns), int(rows_), 90 if turned else 0)
        assert (corner.trim.x_mm, corner.trim.y_mm) == pytest.approx((float(margin_x), float(margin_y)), abs=1e-3)
        bleed = (corner.trim.x_mm - corner.paint.x_mm, corner.trim.y_mm - corner.paint.y_mm)
        assert bleed == pytest.approx((float(bleed_x), float(bleed_y)), abs=1e-3), (paper, card)


def test_full_bleed_beside_poker_cards_on_a4_would_cut_the_marks_below_the_minimum():
    # Why A4 poker sheets keep 2.25 mm of side bleed: with 3.175 mm the marks at the sides
    # would be 9.75 - 3.175 - 0.5 - 4 = 2.075 mm long, under MIN_MARK_MM.
    layout = impose(A4, POKER)
    side = layout.slots[0].trim.x_mm
    assert side - POKER.bleed_mm - MARK_OFFSET_MM - MIN_MARGIN_MM == pytest.approx(2.075)
    assert 2.075 < MIN_MARK_MM
    side_marks = [m for m in layout.crop_marks if m.y1_mm == m.y2_mm]
    assert min(_length(m) for m in side_marks) == pytest.approx(MIN_MARK_MM)


def _page_box(placement) -> Box:
    """Where an upright placement paints on the page: its clip (card frame) moved to its place."""
    assert placement.clockwise_deg in (0, 360) or placement.clockwise_deg % 360 == 0
    return placement.clip.shift(placement.x_mm, placement.y_mm)


def test_smaller_cards_fill_the_free_slots_of_the_last_sheet_front_and_back():
    from printkit.layout.imposition import back_slot, packed_sheet_pages

    layout = impose(paper_size("a4"), CardSize(63.5, 88.9, 3.0, 3.0))
    token = CardSize(25, 25, 3.0, 2.0)
    fronts, backs = [Face(())] * 7, [Face(())] * 7
    fill = [(token, Face((Rect(0, 0, 1, 1),)), Face((Rect(0, 0, 2, 2),)))] * 5
    pages, taken = packed_sheet_pages(layout, fronts, backs, fill)
    # Two free slots, two tokens each (one column: the card at the left bleeds into slot 7);
    # the fifth goes elsewhere.
    assert taken == 4 and len(pages) == 2
    front, back = pages
    assert len(front.placements) == len(back.placements) == 11
    cards = layout.slots_for(7)
    for i, placed in enumerate(front.placements[7:]):
        slot = layout.slots[7 + i // 2]
        painted = _page_box(placed)
        assert slot.trim.x_mm < painted.x_mm and painted.right_mm < slot.trim.right_mm
        assert slot.trim.y_mm < painted.y_mm and painted.bottom_mm < slot.trim.bottom_mm
        assert not any(painted.intersects(c.paint) for c in cards)  # clear of the cards' bleed
        # Full bleed but where the two share a cut line, as cards on a sheet do.
        assert painted.w_mm == pytest.approx(31) and painted.h_mm == pytest.approx(28)
        # Its back lies behind it.
        behind = mirror_box(painted, layout.paper, "long")
        assert _page_box(back.placements[7 + i]) == pytest.approx(behind)
        assert back.placements[7 + i].face.ops[0].w_mm == 2
    # The tokens' own marks: inside their slots, off every card and token.
    inner = front.ops[len(layout.marks_for(9)):]
    assert inner and front.ops[:len(layout.marks_for(9))] == layout.marks_for(9)
    painted = [c.paint for c in cards] + [_page_box(p) for p in front.placements[7:]]
    for mark in inner:
        line = Box(min(mark.x1_mm, mark.x2_mm), min(mark.y1_mm, mark.y2_mm),
                   abs(mark.x2_mm - mark.x1_mm) or 1e-6, abs(mark.y2_mm - mark.y1_mm) or 1e-6)
        assert not any(line.intersects(b) for b in painted)
        assert any(s.trim.x_mm < line.x_mm and line.right_mm < s.trim.right_mm
                   and s.trim.y_mm < line.y_mm and line.bottom_mm < s.trim.bottom_mm for s in layout.slots[7:])
        assert _length(mark) >= MIN_MARK_MM
    # Larger cards never go in a slot; a full last sheet takes none.
    assert packed_sheet_pages(layout, fronts, backs, [(CardSize(70, 120, 3, 3), Face(()), Face(()))])[1] == 0
    assert packed_sheet_pages(layout, [Face(())] * 9, None, fill)[1] == 0


@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("count", range(1, 9))
def test_a_card_beside_an_empty_slot_paints_its_full_bleed_towards_it(paper, count):
    layout = impose(paper, POKER)
    slots = layout.slots_for(count)
    full = {s.index: s for s in layout.slots}
    filled = {(s.column, s.row) for s in slots}
    for s in slots:
        t, p, usual = s.trim, s.paint, full[s.index].paint

        def side(column: int, row: int, grown: float, kept: float, bleed: float) -> None:
            inside = 0 <= column < layout.columns and 0 <= row < layout.rows
            if inside and (column, row) not in filled:
                assert grown == pytest.approx(POKER.bleed_mm), (s.index, column, row)
            else:  # a neighbour card (shared cut line) or the margin: as on a full sheet
                assert grown == pytest.approx(bleed)

        side(s.column - 1, s.row, t.x_mm - p.x_mm, 0, t.x_mm - usual.x_mm)
        side(s.column + 1, s.row, p.right_mm - t.right_mm, 0, usual.right_mm - t.right_mm)
        side(s.column, s.row - 1, t.y_mm - p.y_mm, 0, t.y_mm - usual.y_mm)
        side(s.column, s.row + 1, p.bottom_mm - t.bottom_mm, 0, usual.bottom_mm - t.bottom_mm)
        # Never into another card's trim, and the sheet's marks stay clear.
        assert not any(p.grow(-1e-6).intersects(o.trim) for o in slots if o is not s)
        for mark in layout.marks_for(count):
            line = Box(min(mark.x1_mm, mark.x2_mm), min(mark.y1_mm, mark.y2_mm),
                       abs(mark.x2_mm - mark.x1_mm) or 1e-6, abs(mark.y2_mm - mark.y1_mm) or 1e-6)
            assert not line.intersects(p)
    # The back page mirrors it: the bleed is on the other side as seen from the back.
    for front, back in zip(slots, layout.back_slots("long", count=count)):
        assert back.paint == mirror_box(front.paint, paper, "long")
    assert layout.slots_for(layout.per_page) == layout.slots
