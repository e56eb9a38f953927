"""Page composition of every shipped rulebook, read back from the built PDFs (see _composition)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printkit.rulebook import book
from printkit.rulebook import booklet as bk
from printkit.rulebook import markdown as md
from printkit.rulebook.content import content_for
from printkit.rulebook.figures import MIN_CARD_TEXT_PT
from printkit.rulebook.producer import prepare, render_rulebook
from printkit.decks import load_deck
from tests.rulebook import _composition as comp

DECKS = Path(__file__).resolve().parents[2] / "decks"
GAMES = ("calc", "stack", "clag", "emberfall")
# Every paper a book is set on (--rulebook-paper) and both booklets (--booklet: A5 pages on A4
# sheets, half-Letter pages on Letter sheets).
LAYOUTS = (("a4", False), ("a5", False), ("letter", False), ("a5", True), ("letter", True))
BOOKLETS = [layout for layout in LAYOUTS if layout[1]]
MAX_BLANK = 0.5  # on any paper no page but a chapter's last is more than half blank


def _page_paper(layout) -> book.Paper:
    """The paper of a layout's book pages (a booklet's: A5 or half-Letter)."""
    paper, is_booklet = layout
    return book.paper(bk.imposition_for(paper).page_paper if is_booklet else paper)


def _layout_id(layout) -> str:
    return f"{layout[0]}{'-booklet' if layout[1] else ''}"


@pytest.fixture(scope="module", params=[(g, lang) for g in GAMES for lang in ("en", "ko")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def books(request):
    """The game's rulebook in one language on every paper and as both booklets, built once."""
    game, lang = request.param
    spec = DECKS / f"{game}.yaml"
    built = {}
    for paper, booklet in LAYOUTS:
        data = render_rulebook(spec, lang, paper, booklet=booklet).data
        built[(paper, booklet)] = comp.read_book(data, paper, booklet)
    return spec, lang, built


def _source_words(spec: Path, lang: str) -> set[str]:
    """Every word the book's text and computed tables hold, as the author wrote them."""
    doc, _, _ = prepare(spec, lang)
    deck = load_deck(spec)
    content = content_for(deck.game)
    strings = [doc.title, doc.subtitle or ""]
    for block in doc.blocks:
        if isinstance(block, md.TableBlock):
            strings += [*block.header, *(c for row in block.rows for c in row)]
        elif isinstance(block, md.Directive) and block.kind in ("table", "example"):
            data = content.registry(block.kind)[block.name](deck, lang)
            strings += [*data.header, *(c for row in data.rows for c in row)]
    return comp.words_of(md.plain(s) for s in strings)


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_no_page_ends_far_from_its_foot(books, layout):
    _, _, built = books
    pages, body_pt = built[layout]
    assert comp.empty_feet(pages, body_pt) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_no_heading_ends_a_page(books, layout):
    _, _, built = books
    pages, body_pt = built[layout]
    assert comp.headings_at_foot(pages, body_pt) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_no_paragraph_ends_in_a_short_word_alone(books, layout):
    _, _, built = books
    pages, _ = built[layout]
    assert comp.runts(pages) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_no_word_is_split_in_a_table_cell(books, layout):
    spec, lang, built = books
    pages, _ = built[layout]
    cell_pt = round(book.make_styles(_page_paper(layout)).cell.fontSize, 2)
    assert comp.split_words(pages, cell_pt, _source_words(spec, lang)) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_no_caption_is_parted_from_its_figure(books, layout):
    _, _, built = books
    pages, _ = built[layout]
    caption_pt = round(book.make_styles(_page_paper(layout)).caption.fontSize, 2)
    assert comp.orphaned_captions(pages, caption_pt) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_no_text_prints_below_6_pt(books, layout):
    _, _, built = books
    pages, _ = built[layout]
    assert comp.small_text(pages, MIN_CARD_TEXT_PT) == []


@pytest.mark.parametrize("layout", BOOKLETS, ids=_layout_id)
def test_the_booklet_back_cover_is_blank(books, layout):
    _, _, built = books
    pages, _ = built[layout]
    assert comp.back_cover_text(pages) == []


