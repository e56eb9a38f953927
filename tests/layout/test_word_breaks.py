"""Long words and soft hyphens: a word is set whole at a smaller size before it is broken between
letters, a word broken so is a warning naming it, and a soft hyphen (U+00AD) is invisible but
where a line breaks at it, with a hyphen drawn there. Seen on rendered pixels where it matters."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

from printkit import fonts
from printkit.fonts import text_width_mm
from printkit.games import icons
from printkit.layout.geometry import Box, Size
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Text
from printkit.layout.richtext import RichStyle, fit_rich
from printkit.layout.text import fit_line
from printkit.render.pdf import render_pages

STYLE = RichStyle((fonts.KOREAN, fonts.SYMBOLS), (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD))
DPI = 300
MM = DPI / 25.4
SHY = "\u00ad"
WORD = "Incomprehensibilities"


def fit(markup, box, *, max_size, min_size, mode="shrink", style=STYLE):
    return fit_rich(markup, box, style, max_size_mm=max_size, min_size_mm=min_size, fit=mode, icons=icons(),
                    where="cards#1 word")


def texts(fitted) -> list[str]:
    return [op.text for op in fitted.ops if isinstance(op, Text)]


def rasterise(ops, size=Size(70, 40)) -> PILImage.Image:
    pdf = render_pages([Page(size, (Placement(Face(tuple(ops)), 0, 0),))])
    return pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("L")


def ink_rows(image: PILImage.Image) -> list[int]:
    return [y for y in range(image.height) if any(image.getpixel((x, y)) < 128 for x in range(0, image.width, 2))]


def bands(image: PILImage.Image) -> int:
    """Lines of text as a person sees them: runs of rows with ink, apart by blank rows."""
    rows = ink_rows(image)
    return sum(1 for i, y in enumerate(rows) if i == 0 or y > rows[i - 1] + 1)


def ink_right(image: PILImage.Image) -> float:
    """The rightmost inked column, in millimetres."""
    columns = [x for x in range(image.width) if any(image.getpixel((x, y)) < 128 for y in range(0, image.height, 2))]
    return max(columns) / MM


# --- a long word -------------------------------------------------------------------------------

def test_a_word_that_fits_whole_at_a_smaller_size_is_set_whole_at_it():
    # The tester's case: a 40 mm box, 5 mm text that may shrink to 2.5 mm. At 5 mm the word is
    # wider than the box; it used to be set at 5 mm as "Incomprehensibili / ties".
    box = Box(5, 5, 40, 30)
    assert text_width_mm(WORD, fonts.KOREAN, 5) > 40
    fitted = fit(WORD, box, max_size=5, min_size=2.5)
    assert texts(fitted) == [WORD] and fitted.warning is None
    assert 2.5 < fitted.size_mm < 5 and text_width_mm(WORD, fonts.KOREAN, fitted.size_mm) <= 40
    assert text_width_mm(WORD, fonts.KOREAN, fitted.size_mm + 0.05) > 40  # as large as it fits whole
    image = rasterise(fitted.ops)
    assert bands(image) == 1 and ink_right(image) <= 45 + 0.2


def test_a_word_too_wide_even_at_the_minimum_is_broken_there_with_one_warning():
    box = Box(5, 5, 20, 30)
    fitted = fit(WORD, box, max_size=5, min_size=2.5)
    assert fitted.size_mm == 2.5  # the smallest size: the word broken the least
    lines = texts(fitted)
    assert len(lines) == 2 and "".join(lines) == WORD and not any(line.endswith("-") for line in lines)
    assert len(fitted.warnings) == 1
    assert fitted.warning == ("cards#1 word: the word 'Incomprehensibilities' is wider than the 20.0 mm box even at "
                              "the minimum size 2.5 mm, so broken between letters; give it a wider box or a smaller "
                              "size, or put soft hyphens (U+00AD) where a word may break")
    assert bands(rasterise(fitted.ops)) == 2


def test_a_text_that_is_not_shrunk_says_its_broken_word_at_its_size():
    fitted = fit(WORD, Box(0, 0, 20, 30), max_size=5, min_size=2.5, mode="none")
    assert fitted.size_mm == 5 and len(texts(fitted)) > 1
    assert fitted.warning.startswith("cards#1 word: the word 'Incomprehensibilities' is wider than the 20.0 mm box "
                                     "at 5 mm, so broken")


def test_text_shrinks_for_its_longest_word_and_says_an_overflow_as_before():
    # Every word whole at the size found, words still wrap at spaces.
    fitted = fit(f"Draw a card. {WORD} follow.", Box(0, 0, 40, 30), max_size=5, min_size=2.5)
    assert fitted.warning is None and WORD in " ".join(texts(fitted))
    # Too tall even at the minimum: the usual overflow warning, and no word broken.
    fitted = fit("Draw a card. " * 60, Box(0, 0, 40, 10), max_size=5, min_size=2.5)
    assert len(fitted.warnings) == 1 and "does not fit 40.0x10.0 mm even at the minimum size" in fitted.warning


def test_korean_still_breaks_between_syllables_at_its_largest_size_after_a_mostly_empty_line():
    # The word fits a line of its own, but moving it whole would leave "패" alone on a line.
    box = Box(0, 0, text_width_mm("가나다라마바사", fonts.KOREAN, 4) + 0.3, 30)
    fitted = fit("패 가나다라마바사", box, max_size=4, min_size=2)
    assert fitted.size_mm == 4 and fitted.warning is None
    first, second = texts(fitted)
    assert first.startswith("패 가") and first.replace(" ", "") + second == "패가나다라마바사"


TITLE = "대장님의아주긴이름입니다정말로"
BOLD = RichStyle((fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD), (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD))


def test_a_korean_word_wider_than_the_box_is_set_whole_at_a_smaller_size():
    # The tester's title: at 5 mm it is wider than the 44 mm box, at 3 mm it fits. It used to be
    # set at 5 mm as "대장님의아주긴이름입니다정말" / "로", a lone syllable on the second line.
    box = Box(5, 5, 44, 8.5)
    assert text_width_mm(TITLE, fonts.KOREAN_BOLD, 5) > 44 >= text_width_mm(TITLE, fonts.KOREAN_BOLD, 3)
    fitted = fit(f"**{TITLE}**", box, max_size=5, min_size=3)
    assert texts(fitted) == [TITLE] and fitted.warning is None
    assert 3 <= fitted.size_mm < 5 and text_width_mm(TITLE, fonts.KOREAN_BOLD, fitted.size_mm) <= 44
    assert text_width_mm(TITLE, fonts.KOREAN_BOLD, fitted.size_mm + 0.05) > 44  # as large as it fits whole
    image = rasterise(fitted.ops)
    assert bands(image) == 1 and ink_right(image) <= 49 + 0.2


def test_a_korean_word_too_wide_even_at_the_minimum_is_broken_between_syllables_with_a_warning():
    fitted = fit(TITLE, Box(5, 5, 20, 30), max_size=5, min_size=3)
    assert fitted.size_mm == 3
    lines = texts(fitted)
    assert len(lines) > 1 and "".join(lines) == TITLE
    assert fitted.warning == (f"cards#1 word: the word {TITLE!r} is wider than the 20.0 mm box even at the minimum "
                              "size 3 mm, so broken between syllables; give it a wider box or a smaller size, or put "
                              "a space or a zero-width space (U+200B) where a word may break")  # no hyphen in Hangul
    assert bands(rasterise(fitted.ops)) == len(lines)


def test_a_korean_word_wider_than_the_box_shrinks_after_other_words_too():
    # At 5 mm it would go "패 대장님의아주긴" / "이름입니다정말로", its rest fitting the next line:
    # still a word wider than a line, so the text is set smaller, where the word fits one line
    # (and, the first line being mostly empty, still starts after "패").
    assert text_width_mm(TITLE, fonts.KOREAN, 5) > 30
    fitted = fit(f"패 {TITLE}", Box(0, 0, 30, 30), max_size=5, min_size=2)
    assert fitted.warning is None and fitted.size_mm < 5
    assert text_width_mm(TITLE, fonts.KOREAN, fitted.size_mm) <= 30
    assert "".join(texts(fitted)).replace(" ", "") == "패" + TITLE


# --- soft hyphens ------------------------------------------------------------------------------

def test_a_soft_hyphen_mid_line_is_invisible():
    box = Box(5, 5, 60, 20)
    soft = fit(f"Draw two cards. Ex{SHY}tra{SHY}or{SHY}di{SHY}nary.", box, max_size=4, min_size=4)
    plain = fit("Draw two cards. Extraordinary.", box, max_size=4, min_size=4)
    assert texts(soft) == ["Draw two cards. Extraordinary."] and soft.warning is None
    assert rasterise(soft.ops).tobytes() == rasterise(plain.ops).tobytes()


def test_a_line_broken_at_a_soft_hyphen_ends_with_a_hyphen():
    width = text_width_mm("Draw two cards. Ex-", fonts.KOREAN, 4) + 0.3
    box = Box(5, 5, width, 20)
    fitted = fit(f"Draw two cards. Ex{SHY}tra{SHY}or{SHY}di{SHY}nary.", box, max_size=4, min_size=4)
    assert texts(fitted) == ["Draw two cards. Ex-", "traordinary."] and fitted.warning is None
    image = rasterise(fitted.ops)
    assert bands(image) == 2
    first = image.crop((0, 0, image.width, round((5 + 4 * 1.25) * MM)))  # the first line alone
    # The hyphen is drawn: ink reaches past "Draw two cards. Ex" to the end of the line, inside the box.
    assert ink_right(first) > 5 + text_width_mm("Draw two cards. Ex", fonts.KOREAN, 4) + 0.3
    assert ink_right(first) <= 5 + width


def test_a_break_at_a_soft_hyphen_is_preferred_to_shrinking_or_breaking_between_letters():
    box = Box(0, 0, text_width_mm("Extraordi-", fonts.KOREAN, 4) + 0.2, 20)
    fitted = fit(f"Ex{SHY}tra{SHY}or{SHY}di{SHY}nary", box, max_size=4, min_size=2)
    assert fitted.size_mm == 4 and fitted.warning is None
    assert texts(fitted) == ["Extraordi-", "nary"]


def test_the_hyphen_at_a_soft_break_takes_the_style_of_its_word():
    box = Box(0, 0, text_width_mm("Extra-", fonts.KOREAN_BOLD, 4) + 0.2, 20)
    fitted = fit(f"**Extra{SHY}ordinary**", box, max_size=4, min_size=4)
    first = [op for op in fitted.ops if isinstance(op, Text)][0]
    assert first.text == "Extra-" and first.font == fonts.KOREAN_BOLD


def test_a_soft_hyphen_is_left_out_of_a_line_that_never_breaks():
    fitted = fit_line(f"Ex{SHY}tra", fonts.KOREAN, Box(0, 0, 40, 10), max_size_mm=4, min_size_mm=2, where="t")
    assert [op.text for op in fitted.ops] == ["Extra"]


@pytest.mark.parametrize("markup", [SHY, f"{SHY}a", f"a{SHY}", f"a{SHY}{SHY}b", f"**{SHY}**x", f"x:star:{SHY}y"])
def test_soft_hyphens_at_word_edges_draw_no_stray_text(markup):
    for width in (1, 3, 40):
        fitted = fit(markup, Box(0, 0, width, 20), max_size=4, min_size=4)
        assert all(SHY not in t and t for t in texts(fitted))
