"""SVG art rewritten before svglib draws it: what a hostile file can make of the rewrites (a
stylesheet, viewports, custom properties, selectors), and colours read as browsers read them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import main
from printkit.deck import CardSize
from printkit.images import ImageError, svg_art
from printkit.layout.ops import Face, Image
from printkit.render.png import render_face

SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
RED, WHITE = (255, 0, 0), (255, 255, 255)


def picture(tmp_path: Path, text: str):
    """``text`` (an SVG with a 10 x 10 viewBox) drawn over a 20 mm card, as printkit prints it."""
    path = tmp_path / "art.svg"
    path.write_text(text, encoding="utf-8")
    size = CardSize(20.0, 20.0, bleed_mm=0)
    return render_face(Face((Image(0, 0, 20, 20, path, fit="stretch"),)), size).convert("RGB")


def near(seen, colour, within=6) -> bool:
    return all(abs(a - b) <= within for a, b in zip(seen, colour))


def centre(image):
    return image.getpixel((image.width // 2, image.height // 2))


def check_and_build(tmp_path: Path, text: str):
    """``check`` and ``build`` of a deck whose one card shows ``text``: their results."""
    (tmp_path / "art.svg").write_text(text, encoding="utf-8")
    (tmp_path / "deck.yaml").write_text('game: g\nname: G\nart:\n  background_image: art.svg\ngroups:\n'
                                        '  - name: n\n    cards: [{title: Stone}]\n', encoding="utf-8")
    runner = CliRunner()
    return [runner.invoke(main, ["check", str(tmp_path / "deck.yaml"), "--no-play"]),
            runner.invoke(main, ["build", str(tmp_path / "deck.yaml"), "--no-rulebooks",
                                 "--out", str(tmp_path / "out")])]


def both_end(tmp_path: Path, text: str, code: int, *said: str) -> None:
    """``check`` and ``build`` of ``text`` (:func:`check_and_build`) both end with ``code``, without a
    traceback, each saying every one of ``said``."""
    for result in check_and_build(tmp_path, text):
        assert result.exit_code == code and "Traceback" not in result.output, result.output
        assert all(words in result.output for words in said), result.output


# --- a stylesheet writes only presentation properties ----------------------------------------------

def test_a_stylesheet_cannot_resize_the_picture_after_its_checks(tmp_path):
    text = (f'<svg {SVG} viewBox="0 0 10 10"><style>svg {{ width: 0; height: 0 }}</style>'
            '<rect width="10" height="10" fill="#ff0000"/></svg>')
    art = svg_art(text.encode())
    assert (art.width, art.height) == (10 * 0.75, 10 * 0.75)  # the viewBox, in points
    assert near(centre(picture(tmp_path, text)), RED)
    both_end(tmp_path, text, 0)


def test_a_stylesheet_href_is_no_link(tmp_path):
    # Browsers read no href from CSS: the <use> shows nothing (and so cannot pass the <use> limit).
    text = (f'<svg {SVG} viewBox="0 0 10 10"><style>.l {{ href: #r; x: 0; transform: scale(9) }}</style>'
            '<defs><rect id="r" width="10" height="10" fill="#ff0000"/></defs>'
            '<rect width="10" height="10" fill="#ffffff"/><use class="l"/></svg>')
    use = [e for e in svg_art(text.encode())._root.iter() if e.get("class") == "l"][0]
    assert set(use.attrib) == {"class"}
    assert near(centre(picture(tmp_path, text)), WHITE)


# --- empty viewports and singular transforms show nothing ----------------------------------------

BACKGROUND = '<rect width="10" height="10" fill="#ffffff"/>'
RED_SQUARE = '<rect width="10" height="10" fill="#ff0000"/>'
NOTHING_SHOWN = {
    "nested svg of no width": f'<svg width="0" height="10" viewBox="0 0 10 10">{RED_SQUARE}</svg>',
    "nested svg of negative width, overflow visible":
        f'<svg width="-3" height="10" viewBox="0 0 10 10" overflow="visible">{RED_SQUARE}</svg>',
    "nested svg of no width and no viewBox, overflow visible":
        f'<svg width="0" height="10" overflow="visible">{RED_SQUARE}</svg>',
    "viewBox too small for any number": f'<svg width="10" height="10" viewBox="0 0 1e-320 1e-320">{RED_SQUARE}</svg>',
    "symbol in a use of no width": f'<symbol id="s" viewBox="0 0 10 10">{RED_SQUARE}</symbol>'
                                   '<use href="#s" width="0" height="10"/>',
    "scale(0)": '<rect width="10" height="10" fill="#ff0000" transform="scale(0)"/>',
    "a group squashed to a line": f'<g transform="matrix(1 2 1 2 0 0)">{RED_SQUARE}</g>',
    "scales that together reach 0":
        '<rect width="10" height="10" fill="#ff0000" transform="scale(1e-200) scale(1e-200)"/>',
    "a clip path scaled to nothing": f'<clipPath id="c" transform="scale(0)">{RED_SQUARE}</clipPath>'
                                     '<rect width="10" height="10" fill="#ff0000" clip-path="url(#c)"/>',
}


@pytest.mark.parametrize("case", sorted(NOTHING_SHOWN))
def test_an_empty_viewport_or_singular_transform_shows_nothing(tmp_path, case):
    text = f'<svg {SVG} viewBox="0 0 10 10">{BACKGROUND}{NOTHING_SHOWN[case]}</svg>'
    assert near(centre(picture(tmp_path, text)), WHITE)
    both_end(tmp_path, text, 0)


def test_percentages_inside_a_symbol_are_of_its_own_viewbox(tmp_path):
    # SVG 2 (and Chromium): 50% inside <symbol viewBox="0 0 10 10"> is 5 user units, whatever the
    # picture's own viewBox (100 x 100 here, where 50% would cover the whole symbol).
    text = (f'<svg {SVG} viewBox="0 0 100 100"><rect width="100" height="100" fill="#ffffff"/>'
            '<defs><symbol id="s" viewBox="0 0 10 10"><rect width="50%" height="100%" fill="#ff0000"/>'
            '<rect x="75%" y="75%" width="2.5" height="2.5" fill="#0000ff"/></symbol></defs>'
            '<use href="#s" width="100" height="100"/></svg>')
    image = picture(tmp_path, text)

    def at(fx: float, fy: float):
        return image.getpixel((int(image.width * fx), int(image.height * fy)))

    assert near(at(0.25, 0.5), RED) and near(at(0.45, 0.1), RED)
    assert near(at(0.55, 0.5), WHITE) and near(at(0.7, 0.9), WHITE)
    assert near(at(0.875, 0.875), (0, 0, 255))


def test_a_transform_with_no_inverse_found_as_drawn_is_the_pictures_error():
    from reportlab.graphics.shapes import Group

    from printkit.render.canvas import check_svg_drawing

    art = svg_art(f'<svg {SVG} viewBox="0 0 10 10">{RED_SQUARE}</svg>'.encode())
    art.drawing.contents[0].transform = (0, 0, 0, 0, 0, 0)  # as svglib could compose two tiny scales
    assert isinstance(art.drawing.contents[0], Group)
    with pytest.raises(ImageError, match="^cannot be drawn: its transforms together scale a group to nothing"):
        check_svg_drawing(art)


@pytest.mark.parametrize("size", ['viewBox="0 0 1e-320 1e-320"', 'width="1e-9" height="10"'])
def test_a_picture_too_small_to_scale_is_a_located_error(tmp_path, size):
    both_end(tmp_path, f'<svg {SVG} {size}>{RED_SQUARE}</svg>', 1, "art.svg' has an unusable", "at least 1e-06")


# --- custom properties: memory grows with the file ----------------------------------------------

def test_custom_properties_are_shared_by_the_elements_that_inherit_them(tmp_path):
    import tracemalloc

    # 1,000 properties over 5,000 elements: a copy of them for each element would hold 5,000,000
    # entries (hundreds of MB); shared, the file's own few MB.
    declared = ";".join(f"--p{i}:#{i % 10}{i % 10}0000" for i in range(1000))
    text = (f'<svg {SVG} viewBox="0 0 10 10" style="{declared}"><g>' + '<rect width="1" height="1"/>' * 5000
            + '</g><rect width="10" height="10" fill="var(--p9)"/></svg>').encode()
    tracemalloc.start()
    try:
        art = svg_art(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 << 20, peak
    assert art._root[-1].get("fill") == "#990000"


def test_custom_properties_expanding_past_the_limit_are_a_located_error(tmp_path):
    from printkit.render.svg_normal import MAX_SUBSTITUTED

    value = "a" * 100_000  # used by 11 elements: more than 1,000,000 characters written
    text = (f'<svg {SVG} viewBox="0 0 10 10" style="--big:{value}">'
            + '<rect width="1" height="1" fill="var(--big)"/>' * 11
            + '</svg>')
    with pytest.raises(ImageError, match=f"^has CSS custom properties .* more than {MAX_SUBSTITUTED:,} "
                                         r"characters in all \(<rect> at line 1\)"):
        svg_art(text.encode())
    both_end(tmp_path, text, 1, "more than 1,000,000 characters")


# --- selectors: their matching is bounded ---------------------------------------------------------

def nested(style: str, depth: int = 60) -> str:
    return (f'<svg {SVG} viewBox="0 0 10 10">\n<style>\n{style}\n</style>' + "<g>" * depth
            + '<rect width="10" height="10"/>' + "</g>" * depth + "</svg>")


@pytest.mark.parametrize("selector", ["z * * * * * rect", "rect:nth-of-type(2n)", "z ~ * ~ rect"])
def test_a_selector_that_looks_at_too_many_elements_is_a_located_error(tmp_path, selector):
    from printkit.render.svg_normal import MAX_SELECTOR_STEPS

    text = (nested(f".a {{ fill: red }}\n{selector} {{ fill: blue }}") if selector.startswith("z * ") else
            f'<svg {SVG} viewBox="0 0 10 10">\n<style>\n.a {{ fill: red }}\n{selector} {{ fill: blue }}\n</style>'
            + '<rect width="1" height="1"/>' * 8000 + "</svg>")
    said = (f"has a CSS rule (<style> at line 4) whose selector '{selector}' looks at more than "
            f"{MAX_SELECTOR_STEPS:,} elements to match")
    with pytest.raises(ImageError, match="^" + said.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        svg_art(text.encode())
    both_end(tmp_path, text, 1, said)


def test_selectors_over_deep_nesting_still_match(tmp_path):
    text = nested("g g rect { fill: #ff0000 } svg > g:first-child rect { stroke: none }")
    assert near(centre(picture(tmp_path, text)), RED)


# --- colours browsers draw ------------------------------------------------------------------------

@pytest.mark.parametrize("colour, drawn", [("rgb(300, -5, 0)", RED), ("RGB(0, 0, 128)", (0, 0, 128)),
                                           ("Rgb(255 0 0 / 100%)", RED), ("rgb(100%, 0%, 0%)", RED),
                                           ("HSL(0, 100%, 50%)", RED)])
def test_colour_functions_print_as_browsers_draw_them(tmp_path, colour, drawn):
    text = f'<svg {SVG} viewBox="0 0 10 10"><rect width="10" height="10" style="fill: {colour}"/></svg>'
    assert svg_art(text.encode()).warnings == ()
    assert near(centre(picture(tmp_path, text)), drawn)


# --- paint-order stays where it applies ----------------------------------------------------------

def test_an_inherited_paint_order_does_not_travel_with_a_use_of_the_shape(tmp_path):
    # A thick black stroke over a gold fill: fill first (the <use>), the stroke's inner half covers
    # the square's edge; stroke first (in the group), the fill covers it.
    text = (f'<svg {SVG} viewBox="0 0 10 10"><rect width="10" height="10" fill="#ffffff"/>'
            '<g paint-order="stroke"><rect x="1" y="1" width="3" height="3" fill="#ffd700" stroke="#000000" '
            'stroke-width="1.6"/>\n<rect id="r" x="6" y="1" width="3" height="3" fill="#ffd700" stroke="#000000" '
            'stroke-width="1.6"/></g><use href="#r" y="5"/></svg>')
    art = svg_art(text.encode())
    assert art.warnings == ("<rect> at line 2: its paint-order 'stroke fill markers', from a parent, is not drawn "
                            "(a <use> shows the shape where it does not apply); draw the stroke as a shape of its own",)
    image = picture(tmp_path, text)
    inside_edge = lambda x_units, y_units: image.getpixel((round(x_units * image.width / 10),
                                                           round(y_units * image.height / 10)))
    assert near(inside_edge(1.5, 2.5), (255, 215, 0), 40)  # split where no <use> shows it: fill over the stroke
    assert near(inside_edge(6.5, 7.5), (0, 0, 0), 40)  # the <use>: fill first, as browsers draw it


def test_a_shapes_own_paint_order_is_drawn_where_a_use_shows_it(tmp_path):
    text = (f'<svg {SVG} viewBox="0 0 10 10"><rect width="10" height="10" fill="#ffffff"/>'
            '<rect id="r" x="1" y="1" width="3" height="3" fill="#ffd700" stroke="#000000" stroke-width="1.6" '
            'paint-order="stroke"/><use href="#r" y="5"/></svg>')
    assert svg_art(text.encode()).warnings == ()
    image = picture(tmp_path, text)
    for y in (2.5, 7.5):
        assert near(image.getpixel((round(1.5 * image.width / 10), round(y * image.height / 10))), (255, 215, 0), 40)


# --- one reading of each SVG value ------------------------------------------------------------------

def test_a_viewport_reads_a_bad_preserve_aspect_ratio_as_a_picture_does(tmp_path):
    from printkit.render.svg import picture_placement

    bad = "xMaxYMax bogus"  # not 'meet' or 'slice': the whole value is the default, as browsers take it
    assert picture_placement(bad) == ((0.5, 0.5), False)
    text = (f'<svg {SVG} viewBox="0 0 10 10"><rect width="10" height="10" fill="#ffffff"/>'
            f'<svg width="10" height="10" viewBox="0 0 10 5" preserveAspectRatio="{bad}">'
            '<rect width="10" height="5" fill="#ff0000"/></svg></svg>')
    image = picture(tmp_path, text)
    assert near(image.getpixel((image.width // 2, image.height * 3 // 10)), RED)  # centred: 2.5 to 7.5
    assert near(image.getpixel((image.width // 2, image.height * 9 // 10)), WHITE)


def test_uses_of_deeply_nested_groups_nesting_past_the_stack_are_a_clean_error(tmp_path):
    # Each group nests 30 deep (within the limit) and uses the next: 20 of them nest 620 deep.
    groups = "".join(f'<g id="s{i}">' + "<g>" * 30 + (f'<use href="#s{i + 1}"/>' if i < 19 else RED_SQUARE)
                     + "</g>" * 31 for i in range(20))
    text = f'<svg {SVG} viewBox="0 0 10 10"><defs>{groups}</defs><use href="#s0"/></svg>'
    both_end(tmp_path, text, 1, "art.svg' cannot be drawn: it nests groups and <use> too deeply")
