"""Which level's art a card gets: one test per row of the table in docs/spec.md ("Art")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image as PILImage

from printkit.layout import templates
from printkit.layout.ops import Image, Text
from printkit.spec import load_spec
from printkit.decks import expand


@pytest.fixture
def folder(tmp_path) -> Path:
    for name, color in (("paper.png", "#eeeeee"), ("wood.png", "#996633"), ("frame.png", "#000000"),
                        ("back.png", "#223344"), ("token.png", "#ff0000")):
        PILImage.new("RGB", (30, 40), color).save(tmp_path / name)
    (tmp_path / "deck.ttf").write_bytes((Path(__file__).resolve().parents[2] / "fonts" / "DejaVuSans.ttf").read_bytes())
    return tmp_path


def deck_of(folder: Path, text: str):
    (folder / "deck.yaml").write_text(text, encoding="utf-8")
    return expand(load_spec(folder / "deck.yaml"))


BASE = """\
game: demo
name: Demo
art:
  colors: {background: "#111111", ink: "#222222"}
  background_image: paper.png
  foreground_image: frame.png
  back: {color: "#333333", label: DEMO, image: back.png}
"""


def card(deck, group):
    cards = list(deck.cards) + [c for cs in deck.components.values() for c in cs]
    return next(c for c in cards if c.group == group)


def test_colors_merge_name_by_name(folder):
    deck = deck_of(folder, BASE + """\
groups:
  - name: g
    art: {colors: {ink: "#444444", gold: "#555555"}}
    cards: [{n: 1}, {n: 2}]
    overrides: [{match: {n: 2}, art: {colors: {gold: "#666666"}}}]
""")
    one, two = deck.cards
    assert dict(one.art.colors) == {"background": "#111111", "ink": "#444444", "gold": "#555555"}
    assert dict(two.art.colors) == {"background": "#111111", "ink": "#444444", "gold": "#666666"}


def test_a_font_is_replaced(folder):
    deck = deck_of(folder, BASE + """\
groups:
  - {name: plain, cards: [{n: 1}]}
  - {name: own, art: {font: deck.ttf}, cards: [{n: 2}]}
""")
    assert card(deck, "plain").art.font is None and card(deck, "own").art.font.name == "deck.ttf"


def test_a_background_picture_is_replaced_or_removed_with_none(folder):
    deck = deck_of(folder, BASE + """\
groups:
  - {name: kept, cards: [{n: 1}]}
  - {name: wood, art: {background_image: wood.png}, cards: [{n: 2}]}
  - {name: bare, art: {background_image: none}, cards: [{n: 3}]}
""")
    assert card(deck, "kept").art.background_image.name == "paper.png"
    assert card(deck, "wood").art.background_image.name == "wood.png"
    assert card(deck, "bare").art.background_image is None


def test_an_overlay_stays_with_the_size_it_was_made_for(folder):
    deck = deck_of(folder, BASE + """\
groups:
  - {name: cards, cards: [{n: 1}]}
  - {name: bare, art: {foreground_image: none}, cards: [{n: 2}]}
components:
  - {name: aids, cards: [{aid: 1}]}
  - {name: tokens, size: {width: 20mm, height: 20mm}, cards: [{token: 1}]}
  - {name: own_tokens, size: {width: 20mm, height: 20mm}, art: {foreground_image: token.png}, cards: [{token: 2}]}
""")
    assert card(deck, "cards").art.foreground_image.name == "frame.png"
    assert card(deck, "bare").art.foreground_image is None
    assert card(deck, "aids").art.foreground_image.name == "frame.png"  # the deck's size: the deck's overlay
    assert card(deck, "tokens").art.foreground_image is None  # another size: not stretched onto it
    assert card(deck, "own_tokens").art.foreground_image.name == "token.png"
    token = card(deck, "tokens")
    assert not any(isinstance(op, Image) and op.path.name == "frame.png" for op in templates.front(token, deck).ops)


def test_a_back_is_replaced_whole_and_keeps_its_label_over_a_picture(folder):
    deck = deck_of(folder, BASE + """\
groups:
  - {name: cards, cards: [{n: 1}]}
components:
  - {name: blaze, art: {back: {color: "#aa0000", label: BLAZE}}, cards: [{n: 2}]}
""")
    deck_card, blaze = card(deck, "cards"), card(deck, "blaze")
    assert (deck_card.art.back_color, deck_card.art.back_label, deck_card.art.back_image.name) == \
        ("#333333", "DEMO", "back.png")
    assert (blaze.art.back_color, blaze.art.back_label, blaze.art.back_image) == ("#aa0000", "BLAZE", None)
    ops = templates.back(deck_card, deck).ops
    assert any(isinstance(op, Image) and op.path.name == "back.png" for op in ops)
    assert any(isinstance(op, Text) and op.text == "DEMO" for op in ops)  # the label over the picture
    ops = templates.back(blaze, deck).ops
    assert not any(isinstance(op, Image) for op in ops)
    assert any(isinstance(op, Text) and op.text == "BLAZE" for op in ops)


def test_layouts_come_from_the_override_then_the_group_then_the_variant(folder):
    deck_text = BASE + """\
layouts:
  a: {elements: [{kind: text, text: "A"}]}
  b: {elements: [{kind: text, text: "B"}]}
  c: {elements: [{kind: text, text: "C"}]}
variants:
  v: {layout: c}
groups:
  - name: g
    layout: b
    cards: [{n: 1}, {n: 2}]
    overrides: [{match: {n: 2}, layout: a}]
  - {name: h, cards: [{n: 3}]}
"""
    deck = deck_of(folder, deck_text)
    assert [c.layout for c in deck.cards] == ["b", "a", "c"]


def test_face_on_both_sides_prints_the_front_on_the_back(folder):
    deck = deck_of(folder, BASE + """\
groups:
  - {name: cards, cards: [{n: 1}]}
components:
  - {name: tokens, face_on_both_sides: true, size: {width: 20mm, height: 20mm}, cards: [{title: Ember}]}
""")
    token = card(deck, "tokens")
    assert templates.back(token, deck) == templates.front(token, deck)
    assert templates.back(card(deck, "cards"), deck) != templates.front(card(deck, "cards"), deck)


def test_a_bundled_font_is_named_by_file_and_a_former_one_by_its_old_name(folder):
    from printkit import fonts

    deck = deck_of(folder, BASE + """\
groups:
  - {name: new, art: {font: Pretendard-Regular.ttf}, cards: [{n: 1}]}
  - {name: former, art: {font: NanumGothic.ttf, font_bold: NanumGothicBold.ttf}, cards: [{n: 2}]}
""")
    new, former = deck.cards
    assert new.art.font == fonts.KOREAN
    assert (former.art.font, former.art.font_bold) == (fonts.KOREAN, fonts.KOREAN_BOLD)
