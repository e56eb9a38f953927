"""Whole Calc rulebooks: headings, computed values, figures on their pages, sizes, the build hook."""

from __future__ import annotations

import io
import json
import re

import pikepdf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from printkit.pipeline.build import build
from printkit.pipeline.context import BuildOptions
from printkit.pipeline.producers import produce_rulebooks
from printkit.games.calc import rulebook as calc_content
from printkit.rulebook.markdown import RulebookError
from printkit.rulebook.producer import render_rulebook
from printkit.spec.files import rule_texts
from printkit.spec import DECKS_DIR
from printkit.decks import load_all_variants, load_deck
from printkit.units import mm_to_pt

CALC = DECKS_DIR / "calc.yaml"
HEADINGS = {
    "ko": ["게임 소개", "구성물", "게임 준비", "차례 진행", "특수 규칙", "7 잠금", "조커", "게임의 끝", "점수 계산",
           "기본 게임과 전문가용 게임", "자주 묻는 질문"],
    "en": ["Overview", "Components", "Setup", "Playing a turn", "Special rules", "The 7-lock", "The joker",
           "End of the game", "Scoring", "Standard and expert games", "Frequently asked questions"],
}
# Figure captions (from the content module) and the pages that must therefore show cards.
FIGURE_CAPTIONS = {"ko": ["왼쪽부터 덧셈", "맨 아래(왼쪽)부터", "끝난 뒤 지우의 페이"],
                   "en": ["From the left: plus", "Scored from the bottom", "Ana\u2019s pay afterwards"]}  # as set: a curly apostrophe


@pytest.fixture(scope="module", params=["ko", "en"])
def rulebook(request):
    lang = request.param
    result = render_rulebook(CALC, lang, "a4")
    reader = PdfReader(io.BytesIO(result.data))
    texts = [page.extract_text() for page in reader.pages]
    return lang, result, reader, texts


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_headings_are_numbered_and_listed_in_the_contents(rulebook):
    lang, _, _, texts = rulebook
    body = flat(" ".join(texts[2:]))
    contents = flat(texts[1])
    for heading in HEADINGS[lang]:
        assert re.search(rf"\d+(\.\d+)? {re.escape(heading)}", body), heading
        assert heading in contents, heading
    assert "1 " + HEADINGS[lang][0] in body
    assert ("목차" if lang == "ko" else "Contents") in contents


def test_title_page_and_page_numbers(rulebook):
    _, result, reader, texts = rulebook
    assert "Calc" in texts[0]
    assert result.pages == len(reader.pages) >= 6
    for number, text in enumerate(texts[1:], start=2):
        assert re.search(rf"(^|\n){number}(\n|$)", text), f"page {number} shows no page number"
    assert reader.outline, "headings are in the PDF outline"


def test_computed_example_values_appear(rulebook):
    lang, _, _, texts = rulebook
    deck = load_deck(CALC)
    text = flat(" ".join(texts))
    seed = calc_content.seed(deck, lang)
    lock = calc_content.lock_joker(deck, lang)
    final = calc_content.final(deck, lang)
    power = calc_content.power(deck, lang)
    assert seed.values["score"] == "52"
    for expected in ["9 × 5 = 45", "45 − 2 = 43", "43 + 1 = 44", "44 + 8 = 52", f"{power.values['score']}"]:
        assert expected in text
    assert lock.values["locked"] == "63" and lock.values["final"] == "−4"
    for value in (lock.values["locked"], lock.values["after_joker"], lock.values["final"],
                  final.values["winner_score"], final.values["runner_up_score"]):
        assert value in text
    assert "1/9" in text and "133" in text and "177" in text


def _coloured_pixels(pdf: pdfium.PdfDocument, index: int) -> int:
    image = pdf[index].render(scale=0.5).to_pil().convert("HSV")
    # Card art is saturated colour; text, rules and table shading are grey or pale.
    return sum(1 for _, saturation, value in image.get_flattened_data() if saturation > 120 and value > 60)


def test_figures_are_drawn_on_the_pages_that_promise_them(rulebook):
    lang, result, _, texts = rulebook
    pdf = pdfium.PdfDocument(result.data)
    assert _coloured_pixels(pdf, 1) < 50, "the contents page has no figure"
    assert _coloured_pixels(pdf, 0) > 800, "the title page shows cards"
    for caption in FIGURE_CAPTIONS[lang]:
        index = next(i for i, t in enumerate(texts) if caption in flat(t))
        assert _coloured_pixels(pdf, index) > 800, f"no cards drawn on page {index + 1} ({caption!r})"


