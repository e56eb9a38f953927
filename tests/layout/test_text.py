"""Text fitting: largest size that fits, warnings instead of silent clipping, glyph checks."""

from __future__ import annotations

import pytest

from printkit import fonts
from printkit.fonts import text_width_mm
from printkit.layout.text import Box, fit_line, font_metrics, undrawable

BOX = Box(5.0, 10.0, 40.0, 8.0)


def _height(size_mm, font):
    m = font_metrics(font)
    return size_mm * (m.ascent + m.descent)


def test_fit_line_uses_max_size_when_it_fits():
    fitted = fit_line("7", fonts.SYMBOLS_BOLD, BOX, max_size_mm=5.0, min_size_mm=2.0, where="card title")
    assert fitted.size_mm == 5.0
    assert fitted.warning is None
    (op,) = fitted.ops
    assert op.anchor == "middle" and op.x_mm == pytest.approx(BOX.cx_mm)


def test_fit_line_shrinks_to_width():
    text = "A rather long heading"
    fitted = fit_line(text, fonts.KOREAN, BOX, max_size_mm=20.0, min_size_mm=1.0, where="c t")
    assert fitted.warning is None
    assert text_width_mm(text, fonts.KOREAN, fitted.size_mm) == pytest.approx(BOX.w_mm, rel=1e-6)


def test_fit_line_shrinks_to_height_and_stays_inside_box():
    fitted = fit_line("Ag", fonts.SYMBOLS, BOX, max_size_mm=50.0, min_size_mm=1.0, where="c t", valign="top")
    (op,) = fitted.ops
    m = font_metrics(fonts.SYMBOLS)
    assert _height(fitted.size_mm, fonts.SYMBOLS) <= BOX.h_mm + 1e-9
    assert op.y_mm - op.size_mm * m.ascent == pytest.approx(BOX.y_mm)
    assert op.y_mm + op.size_mm * m.descent <= BOX.bottom_mm + 1e-9


def test_fit_line_warns_naming_card_and_field_when_too_long():
    fitted = fit_line("x" * 200, fonts.SYMBOLS, BOX, max_size_mm=5.0, min_size_mm=2.0,
                      where="numbers[symbol=plus]#1 title")
    assert fitted.size_mm == 2.0  # drawn at the minimum, never dropped
    assert fitted.ops[0].text == "x" * 200
    assert "numbers[symbol=plus]#1 title" in fitted.warning
    assert "does not fit" in fitted.warning


def test_fit_line_warns_on_missing_glyph():
    fitted = fit_line("5 ♦ 3", fonts.KOREAN, BOX, max_size_mm=5.0, min_size_mm=2.0, where="aid body")
    assert fitted.warning and "♦" in fitted.warning and "Pretendard-Regular" in fitted.warning


@pytest.mark.parametrize("max_mm, min_mm", [(0, 1), (2, 0), (-1, -2)])
def test_sizes_that_are_not_positive_raise(max_mm, min_mm):
    with pytest.raises(ValueError, match="text sizes must be positive"):
        fit_line("x", fonts.SYMBOLS, BOX, max_size_mm=max_mm, min_size_mm=min_mm, where="c")


def test_a_maximum_below_the_minimum_sets_the_text_at_the_maximum_and_warns():
    fitted = fit_line("x", fonts.SYMBOLS, BOX, max_size_mm=1.0, min_size_mm=2.0, where="tiny[1] title")
    assert fitted.size_mm == 1.0
    assert all(op.size_mm == 1.0 for op in fitted.ops)
    assert fitted.warning.startswith("tiny[1] title: the box allows at most 1.00 mm")


def test_fit_line_sets_characters_the_font_lacks_in_a_fallback():
    text = "내 계산 − ♦"
    fitted = fit_line(text, fonts.KOREAN_BOLD, BOX, max_size_mm=5.0, min_size_mm=2.0, where="back label",
                      fallbacks=(fonts.SYMBOLS_BOLD,))
    assert fitted.warning is None
    assert "".join(op.text for op in fitted.ops) == text
    assert [op.font for op in fitted.ops] == [fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD]
    for op in fitted.ops:
        assert fonts.missing_glyphs(op.text, op.font) == ""
    # The runs follow each other and the line stays centred in the box.
    first, second = fitted.ops
    assert second.x_mm == pytest.approx(first.x_mm + text_width_mm(first.text, first.font, first.size_mm))
    end = second.x_mm + text_width_mm(second.text, second.font, second.size_mm)
    assert (first.x_mm + end) / 2 == pytest.approx(BOX.cx_mm)


def test_fit_line_with_fallbacks_warns_only_about_characters_no_font_has():
    fitted = fit_line("내 ♦ 🧩", fonts.KOREAN_BOLD, BOX, max_size_mm=5.0, min_size_mm=2.0,
                      where="numbers#1 back label", fallbacks=(fonts.SYMBOLS_BOLD,))
    assert fitted.warning and "numbers#1 back label" in fitted.warning and "🧩" in fitted.warning
    assert "♦" not in fitted.warning.split("in '")[0]  # the diamond is drawable, only the puzzle piece is named


def test_fallbacks_are_not_opened_when_the_font_draws_everything(tmp_path):
    # Opening a font parses the whole file: a fallback that would draw nothing must not be read.
    unreadable = tmp_path / "Missing.ttf"
    text = "Score: 3 + 4\n점수 7"  # the newline is no glyph of any font, yet needs no fallback
    assert undrawable(text, (fonts.KOREAN, unreadable)) == ""
    line = fit_line("내 계산 7", fonts.KOREAN_BOLD, BOX, max_size_mm=5.0, min_size_mm=2.0, where="t",
                    fallbacks=(unreadable,))
    assert line.warning is None
    assert {op.font for op in line.ops} == {fonts.KOREAN_BOLD}


def test_a_fallback_is_opened_for_the_characters_the_font_lacks(tmp_path):
    with pytest.raises(fonts.FontError, match="Missing.ttf cannot be read"):
        undrawable("내 ♦", (fonts.KOREAN, tmp_path / "Missing.ttf"))
    assert undrawable("내 ♦ 🧩 ♦", (fonts.KOREAN, fonts.SYMBOLS)) == "🧩"
    assert undrawable("b🧩a\n내", (fonts.SYMBOLS, fonts.KOREAN)) == "🧩"
