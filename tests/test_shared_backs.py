"""A back drawn by a layout that reads nothing of a card but its art is drawn once for all the
cards of that art and size; a back that reads the card, or warns, stays each card's own."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from printkit.errors import BuildError
from printkit.layout import templates
from printkit.layout.compile import shipped_layouts
from printkit.layout.ops import Text
from printkit.layout.templates import generic
from printkit.pipeline.build import load_decks
from printkit.pipeline.context import BuildContext, BuildOptions

DECKS = Path(__file__).resolve().parent.parent / "decks"


def _deck(tmp_path, monkeypatch, spec: str):
    """The deck of ``spec`` (after its game, name and card size), written and read as deck.yaml."""
    (tmp_path / "deck.yaml").write_text("game: backs\nname: Backs\ncard: {size: poker}\n" + spec, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return load_decks(["deck.yaml"])[0]


def _spec_deck(tmp_path, monkeypatch, layout: str, cards: str):
    return _deck(tmp_path, monkeypatch, "layouts:\n  the_back:\n    elements:\n" + layout +
                 "groups:\n  - {name: cards, back_layout: the_back, cards: " + cards + "}\n")


def _back_texts(deck, tmp_path):
    _, faces = _faces(deck, tmp_path)
    return [[op.text for op in faces.back(card).ops if isinstance(op, Text)] for card in deck.cards]


def _faces(deck, tmp_path):
    ctx = BuildContext(BuildOptions(out_dir=tmp_path / "out"))
    return ctx, ctx.faces(deck)


def _counting(monkeypatch):
    drawn = []
    real = templates.back

    def back(card, deck, **kw):
        drawn.append(card)
        return real(card, deck, **kw)

    monkeypatch.setattr(templates, "back", back)
    return drawn


@pytest.mark.parametrize("name, shared", [("calc.yaml", 2), ("clag.yaml", 2), ("stack.yaml", 5)])
def test_a_games_deck_back_is_drawn_once_for_all_its_cards(name, shared, monkeypatch, tmp_path):
    deck = load_decks([str(DECKS / name)])[0]
    drawn = _counting(monkeypatch)
    ctx, faces = _faces(deck, tmp_path)
    cards = list(deck.all_cards())  # the player aids, terrains and tokens too
    backs = [faces.back(card) for card in cards]
    keys = [templates.back_key(card, deck) for card in cards]
    # One drawing per back layout (the deck's back, the player aids' light back, ...) however many
    # cards it backs; a card whose back is its own (a Stack token's is its face) drawn once for its copies.
    assert len({key for key in keys if key is not None}) == shared
    assert len(drawn) == shared + len({card.key for card, key in zip(cards, keys) if key is None})
    assert len({id(face) for face, key in zip(backs, keys) if key is not None}) == shared
    # Each card's back is the one it would get drawn alone.
    for card, face in zip(cards, backs):
        assert face == templates.back(card, deck)


def test_a_spec_back_that_reads_the_card_is_each_cards_own(tmp_path, monkeypatch):
    deck = _deck(tmp_path, monkeypatch,
                 "layouts:\n"
                 "  named_back:\n    elements:\n"
                 "      - {name: who, kind: text, text: '{title}', x: 5mm, y: 5mm, width: 50mm, height: 10mm}\n"
                 "  plain_back:\n    elements:\n"
                 "      - {name: label, kind: text, text: '{_back_label}', x: 5mm, y: 5mm, width: 50mm, height: 10mm}\n"
                 "art: {back: {label: SAME}}\n"
                 "groups:\n"
                 "  - {name: named, back_layout: named_back, cards: [{title: Alpha}, {title: Beta}]}\n"
                 "  - {name: plain, back_layout: plain_back, cards: [{title: Gamma}, {title: Delta}]}\n")
    assert not deck.layouts["named_back"].same_for_every_card
    assert deck.layouts["plain_back"].same_for_every_card
    drawn = _counting(monkeypatch)
    assert _back_texts(deck, tmp_path) == [["Alpha"], ["Beta"], ["SAME"], ["SAME"]]
    assert [card.attrs["title"] for card in drawn] == ["Alpha", "Beta", "Gamma"]  # Delta shares Gamma's


def test_a_shared_back_that_warns_is_drawn_for_each_card(tmp_path, monkeypatch):
    # A label too long for its box at the smallest size warns: each card says so on its own back.
    deck = _spec_deck(tmp_path, monkeypatch,
                      "      - {name: label, kind: text, text: '{_back_label}', x: 5mm, y: 5mm, width: 6mm, height: 3mm,"
                      " wrap: false, min_size: 2mm}\nart: {back: {label: A LABEL FAR TOO LONG FOR ITS BOX}}\n",
                      "[{title: One}, {title: Two}]")
    drawn = _counting(monkeypatch)
    _, faces = _faces(deck, tmp_path)
    backs = [faces.back(card) for card in deck.cards]
    assert all(face.warnings for face in backs)
    assert len(drawn) == 3  # the shared try, then each card's own


def test_what_a_layout_reads_decides_whether_it_is_the_same_for_every_card():
    generic_layouts = shipped_layouts(generic.GENERIC)
    assert generic_layouts["back"].same_for_every_card
    assert generic_layouts["aid_back"].same_for_every_card  # the role's name in the deck's languages
    assert not generic_layouts["page"].same_for_every_card  # the group and every attribute
    calc = shipped_layouts(Path(templates.__file__).resolve().parents[2] / "games" / "calc" / "faces.yaml")
    assert calc["back"].same_for_every_card
    assert not calc["number"].same_for_every_card


def test_a_tables_group_label_that_reads_the_card_makes_the_back_the_cards_own(tmp_path, monkeypatch):
    deck = _spec_deck(tmp_path, monkeypatch,
                      "      - {name: sheet, kind: table, x: 3mm, y: 3mm, width: 57mm, height: 60mm, table: {\n"
                      "          columns: [{header: '#', width: 8mm}], rows: [{cells: ['1']}],\n"
                      "          repeat: {count: '2', header: '{title} {n}', columns: [{header: Bid, width: 100%}]}}}\n",
                      "[{title: Alpha}, {title: Beta}]")
    assert not deck.layouts["the_back"].same_for_every_card
    texts = _back_texts(deck, tmp_path)
    assert "Alpha 1" in texts[0] and "Beta 1" in texts[1] and "Alpha 1" not in texts[1]


def test_a_back_with_a_when_match_is_each_cards_own(tmp_path, monkeypatch):
    # when: matches the card's own attributes, whatever its names spell.
    deck = _spec_deck(tmp_path, monkeypatch,
                      "      - {name: promo, kind: text, text: PROMO, when: {promo: true}, x: 5mm, y: 5mm,"
                      " width: 50mm, height: 10mm}\n",
                      "[{title: A, promo: true}, {title: B, promo: false}]")
    assert not deck.layouts["the_back"].same_for_every_card
    assert _back_texts(deck, tmp_path) == [["PROMO"], []]


def test_a_card_its_games_design_refuses_is_named_with_where_it_is_written(tmp_path, monkeypatch):
    spec = (DECKS / "stack.yaml").read_text(encoding="utf-8")
    (tmp_path / "stack.yaml").write_text(spec, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    deck = load_decks(["stack.yaml"])[0]
    card = next(c for c in deck.cards if "minerals" in c.attrs)
    bad = dataclasses.replace(card, attrs={**card.attrs, "minerals": ("ruby", "ruby")})
    _, faces = _faces(deck, tmp_path)
    with pytest.raises(BuildError) as caught:
        faces.back(bad)
    assert str(caught.value).startswith(f"{card.source}: ") and "minerals" in str(caught.value)
