"""Rulebook figures any game can use, drawn from its deck: cards by name, anatomy, table set-up."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from printkit.rulebook import designed
from printkit.rulebook.markdown import RulebookError, parse
from printkit.rulebook.producer import render_rulebook
from printkit.decks import load_all_variants, load_deck

DECKS = Path(__file__).resolve().parents[2] / "decks"


@pytest.fixture(scope="module")
def deck():
    return load_deck("emberfall")


def text_of(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(data)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def test_a_card_may_be_labelled_in_the_books_words(deck):
    figure = designed.cards_figure(deck, "ember-drake = 불씨 드레이크, kindle, moon-pool = the 'pool'")
    assert [c.get("id") for c in figure.cards] == ["ember-drake", "kindle", "moon-pool"]
    assert figure.labels == ("불씨 드레이크", "Kindle", "the \u2018pool\u2019")


def test_the_korean_sample_book_names_its_cards_in_korean():
    pages = text_of(render_rulebook(DECKS / "emberfall.yaml", "ko").data)
    assert pages[0].splitlines()[1] == "엠버폴"  # after the page number, the title
    every = "\n".join(pages)
    assert all(name in every for name in ("불씨 드레이크", "물결 부름꾼", "불 지피기", "달빛 연못"))


def test_cards_are_found_by_id_name_or_title_in_any_case(deck):
    figure = designed.cards_figure(deck, "ember-drake, Tide Caller, KINDLE, ember")
    assert [c.get("id") for c in figure.cards] == ["ember-drake", "tide-caller", "kindle", "ember"]
    assert figure.labels[:3] == ("Ember Drake", "Tide Caller", "Kindle")


@pytest.mark.parametrize("make, spec, said", [
    (designed.cards_figure, "ember-drak", "no card is named 'ember-drak' (did you mean 'ember-drake'?)"),
    (designed.cards_figure, " , ", "needs card names"),
    (designed.anatomy_figure, "ember-drake: cost, titel", "shows no element named 'titel' (did you mean 'title'?)"),
    (designed.setup_figure, "Deck back x20", "needs a name and its cards"),
    (designed.setup_figure, "Deck: back x200", "a pile holds 1 to 60 cards"),
    (designed.setup_figure, "Hand: kindel", "did you mean 'kindle'?"),
])
def test_a_figure_naming_what_the_deck_lacks_says_what_it_has(deck, make, spec, said):
    with pytest.raises(designed.FigureError, match=said.replace("(", "\\(").replace(")", "\\)").replace("?", "\\?")):
        make(deck, spec)


def test_anatomy_labels_the_layouts_text_pictures_and_icons(deck):
    anatomy = designed.anatomy_figure(deck, "ember-drake")
    assert [label for label, _ in anatomy.parts] == ["art", "title", "cost", "element icon", "type", "rules",
                                                     "flavor", "power"]
    chosen = designed.anatomy_figure(deck, "ember-drake: cost, art")
    assert [label for label, _ in chosen.parts] == ["cost", "art"]


def test_directives_are_checked_where_they_are_written():
    with pytest.raises(RulebookError) as caught:
        parse("# T\n\n::: setup\n", "rules.md", None)
    assert caught.value.line == 3 and "needs what to show" in str(caught.value)


def test_the_sample_rulebook_shows_its_cards_and_is_as_short_as_its_text():
    for lang, words in (("en", ["Reading a card", "element icon", "Your hand", "×50", "Tide Caller"]),
                        ("ko", ["카드 읽기", "원소", "비용", "내 손", "×50", "Tide Caller"])):
        book = render_rulebook(DECKS / "emberfall.yaml", lang)
        pages = text_of(book.data)
        assert book.pages == len(pages) <= 4
        assert "Overview" in pages[0] or "개요" in pages[0]  # no title page, no contents: the text starts at once
        assert not any("Contents" in p or "목차" in p for p in pages)
        every = "\n".join(pages)
        for word in words:
            assert word in every, (lang, word)


def test_a_long_book_keeps_its_title_page_and_contents():
    book = render_rulebook(DECKS / "stack.yaml", "en")
    pages = text_of(book.data)
    assert book.pages > 6 and "Contents" in pages[1] and "Overview" not in pages[0]


def test_an_unknown_card_in_a_rule_text_is_a_located_error(tmp_path):
    shutil.copytree(DECKS / "emberfall", tmp_path / "emberfall")
    shutil.copy(DECKS / "emberfall.yaml", tmp_path / "emberfall.yaml")
    (tmp_path / "emberfall.rules.en.md").write_text("# Rules\n\nSee:\n\n::: cards ember-drak\n", encoding="utf-8")
    with pytest.raises(RulebookError) as caught:
        render_rulebook(tmp_path / "emberfall.yaml", "en")
    assert caught.value.line == 5 and "did you mean 'ember-drake'?" in str(caught.value)


def _fonts_of(data: bytes) -> set[str]:
    import io

    from pypdf import PdfReader

    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def test_a_book_is_set_in_the_specs_own_font(tmp_path):
    shutil.copytree(DECKS / "emberfall", tmp_path / "emberfall")
    shutil.copy(DECKS / "emberfall.rules.en.md", tmp_path / "emberfall.rules.en.md")
    fonts_dir = Path(__file__).resolve().parents[2] / "fonts"
    shutil.copy(fonts_dir / "DejaVuSans.ttf", tmp_path / "own.ttf")  # a font of the spec's own, beside it
    spec = (DECKS / "emberfall.yaml").read_text(encoding="utf-8")
    (tmp_path / "emberfall.yaml").write_text(spec.replace("art:\n  colors:", "art:\n  font: own.ttf\n  colors:", 1),
                                             encoding="utf-8")
    assert "DejaVuSans" not in _fonts_of(render_rulebook(DECKS / "emberfall.yaml", "en").data)
    assert "DejaVuSans" in _fonts_of(render_rulebook(tmp_path / "emberfall.yaml", "en").data)


def test_a_bundled_card_font_leaves_the_book_in_its_own_cuts():
    # Calc's cards are set in Pretendard Bold; its book's body text stays regular.
    from printkit.rulebook import book
    from printkit import fonts

    regular, bold = book.book_faces(fonts.KOREAN_BOLD, None)
    assert regular == book.REGULAR and bold == book.BOLD


def test_a_pile_of_the_rest_counts_what_the_other_zones_leave(deck):
    setup = designed.setup_figure(deck, "Deck: back xrest; Pool: ember x rest; Hand: back x5, kindle; "
                                        "Rival's embers: ember x3")
    piles = {zone.name: [count for _, _, count in zone.items] for zone in setup.zones}
    assert piles["Deck"] == [len(deck.cards) - 6]
    assert piles["Pool"] == [len(deck.components["embers"]) - 3]
    assert "Rival\u2019s embers" in piles  # a zone's name is set as text is: the apostrophe curly


def test_a_cards_pile_of_the_rest_counts_what_the_other_zones_leave_of_that_card(deck):
    # Kindle has 2 copies: one in hand leaves one to discard, and the deck's rest is less both.
    setup = designed.setup_figure(deck, "Deck: back xrest; Hand: kindle; Discard: Kindle xrest")
    piles = {zone.name: [count for _, _, count in zone.items] for zone in setup.zones}
    assert piles == {"Deck": [len(deck.cards) - 2], "Hand": [1], "Discard": [1]}


@pytest.mark.parametrize("spec, said", [
    ("Deck: back xrest; More: back xrest", "two piles 'xrest' of the deck"),
    ("Hand: kindle xrest; More: Kindle xrest", "two piles 'xrest' of 'Kindle'"),
    ("Deck: back xrest; Hand: back x60", "the rest of the deck is 0 cards"),
    ("Hand: kindle x2; Deck: kindle xrest", r"the rest of 'kindle' is 0 cards \(the deck has 2, the other piles deal 2\)"),
])
def test_a_rest_that_cannot_be_counted_says_why(deck, spec, said):
    with pytest.raises(designed.FigureError, match=said):
        designed.setup_figure(deck, spec)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_emberfalls_setup_figure_shows_the_deck_and_pool_that_setup_leaves(deck, lang):
    # Two wardens draw 5 cards each and take 2 and 3 embers: the rule text's setup, counted from the deck.
    pages = text_of(render_rulebook(DECKS / "emberfall.yaml", lang, "a4").data)
    setup = next(t for t in pages if "\u00d75" in t)
    counts = {int(n) for n in re.findall(r"\u00d7(\d+)", setup)}
    assert counts == {len(deck.cards) - 10, len(deck.components["embers"]) - 5, 5, 2, 3}


PARTS = """\
game: example
name: Parts
card: {size: poker, bleed: 3mm, safe: 3mm}
art: {colors: {background: "#ffffff", ink: "#000000"}}
lookups:
  kind: {en: AID, fr: AIDE}
