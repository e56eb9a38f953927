"""Tabletop Simulator export: the saved object read back and checked against its sheets."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from printkit.errors import BuildError
from printkit.export import ExportOptions, export_deck
from printkit.render.color import srgb_icc
from printkit.decks import load_deck


def _decks(folder: Path) -> list[dict]:
    """The saved object's decks; its other objects are tiles."""
    save = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
    assert {o["Name"] for o in save["ObjectStates"]} <= {"DeckCustom", "Custom_Tile"}
    return [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]


def _check_deck(deck: dict) -> None:
    """Every card points inside its sheet's grid, short of the hidden last slot; DeckIDs list them."""
    cards = deck["ContainedObjects"]
    assert deck["DeckIDs"] == [c["CardID"] for c in cards]
    for card in cards:
        assert card["Name"] == "Card" and card["Nickname"]
        sheet_id, slot = divmod(card["CardID"], 100)
        entry = deck["CustomDeck"][str(sheet_id)]
        assert card["CustomDeck"] == {str(sheet_id): entry}
        assert 0 <= slot < entry["NumWidth"] * entry["NumHeight"] - 1
        assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7


def _path(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(unquote(parsed.path))


def _tiles(folder: Path) -> list[dict]:
    save = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
    return [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]


def test_calc_expert_is_177_cards_of_45_faces_at_300_dpi(exports):
    folder = exports("calc-expert", "tts")
    cards, aids = _decks(folder)
    assert cards["Nickname"] == "Calc (expert): cards" and aids["Nickname"] == "Calc (expert): player aids"
    _check_deck(cards)
    _check_deck(aids)
    assert len(cards["ContainedObjects"]) == 177
    assert len({c["CardID"] for c in cards["ContainedObjects"]}) == 45
    assert len(aids["ContainedObjects"]) == 4
    assert set(cards["CustomDeck"]).isdisjoint(aids["CustomDeck"])  # ids unique across the save
    names = [c["Nickname"] for c in cards["ContainedObjects"]]
    assert names.count("7+") == 4 and names.count("joker") == 1
    # A poker card at 300 DPI is 750 x 1050 px: 5 x 3 slots fit 4096 px, 14 faces and the hidden
    # card a sheet, so 45 faces take four sheets (once one 10 x 5 sheet of 409 x 573 px cards).
    entries = [cards["CustomDeck"][k] for k in sorted(cards["CustomDeck"], key=int)]
    assert [(e["NumWidth"], e["NumHeight"]) for e in entries] == [(5, 3), (5, 3), (5, 3), (4, 1)]
    for entry in entries:
        sheet = _path(entry["FaceURL"])
        assert sheet.parent == (folder / "images").resolve() and _path(entry["BackURL"]).is_file()
        with Image.open(sheet) as image:
            assert max(image.size) <= 4096
            assert image.size == (750 * entry["NumWidth"], 1050 * entry["NumHeight"])
            assert image.info.get("icc_profile") == srgb_icc()
    assert cards["Transform"]["scaleX"] == 1.0  # a poker deck at TTS's own card size


def test_descriptions_are_plain_text_without_markup_or_icon_names(exports):
    (cards,) = _decks(exports("emberfall", "tts"))
    described = [c["Description"] for c in cards["ContainedObjects"]]
    assert all(described)
    for text in described:
        assert "**" not in text and not re.search(r":[\w-]+:", text), text
    drake = next(c for c in cards["ContainedObjects"] if c["Nickname"] == "Ember Drake")
    # In cards.csv: "**Soaring.** When it arrives, deal 2 :fire: to a creature."
    assert drake["Description"] == "Soaring. When it arrives, deal 2 fire to a creature."
    pup = next(c for c in cards["ContainedObjects"] if c["Nickname"] == "Cinder Pup")
    assert pup["Description"] == "Gains +1 power while you hold 3 or more ember."


def test_embers_are_round_tiles_at_their_real_size(exports):
    folder = exports("emberfall", "tts")
    (cards,) = _decks(folder)  # the embers are no deck
    assert len(cards["ContainedObjects"]) == 60
    tiles = _tiles(folder)
    assert len(tiles) == 24 and {t["Nickname"] for t in tiles} == {"ember"}
    tile = tiles[0]
    assert tile["CustomImage"]["CustomTile"]["Type"] == 2  # a circle
    # 20 mm across: TTS's tile at scale 1 is 33.3 mm where its card is a poker card's 88.9 mm tall.
    assert tile["Transform"]["scaleX"] == tile["Transform"]["scaleZ"] == pytest.approx(20 / (88.9 * 1.31 / 3.5),
                                                                                       abs=1e-3)
    assert tile["Transform"]["rotZ"] == 0.0  # face up
    face = _path(tile["CustomImage"]["ImageURL"])
    with Image.open(face) as image:
        assert image.size == (236, 236)  # 20 mm at 300 DPI
        assert image.info.get("icc_profile") == srgb_icc()
    assert _path(tile["CustomImage"]["ImageSecondaryURL"]) == face  # the face on both sides


def _spec(tmp_path: Path, text: str) -> Path:
    spec = tmp_path / "d.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


RULES_DECK = """game: d
name: D
groups:
  - name: a
    cards:
      - {name: One, rules: "Take *one* :coin:.", text: "flavour"}
      - {name: Two, rules: 'Take \\*two\\* 3:coin:'}
"""


def test_the_spec_names_the_description_column(tmp_path):
    out = tmp_path / "o"
    export_deck(load_deck(str(_spec(tmp_path, RULES_DECK + "export: {description: rules}\n"))),
                ExportOptions(target="tts", out_dir=out))
    (deck,) = _decks(out)
    assert [c["Description"] for c in deck["ContainedObjects"]] == ["Take one coin.", "Take *two* 3 coin"]
    # Without the key: text, and rules where a card has no text.
    out = tmp_path / "p"
    export_deck(load_deck(str(_spec(tmp_path, RULES_DECK))), ExportOptions(target="tts", out_dir=out))
    (deck,) = _decks(out)
    assert [c["Description"] for c in deck["ContainedObjects"]] == ["flavour", "Take *two* 3 coin"]


def test_a_description_column_no_card_has_is_one_error_at_its_key(tmp_path):
    from printkit.errors import SpecError

    spec = _spec(tmp_path, RULES_DECK + "export:\n  description: rulez\n")
    with pytest.raises(SpecError) as caught:
        load_deck(str(spec))
    assert str(caught.value) == f"{spec}:9:16: no card has attribute 'rulez' (cards have: name, rules, text); did you mean 'rules'?"


def test_more_faces_than_a_sheet_holds_take_several_sheets_and_base_url_points_there(tmp_path):
    spec = _spec(tmp_path, "game: many\nname: Many\ncard: {size: mini}\ngroups:\n  - name: n\n"
                 "    generate: {n: [" + ", ".join(str(i) for i in range(75)) + "]}\n")
    out = tmp_path / "out"
    export_deck(load_deck(str(spec)), ExportOptions(target="tts", out_dir=out, base_url="https://example.org/m/"))
    (deck,) = _decks(out)
    _check_deck(deck)
    # A mini card at 300 DPI is 525 x 750 px: 7 x 5 slots, 34 faces a sheet.
    entries = [deck["CustomDeck"][k] for k in sorted(deck["CustomDeck"], key=int)]
    # The last 7 faces and the hidden card: a 4 x 2 grid, no wider than they need.
    assert [(e["NumWidth"], e["NumHeight"]) for e in entries] == [(7, 5), (7, 5), (4, 2)]
    assert len(deck["ContainedObjects"]) == 75
    assert entries[0]["FaceURL"] == "https://example.org/m/images/cards-sheet-1.png"
    with pytest.raises(BuildError, match=r"--base-url 'https://example.org/m\?v=2' has a query"):
        export_deck(load_deck(str(spec)),
                    ExportOptions(target="tts", out_dir=out, base_url="https://example.org/m?v=2"))
    with Image.open(out / "images" / "cards-sheet-3.png") as image:
        assert image.size == (4 * 525, 2 * 750)
    # The hosted folder holds only images; deck.json and printkit's files stay beside it.
    assert {p.suffix for p in (out / "images").iterdir()} == {".png"}
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "README.txt", "deck.json", "images", "manifest.json"]
    assert deck["Transform"]["scaleZ"] == pytest.approx(63.5 / 88.9, abs=1e-4)  # smaller than poker


