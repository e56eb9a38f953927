"""Setting text: every character in a font that has it, markup to reportlab, located font errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit import fonts
from printkit.rulebook import book, composition
from printkit.rulebook import markdown as md
from printkit.rulebook.markdown import RulebookError, Span
from printkit.spec import DECKS_DIR

RULE_TEXTS = sorted(DECKS_DIR.glob("*.rules.*.md"))


def assert_every_glyph_present(text: str, faces: book.Faces) -> None:
    for font, run in book.font_runs(text, faces):
        assert fonts.missing_glyphs(run, font) == "", (run, font.name)


def test_font_runs_pick_dejavu_only_for_symbols_the_family_lacks():
    runs = book.font_runs("점수 9 − 2 × “7”, ♦ ♥", book.REGULAR)
    assert [(font.name, text) for font, text in runs] == [
        ("Pretendard-Regular.ttf", "점수 9 − 2 × “7”, "), ("DejaVuSans.ttf", "♦ "), ("Pretendard-Regular.ttf", "♥"),
    ]


def test_a_character_no_font_has_is_a_located_error():
    with pytest.raises(RulebookError, match=r"^r\.md:7: no bundled font has the character\(s\) '🀄' U\+1F004"):
        book.inline("tile 🀄", ("r.md", 7))


def test_a_title_character_no_font_has_is_an_error_where_the_title_was_written():
    cases = [
        ("<!-- a note -->\n\n# Tiles \U0001F004\n\nText.\n", {}, r"^r\.md:3:3: "),
        ("---\nsubtitle: x\ntitle: Tiles \U0001F004\n---\nText.\n", {}, r"^r\.md:3:8: "),
        ("Text.\n", {"default_title": "Tiles \U0001F004", "default_title_at": ("d.yaml", 2, 7)}, r"^d\.yaml:2:7: "),
    ]
    for text, given, where in cases:
        doc = md.parse(text, "r.md", **given)
        with pytest.raises(RulebookError, match=where + r"no bundled font has the character\(s\) '🀄' U\+1F004"):
            book.check_glyphs(doc)


def test_markup_names_a_font_for_every_run_and_escapes_xml():
    markup = book.spans_markup([Span("a<b"), Span("9−", bold=True), Span("x", code=True)])
    assert markup == ('<font name="Pretendard-Regular">a&lt;b</font>'
                      '<font name="Pretendard-Bold">9−</font>'
                      '<font backColor="#ececec"><font name="Pretendard-Regular">x</font></font>')



def test_one_run_in_the_style_font_is_left_bare_and_anything_more_keeps_every_tag():
    regular, bold = "Pretendard-Regular", "Pretendard-Bold"
    assert book.spans_markup([Span("a<b")], style_font=regular) == "a&lt;b"
    assert book.spans_markup([Span("a<b")], style_font=bold) == f'<font name="{regular}">a&lt;b</font>'
    assert book.spans_markup([Span("b")], bold=True, style_font=bold) == "b"
    # Two spans in the style font stay two fragments, as they were with their tags.
    assert book.spans_markup([Span("a "), Span("b", bold=True)], bold=True, style_font=bold) == (
        f'<font name="{bold}">a </font><font name="{bold}">b</font>')
    assert book.spans_markup([Span("9♦")], style_font=regular) == (
        f'<font name="{regular}">9</font><font name="DejaVuSans">♦</font>')
    assert book.spans_markup([Span("x", italic=True)], style_font=regular) == (
        f'<font color="{book.ITALIC_COLOR}"><font name="{regular}">x</font></font>')


def test_a_bare_paragraph_parses_to_the_fragments_of_its_tagged_markup():
    from reportlab.platypus import Paragraph

    book.register_fonts()
    style = book.make_styles(book.paper("a4")).body
    bare = book.paragraph("Words & more words", ("t.md", 1), style)
    tagged = Paragraph(book.inline("Words & more words", ("t.md", 1)), style)
    assert bare.text == "Words &amp; more words"

    def fragments(p):
        return [{k: v for k, v in vars(f).items() if k != "__tag__"} for f in p.frags]

    assert fragments(bare) == fragments(tagged)

@pytest.mark.parametrize("path", RULE_TEXTS, ids=lambda p: p.name)
def test_every_character_of_every_rule_text_exists_in_its_font(path: Path):
    doc = md.parse(path.read_text(encoding="utf-8"), str(path))
    assert_every_glyph_present(doc.title, book.BOLD)
    for block in doc.blocks:
        for text in md.block_texts(block):
            for span in md.parse_inline(text):
                faces = book.REGULAR if span.code else (book.BOLD if span.bold or isinstance(block, md.Heading) else book.REGULAR)
                assert_every_glyph_present(span.text, faces)


def test_calc_rule_texts_exist_in_both_languages():
    names = {p.name for p in RULE_TEXTS}
    assert {"calc.rules.ko.md", "calc.rules.en.md"} <= names


def test_paper_sizes():
    assert book.paper("a4").width_mm == 210 and book.paper("letter").height_mm == pytest.approx(279.4)
    with pytest.raises(Exception, match="'b5'"):
        book.paper("b5")


def _pages(text: str) -> list[str]:
    import io
    import re

    from pypdf import PdfReader

    doc = md.parse(text, "t.md")
    data, _ = book.render(doc, "en", lambda block: None, lambda fig, width: None, book.paper("a5"), compact=False)
    pages = PdfReader(io.BytesIO(data)).pages[2:]  # after the title page and the contents
    return [re.sub(r"\s+", " ", page.extract_text()) for page in pages]


FILLER = "A line of filler text."


@pytest.mark.parametrize("follower, marker", [
    ("> A highlighted note under the heading.", "A highlighted note"),  # kept whole: a KeepTogether
    ("| Head | Other |\n|---|---|\n| cell one | x |\n| cell two | y |", "cell two"),  # a short table
    ("Lead-in text before a table.\n\n| Head | Other |\n|---|---|\n| cell one | x |", "cell one"),
])
def test_a_heading_never_ends_a_page(follower, marker):
    # One more line at a time before the heading, so that it passes the foot of the page.
    for fillers in range(20, 34):
        text = "# T\n\n## First\n\n" + "\n\n".join([FILLER] * fillers) + f"\n\n### Last heading\n\n{follower}\n"
        pages = _pages(text)
        on = [i for i, page in enumerate(pages) if "1.1 Last heading" in page]
        assert len(on) == 1 and marker in pages[on[0]], (fillers, pages[on[0]][-200:])


def test_a_long_table_after_a_heading_splits_instead_of_moving_whole():
    rows = "\n".join(f"| row {n} | value {n} |" for n in range(40))
    text = "# T\n\n## First\n\n" + "\n\n".join([FILLER] * 8) + f"\n\n### Table\n\n| A | B |\n|---|---|\n{rows}\n"
    pages = _pages(text)
    heading_page = next(i for i, page in enumerate(pages) if "1.1 Table" in page)
    assert "row 0 " in pages[heading_page] and "First" in pages[heading_page]


def test_body_paragraphs_leave_no_single_line_behind():
    assert book.make_styles(book.paper("a4")).body.allowWidows == 0
    assert book.make_styles(book.paper("a4")).body.allowOrphans == 0


def test_narrow_tables_stay_compact_and_centred_wide_ones_fill_the_text_width():
    book.register_fonts()  # paragraph styles name the bundled fonts
    styles = book.make_styles(book.paper("a4"))
    narrow = book._table(("Player", "Bid"), [("Player 1", "1"), ("Player 4 (dealer)", "5, 6, 7")], styles, 480.0, ("t.md", 1))
    assert sum(narrow._colWidths) < 480.0 * 0.6 and narrow.hAlign == "CENTER"
    words = "a cell with a good many words in it, enough to need more than one line of the table"
    wide = book._table(("Step", "What happens"), [("1", words), ("2", words)], styles, 480.0, ("t.md", 1))
    assert sum(wide._colWidths) == pytest.approx(480.0) and wide.hAlign == "LEFT"


def test_a_split_table_leaves_at_least_three_rows_on_each_page():
    import re

    rows = "\n".join(f"| row{n:02d} | value |" for n in range(10))
    for fillers in range(14, 30):
        text = "# T\n\n## First\n\n" + "\n\n".join([FILLER] * fillers) + f"\n\nSome text.\n\n| A | B |\n|---|---|\n{rows}\n"
        counts = [len(re.findall(r"row\d\d", page)) for page in _pages(text)]
        assert sum(counts) == 10 and all(c == 0 or c >= book.MIN_SPLIT_ROWS for c in counts), (fillers, counts)



def _calc_book(lang: str) -> bytes:
    from printkit.rulebook.producer import render_rulebook

    return render_rulebook(DECKS_DIR / "calc.yaml", lang, "a5").data


def test_the_layout_only_first_pass_sets_the_same_bytes_as_drawing_every_pass(monkeypatch):
    sketched = _calc_book("en")
    # Without the pass counting every pass draws, as plain multiBuild does.
    monkeypatch.setattr(book.RulebookDoc, "beforeDocument", lambda self: None)
    assert _calc_book("en") == sketched


def _headings_book(count: int) -> bytes:
    text = "# T\n\n" + "".join(f"## Heading {i}\n\n" + ("Some text. " * (i % 5)) + "\n\n" for i in range(count))
    doc = md.parse(text, "t.md")
    return book.render(doc, "en", lambda block: None, lambda fig, width: None, book.paper("a5"), compact=False)[0]


def test_long_contents_set_the_same_bytes_as_reportlabs_own_table_and_passes(monkeypatch):
    """Contents over many pages, sized a few rows at a time and split page by page, with their
    second pass only laid out, come out as reportlab's one table split by itself, every pass drawn."""
    from reportlab.platypus.doctemplate import BaseDocTemplate
    from reportlab.platypus.tableofcontents import TableOfContents

    ours = _headings_book(300)

    def plain_wrap(self, width, height):
        self.levelStyles = [self._fitted(level, style) for level, style in enumerate(self._styles)]
        return TableOfContents.wrap(self, width, height)

    monkeypatch.setattr(book.BookContents, "wrap", plain_wrap)
    monkeypatch.setattr(book.BookContents, "split", TableOfContents.split)
    monkeypatch.setattr(book.RulebookDoc, "handle_flowable", BaseDocTemplate.handle_flowable)
    assert _headings_book(300) == ours