def test_fonts_are_embedded(rulebook):
    _, _, reader, _ = rulebook
    names = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            names.add(str(font["/BaseFont"]))
            if "/DescendantFonts" in font:
                font = font["/DescendantFonts"][0].get_object()
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), font["/BaseFont"]
    assert any("Pretendard-Regular" in n for n in names) and any("Pretendard-Bold" in n for n in names)
    # Calc's book needs no symbol the family lacks: DejaVu Sans is not even embedded.
    assert not any("DejaVu" in n for n in names)


def test_streams_are_compressed_without_an_ascii_layer(rulebook):
    """Flate only, as in the card PDFs: ASCII85 on top would make the file a quarter larger."""
    _, _, reader, _ = rulebook
    filters = set()
    for page in reader.pages:
        contents = page["/Contents"].get_object()
        for stream in contents if isinstance(contents, list) else [contents]:
            f = stream.get_object().get("/Filter")
            filters.update([str(x) for x in f] if isinstance(f, list) else [str(f)])
    assert filters == {"/FlateDecode"}


def test_reproducible_bytes():
    assert render_rulebook(CALC, "en", "a5").data == render_rulebook(CALC, "en", "a5").data


@pytest.mark.parametrize("paper, size_mm", [("a5", (148, 210)), ("letter", (215.9, 279.4))])
def test_paper_sizes(paper, size_mm):
    page = PdfReader(io.BytesIO(render_rulebook(CALC, "ko", paper).data)).pages[0]
    assert float(page.mediabox.width) == pytest.approx(mm_to_pt(size_mm[0]), abs=0.1)
    assert float(page.mediabox.height) == pytest.approx(mm_to_pt(size_mm[1]), abs=0.1)


@pytest.mark.parametrize("paper, booklet", [("a4", False), ("letter", False), ("a5", False), ("a4", True),
                                           ("letter", True)])
def test_every_page_names_a_trim_box_and_a_bleed_box_the_page_itself(paper, booklet):
    # A print shop's preflight (and PDF/X) wants both boxes on every page. A book page has no bleed
    # and is its finished size; a booklet sheet is folded and stapled, never cut, so its trim is
    # the whole sheet too.
    with pikepdf.open(io.BytesIO(render_rulebook(CALC, "en", paper, booklet=booklet).data)) as pdf:
        assert len(pdf.pages) > 1
        for page in pdf.pages:
            media = [float(v) for v in page.obj["/MediaBox"]]
            assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
            assert [float(v) for v in page.obj["/TrimBox"]] == media
            assert [float(v) for v in page.obj["/BleedBox"]] == media
        width, height = (float(v) for v in pdf.pages[0].obj["/MediaBox"][2:])
        assert width > height if booklet else width < height  # a booklet's boxes are its landscape sheet's


def test_unknown_value_in_a_rule_text_is_a_located_build_error(tmp_path):
    text = tmp_path / "calc.rules.en.md"
    text.write_text("# Calc\n\n## Cards\n\nThere are {{ deck.total }} cards\nand {{ deck.by.symbol.divide }}.\n")
    with pytest.raises(RulebookError, match=r"calc\.rules\.en\.md:6: unknown value 'deck\.by\.symbol\.divide'"):
        render_rulebook(CALC, "en", text_path=text)


def test_unknown_figure_is_a_located_build_error(tmp_path):
    text = tmp_path / "calc.rules.en.md"
    text.write_text("# Calc\n\n## Cards\n\n::: figure unicorns\n")
    with pytest.raises(RulebookError, match=r"calc\.rules\.en\.md:5: unknown figure 'unicorns' for game 'calc'"):
        render_rulebook(CALC, "en", text_path=text)


def test_a_nested_list_item_is_refused_at_its_line_by_check_and_build(tmp_path):
    from printkit.rulebook.producer import check_rule_text

    spec = _copy_spec(tmp_path, "mycalc", "My Calc")
    (tmp_path / "mycalc.rules.en.md").write_text("# T\n\n- item\n  - nested item\n- item3\n")
    said = r"mycalc\.rules\.en\.md:4:3: lists do not nest: '- nested item' is indented under the item before it"
    with pytest.raises(RulebookError, match=said):
        check_rule_text(spec, "en")
    with pytest.raises(RulebookError, match=said):
        render_rulebook(spec, "en", "a4")


