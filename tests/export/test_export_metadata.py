"""Metadata and colour of the PDFs and PNGs printkit writes outside exports too."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from export_helpers import qpdf_check
from printkit.pipeline.build import build, load_decks
from printkit.pipeline.context import BuildOptions
from printkit.render.color import srgb_icc


def test_per_card_files_have_titles_author_output_intent_and_srgb_and_no_score_sheet(tmp_path):
    from pypdf import PdfReader

    spec = tmp_path / "tiny.yaml"
    spec.write_text("game: demo\nname: Tiny\nauthor: Ada Lovelace\ngroups:\n  - name: a\n    cards: [{name: Owl}]\n"
                    "components:\n  - name: sheet\n    cards: [{sheet: score}]\n", encoding="utf-8")
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path / "out", per_card=True, rulebooks=False))
    cards = tmp_path / "out" / "tiny" / "cards"
    pdfs = sorted(cards.glob("*.pdf"))
    assert len(pdfs) == 2  # the card and its back: the score sheet is no card
    titles = set()
    for path in pdfs:
        reader = PdfReader(path)
        titles.add(reader.metadata.title)
        assert reader.metadata.author == "Ada Lovelace" and reader.metadata.subject
        assert reader.trailer["/Root"]["/OutputIntents"][0].get_object()["/S"] == "/GTS_PDFA1"
        qpdf_check(path)
    # A back is titled by its number: the same bytes whichever cards show it and however their texts change.
    assert titles == {"Tiny: card Owl front", "Tiny: back-1"}
    for path in cards.glob("*.png"):
        with Image.open(path) as image:
            assert image.info.get("icc_profile") == srgb_icc()
    sheets = PdfReader(tmp_path / "out" / "tiny" / "sheets-a4.pdf")
    assert sheets.metadata.title == "Tiny: duplex sheets" and sheets.metadata.author == "Ada Lovelace"


def test_a_spec_without_author_leaves_it_empty(tmp_path):
    from pypdf import PdfReader

    spec = Path(__file__).resolve().parents[1] / "data" / "tiny.yaml"
    build(load_decks([str(spec)]), BuildOptions(out_dir=tmp_path, rulebooks=False))
    assert PdfReader(tmp_path / "tiny" / "sheets-a4.pdf").metadata.author == ""


def test_rulebooks_carry_their_language_and_an_output_intent(tmp_path):
    from pypdf import PdfReader

    build(load_decks(["emberfall"]), BuildOptions(out_dir=tmp_path))
    for lang in ("ko", "en"):
        path = tmp_path / "emberfall" / f"rulebook-{lang}-a4.pdf"
        root = PdfReader(path).trailer["/Root"]
        assert root["/Lang"] == lang and "/OutputIntents" in root
        qpdf_check(path)