def test_rows_of_the_contents_are_sized_once_per_pass(monkeypatch):
    """reportlab's table sizes its rows again for what is left after each page: work growing with
    the square of the headings (10,000 took minutes). Here the rows given to tables grow as the
    headings do."""
    from reportlab.platypus import tables

    made = []
    real = tables.Table.__init__

    def counting(self, data, *args, **kwargs):
        made.append(len(data))
        real(self, data, *args, **kwargs)

    monkeypatch.setattr(tables.Table, "__init__", counting)
    rows = []
    sizes = (200, 800, 10_000)
    for count in sizes:
        made.clear()
        _headings_book(count)
        rows.append(sum(made))
    for (small, large), (fewer, more) in zip(zip(sizes, sizes[1:]), zip(rows, rows[1:])):
        assert more < 1.15 * (large / small) * fewer, (sizes, rows)


def test_a_long_contents_is_made_once_and_the_body_laid_out_twice(monkeypatch):
    """Contents over several pages need three passes (the first learns the headings' pages, the
    second how long the contents are, the third draws). The second lays out only the title and the
    contents, the body following them unchanged, and its entries of contents, parsed, serve the third."""
    from reportlab.platypus.paraparser import ParaParser

    placed, parsed = [], []
    real_add, real_parse = composition.LayoutFrame.add, ParaParser.parse

    def add(self, flowable, canv, trySplit=0):
        placed.append(type(flowable))
        return real_add(self, flowable, canv, trySplit)

    def parse(self, text, style):
        parsed.append(text)
        return real_parse(self, text, style)

    monkeypatch.setattr(composition.LayoutFrame, "add", add)
    monkeypatch.setattr(ParaParser, "parse", parse)
    _headings_book(300)
    assert placed.count(book.HeadingParagraph) == 2 * 300
    entries = [text for text in parsed if "bookContentsEnd" in text and "Placeholder" not in text]
    assert len(entries) == len(set(entries)) == 300


