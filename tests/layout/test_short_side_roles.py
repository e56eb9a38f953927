"""Layouts measured by the card's shorter side (``%short``), naming its role in the rulebook's
languages (``{_role}``, ``{_languages}``, a lookup's ``"*"`` entry), and elements that step aside
(``clear_of``) or go with another (``when_drawn``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from printkit.decks import load_all_variants
from printkit.layout import templates
from printkit.layout.ops import Rect, Text
from printkit.render.png import render_face

from cli_in import check_in, place_of

DPI = 300
MM = DPI / 25.4

SPEC = """\
game: example
name: Shorts
card: {size: poker, bleed: 3mm, safe: 3mm}
art: {colors: {background: "#ffffff", ink: "#000000"}, back: {color: "#203040", label: SHORTS}}
lookups:
  kind: {en: AID, ko: 도움, "*": AID}
layouts:
  square:
    elements:
      - {name: box, kind: rect, x: 50% - 25%short, y: 50% - 25%short, width: 50%short, height: 50%short,
         radius: 5%short, fill: "#ff0000"}
      - {name: dots, kind: lattice, x: 0, y: 0, width: 10mm, height: 10mm, spacing: 10%short, fill: "#0000ff"}
  named:
    elements:
      - {name: role, kind: text, text: "{_role} {_languages}", x: 0, y: 0, width: 100%, height: 10mm, size: 3mm}
      - {name: first, kind: text, text: "{kind[_languages[0]]}", x: 0, y: 10mm, width: 100%, height: 10mm, size: 3mm}
      - {name: second, kind: text, text: "{kind[_languages[1]]}", when_has: "_languages[1]", x: 0, y: 20mm,
         width: 100%, height: 10mm, size: 3mm}
  chip:
    elements:
      - {name: names, kind: rect, x: 0, y: 0, width: 100%, height: 50%short, fill: "#00ff00"}
      - {name: chip, kind: rect, clear_of: names, x: 0, y: 50% - 5%short, width: 100%, height: 10%short,
         fill: "#ff0000"}
      - {name: label, kind: rect, when_drawn: chip, x: 0, y: 50%, width: 10mm, height: 1mm, fill: "#0000ff"}
groups:
  - name: cards
    layout: square
    cards: [{title: A}]
components:
  - name: wide
    layout: square
    size: {width: 88mm, height: 63mm}
    cards: [{title: B}]
  - name: aids
    role: aid
    back_layout: named
    cards: [{title: C}]
  - name: tall
    layout: chip
    cards: [{title: D}]
  - name: squat
    layout: chip
    size: {width: 88mm, height: 63mm}
    cards: [{title: E}]
