"""Check's sufficient fit bound: a size at which a rich text provably fits its box, found
without breaking it into lines or setting it (see :func:`proved_size`).

:func:`printkit.layout.richtext.fit_rich` asks it when a check (which draws nothing) gives a
floor size; a text it cannot prove is set as any text is.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Mapping

from printkit.fonts import missing_glyphs
from printkit.layout.geometry import Box
from printkit.layout.icons import Icon
from printkit.layout.richmeasure import MAX_LINES, MAX_SHARED_WORDS, RichStyle, _Setting, _top_em, _WordM
from printkit.layout.richparse import _SPACES, _IconSpan, _parse, _Span, _Word
from printkit.layout.text import (
    _SIZE_STEP_MM, SOFT_HYPHEN, FittedText, FontMetrics, _usable_sizes, font_metrics,
)


# Bounds are kept this far inside the box, so rounding in them never says "fits" at the edge.
_PROOF_MARGIN = 1e-6


def proved_size(setting: _Setting, style: RichStyle, box: Box, max_size_mm: float, low: float,
                 fit: str, floor_mm: float) -> float | None:
    """A size of the sizes setting tries, no smaller than ``floor_mm``, at which the text provably
    fits ``box`` (the size setting chooses is then no smaller), or None when the bound cannot tell.

    The bound takes no line breaking: a hard line of words of total width ``T`` (their spaces
    included) broken greedily to width ``W``, none wider than ``M`` with its overhang and no space
    wider than ``S``, fills each line but its last past ``W - S - M``, so it takes at most
    ``floor(T / (W - S - M)) + 1`` lines. Texts whose setting could do more than break at spaces
    (a word wider than a line, Hangul words, characters the first font lacks) are left to setting.
    Below a size where this proves a fit, every size fits too: lines only get wider in ems and
    greedy breaking never takes more lines on a wider one, so the search cannot end below it.
    Soft hyphens change none of this: a line is ended by a word that does not fit whole, and
    breaking that word at a soft hyphen only adds to the line; and no word is wider than a line,
    so none is broken between letters (which setting does not count as fitting).
    """
    if any(setting.missing.values()):
        return None
    size = _proof_size(max_size_mm, low, fit, floor_mm)
    if size is None:
        return None
    hard_lines = ([setting.word(raw) for raw in hard] for paragraph in setting.parsed for hard in paragraph)
    return size if _bound_fits(hard_lines, len(setting.parsed), setting.metrics, style, box, size) else None


def _proof_size(max_size_mm: float, low: float, fit: str, floor_mm: float) -> float | None:
    """The smallest size setting may try that is no smaller than ``floor_mm`` (None if none is)."""
    if fit == "none":
        size = max_size_mm
    else:
        steps = int((max_size_mm - low) / _SIZE_STEP_MM + 1e-9)
        index = max(0, math.ceil((floor_mm - low) / _SIZE_STEP_MM - 1e-9))
        while index <= steps and low + index * _SIZE_STEP_MM < floor_mm:
            index += 1
        size = low + index * _SIZE_STEP_MM if index <= steps else max_size_mm
    return size if size >= floor_mm else None


def _bound_fits(hard_lines: Iterator[list[_WordM]], paragraphs: int, m: FontMetrics, style: RichStyle,
                box: Box, size: float) -> bool:
    """Whether the bound of :func:`proved_size` proves these hard lines of measured words fit
    ``box`` at ``size``, set with metrics ``m`` (False: it cannot tell)."""
    width = box.w_mm / size * (1 - _PROOF_MARGIN)
    lines = 0
    any_text = False
    for hard in hard_lines:
        total = widest = space = 0.0
        for word in hard:
            if word.hangul:
                return False
            if not any_text:
                any_text = _has_text(word)
            total += word.width + word.space
            if word.width + word.overhang > widest:
                widest = word.width + word.overhang
            if word.space > space:
                space = word.space
        count = _lines_at_most(total, widest, space, width)
        if count is None:
            return False
        lines += count
    return any_text and _tall_enough(lines, paragraphs, m, style, box, size)


def _lines_at_most(total: float, widest: float, space: float, width: float) -> int | None:
    """The most lines a hard line of words (the bound of :func:`proved_size`) breaks into at
    ``width``; None when a word is wider than a line (or the bound cannot tell)."""
    if widest > width:
        return None
    if total + widest <= width:
        return 1
    room = width - space - widest
    return math.floor(total / room) + 1 if room > 0 else None


def _tall_enough(lines: int, paragraphs: int, m: FontMetrics, style: RichStyle, box: Box, size: float) -> bool:
    """Whether ``lines`` lines in ``paragraphs`` paragraphs are no taller than ``box`` at ``size``."""
    if lines >= MAX_LINES or style.leading < 0 or style.paragraph_gap < 0:
        return False
    tallest = _top_em(m, style.valign) + m.descent + (lines - 1) * style.leading + \
        (paragraphs - 1) * style.paragraph_gap
    return tallest <= box.h_mm / size * (1 - _PROOF_MARGIN)


# What makes text more than words between spaces and icons: other markup, and line ends.
_NOT_PLAIN = re.compile(r"[\\*\[\]`\r]")


def proved_plain(markup: str, box: Box, style: RichStyle, max_size_mm: float, min_size_mm: float,
                  fit: str, icons: Mapping[str, Icon], where: object, floor_mm: float) -> FittedText | None:
    """:func:`proved_size` for text without markup but icons (or all of it in italic, without
    icons, as ``*text*`` on one line), read and measured without parsing it or gathering a
    setting; None when it is not such text or the bound cannot tell (it is then set as any text
    is, and an unknown icon is refused there)."""
    italic = False
    text = markup
    if markup.startswith("*") and markup.endswith("*") and len(markup) > 2 and "\n" not in markup:
        text = markup[1:-1]  # one star each side, a non-space inside: the tokenizer's emphasis
        if text[0].isspace() or text[-1].isspace():
            return None
        italic = True
    if fit not in ("shrink", "none") or _NOT_PLAIN.search(text) or (italic and ":" in text):
        return None
    plain = _plain_words(style.regular, style.bold, style.italic, style.bold_italic, style.slant_deg, italic)
    if missing_glyphs(text, plain.font):
        return None
    low, warnings = _usable_sizes(max_size_mm, min_size_mm, where)
    size = _proof_size(max_size_mm, low, fit, floor_mm)
    if size is None:
        return None
    width = box.w_mm / size * (1 - _PROOF_MARGIN)
    paragraphs = lines = 0
    in_paragraph = any_text = False
    measured = plain.measured
    setting: _Setting | None = None  # for words with icons, made when one comes
    for line in text.split("\n"):
        if not line.strip():
            in_paragraph = False
            continue
        if not in_paragraph:
            paragraphs += 1
            in_paragraph = True
        if ":" in line:
            words = _icon_line(line, icons)
            if words is None:
                return None
            if setting is None:
                setting = _Setting((), style, icons)
            measures = [measured.get(w[0].text) or plain.measure(w[0].text) if len(w) == 1 and type(w[0]) is _Span
                        else _extent(setting.measured(w)) for w in words]
        else:
            measures = [measured.get(part) or plain.measure(part) for part in _SPACES.split(line) if part]
        if not measures:  # a hard line of no words: one empty line
            lines += 1
            continue
        advances, reaches, spaces, texts, hangul = zip(*measures)  # summed and compared in C
        if any(hangul):
            return None
        any_text = any_text or any(texts)
        count = _lines_at_most(sum(advances), max(reaches), max(spaces), width)
        if count is None:
            return None
        lines += count
    if not (any_text and _tall_enough(lines, paragraphs, plain.metrics, style, box, size)):
        return None
    return FittedText(ops=(), size_mm=size, warning="; ".join(warnings) or None, proved=True)


def _icon_line(line: str, icons: Mapping[str, Icon]) -> list[_Word] | None:
    """The words of one line of text whose only markup is icons, as :func:`_parse` reads them
    (None if it names an icon not in ``icons``: setting it says so)."""
    parsed = _parse(line)
    words = list(parsed[0][0]) if parsed else []  # one line, unless it is blank
    if any(type(span) is _IconSpan and span.name not in icons for word in words for span in word):
        return None
    return words


# A measured word for the bound: width with the space after it, width with its overhang, the
# space, whether it has text (not icons alone), whether it has Hangul.
_Extent = tuple[float, float, float, bool, bool]


def _extent(word: _WordM) -> _Extent:
    return (word.width + word.space, word.width + word.overhang, word.space,
            _has_text(word), word.hangul)


def _has_text(word: _WordM) -> bool:
    """Whether ``word`` draws text (not icons or soft hyphens alone)."""
    return any(p.text and p.text.strip(SOFT_HYPHEN) for p in word.pieces)


class _PlainWords:
    """Words of plain text in one style (regular or ``italic``), measured as every setting in the
    style measures them when the first font of their chain has their characters; by their text."""

    def __init__(self, style: RichStyle, italic: bool) -> None:
        self.italic = italic
        self.setting = _Setting((), style, {})  # of no text: its measures are the shared ones
        self.font = self.setting.chains[False, italic][0][0]
        base = font_metrics(self.setting.regular[0])
        each = (base, font_metrics(self.font))
        # A text all in this chain's first font: the metrics a setting of it gathers.
        self.metrics = FontMetrics(max(m.ascent for m in each), max(m.descent for m in each), base.cap_height)
        self.measured: dict[str, _Extent] = {}

    def measure(self, text: str) -> _Extent:
        word = _extent(self.setting.measured((_Span(text, False, self.italic),)))
        if len(self.measured) < MAX_SHARED_WORDS:
            self.measured[text] = word
        return word


@lru_cache(maxsize=64)
def _plain_words(regular: tuple[Path, ...], bold: tuple[Path, ...], italic_chain: tuple[Path, ...] | None,
                 bold_italic: tuple[Path, ...] | None, slant_deg: float, italic: bool) -> _PlainWords:
    """The plain words of every text set in these fonts (what measuring reads of a style; regular
    or ``italic``), measured once each."""
    style = RichStyle(regular, bold, italic_chain, bold_italic=bold_italic, slant_deg=slant_deg)
    return _PlainWords(style, italic)


__all__ = ["proved_plain", "proved_size"]
