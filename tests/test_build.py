"""The build pipeline end to end: files, manifest, duplex alignment on pixels, reproducibility, safety."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image as PILImage
from pypdf import PdfReader

from printkit.pipeline.context import BuildOptions
from printkit.pipeline.producers import produce_alignment, produce_cards, produce_pages, produce_proof, produce_sheets
from printkit.pipeline.names import deck_folder, per_card_files
from printkit.pipeline.build import build as run_build
from printkit.cli import main
from printkit.deck import Art, Card, CardSize, Deck
from printkit.errors import BuildError, PrintkitError, error_lines
from printkit.layout.geometry import paper_size
from printkit.layout.imposition import impose, sheet_pages
from printkit.layout.ops import Face, Rect

POKER = CardSize(63.5, 88.9, bleed_mm=3.175)
DPI = 72
# Nine clearly different colours: card i shows colour i on its front and on its back.
COLORS = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#000075",
          "#800000", "#aaffc3"]


def build(decks, options, producers=(produce_sheets, produce_pages, produce_alignment, produce_cards)):
    """The card outputs only: the synthetic decks here have no rulebook."""
    return run_build(decks, options, producers=producers)


def colour_deck(n: int = 11, size: CardSize = POKER, variant: str | None = "v1", components=None) -> Deck:
    cards = tuple(
        Card(f"c-{i:03d}", "cards", {"n": i},
             Art(colors={"background": COLORS[i % len(COLORS)]}, back_color=COLORS[i % len(COLORS)]), size)
        for i in range(n)
    )
    return Deck(game="colourtest", name="Colour test", deck_id="colours", variant=variant,
                spec_path=Path("colours.yaml"), size=size, art=Art(), cards=cards, components=components or {})


def rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def page_image(path: Path, index: int) -> PILImage.Image:
    return pdfium.PdfDocument(path)[index].render(scale=DPI / 72).to_pil().convert("RGB")


def sample(image: PILImage.Image, x_mm: float, y_mm: float):
    return image.getpixel((int(x_mm * DPI / 25.4), int(y_mm * DPI / 25.4)))


def near(a, b, tol=30):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    result = build([colour_deck()], BuildOptions(out_dir=out, per_card=True))
    return out, result


def test_build_writes_sheets_alignment_cards_and_manifest(built):
    out, result = built
    paths = {e.path for e in result.entries}
    assert {"colours/v1/sheets-a4.pdf", "colours/v1/sheets-fronts-a4.pdf", "alignment-a4.pdf"} <= paths
    assert "colours/v1/cards/001-cards-1.pdf" in paths and "colours/v1/cards/001-cards-1.png" in paths
    sheets = next(e for e in result.entries if e.kind == "sheets")
    assert (sheets.pages, sheets.cards, sheets.paper, sheets.deck, sheets.variant) == (4, 11, "a4", "colours", "v1")
    fronts = next(e for e in result.entries if e.kind == "sheets-fronts")
    assert fronts.pages == 2
    reader = PdfReader(out / sheets.path)
    assert len(reader.pages) == 4
    page = reader.pages[0]
    a4_pt = [0, 0, 210 * 72 / 25.4, 297 * 72 / 25.4]
    for box in (page.mediabox, page.trimbox, page.bleedbox):  # a sheet is printed, not trimmed, whole
        assert [float(v) for v in box] == pytest.approx(a4_pt, abs=0.01)


def test_manifest_lists_every_file_with_its_hash(built):
    out, result = built
    manifest = json.loads((out / "manifest.json").read_text())
    listed = {f["path"]: f for f in manifest["files"]}
    on_disk = {str(p.relative_to(out)) for p in out.rglob("*")
               if p.is_file() and ".printkit-cache" not in p.parts} - {"manifest.json"}
    assert set(listed) == on_disk
    for path, entry in listed.items():
        assert hashlib.sha256((out / path).read_bytes()).hexdigest() == entry["sha256"]
        assert {"path", "deck", "variant", "kind", "paper", "pages", "cards", "sha256"} <= set(entry)
    assert not [p for p in out.rglob("*.tmp")]


def _card_point(slot, u_mm: float, v_mm: float) -> tuple[float, float]:
    """The page point of card-frame point (u, v) in ``slot`` (cards may be quarter-turned)."""
    x, y = slot.origin
    return {0: (x + u_mm, y + v_mm), 90: (x - v_mm, y + u_mm), 270: (x + v_mm, y - u_mm)}[slot.clockwise_deg]


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_backs_sit_behind_their_fronts_after_the_flip(tmp_path, flip, paper_name):
    result = build([colour_deck()], BuildOptions(out_dir=tmp_path, flip=flip, paper=paper_name),
                   producers=(produce_sheets,))
    sheets = tmp_path / next(e.path for e in result.entries if e.kind == "sheets")
    layout = impose(paper_size(paper_name), POKER)
    n = layout.per_page  # 9 on A4, 8 (turned) on Letter
    front, back = page_image(sheets, 0), page_image(sheets, 1)
    # Turn the back page over the chosen edge: then each back must show its own front's colour.
    flip_image = PILImage.Transpose.FLIP_LEFT_RIGHT if flip == "long" else PILImage.Transpose.FLIP_TOP_BOTTOM
    turned = back.transpose(flip_image)
    # A point in the card's lower part, inside the safe zone, where the generic template draws nothing.
    points = [_card_point(s, 20, 80) for s in layout.slots]
    assert [near(sample(front, *points[i]), rgb(COLORS[i])) for i in range(n)] == [True] * n
    assert [near(sample(turned, *points[i]), rgb(COLORS[i])) for i in range(n)] == [True] * n
    # The second sheet holds the cards after the first n in its first slots; the back page follows it.
    second_front, turned = page_image(sheets, 2), page_image(sheets, 3).transpose(flip_image)
    assert near(sample(turned, *points[1]), rgb(COLORS[(n + 1) % len(COLORS)]))
    assert near(sample(second_front, *points[1]), rgb(COLORS[(n + 1) % len(COLORS)]))


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_a_back_stands_as_its_front_does_after_either_flip(tmp_path, flip, paper_name):
    """A card turned over in the hand shows its back the right way up: whichever edge the printer
    turns the paper over, the back's top-left corner lies behind the front's top-right corner."""
    from printkit.render.pdf import render_pages

    white = Rect(0, 0, 63.5, 88.9, fill="#ffffff", stroke=None)
    front = Face((white, Rect(0, 0, 15, 15, fill="#ff0000", stroke=None)))
    back = Face((white, Rect(0, 0, 15, 15, fill="#0000ff", stroke=None)))
    layout = impose(paper_size(paper_name), POKER)
    (tmp_path / "t.pdf").write_bytes(render_pages(sheet_pages(layout, [front], [back], flip)))
    seen = page_image(tmp_path / "t.pdf", 0)
    flip_image = PILImage.Transpose.FLIP_LEFT_RIGHT if flip == "long" else PILImage.Transpose.FLIP_TOP_BOTTOM
    behind = page_image(tmp_path / "t.pdf", 1).transpose(flip_image)  # the back page seen through the paper
    slot = layout.slots[0]
    assert near(sample(seen, *_card_point(slot, 5, 5)), (255, 0, 0))
    assert near(sample(behind, *_card_point(slot, 63.5 - 5, 5)), (0, 0, 255))
    assert near(sample(behind, *_card_point(slot, 5, 88.9 - 5)), (255, 255, 255))


def test_turned_cards_are_drawn_top_to_the_right_with_backs_the_other_way(tmp_path):
    """On Letter a card's top-left corner lands at its footprint's top-right; its back's at the bottom-left."""
    from printkit.render.pdf import render_pages

    marked = Face((Rect(0, 0, 63.5, 88.9, fill="#ffffff", stroke=None), Rect(0, 0, 15, 15, fill="#ff0000", stroke=None)))
    layout = impose(paper_size("letter"), POKER)
    assert layout.clockwise_deg == 90
    (tmp_path / "t.pdf").write_bytes(render_pages(sheet_pages(layout, [marked], [marked], "long")))
    front, back = page_image(tmp_path / "t.pdf", 0), page_image(tmp_path / "t.pdf", 1)
    trim = layout.slots[0].trim
    assert near(sample(front, trim.right_mm - 5, trim.y_mm + 5), (255, 0, 0))
    assert near(sample(front, trim.x_mm + 5, trim.y_mm + 5), (255, 255, 255))
    behind = layout.back_slots("long")[0].trim
    assert near(sample(back, behind.x_mm + 5, behind.bottom_mm - 5), (255, 0, 0))
    assert near(sample(back, behind.right_mm - 5, behind.y_mm + 5), (255, 255, 255))


