"""Pattern fills in SVG art print: each case of ``svg_patterns/`` drawn by printkit as resvg drew
it (its PNG beside it, made by resvg at the size printkit prints it, with the tolerance of the SVG
corpus), with no warning; what stays undrawn (past the tile limits) is a located warning."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image as PILImage
from svg_pictures import MAX_MEAN, MAX_SHARE_OFF, difference, printkit_picture

from printkit.images import svg_art
from printkit.render.svg_normal import MAX_PATTERN_ELEMENTS, MAX_PATTERN_TILES

CASES = Path(__file__).parent / "svg_patterns"
DRAWN = sorted(CASES.glob("*.svg"))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "art.svg"
    path.write_text(text, encoding="utf-8")
    return path


def near(seen, colour, within=8) -> bool:
    return all(abs(a - b) <= within for a, b in zip(seen, colour))


def test_there_are_cases():
    assert {p.stem for p in DRAWN} >= {"stripes-user-space", "dots-bounding-box", "view-box", "rotated-hatch",
                                       "href-inherits"}


@pytest.mark.parametrize("path", DRAWN, ids=lambda p: p.stem)
def test_a_pattern_fill_prints_as_resvg_draws_it_without_a_warning(path):
    assert svg_art(path.read_bytes()).warnings == ()
    ours = printkit_picture(path)
    theirs = PILImage.open(path.with_suffix(".png")).convert("RGB")
    assert ours.size == theirs.size
    mean, off = difference(ours, theirs)
    assert mean <= MAX_MEAN and off <= MAX_SHARE_OFF, f"{path.name}: mean {mean:.2f}, {off:.2%} of pixels off"


@pytest.mark.parametrize("path", DRAWN, ids=lambda p: p.stem)
def test_the_tolerance_tells_a_pattern_left_out_apart(tmp_path, path):
    bare = write(tmp_path, re.sub(r"url\(#\w+\)", "none", path.read_text(encoding="utf-8")))
    mean, off = difference(printkit_picture(bare), PILImage.open(path.with_suffix(".png")).convert("RGB"))
    assert mean > MAX_MEAN or off > MAX_SHARE_OFF


def test_user_space_stripes_lie_where_the_tiles_put_them():
    picture = printkit_picture(CASES / "stripes-user-space.svg")
    scale = picture.width / 100
    row = round(50 * scale)
    for left in (20, 40, 60):  # a red stripe from each multiple of 20, 10 wide; white after it
        assert near(picture.getpixel((round((left + 5) * scale), row)), (0xcc, 0x22, 0x00)), left
        assert near(picture.getpixel((round((left + 15) * scale), row)), (255, 255, 255)), left
    assert near(picture.getpixel((round(50 * scale), round(5 * scale))), (255, 255, 255))  # outside the rect


SQUARES = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <defs>
    <pattern id="fine" width="{size}" height="{size}" patternUnits="userSpaceOnUse">{content}</pattern>
  </defs>
{shapes}
</svg>"""


