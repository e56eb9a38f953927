"""Rich text read: markup, as :mod:`printkit.layout.markup` tokenizes it, gathered into paragraphs
of lines of words, each word a run of styled spans and icons; and what a text names (icons, span
colours) or says without styles (its plain text).

Reading is lenient, as :mod:`printkit.layout.richtext` describes; a span asking for what a span
does not do, an unknown icon and an unknown colour are :class:`RichTextError`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping, NamedTuple

from printkit.errors import RichTextError
from printkit.layout.icons import Icon
from printkit.layout.markup import (
    BOLD, CODE, END, ICON, ITALIC, LITERAL, PLAIN, SPAN, TEXT, hex_color, tokenize, unknown_color, unknown_icon,
)

# Breakable spaces: whitespace other than the no-break ones.
_SPACES = re.compile(r"[^\S\u00a0\u2007\u202f]+")


class _Span(NamedTuple):
    """Text without breakable spaces, in one style (``color`` and ``size`` from a ``[…]{…}`` span)."""

    text: str
    bold: bool
    italic: bool
    color: str | None = None
    size: float = 1.0


class _IconSpan(NamedTuple):
    name: str
    color: str | None = None
    size: float = 1.0


_Word = tuple["_Span | _IconSpan", ...]
_Paragraph = tuple[tuple[_Word, ...], ...]  # lines of words


def icon_names(markup: str) -> tuple[str, ...]:
    """The icon names ``markup`` uses, each once, in order of first use (escaped ones excluded).

    Raises :class:`RichTextError` for a span with attributes it does not take."""
    if ":" not in markup and "]{" not in markup:  # an icon is written :name:, a span [text]{…}
        return ()
    # The tokens alone (a span that cannot be set is refused as they are read): no words gathered.
    # Icons and spans lie within a line, so the whole text's tokens have its paragraphs' own.
    seen: dict[str, None] = {}
    for kind, value, _ in tokenize(_one_line_break(markup)):
        if kind == ICON:
            seen.setdefault(value)
    return tuple(seen)


def _one_line_break(markup: str) -> str:
    """``markup`` with its line breaks written as ``\n``, as :func:`_parse` reads them."""
    return markup.replace("\r\n", "\n").replace("\r", "\n")


# A deck's repeated texts (Calc's numbers, a keyword's reminder) are parsed once; a parse of
# a long paragraph holds a few kilobytes, so a deck of distinct texts keeps only the latest.
@lru_cache(maxsize=256)
def _parse(markup: str) -> tuple[_Paragraph, ...]:
    """Paragraphs of lines of words; linear in the length of ``markup``."""
    paragraphs: list[_Paragraph] = []
    block: list[str] = []
    for line in _one_line_break(markup).split("\n"):
        if line.strip():
            block.append(line)
        elif block:
            paragraphs.append(_parse_paragraph(block))
            block = []
    if block:
        paragraphs.append(_parse_paragraph(block))
    return tuple(paragraphs)


def _parse_paragraph(lines: list[str]) -> _Paragraph:
    """Lines of words of styled text (gathered in lists, so many small tokens stay linear)."""
    bold = italic = False
    span = PLAIN
    lines_out: list[tuple[_Word, ...]] = []
    words: list[_Word] = []
    word: list[_Span | _IconSpan] = []
    buffer: list[str] = []
    buffer_style: tuple = (False, False, PLAIN)

    def end_span() -> None:
        if buffer:
            bold_, italic_, span_ = buffer_style
            if span_ is PLAIN:
                word.append(_Span("".join(buffer), bold_, italic_))
            else:
                word.append(_Span("".join(buffer), bold_, italic_, span_.color, span_.size))
            buffer.clear()

    def end_word() -> None:
        end_span()
        if word:
            words.append(tuple(word))
            word.clear()

    for kind, value, _ in tokenize("\n".join(lines)):
        if kind == TEXT or kind == LITERAL or kind == CODE:
            text = f"`{value}`" if kind == CODE else value  # card text has no code face: as typed
            for number, part in enumerate(_SPACES.split(text)):
                if number:
                    end_word()
                if part:
                    if buffer and buffer_style != (bold, italic, span):
                        end_span()
                    buffer_style = (bold, italic, span)
                    buffer.append(part)
        elif kind == BOLD:
            bold = not bold
        elif kind == ITALIC:
            italic = not italic
        elif kind == ICON:
            end_span()
            word.append(_IconSpan(value) if span is PLAIN else _IconSpan(value, span.color, span.size))
        elif kind == SPAN:
            span = value
        elif kind == END:
            span = PLAIN
        else:  # a line break
            end_word()
            lines_out.append(tuple(words))
            words = []
    end_word()
    lines_out.append(tuple(words))
    return tuple(lines_out)


def _plain(parsed: tuple[_Paragraph, ...], limit: int = 80) -> str:
    """The start of the text as read, for warnings: words joined by spaces, icons as :name:."""
    out: list[str] = []
    size = 0
    for paragraph in parsed:
        for line in paragraph:
            for word in line:
                text = "".join(s.text[:limit] if isinstance(s, _Span) else f":{s.name}:" for s in word)
                out.append(text)
                size += len(text) + 1
                if size > limit:
                    return " ".join(out)[:limit]
    return " ".join(out)


def plain_text(markup: str) -> str:
    """``markup`` as plain text, for places that show no styles (a digital table's card text):
    emphasis stars and escapes gone, each icon written as its name in words (``:fire:`` -> ``fire``,
    ``:red_gem:`` -> ``red gem``), spaces made single, lines and paragraphs kept."""
    paragraphs = []
    for paragraph in _parse(markup):
        lines = []
        for line in paragraph:
            words = []
            for word in line:
                text, after_icon = "", False
                for span in word:
                    icon = isinstance(span, _IconSpan)
                    piece = span.name.replace("_", " ").replace("-", " ") if icon else span.text
                    # An icon inside a word is a word of its own: 3:gold: reads "3 gold", :gold:3
                    # "gold 3" (but :gem:s "gems").
                    if text and text[-1].isalnum() and (piece[:1].isalnum() if icon else
                                                        after_icon and piece[:1].isdigit()):
                        text += " "
                    text += piece
                    after_icon = icon
                words.append(text)
            lines.append(" ".join(words))
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def _check_icons(parsed: tuple[_Paragraph, ...], icons: Mapping[str, Icon], where: str) -> None:
    for paragraph in parsed:
        for line in paragraph:
            for word in line:
                for span in word:
                    if isinstance(span, _IconSpan) and span.name not in icons:
                        raise RichTextError(unknown_icon(span.name, icons, where))


def span_colors(markup: str, palette: Mapping[str, str], where: object = "") -> None:
    """Raise :class:`RichTextError` for a span colour of ``markup`` that is neither ``#rgb`` /
    ``#rrggbb`` nor a name of ``palette``."""
    if "]{" in markup:
        _span_colors(_parse(markup), palette, where)


def _span_colors(parsed: tuple[_Paragraph, ...], palette: Mapping[str, str], where: object) -> dict[str, str]:
    """Each span colour of the text, as written, with the ``#rrggbb`` it stands for."""
    out: dict[str, str] = {}
    for paragraph in parsed:
        for line in paragraph:
            for word in line:
                for span in word:
                    written = span.color
                    if written is None or written in out:
                        continue
                    color = hex_color(written) or palette.get(written)
                    if color is None:
                        raise RichTextError(unknown_color(written, palette, where))
                    out[written] = color
    return out


__all__ = ["icon_names", "plain_text", "span_colors"]