def test_back_offset_moves_the_backs(tmp_path):
    build([colour_deck(1)], BuildOptions(out_dir=tmp_path / "a"), producers=(produce_sheets,))
    build([colour_deck(1)], BuildOptions(out_dir=tmp_path / "b", back_offset_mm=(5.0, 0.0)), producers=(produce_sheets,))
    layout = impose(paper_size("a4"), POKER)
    slot = layout.back_slots("long")[0].trim
    plain = page_image(tmp_path / "a/colours/v1/sheets-a4.pdf", 1)
    moved = page_image(tmp_path / "b/colours/v1/sheets-a4.pdf", 1)
    # 5 mm right as seen from the front is 5 mm left on the back page of a long-edge flip.
    probe = (slot.right_mm - 1.0, slot.cy_mm)  # the moved card's outer bleed ends 1.8 mm before this
    assert near(sample(plain, *probe), rgb(COLORS[0]))
    assert not near(sample(moved, *probe), rgb(COLORS[0]))
    assert near(sample(moved, slot.x_mm - 2.5, slot.cy_mm), rgb(COLORS[0]))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_print_in_the_margins_and_nowhere_else(tmp_path, paper):
    white = colour_deck(9)
    white = Deck(**{**white.__dict__, "cards": tuple(
        Card(c.uid, c.group, {}, Art(colors={"background": "#ffffff", "ink": "#ffffff"}), POKER) for c in white.cards)})
    build([white], BuildOptions(out_dir=tmp_path, paper=paper), producers=(produce_sheets,))
    image = page_image(tmp_path / f"colours/v1/sheets-fronts-{paper}.pdf", 0).convert("L")
    layout = impose(paper_size(paper), POKER)
    scale = DPI / 25.4
    dark = [(x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y)) < 128]
    assert dark, "crop marks are missing"
    border = 4.0 * scale - 1  # what home printers cannot print: no mark may need it
    assert all(border <= x <= image.width - 1 - border and border <= y <= image.height - 1 - border for x, y in dark)
    grid_left = min(s.paint.x_mm for s in layout.slots) * scale
    grid_right = max(s.paint.right_mm for s in layout.slots) * scale
    grid_top = min(s.paint.y_mm for s in layout.slots) * scale
    grid_bottom = max(s.paint.bottom_mm for s in layout.slots) * scale
    for x, y in dark:
        inside = grid_left + 1 < x < grid_right - 1 and grid_top + 1 < y < grid_bottom - 1
        assert not inside, f"dark pixel at {(x, y)} inside the card area"
    # Marks are in all four margins.
    assert any(y < grid_top for _, y in dark) and any(y > grid_bottom for _, y in dark)
    assert any(x < grid_left for x, _ in dark) and any(x > grid_right for x, _ in dark)


