"""Set a parsed rule text as a PDF with reportlab platypus.

The book has a title page, a table of contents, numbered headings (also in the PDF outline),
page numbers, tables, highlighted notes, card figures and worked examples. Text is set in
Pretendard (Hangul, Latin, ``−`` U+2212, ``×``, curly quotes); every symbol it lacks (``♦`` U+2666 …)
is set in DejaVu Sans, chosen per run of characters, so no glyph is ever missing. A character neither
font has is a build error naming the rule text's file and line.
"""

from __future__ import annotations

import io
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    ListFlowable,
    ListItem,
    NextPageTemplate,
    PageBreak,
    Spacer,
    Table,
    TableStyle,
)

from printkit import direction, fonts
from printkit.deck import Deck
from printkit.errors import BuildError
from printkit.games import icons as builtin_icons
from printkit.layout.icons import Icon
from printkit.layout.markup import hex_color, unknown_color, unknown_icon
from printkit.layout.richmeasure import ICON_CAP_HEIGHTS, ICON_SIDE_GAP_EM
from printkit.layout.text import font_metrics
from printkit.render.pictures import binary_streams
from printkit.render.subset_tags import embed_fonts
from printkit.rulebook import markdown as md
from printkit.rulebook.composition import MIN_SPLIT_ROWS, FloatingFigure, _height_pt, keep_with_next
from printkit.rulebook.content import CardParts, Example, Figure, GameContent, TableSetup, words_lang
from printkit.rulebook.content import Table as ContentTable
from printkit.rulebook.contents import BookContents
from printkit.rulebook.document import RulebookDoc
from printkit.rulebook.inline_icons import icon_color, icon_markup
from printkit.rulebook.paragraphs import NBSP, BookParagraph, CodeBreaks, HeadingParagraph
# PAPERS and paper: a book's page sizes are named through this module (producer, booklet)
from printkit.rulebook.styles import PAPERS, Paper, Styles, make_styles, paper  # noqa: F401
from printkit.units import mm_to_pt

# ---------------------------------------------------------------- fonts and inline markup


@dataclass(frozen=True, init=False)
class Faces:
    """The font files for one text style: the main font first, then those that set the glyphs it
    lacks, in order."""

    chain: tuple[Path, ...]

    def __init__(self, *chain: Path) -> None:
        object.__setattr__(self, "chain", tuple(chain))

    @property
    def main(self) -> Path:
        return self.chain[0]


REGULAR = Faces(fonts.KOREAN, fonts.SYMBOLS)
BOLD = Faces(fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD)
# The faces of the book being set (a spec's own font first): one book at a time per context, so
# helpers deep in the story need not pass them along.
_BOOK_FACES: ContextVar[tuple[Faces, Faces]] = ContextVar("book_faces", default=(REGULAR, BOLD))
# The icons ``:name:`` draws and the colour names a span may use, of the book being set (None:
# every registered icon, looked up when first drawn rather than when this module is imported).
_BOOK_INLINE: ContextVar[tuple[Mapping[str, Icon] | None, Mapping[str, str]]] = ContextVar(
    "book_inline", default=(None, {}))


def _inline_icons() -> Mapping[str, Icon]:
    """The icons ``:name:`` draws in the book being set."""
    icons = _BOOK_INLINE.get()[0]
    return builtin_icons() if icons is None else icons


def book_faces(regular: Path | None, bold: Path | None) -> tuple[Faces, Faces]:
    """The regular and bold faces of a book whose spec names ``regular`` (and ``bold``) fonts:
    each spec font first, then the bundled Pretendard and DejaVu for what it lacks.

    Only a font of the spec's own counts: a bundled one named for the cards (Calc's cards are set
    in Pretendard Bold) leaves the book in its bundled regular and bold cuts.
    """
    def faces(own: Path | None, bundled: Faces) -> Faces:
        if own is None or fonts.is_bundled(own):
            return bundled
        return Faces(Path(own), *bundled.chain)

    return faces(regular, REGULAR), faces(bold or regular, BOLD)


def book_text_faces() -> tuple[Faces, Faces]:
    """The regular and bold faces of the book being set (the bundled ones outside a book): what
    its paragraphs, code (told apart by its grey ground, not its face) and figures' words are set in."""
    return _BOOK_FACES.get()


@contextmanager
def setting(font: Path | None = None, font_bold: Path | None = None, icons: Mapping[str, Icon] | None = None,
            colors: Mapping[str, str] | None = None) -> Iterator[None]:
    """Within it, the book being set is a spec's: its ``font`` (``font_bold``) first in every
    face, ``icons`` what ``:name:`` draws and ``colors`` the names a span's ``color=`` may use."""
    faces = book_faces(font, font_bold)
    for face in faces:
        from printkit.render.canvas import register_font

        register_font(face.main)
    token = _BOOK_FACES.set(faces)
    inline_token = _BOOK_INLINE.set((icons, colors or {}))
    try:
        yield
    finally:
        _BOOK_INLINE.reset(inline_token)
        _BOOK_FACES.reset(token)


# The book's fonts (bundled, or the spec's art font) have no italic cut, and reportlab cannot slant a
# run of a paragraph: italic is set upright in a muted ink, in every language (docs/rulebook-format.md).
ITALIC_COLOR = "#4a4a4a"


