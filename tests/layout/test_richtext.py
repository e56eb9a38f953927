"""Rich text: markup, wrapping (Latin and Korean), inline icons, shrinking, on rendered pixels too."""

from __future__ import annotations

import time

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image as PILImage
from PIL import ImageStat

from printkit import fonts
from printkit.layout.geometry import Box, Size
from printkit.games import icons
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Polygon, Text
from printkit.layout.richtext import MAX_LINES, RichStyle, RichTextError, fit_rich, icon_names
from printkit.fonts import text_width_mm
from printkit.layout.text import font_metrics
from printkit.render.pdf import render_pages

BUILTIN_ICONS = icons()  # every game's glyphs and the generic shapes

STYLE = RichStyle((fonts.KOREAN, fonts.SYMBOLS), (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD))
DPI = 300
MM = DPI / 25.4


def fit(markup, box=Box(0, 0, 60, 40), style=STYLE, *, max_size=5.0, min_size=1.5, mode="shrink", icons=BUILTIN_ICONS):
    return fit_rich(markup, box, style, max_size_mm=max_size, min_size_mm=min_size, fit=mode, icons=icons,
                    where="cards#1 body")


def rasterise(ops, size=Size(80, 60)) -> PILImage.Image:
    pdf = render_pages([Page(size, (Placement(Face(tuple(ops)), 0, 0),))])
    return pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("L")


def ink(image: PILImage.Image) -> int:
    return round(ImageStat.Stat(image.point(lambda v: 255 - v)).sum[0])


def texts(fitted) -> list[str]:
    return [op.text for op in fitted.ops if isinstance(op, Text)]


# --- markup ---------------------------------------------------------------------------------

def test_bold_and_italic_choose_fonts_and_slant():
    fitted = fit("plain **bold** *italic* ***both***", max_size=4)
    by_text = {op.text: op for op in fitted.ops}
    assert by_text["plain"].font == fonts.KOREAN and by_text["plain"].slant_deg == 0
    assert by_text["bold"].font == fonts.KOREAN_BOLD and by_text["bold"].slant_deg == 0
    assert by_text["italic"].font == fonts.KOREAN and by_text["italic"].slant_deg == 12
    assert by_text["both"].font == fonts.KOREAN_BOLD and by_text["both"].slant_deg == 12


def test_nesting_bold_with_italic_inside():
    fitted = fit("**bold *and italic***", max_size=4)
    assert [(op.text, op.font, op.slant_deg) for op in fitted.ops] == [
        ("bold", fonts.KOREAN_BOLD, 0), ("and italic", fonts.KOREAN_BOLD, 12)]


def test_a_given_italic_chain_is_used_instead_of_slanting():
    style = RichStyle(STYLE.regular, STYLE.bold, italic=(fonts.SYMBOLS,))
    (op,) = fit("*lean*", style=style).ops
    assert op.font == fonts.SYMBOLS and op.slant_deg == 0


@pytest.mark.parametrize("markup, shown", [
    ("**unclosed", "**unclosed"),
    ("*unclosed", "*unclosed"),
    ("a * b", "a * b"),
    ("2 ** 3", "2 ** 3"),
    ("****four****", "****four****"),
    ("\\*stars\\* \\: \\\\", "*stars* : \\"),
    ("10\\:30", "10:30"),
    ("ratio 1:2 and: this", "ratio 1:2 and: this"),
    ("C:\\path", "C:\\path"),
    ("***x**", "*x"),  # bold closes; the italic star never closes and prints
])
def test_literal_text(markup, shown):
    assert "".join(texts(fit(markup, max_size=3))) == shown


def test_newlines_and_paragraphs():
    fitted = fit("one\ntwo\n\n\nthree", max_size=4)
    (a, b, c) = fitted.ops
    assert (a.text, b.text, c.text) == ("one", "two", "three")
    assert b.y_mm - a.y_mm == pytest.approx(1.25 * 4)
    assert c.y_mm - b.y_mm == pytest.approx((1.25 + 0.35) * 4)


