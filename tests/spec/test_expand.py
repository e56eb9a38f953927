from pathlib import Path

import pytest

from printkit.errors import SpecError
from printkit.spec import load_spec
from printkit.decks import expand, load_deck


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


# --- mistakes a designer makes that must stop at their place in the spec ------------------------

def error_of(path: Path, variant: str | None = None) -> SpecError:
    with pytest.raises(SpecError) as info:
        expand(load_spec(path), variant)
    return info.value


def located(path: Path, error: SpecError) -> tuple[str, str]:
    """The spec line the error points at (from its column on), and its message."""
    line = path.read_text(encoding="utf-8").splitlines()[error.line - 1]
    return line[error.column - 1:], error.message


FRUIT = """game: orchard
name: Orchard
count_by: [fruit, value]
groups:
  - name: fruit
    generate: {fruit: [apple, pear], value: [1, 2]}
    overrides:
      - match: {value: 2}
        attrs: {title: Gold}
  - name: specials
    cards: [{kind: crow, text: Steal}]
"""


def test_count_by_an_attribute_no_card_has(tmp_path):
    path = write(tmp_path, FRUIT.replace("count_by: [fruit, value]", "count_by: [fruit, valeu]"))
    error = error_of(path)
    assert located(path, error) == (
        "valeu]", "no card has attribute 'valeu' (cards have: fruit, kind, text, title, value); did you mean 'value'?")


def test_count_by_an_attribute_of_some_variant_only_is_fine(tmp_path):
    text = FRUIT.replace("count_by: [fruit, value]", "count_by: [fruit, kind]") + "    variants: [full]\n"
    deck = expand(load_spec(write(tmp_path, text + "variants:\n  family: {}\n  full: {}\n")), "family")
    assert deck.count_by == ("fruit", "kind") and len(deck) == 4


def test_expected_counts_by_an_attribute_no_card_has(tmp_path):
    path = write(tmp_path, FRUIT + "expect:\n  by:\n    frut: {apple: 2}\n")
    assert located(path, error_of(path)) == (
        "frut: {apple: 2}", "no card has attribute 'frut' (cards have: fruit, kind, text, title, value); did you mean 'fruit'?")
    path = write(tmp_path, FRUIT + "variants:\n  small:\n    expect: {by: {colour: {red: 1}}}\n")
    assert located(path, error_of(path)) == (
        "colour: {red: 1}}}", "no card has attribute 'colour' (cards have: fruit, kind, text, title, value)")


def test_a_variant_without_cards_is_an_error(tmp_path):
    text = FRUIT.replace("  - name: fruit\n", "  - name: fruit\n    variants: [full]\n")
    text = text.replace("  - name: specials\n", "  - name: specials\n    variants: [full]\n")
    path = write(tmp_path, text + "variants:\n  family:\n    description: For children.\n  full: {}\n")
    assert located(path, error_of(path, "family")) == (
        "family:", "variant 'family' has no cards (every group is limited to other variants)")
    assert len(expand(load_spec(path), "full")) == 5


def test_a_variant_whose_exclusions_leave_no_cards_is_an_error(tmp_path):
    text = FRUIT.replace("    overrides:\n      - match: {value: 2}\n        attrs: {title: Gold}\n", "")
    path = write(tmp_path, text + "variants:\n  none:\n    exclude: [{fruit: [apple, pear]}, {kind: crow}]\n")
    assert located(path, error_of(path)) == ("none:", "variant 'none' has no cards")


def test_a_deck_without_cards_is_an_error(tmp_path):
    path = write(tmp_path, "game: g\nname: G\ngroups:\n  - name: n\n    cards: [{a: 1}]\n    copies: 0\n")
    assert located(path, error_of(path)) == ("- name: n", "the deck has no cards")


def test_a_variant_exclusion_that_matches_nothing_names_the_variant(tmp_path):
    path = write(tmp_path, FRUIT + "variants:\n  family:\n    exclude: [{kind: crows}]\n")
    assert located(path, error_of(path)) == (
        "{kind: crows}]", "exclusion {'kind': 'crows'} of variant 'family' matches no card")
    path = write(tmp_path, FRUIT + "variants:\n  family:\n    exclude: [{knd: crow}]\n")
    assert located(path, error_of(path)) == (
        "knd: crow}]", "exclusion {'knd': 'crow'} of variant 'family' matches no card: "
                       "no card has attribute 'knd' (cards have: fruit, kind, text, title, value); did you mean 'kind'?")