def register_fonts() -> None:
    """Register the bundled fonts with reportlab (idempotent; reportlab keeps a global registry)."""
    have = set(pdfmetrics.getRegisteredFontNames())
    for path in (fonts.KOREAN, fonts.KOREAN_BOLD, fonts.SYMBOLS, fonts.SYMBOLS_BOLD):
        name = fonts.font_name(path)
        if name not in have:
            pdfmetrics.registerFont(fonts.ttfont(fonts.font_path(path)))  # parsed once, shared with the cards
    pdfmetrics.registerFontFamily(
        fonts.font_name(fonts.KOREAN),
        normal=fonts.font_name(fonts.KOREAN),
        bold=fonts.font_name(fonts.KOREAN_BOLD),
        italic=fonts.font_name(fonts.KOREAN),
        boldItalic=fonts.font_name(fonts.KOREAN_BOLD),
    )


def font_runs(text: str, faces: Faces) -> list[tuple[Path, str]]:
    """Split text into runs, each set in the first font of ``faces`` that has its glyphs.

    Whitespace stays with the run it sits in. Raises KeyError listing characters no font has.
    """
    refused = direction.refusal(text, "the rule text")
    if refused:  # a font may have the letters, but nothing here joins them or sets them right to left
        raise KeyError(refused)
    sets = [fonts.glyph_set(font) for font in faces.chain]
    if sets[0].issuperset(map(ord, text)):  # the usual case: one run, found without a Python loop
        return [(faces.main, text)] if text else []
    runs: list[tuple[Path, str]] = []
    missing = set()
    for ch in text:
        if ch.isspace():
            font = runs[-1][0] if runs else faces.main
        else:
            font = next((f for f, glyphs in zip(faces.chain, sets) if ord(ch) in glyphs), None)
            if font is None:
                missing.add(ch)
                continue
        if runs and runs[-1][0] == font:
            runs[-1] = (font, runs[-1][1] + ch)
        else:
            runs.append((font, ch))
    if missing:
        listed = ", ".join(f"{ch!r} U+{ord(ch):04X}" for ch in sorted(missing))
        own = f", nor the spec's font {faces.main.name}" if faces.main not in (REGULAR.main, BOLD.main) else ""
        raise KeyError(f"no bundled font has the character(s) {listed}{own}; add a font (.ttf or .otf) that has them "
                       "to the spec (art: font: fonts/YourFont.ttf, and font_bold: for bold; a path beside the "
                       "spec or a font in printkit's fonts/)")
    return runs


RUNT_CHARS = 4  # a paragraph's last word this short is tied to the word before it


def tie_last_word(markup: str) -> str:
    """Paragraph markup whose last space becomes a no-break space when the word after it has at
    most RUNT_CHARS characters, so the paragraph never ends in a line holding only that word.

    Tags and entities are skipped; a word counts its visible characters.
    """
    visible = 0
    i = len(markup)
    while i > 0:
        i -= 1
        ch = markup[i]
        if ch == ">":  # a tag: skip to its start
            i = markup.rfind("<", 0, i)
            if i < 0:
                return markup
            continue
        if ch == ";" and (amp := markup.rfind("&", 0, i)) >= 0 and markup[amp + 1:i].isalnum():
            if markup[amp + 1:i] == "nbsp":
                return markup  # already tied
            i = amp
            visible += 1
            continue
        if ch == " ":
            if 0 < visible <= RUNT_CHARS and markup[:i].strip():
                return markup[:i] + NBSP + markup[i + 1:]
            return markup
        if ch == NBSP:
            return markup
        if not ch.isspace():
            visible += 1
    return markup


def xml_escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities (xml.sax.saxutils.escape, which costs importing urllib)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def spans_markup(spans: Iterable[md.Span], bold: bool = False, style_font: str | None = None,
                 style: ParagraphStyle | None = None, breaking: frozenset[int] = frozenset()) -> str:
    """reportlab paragraph markup for styled spans, naming a font for every run.

    Inline code is set as one piece (its spaces no-break) but the code spans of the indices
    ``breaking`` (counted among the code spans), which break at their spaces.

    Text that is one plain run in ``style_font`` (the font of the paragraph style it is set in)
    is left bare: the style sets that font already, and reportlab parses a paragraph without tags
    faster. Text of several runs keeps every tag, so reportlab sees the same fragments either way.
    Icons and a span's size are set for ``style``'s font size (the body's when None), an icon with
    no colour of its own in its text colour. Raises KeyError for an icon or colour the book lacks.
    """
    spans = tuple(spans)
    parts = []
    regular_faces, bold_faces = _BOOK_FACES.get()
    codes = 0
    for span in spans:
        faces = bold_faces if (span.bold or bold) and not span.code else regular_faces
        if span.icon is not None:
            parts.append(_icon_markup(span, faces, style))
            continue
        # A command or value in code is read as one piece: its spaces do not break a line, unless
        # it is wider than one.
        whole = span.code and codes not in breaking
        codes += span.code
        runs = font_runs(span.text.replace(" ", NBSP) if whole else span.text, faces)
        if len(spans) == 1 and len(runs) == 1 and not (span.code or span.italic) and span.color is None and \
                span.size == 1.0 and fonts.font_name(runs[0][0]) == style_font and ZWSP not in runs[0][1]:
            return xml_escape(runs[0][1])
        text = "".join(f'<font name="{fonts.font_name(font)}">{_zero_width_breaks(xml_escape(run))}</font>'
                       for font, run in runs)
        if span.code:
            text = f'<font backColor="#ececec">{text}</font>'
        elif span.color is not None:
            text = f'<font color="{_span_color(span.color)}">{text}</font>'
        elif span.italic:
            text = f'<font color="{ITALIC_COLOR}">{text}</font>'
        if span.size != 1.0:
            text = f'<font size="{_size_pt(style) * span.size:.2f}">{text}</font>'
        parts.append(text)
    return "".join(parts)


_BODY_PT = 10.0  # the size icons and sized spans are set for when no style is given

