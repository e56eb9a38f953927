"""Paper: the named sizes printkit prints on, the border home printers cannot print, and how many
cards fit along a sheet. Below both the spec (which refuses a card that fits no sheet, at its line)
and the layout (which imposes cards on sheets), so that the two agree."""

from __future__ import annotations

import math

from printkit.units import MM_PER_INCH


def _inches(width_in: float, height_in: float) -> tuple[float, float]:
    # Rounded to a micrometre so 8.5 in prints as 215.9, not 215.89999999999998.
    return round(width_in * MM_PER_INCH, 6), round(height_in * MM_PER_INCH, 6)


# Papers, portrait, as (width, height) in mm: card sheets print on A4 or Letter, rulebooks also
# on A5 and half-Letter.
PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "a5": (148.0, 210.0),
    "letter": _inches(8.5, 11.0),  # 215.9 x 279.4
    "half-letter": _inches(5.5, 8.5),  # 139.7 x 215.9
}

# Card sheets print on these papers (``build --paper``).
SHEET_PAPERS = ("a4", "letter")

# Cards stay this far inside the paper edge: home printers cannot print closer.
MIN_MARGIN_MM = 4.0


def grid_fit(paper_mm: float, card_mm: float, gap_mm: float, margin_mm: float = MIN_MARGIN_MM) -> int:
    """How many cards of length ``card_mm`` with ``gap_mm`` between them fit along ``paper_mm``."""
    usable = paper_mm - 2 * margin_mm
    return max(0, math.floor((usable + gap_mm) / (card_mm + gap_mm) + 1e-9))


def fits_on_paper(width_mm: float, height_mm: float, paper: str) -> bool:
    """Whether one card of this trim size fits on ``paper`` inside :data:`MIN_MARGIN_MM`, upright
    or quarter-turned (as :func:`printkit.layout.imposition.impose` lays it out, crop marks or not)."""
    paper_w, paper_h = PAPER_SIZES_MM[paper]
    return any(grid_fit(paper_w, w, 0.0) * grid_fit(paper_h, h, 0.0) > 0
               for w, h in ((width_mm, height_mm), (height_mm, width_mm)))


def paper_name(paper: str) -> str:
    """``A4``, ``Letter``: a paper as messages name it."""
    return "A4" if paper == "a4" else paper.capitalize()


def no_fit_message(width_mm: float, height_mm: float, papers: tuple[str, ...] = SHEET_PAPERS) -> str:
    """``a 300x300 mm card does not fit on 210x297 mm (A4) or … paper with a 4 mm margin``."""
    named = " or ".join(f"{PAPER_SIZES_MM[n][0]:g}x{PAPER_SIZES_MM[n][1]:g} mm ({paper_name(n)})" for n in papers)
    return f"a {width_mm:g}x{height_mm:g} mm card does not fit on {named} paper with a {MIN_MARGIN_MM:g} mm margin"


def unfit_message(width_mm: float, height_mm: float, paper: str) -> str | None:
    """Why a card of this trim size cannot go on sheets of ``paper``, and the sheet paper it fits
    on; None when it fits. The one wording of a build's refusal and of ``check``'s warning."""
    if fits_on_paper(width_mm, height_mm, paper):
        return None
    message = no_fit_message(width_mm, height_mm, (paper,))
    fits = [n for n in SHEET_PAPERS if fits_on_paper(width_mm, height_mm, n)]
    if not fits:
        return message
    return f"{message}; it fits on {paper_name(fits[0])} (build with --paper {fits[0]}), or make the card smaller"