def test_spaces_collapse_and_no_break_space_holds():
    assert texts(fit("  a   \t b  ", max_size=4)) == ["a b"]
    width = text_width_mm("aaa\u00a0bbb", fonts.KOREAN, 4) + 0.5
    assert texts(fit("xx aaa\u00a0bbb", Box(0, 0, width, 30), max_size=4, min_size=4)) == ["xx", "aaa\u00a0bbb"]


def test_icon_names():
    assert icon_names("Pay 3:gold: or :ruby:, :gold: again \\:coal: :bad name:") == ("gold", "ruby")
    assert icon_names("") == ()


def test_icon_names_are_the_icons_the_text_sets():
    """Read from the markup's tokens, the names are those of the icons the words as set hold, for
    texts of spans, escapes, stars, code and line breaks of every kind."""
    import random

    from printkit.layout.richparse import _IconSpan, _parse

    pieces = [":gold:", ":ruby:", "\\:coal:", "::gold:", ":a:b:", "[x :ruby:]{color=#c33}", "[y]{size=1.2}", "[z]{size=99}",
              "*", "**", "`:code:`", "\\", " ", "\n", "\r\n", "\r", "\n\n", "word", ":", "]{", "[", "]"]
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        try:
            parsed = _parse(text)
        except RichTextError:
            with pytest.raises(RichTextError):
                icon_names(text)
            continue
        words = [span.name for paragraph in parsed for line in paragraph for word in line for span in word
                 if isinstance(span, _IconSpan)]
        assert icon_names(text) == tuple(dict.fromkeys(words)), text


def test_unknown_icon_suggests_the_nearest_name():
    icons = {"fire": BUILTIN_ICONS["star"], "gem": BUILTIN_ICONS["ruby"], "ruby": BUILTIN_ICONS["ruby"]}
    with pytest.raises(RichTextError) as err:
        fit("burn :fyre: now", icons=icons)
    message = str(err.value)
    assert "cards#1 body" in message
    assert "unknown icon ':fyre:' (did you mean ':fire:'? known: fire, gem, ruby" in message
    with pytest.raises(RichTextError, match=r"write \\: for a colon"):
        fit("at 10:30:00", icons=icons)


# --- icons ----------------------------------------------------------------------------------

def test_icon_sits_inline_between_words_on_the_baseline():
    fitted = fit("one :square: two", max_size=5, min_size=5)
    one, *square, two = fitted.ops
    assert (one.text, two.text) == ("one", "two")
    xs = [x for op in square for x, _ in op.points]
    ys = [y for op in square for _, y in op.points]
    assert one.x_mm < min(xs) and max(xs) < two.x_mm
    cap = font_metrics(fonts.KOREAN).cap_height * 5
    # Centred on the capitals' middle, a little taller than them.
    assert (min(ys) + max(ys)) / 2 == pytest.approx(one.y_mm - cap / 2, abs=0.05)
    assert max(ys) - min(ys) == pytest.approx(0.88 * 1.2 * cap, rel=0.02)
    # Plain shapes take the text's colour; a gem keeps its own.
    assert {op.fill for op in square} == {"#000000"}
    gem = fit(":ruby:", max_size=5).ops[0]
    assert gem.fill == "#c8102e"
    # On the page: the square is ink between the words, with space on either side.
    image = rasterise(fitted.ops)
    mid_y = (min(ys) + max(ys)) / 2
    assert image.getpixel((int((min(xs) + max(xs)) / 2 * MM), int(mid_y * MM))) < 60
    assert image.getpixel((int((min(xs) - 0.6) * MM), int(mid_y * MM))) > 200


