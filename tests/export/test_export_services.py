"""Print-service exports of Calc expert and Emberfall, checked against docs/print-services.md."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageCms

from export_helpers import DOC, doc_numbers, qpdf_check
from printkit.export.profiles import profile, profiles
from printkit.render.color import srgb_icc

PT_PER_IN = 72.0
SERVICES = ("tgc", "mpc", "drivethrucards", "print-shop")
DECKS = ("calc-expert", "emberfall")


def test_every_profile_is_in_the_docs_with_the_same_numbers():
    rows = doc_numbers()
    assert set(rows) == set(profiles())
    for key, prof in profiles().items():
        row = rows[key]
        assert row["verified"] == prof.verified, key
        if prof.sizes is None:
            assert row["size"] == "any"
            continue
        (size,) = prof.sizes
        assert row["size"] == size.name
        assert size.bleed_mm == pytest.approx(row["bleed_in"] * 25.4), key
        assert size.pixels == row["pixels"], key


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("target", ("tgc", "mpc"))
def test_image_exports_have_the_documented_pixels_bleed_and_srgb(exports, deck, target):
    folder = exports(deck, target)
    row = doc_numbers()[target]
    width_px, height_px = row["pixels"]
    dpi = profile(target).dpi
    bleed_px = row["bleed_in"] * dpi
    assert (width_px - 2 * bleed_px, height_px - 2 * bleed_px) == (2.5 * dpi, 3.5 * dpi)  # poker trim
    images = sorted(folder.rglob("*.png"))
    assert images and any(p.name.startswith("back") for p in images)
    for path in images:
        with Image.open(path) as image:
            assert image.size == (width_px, height_px), path
            assert image.info.get("icc_profile") == srgb_icc(), path
    profile_desc = ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(srgb_icc())))
    assert "sRGB" in profile_desc


def test_copies_as_each_image_service_takes_them(exports):
    tgc = sorted(p.name for p in (exports("calc-expert", "tgc") / "cards").glob("0*.png"))
    assert len(tgc) == 45 and "009-7plus-x4.png" in tgc and "045-joker-x1.png" in tgc
    mpc = sorted(p.name for p in (exports("calc-expert", "mpc") / "cards").glob("0*.png"))
    assert len(mpc) == 177 and {"009-7plus-1.png", "009-7plus-4.png"} <= set(mpc)
    readme = (exports("calc-expert", "tgc") / "README.txt").read_text()
    assert "cards/009-7plus-x4.png" in readme and "4 copies" in readme


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("target", ("drivethrucards", "print-shop"))
def test_pdf_exports_have_the_documented_page_boxes_and_an_output_intent(exports, deck, target):
    from pypdf import PdfReader

    folder = exports(deck, target)
    row = doc_numbers()[target]
    pdfs = sorted(p for p in (folder / "upload").glob("*.pdf") if not p.name.startswith("rulebook-"))
    assert pdfs
    for path in pdfs:
        qpdf_check(path)
        reader = PdfReader(path)
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        # DriveThruCards takes PDF/X-1a in CMYK (tests/export/test_export_pdfx.py), the print shop sRGB.
        assert intent["/OutputConditionIdentifier"] == ("FOGRA39" if target == "drivethrucards" else "sRGB IEC61966-2.1")
        assert reader.metadata.title.startswith(("Calc (expert): ", "Emberfall: "))
        for page in reader.pages:
            media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
            assert [float(v) for v in bleed] == pytest.approx([float(v) for v in media], abs=0.01)
            side = (float(trim.left) - float(media.left)) / PT_PER_IN  # bleed each side, inches
            expected = row["bleed_in"] if row["bleed_in"] is not None else 0.125  # both decks: 0.125in
            assert side == pytest.approx(expected, abs=0.001), path
            assert float(media.top) - float(trim.top) == pytest.approx(side * PT_PER_IN, abs=0.01)
            if target == "drivethrucards" or float(trim.width) > 100:  # poker cards: 2.5 x 3.5 in trim
                assert (float(trim.width) / PT_PER_IN, float(trim.height) / PT_PER_IN) == pytest.approx((2.5, 3.5), abs=0.001)


def test_drivethrucards_pages_are_back_then_front_for_every_copy(exports):
    from pypdf import PdfReader

    folder = exports("calc-expert", "drivethrucards")
    assert sorted(p.name for p in (folder / "upload").glob("*.pdf")) == ["cards.pdf", "player_aids.pdf"]
    assert len(PdfReader(folder / "upload" / "cards.pdf").pages) == 2 * 177
    readme = (folder / "README.txt").read_text()
    assert "PDF/X-1a" in readme


def test_print_shop_is_one_pdf_fronts_then_backs_with_tokens_at_their_size(exports):
    from pypdf import PdfReader

    reader = PdfReader(exports("emberfall", "print-shop") / "upload" / "cards.pdf")
    assert len(reader.pages) == 2 * (60 + 24)
    token = reader.pages[60]
    assert float(token.trimbox.width) == pytest.approx(20 / 25.4 * 72, abs=0.01)
    assert float(reader.pages[0].trimbox.width) == pytest.approx(2.5 * 72, abs=0.01)


@pytest.mark.parametrize("target", ("tgc", "mpc", "drivethrucards"))
def test_a_size_the_service_lacks_is_left_out_with_a_readme_line(exports, target):
    readme = (exports("emberfall", target) / "README.txt").read_text()
    assert "Left out" in readme and "embers (24 cards, 20 x 20 mm)" in readme
    assert not any("ember-" in p.name and "embers" in p.parts for p in exports("emberfall", target).rglob("*"))


def test_print_shop_crop_marks_sit_in_a_slug_outside_the_bleed(tmp_path):
    from pypdf import PdfReader

    from printkit.export import ExportOptions, export_deck
    from printkit.decks import load_deck

    export_deck(load_deck("emberfall"), ExportOptions(target="print-shop", out_dir=tmp_path, crop_marks=True,
                                                      rulebooks=False))
    page = PdfReader(tmp_path / "upload" / "cards.pdf").pages[0]
    slug = (float(page.bleedbox.left) - float(page.mediabox.left)) / 72 * 25.4
    assert slug == pytest.approx(6.0, abs=0.01)
    assert float(page.trimbox.left) - float(page.bleedbox.left) == pytest.approx(0.125 * 72, abs=0.01)
    qpdf_check(tmp_path / "upload" / "cards.pdf")


TWO_BACKS = """game: two
name: Two Backs
groups:
  - name: heroes
    art: {back: {color: "#1f5f86"}}
    cards: [{name: Knight}, {name: Archer}]
    copies: 2
  - name: monsters
    art: {back: {color: "#b8432f"}}
    cards: [{name: Troll}, {name: Goblin}, {name: Orc}]
