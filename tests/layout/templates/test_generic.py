"""The plain template for games printkit has no design for."""

import shutil

from printkit import fonts
from printkit.layout import templates
from printkit.spec import expand, load_spec


def test_text_a_latin_font_lacks_is_set_in_the_bundled_fonts(tmp_path):
    shutil.copy(fonts.SYMBOLS, tmp_path / "Latin.ttf")
    spec = tmp_path / "demo.yaml"
    spec.write_text("game: demo\nname: Demo\nart: {font: Latin.ttf, back: {label: 뒷면}}\n"
                    "groups:\n  - name: g\n    cards: [{title: 한글}]\n", encoding="utf-8")
    deck = expand(load_spec(spec))
    card = deck.cards[0]
    front, back = templates.front(card, deck), templates.back(card, deck)
    assert front.warnings == () and back.warnings == ()
    texts = {op.text: op.font.name for op in front.ops + back.ops if hasattr(op, "text")}
    assert texts["한글"] == texts["뒷면"] == fonts.KOREAN_BOLD.name
    assert texts["g"] == "Latin.ttf"


def _orchard_card(colors=None):
    """A card of a game with no template of its own, as a designer's first deck has."""
    from printkit.deck import Art, Card, CardSize

    art = Art(colors=colors or {"background": "#fff8e7", "ink": "#2b2b2b"})
    return Card("fruit[fruit=apple,value=8]#1", "fruit", {"fruit": "apple", "value": 8, "title": "Golden harvest"},
                art, CardSize(63.5, 88.9, bleed_mm=3.175))


def _text_region(card, ops):
    """The box of ``ops``' text as fractions of the trim size, for ``image_share``."""
    from ._ops import op_bounds

    bounds = [op_bounds(op) for op in ops]
    s = card.size
    return (min(b[0] for b in bounds) / s.width_mm, min(b[1] for b in bounds) / s.height_mm,
            max(b[2] for b in bounds) / s.width_mm, max(b[3] for b in bounds) / s.height_mm)


def test_text_sits_on_plates_of_the_background_colour_over_a_background_image(tmp_path):
    from printkit.layout.templates import generic

    from ._ops import image_share, texts, with_background_image

    card = with_background_image(_orchard_card(), tmp_path)
    face = generic.front(card)
    title = [op for op in texts(face) if op.text == "fruit"]
    body = [op for op in texts(face) if ":" in op.text]
    for ops in (title, body):
        region = _text_region(card, ops)
        assert image_share(face, card, *region) == 0, ops[0].text  # no image behind the text
        assert image_share(face, card, *region, color=(0xff, 0xf8, 0xe7)) > 0.4
    assert image_share(face, card, 0.1, 0.5, 0.9, 0.9) > 0.9  # the image shows where there is no text


def test_an_overrides_background_colour_shows_on_the_plates(tmp_path):
    # Over an image the background colour is seen only on the plates: a card that overrides it
    # must look different there, or the override would print as nothing.
    from printkit.layout.templates import generic

    from ._ops import image_share, texts, with_background_image

    card = with_background_image(_orchard_card({"background": "#00ff00"}), tmp_path)
    face = generic.front(card)
    region = _text_region(card, [op for op in texts(face) if ":" in op.text])
    assert image_share(face, card, *region, color=(0, 255, 0)) > 0.4


def test_no_plates_without_a_background_image():
    from printkit.layout.ops import Rect
    from printkit.layout.templates import generic

    face = generic.front(_orchard_card())
    rects = [op for op in face.ops if isinstance(op, Rect)]
    assert len(rects) == 2  # the background to the bleed edge and the frame: nothing more is needed