def test_a_match_on_an_attribute_no_card_has_says_so(tmp_path):
    path = write(tmp_path, FRUIT.replace("match: {value: 2}", "match: {vlaue: 2}"))
    assert located(path, error_of(path)) == (
        "vlaue: 2}", "override match {'vlaue': 2} matches no card in group 'fruit': "
                     "no card has attribute 'vlaue' (cards have: fruit, title, value); did you mean 'value'?")
    path = write(tmp_path, FRUIT.replace("    overrides:", "    exclude: [{valu: 1}]\n    overrides:"))
    assert located(path, error_of(path)) == (
        "valu: 1}]", "exclusion {'valu': 1} matches no card in group 'fruit': "
                     "no card has attribute 'valu' (cards have: fruit, title, value); did you mean 'value'?")


def test_a_corner_radius_over_half_the_card_is_an_error(tmp_path):
    path = write(tmp_path, "game: g\nname: G\ncard: {size: poker, corner_radius: 40mm}\ngroups:\n  - name: n\n    cards: [{a: 1}]\n")
    assert located(path, error_of(path)) == (
        "40mm}", "corner radius 40 mm is more than half the card's shorter side: at most 31.75 mm on a 63.5x88.9 mm card")
    path.write_text(path.read_text().replace("40mm", "31.75mm"))
    assert expand(load_spec(path)).size.corner_radius_mm == 31.75


def test_a_small_component_rounds_its_corners_as_far_as_it_can(tmp_path):
    path = write(tmp_path, "game: g\nname: G\ncard: {corner_radius: 8mm}\ngroups:\n  - name: n\n    cards: [{a: 1}]\n"
                           "components:\n  - name: t\n    size: {width: 12mm, height: 14mm}\n    cards: [{b: 1}]\n")
    assert expand(load_spec(path)).components["t"][0].size.corner_radius_mm == 6


def test_a_safe_zone_that_leaves_no_room_says_the_limit(tmp_path):
    path = write(tmp_path, "game: g\nname: G\ncard: {size: poker, safe: 30mm}\ngroups:\n  - name: n\n    cards: [{a: 1}]\n")
    assert located(path, error_of(path)) == (
        "30mm}", "safe zone 30 mm leaves no room on a 63.5x88.9 mm card: "
                 "at most 29.75 mm keeps the 4 mm its text needs inside it")
    path.write_text(path.read_text().replace("30mm", "29.75mm"))
    assert expand(load_spec(path)).size.safe_mm == 29.75
    path = write(tmp_path, "game: g\nname: G\ncard: {safe: 14mm}\ngroups:\n  - name: n\n    cards: [{a: 1}]\n"
                           "components:\n  - name: tokens\n    size: {width: 30mm, height: 30mm}\n    cards: [{b: 1}]\n")
    assert located(path, error_of(path)) == (
        "14mm}", "safe zone 14 mm leaves no room on the 30x30 mm cards of group 'tokens': "
                 "at most 13 mm keeps the 4 mm its text needs inside it")


def test_a_card_larger_than_the_paper_stops_at_its_size(tmp_path):
    path = write(tmp_path, "game: g\nname: G\ngroups:\n  - name: n\n    cards: [{a: 1}]\n"
                           "components:\n  - name: board\n    size: {width: 400mm, height: 300mm}\n    cards: [{b: 1}]\n")
    assert located(path, error_of(path)) == (
        "{width: 400mm, height: 300mm}", "a 400x300 mm card does not fit on 210x297 mm (A4) "
                                         "or 215.9x279.4 mm (Letter) paper with a 4 mm margin")
    path = write(tmp_path, "game: g\nname: G\ncard: {size: {width: 100mm, height: 290mm}}\ngroups:\n  - name: n\n    cards: [{a: 1}]\n")
    assert located(path, error_of(path))[0] == "{width: 100mm, height: 290mm}}"


def test_a_whole_page_component_may_name_any_size(tmp_path):
    """A page (``sheet: ...``) prints on the build's paper: its size is neither fitted nor judged."""
    pages = ("game: g\nname: G\ngroups:\n  - name: n\n    cards: [{a: 1}]\n"
             "components:\n  - name: sheets\n    size: {width: 210mm, height: 297mm}\n"
             "    cards: [{sheet: score, lang: en}]\n")
    path = write(tmp_path, pages)
    assert [c["sheet"] for c in expand(load_spec(path)).components["sheets"]] == ["score"]
    # A group that also prints a card on the card sheets must fit them.
    mixed = write(tmp_path, pages.replace("cards: [{sheet: score, lang: en}]",
                                                     "cards: [{sheet: score, lang: en}, {token: x}]"))
    assert located(mixed, error_of(mixed))[0] == "{width: 210mm, height: 297mm}"
    # Pages by an override's doing, or because the one card that is not a page is excluded, are pages too.
    by_override = write(tmp_path, pages.replace(
        "cards: [{sheet: score, lang: en}]", "cards: [{kind: score}]\n    overrides: [{match: {kind: score}, attrs: {sheet: score}}]"))
    assert [c["sheet"] for c in expand(load_spec(by_override)).components["sheets"]] == ["score"]
    excluded = write(tmp_path, pages.replace(
        "cards: [{sheet: score, lang: en}]", "cards: [{sheet: score, lang: en}, {token: x}]\n    exclude: [{token: x}]"))
    assert len(expand(load_spec(excluded)).components["sheets"]) == 1