def test_plain_text_strips_markup_with_the_card_parser():
    from printkit.layout.richtext import plain_text

    assert plain_text("**Soaring.** deal 2 :fire:, ***both*** *it*") == "Soaring. deal 2 fire, both it"
    assert plain_text("3:gold: and :red_gem:s \\*x\\* 10\\:30 a * b") == "3 gold and red gems *x* 10:30 a * b"
    assert plain_text("one\ntwo  words\n\n\nnext") == "one\ntwo words\n\nnext"


def test_only_square_components_smaller_than_the_cards_are_tiles(tmp_path):
    from printkit.export import plan
    from printkit.export.profiles import profile
    from printkit.export.tts import is_token

    spec = _spec(tmp_path, """game: sq
name: Square
card: {size: square}
groups:
  - name: a
    cards: [{n: 1}]
components:
  - name: same
    cards: [{n: 2}]
  - name: chips
    size: {width: 20mm, height: 20mm}
    cards: [{n: 3}]
  - name: strips
    size: {width: 20mm, height: 40mm}
    cards: [{n: 4}]
""")
    deck = load_deck(str(spec))
    runs, _ = plan(deck, profile("tts"))
    assert {run.name: is_token(deck, run) for run in runs} == {"cards": False, "same": False, "chips": True,
                                                               "strips": False}
