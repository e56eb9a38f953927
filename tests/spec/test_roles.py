"""A designer's component marked with a role gets printkit's back for that role."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.errors import SpecError
from printkit.layout import templates
from printkit.layout.ops import Text
from printkit.decks import load_deck

from cli_in import invoke_in

SPEC = """\
game: orchard
name: Orchard
layouts:
  own_back:
    elements:
      - {kind: text, text: "OWN BACK", frame: safe, size: 5mm}
groups:
  - name: fruit
    generate: {fruit: [apple, pear], value: [1, 2]}
components:
  - name: aids
    role: aid
    cards: [{title: Turn, text: "Pick a fruit, then pass."}]
  - name: refs
    role: reference
    cards: [{title: Fruits, text: "Apples and pears."}]
  - name: markers
    role: marker
    size: {width: 30mm, height: 30mm}
    cards: [{title: First}]
  - name: tokens
    role: token
    size: {width: 25mm, height: 25mm}
    cards: [{title: Seed}]
  - name: drawn
    role: aid
    back_layout: own_back
    cards: [{title: Drawn}]
"""


def folder_with(tmp_path: Path, langs: tuple[str, ...], spec: str = SPEC) -> Path:
    (tmp_path / "orchard.yaml").write_text(spec, encoding="utf-8")
    for lang in langs:
        (tmp_path / f"orchard.rules.{lang}.md").write_text("# Orchard\n\nPlay.\n", encoding="utf-8")
    return tmp_path / "orchard.yaml"


def back_words(deck, component: str) -> list[str]:
    [card] = deck.components[component]
    return [op.text for op in templates.back(card, deck).ops if isinstance(op, Text)]


def test_each_role_names_itself_on_the_back_in_the_rulebooks_languages(tmp_path):
    deck = load_deck(folder_with(tmp_path, ("en", "ko")))
    assert deck.languages == ("ko", "en")
    aid = back_words(deck, "aids")
    assert aid.count("PLAYER AID") == 2 and aid.count("도움말") == 2 and "Orchard" in aid  # both ways up
    assert back_words(deck, "refs").count("REFERENCE") == 2
    marker = back_words(deck, "markers")
    assert marker.count("MARKER") == 2 and marker.count("마커") == 2
    # The plain deck back names no role.
    plain = [op.text for op in templates.back(deck.cards[0], deck).ops if isinstance(op, Text)]
    assert not {"PLAYER AID", "REFERENCE", "MARKER"} & set(plain)


def test_an_english_only_rulebook_gives_english_only_backs(tmp_path):
    deck = load_deck(folder_with(tmp_path, ("en",)))
    aid = back_words(deck, "aids")
    assert "PLAYER AID" in aid and "도움말" not in aid


def test_a_korean_only_rulebook_gives_korean_backs(tmp_path):
    deck = load_deck(folder_with(tmp_path, ("ko",)))
    aid = back_words(deck, "aids")
    assert "도움말" in aid and "PLAYER AID" not in aid


def test_a_token_shows_its_front_on_both_sides_and_a_back_layout_wins(tmp_path):
    deck = load_deck(folder_with(tmp_path, ("en",)))
    [token] = deck.components["tokens"]
    assert templates.back(token, deck).ops == templates.front(token, deck).ops
    assert back_words(deck, "drawn") == ["OWN BACK"]


def test_the_printed_back_is_the_light_role_back_not_the_decks_plain_one(tmp_path):
    import pypdfium2

    folder_with(tmp_path, ("en",))
    built = invoke_in(tmp_path, "build", "orchard.yaml", "--no-rulebooks", "--per-card", "--out", "out")
    assert built.exit_code == 0, built.output
    cards = tmp_path / "out" / "orchard" / "cards"

    def middle_of_top(name: str) -> tuple[int, int, int]:
        image = pypdfium2.PdfDocument((cards / name).read_bytes())[0].render(scale=1).to_pil().convert("RGB")
        return image.getpixel((image.width // 10, image.height // 10))  # the field, away from the words

    backs = sorted(p.name for p in cards.glob("back-*.pdf"))
    colours = {name: middle_of_top(name) for name in backs}
    dark = [c for c in colours.values() if sum(c) < 3 * 100]
    light = [c for c in colours.values() if sum(c) > 3 * 180]
    assert dark, colours  # the deck's plain back (#404040)
    assert len(light) >= 3, colours  # aid, reference and marker backs: a light field


def test_an_unknown_role_is_a_located_error(tmp_path):
    path = folder_with(tmp_path, (), SPEC.replace("role: marker", "role: counter"))
    with pytest.raises(SpecError) as info:
        load_deck(path)
    assert "'counter' is not one of: aid, reference, token, marker" in info.value.message
    line = path.read_text(encoding="utf-8").splitlines()[info.value.line - 1]
    assert "role: counter" in line
