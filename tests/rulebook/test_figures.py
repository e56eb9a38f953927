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

    def counted(card, for_deck):
        laid_out.append((card.uid, for_deck is deck))
        return real(card, for_deck)

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

    def counted(card, for_deck):
        laid_out.append(id(card))
        return real(card, for_deck)

    monkeypatch.setattr(figures.templates, "front", counted)
    result = build(load_all_variants(DECKS_DIR / "stack.yaml"), BuildOptions(out_dir=tmp_path, booklet=True),
                   producers=(produce_rulebooks,))
    assert len(result.entries) == 4  # ko and en, each as pages and as a booklet
    assert laid_out and len(laid_out) == len(set(laid_out))
