"""A small Markdown subset for rule texts, parsed into a flat list of blocks.

The subset is documented in docs/rulebook-format.md: front matter or a first ``# `` line for the
title; ``#``/``##``/``###`` headings; paragraphs; ``- `` and ``1. `` lists (not nested); pipe
tables with a separator row; ``> `` notes; ``::: kind name`` directives; inline ``**bold**``,
``*italic*``, ``code`` in backticks, backslash escapes, ``:icon:`` and ``[text]{color=… size=…}``
spans, read as card text reads them (:mod:`printkit.layout.markup`) but strictly, and
``{{ key }}`` values (outside code: code prints as written).

Parsing is pure: ``parse`` takes the text and an optional ``resolve`` callback for ``{{ key }}``
values, so errors can name the exact line of a bad key, and inline errors their column too.

The block level is read here rather than by a CommonMark parser: this subset is line-based on
purpose (a list ends at a blank line or an unindented line, ``---`` under text is text, indented
lines are not code) and its tables, directives and errors name the line; CommonMark reads the same
texts differently in those places.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Collection, Union

from printkit.errors import BuildError, MarkupError, RulebookError
from printkit.layout.markup import (
    ASCII_PUNCTUATION, BOLD, CODE, END, ICON, ITALIC, LITERAL, PLAIN, SPAN, TEXT, hex_color, tokenize, unknown_color,
    unknown_icon,
)
from printkit.typography import smarten


# ---------------------------------------------------------------- inline


@dataclass(frozen=True)
class Span:
    """A run of text with one style, or (``icon``) one icon, drawn as card text draws it.

    ``color`` (``#rgb``, ``#rrggbb`` or a name of the deck's ``art.colors``, as written) and
    ``size`` (relative to the text around it) come from a ``[text]{color=… size=…}`` span.
    """

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    icon: str | None = None
    color: str | None = None
    size: float = 1.0


_INLINE_SYNTAX = re.compile(r"[\\`*:\[]")


def parse_inline(text: str, path: str | Path | None = None, line: int | None = None,
                 icons: Collection[str] | None = None, colors: Collection[str] | None = None,
                 ) -> tuple[Span, ...]:
    """Split inline markup into styled spans; errors name ``path`` and ``line``.

    The markup is card text's (:mod:`printkit.layout.markup`) read strictly: stars that are not
    emphasis and an unclosed backtick are errors, as are an icon not in ``icons`` and a span
    colour that is neither a hex colour nor in ``colors`` (each checked only when the names are
    given).

    Text outside code spans is set with curly quotes and real minus signs
    (:func:`printkit.typography.smarten`); code and backslash-escaped characters print as typed.
    """
    try:
        return _inline(text, icons, colors)
    except MarkupError as exc:
        raise RulebookError(path, line, _quoted(exc, text)) from None


def _quoted(exc: MarkupError, text: str) -> str:
    """The message of ``exc``, quoting ``text`` where the message alone would not show it."""
    return f"{exc.message} in {text!r}" if exc.message.startswith(("unclosed", "*")) else exc.message


def _inline(text: str, icons: Collection[str] | None, colors: Collection[str] | None) -> tuple[Span, ...]:
    """:func:`parse_inline`, its errors MarkupError with the offset in ``text``."""
    if not _INLINE_SYNTAX.search(text):
        return (Span(smarten(text)),) if text else ()  # most text has no markup: one plain span
    spans: list[Span] = []
    buf: list[str] = []  # text of the current style, each piece already set
    raw: list[str] = []  # typed text not yet set
    bold = italic = False
    style = PLAIN
    set_before = ""  # the text set so far, for the quotes' context across styles

    def settle() -> None:
        nonlocal set_before
        if raw:
            piece = smarten("".join(raw), before=set_before)
            buf.append(piece)
            set_before = piece
            raw.clear()

    def flush() -> None:
        settle()
        if buf:
            spans.append(Span("".join(buf), bold, italic, color=style.color, size=style.size))
            buf.clear()

    for kind, value, at in tokenize(text, strict=True):
        if kind == TEXT:
            raw.append(value)
        elif kind == LITERAL:  # as typed
            settle()
            buf.append(value)
            set_before = value
        elif kind == CODE:
            flush()
            spans.append(Span(value, bold, italic, code=True))
            set_before = value or set_before
        elif kind == BOLD or kind == ITALIC:
            flush()
            bold, italic = (not bold, italic) if kind == BOLD else (bold, not italic)
        elif kind == ICON:
            if icons is not None and value not in icons:
                raise MarkupError(unknown_icon(value, icons, ""), at)
            flush()
            spans.append(Span("", bold, italic, icon=value, color=style.color, size=style.size))
        elif kind == SPAN:
            if value.color is not None and colors is not None and not hex_color(value.color) \
                    and value.color not in colors:
                raise MarkupError(unknown_color(value.color, colors, ""), at)
            flush()
            style = value
        elif kind == END:
            flush()
            style = PLAIN
        else:  # a newline (a value may hold one): kept as it was written
            raw.append("\n")
    flush()
    return _merge(spans)




def _merge(spans: list[Span]) -> tuple[Span, ...]:
    """Adjacent spans of one style joined (each text copied once, however many spans join)."""
    out: list[Span] = []
    run: list[str] = []

    def style(span: Span) -> tuple:
        return span.bold, span.italic, span.code, span.color, span.size

    for span in spans:
        if span.icon is not None:
            if len(run) > 1:
                out[-1] = dataclasses.replace(out[-1], text="".join(run))
            out.append(span)
            run = []
            continue
        if not span.text:
            continue
        if out and out[-1].icon is None and style(out[-1]) == style(span):
            run.append(span.text)
            continue
        if len(run) > 1:
            out[-1] = dataclasses.replace(out[-1], text="".join(run))
        out.append(span)
        run = [span.text]
    if len(run) > 1:
        out[-1] = dataclasses.replace(out[-1], text="".join(run))
    return tuple(out)


# Break opportunities that print nothing (soft hyphen, zero-width space): a viewer shows them in
# bookmarks and titles as hyphens or boxes, so plain text leaves them out.
_INVISIBLE_BREAKS = dict.fromkeys(map(ord, "\u00ad\u200b"))


def plain(text: str) -> str:
    """The text of inline markup without styling, icons or invisible break opportunities (for the
    PDF outline and document title)."""
    return "".join(span.text for span in parse_inline(text)).translate(_INVISIBLE_BREAKS)


_MARKUP_CHARS = re.compile(r"([\\*`{}|:\[])")


def escape(text: str) -> str:
    """Backslash-escape characters that inline markup would interpret."""
    return _MARKUP_CHARS.sub(r"\\\1", text)


# ---------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Heading:
    level: int  # 1, 2 or 3 after normalising (the body's shallowest heading is 1)
    text: str
    line: int


@dataclass(frozen=True)
class Paragraph:
    text: str
    line: int


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    items: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class TableBlock:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    line: int


@dataclass(frozen=True)
class Note:
    paragraphs: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Directive:
    kind: str  # figure | example | table | pagebreak
    name: str
    line: int


Block = Union[Heading, Paragraph, ListBlock, TableBlock, Note, Directive]

# What one rule text may ask of the typesetter (the file itself is at most 1 MB): every block of
# text, every word and every table is bounded, so laying a text out takes time linear in its size.
MAX_BLOCK_CHARS = 20_000  # a paragraph, heading, list item, note paragraph or table cell
MAX_WORD_CHARS = 1_000  # a run of text without a space (a word is broken across lines if need be)
MAX_TABLE_COLUMNS = 12

DIRECTIVE_KINDS = ("figure", "example", "table", "pagebreak", "cards", "anatomy", "setup")
# Directives whose argument is free text (card names, zones), not one registry name.
FREE_DIRECTIVES = ("cards", "anatomy", "setup")


@dataclass(frozen=True)
class Document:
    """A parsed rule text: title, subtitle and body blocks (inline markup still unparsed)."""

    title: str
    subtitle: str | None
    blocks: tuple[Block, ...]
    path: str
    # Where the title was written: file, line and column (column None when not known); the spec's
    # name: for a text titled by the deck's name.
    title_at: tuple[str, int | None, int | None] = ("<rulebook>", 1, None)
    # each ``:name:`` icon of the text with the line and column (1-based) where it is written
    icons: tuple[tuple[str, int, int], ...] = ()


Resolver = Callable[[str], str]

# Every pattern here matches in time linear in the line: the spaces around a value's key and a
# heading's closing '#'s are stripped after matching, not by a lazy group before "\s*" (which
# tries every split of a run of spaces, quadratic in its length).
_VALUE_RE = re.compile(r"(?<!\\)\{\{([^{}]*)\}\}")
_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET_RE = re.compile(r"^[-*]\s+(.*)$")
_NUMBERED_RE = re.compile(r"^\d+[.)]\s+(.*)$")
_DIRECTIVE_RE = re.compile(r"^:::\s*(\S+)(?:\s+(.*))?$")
_SEPARATOR_CELL_RE = re.compile(r"^:?-{3,}:?$")


def _nested_marker(stripped: str) -> "re.Match[str] | None":
    """The list marker an indented line under an item starts with, if it would start a list there:
    a bullet, or a number 1 (a line such as "2024. was" continues the item's text, as a list that
    does not start at 1 cannot interrupt a paragraph)."""
    numbered = _NUMBERED_RE.match(stripped)
    if numbered is not None:
        return numbered if stripped[:numbered.start(1)].strip().rstrip(".)").lstrip("0") == "1" else None
    return _BULLET_RE.match(stripped)


def code_parts(line: str, open_before: bool = False) -> tuple[list[tuple[int, int]], bool]:
    """The parts of ``line`` inside inline code, as (start, end) indexes, and whether code is still
    open at its end. ``open_before``: code opened on an earlier line of the same text runs into this
    one (a paragraph's lines are joined). Backticks are read as the markup's tokenizer reads them:
    outside code a backslash before ASCII punctuation escapes it; inside, the next backtick ends it."""
    parts: list[tuple[int, int]] = []
    start = 0 if open_before else -1  # where the open code began (-1: none is open)
    i, n = 0, len(line)
    while i < n:
        if start >= 0:
            end = line.find("`", i)
            if end < 0:
                break
            parts.append((start, end))
            start, i = -1, end + 1
        elif line[i] == "\\" and i + 1 < n and line[i + 1] in ASCII_PUNCTUATION:
            i += 2
        elif line[i] == "`":
            start, i = i + 1, i + 1
        else:
            i += 1
    if start >= 0:
        parts.append((start, n))
    return parts, start >= 0


def substitute(line: str, resolve: Resolver, path: str, lineno: int,
               shifts: list[tuple[int, int]] | None = None, code: list[tuple[int, int]] = ()) -> str:
    """Replace every ``{{ key }}`` in one line but those touching ``code`` (the line's inline code,
    :func:`code_parts`, printed as written); the resolver raises KeyError with a message.

    ``shifts`` gets, for each value, (index after it in the new line, index after its ``}}`` in
    ``line``), so a place in the new line can be traced back to where it was written."""
    grown = 0  # how much longer the line has grown so far
    passed = 0  # the code parts before this match (both come in order: linear in the line)

    def one(match: re.Match[str]) -> str:
        nonlocal grown, passed
        while passed < len(code) and code[passed][1] <= match.start():
            passed += 1
        if passed < len(code) and code[passed][0] < match.end():
            return match.group(0)  # in code: as written
        key = match.group(1).strip()
        try:
            value = escape(str(resolve(key)))
        except KeyError as exc:
            message = exc.args[0] if exc.args else f"unknown value {key!r}"
            raise RulebookError(path, lineno, str(message)) from None
        except RulebookError:
            raise
        except BuildError as exc:
            raise RulebookError(path, lineno, f"{{{{ {key} }}}}: {exc}") from None
        grown += len(value) - (match.end() - match.start())
        if shifts is not None:
            shifts.append((match.end() + grown, match.end()))
        return value

    return _VALUE_RE.sub(one, line)


class _Where:
    """Where each character of a text joined from pieces of lines (with a space between) was
    written, for errors that name a line and column."""

    def __init__(self, text: str | None = None, lineno: int = 0) -> None:
        self.pieces: list[str] = []
        self.anchors: list[tuple[int, int, int, list[tuple[int, int]], int]] = []
        self.length = -1
        if text is not None:
            self.add(text, lineno, 0)

    def add(self, text: str, lineno: int, column: int, shifts: list[tuple[int, int]] = (), after: int = 0) -> None:
        """Add ``text``, found at ``column`` (0-based) of line ``lineno`` after the values of
        ``shifts`` were put in; ``after`` is added once the shifts are undone."""
        self.anchors.append((self.length + 1, lineno, column, shifts, after))
        self.pieces.append(text)
        self.length += 1 + len(text)

    @property
    def text(self) -> str:
        return " ".join(self.pieces)

    @property
    def line(self) -> int:
        return self.anchors[0][1]

    def locate(self, offset: int) -> tuple[int, int]:
        """The line and column (1-based) where the text's character ``offset`` was written."""
        start, lineno, column, shifts, after = self.anchors[bisect.bisect_right(self.anchors, (offset, 1 << 62)) - 1]
        at = column + offset - start
        for new, old in reversed(shifts):
            if at >= new:
                at = old + at - new
                break
        return lineno, after + at + 1


