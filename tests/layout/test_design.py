"""Designer layouts as drawing: templates, boxes, conditions and what each element kind draws."""

from __future__ import annotations

import time
from dataclasses import replace

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

from printkit.memo import Memo
from printkit.deck import OWN_VALUES, Art, Card, CardSize
from printkit.layout.design import (
    Element,
    Layout,
    LayoutError,
    Length,
    Resources,
    color_of,
    draw,
    own_values,
)
from printkit.layout.placeholders import Placeholder, Template
from printkit.layout.geometry import Size
from printkit.games import icons
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Ellipse, Line, Rect, Text
from printkit.render.pdf import render_pages

BUILTIN_ICONS = icons()  # every game's glyphs and the generic shapes

SIZE = CardSize(60.0, 80.0, bleed_mm=3.0, safe_mm=4.0)
DPI = 254  # ten pixels a millimetre
PX = DPI / 25.4


def card(**attrs) -> Card:
    return Card("g-001", "g", attrs, Art(colors={"accent": "#bc4b51"}), SIZE)


def element(kind="rect", **kwargs) -> Element:
    box = {k: kwargs.pop(k) for k in ("x", "y", "width", "height") if k in kwargs}
    return Element(kind=kind, label=kwargs.pop("label", kind), x=box.get("x", Length(0)), y=box.get("y", Length(0)),
                   width=box.get("width", Length(100, True)), height=box.get("height", Length(100, True)), **kwargs)


def pixels(face) -> PILImage.Image:
    """The face with its bleed, ten pixels a millimetre; (0, 0) is the bleed's corner."""
    page = Page(Size(SIZE.bleed_width_mm, SIZE.bleed_height_mm), (Placement(face, SIZE.bleed_mm, SIZE.bleed_mm),))
    pdf = pdfium.PdfDocument(render_pages([page]))
    try:
        return pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