def test_the_tiles_of_a_picture_count_together_and_those_past_the_limit_are_a_located_warning(tmp_path):
    side = 100 / int((MAX_PATTERN_TILES // 2) ** 0.5)  # each square takes half the tiles
    shapes = "\n".join('  <rect width="100" height="100" fill="url(#fine)"/>' for _ in range(3))
    art = svg_art(write(tmp_path, SQUARES.format(size=side, content='<rect width="1" height="1"/>',
                                                 shapes=shapes)).read_bytes())
    assert art.warnings == (f"<rect> at line 7: its fill url(#fine) is not drawn (its tiles would pass "
                            f"{MAX_PATTERN_TILES:,} tiles or {MAX_PATTERN_ELEMENTS:,} elements in this picture, in "
                            "all; use larger tiles); fill it with a colour, or expand the pattern into paths",)


@pytest.mark.parametrize("size", ["1e-310", "1e-30"])
def test_a_tile_too_small_to_count_is_a_located_warning(tmp_path, size):
    # 100 user units over a tile of 1e-310 is more tiles than a float can hold: not a traceback.
    art = svg_art(write(tmp_path, SQUARES.format(size=size, content='<rect width="1" height="1"/>',
                                                 shapes='  <rect width="100" height="100" fill="url(#fine)"/>'))
                  .read_bytes())
    assert len(art.warnings) == 1 and art.warnings[0].startswith("<rect> at line 5: its fill url(#fine) is not drawn "
                                                                 "(its tiles would pass"), art.warnings


def test_tiles_copying_too_many_elements_are_a_located_warning(tmp_path):
    each = MAX_PATTERN_ELEMENTS // 100 + 1  # 100 tiles, well within MAX_PATTERN_TILES
    content = '<rect width="0.5" height="0.5"/>' * each
    art = svg_art(write(tmp_path, SQUARES.format(size=10, content=content,
                                                 shapes='  <rect width="100" height="100" fill="url(#fine)"/>'))
                  .read_bytes())
    assert len(art.warnings) == 1 and art.warnings[0].startswith("<rect> at line 5: its fill url(#fine) is not drawn "
                                                                 "(its tiles would pass")


def test_a_cycle_of_pattern_hrefs_ends(tmp_path):
    path = write(tmp_path, """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
  <defs>
    <pattern id="a" href="#b" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="5" height="5" fill="#00aa00"/></pattern>
    <pattern id="b" href="#a"/>
  </defs>
  <rect width="10" height="10" fill="url(#b)"/>
</svg>""")
    assert svg_art(path.read_bytes()).warnings == ()
    picture = printkit_picture(path)
    assert near(picture.getpixel((picture.width // 3, picture.height // 3)), (0, 0xaa, 0))


def test_a_patterns_fallback_colour_is_not_drawn_when_the_pattern_is(tmp_path):
    text = (CASES / "stripes-user-space.svg").read_text(encoding="utf-8").replace('"url(#stripes)"',
                                                                               '"url(#stripes) #0000cc"')
    assert svg_art(write(tmp_path, text).read_bytes()).warnings == ()
    picture = printkit_picture(tmp_path / "art.svg")
    scale = picture.width / 100
    assert near(picture.getpixel((round(35 * scale), round(50 * scale))), (255, 255, 255))


def test_tiles_inherit_from_the_pattern_not_from_the_shape(tmp_path):
    path = write(tmp_path, """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
  <defs>
    <pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><rect x="2" y="2" width="6" height="6"/></pattern>
  </defs>
  <g stroke="#ff0000" stroke-width="3" fill-opacity="0.2"><rect width="10" height="10" fill="url(#p)" stroke="none"/></g>
</svg>""")
    picture = printkit_picture(path)
    # The tile's square is black (the initial fill) and unstroked; the shape's fill-opacity
    # makes the whole pattern translucent: a grey square on white.
    inside = picture.getpixel((picture.width // 2, picture.height // 2))
    assert near(inside, (204, 204, 204), within=10), inside
    assert near(picture.getpixel((picture.width * 15 // 100, picture.height // 2)), (255, 255, 255))


def test_a_pattern_stroke_is_still_a_warning(tmp_path):
    text = (CASES / "stripes-user-space.svg").read_text(encoding="utf-8").replace('stroke="#000000"',
                                                                               'stroke="url(#stripes)"')
    warnings = svg_art(write(tmp_path, text).read_bytes()).warnings
    assert warnings == ("<rect> at line 8: a stroke painted with a gradient or pattern is not drawn; give the "
                        "stroke a plain colour, or convert it to a filled path (Inkscape: Path > Stroke to Path)",)


def test_a_pattern_fill_on_a_shape_clipped_in_bounding_box_units_is_a_located_warning(tmp_path):
    path = write(tmp_path, """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
  <defs>
    <pattern id="p" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="2" height="2"/></pattern>
    <clipPath id="half" clipPathUnits="objectBoundingBox"><rect width="0.5" height="1"/></clipPath>
  </defs>
  <rect width="10" height="10" fill="url(#p) #00aa00" clip-path="url(#half)"/>
</svg>""")
    assert svg_art(path.read_bytes()).warnings == (
        "<rect> at line 6: its fill url(#p) is not drawn (with a clip path in objectBoundingBox units); its "
        "fallback #00aa00 is drawn instead",)
    picture = printkit_picture(path)
    assert near(picture.getpixel((picture.width // 4, picture.height // 2)), (0, 0xaa, 0))


@pytest.mark.parametrize("fill", ["url(#p)", "url(#p) #0000ff"])
def test_a_groups_pattern_fill_fills_its_shapes_with_or_without_a_fallback(tmp_path, fill):
    path = write(tmp_path, f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <defs><pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10"><rect width="5" height="5" fill="#ff0000"/></pattern></defs>
  <g fill="{fill}"><rect width="100" height="100"/></g>
</svg>""")
    assert svg_art(path.read_bytes()).warnings == ()
    picture = printkit_picture(path)
    scale = picture.width / 100
    assert near(picture.getpixel((round(2.5 * scale), round(2.5 * scale))), (255, 0, 0))
    assert near(picture.getpixel((round(7.5 * scale), round(7.5 * scale))), (255, 255, 255))  # not the fallback