def parse(text: str, path: str | Path = "<rulebook>", resolve: Resolver | None = None,
          default_title: str | None = None, icons: Collection[str] | None = None,
          colors: Collection[str] | None = None,
          default_title_at: tuple[str, int | None, int | None] | None = None) -> Document:
    """Parse a rule text into a Document; ``resolve`` maps ``{{ key }}`` to its value.

    ``default_title`` (inline markup) is the title of a text with neither front matter title nor
    a first ``# `` line; without it such a text is an error. ``default_title_at`` is where it was
    written (file, line, column), for errors about its characters (line 1 of the text without it).
    ``icons`` and ``colors`` are the names ``:icon:`` and a span's ``color=`` may use (the deck's);
    another is an error at its line and column.
    """
    path = str(path)
    lines = text.splitlines()
    numbered = list(enumerate(lines, start=1))
    front: dict[str, _Where] = {}
    if lines and lines[0].strip() == "---":
        front, numbered = _front_matter(lines, numbered, path, resolve)
    blocks = _Blocks(path, titled="title" in front)
    in_comment = False
    opened = (0, 0)  # the line and column of the comment being read
    in_code = False  # inline code opened on an earlier line of this text runs on (a blank line ends it)
    for lineno, raw in numbered:
        stripped = raw.strip()
        if in_comment:
            in_comment = not stripped.endswith("-->")
        elif stripped.startswith("<!--"):
            in_comment, opened = not stripped.endswith("-->"), (lineno, raw.index("<!--") + 1)
        elif directive := _DIRECTIVE_RE.match(raw):
            in_code = False
            blocks.directive(_directive(directive, path, lineno))
        else:
            shifts: list[tuple[int, int]] = []
            code, in_code = code_parts(raw, in_code and bool(stripped))
            line = substitute(raw, resolve, path, lineno, shifts, code) if resolve is not None else raw
            blocks.line(line, lineno, shifts, indented=raw[:2] == "  ")
    if in_comment:
        raise RulebookError(path, opened[0], "a '<!--' comment opened here is never closed with '-->'", opened[1])
    blocks.close_all()

    title = front["title"].text if "title" in front else blocks.title
    subtitle = front["subtitle"].text if "subtitle" in front else None
    title = title if title is not None else default_title
    if title is None:
        raise RulebookError(path, 1, "no title: start with front matter 'title: …' or a '# Title' line")
    heads = list(front.values())
    if "title" not in front:
        heads.insert(0, blocks.title_where or _Where(title, 1))
    written = front.get("title") or blocks.title_where
    title_at = ((path, *written.locate(0)) if written is not None
                else default_title_at or (path, 1, None))
    placed: list[tuple[str, int, int]] = []
    for where in heads:
        placed += _check_inline(where, path, icons, colors)
    for where in blocks.texts:
        _check_size(where.text, path, where.line)
        placed += _check_inline(where, path, icons, colors)
    return Document(title, subtitle, _normalise_levels(tuple(blocks.blocks), path), path, title_at,
                    tuple(placed))


