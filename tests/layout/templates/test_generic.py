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
