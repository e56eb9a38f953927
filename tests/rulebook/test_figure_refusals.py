"""A card figure the rule text names that cannot print its cards' text, or names words no font of
the book has, is refused at its line by `printkit build` and first by `printkit check`; words in
figures are set in the spec's own font, as the paragraphs are."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2
import pytest

from cli_in import invoke_in

BIG = """game: big
name: Big
card: {size: {width: 190mm, height: 270mm}, bleed: 3mm, safe: 5mm}
layouts:
  f:
    elements:
      - {name: title, kind: text, text: "{title}", x: 0, y: 0, width: 100%, height: 20mm, frame: safe, size: 6.2pt}
      - {name: body, kind: text, text: "{text}", x: 0, y: 30mm, width: 100%, height: 50mm, frame: safe, size: 6.2pt}
groups:
  - name: cards
    layout: f
    cards:
      - {title: Giant, text: "Some rules text here."}
"""

FINE = """game: fine
name: Fine
card: {size: poker, bleed: 3mm, safe: 4mm}
layouts:
  f:
    elements:
      - {name: title, kind: text, text: "{title}", x: 0, y: 0, width: 100%, height: 10mm, frame: safe, size: 4mm}
      - {name: legal, kind: text, text: "(c) 2026 Fine Print Games", x: 0, y: 70mm, width: 100%, height: 4mm,
         frame: safe, size: 1.6mm, legibility_floor: 1.5mm}
groups:
  - name: cards
    layout: f
    cards:
      - {title: Scout}
      - {title: Guard}
"""


def _folder(tmp_path: Path, spec: str, text: str, name: str = "deck", lang: str = "en") -> Path:
    (tmp_path / f"{name}.yaml").write_text(spec, encoding="utf-8")
    (tmp_path / f"{name}.rules.{lang}.md").write_text(text, encoding="utf-8")
    return tmp_path


def _refused(folder: Path, where: str, says: str) -> None:
    """`check` and `build` both fail with one error at ``where`` saying ``says``."""
    for result in (invoke_in(folder, "check", "--no-play"), invoke_in(folder, "build", "--no-proof")):
        assert result.exit_code == 1, result.output
        assert f"{where}: {says}" in result.output, result.output
        assert "LayoutError" not in result.output and "0x" not in result.output


@pytest.mark.parametrize("kind", ["cards", "anatomy"])
def test_a_card_too_large_to_print_its_text_is_refused_at_its_line(tmp_path, kind):
    folder = _folder(tmp_path, BIG, f"# Big\n\nIntro.\n\n::: {kind} giant\n\nMore text.\n")
    _refused(folder, "deck.rules.en.md:5", f"{kind} 'giant': its cards are shrunk to fit the page until their "
                                           "smallest text would print at 5.5 pt, under the 6 pt")


def test_check_lays_figures_out_on_the_paper_build_sets_the_book_on(tmp_path):
    # A 200 mm tall card with 4.5 pt text: at print size on A4, shrunk below it to fit A5.
    spec = FINE.replace("size: poker,", "size: {width: 100mm, height: 200mm},")
    folder = _folder(tmp_path, spec, "# Fine\n\nIntro.\n\n::: cards scout\n")
    assert invoke_in(folder, "check", "--no-play").exit_code == 0  # A4 holds it at print size
    build = invoke_in(folder, "build", "--no-proof", "--rulebook-paper", "a5")
    assert build.exit_code == 1
    assert "deck.rules.en.md:5: cards 'scout': its cards are shrunk" in build.output
    from printkit.check import check_buildable
    from printkit.decks import load_all_variants
    from printkit.errors import BuildError

    with pytest.raises(BuildError, match=r"deck.rules.en.md:5: cards 'scout': its cards are shrunk"):
        check_buildable(load_all_variants(folder / "deck.yaml"), paper="a5")


def _text_of(pdf: Path) -> list[str]:
    return [page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(pdf)]


def test_a_row_at_print_size_keeps_the_fine_print_its_card_prints(tmp_path):
    folder = _folder(tmp_path, FINE, "# Fine\n\nThe cards:\n\n::: cards scout, guard\n\nEnd.\n")
    assert invoke_in(folder, "check", "--no-play").exit_code == 0
    build = invoke_in(folder, "build", "--no-proof")
    assert build.exit_code == 0, build.output
    pages = _text_of(next((folder / "output").glob("*/rulebook-en-a4.pdf")))
    figure_page = next(text for text in pages if "The cards:" in text)
    assert figure_page.split("The cards:")[1].count("Fine Print Games") == 2


CJK_FONT = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


@pytest.mark.skipif(not CJK_FONT.exists(), reason="needs a CJK font")
def test_figure_words_and_code_are_set_in_the_specs_own_font(tmp_path):
    (tmp_path / "fonts").mkdir()
    shutil.copy(CJK_FONT, tmp_path / "fonts" / CJK_FONT.name)
    spec = ('game: cjk\nname: CJK\nart: {font: fonts/DroidSansFallbackFull.ttf}\ngroups:\n'
            '  - name: cards\n    cards: [{title: "漢字 카드"}]\n')
    # The setup deals the deck's one card.
    text = "# 漢字\n\nIntro `code 漢字`.\n\n::: cards 漢字 카드\n\n::: setup 漢字: back x1\n"
    folder = _folder(tmp_path, spec, text, "cjk", "zh-Hant")
    assert invoke_in(folder, "check", "--no-play").exit_code == 0
    build = invoke_in(folder, "build", "--no-proof")
    assert build.exit_code == 0, build.output
    pages = _text_of(next((folder / "output").glob("*/rulebook-zh-Hant-a4.pdf")))
    assert "code 漢字" in pages[0].replace("\xa0", " ")
    assert "漢字 카드".replace(" ", "") in pages[0].split("Intro")[1].replace(" ", "")


def test_a_figure_label_no_font_has_is_refused_at_its_line(tmp_path):
    spec = 'game: e\nname: E\ngroups:\n  - name: cards\n    cards: [{title: "Star"}]\n'
    folder = _folder(tmp_path, spec, "# E\n\nIntro.\n\n::: cards star = 漢\n")
    _refused(folder, "deck.rules.en.md:5", "cards 'star = 漢': figure label '漢': no bundled font has")


def test_an_anatomy_of_a_card_with_fine_print_stands_on_a_small_page_with_its_labels(tmp_path):
    # 2.3 pt fine print: at 6 pt the card would be taller than A5's text; it is drawn as large as
    # its labels leave room for instead, every label on the page.
    spec = FINE.replace("size: 1.6mm, legibility_floor: 1.5mm", "size: 0.8mm, legibility_floor: 0.7mm")
    folder = _folder(tmp_path, spec, "# Fine\n\nIntro.\n\n::: anatomy scout\n\nEnd.\n")
    build = invoke_in(folder, "build", "--no-proof", "--rulebook-paper", "a5")
    assert build.exit_code == 0, build.output
    document = pypdfium2.PdfDocument(next((folder / "output").glob("*/rulebook-en-a5.pdf")))
    page = next(page for page in document if "legal" in page.get_textpage().get_text_range())
    width = page.get_width()
    text = page.get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars())]
    assert all(0 <= left and right <= width for left, _, right, _ in boxes)
    words = text.get_text_range()
    assert "title" in words and "legal" in words and "Fine Print Games" in words