layouts:
  parts:
    elements:
      - {name: note, kind: text, text: "{note}", when_has: note, x: 0, y: 0, width: 100%, height: 50%, size: 3mm}
      - {name: chip, kind: rect, clear_of: note, x: 10mm, y: 40%, width: 20mm, height: 6mm, fill: "#ff0000"}
      - {name: tag, kind: rect, when_drawn: chip, x: 10mm, y: 85%, width: 5mm, height: 3mm, fill: "#0000ff"}
      - {name: first, kind: text, text: "{kind[_languages[0]]} {word}", x: 2mm, y: 60%, width: 40mm, height: 6mm,
         size: 4mm, fit: none, wrap: false, valign: caps}
      - {name: badge, kind: rect, anchor: {to: first, x: after, y: middle, gap: 1mm}, width: 3mm, height: 3mm,
         fill: "#00ff00"}
      - {name: second, kind: text, text: "{kind[_languages[0]]} {other}", unless_repeats: first, x: 2mm, y: 70%,
         width: 40mm, height: 6mm, size: 4mm}
      - {name: french, kind: text, text: "{kind[_languages[1]]}", when_has: "_languages[1]", x: 2mm, y: 78%,
         width: 40mm, height: 6mm, size: 4mm}
groups:
  - name: cards
    layout: parts
    cards:
      - {id: noted, note: "A note as tall as half the card.", word: Wolf, other: Wolf}
      - {id: plain, word: Wolf, other: Bear}
