"""proof.html: written by every build, listed in the manifest, escaped, self-contained."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from printkit.pipeline.build import build, load_decks
from printkit.pipeline.context import BuildOptions
from printkit.cli import main
from printkit.proof import THUMB_DPI

from .decks import CALM, LOUD, write_deck


class Page(HTMLParser):
    """Tags with their attributes, and the text, of a proof page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def all(self, tag):
        return [attrs for t, attrs in self.tags if t == tag]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("proof")
    spec = write_deck(folder)
    out = folder / "out"
    result = build(load_decks([str(spec)]), BuildOptions(out_dir=out, rulebooks=False))
    return out, result


def test_the_page_and_its_thumbnails_are_in_the_manifest(built):
    out, result = built
    files = {f["path"]: f for f in json.loads((out / "manifest.json").read_text())["files"]}
    assert files["proofing/proof.html"]["kind"] == "proof"
    images = sorted(p for p, f in files.items() if f["kind"] == "proof-image")
    assert images == ["proofing/proof/faces-1.png"]  # the four faces on one contact sheet
    assert {e.path for e in result.entries} >= set(images)
    assert not list(out.rglob("*.tmp"))


def tiles(out: Path) -> dict[str, Image.Image]:
    """Each figure's picture as the page shows it: its part of its contact sheet."""
    page = (out / "proofing/proof.html").read_text(encoding="utf-8")
    shown = {}
    for anchor, src, width, height, top in re.findall(
            r'<figure id="([^"]+)".*?<img src="([^"?]+)\?v=\w+" width="(\d+)" height="(\d+)" class="at-(\d+)"',
            page):
        assert top == "0" or f".pic img.at-{top}{{object-position:0 -{top}px}}" in page
        with Image.open(out / "proofing" / src) as sheet:
            shown[anchor] = sheet.convert("RGB").crop((0, int(top), int(width), int(top) + int(height)))
    return shown


def test_thumbnails_are_the_faces_at_screen_size(built):
    out, _ = built
    shown = tiles(out)
    assert sorted(shown) == ["001-spells-calm", "002-spells-loud", "003-spells-evil", "back-1"]
    image = shown["001-spells-calm"]
    # a poker card with its 3 mm bleed, 69.5 x 94.9 mm, at 100 DPI
    assert image.size == (round(69.5 / 25.4 * THUMB_DPI), round(94.9 / 25.4 * THUMB_DPI)) == (274, 374)
    assert image.getpixel((10, 10)) == (255, 255, 255)  # the generic white background


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    from PIL import ImageChops, ImageStat

    assert a.size == b.size
    return ImageStat.Stat(ImageChops.difference(a, b).convert("L")).mean[0]


def test_each_tile_shows_its_own_face_from_the_contact_sheet(built):
    """Each tile is its face as rasterised alone, but for antialiasing where an edge falls on a
    fraction of a pixel: the sheet draws faces at exactly THUMB_DPI, a face alone is stretched to
    its whole pixels (these 69.5 mm cards are 273.6 px wide in the sheet, 274 alone). Another
    face, or the face two pixels off, differs several times as much."""
    from printkit.layout.templates import front
    from printkit.render.png import render_face

    out, _ = built
    deck = load_decks([str(out.parent / "proofing.yaml")])[0]
    shown = tiles(out)
    faces = [render_face(front(card, deck), card.size, THUMB_DPI) for card in deck.cards[:3]]
    for number, face in enumerate(faces, 1):
        tile = shown[next(a for a in shown if a.startswith(f"{number:03d}-"))]
        own = _mean_difference(tile, face)
        assert own < 1.0, number
        for other in faces:
            if other is not face:
                assert _mean_difference(tile, other) > 3.0, number
        moved = Image.new("RGB", face.size, "white")
        moved.paste(face, (0, 2))
        assert _mean_difference(tile, moved) > 2 * own, number


def test_every_picture_the_page_shows_exists_and_stays_beside_it(built):
    out, _ = built
    page = Page((out / "proofing/proof.html").read_text(encoding="utf-8"))
    sources = [img["src"] for img in page.all("img")]
    assert len(sources) == 4
    for src in sources:
        path, _, version = src.partition("?v=")
        assert re.fullmatch(r"proof/[a-z0-9-]+\.png", path) and re.fullmatch(r"[0-9a-f]{12}", version)
        assert (out / "proofing" / path).is_file()
    for link in page.all("a"):
        href = link["href"]
        if href.startswith("#"):
            continue
        assert (out / "proofing" / href).exists(), href