def test_an_icon_glued_to_a_word_wraps_with_it():
    # "3:gold:" is one word: when it moves to the next line, the icon goes along.
    fitted = fit("aaaa bbbb 3:gold:", Box(0, 0, 24, 30), max_size=4, min_size=4)
    three = next(op for op in fitted.ops if isinstance(op, Text) and op.text == "3")
    gold = next(op for op in fitted.ops if isinstance(op, Polygon))
    assert three.x_mm == 0
    assert min(y for _, y in gold.points) > three.y_mm - 4


# --- fitting and wrapping -------------------------------------------------------------------

LONG = ("Play **one card** on any *pay*, yours or another's: it must match the top card's number "
        "or symbol :plus:. An empty pay takes any card.\n\nOr draw 1 card, while the deck lasts.")


def test_shrink_picks_the_largest_fitting_size_and_lines_stay_in_the_box(tmp_path):
    box = Box(5, 5, 40, 30)
    fitted = fit(LONG, box, max_size=8, min_size=1)
    assert fitted.warning is None and 1 < fitted.size_mm < 8
    bigger = fit(LONG, box, max_size=8, min_size=fitted.size_mm + 0.05)
    assert bigger.warning and "does not fit 40.0x30.0 mm even at the minimum size" in bigger.warning
    image = rasterise(fitted.ops)
    left, top, right, bottom = image.point(lambda v: 255 if v < 200 else 0).getbbox()
    assert box.x_mm - 0.1 <= left / MM and right / MM <= box.right_mm + 0.1
    assert box.y_mm - 0.1 <= top / MM and bottom / MM <= box.bottom_mm + 0.1
    image.save(tmp_path / "richtext.png")  # for a look


def test_a_text_that_fits_at_its_largest_size_is_laid_out_once(monkeypatch):
    from printkit.layout import richtext

    calls = []
    real = richtext._lay_out
    monkeypatch.setattr(richtext, "_lay_out", lambda *a, **k: calls.append(a[3]) or real(*a, **k))
    richtext._SET.clear()
    fitted = fit("Draw a card.", Box(0, 0, 40, 10), max_size=4, min_size=1)
    assert fitted.size_mm == 4 and fitted.warning is None
    assert calls == [4]  # tried at the maximum, and that layout is the one drawn
    calls.clear()
    shrunk = fit(LONG, Box(5, 5, 40, 30), max_size=8, min_size=1)
    assert 1 < shrunk.size_mm < 8 and calls[0] == 8 and calls.count(shrunk.size_mm) == 1


def test_words_measured_for_one_text_serve_the_next():
    box = Box(0, 0, 30, 20)
    first = fit("Deal 2 damage to any target, then draw a card.", box, max_size=4)
    again = fit("Deal 2 damage to any target, then draw a card.", box, max_size=4)
    other = fit("Then draw a card and deal 2 damage to any target.", box, max_size=4)
    assert first == again
    from printkit.layout import richtext
    from printkit.layout.richmeasure import _shared_words

    _shared_words.cache_clear()  # measured afresh: the same ops to the last digit
    richtext._SET.clear()
    assert fit("Then draw a card and deal 2 damage to any target.", box, max_size=4) == other
    assert fit("Deal 2 damage to any target, then draw a card.", box, max_size=4) == first


def test_a_text_set_before_in_an_equal_box_is_not_laid_out_again(monkeypatch):
    from printkit.layout import richtext

    calls = []
    real = richtext._lay_out
    monkeypatch.setattr(richtext, "_lay_out", lambda *a, **k: calls.append(a[3]) or real(*a, **k))
    richtext._SET.clear()
    first = fit("Creature", Box(0, 0, 30, 6), max_size=4)
    assert calls and fit("Creature", Box(0, 0, 30, 6), max_size=4) == first
    calls.clear()
    assert fit("Creature", Box(0, 0, 30, 6), max_size=4) is first and calls == []
    assert fit("Creature", Box(5, 0, 30, 6), max_size=4) != first and calls  # another box: set anew
    # A warning names its card, so a text that warns is set again for the next card.
    box = Box(0, 0, 10, 3)
    one = fit_rich(LONG, box, STYLE, max_size_mm=3, min_size_mm=2, fit="shrink", icons=BUILTIN_ICONS, where="a#1 body")
    two = fit_rich(LONG, box, STYLE, max_size_mm=3, min_size_mm=2, fit="shrink", icons=BUILTIN_ICONS, where="b#2 body")
    assert one.warning.startswith("a#1 body:") and two.warning.startswith("b#2 body:")