"""


@pytest.fixture
def parts_deck(tmp_path):
    (tmp_path / "deck.yaml").write_text(PARTS, encoding="utf-8")
    for lang in ("en", "fr"):  # a rulebook in two languages: {_languages} is [en, fr]
        (tmp_path / f"deck.rules.{lang}.md").write_text("# Parts\n\nPlay.\n", encoding="utf-8")
    [deck] = load_all_variants(tmp_path / "deck.yaml")
    return deck


def _drawn_rects(card, deck):
    """The boxes (trim, mm) the card's face fills with each colour, as drawn for the book."""
    from printkit.layout import templates
    from printkit.layout.ops import Rect

    face = templates.front(card, deck)
    return {op.fill: (op.x_mm, op.y_mm, op.w_mm, op.h_mm) for op in face.ops if isinstance(op, Rect) and op.fill}


def test_an_anatomy_figure_labels_what_the_card_draws_where_it_draws_it(parts_deck):
    plain = designed.find_card(parts_deck, "plain")
    parts = dict(designed.anatomy_figure(parts_deck, "plain: chip, tag, first, badge, second").parts)
    assert list(parts) == ["chip", "tag", "first", "badge", "second"]
    rects = _drawn_rects(plain, parts_deck)
    for name, fill in (("chip", "#ff0000"), ("tag", "#0000ff"), ("badge", "#00ff00")):
        box = parts[name]
        # The badge stands after its title as set in the book's first language ("AID Wolf").
        assert rects[fill] == pytest.approx((box.x_mm, box.y_mm, box.w_mm, box.h_mm)), name
    assert parts["badge"].x_mm > 2 + 10  # after the words set, not where its box is written (x: 0)


def test_an_anatomy_figure_leaves_out_what_the_card_does_not_draw(parts_deck):
    noted = designed.find_card(parts_deck, "noted")
    # The chip overlaps the note (clear_of), so neither it nor its tag (when_drawn) is drawn; the
    # second text says what the first does (unless_repeats).
    assert set(_drawn_rects(noted, parts_deck)) == {"#ffffff", "#00ff00"}
    parts = dict(designed.anatomy_figure(parts_deck, "noted: note, chip, tag, first, second").parts)
    assert list(parts) == ["note", "first"]
    # french is drawn for the book's French alone: the French book labels it, the English one not.
    assert [label for label, _ in designed.anatomy_figure(parts_deck, "noted", "fr").parts] == \
        ["note", "first", "french"]
    assert [label for label, _ in designed.anatomy_figure(parts_deck, "noted", "en").parts] == ["note", "first"]


def test_an_anatomy_figure_reads_the_books_languages_as_the_card_does(parts_deck):
    # french is drawn when the rulebook has a second language, as this deck's has: the card draws
    # it in both books, the French book labels it, and the English one tells it apart.
    french = designed.anatomy_figure(parts_deck, "plain: french", "fr")
    assert list(dict(french.parts)) == ["french"] and french.other_language == ()
    english = designed.anatomy_figure(parts_deck, "plain: french", "en")
    assert english.parts == () and english.other_language == (("french", "fr"),) and english.left_out == ()


def _book_naming(folder: Path, parts: str, langs=("en", "fr")):
    for lang in langs:
        (folder / f"deck.rules.{lang}.md").write_text(f"# Parts\n\nPlay.\n\n::: anatomy {parts}\n", encoding="utf-8")
    return {lang: render_rulebook(folder / "deck.yaml", lang) for lang in langs}


