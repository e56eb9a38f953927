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
            runner.invoke(main, ["build", str(tmp_path / "deck.yaml"), "--no-rulebooks", "--out", str(tmp_path / "out")])]


# --- a stylesheet writes only presentation properties ----------------------------------------------

def test_a_stylesheet_cannot_resize_the_picture_after_its_checks(tmp_path):
    text = (f'<svg {SVG} viewBox="0 0 10 10"><style>svg {{ width: 0; height: 0 }}</style>'
            '<rect width="10" height="10" fill="#ff0000"/></svg>')
    art = svg_art(text.encode())
    assert (art.width, art.height) == (10 * 0.75, 10 * 0.75)  # the viewBox, in points
    assert near(centre(picture(tmp_path, text)), RED)
    for result in check_and_build(tmp_path, text):
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output


def test_a_stylesheet_href_is_no_link(tmp_path):
    # Browsers read no href from CSS: the <use> shows nothing (and so cannot pass the <use> limit).
    text = (f'<svg {SVG} viewBox="0 0 10 10"><style>.l {{ href: #r; x: 0; transform: scale(9) }}</style>'
            '<defs><rect id="r" width="10" height="10" fill="#ff0000"/></defs>'
            '<rect width="10" height="10" fill="#ffffff"/><use class="l"/></svg>')
    use = [e for e in svg_art(text.encode())._root.iter() if e.get("class") == "l"][0]
    assert set(use.attrib) == {"class"}
    assert near(centre(picture(tmp_path, text)), WHITE)
