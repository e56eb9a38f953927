"""The plain template for games printkit has no design for."""

import json
import shutil

import pytest

from printkit import fonts
from printkit.layout import templates
from printkit.spec import load_spec
from printkit.decks import expand


def test_text_a_latin_font_lacks_is_set_in_the_bundled_fonts(tmp_path):
    shutil.copy(fonts.SYMBOLS, tmp_path / "Latin.ttf")
    spec = tmp_path / "demo.yaml"
    spec.write_text("game: demo\nname: Demo\nart: {font: Latin.ttf, back: {label: 뒷면}}\n"
                    "groups:\n  - name: g\n    cards: [{title: 한글, kind: Latin, text: Plain 글}]\n", encoding="utf-8")
    deck = expand(load_spec(spec))
    card = deck.cards[0]
    front, back = templates.front(card, deck), templates.back(card, deck)
    assert front.warnings == () and back.warnings == ()
    texts = {op.text: op.font.name for op in front.ops + back.ops if hasattr(op, "text")}
    assert texts["한글"] == texts["뒷면"] == fonts.KOREAN_BOLD.name
    assert texts["kind: Latin"] == "Latin.ttf"
    font_of = {ch: op.font.name for op in front.ops if hasattr(op, "text") for ch in op.text}
    assert font_of["P"] == "Latin.ttf" and font_of["글"] == fonts.KOREAN.name  # body text in the regular cut


def _orchard_card(colors=None, attrs=None, size=None):
    """A card of a game with no template of its own, as a designer's first deck has."""
    from printkit.deck import Art, Card, CardSize

    art = Art(colors=colors or {"background": "#fff8e7", "ink": "#2b2b2b"})
    attrs = {"fruit": "apple", "value": 8, "title": "Golden harvest"} if attrs is None else attrs
    return Card("fruit[fruit=apple,value=8]#1", "fruit", attrs, art, size or CardSize(63.5, 88.9, bleed_mm=3.175))


def _text_region(card, ops):
    """The box of ``ops``' text as fractions of the trim size, for ``image_share``."""
    from ._ops import op_bounds

    bounds = [op_bounds(op) for op in ops]
    s = card.size
    return (min(b[0] for b in bounds) / s.width_mm, min(b[1] for b in bounds) / s.height_mm,
            max(b[2] for b in bounds) / s.width_mm, max(b[3] for b in bounds) / s.height_mm)


def _extent(ops):
    """(x0, y0, x1, y1) in mm around all of ``ops``."""
    from ._ops import op_bounds

    bounds = [op_bounds(op) for op in ops]
    return tuple(f(b[i] for b in bounds) for i, f in enumerate((min, min, max, max)))


def _blocks(face):
    """The face's text ops by role: the title (first line), the ``text`` paragraph and the ``key: value`` lines."""
    from ._ops import texts

    ops = texts(face)
    lines = [op for op in ops[1:] if ": " in op.text]
    return ops[0], [op for op in ops[1:] if op not in lines], lines


def _assert_in_safe_area(face, card):
    from printkit.layout.geometry import safe_box

    from ._ops import assert_inside, texts

    safe = safe_box(card.size)
    assert_inside(texts(face), safe.x_mm, safe.y_mm, safe.right_mm, safe.bottom_mm)


LONG = ("At the start of your turn, draw two cards, then discard one. If you discarded a fruit card, gain "
        "one coin for every fruit of the same kind already in your orchard. Other players may not respond.")


def test_the_title_is_the_title_or_name_attribute_else_the_group_name():
    from printkit.layout.templates import generic

    def shown(attrs):
        title, _, lines = _blocks(generic.front(_orchard_card(attrs=attrs)))
        return title.text, [op.text for op in lines]

    assert shown({"title": "Golden harvest", "value": 8}) == ("Golden harvest", ["value: 8"])
    assert shown({"name": "Crow", "value": 2}) == ("Crow", ["value: 2"])
    # With both, the title wins and the name is still printed; an empty title is no title.
    assert shown({"name": "Crow", "title": "Thief"}) == ("Thief", ["name: Crow"])
    assert shown({"title": " ", "name": "Crow"})[0] == "Crow"
    assert shown({"title": 5, "value": 1}) == ("5", ["value: 1"])
    assert shown({}) == ("fruit", [])