ZWSP = "\u200b"
# reportlab splits words at a zero-width space, as at any space, and sets a whole space there: a
# space too small to see marks the break opportunity instead.
_ZERO_WIDTH_BREAK = '<font size="0.01"> </font>'


def _zero_width_breaks(markup: str) -> str:
    return markup.replace(ZWSP, _ZERO_WIDTH_BREAK) if ZWSP in markup else markup


def _size_pt(style: ParagraphStyle | None) -> float:
    return style.fontSize if style is not None else _BODY_PT


def _span_color(written: str) -> str:
    """A span's colour as written (``#rgb``, ``#rrggbb`` or a name of the deck's art.colors) as ``#rrggbb``."""
    color = hex_color(written) or _BOOK_INLINE.get()[1].get(written)
    if color is None:
        raise KeyError(unknown_color(written, _BOOK_INLINE.get()[1], ""))
    return color


def _icon_markup(span: md.Span, faces: Faces, style: ParagraphStyle | None) -> str:
    icons = _inline_icons()
    icon = icons.get(span.icon)
    if icon is None:
        raise KeyError(unknown_icon(span.icon, icons, ""))
    text_color = (ITALIC_COLOR if span.italic else
                  "#" + style.textColor.hexval()[2:] if style is not None else "#000000")
    color = icon_color(icon, _span_color(span.color) if span.color else None, text_color)
    return icon_markup(span.icon, color, faces.main, _size_pt(style) * span.size)


def check_glyphs(doc: md.Document, font: Path | None = None, font_bold: Path | None = None) -> None:
    """Raise RulebookError (file and line) for a character of ``doc``'s text that neither the
    bundled fonts nor the spec's ``font`` (``font_bold``) can draw, as setting it would."""
    regular, bold = book_faces(font, font_bold)
    path = doc.path
    texts = [(doc.title, doc.title_at, True)] + ([(doc.subtitle, (path, 1, None), False)] if doc.subtitle else [])
    texts += [(text, (path, block.line, None), isinstance(block, md.Heading)) for block in doc.blocks
              for text in md.block_texts(block)]
    for text, (where, line, column), heading in texts:
        for span in md.parse_inline(text, where, line):
            if span.icon is None:
                try:
                    font_runs(span.text, bold if (span.bold or heading) and not span.code else regular)
                except KeyError as exc:
                    raise md.RulebookError(where, line, f"{exc.args[0]} in {text!r}", column) from None


def inline(text: str, where: tuple[str, int | None], bold: bool = False, style_font: str | None = None,
           style: ParagraphStyle | None = None) -> str:
    """Markup for a string of the rule text's inline syntax; errors name file and line."""
    try:
        return spans_markup(md.parse_inline(text, *where), bold, style_font, style)
    except KeyError as exc:
        raise md.RulebookError(where[0], where[1], f"{exc.args[0]} in {text!r}") from None


def paragraph(text: str, where: tuple[str, int | None], style: ParagraphStyle, bold: bool = False,
              tie: bool = False) -> "BookParagraph":
    """A paragraph of the rule text's inline syntax set in ``style`` (``tie``: its last short word
    never stands alone on the last line, see tie_last_word); its inline code breaks at its spaces
    where it is wider than a line (:class:`~printkit.rulebook.paragraphs.CodeBreaks`)."""
    markup = inline(text, where, bold, style.fontName, style)
    if "`" not in text:
        return BookParagraph(tie_last_word(markup) if tie else markup, style)
    spans = md.parse_inline(text, *where)
    if not any(span.code and " " in span.text for span in spans):
        return BookParagraph(tie_last_word(markup) if tie else markup, style)

    def variant(breaking: frozenset[int]) -> str:
        made = spans_markup(spans, bold, style.fontName, style, breaking)
        return tie_last_word(made) if tie else made

    widths = tuple(width for width, _ in code_pieces(spans, style.fontSize, bold, tie, at_spaces=False))
    return BookParagraph(tie_last_word(markup) if tie else markup, style, code=CodeBreaks(widths, variant))


# Resolves a directive to its data: (kind, name, line) -> Figure | Example | ContentTable.
ContentLookup = Callable[[md.Directive], Any]
# Turns a Figure (CardParts, TableSetup …) into a flowable (card drawing lives in figures.py).
FigureMaker = Callable[[Figure, float], Any]


@dataclass(frozen=True)
class BookLabels:
    contents: str


LABELS = {"ko": BookLabels(contents="목차"), "en": BookLabels(contents="Contents")}


def story(doc: md.Document, styles: Styles, lang: str, lookup: ContentLookup, figure: FigureMaker,
          text_width_pt: float, cover: Figure | None = None, frame_height_pt: float | None = None,
          compact: bool = False) -> list:
    """The flowables of the whole book (``frame_height_pt``: the text area's height).

    A ``compact`` book has no title page and no contents: the title, subtitle and cover open its
    first page of text.
    """
    path = doc.path
    flow: list = [] if compact else [Spacer(1, styles.body.fontSize * 12)]
    flow.append(paragraph(doc.title, doc.title_at[:2], styles.title, bold=True))
    if doc.subtitle:
        flow.append(paragraph(doc.subtitle, (path, 1), styles.subtitle))
    if cover is not None:
        flow.append(Spacer(1, styles.body.fontSize * (1.5 if compact else 3)))
        art = figure(cover, text_width_pt)
        if frame_height_pt is not None and hasattr(art, "max_height_pt"):
            # the title, subtitle and art are one page: the art shrinks to the room they leave
            # (on a compact book's first page, to half of it, so its text begins there too)
            above = sum(_height_pt(f, text_width_pt, frame_height_pt) for f in flow)
            art.max_height_pt = (frame_height_pt / 2 if compact else frame_height_pt) - above - 2
        flow.append(art)
    if compact:
        flow.append(Spacer(1, styles.body.fontSize * 2))
    else:
        flow += _title_page_end(styles, lang)
    body_start = len(flow)
    return _body(flow, body_start, doc, styles, lookup, figure, text_width_pt, frame_height_pt)


