"""Print-service exports of Calc expert and Emberfall, checked against docs/print-services.md."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageCms

from export_helpers import doc_numbers, qpdf_check
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
    pdfs = sorted(folder.glob("*.pdf"))
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
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["cards.pdf", "player_aids.pdf"]
    assert len(PdfReader(folder / "cards.pdf").pages) == 2 * 177
    readme = (folder / "README.txt").read_text()
    assert "PDF/X-1a" in readme


def test_print_shop_is_one_pdf_fronts_then_backs_with_tokens_at_their_size(exports):
    from pypdf import PdfReader

    reader = PdfReader(exports("emberfall", "print-shop") / "cards.pdf")
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
    from printkit.spec import load_deck

    export_deck(load_deck("emberfall"), ExportOptions(target="print-shop", out_dir=tmp_path, crop_marks=True))
    page = PdfReader(tmp_path / "cards.pdf").pages[0]
    slug = (float(page.bleedbox.left) - float(page.mediabox.left)) / 72 * 25.4
    assert slug == pytest.approx(6.0, abs=0.01)
    assert float(page.trimbox.left) - float(page.bleedbox.left) == pytest.approx(0.125 * 72, abs=0.01)
    qpdf_check(tmp_path / "cards.pdf")
