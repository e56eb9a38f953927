"""One inline markup for card text and rule texts: the same tokens, lenient or strict."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printkit import fonts
from printkit.errors import MarkupError, RulebookError
from printkit.layout.geometry import Box
from printkit.games import icons
from printkit.layout.markup import BOLD, BREAK, CODE, END, ICON, ITALIC, LITERAL, SPAN, TEXT, SpanStyle, tokenize
from printkit.layout.ops import Text
from printkit.layout.richtext import RichStyle, fit_rich, plain_text
from printkit.rulebook import markdown as md

ICONS = icons()  # every game's glyphs and the generic shapes
STYLE = RichStyle((fonts.KOREAN, fonts.SYMBOLS), (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD))


def card(markup: str) -> list[tuple[str, bool, bool]]:
    """What a card prints: each Text op's text, bold and italic."""
    fitted = fit_rich(markup, Box(0, 0, 200, 40), STYLE, max_size_mm=3, min_size_mm=3, fit="none",
                      icons=ICONS, where="cards#1 rules")
    return [(op.text, op.font == fonts.KOREAN_BOLD, op.slant_deg != 0) for op in fitted.ops if isinstance(op, Text)]


def test_the_tokens_of_a_text():
    assert tokenize("a **b *c*** :star: [d]{color=#c33} \\* `e *f*`\ng") == [
        (TEXT, "a ", 0), (BOLD, None, 2), (TEXT, "b ", 4), (ITALIC, None, 6), (TEXT, "c", 7),
        (BOLD, None, 8), (ITALIC, None, 8), (TEXT, " ", 11), (ICON, "star", 12), (TEXT, " ", 18),
        (SPAN, SpanStyle("#c33"), 19), (TEXT, "d", 20), (END, None, 21), (TEXT, " ", 34),
        (LITERAL, "*", 35), (TEXT, " ", 37), (CODE, "e *f*", 38), (BREAK, None, 45), (TEXT, "g", 46)]


def test_a_backslash_escapes_ascii_punctuation_only():
    assert tokenize("\\{x\\} C:\\path \\\\") == [
        (LITERAL, "{", 0), (TEXT, "x", 2), (LITERAL, "}", 3), (TEXT, " C", 5), (TEXT, ":", 7),
        (TEXT, "\\", 8), (TEXT, "path ", 9), (LITERAL, "\\", 14)]


BALANCED = "plain **bold** *it* ***both*** 3:star: [red]{color=#c33} \\*"


def test_card_text_and_rule_text_read_markup_alike():
    assert tokenize(BALANCED, strict=False) == tokenize(BALANCED, strict=True)
    # What a card prints and what a rulebook sets: the same words in the same styles.
    rule = [(s.text.strip(), s.bold, s.italic) for s in md.parse_inline(BALANCED) if s.text.strip()]
    assert card(BALANCED) == rule == [
        ("plain", False, False), ("bold", True, False), ("it", False, True), ("both", True, True),
        ("3", False, False), ("red", False, False), ("*", False, False)]


@pytest.mark.parametrize("markup, printed, column, message", [
    ("some **bold", "some **bold", 6, "unclosed **"),
    ("a * b", "a * b", 3, "* neither opens nor closes emphasis"),
    ("****four****", "****four****", 1, "**** is not emphasis"),
    ("***x**", "*x", 1, "unclosed *"),  # bold closes; the italic star never closes
    ("run `code", "run `code", 5, "unclosed `"),
])
def test_stars_that_are_not_emphasis_print_on_cards_and_are_errors_in_rule_texts(markup, printed, column, message):
    assert "".join(text for text, _, _ in card(markup)) == printed
    with pytest.raises(MarkupError) as info:
        tokenize(markup, strict=True)
    assert info.value.at == column - 1 and message in info.value.message
    with pytest.raises(RulebookError) as info:
        md.parse(f"# T\n\n{markup}\n", "x.rules.en.md")
    assert str(info.value).startswith(f"x.rules.en.md:3:{column}: ") and message in str(info.value)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("ab *:`\\[]{}\n") + ["**", ":star:", "[x]{size=2}"]), max_size=30).map("".join))
def test_strict_reads_what_lenient_reads_or_refuses_it(text):
    lenient = tokenize(text)
    try:
        strict = tokenize(text, strict=True)
    except MarkupError as exc:
        assert 0 <= exc.at < len(text) and text[exc.at] in "*`"
    else:
        assert strict == lenient


@pytest.mark.parametrize("text, where", [
    ("# T\n\n{{ v }} then **bold\n", "3:14"),  # after a value: the column as written
    ("# T\n\n- one\n  two **x\n", "4:7"),  # a list item's second line
    ("# T\n\n| a | b |\n|---|---|\n| 1 | x :nope: |\n", "5:9"),  # a table cell
    ("# T\n\n> first\n>   then *x\n", "4:10"),  # a note
    ("---\ntitle: A {{ v }} **B\n---\n\ntext\n", "2:18"),  # front matter
    ("#  Head **x\n", "1:9"),  # the title line
])
def test_rule_text_errors_name_line_and_column(text, where):
    with pytest.raises(RulebookError) as info:
        md.parse(text, "r.md", {"v": "value"}.__getitem__, icons={"star"})
    assert str(info.value).startswith(f"r.md:{where}: ")


def test_plain_text_for_a_digital_table_reads_the_same_tokens():
    # printkit.export.tts writes a card's description with plain_text.
    markup = "**Soar.** Deal 2:fire: \\*damage\\*\n\n*Once* per turn"
    assert plain_text(markup) == "Soar. Deal 2 fire *damage*\n\nOnce per turn"


def test_text_escaped_for_printing_as_written_prints_as_written():
    from printkit.layout.design import escape_markup

    written = "`a*b` C:\\path **x** [y]{size=2} :star: \\*"
    assert " ".join(text for text, _, _ in card(escape_markup(written))) == written
    assert tokenize(escape_markup(written), strict=True) == tokenize(escape_markup(written))