@pytest.mark.parametrize("title", ["Ash", "Zealous Spire of Glass", "The Long Winter of the Nine Kingdoms",
                                   "불꽃의 정령", "Ever-burning lantern of the drowned cathedral of Saint Ysolde",
                                   "Supercalifragilisticexpialidocious"])
@pytest.mark.parametrize("box", [Box(0, 0, 44, 8), Box(0, 0, 20, 12), Box(0, 0, 60, 5)])
def test_shrinking_finds_the_largest_size_that_fits(title, box):
    """The search (which starts where the text fits on one line) agrees with trying every size."""
    from printkit.layout import richtext
    from printkit.layout.richmeasure import _Measure, _Setting
    from printkit.layout.richparse import _parse
    from printkit.layout.richtext import _lay_out

    richtext._SET.clear()
    fitted = fit(f"**{title}**", box, max_size=5, min_size=1.5)
    setting = _Setting(_parse(f"**{title}**"), STYLE, BUILTIN_ICONS)
    sizes = [1.5 + i * 0.05 for i in range(71)]
    fits = [s for s in sizes if _lay_out(setting, STYLE, box, s, _Measure(), stop_when_too_tall=True).fits]
    assert fitted.size_mm == pytest.approx(max(fits) if fits else 1.5)


def test_too_long_text_is_set_at_the_minimum_with_a_warning():
    fitted = fit(LONG * 5, Box(0, 0, 30, 10), max_size=4, min_size=2)
    assert fitted.size_mm == 2
    assert fitted.warning.startswith("cards#1 body: text 'Play one card on any pay")
    assert "even at the minimum size 2 mm" in fitted.warning


def test_fit_none_sets_at_the_maximum():
    fitted = fit(LONG, Box(0, 0, 30, 10), max_size=4, mode="none")
    assert fitted.size_mm == 4 and "does not fit 30.0x10.0 mm at 4 mm" in fitted.warning
    assert fit("short", mode="none", max_size=4).warning is None


def test_words_wrap_at_spaces_and_long_words_between_characters():
    width = text_width_mm("alpha beta", fonts.KOREAN, 4) + 0.5
    fitted = fit("alpha beta gamma", Box(0, 0, width, 30), max_size=4, min_size=4)
    assert texts(fitted) == ["alpha beta", "gamma"]
    long = fit("x" * 40, Box(0, 0, 18, 30), max_size=4, min_size=4)
    assert "".join(texts(long)) == "x" * 40 and len(long.ops) > 1
    # Never a line starting with closing punctuation.
    punct = fit("(" + "x" * 30 + ").", Box(0, 0, 18, 30), max_size=4, min_size=4)
    assert not any(t[0] in ".)" for t in texts(punct)) and not any(t.endswith("(") for t in texts(punct))


def test_korean_keeps_words_whole_when_the_line_is_mostly_full():
    # The first line is full enough: the next word moves whole to the next line.
    width = text_width_mm("카드를 아무 페이에", fonts.KOREAN, 4) + 1.0
    fitted = fit("카드를 아무 페이에 내려놓는다", Box(0, 0, width, 30), max_size=4, min_size=4)
    assert texts(fitted) == ["카드를 아무 페이에", "내려놓는다"]


