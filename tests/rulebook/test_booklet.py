"""Saddle-stitch imposition: page order, blank padding, and two-up sheets."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.platypus import Spacer

from printkit.errors import BuildError
from printkit.rulebook import book, booklet
from printkit.rulebook import markdown as md
from printkit.rulebook.booklet import SheetSide, padded_count, saddle_stitch_order
from printkit.units import mm_to_pt


def pairs(sides):
    return [(s.left, s.right) for s in sides]


def test_four_pages():
    assert pairs(saddle_stitch_order(4)) == [(4, 1), (2, 3)]


def test_eight_pages():
    assert pairs(saddle_stitch_order(8)) == [(8, 1), (2, 7), (6, 3), (4, 5)]


def test_twelve_pages():
    assert pairs(saddle_stitch_order(12)) == [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]


@pytest.mark.parametrize("pages", range(1, 41))
def test_every_page_once_and_facing_pages_add_up(pages):
    sides = saddle_stitch_order(pages)
    n = padded_count(pages)
    assert n % 4 == 0 and n - 4 < pages <= n
    assert len(sides) == n // 2
    placed = [p for s in sides for p in (s.left, s.right) if p is not None]
    assert sorted(placed) == list(range(1, pages + 1))
    # On every side of a folded sheet the two page numbers (blanks included) add up to n + 1.
    full = saddle_stitch_order(n)
    assert all(s.left + s.right == n + 1 for s in full)


def test_blank_pages_go_at_the_end():
    assert saddle_stitch_order(5) == [SheetSide(None, 1), SheetSide(2, None), SheetSide(None, 3), SheetSide(4, 5)]


def test_no_pages_is_an_error():
    with pytest.raises(BuildError):
        padded_count(0)


def test_impositions():
    assert booklet.imposition_for("a4").page_paper == "a5"
    letter = booklet.imposition_for("letter")
    assert letter.page_paper == "half-letter" and letter.sheet_width_mm == pytest.approx(2 * letter.page_width_mm)
    with pytest.raises(BuildError, match="'b5'"):
        booklet.imposition_for("b5")


def _numbered_book(chapters: int) -> md.Document:
    text = "# Book\n\n" + "\n".join(f"## Chapter {i}\n\nPAGE-MARK-{i}\n\n::: pagebreak\n" for i in range(chapters))
    return md.parse(text, "book.md")


def test_blank_back_adds_a_sheet_when_the_last_page_would_be_the_back_cover():
    assert padded_count(8) == 8 and padded_count(8, blank_back=True) == 12
    assert padded_count(7, blank_back=True) == 8
    outer = saddle_stitch_order(8, blank_back=True)[0]
    assert outer == SheetSide(None, 1)  # the outside back cover (left of the outer front) is blank


def test_imposed_pdf_places_pages_in_saddle_order():
    doc = _numbered_book(3)  # title + contents + 3 chapter pages (+1 empty page after the last break)
    imp = booklet.imposition_for("a4")
    data, pages = book.render(doc, "en", lambda d: None, lambda f, w: Spacer(1, 1), book.paper("a5"),
                              canvasmaker=booklet.booklet_canvas(imp), compact=False)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == padded_count(pages, blank_back=True) // 2
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(mm_to_pt(297.0), abs=0.1)
        assert float(page.mediabox.height) == pytest.approx(mm_to_pt(210.0), abs=0.1)
    # The outer sheet's front carries the last page (left) and the title page (right).
    order = saddle_stitch_order(pages, blank_back=True)
    first_side = reader.pages[0].extract_text()
    assert "Book" in first_side and order[0].right == 1
    # Chapter 0 sits on book page 3: find the side that holds page 3 and check the text is there.
    side = next(i for i, s in enumerate(order) if 3 in (s.left, s.right))
    assert "PAGE-MARK-0" in reader.pages[side].extract_text()


@pytest.mark.parametrize("lang, label", [("en", "Notes"), ("ko", "메모")])
def test_pages_added_to_fill_the_last_sheet_are_notes_pages_the_back_cover_blank(lang, label):
    import pypdfium2 as pdfium

    from tests.rulebook import _composition as comp

    doc = _numbered_book(6)
    imp = booklet.imposition_for("a4")
    data, pages = book.render(doc, lang, lambda d: None, lambda f, w: Spacer(1, 1), book.paper("a5"),
                              canvasmaker=booklet.booklet_canvas(imp, lang), compact=False)
    padded = padded_count(pages, blank_back=True)
    assert padded - pages >= 3  # the case where the back cover had three blank pages before it
    read, _ = comp.read_book(data, "a5", True)
    added = [p for p in read if p.number > pages]
    assert [p.number for p in added if p.blank] == [padded]  # only the outside back cover
    for page in added[:-1]:
        assert [l.text for l in page.lines] == [label]
        # ruled for writing: ink down to the foot of the text frame
        assert page.ink_bottom is not None and page.ink_bottom - page.frame[1] < 30
    assert comp.blank_runs(read) == []
    pdfium.PdfDocument(data)  # opens
