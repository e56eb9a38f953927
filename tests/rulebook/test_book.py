"""Setting text: every character in a font that has it, markup to reportlab, located font errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit import fonts
from printkit.rulebook import book
from printkit.rulebook import markdown as md
from printkit.rulebook.markdown import RulebookError, Span
from printkit.spec import DECKS_DIR

RULE_TEXTS = sorted(DECKS_DIR.glob("*.rules.*.md"))


def assert_every_glyph_present(text: str, faces: book.Faces) -> None:
    for font, run in book.font_runs(text, faces):
        assert fonts.missing_glyphs(run, font) == "", (run, font.name)


def test_font_runs_pick_dejavu_only_where_nanum_lacks_the_glyph():
    runs = book.font_runs("점수 9 − 2 = 7, ♦", book.REGULAR)
    assert [(font.name, text) for font, text in runs] == [
        ("NanumGothic.ttf", "점수 9 "), ("DejaVuSans.ttf", "− "), ("NanumGothic.ttf", "2 = 7, "),
        ("DejaVuSans.ttf", "♦"),
    ]


def test_a_character_no_font_has_is_a_located_error():
    with pytest.raises(RulebookError, match=r"^r\.md:7: no bundled font has the character\(s\) '🀄' U\+1F004"):
        book.inline("tile 🀄", ("r.md", 7))


def test_markup_names_a_font_for_every_run_and_escapes_xml():
    markup = book.spans_markup([Span("a<b"), Span("9−", bold=True), Span("x", code=True)])
    assert markup == ('<font name="NanumGothic">a&lt;b</font>'
                      '<font name="NanumGothicBold">9</font><font name="DejaVuSans-Bold">−</font>'
                      '<font backColor="#ececec"><font name="DejaVuSans">x</font></font>')


@pytest.mark.parametrize("path", RULE_TEXTS, ids=lambda p: p.name)
def test_every_character_of_every_rule_text_exists_in_its_font(path: Path):
    doc = md.parse(path.read_text(encoding="utf-8"), str(path))
    assert_every_glyph_present(doc.title, book.BOLD)
    for block in doc.blocks:
        for text in md.block_texts(block):
            for span in md.parse_inline(text):
                faces = book.CODE if span.code else (book.BOLD if span.bold or isinstance(block, md.Heading) else book.REGULAR)
                assert_every_glyph_present(span.text, faces)


def test_calc_rule_texts_exist_in_both_languages():
    names = {p.name for p in RULE_TEXTS}
    assert {"calc.rules.ko.md", "calc.rules.en.md"} <= names


def test_paper_sizes():
    assert book.paper("a4").width_mm == 210 and book.paper("letter").height_mm == pytest.approx(279.4)
    with pytest.raises(Exception, match="'b5'"):
        book.paper("b5")