def test_a_book_without_headings_is_drawn_in_its_only_pass():
    assert _pages("# T\n\nJust one paragraph, and no heading to list.\n") == [
        "3 Just one paragraph, and no heading to list. "
    ]


def test_a_frame_that_does_not_draw_still_places_flowables():
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Flowable

    drawn = []

    class Box(Flowable):
        def wrap(self, aw, ah):
            return aw, 50

        def draw(self):
            drawn.append(self)

    def frame():
        return composition.LayoutFrame(0, 0, 200, 120, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)

    canvas = Canvas(None)
    sketch = frame()
    sketch.drawing = False
    boxes = [Box(), Box(), Box()]
    assert [sketch.add(b, canvas) for b in boxes] == [1, 1, 0]  # the third no longer fits
    assert drawn == [] and all("drawOn" not in vars(b) for b in boxes)
    assert frame().add(boxes[0], canvas) == 1 and drawn == [boxes[0]]
    own = Box()
    own.drawOn = lambda *args, **kwargs: drawn.append("own")  # a drawOn of its own survives the sketch
    another = frame()
    another.drawing = False
    assert another.add(own, canvas) == 1 and drawn == [boxes[0]] and own.drawOn.__name__ == "<lambda>"


def test_a_paragraph_breaks_its_lines_once_per_width_as_a_plain_one_would():
    from reportlab.platypus import Paragraph

    book.register_fonts()
    style = book.make_styles(book.paper("a4")).body
    markup = book.inline(" ".join(["Some words to break over several lines."] * 12), ("t.md", 1))
    para, plain = book.BookParagraph(markup, style), Paragraph(markup, style)
    wide = para.wrap(400, 1000)
    first = para.blPara
    narrow = para.wrap(150, 1000)
    assert narrow[1] > wide[1] and para.blPara is not first
    assert para.wrap(400, 1000) == wide == plain.wrap(400, 1000) and para.blPara is first
    parts, plain_parts = para.split(400, style.leading * 3.5), plain.split(400, style.leading * 3.5)
    assert len(parts) == len(plain_parts) == 2
    for part, plain_part in zip(parts, plain_parts):
        assert type(part) is book.BookParagraph
        assert part.wrap(400, 1000) == plain_part.wrap(400, 1000)


