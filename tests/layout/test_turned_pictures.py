"""Layouts: a picture turned with ``rotate: 90`` or ``270`` is turned within its box, as a text is:
on the rendered card it fills exactly its own box, its top edge on the side the turn takes it to,
and its resolution is judged at the size it prints at."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image as PILImage

from printkit.decks import load_all_variants
from printkit.layout import templates
from printkit.render.png import render_face

from cli_in import check_in

DPI = 300
MM = DPI / 25.4
RED, BLUE = (255, 0, 0), (0, 0, 255)
BLEED = 3.0  # the rendered face's corner is the bleed's

SPEC = """\
game: example
name: Turned pictures
card: {size: poker, bleed: 3mm, safe: 3mm}
art: {colors: {background: "#ffffff", ink: "#000000"}}
layouts:
  art:
    elements:
      - {kind: image, image: wide.png, x: 10mm, y: 12mm, width: 20mm, height: 40mm, rotate: ROTATE, fit: FIT}
groups:
  - name: cards
    layout: art
    cards: [{title: one}]
"""


def wide_picture(folder: Path, size: tuple[int, int] = (800, 400)) -> None:
    """A landscape picture, blue with a red stripe along its top edge (an eighth of its height)."""
    image = PILImage.new("RGB", size, BLUE)
    image.paste(RED, (0, 0, size[0], size[1] // 8))
    image.save(folder / "wide.png")


def face(folder: Path, spec: str) -> np.ndarray:
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    [deck] = load_all_variants(folder / "deck.yaml")
    [card] = deck.cards
    return np.asarray(render_face(templates.front(card, deck), card.size, DPI).convert("RGB"), dtype=np.int16)


def extent(image: np.ndarray, colors) -> tuple[float, float, float, float] | None:
    """Left, top, right, bottom (mm, from the trim's corner) of the pixels near any of ``colors``."""
    near = np.zeros(image.shape[:2], dtype=bool)
    for color in colors:
        near |= np.abs(image - np.array(color)).sum(axis=2) < 90
    ys, xs = np.nonzero(near)
    if not len(xs):
        return None
    return xs.min() / MM - BLEED, ys.min() / MM - BLEED, (xs.max() + 1) / MM - BLEED, (ys.max() + 1) / MM - BLEED


def close(seen, wanted, within: float = 0.15) -> bool:
    return all(abs(a - b) <= within for a, b in zip(seen, wanted))


@pytest.mark.parametrize("rotate, stripe_on", [(90, "left"), (270, "right")])
@pytest.mark.parametrize("fit", ["cover", "contain"])
def test_a_turned_picture_fills_exactly_its_own_box_its_top_turned_aside(tmp_path, rotate, stripe_on, fit):
    wide_picture(tmp_path)  # 2:1 landscape: turned, it is the 1:2 of its 20 x 40 mm box
    image = face(tmp_path, SPEC.replace("ROTATE", str(rotate)).replace("FIT", fit))
    box = (10.0, 12.0, 30.0, 52.0)
    assert close(extent(image, (RED, BLUE)), box), extent(image, (RED, BLUE))
    # The picture's top edge, turned counter-clockwise by 90 (to the left) or 270 (to the right):
    # a stripe an eighth of the picture's height, now 2.5 mm wide, the box's whole height.
    red = extent(image, (RED,))
    stripe = (10.0, 12.0, 12.5, 52.0) if stripe_on == "left" else (27.5, 12.0, 30.0, 52.0)
    assert close(red, stripe), red


def test_full_bleed_art_turned_sideways_covers_the_whole_card(tmp_path):
    # A landscape picture turned onto a portrait card: no white band at the top or bottom.
    wide_picture(tmp_path)
    spec = SPEC.replace("x: 10mm, y: 12mm, width: 20mm, height: 40mm, rotate: ROTATE, fit: FIT",
                        "frame: bleed, rotate: 90")
    image = face(tmp_path, spec)
    height, width = image.shape[:2]
    assert close(extent(image, (RED, BLUE)), (-BLEED, -BLEED, width / MM - BLEED, height / MM - BLEED), 0.05)
    white = (np.abs(image - np.array((255, 255, 255))).sum(axis=2) < 90).sum()
    assert white == 0


def test_a_turned_pictures_resolution_is_judged_at_the_size_it_prints(tmp_path):
    # 160 x 80 px turned into 20 x 40 mm is 80 x 160 px on 20 x 40 mm: about 102 DPI. Drawn
    # upright over that box (as before) it was 80 x 40 mm, said to be 51 DPI. Its pixels are said
    # as the file has them, turned.
    wide_picture(tmp_path, (160, 80))
    result = check_in(tmp_path, SPEC.replace("ROTATE", "90").replace("FIT", "cover"))
    assert result.exit_code == 0, result.output
    assert ("picture 'wide.png': 160 x 80 px, turned a quarter turn, drawn at 20.0 x 40.0 mm is 102 DPI"
            in result.output), result.output
