"""Cards survive a 1 mm miscut and a back printed off by a millimetre or two.

A frame or border line parallel to the cut and close to it shows every error of the blade or of
duplex registration as a lopsided card. No template draws one between the trim and 4 mm inside
it: colour runs full-bleed and the content stays inside the safe zone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.pipeline.names import all_cards
from printkit.layout import templates
from printkit.layout.ops import Line, Rect
from printkit.decks import load_all_variants

# The face of cards with no design of their own, with its example cards.
GENERIC = Path(templates.__file__).parent / "generic.yaml"

SHIPPED = ("calc", "stack", "clag", "emberfall", str(GENERIC))
# No stroked edge parallel to the cut lies closer to it than this, inside the trim.
CLEAR_MM = 4.0
# Shorter strokes are marks (a tick, a crossbar), not a frame along the edge.
MIN_RUN_MM = 1.0


def near_cut_strokes(face, width_mm: float, height_mm: float) -> list[str]:
    """The stroked rect sides and axis-parallel lines of ``face`` whose ink lies between the trim
    edge they run along and ``CLEAR_MM`` inside it (the stroke's own half width counts)."""
    found: list[str] = []

    def check(axis: str, at: float, start: float, end: float, stroke: float, op) -> None:
        if end - start < MIN_RUN_MM:
            return
        size = height_mm if axis == "h" else width_mm
        for distance in (at, size - at):
            inner, outer = distance + stroke / 2, distance - stroke / 2
            if inner > 0 and outer < CLEAR_MM - 1e-6 and distance > -stroke / 2:
                found.append(f"{type(op).__name__} {'horizontal' if axis == 'h' else 'vertical'} edge "
                             f"{distance:.2f} mm inside the cut: {op!r}"[:200])

    for op in face.ops:
        if isinstance(op, Rect) and op.stroke:
            x0, y0, x1, y1 = op.x_mm, op.y_mm, op.x_mm + op.w_mm, op.y_mm + op.h_mm
            straight_x = (x0 + op.radius_mm, x1 - op.radius_mm)
            straight_y = (y0 + op.radius_mm, y1 - op.radius_mm)
            for y in (y0, y1):
                check("h", y, *straight_x, op.stroke_mm, op)
            for x in (x0, x1):
                check("v", x, *straight_y, op.stroke_mm, op)
        elif isinstance(op, Line):
            if abs(op.y1_mm - op.y2_mm) < 1e-6:
                check("h", op.y1_mm, min(op.x1_mm, op.x2_mm), max(op.x1_mm, op.x2_mm), op.width_mm, op)
            elif abs(op.x1_mm - op.x2_mm) < 1e-6:
                check("v", op.x1_mm, min(op.y1_mm, op.y2_mm), max(op.y1_mm, op.y2_mm), op.width_mm, op)
    return found


def _distinct_cards(deck):
    seen = {}
    for card in all_cards(deck):
        if not templates.is_page(card):
            seen.setdefault(repr((sorted(card.attrs.items()), card.size, card.art)), card)
    return list(seen.values())


@pytest.mark.parametrize("name", SHIPPED, ids=lambda n: Path(n).stem)
def test_no_frame_line_near_the_cut_on_any_face(name):
    problems = []
    for deck in load_all_variants(name):
        for card in _distinct_cards(deck):
            for side, make in (("front", templates.front), ("back", templates.back)):
                for found in near_cut_strokes(make(card, deck), card.size.width_mm, card.size.height_mm):
                    problems.append(f"{deck.name} {card.label} {side}: {found}")
    assert not problems, "\n".join(sorted(set(problems))[:20])


def test_the_check_finds_a_frame_on_the_safe_line():
    from printkit.layout.ops import Face

    frame = Face((Rect(3.0, 3.0, 57.5, 82.9, stroke="#000000", stroke_mm=0.9, radius_mm=3.0),))
    assert len(near_cut_strokes(frame, 63.5, 88.9)) == 4
    deep = Face((Rect(4.5, 4.5, 54.5, 79.9, stroke="#000000", stroke_mm=0.5),
                 Line(0.0, 40.0, 63.5, 40.0, "#000000", 0.3)))  # a rule across the card is not a frame
    assert near_cut_strokes(deep, 63.5, 88.9) == []