def test_a_width_too_small_to_set_anything_is_not_remembered_with_older_lines():
    book.register_fonts()
    style = book.make_styles(book.paper("a4")).body
    para = book.BookParagraph(book.inline("A few words.", ("t.md", 1)), style)
    para.wrap(400, 1000)
    assert para.wrap(1e-9, 1000) == (0, 0x7FFFFFFF)
    assert para.wrap(1e-9, 1000) == (0, 0x7FFFFFFF)  # asked again: still nothing fits, not the 400-wide lines


def test_a_short_book_opens_with_its_title_and_has_no_contents_page():
    import io

    from pypdf import PdfReader

    doc = md.parse("# Tiny game\n\n## Rules\n\nTake a card. Play a card.\n", "t.md")
    data, pages = book.render(doc, "en", lambda block: None, lambda fig, width: None, book.paper("a5"))
    text = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert pages == len(text) == 1
    assert text[0].index("Tiny game") < text[0].index("Rules") < text[0].index("Take a card")
    assert "Contents" not in text[0]


def test_a_short_last_word_is_tied_to_the_one_before_it():
    from printkit.rulebook.book import NBSP, tie_last_word

    assert tie_last_word("play it") == f"play{NBSP}it"
    assert tie_last_word("합니다 않음") == f"합니다{NBSP}않음"
    assert tie_last_word('a <font name="X">b</font> <b>cd</b>') == f'a <font name="X">b</font>{NBSP}<b>cd</b>'
    assert tie_last_word("keep longer") == "keep longer"  # 6 characters stand alone well enough
    assert tie_last_word("one") == "one"


