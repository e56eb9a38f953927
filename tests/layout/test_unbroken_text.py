"""A ``wrap: false`` text is made smaller rather than broken; one whose line is wider than its box
even at its ``min_size`` is still broken, and said so on that card by ``check`` and ``build``."""

from __future__ import annotations

from pathlib import Path

from printkit.decks import load_all_variants
from printkit.layout import design

from cli_in import invoke_in

SPEC = """\
game: w
name: W
card: {size: poker, bleed: 3mm, safe: 3mm}
layouts:
  f:
    elements:
      - {name: flat, kind: text, text: "{title}", x: 0, y: 0, width: 40mm, height: 8mm, frame: safe, size: 5mm,
         min_size: 3mm, wrap: false}
groups:
  - name: c
    layout: f
    cards:
      - {title: A much much longer title that overflows badly}
      - {title: A longer title made smaller}
      - {title: Short}
"""
LONG = ("c[title=A much much longer title that overflows badly]#1 flat: a line of this wrap: false text is wider "
        "than its box even at 3.00 mm (8.5 pt), its smallest size: it is broken onto more lines; give it a wider "
        "box, fewer words or a smaller min_size")


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "w.yaml").write_text(SPEC, encoding="utf-8")
    return tmp_path


def test_a_line_too_wide_even_at_its_minimum_is_said_on_its_card(tmp_path):
    [deck] = load_all_variants(_folder(tmp_path) / "w.yaml")
    said = {card.attrs["title"]: design.draw(deck.layouts["f"], card, deck.resources).warnings for card in deck.cards}
    assert said == {"A much much longer title that overflows badly": (LONG,),
                    "A longer title made smaller": (), "Short": ()}


def test_check_and_build_say_it_alike(tmp_path):
    folder = _folder(tmp_path)
    checked = invoke_in(folder, "check", "--no-play", "w.yaml")
    assert checked.exit_code == 0, checked.output
    assert [line.strip() for line in checked.output.splitlines() if "wrap: false" in line] == [f"warning: {LONG}"]
    built = invoke_in(folder, "build", "w.yaml", "--out", "out", "--jobs", "1", "--no-proof", "--no-rulebooks")
    assert built.exit_code == 0, built.output
    assert [line for line in built.stderr.splitlines() if "wrap: false" in line] == [f"warning: w: {LONG}"]