def test_build_writes_rulebooks_and_booklets_with_manifest_entries(tmp_path):
    assert set(rule_texts(CALC)) == {"ko", "en"}
    decks = load_all_variants(CALC)
    options = BuildOptions(out_dir=tmp_path, rulebook_paper="a4", booklet=True)
    result = build(decks, options, producers=(produce_rulebooks,))
    manifest = json.loads(result.manifest.read_text())
    books = {(f["kind"], f["lang"]): f for f in manifest["files"]}
    assert set(books) == {("rulebook", "ko"), ("rulebook", "en"), ("rulebook-booklet", "ko"), ("rulebook-booklet", "en")}
    for entry in books.values():
        assert entry["deck"] == "calc" and entry["variant"] is None
        reader = PdfReader(tmp_path / entry["path"])
        assert len(reader.pages) == entry["pages"]
    booklet = books[("rulebook-booklet", "ko")]
    assert booklet["path"] == "calc/rulebook-ko-booklet-a4.pdf" and booklet["pages"] % 2 == 0
    page = PdfReader(tmp_path / booklet["path"]).pages[0]
    assert float(page.mediabox.width) == pytest.approx(mm_to_pt(297), abs=0.1)
    assert books[("rulebook", "en")]["path"] == "calc/rulebook-en-a4.pdf"
    assert not list(tmp_path.rglob("*.tmp"))


