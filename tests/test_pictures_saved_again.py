"""A picture saved again while the spec stays as it was (``printkit watch`` reads an unchanged spec
once) is drawn as it is now, or refused at its place in the spec, never drawn stale or refused as
"changed while the build drew it"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image as PILImage

from printkit.decks import load_all_variants
from printkit.errors import SpecError
from printkit.layout import templates
from printkit.render.png import render_face

SPEC = """\
game: demo
name: Saved again
icons: {gem: gem.png}
layouts:
  face:
    elements:
      - {kind: icon, icon: gem, x: 5mm, y: 5mm, width: 20mm, height: 20mm}
      - {kind: image, image: pic.png, x: 30mm, y: 5mm, width: 20mm, height: 20mm}
groups:
  - name: a
    layout: face
    cards: [{n: 1}]
"""
DPI = 100


def colours(folder: Path) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The icon's and the picture's colour on the card, its spec read again as watch reads it."""
    (deck,) = load_all_variants(folder / "deck.yaml")
    card = deck.cards[0]
    image = render_face(templates.front(card, deck), card.size, DPI).convert("RGB")
    at = lambda mm: round((mm + card.size.bleed_mm) / 25.4 * DPI)  # noqa: E731
    return image.getpixel((at(15), at(15))), image.getpixel((at(40), at(15)))


def save(path: Path, rgb: tuple[int, int, int]) -> None:
    PILImage.new("RGB", (240, 240), rgb).save(path)


def test_a_picture_saved_again_is_drawn_as_it_is_now(tmp_path):
    (tmp_path / "deck.yaml").write_text(SPEC, encoding="utf-8")
    save(tmp_path / "gem.png", (255, 0, 0))
    save(tmp_path / "pic.png", (0, 255, 0))
    assert colours(tmp_path) == ((255, 0, 0), (0, 255, 0))
    save(tmp_path / "gem.png", (0, 0, 255))
    save(tmp_path / "pic.png", (255, 255, 0))
    assert colours(tmp_path) == ((0, 0, 255), (255, 255, 0))


@pytest.mark.parametrize("name, line", [("gem.png", 3), ("pic.png", 8)])
def test_a_picture_broken_since_is_refused_at_its_line(tmp_path, name, line):
    (tmp_path / "deck.yaml").write_text(SPEC, encoding="utf-8")
    save(tmp_path / "gem.png", (255, 0, 0))
    save(tmp_path / "pic.png", (0, 255, 0))
    colours(tmp_path)
    (tmp_path / name).write_bytes(b"not a picture any more")
    with pytest.raises(SpecError) as caught:
        colours(tmp_path)
    assert caught.value.line == line and f"image {name!r} is not a PNG or JPEG image" in str(caught.value)
    save(tmp_path / name, (0, 0, 255))  # mended: drawn again
    assert (0, 0, 255) in colours(tmp_path)
