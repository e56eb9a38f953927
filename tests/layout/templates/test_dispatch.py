"""Template dispatch: game modules when they exist, the generic template otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.deck import Art, Card, CardSize, Deck
from printkit.layout import templates
from printkit.layout.ops import Face, Image, Rect, Text
from printkit.layout.templates import generic

POKER = CardSize(63.5, 88.9, bleed_mm=3.175)


def deck(game: str, cards=()) -> Deck:
    return Deck(game=game, name=game, deck_id=game, variant=None, spec_path=Path("x.yaml"), size=POKER,
                art=Art(), cards=tuple(cards))


def card(attrs, art=Art()) -> Card:
    return Card("c-1", "things", attrs, art, POKER)


def test_unknown_game_uses_the_generic_template():
    c = card({"name": "Stone"})
    assert templates.game_module("nosuchgame") is None
    assert templates.front(c, deck("nosuchgame")) == generic.front(c)
    assert templates.back(c, deck("nosuchgame")) == generic.back(c)


@pytest.mark.parametrize("game", ["../calc", "generic", "_common", "calc.x"])
def test_odd_game_names_never_import_other_modules(game):
    assert templates.game_module(game) is None


def test_game_module_is_used_when_present():
    module = templates.game_module("calc")
    assert module is not None and hasattr(module, "front")


def test_page_components_are_recognised():
    assert templates.is_page(card({"sheet": "score"}))
    assert not templates.is_page(card({"suit": "hearts"}))
    face = templates.page(card({"sheet": "score", "rounds": 22}), deck("nosuchgame"), 210, 297)
    assert any(isinstance(op, Text) and "rounds: 22" in op.text for op in face.ops)


def test_generic_front_shows_attributes_and_art(tmp_path):
    picture = tmp_path / "bg.png"
    picture.write_bytes(b"")  # never opened by layout
    art = Art(colors={"background": "#abcdef"}, background_image=picture, foreground_image=picture)
    face = generic.front(card({"name": "Stone", "minerals": ("ruby", "gold")}, art))
    assert isinstance(face.ops[0], Rect) and face.ops[0].fill == "#abcdef"
    assert face.ops[0].x_mm == -3.175  # to the bleed edge
    assert isinstance(face.ops[1], Image) and isinstance(face.ops[-1], Image)
    texts = [op.text for op in face.ops if isinstance(op, Text)]
    assert "things" in texts and "name: Stone" in texts and "minerals: ruby, gold" in texts
    assert face.warnings == ()


def test_generic_back_uses_colour_label_or_image(tmp_path):
    face = generic.back(card({}, Art(back_color="#112233", back_label="BACK")))
    assert face.ops[0].fill == "#112233"
    assert any(isinstance(op, Text) and op.text == "BACK" for op in face.ops)
    picture = tmp_path / "back.png"
    face = generic.back(card({}, Art(back_image=picture, back_label="BACK")))
    assert isinstance(face.ops[1], Image) and face.ops[1].path == picture
    assert not any(isinstance(op, Text) for op in face.ops)


def test_generic_warns_about_text_that_does_not_fit():
    face = generic.front(card({"rule": "word " * 3000}))
    assert face.warnings and "things[rule=" in face.warnings[0] and "attributes" in face.warnings[0]
    assert isinstance(face, Face)
