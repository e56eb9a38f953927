"""Stack Original rulebook: content computed by the engine, and rule texts that resolve and match."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from printkit import fonts
from printkit.errors import BuildError
from printkit.games.stack import rulebook as content
from printkit.games.stack import engine
from printkit.spec import DECKS_DIR
from printkit.decks import load_deck

from ._books import (assert_chapters_numbered, assert_drawable_by_bundled_fonts, built_book, coloured_pixels,
                     flat, parse_text, resolved_text, shape)

LANGS = ("ko", "en")


@pytest.fixture(scope="module")
def deck():
    return load_deck("stack")


# ---------------------------------------------------------------- content from the engine


def test_synthesis_is_the_engines_union(deck):
    ko = content.synthesis(deck, "ko").values
    en = content.synthesis(deck, "en").values
    union = engine.synthesize(*content.SYNTHESIS)
    assert set(union) == {"ruby", "gold", "coal"}
    assert en["result"] == "+".join(union) == "ruby+gold+coal"
    assert ko["result"] == "루비+황금+석탄"
    assert (ko["first"], ko["second"]) == ("루비+황금", "황금+석탄")
    # one stack spent, two cards out, one generated card in
    assert (en["stacks_before"], en["stacks_after"]) == (1, 0)
    assert (en["hand_before"], en["hand_after"]) == (7, 6)


def test_four_mineral_synthesis_is_refused(deck):
    example = content.synthesis(deck, "en")
    assert example.values["refused"] == "not allowed (4 minerals)"
    assert (example.values["refused_first"], example.values["refused_second"]) == ("ruby+gold", "sapphire+coal")
    assert example.rows[-1] == ("ruby+gold, sapphire+coal", "not allowed (4 minerals)")


def test_decomposition_uses_the_chosen_split_and_lists_every_split(deck):
    example = content.decomposition(deck, "en")
    values = example.values
    assert values["card"] == "ruby+gold+coal"
    assert set(values["parts"].split(" and ")) == {"gold", "ruby+coal"}
    assert values["ways"] == len(engine.decompositions("ruby+gold+coal")) == 3
    assert (values["hand_before"], values["hand_after"]) == (7, 8)
    assert (values["stacks_before"], values["stacks_after"]) == (1, 0)
    splits = [row[1] for row in example.rows]
    assert splits == ["ruby | gold+coal", "gold | ruby+coal", "ruby+gold | coal", "ruby | ruby (copy)"]


def test_settlement_case_one(deck):
    example = content.settlement(deck, "ko")
    values = example.values
    assert (values["p1_matches"], values["p2_matches"]) == (3, 1)
    # three matches earn a stack, one does not
    assert (values["p1_stacks_before"], values["p1_stacks_after"]) == (1, 2)
    assert (values["p2_stacks_before"], values["p2_stacks_after"]) == (1, 1)
    # hands go back to seven: 7 - 3 and 7 - 1 cards after matching
    assert (values["p1_drawn"], values["p2_drawn"]) == (3, 1)
    assert values["returned"] == 2 * (3 + 1)
    field = values["field_after"].split(", ")
    assert len(field) == len(set(field)) == engine.FIELD_SIZE
    assert example.header == ("", "1번 플레이어", "2번 플레이어")
    assert example.rows[1] == ("스택", "1 → 2", "1 → 1")


def test_rules_values_come_from_the_engine(deck):
    values = content.rules(deck, "en").values
    assert values == {"turn_cap": engine.DEFAULT_TURN_CAP, "max_stacks": engine.MAX_STACKS,
                      "hand_size": engine.HAND_SIZE, "field_size": engine.FIELD_SIZE}


def test_card_types_table_counts_the_spec(deck):
    table = content.card_types(deck, "en")
    body, total = table.rows[:-1], table.rows[-1]
    assert len(body) == 14
    assert sum(int(row[2]) for row in body) == len(deck.cards) == 52
    assert total == ("Total", "14 types", "52")
    assert {row[2] for row in body if row[0] == "1"} == {"3"}
    assert {row[2] for row in body if row[0] in ("2", "3")} == {"4"}


def test_terrain_table_follows_the_components(deck):
    table = content.terrains(deck, "ko")
    assert table.rows == (("붉은 호밀밭", "루비"), ("엘도라도", "황금"), ("창백한 푸른 점", "사파이어"), ("탄광", "석탄"))


def test_synthesis_figure_shows_two_deck_cards_and_a_generated_marker(deck):
    figure = content.synthesis_figure(deck, "en")
    first, second, result = figure.cards
    assert first in deck.cards and second in deck.cards
    assert result in deck.components["generated_markers"]
    assert set(first["minerals"]) | set(second["minerals"]) == set(result["minerals"])
    assert figure.labels[-1] == "Result: ruby+gold+coal"


def test_examples_need_the_cards_they_show(deck):
    small = dataclasses.replace(deck, cards=deck.cards[:12])  # only cost-1 cards
    with pytest.raises(BuildError, match="too few"):
        content.synthesis(small, "en")


# ---------------------------------------------------------------- the rule texts


@pytest.mark.parametrize("lang", LANGS)
def test_every_value_and_directive_resolves(deck, lang):
    text = resolved_text(deck, lang, {("example", "synthesis"), ("example", "decomposition"),
                                      ("example", "settlement"), ("figure", "synthesis")})
    # computed values reach the text
    synthesis = content.synthesis(deck, lang).values
    assert synthesis["result"] in text
    assert content.settlement(deck, lang).values["field_before"] in text


def test_both_languages_have_the_same_structure(deck):
    ko, en = parse_text(deck, "ko"), parse_text(deck, "en")
    assert shape(ko) == shape(en)
    assert en.title == deck.name == "Stack Original"  # the spec's name
    assert ko.title == deck.name_in("ko") == "스택 오리지널"  # and its Korean name from `names`


@pytest.mark.parametrize("lang", LANGS)
def test_every_character_is_in_the_bundled_fonts(deck, lang):
    text = assert_drawable_by_bundled_fonts(deck, lang)
    if lang == "ko":
        # the Korean text needs no fallback at all: every character is in the bundled family
        assert fonts.missing_glyphs(text, fonts.KOREAN) == ""


def test_texts_sit_next_to_the_spec():
    for lang in LANGS:
        assert Path(DECKS_DIR / f"stack.rules.{lang}.md").is_file()


def test_example_figures_use_printed_cards(deck):
    synthesis = content.synthesis_figure(deck, "en")
    *inputs, result = synthesis.cards
    assert all(card in deck.cards for card in inputs)
    assert result in deck.components["generated_markers"] and set(result["minerals"]) == {"ruby", "gold", "coal"}
    # Stack cards are read only when large: the decomposition and settlement show their tables alone.
    assert content.decomposition(deck, "en").cards == () and content.settlement(deck, "en").cards == ()
    terrains = content.terrain_figure(deck, "en")
    assert terrains.cards == deck.components["terrains"]
    assert terrains.labels == ("Red Rye Field", "Eldorado", "Pale Blue Dot", "Coal Mine")


# ---------------------------------------------------------------- the built books


@pytest.fixture(scope="module", params=LANGS)
def book(request, deck):
    pdf, texts = built_book(DECKS_DIR / "stack.yaml", request.param)
    return request.param, pdf, texts


def test_book_has_the_chapters_and_the_engine_values(book, deck):
    lang, _, texts = book
    body = " ".join(texts[2:])
    assert_chapters_numbered(deck, lang, body)
    synthesis = content.synthesis(deck, lang)
    assert synthesis.rows[0][1] in body  # e.g. "ruby+gold+coal (generated)"
    assert synthesis.values["refused"] in body
    settlement = content.settlement(deck, lang)
    assert settlement.rows[1][1] in body  # player 1's stacks "1 → 2"


def test_book_draws_cards_where_figures_are_promised(book):
    lang, pdf, texts = book
    assert coloured_pixels(pdf, 0) > 800, "the title page shows cards"
    caption = "합성: 카드 2장이" if lang == "ko" else "Synthesis: two cards"
    page = next(i for i, text in enumerate(texts) if caption in text)
    assert coloured_pixels(pdf, page) > 300  # a page of text alone has a handful


@pytest.mark.parametrize("paper", ["a4", "a5", "letter"])
def test_the_terrain_figure_keeps_the_cards_english_text_as_printed(paper):
    # The terrain cards print their effects in Korean and English; the English book's figure keeps
    # both at a readable size on every paper (cards set at just the legible scale keep their text).
    import pypdfium2 as pdfium

    from printkit.rulebook.producer import render_rulebook
    from printkit.games.stack.faces import DESIGN
    from printkit.layout.compile import shipped_layouts

    pdf = pdfium.PdfDocument(render_rulebook(DECKS_DIR / "stack.yaml", "en", paper).data)
    texts = [flat(page.get_textpage().get_text_range().replace("\r\n", " ")) for page in pdf]
    # the figure's rows of cards may part over two pages
    first = next(i for i, t in enumerate(texts) if "RED RYE FIELD" in t)
    pages = " ".join(texts[first:first + 2])
    for effect in shipped_layouts(DESIGN)["terrain"].lookups["effect_en"].values():
        assert flat(effect)[:20] in pages
    assert pages.count("Set here: cards with") == 4
