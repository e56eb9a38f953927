"""The bound a check uses instead of setting a text (``fit_rich(prove_from_mm=...)``): it never
says "fits" where setting the text overflows or lands below the floor, and it says what setting
would say otherwise (the check's warnings and errors are the build's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printkit import fonts
from printkit.errors import RichTextError
from printkit.games import icons
from printkit.layout.geometry import Box
from printkit.layout.richtext import RichStyle, fit_rich

ICONS = icons()
STYLE = RichStyle((fonts.KOREAN, fonts.SYMBOLS), (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD))
WORDS = ["a", "of", "the", "fire", "WWWW", "ill", "mmmmmmm", "Draw", "cards.", "(2)", "+3", "**bold**",
         "*it*", ":star:", "x:star:", "3:star:4", "::star:", "a:b", "time: 3", ":", "supercalifragilistic",
         "\n", "\n\n", "\t", "\u00a0x", "카드", "—", "Ex\u00adtra\u00ador\u00addi\u00adnary",
         "Incomprehensibilities", "\u00ad", "a\u00ad"]


def fit(markup, box, style=STYLE, *, max_size, min_size, mode="shrink", prove=None):
    return fit_rich(markup, box, style, max_size_mm=max_size, min_size_mm=min_size, fit=mode, icons=ICONS,
                    where="cards#1 rules", prove_from_mm=prove)


@settings(max_examples=400, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=60),
       width=st.floats(5, 70), height=st.floats(2, 40), max_size=st.floats(1.0, 6.0),
       min_size=st.floats(0.5, 4.0), floor=st.floats(0.5, 3.0), mode=st.sampled_from(["shrink", "none"]),
       italic=st.booleans(), valign=st.sampled_from(["top", "middle", "caps"]),
       leading=st.floats(0.9, 1.6))
def test_the_bound_never_says_fits_where_setting_does_not(words, width, height, max_size, min_size, floor,
                                                          mode, italic, valign, leading):
    markup = " ".join(words)
    if italic:
        markup = f"*{markup}*"
    style = RichStyle(STYLE.regular, STYLE.bold, valign=valign, leading=leading)
    box = Box(0, 0, width, height)
    low = min(min_size, max_size)
    proved = fit(markup, box, style, max_size=max_size, min_size=low, mode=mode, prove=floor)
    full = fit(markup, box, style, max_size=max_size, min_size=low, mode=mode)
    if proved.proved:
        assert not proved.ops
        assert full.warning is None  # no overflow, every character drawn
        assert full.ops
        assert proved.size_mm >= floor
        assert full.size_mm >= proved.size_mm - 1e-9  # setting chooses a size no smaller: no floor warning
    else:  # not proved: set in full, exactly as a build sets it
        assert proved == full


def test_a_text_that_plainly_fits_is_proved_without_setting_it():
    fitted = fit("Deal 2 damage to any target. Draw a card.", Box(0, 0, 55.5, 22), max_size=3.2, min_size=2,
                 prove=1.76)
    assert fitted.proved and fitted.ops == () and fitted.warning is None
    assert fitted.size_mm >= 1.76


def test_an_overflow_only_setting_finds_is_still_said():
    text = "Draw a card. " * 60  # far too long for the box: the bound cannot tell, setting says so
    proved = fit(text, Box(0, 0, 55.5, 22), max_size=3.2, min_size=2, prove=1.76)
    assert not proved.proved and "does not fit" in proved.warning
    word = "Supercalifragilisticexpialidocious"  # one word wider than the box: left to setting
    proved = fit(word, Box(0, 0, 10, 20), max_size=3, min_size=3, prove=1.0)
    assert not proved.proved and proved.ops


def test_the_bound_still_raises_what_setting_raises():
    with pytest.raises(RichTextError, match="unknown icon"):
        fit("Deal :nosuchicon: damage", Box(0, 0, 55.5, 22), max_size=3.2, min_size=2, prove=1.76)


def test_characters_no_font_has_are_left_to_setting_and_warned():
    proved = fit("a \U0001fbff b", Box(0, 0, 55.5, 22), max_size=3.2, min_size=2, prove=1.0)
    full = fit("a \U0001fbff b", Box(0, 0, 55.5, 22), max_size=3.2, min_size=2)
    assert not proved.proved and proved == full and full.warning


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.sampled_from(["a", "3:star:4", ":star:", "::star:", "a:b", "time:", ":", "x:star:y",
                                       "\t", "\u00a0z", "fire", ":star::star:"]), min_size=1, max_size=12))
def test_a_line_of_words_and_icons_is_read_as_parsing_reads_it(words):
    from printkit.layout.fitbound import _icon_line
    from printkit.layout.richparse import _parse

    line = " ".join(words)
    parsed = _parse(line)
    assert _icon_line(line, ICONS) == (list(parsed[0][0]) if parsed else [])