def _check_inline(where: _Where, path: str, icons: Collection[str] | None, colors: Collection[str] | None,
                  ) -> list[tuple[str, int, int]]:
    """Report bad inline markup now, at the line and column where it was written; return each
    icon of the text with its line and column."""
    try:
        spans = _inline(where.text, icons, colors)
    except MarkupError as exc:
        line, column = where.locate(exc.at)
        raise RulebookError(path, line, _quoted(exc, where.text), column) from None
    if not any(span.icon is not None for span in spans):
        return []
    return [(name, *where.locate(at)) for kind, name, at in tokenize(where.text, strict=True) if kind == ICON]


def _front_matter(lines: list[str], numbered: list[tuple[int, str]], path: str, resolve: Resolver | None,
                  ) -> tuple[dict[str, _Where], list[tuple[int, str]]]:
    """The ``title`` and ``subtitle`` of front matter, and the numbered lines after it."""
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise RulebookError(path, 1, "front matter opened with '---' is never closed") from None
    front: dict[str, _Where] = {}
    for lineno, raw in numbered[1:end]:
        if not raw.strip():
            continue
        key, sep, value = raw.partition(":")
        key, column = key.strip(), len(raw) - len(value.lstrip())
        value = value.strip()
        if not sep or key not in ("title", "subtitle"):
            raise RulebookError(path, lineno, f"front matter takes 'title: …' and 'subtitle: …', got {raw!r}")
        shifts: list[tuple[int, int]] = []
        if resolve is not None:
            value = substitute(value, resolve, path, lineno, shifts, code_parts(value)[0])
        front[key] = _Where()
        front[key].add(value, lineno, 0, shifts, column)
    return {key: front[key] for key in ("title", "subtitle") if key in front}, numbered[end + 1:]