"""


def deck_of(folder: Path, spec: str = SPEC, rules: tuple[str, ...] = ()):
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    for lang in rules:
        (folder / f"deck.rules.{lang}.md").write_text("# Rules\n\nPlay.\n", encoding="utf-8")
    [deck] = load_all_variants(folder / "deck.yaml")
    return deck


def card(deck, title):
    return next(c for c in deck.all_cards() if c.get("title") == title)


def red_extent(card, deck) -> tuple[float, float]:
    image = np.asarray(render_face(templates.front(card, deck), card.size, DPI).convert("RGB"), dtype=np.int16)
    ys, xs = np.nonzero((np.abs(image - np.array((255, 0, 0))).sum(axis=2) < 90))
    return (xs.max() + 1 - xs.min()) / MM, (ys.max() + 1 - ys.min()) / MM


@pytest.mark.parametrize("title, short", [("A", 63.5), ("B", 63.0)])  # poker upright; 88 x 63 mm lying
def test_a_share_of_the_shorter_side_is_the_same_on_a_portrait_and_a_landscape_card(tmp_path, title, short):
    deck = deck_of(tmp_path)
    width, height = red_extent(card(deck, title), deck)
    assert width == pytest.approx(short / 2, abs=0.2) and height == pytest.approx(short / 2, abs=0.2)
    face = templates.front(card(deck, title), deck)
    [box] = [op for op in face.ops if isinstance(op, Rect) and op.fill == "#ff0000"]
    assert box.radius_mm == pytest.approx(short / 20)


def test_a_patterns_spacing_may_be_a_share_of_the_shorter_side(tmp_path):
    deck = deck_of(tmp_path)
    shared = templates.front(card(deck, "A"), deck).ops
    in_mm = deck_of(tmp_path, SPEC.replace("spacing: 10%short", "spacing: 6.35mm"))
    assert shared == templates.front(card(in_mm, "A"), in_mm).ops  # 10% of 63.5 mm
    assert shared != templates.front(card(deck, "B"), deck).ops


@pytest.mark.parametrize("kind", ["lattice", "hatch"])
def test_a_share_of_nothing_is_the_smallest_spacing_not_a_pattern_without_end(tmp_path, kind):
    spec = SPEC.replace("kind: lattice", f"kind: {kind}")
    none = deck_of(tmp_path, spec.replace("spacing: 10%short", "spacing: 0%short"))
    smallest = deck_of(tmp_path, spec.replace("spacing: 10%short", "spacing: 0.5mm"))
    assert templates.front(card(none, "A"), none).ops == templates.front(card(smallest, "A"), smallest).ops


def texts(face) -> list[str]:
    return [op.text for op in face.ops if isinstance(op, Text)]


@pytest.mark.parametrize("rules, shown", [
    ((), ["aid en", "AID"]),
    (("ko",), ["aid ko", "도움"]),
    (("ko", "en"), ["aid en, ko", "AID", "도움"]),
    (("fr",), ["aid fr", "AID"]),  # a language the lookup has no entry for reads its "*" entry
])
def test_the_role_and_the_rulebooks_languages_english_first(tmp_path, rules, shown):
    deck = deck_of(tmp_path, rules=rules)
    assert texts(templates.back(card(deck, "C"), deck)) == shown


def test_a_rule_text_that_comes_or_goes_changes_the_languages_while_the_spec_stays(tmp_path):
    # The layouts are compiled once per spec's bytes; the languages are the deck's, read anew.
    def shown(deck):
        return texts(templates.back(card(deck, "C"), deck))

    assert shown(deck_of(tmp_path, rules=("ko", "en"))) == ["aid en, ko", "AID", "도움"]
    (tmp_path / "deck.rules.ko.md").unlink()
    assert shown(deck_of(tmp_path)) == ["aid en", "AID"]
    (tmp_path / "deck.rules.fr.md").write_text("# Règles\n\nJouez.\n", encoding="utf-8")
    assert shown(deck_of(tmp_path)) == ["aid en, fr", "AID", "AID"]


def test_a_deck_card_has_no_role(tmp_path):
    spec = SPEC.replace("layout: square\n    cards: [{title: A}]", "layout: named\n    cards: [{title: A}]")
    deck = deck_of(tmp_path, spec)
    assert texts(templates.front(card(deck, "A"), deck))[0] == "en"


def fills(face) -> list[str]:
    return [op.fill for op in face.ops if isinstance(op, Rect)]


def test_a_chip_steps_aside_when_the_names_reach_it_and_its_label_goes_with_it(tmp_path):
    deck = deck_of(tmp_path)
    # Half of 63.5 mm: short of a poker card's chip (its top 44.45 - 3.175 mm down), past a landscape one's
    # (31.75 - 3.175 mm)
    assert fills(templates.front(card(deck, "D"), deck))[1:] == ["#00ff00", "#ff0000", "#0000ff"]
    assert fills(templates.front(card(deck, "E"), deck))[1:] == ["#00ff00"]


@pytest.mark.parametrize("old, new, word, message", [
    ("clear_of: names", "clear_of: nams", "nams", "clear_of: unknown element 'nams' (did you mean 'names'?)"),
    ("clear_of: names", "clear_of: label", "label", "clear_of: 'label' is drawn after this element"),
    ("clear_of: names", "clear_of: chip", "chip, x", "clear_of: element 'chip' cannot name itself"),
    ("when_drawn: chip", "when_drawn: chips", "chips", "when_drawn: unknown element 'chips' (did you mean 'chip'?)"),
    ("width: 50%short", "width: -50%short", "-50%short", "width cannot be negative"),
    ("radius: 5%short", "radius: 5%shrt", "5%shrt", "a share of the card's shorter side such as '8%short', got '5%shrt'"),
    ("spacing: 10%short", "spacing: 10%%short", "10%%short", "a share of the card's shorter side such as '8%short'"),
    ("height: 50%short", "height: 50% short", "50% short", "'8%short'"),
])
def test_misused_they_are_errors_at_the_key(tmp_path, old, new, word, message):
    spec = SPEC.replace(old, new, 1)
    result = check_in(tmp_path, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(place_of(spec, new, word)), line
    assert message in line, line