def test_nothing_comes_from_the_network(built):
    out, _ = built
    text = (out / "proofing/proof.html").read_text(encoding="utf-8")
    page = Page(text)
    for tag, attrs in page.tags:
        for name in ("src", "href"):
            if name in attrs:
                assert not re.match(r"^([a-z]+:|//)", attrs[name]), (tag, attrs)
    assert "@import" not in text and "url(" not in text
    assert [a for a in page.all("meta") if a.get("http-equiv") == "Content-Security-Policy"]


def test_card_text_is_escaped(built):
    out, _ = built
    text = (out / "proofing/proof.html").read_text(encoding="utf-8")
    assert "<script>alert" not in text and "<img src=x" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    page = Page(text)
    assert len(page.all("script")) == 1  # printkit's own
    assert len(page.all("figure")) == 4  # the card's "</figure>" closed nothing


def test_a_warning_is_marked_on_the_card_that_has_it(built):
    out, result = built
    page = Page((out / "proofing/proof.html").read_text(encoding="utf-8"))
    figures = {f["id"]: f for f in page.all("figure")}
    assert figures["002-spells-loud"]["data-warnings"] == "1"
    assert figures["002-spells-loud"]["class"] == "has-warn"
    assert figures["001-spells-calm"]["data-warnings"] == "0" and "class" not in figures["001-spells-calm"]
    text = "".join(page.text)
    assert "does not fit" in text and any("does not fit" in w for w in result.warnings)


def test_the_counts_are_compared_with_expect(tmp_path):
    spec = write_deck(tmp_path, cards=(CALM, LOUD), expect=3)
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", rulebooks=False))
    text = (tmp_path / "out/proofing/proof.html").read_text(encoding="utf-8")
    assert "2 cards, expected 3" in text and "counts differ" in text and "total: expected 3, found 2" in text


def test_the_counts_are_those_of_the_spec_the_deck_was_made_of(tmp_path):
    # The page compares the deck with what it carries of its spec's expect:, as the build's warning
    # does: a spec saved again after the deck was made does not change what this page says of it.
    spec = write_deck(tmp_path, cards=(CALM, LOUD), expect=2)
    decks = load_decks([str(spec)])
    write_deck(tmp_path, cards=(CALM, LOUD), expect=5)
    build(decks, BuildOptions(out_dir=tmp_path / "out", rulebooks=False))
    text = "".join(Page((tmp_path / "out/proofing/proof.html").read_text(encoding="utf-8")).text)
    assert "2 cards, expected 2: counts as expected" in text and "expected 5" not in text


def test_the_counts_verdict_says_nothing_of_playing(tmp_path):
    # A game named like a rule engine in another case is something printkit check fails for (it
    # would not be played); its counts are as expected all the same, and the page says only those.
    spec = write_deck(tmp_path, cards=(CALM, LOUD), expect=2)
    spec.write_text(spec.read_text(encoding="utf-8").replace("game: demo", "game: Stack"), encoding="utf-8")
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", rulebooks=False))
    text = "".join(Page((tmp_path / "out/proofing/proof.html").read_text(encoding="utf-8")).text)
    assert "2 cards, expected 2: counts as expected" in text


def test_a_rebuild_that_changes_nothing_changes_no_proof_file(built, tmp_path):
    out, _ = built
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    build(load_decks([str(out.parent / "proofing.yaml")]), BuildOptions(out_dir=out, rulebooks=False))
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_no_proof_writes_none(tmp_path):
    spec = write_deck(tmp_path)
    result = CliRunner().invoke(main, ["build", str(spec), "--out", str(tmp_path / "out"), "--no-rulebooks",
                                       "--no-proof"])
    assert result.exit_code == 0, result.output
    assert not list((tmp_path / "out").rglob("proof.html")) and not (tmp_path / "out/proofing/proof").exists()


def test_variants_get_a_page_each_and_link_their_own_pdfs(tmp_path):
    result = CliRunner().invoke(main, ["build", "calc", "--out", str(tmp_path), "--no-rulebooks"])
    assert result.exit_code == 0, result.output
    for variant, count in (("standard", 133), ("expert", 177)):
        page = Page((tmp_path / f"calc/{variant}/proof.html").read_text(encoding="utf-8"))
        links = [a["href"] for a in page.all("a") if not a["href"].startswith("#")]
        assert links == ["sheets-a4.pdf", "sheets-fronts-a4.pdf", "../../alignment-a4.pdf"]
        assert f"{count} cards, expected {count}" in "".join(page.text)