def _directive(match: re.Match[str], path: str, lineno: int) -> Directive:
    kind, name = match.group(1), (match.group(2) or "").rstrip()
    if kind not in DIRECTIVE_KINDS:
        raise RulebookError(path, lineno, f"unknown directive {kind!r} (known: {', '.join(DIRECTIVE_KINDS)})")
    if kind == "pagebreak" and name:
        raise RulebookError(path, lineno, f"'::: pagebreak' takes no name, got {name!r}")
    if kind in FREE_DIRECTIVES:
        if not name.strip():
            example = "Deck: back x20; Hand: back x5" if kind == "setup" else "ember-drake"
            raise RulebookError(path, lineno, f"'::: {kind}' needs what to show, e.g. '::: {kind} {example}'")
        if len(name) > 2000:
            raise RulebookError(path, lineno, f"'::: {kind}' is longer than 2000 characters")
    elif kind != "pagebreak" and not re.fullmatch(r"[A-Za-z0-9_\-]+", name):
        raise RulebookError(path, lineno, f"'::: {kind}' needs one name, got {name!r}")
    return Directive(kind, name, lineno)


class _Blocks:
    """Blocks gathered line by line: the one open paragraph, list, table or note grows until a
    line of another kind (or a blank line) closes it. ``texts`` keeps where each inline-markup
    string was written, in the order of :func:`block_texts`."""

    def __init__(self, path: str, titled: bool) -> None:
        self.path, self.titled = path, titled
        self.blocks: list[Block] = []
        self.texts: list[_Where] = []
        self.title: str | None = None
        self.title_where: _Where | None = None
        self.para: _Where | None = None
        self.items: list[_Where] = []
        self.ordered = False
        self.items_line = 0
        self.table: list[tuple[int, str, int, list[tuple[int, int]]]] = []
        self.note: list[_Where] = []
        self.note_line = 0

    def line(self, line: str, lineno: int, shifts: list[tuple[int, int]], indented: bool) -> None:
        stripped = line.strip()
        lead = len(line) - len(line.lstrip())
        heading = _HEADING_RE.match(line)
        if not stripped:
            self.close_all()
        elif heading:
            self.close_all()
            where = _Where()
            where.add(_heading_text(heading.group(2)), lineno, heading.start(2), shifts)
            if not self.titled and len(heading.group(1)) == 1 and not self.blocks:
                self.title, self.title_where, self.titled = where.text, where, True
            else:
                self._add(Heading(len(heading.group(1)), where.text, lineno), where)
        elif stripped.startswith(">"):
            self.close(para=True, items=True, table=True)
            content = stripped[1:].strip()
            if not self.note:
                self.note, self.note_line = [_Where()], lineno
            if content:
                self.note[-1].add(content, lineno, len(line) - len(line[lead + 1:].lstrip()), shifts)
            elif self.note[-1].pieces:
                self.note.append(_Where())
        elif stripped.startswith("|"):
            self.close(para=True, items=True, note=True)
            self.table.append((lineno, stripped, lead, shifts))
        else:
            self.close(table=True, note=True)
            item = (_NUMBERED_RE.match(line) or _BULLET_RE.match(line)) if not lead else None
            if item:
                self.close(para=True)
                ordered = item.re is _NUMBERED_RE
                if self.items and self.ordered != ordered:
                    self.close(items=True)
                if not self.items:
                    self.ordered, self.items_line = ordered, lineno
                self.items.append(_Where())
                self.items[-1].add(item.group(1).strip(), lineno, item.start(1), shifts)
            elif self.items and lead and (nested := _nested_marker(stripped)):
                # Indented by any whitespace (a tab, one space), read as text it would print as
                # "• item - nested item" or as a stray "- nested item" paragraph. The column counts
                # characters, a tab as one. Only two spaces continue an item, so the advice says so.
                marker = stripped[:nested.start(1)].rstrip()
                spaces = "" if indented else " and start the line with two spaces"
                raise RulebookError(self.path, lineno, (
                    f"lists do not nest: {stripped!r} is indented under the item before it; start it at the "
                    f"beginning of the line for an item of its own, or leave out its {marker!r}{spaces} to "
                    "continue the item above"), lead + 1)
            elif self.items and indented:
                self.items[-1].add(stripped, lineno, lead, shifts)
            else:
                self.close(items=True)
                if self.para is None:
                    self.para = _Where()
                self.para.add(stripped, lineno, lead, shifts)

    def directive(self, directive: Directive) -> None:
        self.close_all()
        self.blocks.append(directive)

    def _add(self, block: Block, *texts: _Where) -> None:
        self.blocks.append(block)
        self.texts.extend(texts)

    def close_all(self) -> None:
        self.close(para=True, items=True, table=True, note=True)

    def close(self, para: bool = False, items: bool = False, table: bool = False, note: bool = False) -> None:
        if para and self.para is not None:
            self._add(Paragraph(self.para.text, self.para.line), self.para)
            self.para = None
        if items and self.items:
            self._add(ListBlock(self.ordered, tuple(item.text for item in self.items), self.items_line), *self.items)
            self.items = []
        if table and self.table:
            self._table()
            self.table = []
        if note and self.note:
            paragraphs = [where for where in self.note if where.pieces]
            if paragraphs:
                self._add(Note(tuple(where.text for where in paragraphs), self.note_line), *paragraphs)
            self.note = []

    def _table(self) -> None:
        rows = self.table
        first_line = rows[0][0]
        if len(rows) < 2 or not all(_SEPARATOR_CELL_RE.match(c) for c, _ in _split_row(rows[1][1])):
            raise RulebookError(self.path, first_line, "a table needs a header row and then a separator row like |---|---|")
        cells = [[(cell, column) for cell, column in _split_row(row)] for _, row, _, _ in rows]
        header = cells[0]
        if len(header) > MAX_TABLE_COLUMNS:
            raise RulebookError(self.path, first_line, f"a table of {len(header)} columns; a page holds at most "
                                                       f"{MAX_TABLE_COLUMNS}: split it into narrower tables")
        wheres = []
        for index, ((lineno, row, lead, shifts), row_cells) in enumerate(zip(rows, cells)):
            if index != 1:  # the separator row
                if len(row_cells) != len(header):
                    raise RulebookError(self.path, lineno, f"table row has {len(row_cells)} cells, the header has "
                                                           f"{len(header)}: {row!r}")
                for cell, column in row_cells:
                    wheres.append(_Where())
                    wheres[-1].add(cell, lineno, lead + column, shifts)
        body = tuple(tuple(cell for cell, _ in row_cells) for row_cells in cells[2:])
        self._add(TableBlock(tuple(cell for cell, _ in header), body, first_line), *wheres)


