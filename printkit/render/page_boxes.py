"""A PDF page's TrimBox and BleedBox: the one way every printkit PDF writes them (card sheets,
per-card files, rulebook pages and booklet sheets alike), so a print shop's preflight finds both
on every page of every file."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from printkit.layout.geometry import Box
from printkit.units import mm_to_pt


def box_pt(box: Box, page_height_mm: float) -> list[float]:
    """A page-frame box (y down, mm) as a PDF box array [x1 y1 x2 y2] in points (y up)."""
    return [round(mm_to_pt(v), 4) for v in
            (box.x_mm, page_height_mm - box.bottom_mm, box.right_mm, page_height_mm - box.y_mm)]


def set_page_boxes(canvas: Canvas, width_mm: float, height_mm: float, trim: Box | None = None,
                   bleed: Box | None = None) -> None:
    """Give the pages ``canvas`` finishes from now on (``width_mm`` × ``height_mm``) a TrimBox
    ``trim`` and a BleedBox ``bleed`` (page frame, mm); None is the whole page."""
    whole = Box(0, 0, width_mm, height_mm)
    canvas.setTrimBox(box_pt(trim or whole, height_mm))
    canvas.setBleedBox(box_pt(bleed or whole, height_mm))