"""


def _colour(path) -> tuple[int, int, int]:
    with Image.open(path) as image:
        return image.convert("RGB").getpixel((image.width // 2, image.height // 2))


@pytest.mark.parametrize("target", ("tgc", "mpc"))
def test_a_deck_with_two_backs_is_two_folders_each_a_deck_with_one_back(tmp_path, target):
    from printkit.export import ExportOptions, export_deck
    from printkit.decks import load_deck

    spec = tmp_path / "two.yaml"
    spec.write_text(TWO_BACKS, encoding="utf-8")
    out = tmp_path / "out"
    export_deck(load_deck(str(spec)), ExportOptions(target=target, out_dir=out))
    folders = sorted(p.name for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))
    assert folders == ["cards-heroes", "cards-monsters"]
    fronts = {name: sorted(p.name for p in (out / name).iterdir() if p.name != "back.png") for name in folders}
    if target == "tgc":
        assert fronts == {"cards-heroes": ["001-knight-x2.png", "002-archer-x2.png"],
                          "cards-monsters": ["001-troll-x1.png", "002-goblin-x1.png", "003-orc-x1.png"]}
    else:  # a file per physical card
        assert [len(fronts[name]) for name in folders] == [4, 3]
    # Each folder's one back is that deck's back: blue for the heroes, red for the monsters.
    blue, red = _colour(out / "cards-heroes" / "back.png"), _colour(out / "cards-monsters" / "back.png")
    assert blue[2] > blue[0] + 60 and red[0] > red[2] + 60
    readme = (out / "README.txt").read_text(encoding="utf-8")
    assert "- cards-heroes/: 4 cards (2 distinct), back cards-heroes/back.png" in readme
    assert "- cards-monsters/: 3 cards (3 distinct), back cards-monsters/back.png" in readme
    if target == "mpc":  # MakePlayingCards sells fixed sizes: the smallest that holds each deck
        assert " ".join(readme.split()).count("order an 18-card deck, the smallest size that holds them") == 2


def test_mpc_readme_names_the_deck_size_to_order(exports):
    readme = " ".join((exports("calc-expert", "mpc") / "README.txt").read_text(encoding="utf-8").split())
    # 177 cards: the 180-card deck, 3 slots to spare; the 4 player aids: the 18-card deck.
    assert "- cards/: 177 cards (45 distinct), back cards/back.png: order a 180-card deck" in readme
    assert "fill its 3 other slots" in readme
    assert "- player_aids/: 4 cards (4 distinct), back player_aids/back.png: order an 18-card deck" in readme


def test_mpc_order_sizes_are_the_documented_ones():
    sizes = profile("mpc").order_sizes
    assert sizes[:13] == (18, 36, 55, 72, 90, 108, 126, 144, 162, 180, 198, 216, 234)
    doc = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "decks of " + ", ".join(str(n) for n in sizes) + " cards" in doc


@pytest.mark.parametrize("target", SERVICES)
def test_upload_folders_hold_only_files_to_upload(exports, target):
    folder = exports("emberfall", target)
    top = sorted(p.name for p in folder.iterdir())
    assert "manifest.json" in top and "README.txt" in top
    for path in folder.rglob("*"):
        parts = path.relative_to(folder).parts
        if path.is_dir() or parts[0] == ".printkit-cache" or len(parts) == 1:
            continue
        # Below the top: only what the service takes, never printkit's own files.
        assert path.suffix == (".png" if target in ("tgc", "mpc") else ".pdf"), path
        assert path.name not in ("manifest.json", "README.txt"), path
    assert not list(folder.glob("*/manifest.json")) and not list(folder.glob("*/.printkit-cache"))
    assert [p.name for p in folder.iterdir() if p.is_file()] in (["README.txt", "manifest.json"],
                                                                  ["manifest.json", "README.txt"])


def test_print_shop_export_has_the_rulebooks(exports):
    from pypdf import PdfReader

    folder = exports("emberfall", "print-shop") / "upload"
    for lang in ("en", "ko"):
        reader = PdfReader(folder / f"rulebook-{lang}-a4.pdf")
        assert reader.trailer["/Root"]["/Lang"] == lang and len(reader.pages) >= 2
        width, height = (float(v) for v in reader.pages[0].mediabox[2:])
        assert (width, height) == pytest.approx((595.28, 841.89), abs=0.5)  # A4, as --paper
        qpdf_check(folder / f"rulebook-{lang}-a4.pdf")
    readme = (exports("emberfall", "print-shop") / "README.txt").read_text(encoding="utf-8")
    assert "upload/rulebook-en-a4.pdf" in readme and "upload/rulebook-ko-a4.pdf" in readme


def test_every_page_of_every_print_shop_file_names_a_trim_box_and_a_bleed_box(exports):
    # A print shop's preflight checks every page of every file it receives for both boxes: the
    # cards' trim inside their bleed, a rulebook page (no bleed) trimmed to itself.
    import pikepdf

    pdfs = sorted((exports("emberfall", "print-shop") / "upload").glob("*.pdf"))
    assert {p.name for p in pdfs} == {"cards.pdf", "rulebook-en-a4.pdf", "rulebook-ko-a4.pdf"}
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                assert "/TrimBox" in page.obj and "/BleedBox" in page.obj, path.name
                media, bleed, trim = ([float(v) for v in page.obj[key]] for key in ("/MediaBox", "/BleedBox", "/TrimBox"))
                assert media[0] <= bleed[0] <= trim[0] < trim[2] <= bleed[2] <= media[2], path.name
                assert media[1] <= bleed[1] <= trim[1] < trim[3] <= bleed[3] <= media[3], path.name
                if path.name.startswith("rulebook-"):
                    assert trim == bleed == media


def test_print_shop_without_rule_texts_says_so(tmp_path):
    from printkit.export import ExportOptions, export_deck
    from printkit.decks import load_deck

    spec = tmp_path / "two.yaml"
    spec.write_text(TWO_BACKS, encoding="utf-8")
    export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=tmp_path / "o"))
    assert sorted(p.name for p in (tmp_path / "o" / "upload").iterdir()) == ["cards.pdf"]
    readme = " ".join((tmp_path / "o" / "README.txt").read_text(encoding="utf-8").split())
    assert "The rulebook: the deck has no rule text (write two.rules.<lang>.md beside two.yaml)." in readme


def test_one_group_with_two_backs_gets_numbered_folders(tmp_path):
    from printkit.export import ExportOptions, export_deck
    from printkit.decks import load_deck

    spec = tmp_path / "mixed.yaml"
    spec.write_text("""game: mixed
name: Mixed
groups:
  - name: all
    cards: [{name: A, kind: x}, {name: B, kind: y}, {name: C, kind: x}]
    overrides:
      - {match: {kind: y}, art: {back: {color: "#b8432f"}}}
""", encoding="utf-8")
    out = tmp_path / "out"
    export_deck(load_deck(str(spec)), ExportOptions(target="tgc", out_dir=out))
    assert sorted(p.name for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")) == [
        "cards-back-1", "cards-back-2"]
    assert sorted(p.name for p in (out / "cards-back-1").iterdir()) == ["001-a-x1.png", "002-c-x1.png", "back.png"]
    assert sorted(p.name for p in (out / "cards-back-2").iterdir()) == ["001-b-x1.png", "back.png"]
