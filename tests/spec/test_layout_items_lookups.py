"""A list attribute's items, lookups, hatching and an icon's outline in a spec's layouts:
what they draw, and each mistake as one line at the layout or at the card."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.decks import load_all_variants
from printkit.layout import templates
from printkit.layout.ops import Polygon, Text

from cli_in import assert_one_error, invoke_in, line_of

SPEC = """\
game: gems
name: Gems
art:
  colors: {background: "#ffffff", ink: "#222222", ruby: "#c8102e", gold: "#e0a800"}
lookups:
  names: {ruby: Ruby, gold: Gold}
  tints: {ruby: "mix(ruby, #ffffff, 0.8)", gold: "#fff4cc"}
layouts:
  card:
    elements:
      - {name: tint, kind: rect, frame: bleed, fill: "{tints[minerals[0]]}"}
      - {name: frame, kind: hatch, frame: bleed, border: 6mm, spacing: 4mm, fill: ink}
      - {name: first, kind: text, text: "{names[minerals[0]]}", y: 5mm, height: 10mm, frame: safe, size: 4mm}
      - {name: second, kind: text, text: "and {minerals[1]}", when_has: "minerals[1]", y: 15mm, height: 10mm,
         frame: safe, size: 4mm}
      - {name: gem, kind: icon, icon: "{minerals[0]}", stroke: "#ffffff", fit: square, x: 20mm, y: 40mm,
         width: 20mm, height: 20mm}
groups:
  - name: cards
    layout: card
    cards:
      - {minerals: [ruby]}
      - {minerals: [gold, ruby]}
