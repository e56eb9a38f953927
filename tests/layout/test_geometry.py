"""Named sizes and boxes, in millimetres."""

from __future__ import annotations

import pytest

from printkit.deck import CardSize
from printkit.layout.geometry import (
    CARD_SIZES_MM,
    Box,
    Size,
    bleed_box,
    fit_image,
    named_card_size,
    paper_size,
    safe_box,
    trim_box,
)


@pytest.mark.parametrize(
    "name, width, height",
    [("poker", 63.5, 88.9), ("bridge", 57.15, 88.9), ("mini", 44.45, 63.5), ("tarot", 70, 120), ("square", 70, 70)],
)
def test_named_card_sizes(name, width, height):
    assert named_card_size(name) == Size(width, height)
    assert named_card_size(name.upper()) == Size(width, height)


def test_every_named_size_is_portrait_or_square():
    assert all(s.width_mm <= s.height_mm for s in CARD_SIZES_MM.values())


def test_unknown_card_size_names_the_choices():
    with pytest.raises(ValueError, match=r"'jumbo'.*poker, bridge, mini, tarot, square"):
        named_card_size("jumbo")


def test_paper_sizes():
    assert paper_size("a4") == Size(210, 297)
    assert paper_size("a5") == Size(148, 210)
    assert paper_size("Letter") == Size(215.9, 279.4)
    assert paper_size("half-letter") == Size(139.7, 215.9)
    with pytest.raises(ValueError, match="'b5'"):
        paper_size("b5")


def test_fit_image_modes():
    box = Box(0, 0, 20, 10)
    assert fit_image(100, 100, box, "cover") == Box(0, -5, 20, 20)
    assert fit_image(100, 100, box, "contain") == Box(5, 0, 10, 10)
    assert fit_image(100, 100, box, "stretch") == box
    assert fit_image(0, 100, box, "cover") == box  # an empty image has no shape to keep


def test_trim_bleed_and_safe_boxes_in_the_card_frame():
    size = CardSize(63.5, 88.9, bleed_mm=3.175, safe_mm=3.0)
    assert trim_box(size) == Box(0, 0, 63.5, 88.9)
    bleed = bleed_box(size)
    assert (bleed.x_mm, bleed.y_mm) == (-3.175, -3.175)
    assert bleed.w_mm == pytest.approx(69.85) and bleed.h_mm == pytest.approx(95.25)
    assert safe_box(size) == Box(3.0, 3.0, 57.5, pytest.approx(82.9))


def test_box_helpers():
    box = Box(10, 20, 30, 40)
    assert (box.right_mm, box.bottom_mm, box.cx_mm, box.cy_mm) == (40, 60, 25, 40)
    assert box.grow(1) == Box(9, 19, 32, 42)
    assert box.grow(1, 2, 3, 4) == Box(9, 18, 34, 46)
    assert box.shift(5, -5) == Box(15, 15, 30, 40)
    assert box.intersects(Box(39, 59, 5, 5))
    assert not box.intersects(Box(40, 20, 5, 5))  # touching edges only
    assert box.intersection(Box(35, 0, 20, 30)) == Box(35, 20, 5, 10)
    assert box.intersection(Box(0, 0, 100, 100)) == box
    assert box.contains(Box(10, 20, 30, 40)) and not box.contains(Box(9, 20, 1, 1))
    assert Size(3, 4).rotated() == Size(4, 3)
