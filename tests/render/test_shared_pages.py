"""Pages two documents share (a deck's duplex and fronts-only sheets) are drawn once: the second
document writes the first's content streams, and its bytes are those it has when drawn alone."""

from __future__ import annotations

import pytest
from PIL import Image as PILImage

from printkit.deck import CardSize
from printkit.fonts import KOREAN, KOREAN_BOLD, SYMBOLS
from printkit.layout.geometry import paper_size
from printkit.layout.imposition import impose, sheet_pages
from printkit.layout.ops import Face, Image, Rect, Text
from printkit.render import pdf
from printkit.render.pdf import SharedPages, render_pages, text_seed

POKER = CardSize(63.5, 88.9)


def front(n: int, picture=None) -> Face:
    ops = [Rect(-3, -3, 69.5, 94.9, fill="#f4efe6"),
           Text(5, 12, f"Card {n}", KOREAN_BOLD, 5.0, "#202020", "start"),
           Text(5, 30, f"숫자 {n}{'가나다라마바사아자차카타파하거너더러머버서어저처커터'[n]} and {'xyz'[n % 3]}", KOREAN, 3.0, "#202020", "start"),
           Text(30, 60, "turned", KOREAN, 3.0, "#202020", "start", rotate_deg=90)]
    if picture is not None:
        ops.append(Image(10, 40, 20, 20, picture))
    return Face(tuple(ops))


# The back says things no front does (other characters, another font), and the second sheet's
# fronts have syllables the first's lack: the fronts' text must keep its codes in the duplex
# document all the same. (ASCII keeps its own codes in every document; other characters are
# coded in the order met.)
BACK = Face((Rect(-3, -3, 69.5, 94.9, fill="#2b2d42"), Text(10, 44, "쿼카", KOREAN, 6.0, "#ffffff", "start"),
              Text(10, 60, "★", SYMBOLS, 6.0, "#ffffff", "start")))


def decks(fronts: list[Face]):
    layout = impose(paper_size("a4"), POKER)
    duplex = sheet_pages(layout, fronts, [BACK] * len(fronts))
    fronts_only = sheet_pages(layout, fronts, None)
    return duplex, fronts_only


def both(duplex, fronts_only, cmyk=False):
    shared = SharedPages(fronts_only)
    first = render_pages(duplex, "duplex", cmyk=cmyk, keep_for=shared)
    second = render_pages(fronts_only, "fronts", cmyk=cmyk, reuse=shared)
    return shared, first, second


def counting_draws(monkeypatch) -> list[int]:
    drawn = [0]
    original = pdf.draw_all

    def counted(canvas, ops, images):
        ops = tuple(ops)
        if ops and type(ops[0]) is Rect and ops[0].fill in ("#f4efe6", "#2b2d42"):  # a face, not marks
            drawn[0] += 1
        return original(canvas, ops, images)

    monkeypatch.setattr(pdf, "draw_all", counted)
    return drawn


@pytest.mark.parametrize("cmyk", [False, True])
def test_the_second_document_is_the_same_written_from_kept_pages(monkeypatch, cmyk):
    # Copies of the first card are forms, the others are drawn on their pages.
    fronts = [front(0)] * 3 + [front(n) for n in range(1, 20)]
    duplex, fronts_only = decks(fronts)
    alone = render_pages(fronts_only, "fronts", cmyk=cmyk)
    drawn = counting_draws(monkeypatch)
    shared, first, second = both(duplex, fronts_only, cmyk)
    assert second == alone
    assert set(shared.streams) == set(fronts_only)
    # 19 distinct fronts and the back's form drawn for the duplex sheets, only the form of the
    # repeated card again for the fronts-only sheets.
    assert drawn[0] == 19 + 1 + 1 + 1


def test_the_first_document_shows_the_same_as_without_sharing():
    fronts = [front(n) for n in range(12)]
    duplex, fronts_only = decks(fronts)
    _, first, _ = both(duplex, fronts_only)
    plain = render_pages(duplex, "duplex")
    assert first != plain  # its fonts code the fronts' characters first
    import pypdfium2 as pdfium

    for index in range(len(duplex)):
        a = pdfium.PdfDocument(first)[index].render(scale=1).to_pil()
        b = pdfium.PdfDocument(plain)[index].render(scale=1).to_pil()
        assert a.tobytes() == b.tobytes(), f"page {index + 1} differs"


def test_pages_with_pictures_are_drawn_again(tmp_path, monkeypatch):
    picture = tmp_path / "art.png"
    PILImage.new("RGB", (40, 40), (200, 30, 30)).save(picture)
    fronts = [front(n, picture if n == 10 else None) for n in range(12)]  # the second sheet has it
    duplex, fronts_only = decks(fronts)
    alone = render_pages(fronts_only, "fronts")
    shared, _, second = both(duplex, fronts_only)
    assert second == alone
    assert set(shared.streams) == {fronts_only[0]}


def test_documents_that_do_not_agree_draw_everything(monkeypatch):
    fronts = [front(n) for n in range(9)]
    duplex, fronts_only = decks(fronts)
    shared = SharedPages(fronts_only)
    render_pages(duplex, "duplex", keep_for=shared)
    drawn = counting_draws(monkeypatch)
    # In CMYK the kept (sRGB) streams would set other colours: drawn again, and right.
    assert render_pages(fronts_only, "fronts", cmyk=True, reuse=shared) == render_pages(fronts_only, "fronts", cmyk=True)
    assert drawn[0] == 2 * 9


def test_the_seed_is_the_text_in_the_order_drawn():
    pages = decks([front(1), front(2)])[0]
    seed = dict(text_seed(pages))
    assert list(seed) == [str(KOREAN_BOLD), str(KOREAN), str(SYMBOLS)]
    assert seed[str(KOREAN_BOLD)] == "Card 12"
    assert seed[str(KOREAN)] == "숫자 1나andyture2다z쿼카"
    assert seed[str(SYMBOLS)] == "★"
