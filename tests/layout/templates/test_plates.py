"""The box around set text, and the plate of background under it over a picture."""

from __future__ import annotations

import pytest

from printkit import fonts
from printkit.deck import Art, Card, CardSize
from printkit.layout.ops import Rect, Text
from printkit.layout.plates import text_box, text_plate

from ._ops import op_bounds

POKER = CardSize(63.5, 88.9, bleed_mm=3.175)


@pytest.mark.parametrize("anchor", ["start", "middle", "end"])
def test_text_box_holds_each_line_whatever_its_anchor(anchor):
    lines = [Text(30.0, 20.0, "Golden harvest", fonts.KOREAN_BOLD, 4.0, anchor=anchor),
             Text(30.0, 26.0, "value: 8", fonts.KOREAN_BOLD, 3.0, anchor=anchor)]
    box = text_box(lines + [Rect(0, 0, 60, 80, fill="#000000")])  # other ops are not text
    bounds = [op_bounds(op) for op in lines]
    assert (box.x_mm, box.y_mm, box.right_mm, box.bottom_mm) == pytest.approx(
        (min(b[0] for b in bounds), min(b[1] for b in bounds), max(b[2] for b in bounds), max(b[3] for b in bounds)))
    assert text_box([Rect(0, 0, 1, 1)]) is None


def test_text_plate_only_over_a_background_image(tmp_path):
    line = [Text(10.0, 20.0, "fruit", fonts.KOREAN_BOLD, 4.0)]
    plain = Card("c", "g", {}, Art(colors={"background": "#ffe680"}), POKER)
    assert text_plate(plain, line) == ()
    pictured = Card("c", "g", {}, Art(colors={"background": "#ffe680"}, background_image=tmp_path / "p.png"), POKER)
    (plate,) = text_plate(pictured, line, pad_mm=1.0)
    box = text_box(line)
    assert plate.fill == "#ffe680"
    assert (plate.x_mm, plate.y_mm, plate.w_mm, plate.h_mm) == pytest.approx(
        (box.x_mm - 1, box.y_mm - 1, box.w_mm + 2, box.h_mm + 2))