def test_a_card_with_text_has_title_above_paragraph_above_attributes_inside_the_safe_area():
    from printkit.layout.geometry import safe_box
    from printkit.layout.templates import generic

    card = _orchard_card(attrs={"kind": "wild", "fruit": "wild", "text": "Counts as any fruit"})
    face = generic.front(card)
    assert face.warnings == ()
    _assert_in_safe_area(face, card)
    title, paragraph, lines = _blocks(face)
    safe = safe_box(card.size)
    assert title.text == "fruit" and abs((_extent([title])[0] + _extent([title])[2]) / 2 - safe.cx_mm) < 0.05
    assert [op.text for op in paragraph] == ["Counts as any fruit"]
    assert [op.text for op in lines] == ["kind: wild", "fruit: wild"]  # in attribute order, text left out
    t, p, a = _extent([title]), _extent(paragraph), _extent(lines)
    assert t[1] < safe.y_mm + 0.15 * safe.h_mm  # the title band is at the top
    assert t[3] < p[1] and p[3] < a[1]  # title, then text, then the attributes, none overlapping
    assert abs((p[1] + p[3]) / 2 - safe.cy_mm) < 0.1 * safe.h_mm  # the text in the middle
    assert a[3] > safe.bottom_mm - 3.0  # the attributes at the bottom
    assert title.size_mm > paragraph[0].size_mm > lines[0].size_mm
    assert paragraph[0].size_mm == pytest.approx(5.0, abs=0.1) and lines[0].size_mm <= 3.5 + 1e-9


def test_without_text_the_attributes_are_larger_and_centred_in_the_body():
    from printkit.layout.geometry import safe_box
    from printkit.layout.templates import generic

    card = _orchard_card()
    face = generic.front(card)
    assert face.warnings == ()
    _assert_in_safe_area(face, card)
    title, paragraph, lines = _blocks(face)
    assert title.text == "Golden harvest" and paragraph == []
    assert [op.text for op in lines] == ["fruit: apple", "value: 8"]
    safe = safe_box(card.size)
    assert all(abs((_extent([op])[0] + _extent([op])[2]) / 2 - safe.cx_mm) < 0.05 for op in lines)
    assert lines[0].size_mm == pytest.approx(6.0, abs=0.1)
    safe = safe_box(card.size)
    a = _extent(lines)
    assert safe.y_mm + 0.3 * safe.h_mm < a[1] and a[3] < safe.bottom_mm - 0.3 * safe.h_mm


def test_the_layout_shows_in_the_pixels():
    # Ink where each block is, and only the background in the gaps between them.
    from printkit.layout.templates import generic

    from ._ops import image_share

    card = _orchard_card({"background": "#ffffff", "ink": "#000000"},
                         attrs={"kind": "storm", "text": "Every player discards one fruit"})
    face = generic.front(card)
    title, paragraph, lines = _blocks(face)
    s = card.size
    t, p, a = _extent([title]), _extent(paragraph), _extent(lines)
    inner_x = (0.15, 0.85)

    def ink(y0_mm, y1_mm):
        return image_share(face, card, inner_x[0], y0_mm / s.height_mm, inner_x[1], y1_mm / s.height_mm,
                           color=(0, 0, 0), dpi=150)

    for top, bottom in (t[1::2], p[1::2], a[1::2]):
        assert ink(top, bottom) > 0.02
    for top, bottom in ((t[3] + 0.3, p[1] - 0.3), (p[3] + 0.3, a[1] - 0.3)):
        assert ink(top, bottom) == 0


def test_a_long_text_shrinks_to_fit_above_the_attributes():
    from printkit.layout.templates import generic

    card = _orchard_card(attrs={"title": "The long road", "cost": 3, "text": LONG * 2})
    face = generic.front(card)
    assert face.warnings == ()
    _assert_in_safe_area(face, card)
    _, paragraph, lines = _blocks(face)
    assert len(paragraph) > 8 and 1.2 <= paragraph[0].size_mm < 5.0
    assert _extent(paragraph)[3] < _extent(lines)[1]


def test_text_too_long_for_the_card_is_a_warning_naming_the_field():
    from printkit.layout.templates import generic

    face = generic.front(_orchard_card(attrs={"text": LONG * 40}))
    assert len(face.warnings) == 1
    assert face.warnings[0].startswith("fruit[text=At the start") and "… text: " in face.warnings[0]
    assert "does not fit" in face.warnings[0]