def test_a_deck_of_more_faces_than_a_page_can_hold_shows_the_first_and_says_so(tmp_path, monkeypatch):
    import printkit.proof
    from .decks import many_cards

    monkeypatch.setattr(printkit.proof, "MAX_FACES", 3)
    spec = write_deck(tmp_path, cards=many_cards(5), expect=5)
    out = tmp_path / "out"
    build(load_decks([str(spec)]), BuildOptions(out_dir=out, rulebooks=False))
    assert len([a for a in tiles(out) if not a.startswith("back-")]) == 3
    with Image.open(out / "proofing/proof/faces-1.png") as sheet:  # three fronts and a back
        assert sheet.height == 4 * 374
    page = (out / "proofing" / "proof.html").read_text(encoding="utf-8")
    assert "this page shows the first 3 of the deck&#x27;s 5 distinct faces" in page or \
        "this page shows the first 3 of the deck's 5 distinct faces" in page


def test_a_contact_sheet_page_holds_each_face_in_its_own_pixels():
    """One page per contact sheet: a poker card at 100 DPI, a narrower card, a full A4 page at
    40 DPI, each where its tile says, in the pixels it has alone (white beside the narrower), and
    nothing of one spills into the next."""
    import io

    from printkit.deck import CardSize
    from printkit.layout.geometry import Size
    from printkit.layout.imposition import card_page, full_page
    from printkit.layout.ops import Face, Rect, Text
    from printkit.fonts import SYMBOLS
    from printkit.proof import PAGE_DPI, contact_sheet, sheet_page
    from printkit.render.pdf import render_pages
    from printkit.render.png import card_pixel_size, rasterise

    poker, narrow = CardSize(63.5, 88.9, bleed_mm=3.175), CardSize(41, 63, bleed_mm=3.0)
    a4 = Size(210, 297)
    red = Face((Rect(-5, -5, 80, 100, fill="#ff0000"), Text(30, 40, "7", SYMBOLS, 20)))
    blue = Face((Rect(-5, -5, 80, 100, fill="#0000ff"), Text(10, 10, "2", SYMBOLS, 12)))
    score = Face((Rect(0, 0, 210, 297, fill="#00aa00"), Text(20, 40, "score sheet", SYMBOLS, 24)))
    pages = [card_page(red, poker), card_page(blue, narrow), full_page(score, a4)]
    a4_size = CardSize(210, 297, bleed_mm=0.0, safe_mm=0.0, corner_radius_mm=0.0)
    shown = [(poker, THUMB_DPI), (narrow, THUMB_DPI), (a4_size, PAGE_DPI)]
    page, size = sheet_page(pages, shown)
    sheet = Image.open(io.BytesIO(contact_sheet(render_pages([page]), 0, size))).convert("RGB")
    sizes = [card_pixel_size(s, dpi) for s, dpi in shown]
    assert sheet.size == (max(w for w, _ in sizes), sum(h for _, h in sizes))
    top = 0
    for alone_page, (s, dpi), (w, h) in zip(pages, shown, sizes):
        alone = rasterise(render_pages([alone_page]), s, dpi)
        assert _mean_difference(sheet.crop((0, top, w, top + h)), alone) < 1.0, s
        top += h
    top_blue = sizes[0][1]
    assert sheet.getpixel((sizes[0][0] - 1, top_blue - 1)) == (255, 0, 0)  # the red card to its last pixel
    assert sheet.getpixel((0, top_blue)) == (0, 0, 255)  # and the blue one from its first
    assert sheet.getpixel((sizes[0][0] - 1, top_blue + 5)) == (255, 255, 255)  # beside the narrower card


def test_a_builds_proofs_are_drawn_as_one_pdf_each_sheet_once(tmp_path, monkeypatch):
    """Calc's two variants share most faces: their contact sheets are drawn in one PDF (fonts
    embedded and parsed once), a sheet both variants show drawn once and written for each."""
    import printkit.render.pdf as pdf

    drawn = []
    original = pdf.render_pages

    def counted(pages, title="", *args, **kwargs):
        if title == "proof":
            drawn.append(len(pages))
        return original(pages, title, *args, **kwargs)

    monkeypatch.setattr(pdf, "render_pages", counted)
    out = tmp_path / "out"
    build(load_decks(["calc"]), BuildOptions(out_dir=out, rulebooks=False, cache=False))
    standard = sorted((out / "calc/standard/proof").glob("*.png"))
    expert = sorted((out / "calc/expert/proof").glob("*.png"))
    shared = [p for p in standard if (out / "calc/expert/proof" / p.name).read_bytes() == p.read_bytes()]
    assert len(drawn) == 1 and shared
    assert drawn[0] == len(standard) + len(expert) - len(shared)