def test_columns_keep_their_longest_word_when_squeezed():
    from printkit.rulebook.book import column_widths

    widths = column_widths([50, 30, 20], [300, 60, 40], 200)
    assert sum(widths) == pytest.approx(200)
    assert all(w >= least for w, least in zip(widths, [50, 30, 20]))
    assert column_widths([10, 10], [40, 60], 200) == pytest.approx([64, 96])  # widened at most 1.6 times


def test_inline_code_does_not_break_at_its_spaces():
    from printkit.rulebook.book import NBSP, spans_markup

    assert f"printkit{NBSP}build{NBSP}calc" in spans_markup(md.parse_inline("run `printkit build calc` now"))


COMMAND = "printkit build mygame --booklet --rulebook-paper a5 --per-card --gap 3 --flip short --back-offset 1,2"


def _page_lines(text: str, paper: str = "a5") -> list[str]:
    """The lines of a book of ``text``, as printed."""
    import pypdfium2 as pdfium

    data, _ = book.render(md.parse(text, "t.md"), "en", lambda block: None, lambda fig, width: None, book.paper(paper))
    pages = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data)]
    return [line.strip() for page in pages for line in page.splitlines()]


def test_inline_code_longer_than_a_line_breaks_only_at_its_spaces():
    # The tester's A5 book: the command was split as "--flip s" / "hort".
    lines = _page_lines(f"# M\n\n## Print\n\nRun `{COMMAND}` to print.\n")
    body = [line for line in lines if "--" in line]
    first, second = body
    assert first.startswith("Run ") and second.endswith(" to print."), body
    head, tail = first[len("Run "):], second[:-len(" to print.")]
    assert f"{head} {tail}" == COMMAND  # broken at one of its spaces, every word of it whole


def test_inline_code_that_fits_a_line_moves_to_the_next_whole():
    code = "printkit check --no-play --rulebook-paper a5"
    lines = _page_lines(f"# M\n\n## Check\n\nA sentence long enough to fill most of a line first, then `{code}` as typed.\n")
    assert any(line.startswith(code) for line in lines), lines
    assert book.code_warnings(md.parse(f"# M\n\nRun `{COMMAND}` now.\n", "t.md"), list(book.PAPERS.values())) == []


def test_inline_code_with_a_piece_wider_than_a_line_is_a_warning_at_its_line():
    url = "https://example.com/a/very/long/path/without/any/spaces/at/all/to/break/at/index.html"
    doc = md.parse(f"# M\n\nSome text.\n\nLoad `{url}` now.\n\n- an item `{url}`\n", "t.md")
    assert book.code_warnings(doc, [book.paper("a4"), book.paper("a5")]) == [
        f"t.md:5: inline code: {url!r} has no space to break a line at and is wider than a line on a5 pages, so it is "
        "split between letters; shorten it, or put a space or a zero-width space (U+200B) where it may break",
        f"t.md:7: inline code: {url!r} has no space to break a line at and is wider than a line on a5 pages, so it is "
        "split between letters; shorten it, or put a space or a zero-width space (U+200B) where it may break"]
    assert book.code_warnings(doc, [book.paper("a4")]) == []