def test_a_korean_title_and_text_are_set_in_the_bundled_korean_fonts():
    from printkit import fonts
    from printkit.layout.templates import generic

    card = _orchard_card(attrs={"title": "황금 수확", "text": "까마귀가 카드를 훔칩니다", "value": 8})
    face = generic.front(card)
    assert face.warnings == ()
    _assert_in_safe_area(face, card)
    title, paragraph, lines = _blocks(face)
    assert title.text == "황금 수확" and title.font == fonts.KOREAN_BOLD
    assert [op.text for op in paragraph] == ["까마귀가 카드를 훔칩니다"] and paragraph[0].font == fonts.KOREAN
    assert [op.text for op in lines] == ["value: 8"]


def test_on_a_small_component_the_title_stays_the_largest_text_and_lines_do_not_break():
    from printkit.deck import CardSize
    from printkit.layout.templates import generic

    small = CardSize(30.0, 30.0, min_text_mm=1.0)  # a token's designer accepts small text
    for attrs in ({"basket": "purple"}, {"kind": "coin", "text": "Pay one to reroll"}, {"title": "Gold", "value": 5}):
        card = _orchard_card(attrs=attrs, size=small)
        face = generic.front(card)
        assert face.warnings == (), attrs
        _assert_in_safe_area(face, card)
        title, paragraph, lines = _blocks(face)
        assert all(op.size_mm <= title.size_mm for op in paragraph + lines), attrs
        # Each attribute is one whole line, never broken into two.
        assert [op.text for op in lines] == [f"{k}: {v}" for k, v in attrs.items() if k not in ("title", "text")]


def test_text_sits_on_plates_of_the_background_colour_over_a_background_image(tmp_path):
    from printkit.layout.templates import generic

    from ._ops import image_share, with_background_image

    card = with_background_image(_orchard_card(attrs={"title": "Golden harvest", "text": "Counts as any fruit",
                                                      "value": 8}), tmp_path)
    face = generic.front(card)
    title, paragraph, lines = _blocks(face)
    for ops in ([title], paragraph, lines):
        region = _text_region(card, ops)
        assert image_share(face, card, *region) == 0, ops[0].text  # no image behind the text
        assert image_share(face, card, *region, color=(0xff, 0xf8, 0xe7)) > 0.4
    # The image shows where there is no text: between the title and the paragraph.
    gap_top, gap_bottom = _text_region(card, [title])[3] + 0.02, _text_region(card, paragraph)[1] - 0.02
    assert gap_bottom - gap_top > 0.1
    assert image_share(face, card, 0.1, gap_top, 0.9, gap_bottom) > 0.9


def test_an_overrides_background_colour_shows_on_the_plates(tmp_path):
    # Over an image the background colour is seen only on the plates: a card that overrides it
    # must look different there, or the override would print as nothing.
    from printkit.layout.templates import generic

    from ._ops import image_share, with_background_image

    card = with_background_image(_orchard_card({"background": "#00ff00"}), tmp_path)
    face = generic.front(card)
    region = _text_region(card, _blocks(face)[2])
    assert image_share(face, card, *region, color=(0, 255, 0)) > 0.4


def test_no_plates_without_a_background_image():
    from printkit.layout.ops import Rect
    from printkit.layout.templates import generic

    face = generic.front(_orchard_card(attrs={"title": "Golden harvest", "text": "Counts as any fruit", "value": 8}))
    rects = [op for op in face.ops if isinstance(op, Rect)]
    assert len(rects) == 2  # the background to the bleed edge and the frame: nothing more is needed


def test_text_below_the_legibility_floor_is_a_warning_naming_the_card_and_field():
    from printkit.deck import CardSize
    from printkit.layout.templates import generic

    card = _orchard_card(attrs={"basket": "purple"}, size=CardSize(30.0, 30.0))
    [warning] = generic.front(card).warnings
    assert warning.startswith("fruit[basket=purple]#1 attributes_alone: text set at ")
    assert "below the legibility floor of 2.12 mm (6 pt)" in warning


# A four-pointed star in a green no other part of the face has, easy to find in a rendering.
_SPARK = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
          '<path d="M12 1 L14.6 9.4 L23 12 L14.6 14.6 L12 23 L9.4 14.6 L1 12 L9.4 9.4 Z" fill="#00c000"/></svg>')


