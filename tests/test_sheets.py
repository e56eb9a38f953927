"""A deck's card sheets as a build makes them: the fewest sheets (the README's table), and the slug
on every sheet and on the alignment test, read back from the rendered PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from printkit.pipeline.producers import alignment_sheet, deck_sheets
from printkit.pipeline.context import BuildOptions
from printkit.pipeline.build import load_decks
from printkit.layout import templates
from printkit.deck import CardSize
from printkit.layout.geometry import paper_size
from printkit.layout.imposition import MIN_MARGIN_MM, impose
from printkit.layout.ops import Line
from printkit.render.pdf import render_pages
from printkit.units import mm_to_pt

README = Path(__file__).resolve().parents[1] / "docs" / "cli.md"  # the sheet counts, in the command reference
DECKS = {"Calc standard": ("calc", "standard"), "Calc expert": ("calc", "expert"),
         "Stack Original": ("stack", None), "Clag": ("clag", None), "Emberfall": ("emberfall", None)}


class _Faces:
    def __init__(self, deck) -> None:
        self.deck = deck

    def front(self, card):
        return templates.front(card, self.deck)

    def back(self, card):
        return templates.back(card, self.deck)


def _sheets(name: str, variant: str | None, paper: str):
    (deck,) = load_decks([name], variant)
    return deck_sheets(deck, _Faces(deck), BuildOptions(paper=paper))


def test_the_readmes_sheet_counts_are_what_a_build_prints():
    rows = {}
    text = README.read_text(encoding="utf-8")
    section = text[text.index("**Sheet packing.**"):text.index("**Bleed on sheets.**")]
    for line in section.splitlines():
        m = re.match(r"^\| (Calc standard|Calc expert|Stack Original|Clag|Emberfall) \| (\d+)[^|]* \| (\d+)[^|]* \|$", line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    assert set(rows) == set(DECKS)
    for title, (name, variant) in DECKS.items():
        for paper, pages in zip(("a4", "letter"), rows[title]):
            duplex, fronts = _sheets(name, variant, paper)
            assert (len(duplex), len(fronts)) == (pages, pages // 2), (title, paper)


def test_letter_packs_as_tightly_as_a4():
    # Stack: 90 cards on 12 sheets of 8 leave 6 free slots for its 8 tokens (two a slot);
    # Emberfall: 60 cards on 8 sheets leave 4 free slots for its 24 embers (six a slot).
    assert len(_sheets("stack", None, "letter")[1]) == 12
    assert len(_sheets("emberfall", None, "letter")[1]) == 8


def test_what_every_sheet_shares_is_kept_once():
    # A 10,000-card deck has over a thousand sheets: the fronts-only PDF's pages are the duplex
    # PDF's front pages themselves (tokens filling free slots included), every full back page
    # places its cards in one set of mirrored slots, and the slug's line above the cards is one.
    for name, variant, paper in (("stack", None, "letter"), ("calc", "standard", "a4")):
        duplex, fronts = _sheets(name, variant, paper)
        assert len(fronts) == len(duplex) // 2 and all(f is d for f, d in zip(fronts, duplex[::2]))
        backs = [page for page in duplex[1::2] if len(page.placements) == len(duplex[1].placements)]
        assert len(backs) > 2
        assert all(a.clip is b.clip for page in backs for a, b in zip(page.placements, backs[0].placements))
        above = [[op for op in page.ops if getattr(op, "text", "").startswith("Print at 100%")] for page in fronts]
        assert all(len(ops) == 1 and ops[0] is above[0][0] for ops in above)


def _text_boxes(pdf_bytes: bytes) -> list[list[tuple[str, tuple[float, float, float, float]]]]:
    """Each page's text lines with their boxes in mm from the page's top-left corner."""
    pdf = pdfium.PdfDocument(pdf_bytes)
    pages = []
    for page in pdf:
        height = page.get_height()
        text = page.get_textpage()
        lines = []
        for i in range(text.count_rects()):
            left, bottom, right, top = text.get_rect(i)
            words = text.get_text_bounded(left, bottom, right, top).strip()
            lines.append((words, tuple(v / mm_to_pt(1) for v in (left, height - top, right, height - bottom))))
        pages.append(lines)
    return pages


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_sheet_says_print_at_actual_size_and_which_sheet_it_is_outside_the_cards(paper):
    duplex, fronts = _sheets("calc", "standard", paper)
    total = len(fronts)
    layout = impose(paper_size(paper), CardSize(63.5, 88.9, bleed_mm=3.175))
    grid_top = min(s.paint.y_mm for s in layout.slots)  # the backs' grid: the same rows
    grid_bottom = max(s.paint.bottom_mm for s in layout.slots)
    for pages, sides in ((duplex, ("fronts", "backs")), (fronts, ("fronts",))):
        texts = _text_boxes(render_pages(pages))
        for index, (page, lines) in enumerate(zip(pages, texts)):
            number, side = index // len(sides) + 1, sides[index % len(sides)]
            want = {"Print at 100% (actual size): no fit to page, no scaling",
                    f"Calc · standard · sheet {number} of {total} · {side}"}
            slug = [(t, box) for t, box in lines if t in want]
            assert {t for t, _ in slug} == want, (index, [t for t, _ in lines][:5])
            w, h = page.size.width_mm, page.size.height_mm
            marks = [op for op in page.ops if type(op) is Line]
            for _, (x0, y0, x1, y1) in slug:
                # Inside what a home printer prints, off every card's painted area and mark.
                assert MIN_MARGIN_MM <= x0 and x1 <= w - MIN_MARGIN_MM
                assert MIN_MARGIN_MM <= y0 and y1 <= h - MIN_MARGIN_MM
                assert y1 < grid_top or y0 > grid_bottom  # above or below every card's bleed
                for m in marks:
                    apart = (max(m.x1_mm, m.x2_mm) < x0 or min(m.x1_mm, m.x2_mm) > x1
                             or max(m.y1_mm, m.y2_mm) < y0 or min(m.y1_mm, m.y2_mm) > y1)
                    assert apart, (m, x0, y0, x1, y1)


def test_the_alignment_test_says_print_at_actual_size_on_both_pages():
    texts = _text_boxes(render_pages(alignment_sheet(BuildOptions(paper="letter"))))
    assert "Print at 100% (actual size): no fit to page, no scaling" in [t for t, _ in texts[0]]
    assert "duplex alignment test · Letter · sheet 1 of 1 · front" in [t for t, _ in texts[0]]
    assert "duplex alignment test · Letter · sheet 1 of 1 · back" in [t for t, _ in texts[1]]