def _title_page_end(styles: Styles, lang: str) -> list:
    """The end of the title page and the page of contents."""
    flow: list = [NextPageTemplate("body"), PageBreak()]
    toc = BookContents(levelStyles=list(styles.toc), dotsMinLevel=0, tableStyle=TableStyle([
        *TABLE_FONT,
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
    ]))
    flow += [BookParagraph(spans_markup(md.parse_inline(LABELS[words_lang(lang)].contents), bold=True), styles.toc_title), toc,
             PageBreak()]
    return flow


def _body(flow: list, body_start: int, doc: md.Document, styles: Styles, lookup: ContentLookup,
          figure: FigureMaker, text_width_pt: float, frame_height_pt: float | None) -> list:
    path = doc.path
    numbers = [0, 0, 0]
    first_chapter = True
    height_pt = frame_height_pt if frame_height_pt is not None else text_width_pt * 1.4
    for index, block in enumerate(doc.blocks):
        where = (path, block.line)
        if isinstance(block, md.Heading):
            i = block.level - 1
            numbers[i] += 1
            numbers[i + 1 :] = [0] * (2 - i)
            label = ".".join(str(n) for n in numbers[: i + 1])
            text = inline(block.text, where, bold=True, style=styles.h[i])
            number = spans_markup([md.Span(label)], bold=True)
            if i == 0 and not first_chapter:
                flow.append(CondPageBreak(styles.body.fontSize * 14))
            first_chapter = first_chapter and i != 0
            # the contents list a chapter in bold, each entry with icons sized to its own text
            toc_text = inline(block.text, where, bold=i == 0, style=styles.toc[i])
            flow.append(HeadingParagraph(
                f"{number}&nbsp;&nbsp;{tie_last_word(text)}", styles.h[i], i,
                f"{number}&nbsp;&nbsp;{tie_last_word(toc_text)}",
                f"{label} {md.plain(block.text)}", f"h{label}",
            ))
            flow[-1].keepWithNext = True
        elif isinstance(block, md.Paragraph):
            flow.append(paragraph(block.text, where, styles.body, tie=True))
            following = doc.blocks[index + 1] if index + 1 < len(doc.blocks) else None
            if _shows_something(following):
                flow[-1].keepWithNext = True  # a paragraph introduces the table or figure after it
        elif isinstance(block, md.ListBlock):
            flow.append(_list(block, styles, where))
        elif isinstance(block, md.TableBlock):
            flow.append(_table(block.header, block.rows, styles, text_width_pt, where))
            flow.append(Spacer(1, styles.body.spaceAfter))
        elif isinstance(block, md.Note):
            flow.append(_note(block, styles, text_width_pt, where))
        elif isinstance(block, md.Directive):
            if block.kind == "pagebreak":
                flow.append(PageBreak())
                continue
            flow += _directive(block, lookup(block), styles, figure, text_width_pt, where, height_pt)
    return flow[:body_start] + keep_with_next(flow[body_start:], text_width_pt, height_pt, styles.body.leading)


def _shows_something(block: md.Block | None) -> bool:
    """Whether a block is a table, figure or example (which the text before it introduces)."""
    return isinstance(block, md.TableBlock) or (isinstance(block, md.Directive) and block.kind != "pagebreak")


# platypus tables set a cell font (Helvetica by default) even around paragraphs; name ours so no
# unembedded standard font ends up in the PDF.
TABLE_FONT = (("FONTNAME", (0, 0), (-1, -1), fonts.font_name(fonts.KOREAN)),)


def _list_indent(block: md.ListBlock, styles: Styles) -> float:
    """How far a list's items are set in from the text's edge, in points."""
    return styles.body.fontSize * (1.8 if block.ordered else 1.4)


def _list(block: md.ListBlock, styles: Styles, where) -> ListFlowable:
    items = [ListItem(paragraph(item, where, styles.body, tie=True)) for item in block.items]
    size = styles.body.fontSize
    if block.ordered:
        return ListFlowable(items, bulletType="1", bulletFormat="%s.", bulletFontName=styles.body.fontName,
                            bulletFontSize=size, leftIndent=_list_indent(block, styles), bulletDedent=size * 1.5)
    return ListFlowable(items, bulletType="bullet", start="•", bulletFontName=styles.body.fontName,
                        bulletFontSize=size, leftIndent=_list_indent(block, styles), bulletDedent=size * 1.0)


MAX_TABLE_STRETCH = 1.6  # how far a narrow table's natural column widths are widened


class BookTable(Table):
    """A table with a header row that, split over pages, keeps at least MIN_SPLIT_ROWS rows on each.

    A shorter table moves to the next page whole. The parts of a split table are BookTables too.
    """

    def split(self, availWidth, availHeight):
        # reportlab's rowSplitRange counts rows of the whole table and is dropped or shifted for a
        # table's later parts; each part here is held to the same rule as a whole table.
        self._rowSplitRange = (1 + MIN_SPLIT_ROWS, -MIN_SPLIT_ROWS)
        return super().split(availWidth, availHeight)


SHY = "\u00ad"  # a soft hyphen: a word may break there, with a hyphen
# A table's text is set smaller, down to this, before a word is split inside a cell (as a
# figure's card text, figures.MIN_CARD_TEXT_PT).
MIN_TABLE_TEXT_PT = 6.0


