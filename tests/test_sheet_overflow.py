"""A card's drawing never leaves the box its slot may paint: text too long for its card, drawn
past the card's edge, is cut at the cut line towards a neighbour and at the bleed's edge towards
the margin, so no other card, crop mark or margin on the sheet shows a pixel of it."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from cli_in import invoke_in
from PIL import ImageChops

from printkit.layout.geometry import paper_size
from printkit.layout.imposition import impose
from printkit.pipeline.build import load_decks

DPI = 100
PX_MM = DPI / 25.4
SHORT = "Return a hero from your discard pile to your hand."
LONG = " ".join([SHORT[:-1] + " and then do it again."] * 14)  # 20 lines at the smallest size: the card's height


def _sheet(tmp_path: Path, name: str, text: str, first: bool):
    """Page 1 of the starter's fronts sheet with Mend's text ``text``, Mend once, in slot 1 (``first``)
    or 9 (the last row's last card); the deck and the page as pixels."""
    folder = tmp_path / name
    folder.mkdir()
    assert invoke_in(folder, "new", "mygame").exit_code == 0
    game = folder / "mygame"
    cards = game / "cards.csv"
    header, *rows = cards.read_text(encoding="utf-8").splitlines(keepends=True)
    mend = next(r for r in rows if r.startswith("mend,")).replace(SHORT, text).replace(",,2\n", ",,1\n")
    rest = [r for r in rows if not r.startswith("mend,")]
    rows = [mend] + rest if first else rest[:4] + [mend] + rest[4:]
    cards.write_text(header + "".join(rows), encoding="utf-8")
    built = invoke_in(game, "build", "--no-rulebooks", "--no-proof")
    assert built.exit_code == 0, built.output
    pdf = pdfium.PdfDocument(str(game / "output" / "mygame" / "sheets-fronts-a4.pdf"))
    try:
        image = pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    (deck,) = load_decks([str(game / "mygame.yaml")])
    return deck, image


@pytest.mark.parametrize("first", [True, False], ids=["above-and-beside-cards", "last-row-over-the-margin"])
def test_an_overlong_text_paints_nothing_outside_its_cards_slot(tmp_path, first):
    deck, fitting = _sheet(tmp_path, "fits", SHORT, first)
    _, overlong = _sheet(tmp_path, "overflows", LONG, first)
    slot = impose(paper_size("a4"), deck.all_cards()[0].size).slots[0 if first else 8]
    changed = ImageChops.difference(fitting, overlong).getbbox()
    assert changed is not None
    left, top, right, bottom = changed
    paint = slot.paint
    # Pixels touched by the paint box's edge may blend; none a whole pixel beyond it changes.
    assert left >= int(paint.x_mm * PX_MM) and top >= int(paint.y_mm * PX_MM)
    assert right <= int(paint.right_mm * PX_MM) + 2 and bottom <= int(paint.bottom_mm * PX_MM) + 2
    # The text is seen down to the slot's edge: cut there, where an unclipped card below would
    # paint its own bleed over the top of it (and one in the last row paints on into the margin).
    assert bottom >= int(min(paint.bottom_mm, slot.trim.bottom_mm + 1) * PX_MM) - 1
