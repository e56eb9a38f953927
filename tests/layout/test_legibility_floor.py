"""A text's own legibility floor (``legibility_floor``): a caption small by design is held to a lower
floor than the card's ``min_text_size``, and only that text; a bad value is an error at the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.decks import load_all_variants
from printkit.layout import templates

from cli_in import invoke_in

# Two texts set at 4.8 pt (1.6934 mm, fit: none): a caption with its own floor, and a note without one.
SPEC = """\
game: example
name: Floors
card: {size: poker, bleed: 3mm, safe: 3mm}
art: {colors: {background: "#ffffff", ink: "#000000"}}
layouts:
  small:
    elements:
      - {name: caption, kind: text, text: STACK, x: 5mm, y: 5mm, width: 40mm, height: 5mm, size: 4.8pt,
         fit: none, legibility_floor: 4.5pt}
      - {name: note, kind: text, text: stack, x: 5mm, y: 15mm, width: 40mm, height: 5mm, size: 4.8pt,
         fit: none}
groups:
  - name: cards
    layout: small
    cards: [{title: A}]
"""


def face_warnings(folder: Path, spec: str) -> tuple[str, ...]:
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    [deck] = load_all_variants(folder / "deck.yaml")
    [card] = deck.cards
    return templates.front(card, deck).warnings


def test_a_texts_own_floor_silences_the_warning_for_that_text_only(tmp_path):
    [warning] = face_warnings(tmp_path, SPEC)
    assert "note: text set at 1.69 mm (4.8 pt), below the legibility floor of 2.12 mm (6 pt)" in warning
    assert "its own legibility_floor" in warning  # the message says how a caption small by design is marked


def test_a_text_below_its_own_floor_still_warns(tmp_path):
    [caption, _note] = face_warnings(tmp_path, SPEC.replace("legibility_floor: 4.5pt", "legibility_floor: 5pt"))
    assert "caption: text set at 1.69 mm (4.8 pt), below the legibility floor of 1.76 mm (5 pt)" in caption
    assert caption.endswith("or lower its legibility_floor")


def test_a_texts_own_floor_may_be_higher_than_the_cards(tmp_path):
    spec = SPEC.replace("size: 4.8pt,\n         fit: none}", "size: 7pt,\n         fit: none, legibility_floor: 8pt}")
    [warning] = face_warnings(tmp_path, spec.replace("legibility_floor: 4.5pt", "legibility_floor: 4pt"))
    assert "note: text set at 2.47 mm (7.0 pt), below the legibility floor of 2.82 mm (8 pt)" in warning


@pytest.mark.parametrize("value, message", [
    ("big", "expected a length such as '3mm' or '0.125in'"),
    ("0pt", "legibility_floor is the size below which this text is a warning; give a size such as 4.5pt"),
    ("-2pt", "a length cannot be negative"),
])
def test_a_bad_floor_is_an_error_at_the_key(tmp_path, value, message):
    spec = SPEC.replace("legibility_floor: 4.5pt", f"legibility_floor: {value}")
    (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    number, text = next((i, t) for i, t in enumerate(spec.splitlines(), 1) if "legibility_floor" in t)
    assert line.startswith(f"deck.yaml:{number}:{text.index(value) + 1}:"), line
    assert message in line, line


def test_a_floor_is_for_texts_only(tmp_path):
    spec = SPEC.replace("fit: none}", "fit: none}\n      - {kind: rect, fill: ink, legibility_floor: 4pt}", 1)
    (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1 and "'legibility_floor' does not apply to a rect element (it is for: text)" \
        in result.stderr, result.output