def test_check_and_build_say_inline_code_is_split_between_letters_at_its_line(tmp_path):
    from cli_in import invoke_in

    url = "https://example.com/a/very/long/path/without/any/spaces/at/all/to/break/at/index.html"
    (tmp_path / "cd.yaml").write_text("game: cd\nname: Cd\ngroups:\n  - name: a\n    cards: [{title: A}]\n",
                                      encoding="utf-8")
    (tmp_path / "cd.rules.en.md").write_text(f"# A\n\nLoad `{url}` now.\n", encoding="utf-8")
    for command, papers in ((("check", "cd.yaml", "--no-play"), "a5, half-letter"),
                            (("build", "cd.yaml", "--out", "out", "--no-proof", "--rulebook-paper", "a5"), "a5")):
        result = invoke_in(tmp_path, *command)
        assert result.exit_code == 0, result.output
        said = [line for line in result.output.splitlines() if "cd.rules.en.md" in line]
        assert len(said) == 1 and f"cd.rules.en.md:3: inline code: {url!r} has no space to break a line at and is " \
            f"wider than a line on {papers} pages" in said[0], said


def test_soft_hyphens_and_zero_width_spaces_stay_out_of_the_outline_and_title():
    import io

    from pypdf import PdfReader

    text = "---\ntitle: Big\u00adgame\u200bbook\n---\n\n# Ex\u00adtra\u00ador\u00addi\u00adnary heading\n\nText.\n"
    data, _ = book.render(md.parse(text, "t.md"), "en", lambda block: None, lambda fig, width: None,
                          book.paper("a5"))
    reader = PdfReader(io.BytesIO(data))
    assert [entry.title for entry in reader.outline] == ["1 Extraordinary heading"]
    assert reader.metadata.title == "Biggamebook"


