"""Template dispatch: game modules when they exist, the generic template otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.deck import Art, Card, CardSize, Deck
from printkit.games import module_of
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
    assert module_of("nosuchgame", "faces") is None
    assert templates.front(c, deck("nosuchgame")) == generic.front(c)
    assert templates.back(c, deck("nosuchgame")) == generic.back(c)


@pytest.mark.parametrize("game", ["../calc", "generic", "_common", "calc.x"])
def test_odd_game_names_never_import_other_modules(game):
    assert module_of(game, "faces") is None


def test_the_games_faces_module_is_used_when_present():
    module = module_of("calc", "faces")
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
    # The name titles the card (in place of the group name) and is not repeated as a line.
    assert "Stone" in texts and "minerals: ruby, gold" in texts
    assert "things" not in texts and "name: Stone" not in texts
    assert face.warnings == ()


def test_generic_back_uses_colour_label_or_image(tmp_path):
    face = generic.back(card({}, Art(back_color="#112233", back_label="BACK")))
    assert face.ops[0].fill == "#112233"
    assert any(isinstance(op, Text) and op.text == "BACK" for op in face.ops)
    picture = tmp_path / "back.png"
    face = generic.back(card({}, Art(back_image=picture, back_label="BACK")))
    assert isinstance(face.ops[1], Image) and face.ops[1].path == picture
    assert [op.text for op in face.ops if isinstance(op, Text)] == ["BACK"]  # a label is kept over a picture
    face = generic.back(card({}, Art(back_image=picture)))
    assert not any(isinstance(op, Text) for op in face.ops)


def test_generic_warns_about_text_that_does_not_fit():
    face = generic.front(card({"rule": "word " * 3000}))
    assert face.warnings and "things[rule=" in face.warnings[0] and "attributes" in face.warnings[0]
    assert isinstance(face, Face)


class _Recorder(dict):
    """A palette that remembers every name a template asks it for."""

    def __init__(self, colors, asked):
        super().__init__(colors)
        self.asked = asked

    def get(self, name, default=None):
        self.asked.add(name)
        return super().get(name, default)

    def __getitem__(self, name):
        self.asked.add(name)
        return super().__getitem__(name)


@pytest.mark.parametrize("game, variant", [("calc", "expert"), ("stack", None), ("clag", None)])
def test_each_templates_colour_names_are_the_names_its_faces_read(game, variant, tmp_path):
    # Every face of the shipped deck, with and without a background image, asked through a
    # palette that records: what the faces read is exactly what the template says it reads.
    import dataclasses

    from PIL import Image as PILImage

    from printkit.decks import load_deck

    picture = tmp_path / "bg.png"
    PILImage.new("RGB", (8, 8), (255, 0, 255)).save(picture)
    loaded = load_deck(game, variant)
    asked: set[str] = set()
    for c in list(loaded.cards) + [c for cards in loaded.components.values() for c in cards]:
        for image in (None, picture):
            art = dataclasses.replace(c.art, colors=_Recorder(c.art.colors, asked), background_image=image)
            c2 = dataclasses.replace(c, art=art)
            if templates.is_page(c2):
                templates.page(c2, loaded, 210, 297)
            else:
                templates.front(c2, loaded)
                templates.back(c2, loaded)
    assert asked == set(module_of(game, "faces").COLOR_NAMES)
    assert set(templates.color_names(game)) == asked


def test_generic_colour_names_are_the_names_its_faces_read(tmp_path):
    asked: set[str] = set()
    picture = tmp_path / "bg.png"
    picture.write_bytes(b"")  # never opened by layout
    for image in (None, picture):
        c = card({"name": "Stone"}, Art(colors=_Recorder({}, asked), background_image=image, back_label="X"))
        generic.front(c), generic.back(c), generic.page(c, 210, 297)
    assert asked == set(generic.COLOR_NAMES) == {"background", "ink"}
    assert templates.color_names("nosuchgame") == generic.COLOR_NAMES


def test_colour_names_no_face_reads_are_one_warning_naming_them_and_the_names_read():
    # The deck's palette has a typo and a name of its own; a group's or override's palette adds one.
    palette = {"backgound": "#fff8e7", "ink": "#2b2b2b", "apple": "#c0392b"}
    cards = [card({"name": "Stone"}, Art(colors=palette)), card({"name": "Gold"}, Art(colors={**palette, "golden": "#ffe680"}))]
    orchard = deck("orchard", cards)
    assert templates.unknown_colors(orchard) == ("backgound", "apple", "golden")
    assert templates.palette_warning(orchard) == (
        "art.colors: 'backgound' (did you mean 'background'?), 'apple', 'golden' are not colour names the cards "
        "read, so they change nothing; the generic template (game 'orchard' has none of its own) reads: "
        "background, ink")
    one = templates.palette_warning(deck("orchard", [card({"name": "Stone"}, Art(colors={"apple": "#c0392b"}))]))
    assert one.startswith("art.colors: 'apple' is not a colour name the cards read, so it changes nothing;")
    # A game with a template of its own is judged by that template's names.
    calc_card = card({"name": "Stone"}, Art(colors={"plsu": "#0072b2", "plus": "#0072b2"}))
    assert templates.unknown_colors(deck("calc", [calc_card])) == ("plsu",)
    assert templates.unknown_colors(deck("stack", [card({}, Art(colors={"ruby": "#ff0000"}))])) == ()


def test_known_colour_names_add_no_warning():
    c = card({"name": "Stone"}, Art(colors={"background": "#fff8e7", "ink": "#2b2b2b"}))
    assert templates.palette_warning(deck("orchard", [c])) is None
