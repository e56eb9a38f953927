"""An extending layout removes inherited elements and places new ones before or after a named one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image as PILImage

from printkit.decks import load_all_variants

from cli_in import invoke_in

# Red band, then a blue square overlapping it; 'stamp' extends it, drawing a green square *before*
# the band (under it) and a yellow one *after* it (over it, under the blue), and drops 'note'.
SPEC = """\
game: example
name: Z
card: {size: square, bleed: 0mm, safe: 3mm}
layouts:
  base:
    elements:
      - {name: band, kind: rect, x: 0, y: 0, width: 50%, height: 50%, fill: "#ff0000"}
      - {name: blue, kind: rect, x: 40%, y: 40%, width: 20%, height: 20%, fill: "#0000ff"}
      - {name: note, kind: rect, x: -0mm, y: -0mm, width: 10mm, height: 10mm, fill: "#000000"}
  stamp:
    extends: base
    remove: [note]
    elements:
      - {name: under, kind: rect, before: band, x: 10%, y: 10%, width: 20%, height: 20%, fill: "#00ff00"}
      - {name: over, kind: rect, after: band, x: 30%, y: 30%, width: 20%, height: 20%, fill: "#ffff00"}
groups:
  - name: cards
    layout: stamp
    cards: [{id: one}]
"""


def write(folder: Path, spec: str) -> Path:
    path = folder / "deck.yaml"
    path.write_text(spec, encoding="utf-8")
    return path


def test_remove_before_and_after_set_the_drawing_order(tmp_path):
    [deck] = load_all_variants(write(tmp_path, SPEC))
    assert [e.name for e in deck.layouts["stamp"].elements] == ["under", "band", "over", "blue"]
    assert [e.name for e in deck.layouts["base"].elements] == ["band", "blue", "note"]


def test_the_printed_card_draws_in_that_order(tmp_path):
    import pypdfium2

    write(tmp_path, SPEC)
    built = invoke_in(tmp_path, "build", "deck.yaml", "--no-rulebooks", "--per-card", "--out", "out")
    assert built.exit_code == 0, built.output
    [front] = [p for p in (tmp_path / "out" / "deck" / "cards").glob("*.pdf") if not p.name.startswith("back-")]
    page = pypdfium2.PdfDocument(front.read_bytes())[0]
    image = page.render(scale=1).to_pil().convert("RGB")
    w, h = image.size

    def at(fx: float, fy: float) -> tuple[int, int, int]:
        return image.getpixel((int(w * fx), int(h * fy)))

    assert at(0.2, 0.2) == (255, 0, 0)  # the green square is under the band: red shows
    assert at(0.35, 0.35) == (255, 255, 0)  # the yellow one is over the band
    assert at(0.45, 0.45) == (0, 0, 255)  # and under the blue square inherited after the band
    assert at(0.97, 0.97) == (255, 255, 255)  # the removed black note is not drawn


def test_a_replacing_element_with_after_moves(tmp_path):
    spec = SPEC.replace("{name: over, kind: rect, after: band,", "{name: band, kind: rect, after: blue,")
    [deck] = load_all_variants(write(tmp_path, spec))
    assert [e.name for e in deck.layouts["stamp"].elements] == ["under", "blue", "band"]


@pytest.mark.parametrize("change, needle, message", [
    (("remove: [note]", "remove: [nots]"), "remove: [nots]",
     "unknown element of layout 'base' 'nots' (did you mean 'note'?); known: band, blue, note"),
    (("before: band", "before: bnad"), "before: bnad",
     "unknown element 'bnad' (did you mean 'band'?); known: band, blue"),
    (("after: band", "after: note"), "after: note",
     "unknown element 'note'; known: band, blue, under"),
    (("after: band", "after: over"), "after: over", "element 'over' cannot be placed next to itself"),
    (("after: band,", "after: band, before: blue,"), "after: band, before",
     "an element is placed either 'before' or 'after' another, not both"),
    (("    extends: base\n    remove: [note]\n", "    remove: [note]\n"), "remove: [note]",
     "layout 'stamp' extends no layout, so it has no element 'note' to remove"),
])
def test_unknown_names_are_located_errors(tmp_path, change, needle, message):
    spec = SPEC.replace(*change)
    write(tmp_path, spec)
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    number = next(i for i, text in enumerate(spec.splitlines(), 1) if needle in text)
    assert line.startswith(f"deck.yaml:{number}:"), line
    assert message in line, line
