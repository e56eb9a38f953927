"""The rule-text Markdown subset: blocks, inline spans, values and located errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printkit.rulebook import markdown as md
from printkit.rulebook.markdown import RulebookError, Span
from printkit.typography import MINUS, smarten


def test_blocks_of_every_kind():
    text = """---
title: Calc
subtitle: A **card** game
---

# Overview

First line
second line.

- one
- two
  continued

1. first
2. second

| A | B |
|---|:---:|
| 1 | x \\| y |

> note one
>
> note two

::: figure symbols
::: pagebreak
## Details
"""
    doc = md.parse(text, "rules.md")
    assert doc.title == "Calc" and doc.subtitle == "A **card** game"
    assert doc.blocks == (
        md.Heading(1, "Overview", 6),
        md.Paragraph("First line second line.", 8),
        md.ListBlock(False, ("one", "two continued"), 11),
        md.ListBlock(True, ("first", "second"), 15),
        md.TableBlock(("A", "B"), (("1", "x \\| y"),), 18),
        md.Note(("note one", "note two"), 22),
        md.Directive("figure", "symbols", 26),
        md.Directive("pagebreak", "", 27),
        md.Heading(2, "Details", 28),
    )


@pytest.mark.parametrize("nested, marker", [("  - nested item", "-"), ("    * deeper", "*"), ("  1. numbered", "1.")])
def test_a_list_item_indented_under_another_is_an_error_at_its_line(nested, marker):
    # Read as the item's text it printed as "• item - nested item", without a word.
    text = f"# T\n\n- item\n{nested}\n- item3\n"
    with pytest.raises(RulebookError) as err:
        md.parse(text, "r.md")
    column = len(nested) - len(nested.lstrip()) + 1
    assert str(err.value) == (
        f"r.md:4:{column}: lists do not nest: {nested.strip()!r} is indented under the item before it; start it at "
        f"the beginning of the line for an item of its own, or leave out its {marker!r} to continue the item above")
    # An indented line of text still continues the item.
    assert md.parse("# T\n\n- item\n  more - of it\n", "r.md").blocks == (md.ListBlock(False, ("item more - of it",), 3),)


@pytest.mark.parametrize("nested, column", [("\t- nested item", 2), (" \t 1. numbered", 4), (" * one space", 2)])
def test_a_list_item_indented_by_a_tab_or_one_space_under_another_is_the_same_error(nested, column):
    # Not two spaces, it printed as a stray "- nested item" paragraph. A tab counts as one column.
    marker = nested.split()[0]
    with pytest.raises(RulebookError) as err:
        md.parse(f"# T\n\n- item\n{nested}\n- item3\n", "r.md")
    assert str(err.value) == (
        f"r.md:4:{column}: lists do not nest: {nested.strip()!r} is indented under the item before it; start it at "
        f"the beginning of the line for an item of its own, or leave out its {marker!r} and start the line with two "
        "spaces to continue the item above")
    # Such a line of text is a paragraph of its own, as before: only two spaces continue an item.
    assert md.parse("# T\n\n- item\n\tmore\n", "r.md").blocks == (
        md.ListBlock(False, ("item",), 3), md.Paragraph("more", 4))


def test_a_number_other_than_1_under_an_item_continues_its_text():
    # A list that does not start at 1 cannot interrupt a paragraph: "2024. was" is the item's text.
    assert md.parse("# T\n\n- founded in\n  2024. was the year\n", "r.md").blocks == (
        md.ListBlock(False, ("founded in 2024. was the year",), 3),)


def test_first_heading_is_the_title_and_levels_are_normalised():
    doc = md.parse("# Stack\n\n## Intro\n\ntext\n\n### Sub\n\n## Next\n", "s.md")
    assert doc.title == "Stack" and doc.subtitle is None
    assert [(b.level, b.text) for b in doc.blocks if isinstance(b, md.Heading)] == [(1, "Intro"), (2, "Sub"), (1, "Next")]


def test_comments_are_dropped():
    doc = md.parse("# T\n\n<!-- a\nhidden\n-->\nshown\n", "c.md")
    assert doc.blocks == (md.Paragraph("shown", 6),)


def test_an_unclosed_comment_is_an_error_at_the_line_that_opens_it():
    with pytest.raises(RulebookError) as err:
        md.parse("# A\n\ntext\n  <!-- unclosed\n\nmore\n", "c.md")
    assert str(err.value) == "c.md:4:3: a '<!--' comment opened here is never closed with '-->'"


def test_inline_spans_and_escapes():
    assert md.parse_inline("a **b** *c* `d *e*` \\*f\\*") == (
        Span("a "), Span("b", bold=True), Span(" "), Span("c", italic=True), Span(" "),
        Span("d *e*", code=True), Span(" *f*"),
    )
    assert md.plain("**1.** *x*") == "1. x"


def test_inline_text_gets_curly_quotes_and_minus_signs_but_code_and_escapes_print_as_typed():
    spans = md.parse_inline('See "**The 7-lock**", the dealer\'s bid: hand + 1 - bids, from -1; '
                            '`printkit score 3^ -1^ "x"` and \\"as typed\\"')
    assert spans == (
        Span("See \u201c"), Span("The 7-lock", bold=True),
        Span(f"\u201d, the dealer\u2019s bid: hand + 1 {MINUS} bids, from {MINUS}1; "),
        Span('printkit score 3^ -1^ "x"', code=True), Span(' and "as typed"'),
    )
    assert md.plain("`x`'s") == "x\u2019s"  # an apostrophe after code is still one



@given(st.text(alphabet=st.characters(blacklist_characters="\\`*"), max_size=40))
def test_text_without_markup_is_one_plain_span_as_the_full_parse_finds(text):
    expected = (Span(smarten(text)),) if text else ()
    assert md.parse_inline(text) == expected
    # The same text behind an escaped star takes the character-by-character parse.
    assert md.parse_inline("\\*" + text) == (Span(smarten("*" + text)),)

def test_values_are_substituted_per_line_and_escaped():
    values = {"deck.total": "133", "deck.name": "A*B"}
    doc = md.parse("# T\n\n{{ deck.total }} cards, {{deck.name}}, \\{{ literal }}\n", "v.md", values.__getitem__)
    (para,) = doc.blocks
    assert md.plain(para.text) == "133 cards, A*B, {{ literal }}"


@pytest.mark.parametrize("text, line, fragment", [
    ("# T\n\nsome **bold\n", "3:6", "unclosed **"),
    ("# T\n\n| a | b |\n| 1 | 2 |\n", 3, "separator row"),
    ("# T\n\n| a | b |\n|---|---|\n| 1 |\n", 5, "1 cells, the header has 2"),
    ("# T\n\n::: movie intro\n", 3, "unknown directive 'movie'"),
    ("# T\n\n::: figure\n", 3, "needs one name"),
    ("# T\n\n# A\n\n### C\n", 5, "skips a level"),
    ("---\ntitle: T\ncolour: red\n---\n", 3, "front matter"),
    ("just text\n", 1, "no title"),
])
def test_errors_name_file_and_line(text, line, fragment):
    with pytest.raises(RulebookError) as info:
        md.parse(text, "decks/x.rules.en.md")
    assert str(info.value).startswith(f"decks/x.rules.en.md:{line}: ")
    assert fragment in str(info.value)


def test_unknown_value_names_file_and_line():
    def resolve(key):
        raise KeyError(f"unknown value {key!r}")

    with pytest.raises(RulebookError, match=r"^r\.md:4: unknown value 'deck\.nope'"):
        md.parse("# T\n\nok\n{{ deck.nope }}\n", "r.md", resolve)


def test_code_prints_its_values_as_written_and_text_around_it_gets_them():
    values = {"deck.total": "4", "deck.name": "Scouts"}
    text = ("---\ntitle: `{{deck.name}}` is {{deck.name}}\n---\n\n"
            "Write `{{deck.total}}` for {{ deck.total }}, or `printkit build\n{{ deck.name }}` over lines;\n"
            "\\`{{deck.total}}\\` is escaped, `{{ deck.nope }}` is never looked up.\n\n"
            "- `a` {{deck.total}} `b`\n\n| `{{deck.total}}` | {{deck.total}} |\n|---|---|\n| x | y |\n")
    doc = md.parse(text, "r.md", values.__getitem__)
    assert doc.title == "`{{deck.name}}` is Scouts"
    para, item, table = doc.blocks
    assert para.text == ("Write `{{deck.total}}` for 4, or `printkit build {{ deck.name }}` over lines; "
                         "\\`4\\` is escaped, `{{ deck.nope }}` is never looked up.")
    assert item.items == ("`a` 4 `b`",)
    assert table.header == ("`{{deck.total}}`", "4")


def test_code_ends_with_its_paragraph():
    # A backtick left open is an error of its paragraph; the next paragraph's values are looked up.
    with pytest.raises(RulebookError, match=r"^r\.md:3:6: unclosed `"):
        md.parse("# T\n\nopen `code\n\n{{ x }}\n", "r.md", {"x": "1"}.__getitem__)
    with pytest.raises(RulebookError, match=r"^r\.md:5: y$"):
        md.parse("# T\n\nopen `code\n\n{{ y }}\n", "r.md", {"x": "1"}.__getitem__)


def test_a_text_without_title_takes_the_default_title():
    doc = md.parse("## Cards\n\nText.\n", "r.md", default_title="My Deck")
    assert doc.title == "My Deck" and [b.text for b in doc.blocks if isinstance(b, md.Heading)] == ["Cards"]
    assert md.parse("# Own\n\n## Cards\n", "r.md", default_title="My Deck").title == "Own"