def _measured(text: str, where, size: float, bold: bool) -> list[tuple[str, float]]:
    """Each character of a cell's text (an icon as U+FFFC) with its width in points at ``size``,
    in the font that sets it (bold, code and fallback fonts included)."""
    try:
        return [each for span in _span_chars(md.parse_inline(text, *where), size, bold) for each in span]
    except KeyError as exc:
        raise md.RulebookError(where[0], where[1], f"{exc.args[0]} in {text!r}") from None


def _span_chars(spans: Iterable[md.Span], size: float, bold: bool) -> list[list[tuple[str, float]]]:
    """For each of ``spans``, its characters (an icon as U+FFFC, a space in code as a no-break
    space) with their widths in points at ``size``, in the fonts that set them. Raises KeyError
    for a character no font has."""
    regular_faces, bold_faces = _BOOK_FACES.get()
    out: list[list[tuple[str, float]]] = []
    for span in spans:
        measured: list[tuple[str, float]] = []
        out.append(measured)
        faces = bold_faces if (span.bold or bold) and not span.code else regular_faces
        at = size * span.size
        if span.icon is not None:  # as wide as icon_markup makes it, glued to its neighbours
            cap = font_metrics(faces.main).cap_height * at
            measured.append(("\ufffc", ICON_CAP_HEIGHTS * cap + 2 * ICON_SIDE_GAP_EM * at))
            continue
        chars = span.text.replace(" ", NBSP) if span.code else span.text
        for font, run in font_runs(chars, faces):
            name = fonts.font_name(font)
            hyphen = pdfmetrics.stringWidth("-", name, at)  # a soft hyphen is set so where the line breaks
            measured += [(ch, hyphen if ch == SHY else 0.0 if ch == ZWSP else pdfmetrics.stringWidth(ch, name, at))
                         for ch in run]
    return out


def code_pieces(spans: tuple[md.Span, ...], size: float, bold: bool, tie: bool,
                at_spaces: bool) -> list[tuple[float, str]]:
    """For each code span of ``spans`` set at ``size``, the widest piece of text it is in that no
    line may break: (its width in points, the code's characters in it). The code is one piece with what touches it
    up to a space (its own spaces no-break), or with ``at_spaces`` broken at its spaces too. With
    ``tie`` the last word of at most RUNT_CHARS characters is one piece with the word before it,
    as tie_last_word sets it."""
    chars: list[tuple[str, float, int]] = []  # each character, its width, the code span it is in (or -1)
    codes = 0
    for span, measured in zip(spans, _span_chars(spans, size, bold)):
        chars += [(ch, w, codes if span.code else -1) for ch, w in measured]
        codes += span.code
    breaks = [i for i, (ch, _, code) in enumerate(chars)
              if ch in (" ", ZWSP) or (at_spaces and code >= 0 and ch == NBSP)]
    if tie and breaks and 0 < len("".join(ch for ch, _, _ in chars[breaks[-1] + 1:]).strip()) <= RUNT_CHARS:
        breaks.pop()
    at = set(breaks)
    widest = [(0.0, "")] * codes
    width, text, inside = 0.0, [], set()

    def close() -> None:
        for code in inside:
            if width > widest[code][0]:
                widest[code] = (width, "".join(text).replace(NBSP, " "))

    for i, (ch, w, code) in enumerate(chars):
        if i in at:
            close()
            width, text, inside = 0.0, [], set()
            continue
        width += w
        if code >= 0:
            inside.add(code)
        if ch == SHY:  # a break with a hyphen before it
            close()
            width, text, inside = 0.0, [], set()
        elif code >= 0 and ch != ZWSP:
            text.append(ch)
    close()
    return widest


def _words(measured: list[tuple[str, float]], tie: bool = True) -> list[tuple[str, float]]:
    """Each word of a cell's text as :func:`_measured` gives it (without its soft hyphens) with the
    width, in points, of its widest piece that cannot break: a word breaks at a zero-width space,
    and at a soft hyphen, whose hyphen its piece then ends with.

    With ``tie`` a last word of at most RUNT_CHARS characters counts as one with the word before
    it, as tie_last_word sets it.
    """
    breaks = [i for i, (ch, _) in enumerate(measured) if ch in (" ", ZWSP)]
    if tie and breaks and 0 < len("".join(ch for ch, _ in measured[breaks[-1] + 1:]).strip()) <= RUNT_CHARS:
        breaks.pop()
    breaks = set(breaks)
    words: list[tuple[str, float]] = []
    word: list[str] = []
    widest = piece = 0.0
    for i, (ch, w) in enumerate(measured + [(" ", 0.0)]):
        if i in breaks or i == len(measured):
            if ch == ZWSP and i != len(measured):
                widest, piece = max(widest, piece), 0.0
                continue
            if word:
                words.append(("".join(word), max(widest, piece)))
            word, widest, piece = [], 0.0, 0.0
        elif ch == SHY:
            widest, piece = max(widest, piece + w), 0.0
        else:
            word.append(ch if ch != ZWSP else "")
            piece += w
    return words


def column_widths(least: list[float], most: list[float], width_pt: float) -> list[float]:
    """Column widths that fit ``width_pt``: each column as wide as its widest cell if all fit
    (widened up to MAX_TABLE_STRETCH), else each at least as wide as its longest word, the room
    left shared in proportion to how much more each column's text would take on one line.

    Only when the longest words alone are wider than the text width are they squeezed (and split:
    :func:`table_setting` sets the text smaller first and names them).
    """
    if sum(most) <= width_pt:
        scale = min(width_pt / sum(most), MAX_TABLE_STRETCH)
        return [w * scale for w in most]
    if sum(least) >= width_pt:
        return [w * width_pt / sum(least) for w in least]
    spare = width_pt - sum(least)
    wants = [m - n for n, m in zip(least, most)]
    return [n + spare * want / sum(wants) for n, want in zip(least, wants)]