def test_korean_moves_a_word_whole_when_the_line_it_leaves_is_over_half_full():
    # The tester's card text: the line left behind is about 70% full, not "mostly empty"; the
    # word used to be broken as "…놓아도 됩니다(원" / "하면).".
    width = text_width_mm("카드를 덱 맨 아래에 놓아도 됩니다(원", fonts.KOREAN, 4) + 0.3
    left = text_width_mm("카드를 덱 맨 아래에 놓아도", fonts.KOREAN, 4)
    assert 0.5 < left / width < 0.75
    fitted = fit("카드를 덱 맨 아래에 놓아도 됩니다(원하면).", Box(0, 0, width, 30), max_size=4, min_size=4)
    assert texts(fitted) == ["카드를 덱 맨 아래에 놓아도", "됩니다(원하면)."]
    assert fitted.warning is None


def test_korean_breaks_between_syllables_when_a_line_would_stay_short():
    fitted = fit("패 가나다라마바사아자차카타파하", Box(0, 0, 24, 30), max_size=4, min_size=4)
    first, *rest = texts(fitted)
    assert first.startswith("패 가")  # the long word starts on the short first line
    assert "".join(t.replace(" ", "") for t in texts(fitted)) == "패가나다라마바사아자차카타파하"


def test_korean_never_breaks_before_closing_punctuation():
    fitted = fit("가나다라마바사아자차카타파하.", Box(0, 0, 24, 30), max_size=4, min_size=4)
    assert len(fitted.ops) > 1 and not any(t.startswith(".") for t in texts(fitted))


def test_fallback_fonts_and_undrawable_characters():
    fitted = fit("5 − 3 ♦ \u0378", max_size=4)
    assert {op.font for op in fitted.ops} == {fonts.KOREAN, fonts.SYMBOLS}
    assert "no font can draw" in fitted.warning and repr("\u0378") in fitted.warning
    assert fit("5 − 3 ♦", max_size=4).warning is None


# --- on the page ----------------------------------------------------------------------------

def test_bold_prints_heavier_than_regular():
    regular = ink(rasterise(fit("Heavy words", max_size=6).ops))
    bold = ink(rasterise(fit("**Heavy words**", max_size=6).ops))
    assert bold > 1.2 * regular


def test_italic_leans_right_towards_the_top():
    def mean_x(image, row_mm):
        row = int(row_mm * MM)
        xs = [x for x in range(image.width) if image.getpixel((x, row)) < 128]
        return sum(xs) / len(xs)

    size = 10.0
    upright = fit("lll", max_size=size, min_size=size)
    leaning = fit("*lll*", max_size=size, min_size=size)
    baseline = upright.ops[0].y_mm
    a, b = rasterise(upright.ops), rasterise(leaning.ops)
    top = baseline - 0.6 * size
    near_base = baseline - 0.5
    shift_top = mean_x(b, top) - mean_x(a, top)
    shift_base = mean_x(b, near_base) - mean_x(a, near_base)
    assert shift_top - shift_base == pytest.approx(0.2126 * (0.6 * size - 0.5) * MM, abs=0.3 * MM)
    assert shift_top > 0.8 * MM


# --- robustness -----------------------------------------------------------------------------

@pytest.mark.parametrize("markup", [
    "a" * 2_000_000, "가" * 1_000_000, " " * 6000, "{{" + " " * 6000, "*" * 10_000, "* " * 10_000,
    ":" * 200_000, "\\" * 100_000, "**a " * 20_000, "\n" * 50_000,
])
def test_pathological_inputs_finish_quickly(markup):
    fit("warm up")
    start = time.perf_counter()
    fitted = fit(markup, Box(0, 0, 50, 40), max_size=6, min_size=1.5)
    assert time.perf_counter() - start < 5.0  # generous: these take well under a second
    assert sum(isinstance(op, Text) for op in fitted.ops) <= 2 * MAX_LINES


MARKUP = st.lists(st.sampled_from(list("ab 가나*:\\\n.)(_-") + ["ruby", "\u00a0", "\u0378"]), max_size=120).map("".join)