@pytest.mark.parametrize("layout", BOOKLETS, ids=_layout_id)
def test_a_booklet_never_carries_three_blank_pages_in_a_row(books, layout):
    _, _, built = books
    pages, _ = built[layout]
    assert comp.blank_runs(pages) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_the_cover_is_one_page(books, layout):
    # The title, the subtitle and the cover's art stand on the first page, whatever the paper.
    spec, lang, built = books
    pages, _ = built[layout]
    doc, _, _ = prepare(spec, lang)
    assert comp.cover_parts(pages, md.plain(doc.title), md.plain(doc.subtitle or "")) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_a_figure_stands_in_the_section_that_names_it(books, layout):
    # A caption (of a figure, an example or a table) prints after its section's heading and before
    # the next heading: no figure waits past the text that follows it into another section.
    spec, lang, built = books
    pages, body_pt = built[layout]
    caption_pt = round(book.make_styles(_page_paper(layout)).caption.fontSize, 2)
    assert comp.captions_out_of_section(pages, body_pt, caption_pt, _captions_by_section(spec, lang)) == []


@pytest.mark.parametrize("layout", LAYOUTS, ids=_layout_id)
def test_no_page_but_a_chapters_last_is_more_than_half_blank(books, layout):
    # A figure of rows of cards, or a table set up seen from above, that does not fit whole parts
    # between its rows (its first rows fill the page): no figure excuses an emptier page.
    _, _, built = books
    pages, body_pt = built[layout]
    assert comp.blank_halves(pages, body_pt, MAX_BLANK) == []


def test_text_is_set_with_curly_apostrophes_and_ranges_with_an_en_dash(books):
    # Figures' zone names included (Emberfall's "Rival's hand"); code is set as typed but holds neither.
    _, _, built = books
    pages, _ = built[("a5", False)]
    text = "\n".join(line.text for page in pages for line in page.lines)
    assert not re.findall(r".{0,12}['\"].{0,12}", text)
    assert not re.findall(r"(?<![\w.-])\d+-\d+(?![\w-])", text)


def _captions_by_section(spec: Path, lang: str) -> list[tuple[str, list[str]]]:
    """Each numbered heading of the book (as set: "7.1 Working out a pay") with the captions of
    the figures, examples and tables under it, in order."""
    doc, _, _ = prepare(spec, lang)
    deck = load_deck(spec)
    content = content_for(deck.game)
    numbers = [0, 0, 0]
    sections: list[tuple[str, list[str]]] = []
    for block in doc.blocks:
        if isinstance(block, md.Heading):
            i = block.level - 1
            numbers[i] += 1
            numbers[i + 1:] = [0] * (2 - i)
            label = ".".join(str(n) for n in numbers[:i + 1])
            sections.append((f"{label} {md.plain(block.text)}", []))
        elif isinstance(block, md.Directive) and block.kind in ("figure", "example", "table") and sections:
            caption = content.registry(block.kind)[block.name](deck, lang).caption
            if caption:
                sections[-1][1].append(md.plain(caption))
    return sections


def test_a_figure_that_fits_stands_where_the_text_names_it():
    # Clag's scoring example fits under the paragraph that names it: it stays in its section,
    # not after the next chapter's heading (a KeepTogether always answers "too tall" to wrap).
    import pypdfium2 as pdfium

    data = render_rulebook(DECKS / "clag.yaml", "en", "a4").data
    texts = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data)]
    page = next(t for t in texts if "Scores of round" in t)
    assert "End of the game" not in page or page.index("Scores of round") < page.index("End of the game")
    assert page.index("For example, a player who bids") < page.index("Scores of round")


def test_a_figure_of_card_rows_parts_between_its_rows():
    # Stack's terrain cards (two rows) do not fit whole under the text that names them on Letter:
    # the first row stands there, the second opens the next page, rather than the page staying
    # two-thirds empty.
    import pypdfium2 as pdfium

    data = render_rulebook(DECKS / "stack.yaml", "en", "letter").data
    texts = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data)]
    at = next(i for i, t in enumerate(texts) if "There are four terrains" in t)
    assert "RED RYE FIELD" in texts[at] and "ELDORADO" in texts[at]
    assert "PALE BLUE DOT" in texts[at + 1] and "COAL MINE" in texts[at + 1]
    assert texts[at].index("2.2 Terrain cards") < texts[at].index("RED RYE FIELD")


def test_the_half_letter_booklet_prints_every_terrain_cards_text():
    # Two terrain cards side by side are too small to read on half-Letter: the four stand in one
    # column over pages at a readable size, their fine print included, rather than shrunk to one
    # page with it left out.
    import pypdfium2 as pdfium

    data = render_rulebook(DECKS / "stack.yaml", "en", "letter", booklet=True).data
    text = " ".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data))
    text = " ".join(text.split())
    for mineral in ("ruby", "gold", "sapphire", "coal"):
        assert f"Set here: cards with {mineral}" in text