@dataclass(frozen=True)
class TableSetting:
    """How a table is set: its text's size (``scale`` of the book's cell size), its column
    widths, and the words that are split between letters all the same."""

    scale: float
    widths: list[float]
    split: tuple[str, ...]


_CELL_SLACK_PT = 2.0  # reportlab's line breaking needs the width to be at least the word's


def table_setting(header, rows, styles: Styles, width_pt: float, where) -> TableSetting:
    """The size and column widths of a table of ``header`` and ``rows`` in ``width_pt``: at the
    book's cell size when every column can keep its longest word, else smaller until they can
    (down to MIN_TABLE_TEXT_PT), the words that still cannot named in ``split``."""
    size = styles.cell.fontSize

    def measure(scale: float) -> tuple[list[float], list[float], list[list[tuple[str, float]]]]:
        pad = size * scale * 0.5
        least, most, words = [], [], []
        for col in range(len(header)):
            cells = [(header[col], styles.header_cell.fontSize * scale, True)]
            cells += [(row[col], size * scale, False) for row in rows]
            measured = [_measured(text, where, at, bold) for text, at, bold in cells]
            column = [word for each in measured for word in _words(each)]
            words.append(column)
            least.append(max((w for _, w in column), default=0.0) + 2 * pad + _CELL_SLACK_PT)
            # each cell's text on one line (its soft hyphens not set)
            most.append(max(sum(w for ch, w in each if ch != SHY) for each in measured) + 2 * pad + _CELL_SLACK_PT)
        return least, most, words

    scale = 1.0
    least, most, words = measure(scale)
    if sum(least) > width_pt:
        # a column's least width is its size times a constant, plus the slack
        slack = _CELL_SLACK_PT * len(least)
        scale = max((width_pt - slack) / (sum(least) - slack) * 0.999, min(1.0, MIN_TABLE_TEXT_PT / size))
        least, most, words = measure(scale)
    widths = column_widths(least, most, width_pt)
    pad = size * scale * 0.5
    split = () if sum(least) <= width_pt else tuple(dict.fromkeys(
        word for column, width in zip(words, widths) for word, w in column if w + 2 * pad + _CELL_SLACK_PT > width + 1e-6))
    return TableSetting(scale, widths, split)


def _scaled(style: ParagraphStyle, scale: float) -> ParagraphStyle:
    if scale == 1.0:
        return style
    return ParagraphStyle(f"{style.name}-{scale:.4f}", parent=style, fontSize=style.fontSize * scale,
                          leading=style.leading * scale)


def _table(header, rows, styles: Styles, width_pt: float, where) -> Table:
    setting = table_setting(header, rows, styles, width_pt, where)
    head_style, cell_style = _scaled(styles.header_cell, setting.scale), _scaled(styles.cell, setting.scale)
    head = [paragraph(c, where, head_style, bold=True, tie=True) for c in header]
    body = [[paragraph(c, where, cell_style, tie=True) for c in row] for row in rows]
    pad = cell_style.fontSize * 0.5
    widths = setting.widths
    full = sum(widths) > width_pt * 0.98
    table = BookTable([head] + body, colWidths=widths, repeatRows=1, hAlign="LEFT" if full else "CENTER")
    table.setStyle(TableStyle([
        *TABLE_FONT,
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e3e9f0")),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.HexColor("#1f3b5a")),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.HexColor("#c8c8c8")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), pad * 0.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.6),
    ]))
    return table


def table_warnings(doc: md.Document, papers: Iterable[Paper], font: Path | None = None,
                   font_bold: Path | None = None) -> list[str]:
    """A warning at the line of each table of ``doc``'s text that, on pages of one of ``papers``,
    splits a word between letters even with its text set at MIN_TABLE_TEXT_PT (``font`` and
    ``font_bold``: the spec's own, as :func:`render` takes them)."""
    register_fonts()
    with setting(font, font_bold):
        split: dict[int, tuple[list[str], dict[str, None]]] = {}  # by table line: its papers and words
        for p in papers:
            styles = make_styles(p)
            width_pt = mm_to_pt(p.width_mm - 2 * p.margin_mm)
            for block in doc.blocks:
                if isinstance(block, md.TableBlock):
                    words = table_setting(block.header, block.rows, styles, width_pt, (doc.path, block.line)).split
                    if words:
                        names, said = split.setdefault(block.line, ([], {}))
                        names.append(p.name)
                        said.update(dict.fromkeys(words))
    out = []
    for line, (names, said) in split.items():
        words = list(said)
        listed = ", ".join(repr(word) for word in words[:3]) + (f" and {len(words) - 3} more" if len(words) > 3 else "")
        out.append(md.RulebookError(doc.path, line, (
            f"table: its columns cannot keep the word(s) {listed} whole on {', '.join(names)} pages, even with its "
            f"text at {MIN_TABLE_TEXT_PT:g} pt, so they are split between letters; give the table fewer columns or "
            "shorter words, or mark where a word may break with a soft hyphen (U+00AD)")).located())
    return out