def test_cards_are_clipped_to_their_slot_on_sheets(tmp_path):
    # Without a gap, a card's bleed must not paint over its neighbour.
    build([colour_deck(9)], BuildOptions(out_dir=tmp_path), producers=(produce_sheets,))
    image = page_image(tmp_path / "colours/v1/sheets-fronts-a4.pdf", 0)
    layout = impose(paper_size("a4"), POKER)
    a, b = layout.slots[0].trim, layout.slots[1].trim
    assert near(sample(image, a.right_mm - 1, a.cy_mm + 30), rgb(COLORS[0]))
    assert near(sample(image, b.x_mm + 1, b.cy_mm + 30), rgb(COLORS[1]))


def test_per_card_pdf_boxes_and_png_size(built):
    out, _ = built
    pt = 72 / 25.4
    for name in ("001-cards-1.pdf", "back-1.pdf"):  # the front, and the back as a file of its own
        reader = PdfReader(out / "colours/v1/cards" / name)
        page = reader.pages[0]
        assert len(reader.pages) == 1
        assert float(page.mediabox.width) == pytest.approx(69.85 * pt, abs=0.01)
        assert float(page.trimbox.left) == pytest.approx(3.175 * pt, abs=0.01)
        assert float(page.trimbox.width) == pytest.approx(63.5 * pt, abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([float(v) for v in page.mediabox], abs=0.01)
    assert PILImage.open(out / "colours/v1/cards/001-cards-1.png").size == (825, 1125)
    assert PILImage.open(out / "colours/v1/cards/back-1.png").size == (825, 1125)


def test_every_per_card_front_names_its_back(built):
    out, result = built
    listed = {f["path"]: f for f in json.loads((out / "manifest.json").read_text())["files"]}
    fronts = [f for f in listed.values() if f["kind"] in ("card-pdf", "card-png")]
    assert len(fronts) == 2 * 11
    for front in fronts:
        back = listed[front["back"]]  # a file of this build, listed in the manifest
        assert back["kind"] == {"card-pdf": "card-back-pdf", "card-png": "card-back-png"}[front["kind"]]
        assert Path(back["path"]).suffix == Path(front["path"]).suffix
    assert not [f for f in listed.values() if "back" in f and f["kind"] not in ("card-pdf", "card-png")]
    # Card i has back colour i: the eleven cards have eleven different backs, each drawn in its colour.
    assert len({f["back"] for f in fronts}) == 2 * 11
    third = listed["colours/v1/cards/003-cards-3.png"]["back"]
    assert near(PILImage.open(out / third).convert("RGB").getpixel((400, 560)), rgb(COLORS[2]))


def test_cards_sharing_a_back_share_one_back_file(tmp_path):
    cards = tuple(Card(f"c-{i}", "cards", {"n": i}, Art(back_color="#123456"), POKER) for i in range(3))
    deck = Deck(**{**colour_deck(0).__dict__, "cards": cards})
    result = build([deck], BuildOptions(out_dir=tmp_path, per_card=True), producers=(produce_cards,))
    kinds = [e.kind for e in result.entries]
    assert kinds.count("card-back-pdf") == kinds.count("card-back-png") == 1
    assert {e.back for e in result.entries if e.kind == "card-pdf"} == {"colours/v1/cards/back-1.pdf"}


def test_backs_that_print_alike_share_one_file_though_their_warnings_differ(tmp_path):
    # A back label too long for its band warns on each card, naming the card: the faces differ
    # in their warnings only, and what prints is one back.
    label = "A BACK LABEL FAR TOO LONG FOR ANY BAND " * 4
    cards = tuple(Card(f"c-{i}", "cards", {"n": i}, Art(back_color="#123456", back_label=label), POKER)
                  for i in range(4))
    deck = Deck(**{**colour_deck(0).__dict__, "cards": cards})
    result = build([deck], BuildOptions(out_dir=tmp_path, per_card=True), producers=(produce_cards,))
    assert any("back label" in w and "below the legibility floor" in w for w in result.warnings)
    backs = [e for e in result.entries if e.kind in ("card-back-pdf", "card-back-png")]
    assert [e.path for e in backs] == ["colours/v1/cards/back-1.pdf", "colours/v1/cards/back-1.png"]
    fronts = [e for e in result.entries if e.kind in ("card-pdf", "card-png")]
    assert len(fronts) == 8
    assert {e.back for e in fronts if e.kind == "card-pdf"} == {"colours/v1/cards/back-1.pdf"}
    assert {e.back for e in fronts if e.kind == "card-png"} == {"colours/v1/cards/back-1.png"}
    assert not list((tmp_path / "colours/v1/cards").glob("back-2*"))


def test_identical_copies_share_one_per_card_file(tmp_path):
    deck = colour_deck(3)
    twins = tuple(Card(f"t-{i}", "twins", {"n": 1}, Art(colors={"background": "#00ff00"}), POKER, copy=i + 1)
                  for i in range(3))
    deck = Deck(**{**deck.__dict__, "cards": deck.cards + twins})
    result = build([deck], BuildOptions(out_dir=tmp_path, per_card=True))
    pngs = [e for e in result.entries if e.kind == "card-png"]
    assert [e.cards for e in pngs] == [1, 1, 1, 3]


def test_same_size_components_share_the_decks_sheets(tmp_path):
    aids = tuple(Card(f"aid-{i}", "aids", {"aid": i}, Art(colors={"background": "#00ff00"}), POKER) for i in range(3))
    result = build([colour_deck(5, components={"aids": aids})], BuildOptions(out_dir=tmp_path), producers=(produce_sheets,))
    fronts = next(e for e in result.entries if e.kind == "sheets-fronts")
    assert (fronts.pages, fronts.cards) == (1, 8)
    image = page_image(tmp_path / fronts.path, 0)
    slot = impose(paper_size("a4"), POKER).slots[5]  # the first aid follows the fifth deck card
    assert near(sample(image, slot.trim.x_mm + 20, slot.trim.y_mm + 80), (0, 255, 0))


def test_other_sizes_get_their_own_sheets_and_pages_their_own_file(tmp_path):
    token = CardSize(25, 25, bleed_mm=3.175)
    components = {
        # More than the last card sheet's free slots hold (a few to a slot).
        "tokens": tuple(Card(f"tok-{i}", "tokens", {"token": "x"}, Art(), token) for i in range(40)),
        "sheet": tuple(Card(f"sheet-{lang}", "sheet", {"sheet": "score", "lang": lang}, Art(), POKER)
                       for lang in ("en", "ko")),
    }
    result = build([colour_deck(2, components=components)], BuildOptions(out_dir=tmp_path),
                   producers=(produce_sheets, produce_pages))
    sheets = next(e for e in result.entries if e.kind == "sheets")
    fronts = next(e for e in result.entries if e.kind == "sheets-fronts")
    # A cards page and a tokens page, each with its back in the duplex file; no score sheet.
    assert (fronts.pages, sheets.pages, sheets.cards, fronts.cards) == (2, 4, 42, 42)
    for entry in (sheets, fronts):
        assert "score" not in "".join(page.extract_text() for page in PdfReader(tmp_path / entry.path).pages)
    page = next(e for e in result.entries if e.kind == "page")
    assert (page.path, page.pages, page.cards, page.paper) == ("colours/v1/score-sheet-a4.pdf", 2, 2, "a4")
    reader = PdfReader(tmp_path / page.path)
    assert ["lang: en" in p.extract_text() for p in reader.pages] == [True, False]
    assert [float(v) for v in reader.pages[1].mediabox] == pytest.approx([0, 0, 210 * 72 / 25.4, 297 * 72 / 25.4], abs=0.01)


def test_rebuild_is_byte_identical_and_leaves_files_untouched(tmp_path):
    first = build([colour_deck(3)], BuildOptions(out_dir=tmp_path / "one", per_card=True))
    second = build([colour_deck(3)], BuildOptions(out_dir=tmp_path / "two", per_card=True))
    assert [(e.path, e.sha256) for e in first.entries] == [(e.path, e.sha256) for e in second.entries]
    target = tmp_path / "one/colours/v1/sheets-a4.pdf"
    os.utime(target, (1_000_000, 1_000_000))
    build([colour_deck(3)], BuildOptions(out_dir=tmp_path / "one", per_card=True))
    assert target.stat().st_mtime == 1_000_000  # unchanged bytes: not rewritten


def test_manifest_keeps_other_decks_files_and_drops_changed_ones(tmp_path):
    build([colour_deck(variant="a")], BuildOptions(out_dir=tmp_path))
    build([colour_deck(variant="b")], BuildOptions(out_dir=tmp_path))
    paths = {f["path"] for f in json.loads((tmp_path / "manifest.json").read_text())["files"]}
    assert {"colours/a/sheets-a4.pdf", "colours/b/sheets-a4.pdf"} <= paths
    (tmp_path / "colours/a/sheets-a4.pdf").write_bytes(b"edited by hand")
    build([colour_deck(variant="b")], BuildOptions(out_dir=tmp_path))
    paths = {f["path"] for f in json.loads((tmp_path / "manifest.json").read_text())["files"]}
    assert "colours/a/sheets-a4.pdf" not in paths and "colours/a/sheets-fronts-a4.pdf" in paths
    assert (tmp_path / "colours/a/sheets-a4.pdf").read_bytes() == b"edited by hand"  # never deleted


def test_build_keeps_names_that_would_leave_the_output_folder_inside_it(tmp_path):
    evil = Deck(**{**colour_deck().__dict__, "deck_id": "../escape"})
    build([evil], BuildOptions(out_dir=tmp_path / "out"))
    assert (tmp_path / "out" / "escape").is_dir()  # the folder name is made safe, not followed
    assert not (tmp_path / "escape").exists()


def test_text_overflow_warnings_name_the_card(tmp_path):
    long = Card("long-1", "cards", {"text": "an extremely long value " * 400}, Art(), POKER)
    deck = Deck(**{**colour_deck(0).__dict__, "cards": (long,)})
    result = build([deck], BuildOptions(out_dir=tmp_path), producers=(produce_sheets,))
    assert result.warnings and "colours/v1" in result.warnings[0] and "cards[text=" in result.warnings[0]


def test_unknown_colour_names_are_one_warning_per_deck(tmp_path):
    # The deck's palette has a typo, a group's and an override's a colour no face reads: every
    # card carries them, and the build names each once.
    cards = tuple(Card(f"c-{i}", "cards", {"n": i},
                       Art(colors={"backgound": "#fff8e7", "ink": "#222222",
                                   **({"golden": "#ffe680"} if i == 2 else {})}), POKER)
                  for i in range(5))
    deck = Deck(**{**colour_deck(0).__dict__, "cards": cards})
    result = build([deck], BuildOptions(out_dir=tmp_path, per_card=True))
    about = [w for w in result.warnings if "art.colors" in w]
    assert len(about) == 1, result.warnings  # one line for the deck, each name once
    assert about[0].startswith("colours/v1: art.colors: 'backgound' (did you mean 'background'?), 'golden' are")
    assert about[0].count("'backgound'") == 1 and about[0].endswith("reads: background, ink")


def test_per_card_names_and_folder():
    """Named by id, name or title where a card has one, else by its place in its group."""
    cards = (Card("a", "numbers", {"kind": "number", "symbol": "minus", "number": -1}, Art(), POKER),
             Card("b", "numbers", {"kind": "number", "symbol": "plus", "number": 2}, Art(), POKER),
             Card("c", "Big Monsters", {"title": "Ember Drake!", "text": "x"}, Art(), POKER),
             Card("d", "spells", {"id": "카드 하나", "name": "ignored"}, Art(), POKER))
    deck = Deck(**{**colour_deck(0).__dict__, "cards": cards})
    assert [f.name for f in per_card_files(deck)] == [
        "001-numbers-1", "002-numbers-2", "003-big-monsters-ember-drake", "004-spells-카드-하나"]
    assert deck_folder(colour_deck(variant=None)) == "colours"


def test_cli_builds_every_deck_by_default(tmp_path, monkeypatch):
    """The one full build: every shipped deck and variant, default options, through the CLI."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "output/manifest.json").read_text())
    kinds = {(f["deck"], f["variant"], f["kind"]) for f in manifest["files"]}
    for deck, variant in [("calc", "standard"), ("calc", "expert"), ("stack", None), ("clag", None)]:
        assert (deck, variant, "sheets") in kinds and (deck, variant, "sheets-fronts") in kinds
    # Clag's score sheets (English and Korean) are a file of their own; its card sheets hold cards only.
    score = next(f for f in manifest["files"] if f["kind"] == "page")
    assert (score["path"], score["deck"], score["pages"]) == ("clag/score-sheet-a4.pdf", "clag", 2)
    clag = next(f for f in manifest["files"] if f["deck"] == "clag" and f["kind"] == "sheets-fronts")
    assert clag["pages"] == -(-clag["cards"] // 9)
    expert = next(f for f in manifest["files"] if f["variant"] == "expert" and f["kind"] == "sheets-fronts")
    assert expert["cards"] >= 177
    reader = PdfReader(tmp_path / "output" / expert["path"])
    fonts = reader.pages[0]["/Resources"]["/Font"].values()
    assert fonts
    for font in fonts:
        font = font.get_object()
        holder = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        assert "/FontFile2" in holder["/FontDescriptor"].get_object(), font["/BaseFont"]


def test_cli_options_and_errors(tmp_path):
    runner = CliRunner()
    bad = runner.invoke(main, ["build", "calc", "--back-offset", "1", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "X,Y" in bad.output
    missing = runner.invoke(main, ["build", "nosuchdeck", "--out", str(tmp_path)])
    assert missing.exit_code == 1 and "nosuchdeck" in missing.output
    ok = runner.invoke(main, ["build", "clag", "--paper", "letter", "--flip", "short", "--gap", "2mm",
                              "--back-offset", "0.5,-0.5", "--out", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "clag/sheets-letter.pdf").is_file() and (tmp_path / "alignment-letter.pdf").is_file()


@pytest.mark.parametrize("flip, offset", [("long", (0.0, 0.0)), ("long", (2.0, -1.0)), ("short", (0.0, 0.0))])
def test_alignment_crosses_land_on_the_scale_centres(tmp_path, flip, offset):
    build([colour_deck(1)], BuildOptions(out_dir=tmp_path, flip=flip, back_offset_mm=offset),
          producers=(produce_alignment,))
    scale = 144 / 25.4
    pdf = pdfium.PdfDocument(tmp_path / "alignment-a4.pdf")
    back = pdf[1].render(scale=144 / 72).to_pil().convert("RGB")
    turned = back.transpose(PILImage.Transpose.FLIP_LEFT_RIGHT if flip == "long" else PILImage.Transpose.FLIP_TOP_BOTTOM)
    cx, cy = 105.0, 148.5  # the page centre point of the test

    def red(x, y):
        r, g, b = turned.getpixel((x, y))
        return r > 150 and g < 100 and b < 100

    row = int((cy - 9.5) * scale)  # where the vertical arm crosses the horizontal scale
    xs = [x for x in range(turned.width) if red(x, row)]
    column = int((cx - 9.5) * scale)  # where the horizontal arm crosses the vertical scale
    ys = [y for y in range(turned.height) if red(column, y)]
    assert xs and ys
    assert sum(xs) / len(xs) / scale == pytest.approx(cx + offset[0], abs=0.3)
    assert sum(ys) / len(ys) / scale == pytest.approx(cy + offset[1], abs=0.3)


def test_load_decks_selects_variants():
    from printkit.pipeline.build import load_decks

    every = load_decks([])
    assert {(d.deck_id, d.variant) for d in every} >= {("calc", "standard"), ("calc", "expert"), ("clag", None)}
    assert [(d.deck_id, d.variant) for d in load_decks([], "expert")] == [("calc", "expert")]
    assert [(d.deck_id, d.variant) for d in load_decks(["calc"])] == [("calc", "standard"), ("calc", "expert")]
    with pytest.raises(Exception, match="unknown variant 'expert'"):
        load_decks(["clag"], "expert")
    with pytest.raises(BuildError, match="no deck has a variant 'nope'"):
        load_decks([], "nope")


def test_progress_reports_every_unit_of_work(tmp_path):
    from printkit.pipeline.producers import work_units

    deck = colour_deck(5, components={"sheet": (Card("s-1", "sheet", {"sheet": "score"}, Art(), POKER),)})
    options = BuildOptions(out_dir=tmp_path, per_card=True)
    steps = []
    run_build([deck], options, progress=steps.append,
              producers=(produce_sheets, produce_pages, produce_alignment, produce_cards, produce_proof))
    # Six cards on sheets and pages, five per-card files (the score sheet is no card), six on the proof page.
    assert sum(steps) == work_units([deck], options) == 17


def test_cli_prints_layout_warnings_naming_card_and_field(tmp_path):
    long_text = "much too long for one small card " * 120
    (tmp_path / "demo.yaml").write_text(
        "game: demo\nname: Demo\ncard:\n  size: mini\ngroups:\n  - name: notes\n    cards:\n"
        f"      - {{ text: short }}\n      - {{ text: \"{long_text}\" }}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path / "demo.yaml"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:") and "notes[" in line]
    assert len(warnings) == 1  # once, though the card is laid out for several outputs
    assert "demo: notes[text=much too long" in warnings[0] and "… text: text 'much too long" in warnings[0]
    assert "does not fit" in warnings[0]


def test_a_template_failure_names_the_deck_and_card(tmp_path, monkeypatch):
    from printkit.layout import templates

    def broken(card, game=None, deck_icons=None):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(templates.generic, "front", broken)
    with pytest.raises(PrintkitError) as refused:  # each card that fails says so (both cards here)
        build([colour_deck(2)], BuildOptions(out_dir=tmp_path), producers=(produce_sheets,))
    first = error_lines(refused.value)[0]
    assert re.search(r"colours/v1: cannot lay out the front of cards\[n=0\]#1: ZeroDivisionError", first), first


def test_no_rulebooks_writes_the_card_outputs_only(tmp_path):
    result = CliRunner().invoke(main, ["build", "calc", "--variant", "standard", "--no-rulebooks",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    kinds = {f["kind"] for f in json.loads((tmp_path / "manifest.json").read_text())["files"]}
    assert kinds == {"sheets", "sheets-fronts", "alignment", "proof", "proof-image"}
    assert not list(tmp_path.rglob("rulebook*"))