@given(MARKUP)
@settings(deadline=2000)
def test_fuzz_never_fails_except_for_unknown_icons(markup):
    try:
        fitted = fit(markup, Box(0, 0, 30, 20), max_size=4, min_size=1)
    except RichTextError as exc:
        assert "unknown icon" in str(exc)
        assert any(name not in BUILTIN_ICONS for name in icon_names(markup))
        return
    assert all(name in BUILTIN_ICONS for name in icon_names(markup))
    assert 1 <= fitted.size_mm <= 4
    # Every letter written prints (markup characters aside), in order.
    shown = "".join(op.text for op in fitted.ops if isinstance(op, Text))
    letters = [ch for ch in markup if ch in "ab가나.()"]
    assert [ch for ch in shown if ch in "ab가나.()"] == letters


@given(st.text(max_size=300))
@settings(deadline=2000)
def test_fuzz_any_text(markup):
    try:
        fit(markup, Box(0, 0, 30, 20), max_size=4, min_size=1)
    except RichTextError:
        pass


# --- spans ------------------------------------------------------------------------------------

def red_pixels(image) -> int:
    return sum(1 for r, g, b in image.get_flattened_data() if r > 180 and g < 80 and b < 80)


def rasterise_rgb(ops, size=Size(80, 60)):
    pdf = render_pages([Page(size, (Placement(Face(tuple(ops)), 0, 0),))])
    return pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("RGB")


def test_a_span_colours_its_text_and_ink_icons_on_the_rendered_card():
    plain = fit("Deal **3** :star: damage", max_size=4)
    red = fit_rich("Deal [**3** :star:]{color=fire} damage", Box(0, 0, 60, 40), STYLE, max_size_mm=4,
                   min_size_mm=1.5, fit="shrink", icons=BUILTIN_ICONS, where="cards#1 body",
                   palette={"fire": "#d01010"})
    assert red_pixels(rasterise_rgb(plain.ops)) == 0
    assert red_pixels(rasterise_rgb(red.ops)) > 500  # the 3 and the star, drawn red
    by_text = {op.text: op for op in red.ops if isinstance(op, Text)}
    assert by_text["3"].color == "#d01010" and by_text["Deal"].color == STYLE.color
    assert [op.fill for op in red.ops if isinstance(op, Polygon)] == ["#d01010"]


def test_a_span_sizes_its_text_on_the_same_baseline():
    fitted = fit("a [big]{size=1.5} b", max_size=4, mode="none")
    by_text = {op.text: op for op in fitted.ops}
    assert by_text["big"].size_mm == pytest.approx(6.0) and by_text["a"].size_mm == 4.0
    assert by_text["big"].y_mm == by_text["a"].y_mm
    plain = fit("a big b", max_size=4, mode="none").ops[0]  # one run: "a big b"
    # the word and the space after it are set at 1.5 times the size
    assert by_text["b"].x_mm == pytest.approx(text_width_mm("a ", fonts.KOREAN, 4.0) +
                                              text_width_mm("big ", fonts.KOREAN, 6.0), abs=0.01)
    assert plain.text == "a big b"


@pytest.mark.parametrize("markup, shown", [
    ("[plain] words", "[plain] words"),
    ("a \\]{color=#f00} b", "a ]{color=#f00} b"),
    ("[open", "[open"),
])
def test_brackets_that_open_no_span_print_as_typed(markup, shown):
    assert " ".join(texts(fit(markup, max_size=4))) == shown


@pytest.mark.parametrize("markup, message", [
    ("[x]{colour=red}", "unknown attribute 'colour=red'"),
    ("[x]{size=9}", "size= wants a number from 0.25 to 4"),
    ("[x]{color=rust}", "span color 'rust' is neither #rgb/#rrggbb nor a name in art.colors"),
])
def test_a_span_it_cannot_set_is_an_error_naming_the_card(markup, message):
    with pytest.raises(RichTextError, match=r"^cards#1 body: .*" + message.replace("(", r"\(")):
        fit(markup)