def code_warnings(doc: md.Document, papers: Iterable[Paper], font: Path | None = None,
                  font_bold: Path | None = None) -> list[str]:
    """A warning at the line of each paragraph, list or note of ``doc``'s text whose inline code
    has a piece without a space that is wider than its lines on pages of one of ``papers``: it is
    split between letters there (``font`` and ``font_bold``: the spec's own, as :func:`render`
    takes them). Headings, captions, the title and table cells are not looked at (a table says its
    own split words)."""
    register_fonts()
    found: dict[int, tuple[list[str], dict[str, None]]] = {}  # by line: its papers and pieces
    with setting(font, font_bold):
        for p in papers:
            styles = make_styles(p)
            width_pt = mm_to_pt(p.width_mm - 2 * p.margin_mm)
            for block in doc.blocks:
                for text, line_pt in _code_texts(block, styles, width_pt):
                    try:
                        pieces = code_pieces(md.parse_inline(text, doc.path, block.line), styles.body.fontSize,
                                             False, True, at_spaces=True)
                    except KeyError:  # a character no font has: an error of its own
                        continue
                    wide = [piece for width, piece in pieces if width > line_pt + 1e-6]
                    if wide:
                        names, said = found.setdefault(block.line, ([], {}))
                        if p.name not in names:
                            names.append(p.name)
                        said.update(dict.fromkeys(wide))
    out = []
    for line, (names, said) in found.items():
        pieces = list(said)
        listed = ", ".join(repr(piece) for piece in pieces[:3]) + (f" and {len(pieces) - 3} more" if len(pieces) > 3
                                                                    else "")
        out.append(md.RulebookError(doc.path, line, (
            f"inline code: {listed} has no space to break a line at and is wider than a line on {', '.join(names)} "
            "pages, so it is split between letters; shorten it, or put a space or a zero-width space (U+200B) where "
            "it may break")).located())
    return out


def _code_texts(block: md.Block, styles: Styles, width_pt: float) -> Iterator[tuple[str, float]]:
    """Each text of ``block`` with inline code that is set in the body's style, with the width of
    its lines in points."""
    if isinstance(block, md.Paragraph):
        texts, line_pt = (block.text,), width_pt
    elif isinstance(block, md.ListBlock):
        texts, line_pt = block.items, width_pt - _list_indent(block, styles)
    elif isinstance(block, md.Note):
        texts, line_pt = block.paragraphs, width_pt - 2 * _note_padding(styles)
    else:
        return
    for text in texts:
        if "`" in text:
            yield text, line_pt


def _note_padding(styles: Styles) -> float:
    """The room a note leaves each side of its text, in points."""
    return styles.body.fontSize


def _note(block: md.Note, styles: Styles, width_pt: float, where) -> Table:
    paras = [paragraph(p, where, styles.body, tie=True) for p in block.paragraphs]
    size = styles.body.fontSize
    box = Table([[paras]], colWidths=[width_pt], hAlign="LEFT")
    box.setStyle(TableStyle([
        *TABLE_FONT,
        ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#fdf3dc")),
        ("LINEBEFORE", (0, 0), (0, -1), 3, colors.HexColor("#e69f00")),
        ("LEFTPADDING", (0, 0), (-1, -1), _note_padding(styles)),
        ("RIGHTPADDING", (0, 0), (-1, -1), _note_padding(styles)),
        ("TOPPADDING", (0, 0), (-1, -1), size * 0.7),
        ("BOTTOMPADDING", (0, 0), (-1, -1), size * 0.1),
    ]))
    return KeepTogether([box, Spacer(1, styles.body.spaceAfter)])


def _caption(text: str | None, styles: Styles, where) -> list:
    return [paragraph(text, where, styles.caption)] if text else []


def _kept_whole(parts: list, width_pt: float, frame_height_pt: float) -> list[FloatingFigure]:
    """A figure with what goes with it (its caption, an example's table), kept together on one page.

    A drawing that takes a ``max_height_pt`` is held to the frame's height less the rest of the
    group, so a tall figure does not push its caption onto the next page. A drawing of rows of
    cards that would have to shrink until its cards' text is left out runs on over pages instead,
    a page's rows to each figure, what goes with it after the last (``page_parts``)."""
    for i, part in enumerate(parts):
        if hasattr(part, "max_height_pt"):
            rest = sum(_height_pt(other, width_pt, frame_height_pt) for other in parts[:i] + parts[i + 1:])
            part.max_height_pt = frame_height_pt - rest - 2  # a little slack for rounding
            if i == 0 and hasattr(part, "page_parts"):
                *pages, last = part.page_parts(width_pt, frame_height_pt - 2, part.max_height_pt)
                return [*(FloatingFigure([page]) for page in pages), FloatingFigure([last, *parts[1:]])]
    return [FloatingFigure(parts)]


def _named(figure: FigureMaker, data: Any, width_pt: float, block: md.Directive, where):
    """The drawing of ``data`` that the directive ``block`` shows: what it cannot draw (a
    character no font has) and what it cannot print (``named``) are told at the directive."""
    try:
        drawing = figure(data, width_pt)
    except md.RulebookError:
        raise
    except BuildError as exc:
        raise md.RulebookError(where[0], where[1], f"{block.kind} {block.name!r}: {exc}") from None
    if hasattr(drawing, "named"):
        drawing.named = (where[0], where[1], f"{block.kind} {block.name!r}")
    return drawing


