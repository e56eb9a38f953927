"""Saddle-stitch booklets: book pages imposed two-up on sheets (A5 on A4, half-Letter on Letter).

The book is set page by page as usual, but each page is captured as a PDF form XObject instead of
being emitted; at the end the forms are placed two per sheet side in saddle-stitch order, so the
printed sheets, printed double-sided (flip on the short edge), folded and stapled in the middle,
read in order. Pages are added at the end to reach a multiple of four, and always at least one:
the outside back cover is blank, every other page added is a notes page (a heading and ruled
lines), so a booklet never carries a run of blank pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from printkit import fonts
from printkit.errors import BuildError
from printkit.layout.geometry import paper_size
from printkit.render.page_boxes import set_page_boxes
from printkit.render.subset_tags import embed_fonts
from printkit.units import mm_to_pt


@dataclass(frozen=True)
class SheetSide:
    """One side of a sheet: the book pages (1-based, None = blank) on the left and right half."""

    left: int | None
    right: int | None


def padded_count(pages: int, blank_back: bool = False) -> int:
    """The page count rounded up to a multiple of four (a folded sheet holds four pages); with
    ``blank_back`` at least one blank page follows the last, so the outside back cover is blank."""
    if pages < 1:
        raise BuildError(f"a booklet needs at least one page, got {pages}")
    return -(-(pages + blank_back) // 4) * 4


def saddle_stitch_order(pages: int, blank_back: bool = False) -> list[SheetSide]:
    """Sheet sides in printing order (front, back, front, back …) for a book of ``pages`` pages
    (``blank_back``: padded so the last sheet's outside is blank, see padded_count).

    Sheet ``i`` (from the outside in) carries pages ``n−2i`` | ``2i+1`` on its front and
    ``2i+2`` | ``n−2i−1`` on its back, ``n`` being the padded count; pages past ``pages`` are blank.
    """
    n = padded_count(pages, blank_back)

    def page(number: int) -> int | None:
        return number if number <= pages else None

    sides = []
    for i in range(n // 4):
        sides.append(SheetSide(page(n - 2 * i), page(2 * i + 1)))
        sides.append(SheetSide(page(2 * i + 2), page(n - 2 * i - 1)))
    return sides


@dataclass(frozen=True)
class Imposition:
    """A booklet's page and sheet sizes in millimetres (the sheet is landscape, two pages wide)."""

    page_paper: str
    page_width_mm: float
    page_height_mm: float
    sheet_width_mm: float
    sheet_height_mm: float
    sheet_paper: str


def two_up(page_paper: str, sheet_paper: str) -> Imposition:
    """Pages of ``page_paper`` two side by side on ``sheet_paper`` turned landscape."""
    page, sheet = paper_size(page_paper), paper_size(sheet_paper).rotated()
    return Imposition(page_paper, page.width_mm, page.height_mm, sheet.width_mm, sheet.height_mm, sheet_paper)


IMPOSITIONS = {
    # Two A5 pages side by side fill a landscape A4 sheet exactly; likewise half-Letter on Letter.
    "a4": two_up("a5", "a4"),
    "a5": two_up("a5", "a4"),
    "letter": two_up("half-letter", "letter"),
}


def imposition_for(paper: str) -> Imposition:
    try:
        return IMPOSITIONS[paper]
    except KeyError:
        raise BuildError(f"no booklet imposition for paper {paper!r} (known: {', '.join(IMPOSITIONS)})") from None


NOTES = {"en": "Notes", "ko": "메모"}  # the heading of a notes page, by language
NOTE_LINE_MM = 8.0  # the ruling of a notes page: a line of handwriting
NOTE_INK = "#9a9a9a"


def notes_label(lang: str) -> str:
    return NOTES.get(lang.split("-")[0], NOTES["en"])


def booklet_canvas(imposition: Imposition, lang: str = "en", margin_mm: float = 14.0, heading_pt: float = 12.0):
    """A canvas class for platypus's ``canvasmaker`` that imposes the pages it is given, the pages
    added to fill the last sheet set as notes pages headed in ``lang`` (``margin_mm`` and
    ``heading_pt``: the book's margin and heading size)."""

    sheet_pt = (mm_to_pt(imposition.sheet_width_mm), mm_to_pt(imposition.sheet_height_mm))
    page_w_pt = mm_to_pt(imposition.page_width_mm)
    page_h_pt = mm_to_pt(imposition.page_height_mm)
    margin = mm_to_pt(margin_mm)

    def notes_page(canvas) -> None:
        """A page for the players' notes: its heading, then ruled lines down to the foot margin."""
        canvas.setFillColor("#1f3b5a")
        canvas.setFont(fonts.font_name(fonts.KOREAN_BOLD), heading_pt)
        top = page_h_pt - margin - heading_pt
        canvas.drawString(margin, top, notes_label(lang))
        canvas.setStrokeColor(NOTE_INK)
        canvas.setLineWidth(0.4)
        y = top - mm_to_pt(NOTE_LINE_MM) * 1.2
        while y >= margin * 1.2:
            canvas.line(margin, y, page_w_pt - margin, y)
            y -= mm_to_pt(NOTE_LINE_MM)

    class BookletCanvas(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._book_pages = 0
            self._begin_book_page()

        def _begin_book_page(self) -> None:
            self._book_pages += 1
            self.beginForm(f"bookpage{self._book_pages}")

        def showPage(self) -> None:  # noqa: N802 (reportlab's name)
            self.endForm()
            self._begin_book_page()

        def save(self) -> None:
            # The form opened after the last page stays empty; it is never ended or used.
            pages = self._book_pages - 1
            self._restartAccumulators()
            self.pop_state_stack()
            self.setPageSize(sheet_pt)
            # A sheet is folded in the middle and stapled, never cut: its two pages fill it exactly
            # and have no bleed, and a fold is no trim line, so the finished sheet is the whole
            # sheet: its TrimBox and BleedBox are the sheet (in place of the book page's, which
            # the document set on this canvas for the pages captured as forms).
            set_page_boxes(self, imposition.sheet_width_mm, imposition.sheet_height_mm)
            for index, side in enumerate(saddle_stitch_order(pages, blank_back=True)):
                # a None is a page added after the book's last
                for slot, number in enumerate((side.left, side.right)):
                    if number is None and index == slot == 0:
                        continue  # the outside back cover (the outer sheet's front, left) stays blank
                    self.saveState()
                    self.translate(slot * page_w_pt, 0)
                    if number is None:
                        notes_page(self)
                    else:
                        self.doForm(f"bookpage{number}")
                    self.restoreState()
                Canvas.showPage(self)
            embed_fonts(self)  # subsets tagged from this booklet's content, as every printkit PDF
            Canvas.save(self)

    return BookletCanvas