def test_cli_build_options(tmp_path):
    from click.testing import CliRunner

    from printkit.cli import main

    result = CliRunner().invoke(main, ["build", "calc", "--rulebook-paper", "letter", "--booklet", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for name in ("rulebook-ko-letter.pdf", "rulebook-en-letter.pdf", "rulebook-ko-booklet-letter.pdf",
                 "rulebook-en-booklet-letter.pdf"):
        assert (tmp_path / "calc" / name).is_file(), name
    page = PdfReader(tmp_path / "calc/rulebook-en-booklet-letter.pdf").pages[0]
    assert float(page.mediabox.width) == pytest.approx(mm_to_pt(279.4), abs=0.1)
    bad = CliRunner().invoke(main, ["build", "calc", "--rulebook-paper", "b5", "--out", str(tmp_path)])
    assert bad.exit_code == 2


def test_every_shipped_game_gets_a_rulebook_in_both_languages(tmp_path):
    from printkit.spec import all_spec_paths

    decks = [load_all_variants(spec)[0] for spec in all_spec_paths()]
    result = build(decks, BuildOptions(out_dir=tmp_path), producers=(produce_rulebooks,))
    books = {(e.deck, e.lang) for e in result.entries if e.kind == "rulebook"}
    assert books == {(game, lang) for game in ("calc", "stack", "clag", "emberfall") for lang in ("ko", "en")}


def _copy_spec(folder, stem: str, name: str):
    """A copy of the bundled Calc spec under another file name and deck name."""
    text = CALC.read_text(encoding="utf-8").replace("name: Calc\n", f"name: {name}\n")
    assert f"name: {name}\n" in text
    path = folder / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_copied_spec_falls_back_to_the_bundled_texts_titled_with_its_own_name(tmp_path):
    spec = _copy_spec(tmp_path, "mycalc", "My Calc")
    assert rule_texts(spec) == {}  # nothing of its own beside it
    assert rule_texts(spec, "calc") == {"ko": DECKS_DIR / "calc.rules.ko.md", "en": DECKS_DIR / "calc.rules.en.md"}
    for lang in ("ko", "en"):
        reader = PdfReader(io.BytesIO(render_rulebook(spec, lang, "a5").data))
        assert "My Calc" in reader.pages[0].extract_text()
        assert reader.metadata.title == "My Calc"
    result = build(load_all_variants(spec), BuildOptions(out_dir=tmp_path / "out"), producers=(produce_rulebooks,))
    assert {e.path for e in result.entries} == {"mycalc/rulebook-ko-a4.pdf", "mycalc/rulebook-en-a4.pdf"}
    assert result.warnings == ()


def test_texts_beside_a_spec_replace_all_bundled_ones(tmp_path):
    spec = _copy_spec(tmp_path, "mycalc", "My Calc")
    (tmp_path / "mycalc.rules.en.md").write_text("# Rules of {{ deck.name }}\n\n## Cards\n\n{{ deck.total }} cards.\n")
    assert rule_texts(spec, "calc") == {"en": tmp_path / "mycalc.rules.en.md"}
    texts = [p.extract_text() for p in PdfReader(io.BytesIO(render_rulebook(spec, "en", "a5").data)).pages]
    assert "Rules of My Calc" in texts[0] and "133 cards." in flat(" ".join(texts))


def test_a_text_without_a_title_takes_the_spec_name(tmp_path):
    spec = _copy_spec(tmp_path, "mycalc", "My *Calc*")  # markup characters in a name are literal
    (tmp_path / "mycalc.rules.en.md").write_text("## Cards\n\n{{ deck.total }} cards.\n")
    assert "My *Calc*" in PdfReader(io.BytesIO(render_rulebook(spec, "en", "a5").data)).pages[0].extract_text()


def test_bundled_texts_that_do_not_fit_an_edited_spec_say_how_to_write_ones_own(tmp_path):
    spec = tmp_path / "tiny.yaml"
    spec.write_text("game: calc\nname: Tiny\ncard:\n  size: poker\ngroups:\n  - name: numbers\n"
                    "    attrs: { kind: number }\n    generate:\n      symbol: [plus]\n      number: [1, 2]\n")
    with pytest.raises(RulebookError, match=r"unknown value .*write tiny\.rules\.en\.md beside it"):
        render_rulebook(spec, "en")


def test_build_warns_about_a_deck_without_any_rule_text(tmp_path):
    spec = tmp_path / "demo.yaml"
    spec.write_text("game: demo\nname: Demo\ncard:\n  size: mini\ngroups:\n  - name: notes\n"
                    "    cards:\n      - { text: short }\n")
    result = build(load_all_variants(spec), BuildOptions(out_dir=tmp_path / "out"), producers=(produce_rulebooks,))
    assert result.entries == ()
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("demo: no rulebook") and "demo.rules.<lang>.md" in result.warnings[0]


def test_a_section_heading_shares_its_page_with_the_example_it_leads_to(rulebook):
    lang, _, _, texts = rulebook
    heading = "7.3 승리" if lang == "ko" else "7.3 Winning"
    caption = calc_content.final(load_deck(CALC), lang).caption
    pages = [i for i, text in enumerate(texts[2:], start=2) if heading in flat(text)]
    assert pages and caption in flat(texts[pages[0]])


def test_a_figure_failing_for_a_copied_spec_says_how_to_write_ones_own(tmp_path, monkeypatch):
    from printkit.errors import BuildError
    from printkit.rulebook import book

    def failing(*args, **kwargs):
        raise BuildError("figure 'symbols': no card with symbol 'power'")

    monkeypatch.setattr(book, "render", failing)
    spec = _copy_spec(tmp_path, "mycalc", "My Calc")
    with pytest.raises(BuildError, match=r"'power' \(printkit's calc rules do not fit mycalc\.yaml; write mycalc\.rules\.ko\.md"):
        render_rulebook(spec, "ko")
    with pytest.raises(BuildError, match=r"'power'$"):  # the bundled spec's own book gets no hint
        render_rulebook(CALC, "ko")


def test_an_example_quoted_inline_and_set_as_a_block_is_worked_out_once(tmp_path, monkeypatch):
    calls = []
    power = calc_content.EXAMPLES["power"]

    def counted(deck, lang):
        calls.append(lang)
        return power(deck, lang)

    monkeypatch.setitem(calc_content.EXAMPLES, "power", counted)
    text = tmp_path / "calc.rules.en.md"
    text.write_text("# Calc\n\n## Power\n\nThe pay scores {{ example.power.score }}.\n\n::: example power\n")
    texts = PdfReader(io.BytesIO(render_rulebook(CALC, "en", "a5", text_path=text).data)).pages
    assert calls == ["en"]
    score = calc_content.EXAMPLES["power"](load_deck(CALC), "en").values["score"]
    assert f"The pay scores {score}." in flat(" ".join(p.extract_text() for p in texts))