def _directive(block: md.Directive, data: Any, styles: Styles, figure: FigureMaker, width_pt: float, where,
               frame_height_pt: float) -> list:
    gap = Spacer(1, styles.body.spaceAfter)
    if block.kind in md.FREE_DIRECTIVES:  # figures drawn from the deck itself (rulebook/designed.py)
        return [*_kept_whole([_named(figure, data, width_pt, block, where)], width_pt, frame_height_pt), gap]
    if block.kind == "figure":
        if not isinstance(data, (Figure, CardParts, TableSetup)):
            raise md.RulebookError(where[0], where[1], f"figure {block.name!r} returned {type(data).__name__}, "
                                                       "not Figure, CardParts or TableSetup")
        return [*_kept_whole([_named(figure, data, width_pt, block, where), *_caption(data.caption, styles, where)],
                             width_pt, frame_height_pt), gap]
    if block.kind == "table":
        if not isinstance(data, ContentTable):
            raise md.RulebookError(where[0], where[1], f"table {block.name!r} returned {type(data).__name__}, not Table")
        return [_table(data.header, data.rows, styles, width_pt, where), *_caption(data.caption, styles, where), gap]
    if not isinstance(data, Example):
        raise md.RulebookError(where[0], where[1], f"example {block.name!r} returned {type(data).__name__}, not Example")
    parts: list = []
    if data.cards:
        parts.append(_named(figure, Figure(data.cards, labels=data.card_labels), width_pt, block, where))
        parts.append(Spacer(1, styles.body.spaceAfter))
    if data.header:
        parts.append(_table(data.header, data.rows, styles, width_pt, where))
    parts += _caption(data.caption, styles, where)
    return [*_kept_whole(parts, width_pt, frame_height_pt), gap]


def check_figures(doc: md.Document, lookup: ContentLookup, figure: FigureMaker, p: Paper) -> None:
    """Lay each figure the rule text shows out on ``p``'s pages as setting the book does (within
    :func:`setting`), and raise what drawing it would refuse: a RulebookError at its line."""
    styles = make_styles(p)
    frame = RulebookDoc(io.BytesIO(), p, styles, md.plain(doc.title), False, _inline_icons)
    for block in doc.blocks:
        if isinstance(block, md.Directive) and block.kind != "pagebreak":
            where = (doc.path, block.line)
            for group in _directive(block, lookup(block), styles, figure, frame.width, where, frame.height):
                for part in getattr(group, "_content", ()):
                    if hasattr(part, "check_printable"):
                        part.wrap(frame.width, frame.height)
                        part.check_printable()


# A book whose text fills at most this many pages needs no title page and no contents.
COMPACT_PAGES = 4


def render(doc: md.Document, lang: str, lookup: ContentLookup, figure: FigureMaker, p: Paper,
           canvasmaker=None, cover: Figure | None = None, compact: bool | None = None,
           author: str = "", font: Path | None = None, font_bold: Path | None = None,
           icons: Mapping[str, Icon] | None = None, colors: Mapping[str, str] | None = None) -> tuple[bytes, int]:
    """Set the whole book; return the PDF bytes (reproducible: invariant mode) and its page count.

    ``compact`` None: a book whose text takes at most ``COMPACT_PAGES`` pages is set again
    compact, without a title page and contents, its title opening the first page; True or False
    sets it so at once. ``font`` and ``font_bold`` (a spec's own) set the text, the bundled fonts
    taking the characters they lack. ``icons`` are what ``:name:`` draws (the deck's and the
    built-in ones) and ``colors`` the names a span's ``color=`` may use (the deck's art.colors).
    """
    with setting(font, font_bold, icons, colors):
        return _render_compact_or_not(doc, lang, lookup, figure, p, canvasmaker, cover, compact, author)


def _render_compact_or_not(doc, lang, lookup, figure, p, canvasmaker, cover, compact, author) -> tuple[bytes, int]:
    if compact is not None:
        return _render_book(doc, lang, lookup, figure, p, canvasmaker, cover, compact, author)
    data, pages = _render_book(doc, lang, lookup, figure, p, canvasmaker, cover, False, author)
    if pages - 2 <= COMPACT_PAGES:
        return _render_book(doc, lang, lookup, figure, p, canvasmaker, cover, True, author)
    return data, pages


def _render_book(doc: md.Document, lang: str, lookup: ContentLookup, figure: FigureMaker, p: Paper,
                 canvasmaker, cover: Figure | None, compact: bool, author: str) -> tuple[bytes, int]:
    register_fonts()
    styles = make_styles(p)
    buffer = io.BytesIO()
    links = canvasmaker is None  # forms (booklet pages) cannot carry bookmarks or links
    # The table of contents needs a pass to learn its page numbers; with headings to list, that
    # first pass cannot be the last, so it only lays the book out.
    has_headings = any(isinstance(block, md.Heading) for block in doc.blocks) and not compact
    rdoc = RulebookDoc(buffer, p, styles, md.plain(doc.title), links, _inline_icons,
                       sketch_first=has_headings, compact=compact,
                       author=author, subject=md.plain(doc.subtitle or doc.title), creator="printkit",
                       lang=lang)
    width_pt = rdoc.width
    flowables = story(doc, styles, lang, lookup, figure, width_pt, cover, frame_height_pt=rdoc.height, compact=compact)
    with binary_streams():  # compressed streams without ASCII85, as the card PDFs
        rdoc.multiBuild(flowables, canvasmaker=canvasmaker or BookCanvas)
    return buffer.getvalue(), rdoc.page


class BookCanvas(Canvas):
    """The canvas of a book's pages: its font subsets are tagged from its content (render.subset_tags),
    so two books never name different subsets alike."""

    def save(self) -> None:
        embed_fonts(self)
        super().save()


def lookup_in(content: GameContent, deck: Deck, lang: str, path: str) -> ContentLookup:
    """A ContentLookup over a game's registries; unknown names and failures name file and line."""

    def lookup(block: md.Directive) -> Any:
        registry = content.registry(block.kind)
        if block.name not in registry:
            known = ", ".join(sorted(registry)) or "none"
            raise md.RulebookError(path, block.line, f"unknown {block.kind} {block.name!r} for game {deck.game!r} (known: {known})")
        try:
            return registry[block.name](deck, words_lang(lang))
        except md.RulebookError:
            raise
        except BuildError as exc:
            raise md.RulebookError(path, block.line, f"{block.kind} {block.name!r}: {exc}") from None

    return lookup