def test_count_by_an_attribute_only_components_have_says_so(tmp_path):
    path = write(tmp_path, FRUIT.replace("count_by: [fruit, value]", "count_by: [fruit, aid]")
                 + "components:\n  - name: aids\n    cards: [{aid: turn}]\n")
    assert located(path, error_of(path)) == (
        "aid]", "only components (aids) have attribute 'aid'; counts are of the deck's cards, not its components")


@pytest.mark.parametrize("width, height", [(202, 289), (202.1, 100), (100, 289.1), (289, 202), (195, 282),
                                           (196, 282), (207.9, 271.4), (271.4, 207.9), (208, 200), (280, 200)])
def test_the_paper_check_agrees_with_imposition(tmp_path, width, height):
    """A size expand accepts lays out on A4 or Letter; one it refuses fits neither."""
    from printkit.deck import CardSize
    from printkit.errors import BuildError
    from printkit.layout.geometry import PAPER_SIZES_MM
    from printkit.layout.imposition import impose

    fits = []
    for paper in ("a4", "letter"):
        try:
            impose(PAPER_SIZES_MM[paper], CardSize(width, height, 0, 0, 0))
            fits.append(paper)
        except BuildError:
            pass
    path = write(tmp_path, f"game: g\nname: G\ncard: {{size: {{width: {width}mm, height: {height}mm}}, bleed: 0}}\n"
                           "groups:\n  - name: n\n    cards: [{a: 1}]\n")
    if fits:
        deck = expand(load_spec(path))
        assert deck.size.width_mm == width
        # A build on a paper it does not fit is refused at the size: the same papers.
        refused = [paper for paper in ("a4", "letter") if deck.paper_error(paper, width, height) is not None]
        assert sorted(refused) == sorted({"a4", "letter"} - set(fits))
    else:
        assert "does not fit" in error_of(path).message


def test_a_variant_without_groups_is_reported_before_its_exclusions(tmp_path):
    text = FRUIT.replace("  - name: fruit\n", "  - name: fruit\n    variants: [full]\n")
    text = text.replace("  - name: specials\n", "  - name: specials\n    variants: [full]\n")
    path = write(tmp_path, text + "variants:\n  family:\n    exclude: [{kind: crow}]\n  full: {}\n")
    assert located(path, error_of(path, "family"))[1] == "variant 'family' has no cards (every group is limited to other variants)"


def test_a_match_for_true_where_the_cards_say_yes_explains_yaml_1_2(tmp_path):
    path = write(tmp_path, "game: g\nname: G\ngroups:\n  - name: fruit\n"
                           "    cards: [{kind: apple, rare: yes}, {kind: pear, rare: no}]\n"
                           "    overrides:\n      - match: {rare: true}\n        attrs: {title: Rare}\n")
    assert located(path, error_of(path)) == (
        "rare: true}", "override match {'rare': True} matches no card in group 'fruit': the cards' 'rare' is the text "
                       "'yes', not true (only true and false are yes/no values): match 'yes', or write true/false on "
                       "the cards")


def test_a_deck_over_the_card_limit_names_the_running_total(tmp_path, monkeypatch):
    from printkit.spec import expand as expand_module

    monkeypatch.setattr(expand_module, "MAX_CARDS", 10)
    path = write(tmp_path, """game: orchard
name: Orchard
groups:
  - name: apples
    cards: [{n: 1}, {n: 2}]
    copies: 3
  - name: pears
    cards: [{n: 3}]
    copies: 2
  - name: crows
    cards: [{n: 4}]
    copies: 5
""")
    text, message = located(path, error_of(path))
    assert text == "name: crows"
    assert message == ("the deck would have more than 10 cards: 8 so far (apples 6, pears 2), and the next card of "
                       "group 'crows' adds 5; split the deck into two specs or lower the copies")