def at(image: PILImage.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    """The colour at a point of the card frame (mm from the trim's corner)."""
    return image.getpixel((round((x_mm + SIZE.bleed_mm) * PX), round((y_mm + SIZE.bleed_mm) * PX)))


# --- templates --------------------------------------------------------------------------------


def test_templates_read_placeholders_formats_and_braces():
    t = Template.parse("{title} costs {cost:02d} {{gold}}")
    assert t.parts == (Placeholder(("title",)), " costs ", Placeholder(("cost",), "02d"), " {gold}")
    assert t.names == ("title", "cost")
    assert t.render({"title": "Drake", "cost": 3}) == "Drake costs 03 {gold}"
    assert Template.parse("{tags}").render({"tags": ("fire", "beast")}) == "fire, beast"
    assert Template.parse("{power:.1f}").render({"power": 2}) == "2.0"
    assert Template.parse("{name:03d}").render({"name": "Ann"}) == "Ann"  # a format is for numbers only
    assert Template.parse("plain").constant == "plain" and Template.parse("{a}").constant is None


def test_alternatives_show_the_first_value_the_card_has():
    t = Template.parse("{title|name|_group}")
    assert t.names == ("title", "name", "_group")
    assert t.render({"name": "Crow", "_group": "birds"}) == "Crow"
    assert t.render({"title": "  ", "name": "Crow", "_group": "birds"}) == "Crow"  # an empty title is no title
    assert t.render({"title": 5, "_group": "birds"}) == "5"
    assert t.shown({"name": "Crow", "_group": "birds"}) == ("name",)
    with pytest.raises(LayoutError, match="the card has none of the attributes 'title', 'name'"):
        Template.parse("{title|name}").render({})


@pytest.mark.parametrize("text, said", [
    ("{title", "is not closed"),
    ("title}", "closes nothing"),
    ("{}", "is not a placeholder"),
    ("{my title}", "is not a placeholder"),
    ("{1st}", "is not a placeholder"),
    ("{cost:999999999d}", "is not a number format"),
    ("{cost:!r}", "is not a number format"),
])
def test_bad_templates_say_what_is_wrong(text, said):
    with pytest.raises(LayoutError, match=said):
        Template.parse(text)


def test_a_missing_attribute_names_it():
    with pytest.raises(LayoutError, match="the card has no attribute 'flavor'"):
        Template.parse("{flavor}").render({"title": "x"})


@pytest.mark.parametrize("text", ["{{" + " " * 1_000_000, "{" * 1_000_000, "{a}" * 300_000 + "{", "}" * 1_000_000],
                         ids=["open-then-spaces", "opens", "placeholders", "closes"])
def test_templates_as_long_as_a_spec_are_read_without_backtracking(text):
    """A spec is at most 1 MB; work growing with the square of that would take hours, not seconds."""
    started = time.perf_counter()
    try:
        Template.parse(text)
    except LayoutError:
        pass
    assert time.perf_counter() - started < 10.0


# --- boxes and colours ------------------------------------------------------------------------


def test_boxes_in_each_frame_with_percentages_and_far_edges():
    e = element(x=Length(2), y=Length(10, True), width=Length(50, True), height=Length(5), frame="safe")
    box = e.box(SIZE)
    assert (box.x_mm, box.y_mm, box.w_mm, box.h_mm) == pytest.approx((6.0, 4 + 7.2, 26.0, 5.0))
    corner = element(x=Length(1, from_end=True), y=Length(0, from_end=True), width=Length(8), height=Length(8))
    box = corner.box(SIZE)
    assert (box.right_mm, box.bottom_mm) == pytest.approx((59.0, 80.0))
    full = element(frame="bleed").box(SIZE)
    assert (full.x_mm, full.y_mm, full.w_mm, full.h_mm) == pytest.approx((-3, -3, 66, 86))


def test_colours_are_hex_or_palette_names():
    c = card()
    assert color_of(Template.parse("#ABC"), {}, c) == "#aabbcc"
    assert color_of(Template.parse("accent"), {}, c) == "#bc4b51"
    assert color_of(Template.parse("ink"), {}, c) == "#1d1d1f"  # a name every card knows
    assert color_of(Template.parse("{c}"), {"c": "#102030"}, c) == "#102030"
    with pytest.raises(LayoutError, match="'acent' is not a colour such as '#1f3b5a' nor a name in art.colors"):
        color_of(Template.parse("acent"), {}, c)


# --- drawing ----------------------------------------------------------------------------------


def test_elements_draw_in_order_over_the_background():
    layout = Layout("t", (
        element("rect", x=Length(10), y=Length(10), width=Length(20), height=Length(10), fill=Template.parse("accent")),
        element("ellipse", x=Length(10), y=Length(30), width=Length(20), height=Length(10),
                fill=Template.parse("#0000ff"), stroke=Template.parse("ink")),
        element("line", x=Length(10), y=Length(50), width=Length(40), height=Length(0), stroke=Template.parse("#00ff00"),
                stroke_width_mm=1.0),
    ))
    face = draw(layout, card(), Resources())
    assert isinstance(face.ops[0], Rect) and face.ops[0].fill == "#ffffff"  # the card's background, to the bleed
    assert [type(op) for op in face.ops[1:]] == [Rect, Ellipse, Line]
    image = pixels(face)
    assert at(image, 20, 15) == (0xbc, 0x4b, 0x51)
    assert at(image, 20, 35) == (0, 0, 255)
    assert at(image, 10.5, 30.5) == (255, 255, 255)  # outside the ellipse, inside its box
    assert at(image, 30, 50)[1] > 200 and at(image, 30, 50)[0] < 60
    assert at(image, 40, 15) == (255, 255, 255)


def test_equal_shapes_of_many_cards_are_kept_once(monkeypatch):
    from printkit.layout import design

    monkeypatch.setattr(design, "_SHAPES", Memo("shapes", 4096))  # none let go between two cards of this test
    layout = Layout("t", (
        element("rect", x=Length(2), y=Length(2), width=Length(56), height=Length(10), fill=Template.parse("{color}")),
        element("text", text=Template.parse("{title}")),
    ))
    faces = [draw(layout, card(color="#123456", title=f"Card {n}"), Resources()) for n in range(3)]
    other = draw(layout, card(color="#654321", title="Card 0"), Resources())
    assert faces[0].ops[1] is faces[1].ops[1] is faces[2].ops[1]  # one band for every card of its colour
    assert faces[0].ops[0] is faces[2].ops[0]  # and one background
    assert other.ops[1].fill == "#654321" and faces[0].ops[1].fill == "#123456"
    assert faces[0].ops[2] != faces[1].ops[2]  # each card's own text


def test_a_shape_at_minus_zero_is_not_taken_for_one_at_zero(monkeypatch):
    from printkit.layout import design
    from printkit.layout.design import _shared

    monkeypatch.setattr(design, "_SHAPES", Memo("shapes", 4096))
    plus, minus = Rect(0.0, 1.0, 2.0, 3.0, fill="#102030"), Rect(-0.0, 1.0, 2.0, 3.0, fill="#102030")
    assert plus == minus  # equal as numbers, yet a PDF may print them as 0 and -0
    assert _shared(plus) is plus and _shared(minus) is minus and _shared(Rect(0.0, 1.0, 2.0, 3.0, fill="#102030")) is plus

def test_conditions_pick_the_cards_an_element_is_for():
    layout = Layout("t", (
        element("rect", label="creature", when={"type": "creature"}, fill=Template.parse("#ff0000")),
        element("rect", label="flavour", when_has=("flavor",), fill=Template.parse("#00ff00")),
        element("rect", label="plain", when_lacks=("flavor",), fill=Template.parse("#0000ff")),
    ))
    fills = lambda c: [op.fill for op in draw(layout, c, Resources()).ops[1:]]  # noqa: E731
    assert fills(card(type="creature")) == ["#ff0000", "#0000ff"]
    assert fills(card(type="spell", flavor="hm")) == ["#00ff00"]


def test_text_is_fitted_in_its_box_and_can_turn():
    text = element("text", x=Length(5), y=Length(5), width=Length(50), height=Length(8),
                   text=Template.parse("{title}"), size_mm=6.0, align="middle", valign="middle")
    face = draw(Layout("t", (text,)), card(title="Ember Drake"), Resources())
    ops = [op for op in face.ops if isinstance(op, Text)]
    assert ops and all(5.0 <= op.y_mm <= 13.0 for op in ops) and ops[0].size_mm <= 6.0
    turned = element("text", x=Length(5), y=Length(10), width=Length(8), height=Length(60),
                     text=Template.parse("SIDEWAYS"), size_mm=6.0, rotate=90)
    image = pixels(draw(Layout("t", (turned,)), card(), Resources()))
    mask = image.convert("L").point(lambda v: 255 if v < 128 else 0)
    x0, y0, x1, y1 = mask.getbbox()
    assert (y1 - y0) > 3 * (x1 - x0)  # the word runs down the card, not across
    assert 5 * PX - 2 <= x0 - SIZE.bleed_mm * PX and x1 - SIZE.bleed_mm * PX <= 13 * PX + 2


def test_icons_and_pictures():
    layout = Layout("t", (element("icon", x=Length(10), y=Length(10), width=Length(20), height=Length(10),
                                  icon=Template.parse("{suit}"), color=Template.parse("#00aa00")),))
    face = draw(layout, card(suit="hearts"), Resources(icons=BUILTIN_ICONS))
    image = pixels(face)
    assert at(image, 20, 15) == (0, 0xaa, 0)  # the heart, centred, in the colour asked for
    assert at(image, 11, 15) == (255, 255, 255)  # a square icon in a wide box keeps its shape
    with pytest.raises(LayoutError, match="unknown icon 'heart' \\(did you mean 'hearts'\\?\\)"):
        draw(layout, card(suit="heart"), Resources(icons=BUILTIN_ICONS))


def test_an_error_names_the_layout_and_element():
    layout = Layout("creature", (element("rect", label="'badge'", fill=Template.parse("{colour}")),))
    with pytest.raises(LayoutError, match="layout 'creature', element 'badge': the card has no attribute 'colour'"):
        draw(layout, card(), Resources())


# --- playing-card pieces: mix, both_ends, rotate, caps -----------------------------------------


def test_mix_moves_a_colour_towards_another():
    c = card(element="accent")
    assert color_of(Template.parse("mix(#000000, #ffffff, 0.5)"), {}, c) == "#808080"
    assert color_of(Template.parse("mix({element}, background, 0)"), {"element": "accent"}, c) == "#bc4b51"
    with pytest.raises(LayoutError, match="amount '2' of a mix is not a number from 0 to 1"):
        color_of(Template.parse("mix(accent, ink, 2)"), {}, c)
    with pytest.raises(LayoutError, match="'acent' is not a colour"):
        color_of(Template.parse("mix(acent, ink, 0.5)"), {}, c)


def test_both_ends_draws_a_corner_again_turned_about_the_card_centre():
    corner = element("rect", x=Length(2), y=Length(3), width=Length(6), height=Length(4), fill=Template.parse("ink"),
                     both_ends=True)
    image = pixels(draw(Layout("l", (corner,)), card(), Resources()))
    assert at(image, 5, 5) == (29, 29, 31)  # the corner as written
    assert at(image, 60 - 5, 80 - 5) == (29, 29, 31)  # and turned into the opposite corner
    assert at(image, 60 - 5, 5) == (255, 255, 255)


def test_rotate_turns_an_icon_about_its_box():
    upright = element("icon", icon=Template.parse("triangle"), x=Length(10), y=Length(10), width=Length(20),
                      height=Length(20), color=Template.parse("ink"))
    turned = replace(upright, rotate=180)
    up = pixels(draw(Layout("l", (upright,)), card(), Resources(icons=BUILTIN_ICONS)))
    down = pixels(draw(Layout("l", (turned,)), card(), Resources(icons=BUILTIN_ICONS)))
    # The triangle points up: its tip row is narrow at the top; turned, at the bottom.
    assert at(up, 20, 13) == (29, 29, 31) and at(up, 12, 13) == (255, 255, 255)
    assert at(down, 20, 27) == (29, 29, 31) and at(down, 12, 27) == (255, 255, 255)
    assert at(down, 12, 13) == (29, 29, 31)


def test_valign_caps_puts_the_capitals_at_the_top_of_the_box():
    from printkit.layout.text import font_metrics

    text = element("text", text=Template.parse("H"), x=Length(5), y=Length(10), width=Length(40), height=Length(12),
                   size_mm=10.0, fit="none", valign="caps")
    (op,) = [o for o in draw(Layout("l", (text,)), card(), Resources()).ops if isinstance(o, Text)]
    assert op.y_mm == pytest.approx(10 + 10 * font_metrics(op.font).cap_height)


def test_a_lattice_fills_its_box_with_diamonds_and_back_names_the_back_colour():
    from printkit.layout.ops import Polygon

    c = Card("g-001", "g", {}, Art(colors={}, back_color="#102030", back_label="DECK"), SIZE)
    pattern = element("lattice", fill=Template.parse("mix(back, #ffffff, 0.5)"), spacing_mm=10.0, frame="bleed")
    label = element("text", text=Template.parse("{_back_label}"), x=Length(5), y=Length(30), width=Length(50),
                    height=Length(20), size_mm=8.0)
    face = draw(Layout("l", (pattern, label)), c, Resources(), side="back")
    diamonds = [op for op in face.ops if isinstance(op, Polygon)]
    assert len(diamonds) > 40 and {op.fill for op in diamonds} == {"#889098"}
    assert [op.text for op in face.ops if isinstance(op, Text)] == ["DECK"]
    image = pixels(face)
    assert at(image, 30, 40 - 2.75 + 0.3) == (136, 144, 152)  # a diamond on the card's centre
    assert at(image, 30 + 2.5, 40 + 2.5) == (16, 32, 48)  # between diamonds: the back colour


def test_background_image_is_a_value_as_well_as_a_condition(tmp_path):
    picture = tmp_path / "forest.png"
    PILImage.new("RGB", (8, 8), "green").save(picture)
    name = element("text", text=Template.parse("[{_background_image}]"), x=Length(5), y=Length(30),
                   width=Length(50), height=Length(20), size_mm=6.0)
    with_picture = Card("g-001", "g", {}, Art(colors={}, background_image=picture), SIZE)
    without = Card("g-002", "g", {}, Art(colors={}), SIZE)
    texts = [[op.text for op in draw(Layout("l", (name,)), c, Resources()).ops if isinstance(op, Text)]
             for c in (with_picture, without)]
    assert texts == [["[forest.png]"], ["[]"]]  # its name, never the folder it lies in


def test_back_image_is_a_value_as_well_as_a_condition(tmp_path):
    picture = tmp_path / "bark.png"
    PILImage.new("RGB", (8, 8), "brown").save(picture)
    name = element("text", text=Template.parse("[{_back_image}]"), x=Length(5), y=Length(30),
                   width=Length(50), height=Length(20), size_mm=6.0)
    with_picture = Card("g-001", "g", {}, Art(colors={}, back_image=picture), SIZE)
    without = Card("g-002", "g", {}, Art(colors={}), SIZE)
    texts = [[op.text for op in draw(Layout("l", (name,)), c, Resources(), side="back").ops if isinstance(op, Text)]
             for c in (with_picture, without)]
    assert texts == [["[bark.png]"], ["[]"]]


def test_every_value_of_printkits_own_is_one_a_text_may_print():
    # The compiler accepts each of OWN_VALUES in a placeholder: each must be there to print.
    card = Card("g-001", "g", {}, Art(colors={}), SIZE)
    assert set(OWN_VALUES) - set(own_values(card)) == {"_attributes"}  # added where a text reads it