def _check_size(text: str, path: str, line: int) -> None:
    """Refuse a block of text, or a word in it, longer than the typesetter is asked to set."""
    if len(text) > MAX_BLOCK_CHARS:
        raise RulebookError(path, line, f"this block of text is {len(text)} characters long; the limit is "
                                        f"{MAX_BLOCK_CHARS}: split it into paragraphs")
    longest = max(map(len, text.split()), default=0)
    if longest > MAX_WORD_CHARS:
        raise RulebookError(path, line, f"a word of {longest} characters without a space; the limit is "
                                        f"{MAX_WORD_CHARS}")


def _heading_text(rest: str) -> str:
    """A heading's text without the spaces and closing '#'s around it (``## Setup ##``)."""
    return rest.rstrip().rstrip("#").rstrip()


def block_texts(block: Block) -> tuple[str, ...]:
    """Every inline-markup string of a block (for checks such as fonts and markup)."""
    if isinstance(block, (Heading, Paragraph)):
        return (block.text,)
    if isinstance(block, ListBlock):
        return block.items
    if isinstance(block, TableBlock):
        return block.header + tuple(cell for row in block.rows for cell in row)
    if isinstance(block, Note):
        return block.paragraphs
    return ()


def _split_row(row: str) -> list[tuple[str, int]]:
    """The cells of a table row (stripped) with the index in ``row`` where each one's text starts."""
    start, end = (1 if row.startswith("|") else 0), len(row)
    if row.endswith("|") and not row.endswith("\\|") and end > start:
        end -= 1
    cells = []
    for bar in [*(m.start() for m in _CELL_BAR_RE.finditer(row, start, end)), end]:
        cell = row[start:bar]
        cells.append((cell.strip(), start + len(cell) - len(cell.lstrip())))
        start = bar + 1
    return cells


_CELL_BAR_RE = re.compile(r"(?<!\\)\|")


def _normalise_levels(blocks: tuple[Block, ...], path: str) -> tuple[Block, ...]:
    """Make the shallowest body heading level 1 and refuse skipped levels or more than three."""
    levels = [b.level for b in blocks if isinstance(b, Heading)]
    if not levels:
        return blocks
    top = min(levels)
    out: list[Block] = []
    depth = 0
    for block in blocks:
        if isinstance(block, Heading):
            level = block.level - top + 1
            if level > 3:
                raise RulebookError(path, block.line, f"headings go three levels deep at most: {block.text!r}")
            if level > depth + 1:
                raise RulebookError(path, block.line, f"heading {block.text!r} skips a level")
            depth = level
            block = Heading(level, block.text, block.line)
        out.append(block)
    return tuple(out)
