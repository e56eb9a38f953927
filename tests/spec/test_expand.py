from pathlib import Path

import pytest

from printkit.errors import SpecError
from printkit.spec import expand, load_deck, load_spec


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_generate_is_the_product_in_key_order(tmp_path):
    deck = expand(load_spec(write(tmp_path, "game: g\nname: G\ngroups:\n  - name: n\n    generate: {s: [a, b], n: [1, 2, 3]}\n    copies: 2\n")))
    assert len(deck) == 12
    assert [dict(c.attrs) for c in deck.cards[:3]] == [{"s": "a", "n": 1}] * 2 + [{"s": "a", "n": 2}]
    assert [c.copy for c in deck.cards[:2]] == [1, 2]
    assert len({c.uid for c in deck.cards}) == 12


def test_combine_and_constant_attrs(tmp_path):
    deck = expand(load_spec(write(tmp_path, "game: g\nname: G\ngroups:\n  - name: two\n    attrs: {cost: 2}\n    combine: {attr: m, of: [r, g, s, c], size: 2}\n")))
    assert len(deck) == 6
    assert deck.cards[0].attrs == {"cost": 2, "m": ("r", "g")}
    assert deck.counts(["m"]) == {"m": {"r": 3, "g": 3, "s": 3, "c": 3}}


def test_exclusions_overrides_and_art_layers(tmp_path):
    deck = expand(load_spec(write(tmp_path, """
game: g
name: G
art: {colors: {ink: "#000", plus: "#00f"}}
groups:
  - name: n
    generate: {s: [plus, minus], n: [1, 2]}
    exclude: [{s: minus, n: 2}]
    art: {colors: {ink: "#111"}}
    overrides:
      - match: {n: 1}
        copies: 3
        attrs: {lucky: true}
        art: {colors: {ink: "#222"}}
""")))
    assert [(c["s"], c["n"]) for c in deck.cards] == [("plus", 1)] * 3 + [("plus", 2)] + [("minus", 1)] * 3
    first, plus2 = deck.cards[0], deck.cards[3]
    assert first.get("lucky") is True and "lucky" not in plus2.attrs
    assert first.art.colors == {"ink": "#222222", "plus": "#0000ff"}
    assert plus2.art.colors["ink"] == "#111111"


def test_variants_exclude_and_restrict_groups(tmp_path):
    loaded = load_spec(write(tmp_path, """
game: g
name: G
variants:
  small: {exclude: [{s: b}]}
  big: {}
groups:
  - name: n
    generate: {s: [a, b]}
  - name: extra
    cards: [{s: x}]
    variants: [big]
"""))
    assert [c["s"] for c in expand(loaded, "small").cards] == ["a"]
    assert [c["s"] for c in expand(loaded, "big").cards] == ["a", "b", "x"]
    assert expand(loaded).variant == "small"


def test_components_are_counted_apart():
    deck = load_deck("stack")
    assert len(deck) == 52
    sizes = {k: len(v) for k, v in deck.components.items()}
    assert (sizes["terrains"], sizes["stack_tokens"], sizes["generated_markers"]) == (4, 8, 28)
    assert all(card.get("generated") for card in deck.components["generated_markers"])
    assert deck.components["stack_tokens"][0].size.width_mm == 25


def test_card_size_from_spec():
    deck = load_deck("calc")
    assert (deck.size.width_mm, deck.size.height_mm) == (63.5, 88.9)
    assert deck.size.bleed_mm == pytest.approx(3.175)


def test_explicit_size_in_inches(tmp_path):
    deck = expand(load_spec(write(tmp_path, "game: g\nname: G\ncard: {size: {width: 2in, height: 3in}, bleed: 0}\ngroups:\n  - name: n\n    cards: [{a: 1}]\n")))
    assert (deck.size.width_mm, deck.size.height_mm, deck.size.bleed_mm) == (50.8, 76.2, 0.0)


def test_override_that_matches_nothing_is_an_error(tmp_path):
    path = write(tmp_path, "game: g\nname: G\ngroups:\n  - name: n\n    generate: {a: [1]}\n    overrides:\n      - match: {a: 2}\n        copies: 2\n")
    with pytest.raises(SpecError) as info:
        expand(load_spec(path))
    assert (info.value.line, info.value.column) == (7, 16)


def test_images_inside_the_spec_folder_are_accepted(tmp_path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    Image.new("RGB", (10, 10), "red").save(tmp_path / "art" / "bg.png")
    deck = expand(load_spec(write(tmp_path, "game: g\nname: G\nart: {background_image: art/bg.png, back: {image: art/bg.png}}\ngroups:\n  - name: n\n    cards: [{a: 1}]\n")))
    assert deck.cards[0].art.background_image == (tmp_path / "art" / "bg.png").resolve()
    assert deck.art.back_image == deck.cards[0].art.background_image