def _spark_deck(tmp_path, text, extra="", title="Your turn"):
    """A deck of a game printkit has no design for, with a ``spark`` icon of its own and one card
    (line 7) whose ``text`` is ``text``, ``extra`` its further attributes; the spec's path."""
    (tmp_path / "spark.svg").write_text(_SPARK, encoding="utf-8")
    spec = tmp_path / "deck.yaml"
    spec.write_text("game: orchard\nname: Orchard\nicons: {spark: spark.svg}\ngroups:\n  - name: aids\n"
                    f"    cards:\n      - {{title: {json.dumps(title)}, text: {json.dumps(text)}{extra}}}\n", encoding="utf-8")
    return spec


def test_the_text_reads_markup_as_a_layouts_text_does(tmp_path):
    # Icons and bold as a designer writes them in card text: the spec's own icon drawn, the word
    # in stars set bold, and none of the marks printed.
    from ._ops import image_share, texts

    deck = expand(load_spec(_spark_deck(tmp_path, "Draw, play :spark:, then **pass**.")))
    card = deck.cards[0]
    face = templates.front(card, deck)
    printed = "".join(op.text for op in texts(face))
    assert ":spark:" not in printed and "*" not in printed
    [passed] = [op for op in texts(face) if "pass" in op.text]
    [draw] = [op for op in texts(face) if "Draw" in op.text]
    assert passed.font.name != draw.font.name and "Bold" in passed.font.name, (passed.font, draw.font)
    assert image_share(face, card, 0.05, 0.2, 0.95, 0.66, color=(0, 192, 0), dpi=150) > 0.001


def test_a_colon_written_as_backslash_colon_prints_and_the_attribute_lines_stay_as_written(tmp_path):
    from ._ops import texts

    spec = _spark_deck(tmp_path, "Wait until 10\\:30.", ", time: '10:30'", title="Dawn: 5:30")
    deck = expand(load_spec(spec))
    printed = [op.text for op in texts(templates.front(deck.cards[0], deck))]
    assert "Dawn: 5:30" in printed and "time: 10:30" in printed
    assert "10:30." in " ".join(printed)


def test_an_unknown_icon_in_the_text_is_a_located_error_of_check_and_build(tmp_path):
    from cli_in import invoke_in

    spec = _spark_deck(tmp_path, "Draw, play :sprak:.")
    for command in (("check", "deck.yaml", "--no-play"), ("build", "deck.yaml", "--out", "out")):
        result = invoke_in(tmp_path, *command)
        assert result.exit_code == 1, result.output
        [line] = result.stderr.strip().splitlines()
        assert line.startswith("deck.yaml:7:9: aids 'Your turn': the generic face, element 'text': "
                               "unknown icon ':sprak:' (did you mean ':spark:'?)"), line
        assert "write \\: for a colon that is not an icon" in line
    assert not (tmp_path / "out" / "orchard").exists()
    assert spec.exists()


@pytest.mark.parametrize("game", ["calc", "clag"])
def test_a_games_component_without_a_design_of_its_own_reads_the_specs_icons(tmp_path, game):
    # Calc and Clag draw a component their design does not (a reference) with the generic face: its
    # text names the spec's own icons as a layout's does, and a misspelt one is found by check.
    from cli_in import invoke_in
    from printkit.layout.ops import Image

    from ._ops import texts

    (tmp_path / "spark.svg").write_text(_SPARK, encoding="utf-8")
    spec = tmp_path / "deck.yaml"
    card = "{symbol: plus, number: 7}" if game == "calc" else "{suit: spades, rank: A}"
    head = (f"game: {game}\nname: Mine\nicons: {{spark: spark.svg}}\ngroups:\n  - name: cards\n    cards: [{card}]\n"
            "components:\n  - name: refs\n")
    spec.write_text(head + '    cards: [{reference: rules, title: Rules, text: "Gain :spark: **now**."}]\n',
                    encoding="utf-8")
    deck = expand(load_spec(spec))
    face = templates.front(deck.all_cards()[-1], deck)
    assert any(isinstance(op, Image) and op.path.name == "spark.svg" for op in face.ops)
    assert "**" not in "".join(op.text for op in texts(face))
    spec.write_text(head + '    cards: [{reference: rules, title: Rules, text: "Gain :sprak:."}]\n', encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("deck.yaml:9:13: refs 'Rules': the generic face, element 'text': "
                           "unknown icon ':sprak:' (did you mean ':spark:'?)"), line