def test_a_tile_takes_no_row_or_column_of_the_face_beside_it():
    """A contact sheet's face is clipped to its own pixels: the white face above a red one keeps
    its last row and column white, whatever the card's size (a clip edge on a whole pixel, give
    or take a rounding error, would otherwise take in the next face's row)."""
    import io

    from printkit.deck import CardSize
    from printkit.layout.imposition import card_page
    from printkit.layout.ops import Face, Rect
    from printkit.proof import contact_sheet, sheet_page
    from printkit.render.pdf import render_pages
    from printkit.render.png import card_pixel_size

    white = Face((Rect(-10, -10, 200, 200, fill="#ffffff"),))
    red = Face((Rect(-10, -10, 200, 200, fill="#ff0000"),))
    for width, height, bleed in [(63.5, 88.9, 3.175), (57.0, 87.0, 3.0), (41.0, 63.0, 3.0), (25.0, 25.0, 2.0),
                                 (70.0, 120.0, 3.175), (88.0, 63.0, 3.0), (44.45, 67.95, 3.0)]:
        size = CardSize(width, height, bleed_mm=bleed)
        narrow = CardSize(width - 5, height, bleed_mm=bleed)
        pages = [card_page(white, size), card_page(red, size), card_page(white, narrow), card_page(red, size)]
        shown = [(size, THUMB_DPI), (size, THUMB_DPI), (narrow, THUMB_DPI), (size, THUMB_DPI)]
        page, sheet_size = sheet_page(pages, shown)
        sheet = Image.open(io.BytesIO(contact_sheet(render_pages([page]), 0, sheet_size))).convert("RGB")
        (w, h), (nw, _) = card_pixel_size(size, THUMB_DPI), card_pixel_size(narrow, THUMB_DPI)
        assert {sheet.getpixel((x, h - 1)) for x in range(w)} == {(255, 255, 255)}, size
        assert {sheet.getpixel((nw, y)) for y in range(2 * h, 3 * h)} == {(255, 255, 255)}, size
        assert {sheet.getpixel((x, h)) for x in range(w)} == {(255, 0, 0)}, size


@pytest.mark.parametrize("jobs, compressed", [(1, False), (2, True)])
def test_the_proofs_pdf_is_compressed_when_other_processes_may_rasterise_it(jobs, compressed, tmp_path,
                                                                           monkeypatch):
    """Each worker's task carries the whole proof PDF: with more than one job it is compressed
    (a build of every shipped deck sent some 36 MB to its workers uncompressed); with one, only
    PDFium in this process reads it, and compressing it would be work for nothing. The pictures
    are the same either way."""
    import printkit.render.pdf as pdf

    seen = []
    original = pdf.render_pages

    def watched(pages, title="", *args, **kwargs):
        if title == "proof":
            seen.append(kwargs.get("compressed", True))
        return original(pages, title, *args, **kwargs)

    monkeypatch.setattr(pdf, "render_pages", watched)
    out = tmp_path / f"out{jobs}"
    build(load_decks(["calc"]), BuildOptions(out_dir=out, rulebooks=False, cache=False, jobs=jobs))
    assert seen == [compressed]
    pictures = {p.relative_to(out): p.read_bytes() for p in sorted(out.glob("calc/*/proof/*.png"))}
    if jobs == 2:
        other = tmp_path / "out1"
        build(load_decks(["calc"]), BuildOptions(out_dir=other, rulebooks=False, cache=False, jobs=1))
        assert pictures == {p.relative_to(other): p.read_bytes() for p in sorted(other.glob("calc/*/proof/*.png"))}


def test_a_word_broken_between_letters_is_marked_like_a_text_that_does_not_fit(tmp_path):
    # The rules box (3 mm at the least) is narrower than this word even at 3 mm: broken, and said.
    broken = '      - {id: broken, title: Lung, text: "Pneumonoultramicroscopicsilicovolcanoconiosis."}'
    spec = write_deck(tmp_path, cards=(CALM, broken), expect=2)
    result = build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", rulebooks=False))
    page = Page((tmp_path / "out/proofing/proof.html").read_text(encoding="utf-8"))
    figures = {f["id"]: f for f in page.all("figure")}
    assert figures["002-spells-broken"]["data-warnings"] == "1" and figures["002-spells-broken"]["class"] == "has-warn"
    assert figures["001-spells-calm"]["data-warnings"] == "0"
    said = [w for w in result.warnings if "broken between letters" in w]
    assert len(said) == 1 and "'Pneumonoultramicroscopicsilicovolcanoc" in said[0]
    assert "broken between letters" in "".join(page.text)
