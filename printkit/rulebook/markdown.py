"""A small Markdown subset for rule texts, parsed into a flat list of blocks.

The subset is documented in docs/rulebook-format.md: front matter or a first ``# `` line for the
title; ``#``/``##``/``###`` headings; paragraphs; ``- `` and ``1. `` lists (not nested); pipe
tables with a separator row; ``> `` notes; ``::: kind name`` directives; inline ``**bold**``,
``*italic*``, ``code`` in backticks, backslash escapes and ``{{ key }}`` values, and, read as card
text reads them (:mod:`printkit.layout.richtext`), ``:icon:`` and ``[text]{color=… size=…}`` spans.

Parsing is pure: ``parse`` takes the text and an optional ``resolve`` callback for ``{{ key }}``
values, so errors can name the exact line of a bad key.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Collection, Union

from printkit.errors import BuildError, RulebookError
from printkit.layout.richtext import SpanStyle, hex_color, icon_at, span_at, span_ends, unknown_color, unknown_icon
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
    """Split inline markup into styled spans; unbalanced ``*``/``**``/backticks are errors.

    ``:name:`` is an icon and ``[text]{color=… size=…}`` a span, read as card text reads them
    (:func:`printkit.layout.richtext.icon_at` and :func:`~printkit.layout.richtext.span_at`).
    An icon not in ``icons``, a span colour that is neither a hex colour nor in ``colors``, and a
    span attribute other than those are errors (each check only when the names are given).

    Text outside code spans is set with curly quotes and real minus signs
    (:func:`printkit.typography.smarten`); code and backslash-escaped characters print as typed.
    """
    if not _INLINE_SYNTAX.search(text):
        return (Span(smarten(text)),) if text else ()  # most text has no markup: one plain span
    spans: list[Span] = []
    buf: list[str] = []  # text of the current style, each piece already set
    raw: list[str] = []  # typed text not yet set
    bold = italic = False
    style = _PLAIN
    ends: list[int] | None = None  # where spans may close, found once a '[' is met
    span_close = span_after = -1  # the open span's ']' and the index after its '}'
    open_at: dict[str, int] = {}
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

    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            settle()
            buf.append(text[i + 1])  # escaped: as typed
            set_before = text[i + 1]
            i += 2
        elif ch == "`":
            end = text.find("`", i + 1)
            if end < 0:
                raise RulebookError(path, line, f"unclosed ` in {text!r}")
            flush()
            spans.append(Span(text[i + 1 : end], bold, italic, code=True))
            set_before = text[i + 1 : end] or set_before
            i = end + 1
        elif text.startswith("**", i):
            flush()
            bold = not bold
            open_at["**"] = i
            i += 2
        elif ch == "*":
            flush()
            italic = not italic
            open_at["*"] = i
            i += 1
        elif ch == ":" and (icon := icon_at(text, i)) is not None:
            name, i = icon
            if icons is not None and name not in icons:
                raise RulebookError(path, line, unknown_icon(name, icons, ""))
            flush()
            spans.append(Span("", bold, italic, icon=name, color=style.color, size=style.size))
        elif ch == "[" and span_close < 0:
            if ends is None:
                ends = span_ends(text, escapes=None)
            try:
                found = span_at(text, i, ends)
            except ValueError as exc:
                raise RulebookError(path, line, str(exc)) from None
            if found is None:
                raw.append(ch)
                i += 1
                continue
            if found[0].color is not None and colors is not None and not hex_color(found[0].color) \
                    and found[0].color not in colors:
                raise RulebookError(path, line, unknown_color(found[0].color, dict.fromkeys(colors, ""), ""))
            flush()
            style, span_close, span_after = found
            i += 1
        elif ch == "]" and i == span_close:
            flush()
            style, i = _PLAIN, span_after
            span_close = span_after = -1
        else:
            raw.append(ch)
            i += 1
    flush()
    if bold or italic:
        marker = "**" if bold else "*"
        raise RulebookError(path, line, f"unclosed {marker} in {text!r} (write \\* for a literal star)")
    return _merge(spans)


_PLAIN = SpanStyle()


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


def plain(text: str) -> str:
    """The text of inline markup without styling or icons (for the contents and PDF outline)."""
    return "".join(span.text for span in parse_inline(text))


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


def substitute(line: str, resolve: Resolver, path: str, lineno: int) -> str:
    """Replace every ``{{ key }}`` in one line; the resolver raises KeyError with a message."""

    def one(match: re.Match[str]) -> str:
        key = match.group(1).strip()
        try:
            return escape(str(resolve(key)))
        except KeyError as exc:
            message = exc.args[0] if exc.args else f"unknown value {key!r}"
            raise RulebookError(path, lineno, str(message)) from None
        except RulebookError:
            raise
        except BuildError as exc:
            raise RulebookError(path, lineno, f"{{{{ {key} }}}}: {exc}") from None

    return _VALUE_RE.sub(one, line)


def parse(text: str, path: str | Path = "<rulebook>", resolve: Resolver | None = None,
          default_title: str | None = None, icons: Collection[str] | None = None,
          colors: Collection[str] | None = None) -> Document:
    """Parse a rule text into a Document; ``resolve`` maps ``{{ key }}`` to its value.

    ``default_title`` (inline markup) is the title of a text with neither front matter title nor
    a first ``# `` line; without it such a text is an error. ``icons`` and ``colors`` are the
    names ``:icon:`` and a span's ``color=`` may use (the deck's); another is an error at its line.
    """
    path = str(path)
    lines = text.splitlines()
    numbered = list(enumerate(lines, start=1))
    title: str | None = None
    subtitle: str | None = None

    if lines and lines[0].strip() == "---":
        try:
            end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
        except StopIteration:
            raise RulebookError(path, 1, "front matter opened with '---' is never closed") from None
        for lineno, raw in numbered[1:end]:
            if not raw.strip():
                continue
            key, sep, value = raw.partition(":")
            key, value = key.strip(), value.strip()
            if not sep or key not in ("title", "subtitle"):
                raise RulebookError(path, lineno, f"front matter takes 'title: …' and 'subtitle: …', got {raw!r}")
            if resolve is not None:
                value = substitute(value, resolve, path, lineno)
            if key == "title":
                title = value
            else:
                subtitle = value
        numbered = numbered[end + 1 :]

    blocks: list[Block] = []
    para: list[str] = []
    para_line = 0
    items: list[str] = []
    items_ordered = False
    items_line = 0
    table: list[tuple[int, str]] = []
    note: list[list[str]] = []
    note_line = 0
    in_comment = False

    def close_para() -> None:
        nonlocal para
        if para:
            blocks.append(Paragraph(" ".join(para), para_line))
            para = []

    def close_items() -> None:
        nonlocal items
        if items:
            blocks.append(ListBlock(items_ordered, tuple(items), items_line))
            items = []

    def close_table() -> None:
        nonlocal table
        if table:
            blocks.append(_table(table, path))
            table = []

    def close_note() -> None:
        nonlocal note
        if note:
            paragraphs = tuple(" ".join(p) for p in note if p)
            if paragraphs:
                blocks.append(Note(paragraphs, note_line))
            note = []

    def close_all() -> None:
        close_para()
        close_items()
        close_table()
        close_note()

    for lineno, raw in numbered:
        stripped = raw.strip()
        if in_comment:
            if stripped.endswith("-->"):
                in_comment = False
            continue
        if stripped.startswith("<!--"):
            in_comment = not stripped.endswith("-->")
            continue
        directive = _DIRECTIVE_RE.match(raw)
        if directive:
            close_all()
            kind, name = directive.group(1), (directive.group(2) or "").rstrip()
            if kind not in DIRECTIVE_KINDS:
                raise RulebookError(path, lineno, f"unknown directive {kind!r} (known: {', '.join(DIRECTIVE_KINDS)})")
            if kind == "pagebreak" and name:
                raise RulebookError(path, lineno, f"'::: pagebreak' takes no name, got {name!r}")
            if kind in FREE_DIRECTIVES:
                if not name.strip():
                    raise RulebookError(path, lineno, f"'::: {kind}' needs what to show, e.g. '::: {kind} "
                                                      f"{'Deck: back x20; Hand: back x5' if kind == 'setup' else 'ember-drake'}'")
                if len(name) > 2000:
                    raise RulebookError(path, lineno, f"'::: {kind}' is longer than 2000 characters")
            elif kind != "pagebreak" and not re.fullmatch(r"[A-Za-z0-9_\-]+", name):
                raise RulebookError(path, lineno, f"'::: {kind}' needs one name, got {name!r}")
            blocks.append(Directive(kind, name, lineno))
            continue
        line = substitute(raw, resolve, path, lineno) if resolve is not None else raw
        stripped = line.strip()
        if not stripped:
            close_all()
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            close_all()
            level = len(heading.group(1))
            text = _heading_text(heading.group(2))
            if title is None and level == 1 and not blocks:
                title = text
            else:
                blocks.append(Heading(level, text, lineno))
            continue
        if stripped.startswith(">"):
            close_para()
            close_items()
            close_table()
            content = stripped[1:].strip()
            if not note:
                note = [[]]
                note_line = lineno
            if content:
                note[-1].append(content)
            elif note[-1]:
                note.append([])
            continue
        close_note()
        if stripped.startswith("|"):
            close_para()
            close_items()
            table.append((lineno, stripped))
            continue
        close_table()
        bullet = _BULLET_RE.match(line) if not line[:1].isspace() else None
        number = _NUMBERED_RE.match(line) if not line[:1].isspace() else None
        if bullet or number:
            close_para()
            ordered = number is not None
            if items and items_ordered != ordered:
                close_items()
            if not items:
                items_ordered = ordered
                items_line = lineno
            items.append((number or bullet).group(1).strip())
            continue
        if items and raw[:2] == "  ":
            items[-1] += " " + stripped
            continue
        close_items()
        if not para:
            para_line = lineno
        para.append(stripped)
    if in_comment:
        raise RulebookError(path, None, "a '<!--' comment is never closed with '-->'")
    close_all()

    if title is None:
        title = default_title
    if title is None:
        raise RulebookError(path, 1, "no title: start with front matter 'title: …' or a '# Title' line")
    for line_text in (title, subtitle):
        if line_text:
            parse_inline(line_text, path, 1, icons, colors)
    for block in blocks:
        for text in block_texts(block):
            _check_size(text, path, block.line)
            parse_inline(text, path, block.line, icons, colors)  # report bad inline markup now, with its line
    return Document(title, subtitle, _normalise_levels(tuple(blocks), path), path)


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


def _split_row(row: str) -> tuple[str, ...]:
    body = row.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    return tuple(cell.strip() for cell in cells)


def _table(rows: list[tuple[int, str]], path: str) -> TableBlock:
    first_line = rows[0][0]
    if len(rows) < 2 or not all(_SEPARATOR_CELL_RE.match(c) for c in _split_row(rows[1][1])):
        raise RulebookError(path, first_line, "a table needs a header row and then a separator row like |---|---|")
    header = _split_row(rows[0][1])
    if len(header) > MAX_TABLE_COLUMNS:
        raise RulebookError(path, first_line, f"a table of {len(header)} columns; a page holds at most "
                                              f"{MAX_TABLE_COLUMNS}: split it into narrower tables")
    body = []
    for lineno, row in rows[2:]:
        cells = _split_row(row)
        if len(cells) != len(header):
            raise RulebookError(path, lineno, f"table row has {len(cells)} cells, the header has {len(header)}: {row!r}")
        body.append(cells)
    return TableBlock(header, tuple(body), first_line)


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
