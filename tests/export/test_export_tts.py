"""Tabletop Simulator export: the saved object read back and checked against its sheets."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from printkit.export import ExportOptions, export_deck
from printkit.render.color import srgb_icc
from printkit.spec import load_deck


def _decks(folder: Path) -> list[dict]:
    save = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
    assert [o["Name"] for o in save["ObjectStates"]] == ["DeckCustom"] * len(save["ObjectStates"])
    return save["ObjectStates"]


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


def test_calc_expert_is_177_cards_of_45_faces_on_one_sheet(exports):
    folder = exports("calc-expert", "tts")
    cards, aids = _decks(folder)
    assert cards["Nickname"] == "Calc (expert): cards" and aids["Nickname"] == "Calc (expert): player aids"
    _check_deck(cards)
    _check_deck(aids)
    assert len(cards["ContainedObjects"]) == 177
    assert len({c["CardID"] for c in cards["ContainedObjects"]}) == 45
    assert len(cards["CustomDeck"]) == 1 and len(aids["ContainedObjects"]) == 4
    assert set(cards["CustomDeck"]).isdisjoint(aids["CustomDeck"])  # ids unique across the save
    (entry,) = cards["CustomDeck"].values()
    names = [c["Nickname"] for c in cards["ContainedObjects"]]
    assert names.count("7+") == 4 and names.count("joker") == 1
    sheet = _path(entry["FaceURL"])
    assert sheet.parent == folder.resolve() and _path(entry["BackURL"]).is_file()
    with Image.open(sheet) as image:
        assert max(image.size) <= 4096
        assert image.size[0] % entry["NumWidth"] == 0 and image.size[1] % entry["NumHeight"] == 0
        assert image.info.get("icc_profile") == srgb_icc()
        card_w, card_h = image.size[0] // entry["NumWidth"], image.size[1] // entry["NumHeight"]
        assert card_h / card_w == pytest.approx(88.9 / 63.5, abs=0.01)


def test_emberfall_names_cards_by_title_describes_them_by_text_and_tokens_are_their_own_deck(exports):
    cards, embers = _decks(exports("emberfall", "tts"))
    _check_deck(cards)
    _check_deck(embers)
    drake = next(c for c in cards["ContainedObjects"] if c["Nickname"] == "Ember Drake")
    assert "When it arrives" in drake["Description"]
    assert len(cards["ContainedObjects"]) == 60 and len(embers["ContainedObjects"]) == 24


def test_more_than_69_faces_take_several_sheets_and_base_url_points_there(tmp_path):
    spec = tmp_path / "many.yaml"
    spec.write_text("game: many\nname: Many\ncard: {size: mini}\ngroups:\n  - name: n\n"
                    "    generate: {n: [" + ", ".join(str(i) for i in range(75)) + "]}\n", encoding="utf-8")
    out = tmp_path / "out"
    export_deck(load_deck(str(spec)), ExportOptions(target="tts", out_dir=out, base_url="https://example.org/m/"))
    (deck,) = _decks(out)
    _check_deck(deck)
    assert len(deck["CustomDeck"]) == 2 and len(deck["ContainedObjects"]) == 75
    first, second = (deck["CustomDeck"][k] for k in sorted(deck["CustomDeck"]))
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert first["FaceURL"] == "https://example.org/m/cards-sheet-1.png"
    assert (out / "cards-sheet-2.png").is_file() and second["NumWidth"] * second["NumHeight"] >= 7
