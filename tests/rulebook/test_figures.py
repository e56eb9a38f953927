"""Card figures: row geometry, and cards drawn with the layout templates' art."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from printkit import fonts
from printkit.errors import BuildError
from printkit.rulebook.content import Figure
from printkit.games.calc.rulebook import find_cards
from printkit.rulebook.figures import GAP_MM, CardRow, card_row
from printkit.spec import DECKS_DIR
from printkit.decks import load_deck
from printkit.units import mm_to_pt


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS_DIR / "calc.yaml")


def test_row_is_centred_and_shrinks_to_fit(deck):
    cards = find_cards(deck, [("plus", 1), ("minus", 2), ("times", 3)])
    wide = card_row(Figure(cards, scale=0.5), 170.0)
    w = deck.size.width_mm * 0.5
    assert [p.scale for p in wide.cards] == [0.5] * 3
    assert wide.cards[0].x_mm == pytest.approx((170 - 3 * w - 2 * GAP_MM) / 2)
    assert wide.cards[1].x_mm - wide.cards[0].x_mm == pytest.approx(w + GAP_MM)
    narrow = card_row(Figure(cards, scale=1.0), 100.0)
    right = narrow.cards[-1].x_mm + deck.size.width_mm * narrow.cards[-1].scale
    assert narrow.cards[0].x_mm == pytest.approx(0) and right == pytest.approx(100)
    assert narrow.height_mm == pytest.approx(deck.size.height_mm * narrow.cards[0].scale)
    labelled = card_row(Figure(cards, labels=("a", "b", "c"), scale=0.5), 170.0)
    assert labelled.height_mm > wide.height_mm


def test_cards_are_drawn_in_their_colours(deck):
    cards = find_cards(deck, [("plus", 7)])
    flowable = CardRow(Figure(cards, labels=("7",), scale=1.0), deck)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(mm_to_pt(100), mm_to_pt(120)))
    w, h = flowable.wrap(mm_to_pt(100), mm_to_pt(120))
    flowable.drawOn(canvas, 0, mm_to_pt(120) - h)
    canvas.save()
    image = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=1).to_pil().convert("RGB")
    plus = tuple(int(deck.art.colors["plus"][i:i + 2], 16) for i in (1, 3, 5))
    hits = sum(1 for px in image.get_flattened_data() if all(abs(a - b) < 40 for a, b in zip(px, plus)))
    assert hits > 300, "the plus card's colour appears in the figure"


def test_a_label_no_font_can_set_fails_early(deck):
    cards = find_cards(deck, [("plus", 7)])
    with pytest.raises(BuildError, match="figure label"):
        CardRow(Figure(cards, labels=("🀄",)), deck)


def test_labels_shrink_to_stay_under_their_cards(deck):
    cards = find_cards(deck, [("plus", 1), ("minus", 2), ("times", 3), ("plus", 4), ("minus", 5)])
    short = card_row(Figure(cards, labels=("a",) * 5), 170.0)
    assert short.label_size_mm == 3.2
    long_labels = ("a rather long label",) * 5
    narrow = card_row(Figure(cards, labels=long_labels), 110.0)
    card_w = deck.size.width_mm * narrow.cards[0].scale
    assert 2.2 < narrow.label_size_mm < 3.2
    width = fonts.text_width_mm(long_labels[0], fonts.KOREAN, narrow.label_size_mm)
    assert width == pytest.approx(card_w + GAP_MM * 0.4)  # a little into the gaps, clear of the next label


def test_remembered_fronts_lay_each_card_of_their_deck_out_once(deck, monkeypatch):
    from printkit.layout import templates
    from printkit.rulebook import figures

    laid_out = []
    real = templates.front

    def counted(card, for_deck, **kw):
        laid_out.append((card.uid, for_deck is deck))
        return real(card, for_deck, **kw)

    monkeypatch.setattr(figures.templates, "front", counted)
    front = figures.remembered_fronts(deck)
    plus, minus = find_cards(deck, [("plus", 7), ("minus", 2)])
    assert front(plus, deck) is front(plus, deck) and front(minus, deck) == real(minus, deck)
    assert laid_out == [(plus.uid, True), (minus.uid, True)]
    other = load_deck(DECKS_DIR / "calc.yaml")  # equal, but another deck: laid out each time
    front(plus, other), front(plus, other)
    assert laid_out[2:] == [(plus.uid, False)] * 2


def test_the_books_of_a_spec_lay_out_each_card_of_their_figures_once(monkeypatch, tmp_path):
    from printkit.pipeline.build import build
    from printkit.pipeline.context import BuildOptions
    from printkit.pipeline.producers import produce_rulebooks
    from printkit.layout import templates
    from printkit.rulebook import figures
    from printkit.decks import load_all_variants

    laid_out = []
    real = templates.front

    def counted(card, for_deck, **kw):
        laid_out.append(id(card))
        return real(card, for_deck, **kw)

    monkeypatch.setattr(figures.templates, "front", counted)
    result = build(load_all_variants(DECKS_DIR / "stack.yaml"), BuildOptions(out_dir=tmp_path, booklet=True),
                   producers=(produce_rulebooks,))
    assert len(result.entries) == 4  # ko and en, each as pages and as a booklet
    assert laid_out and len(laid_out) == len(set(laid_out))


def _stack_figure(name: str):
    from printkit.rulebook.content import content_for

    stack = load_deck(DECKS_DIR / "stack.yaml")
    return stack, content_for(stack.game).registry("figure")[name](stack, "en")


def test_a_named_figure_shrunk_until_its_card_text_would_go_is_refused_at_its_directive():
    from printkit.errors import RulebookError

    stack, terrains = _stack_figure("terrains")
    flowable = CardRow(terrains, stack)
    flowable.named = ("stack.rules.en.md", 39, "figure 'terrains'")
    flowable.max_height_pt = mm_to_pt(60)  # far less than its two rows need at a readable size
    canvas = Canvas(io.BytesIO(), pagesize=(mm_to_pt(120), mm_to_pt(80)))
    flowable.wrap(mm_to_pt(120), mm_to_pt(80))
    with pytest.raises(RulebookError, match=r"stack\.rules\.en\.md:39.*figure 'terrains'.*under the 6 pt"):
        flowable.drawOn(canvas, 0, 0)
    cover = CardRow(terrains, stack)  # a cover's art, named by no directive, is drawn
    cover.max_height_pt = mm_to_pt(60)
    cover.wrap(mm_to_pt(120), mm_to_pt(80))
    cover.drawOn(canvas, 0, 0)


def test_a_figure_too_tall_for_a_page_at_a_readable_size_runs_on_over_pages():
    # Half-Letter's text is too narrow for two terrain cards side by side at a readable size: the
    # four stand in one column, two to a page, each at least as large as its text needs.
    from printkit.rulebook.figures import legible_scale, smallest_text_pt

    stack, terrains = _stack_figure("terrains")
    flowable = CardRow(terrains, stack)
    width, page = mm_to_pt(139.7 - 26), mm_to_pt(215.9 - 26)
    parts = flowable.page_parts(width, page, page - 20)
    least = legible_scale([smallest_text_pt(face) for face in flowable.faces])
    assert [len(p.figure.cards) for p in parts] == [2, 2]
    for part in parts:
        assert part.wrap(width, page)[1] <= part.max_height_pt
        assert min(placed.scale for placed in part.layout.cards) >= least - 1e-9
    a5 = CardRow(terrains, stack)  # on A5 the four fit a page two by two: one figure
    assert a5.page_parts(mm_to_pt(120), mm_to_pt(182), mm_to_pt(179.5)) == [a5]


def test_a_table_set_up_parts_between_its_rows_of_zones_at_the_one_scale():
    from printkit.rulebook.figures import TableFlowable

    stack, setup = _stack_figure("setup")
    flowable = TableFlowable(setup, stack)
    width = mm_to_pt(120)
    whole = flowable.wrap(width, mm_to_pt(500))[1]
    head, rest = flowable.split_rows(width, whole * 0.55)
    assert len(head.setup.rows) + len(rest.setup.rows) == len(setup.rows)
    assert head.setup.rows + rest.setup.rows == setup.rows
    assert head.wrap(width, whole)[1] <= whole * 0.55
    rest.wrap(width, whole)
    assert head.scale == rest.scale == flowable.scale
    assert flowable.split_rows(width, mm_to_pt(5)) is None  # not even its first row fits
