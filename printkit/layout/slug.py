"""The slug: text in a sheet's margin, outside the cards and their crop marks, saying how to print
the sheet and which sheet it is (``Calc · expert · sheet 3 of 21 · fronts``).

A sheet printed "fit to page" is a few per cent small and every card comes out wrong, so the line
above the cards asks for actual size; the line below names the sheet, so a stack of printed
sheets can be put in order and a misprinted one printed again. Each line sits in the widest stretch
of its margin between the crop marks, clear of them by :data:`CLEAR_MM` and of the printer's
unprintable border. Pure geometry, like :mod:`printkit.layout.imposition`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from printkit.fonts import KOREAN, SYMBOLS
from printkit.layout.geometry import Box, Size
from printkit.layout.imposition import MARK_OFFSET_MM, MIN_MARGIN_MM, Slot
from printkit.layout.ops import Op
from printkit.layout.text import fit_line, undrawable

PRINT_AT = "Print at 100% (actual size): no fit to page, no scaling"
FONT = KOREAN  # the slug's own font: Latin and Hangul
CLEAR_MM = 1.0  # between the text and a crop mark or a card's paint
MAX_SIZE_MM = 2.2  # about 6 pt
MIN_SIZE_MM = 1.0
COLOR = "#000000"


def sheet_name(parts: Sequence[str], number: int, total: int, side: str) -> str:
    """``Calc · expert · sheet 3 of 21 · fronts``: the parts that name the deck, then the sheet."""
    return " · ".join([*(p for p in parts if p), f"sheet {number} of {total}", side])


class SheetSlugs:
    """The slugs of the sheets of one grid of card slots: ``above_text`` (:data:`PRINT_AT`) in the
    margin above the grid, each sheet's name below it.

    The whole grid places the lines (every sheet of a layout has them in one place); the marks
    lie on the slots' cut lines, from :data:`MARK_OFFSET_MM` outside the painted cards outwards.
    The line above is the same on every sheet: it is set once, and every sheet's slug shares its ops.
    """

    def __init__(self, paper: Size, grid: Sequence[Slot], font: Path, margin_mm: float = MIN_MARGIN_MM,
                 above_text: str = PRINT_AT, fallbacks: Sequence[Path] = ()) -> None:
        xs = sorted({round(v, 6) for s in grid for v in (s.trim.x_mm, s.trim.right_mm)})
        top = min(s.paint.y_mm for s in grid) - MARK_OFFSET_MM - CLEAR_MM
        bottom = max(s.paint.bottom_mm for s in grid) + MARK_OFFSET_MM + CLEAR_MM
        x0, x1 = _widest_stretch(xs, margin_mm, paper.width_mm - margin_mm)
        self.above = slug_lines(Box(x0, margin_mm, x1 - x0, top - margin_mm), above_text, font)
        self.below = Box(x0, bottom, x1 - x0, paper.height_mm - margin_mm - bottom)
        self.font, self.fallbacks = font, tuple(fallbacks)

    def __call__(self, name: str) -> tuple[Op, ...]:
        """The slug of the sheet called ``name``: the line above the grid, then ``name`` below it."""
        return self.above + slug_lines(self.below, name, self.font, self.fallbacks)


def _widest_stretch(cuts: Sequence[float], low: float, high: float) -> tuple[float, float]:
    """The widest stretch between neighbouring cut lines (or a cut line and the printable edge),
    ``CLEAR_MM`` clear of both; of equal ones the nearest the middle."""
    edges = [low, *(x for x in cuts if low < x < high), high]
    middle = (low + high) / 2
    spans = [(a + (0 if i == 0 else CLEAR_MM), b - (0 if i == len(edges) - 2 else CLEAR_MM))
             for i, (a, b) in enumerate(zip(edges, edges[1:]))]
    return max(spans, key=lambda s: (round(s[1] - s[0], 6), -abs((s[0] + s[1]) / 2 - middle)))


def undrawn(text: str, fallbacks: Sequence[Path] = ()) -> str:
    """The characters of ``text`` (other than whitespace) that a slug line set in :data:`FONT`
    with ``fallbacks`` (as :func:`slug_lines` takes them) leaves out: no font has them."""
    return undrawable(text, (FONT, *fallbacks, SYMBOLS))


def slug_lines(box: Box, text: str, font: Path, fallbacks: Sequence[Path] = ()) -> tuple[Op, ...]:
    """``text`` on one line centred in ``box``, as large as fits up to :data:`MAX_SIZE_MM`
    (nothing where the box has no room at all); a character ``font`` lacks is taken from
    ``fallbacks`` (a deck's own fonts, for its name), then the bundled symbols."""
    if box.w_mm <= 0 or box.h_mm <= 0:
        return ()
    fitted = fit_line(text, font, box, max_size_mm=MAX_SIZE_MM, min_size_mm=MIN_SIZE_MM, where="sheet slug",
                      color=COLOR, fallbacks=(*fallbacks, SYMBOLS))
    return tuple(fitted.ops)


def page_slug(paper: Size, name: str, font: Path, margin_mm: float = MIN_MARGIN_MM) -> tuple[Op, ...]:
    """The two slug lines at the foot of a page without cards (the alignment test), inside the
    printable area: :data:`PRINT_AT`, then ``name``."""
    line = MAX_SIZE_MM * 1.5
    width = paper.width_mm - 2 * margin_mm
    foot = paper.height_mm - margin_mm - 1.0
    return (slug_lines(Box(margin_mm, foot - 2 * line, width, line), PRINT_AT, font)
            + slug_lines(Box(margin_mm, foot - line, width, line), name, font))