"""


def run(folder: Path, spec: str):
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    return invoke_in(folder, "check", "deck.yaml", "--no-play")


def test_items_and_tables_pick_what_each_card_shows(tmp_path):
    assert run(tmp_path, SPEC).exit_code == 0
    [deck] = load_all_variants(tmp_path / "deck.yaml")
    one, two = deck.cards
    words = [[op.text for op in templates.front(c, deck).ops if isinstance(op, Text)] for c in (one, two)]
    assert words == [["Ruby"], ["Gold", "and ruby"]]
    fills = [templates.front(c, deck).ops[1].fill for c in (one, two)]
    assert fills == ["#f4cfd5", "#fff4cc"]  # the first mineral's entry of tints: a mix, then a colour


def test_a_hatch_stripes_only_its_border_and_an_icon_takes_its_outline(tmp_path):
    run(tmp_path, SPEC)
    [deck] = load_all_variants(tmp_path / "deck.yaml")
    face = templates.front(deck.cards[0], deck)
    stripes = [op for op in face.ops if isinstance(op, Polygon) and op.fill == "#222222"]
    assert len(stripes) > 20
    size = deck.cards[0].size
    for stripe in stripes:  # every stripe within 6 mm of the bleed's edge, none in the middle
        inside = [(x, y) for x, y in stripe.points
                  if -size.bleed_mm + 6 + 1e-6 < x < size.width_mm + size.bleed_mm - 6 - 1e-6
                  and -size.bleed_mm + 6 + 1e-6 < y < size.height_mm + size.bleed_mm - 6 - 1e-6]
        assert not inside, stripe
    gem = next(op for op in face.ops if isinstance(op, Polygon) and op.fill == "#c8102e")
    assert gem.stroke == "#ffffff"
    # fit: square: the icon's own square is the box, so the gem sits as Stack's cards place it.
    from printkit.games.stack.icons import mineral_icon

    assert gem == mineral_icon("ruby", 30, 50, 20, "#c8102e", halo="#ffffff")[0]


@pytest.mark.parametrize("change, needle, message", [
    (("{names[minerals[0]]}", "{nams[minerals[0]]}"), "nams[", "unknown lookup 'nams' (did you mean 'names'?)"),
    (("{minerals[1]}", "{minerals[1}"), "minerals[1}",
     "{minerals[1} is not an item such as {minerals[0]} nor a lookup such as {names[mineral]}"),
    (("{minerals[1]}", "{mineral[one]}"), "mineral[one]", "unknown lookup 'mineral'; known: names, tints"),
    (('when_has: "minerals[1]"', 'when_has: "minerals[x]"'), "minerals[x]",
     "expected an attribute name such as cost, or an item of one such as minerals[2], got 'minerals[x]'"),
    (("border: 6mm", "border: -6mm"), "border: -6mm", "a length cannot be negative"),
    (("spacing: 4mm", "spacing: 0mm"), "spacing: 0mm", "a pattern's spacing is at least 0.5mm, got '0mm'"),
    (("fill: \"{tints[minerals[0]]}\"}", "fill: \"{tints[minerals[0]]}\", border: 2mm}"), "border: 2mm}",
     "'border' does not apply to a rect element (it is for: hatch)"),
    (("fit: square", "fit: round"), "fit: round", "fit 'round' is not one of: contain, square"),
    (("lookups:\n  names:", "lookups:\n  names: 3\n  other:"), "names: 3", "names"),
    # An icon the layout names itself, not one a card's attribute names: every card would draw it.
    (('icon: "{minerals[0]}", stroke', 'icon: star, stroke'), "icon: star",
     "element 'gem': icon 'star' has no outline to colour with stroke"),
])
def test_mistakes_are_one_line_at_the_layout(tmp_path, change, needle, message):
    spec = SPEC.replace(*change)
    assert spec != SPEC
    assert_one_error(tmp_path, spec, needle, message)


@pytest.mark.parametrize("change, needle, message", [
    (("{minerals: [gold, ruby]}", "{minerals: [coal, ruby]}"), "coal, ruby",
     "element 'tint': lookup 'tints' has no entry 'coal' (entries: ruby, gold)"),
    (('when_has: "minerals[1]", ', ""), "{minerals: [ruby]}",
     "element 'second': the card has no attribute 'minerals' with an item 1 (counted from 0); give it one, or "
     "add 'when_has: minerals[1]'"),
])
def test_card_mistakes_name_the_card(tmp_path, change, needle, message):
    spec = SPEC.replace(*change)
    assert spec != SPEC
    result = run(tmp_path, spec)
    assert result.exit_code == 1, result.output
    line = result.stderr.strip().splitlines()[0]
    assert f"deck.yaml:{line_of(spec, needle)}:" in line, line
    assert message in line, line


def test_back_image_steps_a_back_layouts_drawing_aside(tmp_path):
    from PIL import Image as PILImage

    PILImage.new("RGB", (20, 30), "#336699").save(tmp_path / "back.png")
    spec = SPEC.replace("    layout: card\n", "    layout: card\n    back_layout: back\n").replace(
        "groups:", "  back:\n    elements:\n      - {name: mark, kind: rect, when_lacks: _back_image, x: 5mm, "
                   "y: 5mm, width: 5mm, height: 5mm, fill: ink}\ngroups:")
    assert run(tmp_path, spec).exit_code == 0
    [plain] = load_all_variants(tmp_path / "deck.yaml")
    (tmp_path / "deck.yaml").write_text(spec.replace("art:\n", "art:\n  back: {image: back.png}\n"), encoding="utf-8")
    [pictured] = load_all_variants(tmp_path / "deck.yaml")
    marks = [[op for op in templates.back(d.cards[0], d).ops if getattr(op, "w_mm", None) == 5] for d in (plain, pictured)]
    assert [len(m) for m in marks] == [1, 0]


def test_keep_words_moves_a_korean_word_whole_to_the_next_line(tmp_path):
    spec = SPEC.replace("{name: first, kind: text, text: \"{names[minerals[0]]}\"",
                        "{name: first, kind: text, text: \"짧은 여섯글자낱말 하나\", "
                        "width: 25mm, fit: none, keep_words: true")
    seen = {}
    for keep in ("true", "false"):
        run(tmp_path, spec.replace("keep_words: true", f"keep_words: {keep}"))
        [deck] = load_all_variants(tmp_path / "deck.yaml")
        face = templates.front(deck.cards[0], deck)
        seen[keep] = [op.text for op in face.ops if isinstance(op, Text) and op.y_mm < 20]
    words = "짧은 여섯글자낱말 하나".split()
    assert all(piece in words for line in seen["true"] for piece in line.split())  # never a piece of a word
    assert any(piece not in words for line in seen["false"] for piece in line.split())


def test_a_scene_stretches_to_its_box(tmp_path):
    spec = SPEC.replace('icon: "{minerals[0]}", stroke: "#ffffff", fit: square, x: 20mm, y: 40mm,\n         width: 20mm, height: 20mm',
                        'icon: scene_eldorado, fit: stretch, x: 5mm, y: 40mm,\n         width: 50mm, height: 15mm')
    assert spec != SPEC and run(tmp_path, spec).exit_code == 0
    [deck] = load_all_variants(tmp_path / "deck.yaml")
    face = templates.front(deck.cards[0], deck)
    from printkit.layout.ops import Rect

    sky = next(op for op in face.ops if isinstance(op, Rect) and op.radius_mm > 0)  # the scene's first shape
    assert (sky.x_mm, sky.y_mm, sky.w_mm, sky.h_mm) == (5, 40, 50, 15)