def test_a_zero_width_space_prints_nothing_but_lets_a_line_break_there():
    import pypdfium2 as pdfium

    for text in ("Four abcdef\u200bghijk end.", "Four **bold** abcdef\u200bghijk end."):  # one run, and several
        doc = md.parse(f"# M\n\n{text}\n", "t.md")
        data, _ = book.render(doc, "en", lambda block: None, lambda fig, width: None, book.paper("a5"))
        page = pdfium.PdfDocument(data)[0].get_textpage()
        chars = [(page.get_text_range(i, 1), page.get_charbox(i)) for i in range(page.count_chars())]
        printed = [(ch, box) for ch, box in chars if ch.strip()]
        at = "".join(ch for ch, _ in printed).index("abcdef")
        (_, d), (_, e), (_, f), (g_char, g) = [printed[at + i] for i in (3, 4, 5, 6)]
        assert g_char == "g" and g[0] - f[2] < (e[0] - d[2]) + 0.3, text  # no wider than between two letters
    book.register_fonts()
    style = book.make_styles(book.paper("a5")).body
    para = book.paragraph("Aaaaaaaaaa\u200bbbbbbbbbbb\u200bcccccccccc", ("t.md", 1), style)
    para.wrap(80, 1000)  # room for one piece a line
    assert ["".join(frag.text for frag in line.words).strip() for line in para.blPara.lines] == [
        "Aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]


LONG_WORD = "Extraordinarilylongwordhere"  # 27 letters


def _long_word_table(columns: int, word: str = LONG_WORD) -> str:
    return f"| {' | '.join([word] * columns)} |\n|{'---|' * columns}\n| {' | '.join([word] * columns)} |\n"


def _table_lines(text: str) -> list[str]:
    import io

    from pypdf import PdfReader

    data, _ = book.render(md.parse(f"# A\n\nThe table:\n\n{text}", "t.md"), "en", lambda block: None,
                          lambda fig, width: None, book.paper("a4"))
    return [line.strip() for line in PdfReader(io.BytesIO(data)).pages[0].extract_text().splitlines()]


def test_a_table_too_wide_for_its_words_is_set_smaller_before_a_word_is_split():
    book.register_fonts()
    styles = book.make_styles(book.paper("a4"))
    setting = book.table_setting([LONG_WORD] * 5, [[LONG_WORD] * 5], styles, 481.9, ("t.md", 3))
    assert book.MIN_TABLE_TEXT_PT <= styles.cell.fontSize * setting.scale < styles.cell.fontSize
    assert setting.split == ()
    lines = _table_lines(_long_word_table(5))
    assert lines.count(LONG_WORD) == 10  # every word whole, on a line of its own
    assert book.table_warnings(md.parse(f"# A\n\n{_long_word_table(5)}", "t.md"), [book.paper("a4")]) == []


def test_a_table_that_splits_a_word_even_at_its_smallest_text_is_a_warning_at_its_line():
    doc = md.parse(f"# A\n\n{_long_word_table(8)}", "t.md")
    assert book.table_warnings(doc, [book.paper("a4"), book.paper("a5")]) == [
        f"t.md:3: table: its columns cannot keep the word(s) '{LONG_WORD}' whole on a4, a5 pages, even with its "
        "text at 6 pt, so they are split between letters; give the table fewer columns or shorter words, or mark "
        "where a word may break with a soft hyphen (U+00AD)"]


def test_soft_hyphens_are_where_a_table_cell_breaks_a_long_word():
    word = "Extra\u00adordinarily\u00adlong\u00adwordhere"
    doc = md.parse(f"# A\n\n{_long_word_table(8, word)}", "t.md")
    assert book.table_warnings(doc, [book.paper("a4")]) == []
    book.register_fonts()
    styles = book.make_styles(book.paper("a4"))
    assert book.table_setting([word] * 8, [[word] * 8], styles, 481.9, ("t.md", 3)).scale == 1.0  # full size
    lines = _table_lines(_long_word_table(8, word))
    assert lines.count("Extra-") == 16 and lines.count("wordhere") == 16, lines


def test_check_and_build_say_a_table_splits_a_word_at_its_line(tmp_path):
    from cli_in import invoke_in

    (tmp_path / "tbl.yaml").write_text("game: tbl\nname: Tbl\ngroups:\n  - name: a\n    cards: [{title: A}]\n",
                                       encoding="utf-8")
    (tmp_path / "tbl.rules.en.md").write_text(f"# A\n\n{_long_word_table(8)}", encoding="utf-8")
    for command, papers in ((("check", "tbl.yaml", "--no-play"), "a4, a5, letter, half-letter"),
                            (("build", "tbl.yaml", "--out", "out", "--no-proof"), "a4")):
        result = invoke_in(tmp_path, *command)
        assert result.exit_code == 0, result.output
        said = [line for line in result.output.splitlines() if "tbl.rules.en.md" in line]
        assert len(said) == 1 and f"tbl.rules.en.md:3: table: its columns cannot keep the word(s) '{LONG_WORD}' " \
            f"whole on {papers} pages" in said[0], said


def test_a_booklet_says_a_table_that_splits_a_word_only_on_its_smaller_pages(tmp_path):
    from cli_in import invoke_in

    (tmp_path / "tbl.yaml").write_text("game: tbl\nname: Tbl\ngroups:\n  - name: a\n    cards: [{title: A}]\n",
                                       encoding="utf-8")
    (tmp_path / "tbl.rules.en.md").write_text(f"# A\n\n{_long_word_table(5)}", encoding="utf-8")  # fits A4, not A5
    result = invoke_in(tmp_path, "build", "tbl.yaml", "--out", "out", "--no-proof", "--booklet")
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "tbl.rules.en.md" in line]
    assert len(said) == 1 and "tbl.rules.en.md:3: table: " in said[0] and " whole on a5 pages" in said[0], said
