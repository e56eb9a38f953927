"""Named icons: inside their box, centred on it, in their own colours or the one asked for."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

from printkit.layout import icons
from printkit.layout.color import rgb
from printkit.layout.geometry import Size
from printkit.games import icons as game_icons
from printkit.layout.icons import GENERIC_ICONS, ImageIcon, takes_text_color
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Image, Polygon, Rect
from printkit.render.pdf import render_pages

BUILTIN_ICONS = game_icons()  # every game's glyphs and the generic shapes

DPI = 300
MM = DPI / 25.4


def rasterise(ops, size=Size(60, 60)) -> PILImage.Image:
    pdf = render_pages([Page(size, (Placement(Face(tuple(ops)), 0, 0),))])
    return pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("RGB")


def ink_box(image: PILImage.Image) -> tuple[float, float, float, float]:
    """The bounds of everything not white, in mm."""
    mask = image.convert("L").point(lambda v: 255 if v < 245 else 0)
    x0, y0, x1, y1 = mask.getbbox()
    return x0 / MM, y0 / MM, x1 / MM, y1 / MM


def test_the_builtin_names():
    assert set(BUILTIN_ICONS) == {
        "plus", "minus", "times", "power", "ruby", "gold", "sapphire", "coal", "stack",
        "scene_red_rye_field", "scene_eldorado", "scene_pale_blue_dot", "scene_coal_mine",
        "hearts", "diamonds", "clubs", "spades", "star", "circle", "square", "triangle",
    }
    assert set(GENERIC_ICONS) == {"star", "circle", "square", "triangle"}  # no game's glyph
    with pytest.raises(TypeError):
        BUILTIN_ICONS["fire"] = BUILTIN_ICONS["star"]  # read-only


@pytest.mark.parametrize("name", sorted(BUILTIN_ICONS))
def test_icons_stay_in_their_box_and_are_centred(name):
    box_x, box_y, side = 20.0, 15.0, 12.0
    image = rasterise(BUILTIN_ICONS[name].ops(box_x, box_y, side, None))
    x0, y0, x1, y1 = ink_box(image)
    slack = 0.15  # antialiasing
    assert box_x - slack <= x0 and x1 <= box_x + side + slack
    assert box_y - slack <= y0 and y1 <= box_y + side + slack
    assert (x0 + x1) / 2 == pytest.approx(box_x + side / 2, abs=0.3)
    assert (y0 + y1) / 2 == pytest.approx(box_y + side / 2, abs=0.3)
    # The larger side of the icon fills most of the box: icons of one size look alike in size.
    assert max(x1 - x0, y1 - y0) >= 0.85 * side


@pytest.mark.parametrize("name, color", [
    ("hearts", "#c8102e"), ("diamonds", "#c8102e"), ("spades", "#1d1d1f"), ("clubs", "#1d1d1f"),
    ("plus", "#0072b2"), ("minus", "#d55e00"), ("times", "#009e73"), ("power", "#cc79a7"),
    ("ruby", "#c8102e"), ("gold", "#e0a800"), ("sapphire", "#0057b8"), ("coal", "#2b2b2b"),
    ("star", "#000000"),
])
def test_own_colours(name, color):
    ops = BUILTIN_ICONS[name].ops(0, 0, 10, None)
    assert ops[0].fill == color


def test_a_colour_recolours_the_whole_icon():
    for name in ("hearts", "plus", "star"):
        assert {op.fill for op in BUILTIN_ICONS[name].ops(0, 0, 10, "#123456")} == {"#123456"}
    # A mineral in another colour keeps its facets, as tints and shades of that colour.
    ruby = BUILTIN_ICONS["ruby"].ops(0, 0, 12, "#00aa00")
    assert ruby[0].fill == "#00aa00" and len(ruby) > 2
    image = rasterise(ruby)
    r, g, b = image.getpixel((int(6 * MM), int(8 * MM)))
    assert g > r and g > b


def test_minerals_match_stacks_drawing():
    from printkit.games.stack.icons import mineral_icon

    ops = BUILTIN_ICONS["sapphire"].ops(0, 0, 10, None)
    # The same drawing code: the same number of facets and the silhouette first.
    assert len(ops) == len(mineral_icon("sapphire", 5, 5, 10, "#0057b8"))
    assert isinstance(ops[0], Polygon)


def test_rendered_colours_of_suits():
    image = rasterise(BUILTIN_ICONS["hearts"].ops(10, 10, 10, None) + BUILTIN_ICONS["spades"].ops(30, 10, 10, None))
    red = image.getpixel((int(15 * MM), int(14 * MM)))
    black = image.getpixel((int(35 * MM), int(14 * MM)))
    assert red[0] > 150 and red[1] < 60
    assert max(black) < 60


def test_only_plain_shapes_take_the_text_colour():
    assert takes_text_color(BUILTIN_ICONS["star"]) and takes_text_color(BUILTIN_ICONS["circle"])
    assert not any(takes_text_color(BUILTIN_ICONS[n]) for n in ("ruby", "hearts", "plus"))


def test_image_icon_contains_the_picture_in_its_box(tmp_path):
    path = tmp_path / "wide.png"
    PILImage.new("RGB", (40, 20), (0, 0, 255)).save(path)
    icon = ImageIcon(path)
    (op,) = icon.ops(5, 6, 10, "#ff0000")
    assert op == Image(5, 6, 10, 10, path, fit="contain")
    image = rasterise((Rect(0, 0, 60, 60, fill="#ffffff"),) + icon.ops(5, 6, 10, None))
    x0, y0, x1, y1 = ink_box(image)
    assert (x0, x1) == pytest.approx((5, 15), abs=0.15)
    assert (y0, y1) == pytest.approx((8.5, 13.5), abs=0.15)  # 2:1, centred


def test_sample_sheet(tmp_path):
    """All icons at two sizes and in one colour; saved for a look (tmp_path/icons.png)."""
    ops = []
    for i, name in enumerate(sorted(BUILTIN_ICONS)):
        x = 2 + (i % 8) * 7.4
        ops.extend(BUILTIN_ICONS[name].ops(x, 2 + (i // 8) * 8, 6, None))
        ops.extend(BUILTIN_ICONS[name].ops(x, 20 + (i // 8) * 8, 6, "#444444"))
        ops.extend(BUILTIN_ICONS[name].ops(x + 1.5, 38 + (i // 8) * 5, 3, None))
    image = rasterise(ops)
    image.save(tmp_path / "icons.png")
    assert ink_box(image)[0] >= 1.8