def test_a_part_the_rule_text_names_and_the_card_does_not_draw_is_a_warning_at_its_line(parts_deck, tmp_path,
                                                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)  # the text is named as the user knows it: from the working folder
    books = _book_naming(tmp_path, "noted: note, chip, tag, first, second")
    for lang, book in books.items():
        assert book.warnings == (
            f"deck.rules.{lang}.md:5: anatomy: card 'noted' does not draw its parts 'chip', 'tag', 'second' "
            "(left out by clear_of, when_drawn, unless_repeats or an anchor whose text is not drawn), "
            "so the figure labels them nowhere",)
    assert _book_naming(tmp_path, "plain: chip, tag, first, second")["en"].warnings == ()
    assert _book_naming(tmp_path, "noted")["en"].warnings == ()  # parts it chose itself, not named


def test_a_part_drawn_for_the_books_other_language_is_labelled_in_that_language_s_book_alone(parts_deck, tmp_path,
                                                                                            monkeypatch):
    # french is drawn because the book is also in French: the English book names it, so it warns.
    monkeypatch.chdir(tmp_path)
    books = _book_naming(tmp_path, "plain: first, french")
    assert books["en"].warnings == (
        "deck.rules.en.md:5: anatomy: card 'plain' draws its part 'french' only because the rulebook is in fr "
        "too, so the figure of this en book labels it nowhere; the fr book does",)
    assert books["fr"].warnings == ()
    assert _book_naming(tmp_path, "plain")["en"].warnings == ()  # parts it chose itself, not named
    english = tmp_path / "english"  # a book in English alone: french is drawn nowhere
    english.mkdir()
    (english / "deck.yaml").write_text(PARTS, encoding="utf-8")
    with pytest.raises(RulebookError, match="shows no element named 'french'"):
        _book_naming(english, "plain: french", langs=("en",))


def test_check_says_the_warning_a_build_of_the_rulebook_would(parts_deck, tmp_path):
    from cli_in import invoke_in

    _book_naming(tmp_path, "noted: note, chip")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 0, result.output
    for lang in ("en", "fr"):
        assert (f"deck.rules.{lang}.md:5: anatomy: card 'noted' does not draw its part 'chip'"
                in result.output), result.output


THREE = PARTS.replace("kind: {en: AID, fr: AIDE}", "kind: {en: AID, de: HILFE, fr: AIDE}").replace(
    """      - {name: french, kind: text, text: "{kind[_languages[1]]}", when_has: "_languages[1]", x: 2mm, y: 78%,
         width: 40mm, height: 6mm, size: 4mm}
""", """      - {name: german, kind: text, text: "{kind[_languages[1]]}", when_has: "_languages[1]", x: 2mm, y: 78%,
         width: 40mm, height: 6mm, size: 4mm, label: {en: German word, de: Deutsches Wort, fr: Mot allemand}}
      - {name: french, kind: text, text: "{kind[_languages[2]]}", when_has: "_languages[2]", x: 2mm, y: 84%,
         width: 40mm, height: 6mm, size: 4mm, label: {en: French word, de: Franzoesisches Wort, fr: Mot francais}}
      - {name: french_mark, kind: text, text: "*", when_drawn: french, x: 45mm, y: 84%, width: 5mm, height: 6mm,
         size: 4mm, label: {en: French mark, de: Franzoesisches Zeichen, fr: Marque francaise}}
""")


def test_each_language_s_book_labels_the_parts_drawn_for_it_as_the_book_shows_them(tmp_path):
    """A rulebook in English, German and French: one card prints each language's word. Each
    book's anatomy page, read from its PDF, calls out the words for its languages up to its own
    (English first), and a mark drawn only with the French word (when_drawn) goes with it."""
    assert "german" in THREE and "french_mark" in THREE
    (tmp_path / "deck.yaml").write_text(THREE, encoding="utf-8")
    books = _book_naming(tmp_path, "plain", langs=("en", "de", "fr"))
    labels = {"en": ("German word", "French word", "French mark"),
              "de": ("Deutsches Wort", "Franzoesisches Wort", "Franzoesisches Zeichen"),
              "fr": ("Mot allemand", "Mot francais", "Marque francaise")}
    shown = {"en": (False, False, False), "de": (True, False, False), "fr": (True, True, True)}
    for lang, book in books.items():
        text = "\n".join(text_of(book.data))
        assert "HILFE" in text and "AIDE" in text  # the card prints every language's word in each book
        assert tuple(label in text for label in labels[lang]) == shown[lang], (lang, text)
        assert book.warnings == ()  # the text names no part: what each book leaves out is no mistake
    [deck] = load_all_variants(tmp_path / "deck.yaml")
    named = designed.anatomy_figure(deck, "plain: german, french, french_mark", "de")
    assert [label for label, _ in named.parts] == ["Deutsches Wort"]
    assert named.other_language == (("french", "fr"), ("french_mark", "fr"))
    assert designed.other_language_warning(named, "de") == (
        "anatomy: card 'plain' draws its parts 'french', 'french_mark' only because the rulebook is in fr too, "
        "so the figure of this de book labels them nowhere; the fr book does")
