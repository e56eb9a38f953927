"""Rich text measured: the style a text is set in, and its words measured at unit size (1 mm) —
each a list of pieces (a span's text runs in the fonts that have its characters, or an icon)
with the space after it and its slanted overhang. Equal words are measured once for every text
set in the same fonts. A soft hyphen (U+00AD) takes no width and is not drawn: it marks where a
word may break (with a hyphen drawn there).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, Mapping

from printkit.fonts import glyph_set, missing_glyphs, text_width_mm, when_fonts_change
from printkit.layout.icons import Icon
from printkit.layout.richparse import _IconSpan, _Paragraph, _Span, _Word
from printkit.layout.text import SOFT_HYPHEN, FontMetrics, font_metrics, font_runs

# At most this many lines of one text are laid out and drawn (a card shows a few dozen).
MAX_LINES = 500
# Distinct words kept measured per font chain and style (shared by all texts set in them).
MAX_SHARED_WORDS = 200_000
# Icon square: this many cap heights, centred on the capitals' middle; space each side in em.
ICON_CAP_HEIGHTS = 1.2
ICON_SIDE_GAP_EM = 0.06
# The hyphen drawn where a line breaks at a soft hyphen.
HYPHEN = "-"


@dataclass(frozen=True)
class RichStyle:
    """Fonts, colour and paragraph settings of a rich text block.

    Each font field is a chain, preferred first, the rest fallbacks for characters it lacks.
    ``italic`` None slants the regular chain (and ``bold_italic`` None the bold chain) by
    ``slant_deg``. ``leading`` is the baseline distance and ``paragraph_gap`` the extra space
    before a paragraph, in em.
    """

    regular: tuple[Path, ...]
    bold: tuple[Path, ...]
    italic: tuple[Path, ...] | None = None
    color: str = "#000000"
    align: Literal["start", "middle", "end"] = "start"
    valign: Literal["top", "middle", "bottom", "caps"] = "top"
    leading: float = 1.25
    paragraph_gap: float = 0.35
    bold_italic: tuple[Path, ...] | None = None
    slant_deg: float = 12.0
    # True: a Hangul word is never broken between syllables to fill a line (CSS word-break: keep-all).
    keep_words: bool = False


def style_chains(style: RichStyle) -> dict[tuple[bool, bool], tuple[tuple[Path, ...], float]]:
    """The font chain and slant (degrees) of each (bold, italic) of ``style``."""
    return {
        (False, False): (tuple(style.regular), 0.0),
        (True, False): (tuple(style.bold), 0.0),
        (False, True): (tuple(style.italic), 0.0) if style.italic else (tuple(style.regular), style.slant_deg),
        (True, True): ((tuple(style.bold_italic), 0.0) if style.bold_italic
                       else (tuple(style.bold), style.slant_deg)),
    }


class _Piece:
    """A span ready to set: its fonts, slant and width at unit size (1 mm), and its runs (text,
    font, width at unit size) as :func:`font_runs` cuts it, soft hyphens left out."""

    __slots__ = ("text", "icon", "chain", "slant", "width", "runs", "color", "scale")

    def __init__(self, text: str | None, icon: Icon | None, chain: tuple[Path, ...], slant: float, width: float,
                 runs: tuple[tuple[str, Path, float], ...] = (), color: str | None = None, scale: float = 1.0):
        self.text, self.icon, self.chain, self.slant, self.width = text, icon, chain, slant, width
        self.runs = runs
        self.color, self.scale = color, scale  # a span's colour (None: the text's) and relative size


class _WordM:
    """A measured word: pieces, unit width, the space after it and its slanted overhang; whether it
    has Hangul and soft hyphens (places it may break)."""

    __slots__ = ("pieces", "width", "space", "overhang", "hangul", "soft")

    def __init__(self, pieces: list[_Piece], space: float, overhang: float):
        self.pieces = pieces
        self.width = sum(p.width for p in pieces)
        self.space = space
        self.overhang = overhang
        self.hangul = any(p.text is not None and _has_hangul(p.text) for p in pieces)
        self.soft = any(p.text is not None and SOFT_HYPHEN in p.text for p in pieces)


def _has_hangul(text: str) -> bool:
    return re.search("[\uac00-\ud7a3]", text) is not None


class _Measure:
    """Widths per character and font at unit size, with the font choice :func:`font_runs` makes."""

    def __init__(self) -> None:
        self._fonts: dict[tuple[str, tuple[Path, ...]], Path] = {}

    def font(self, ch: str, chain: tuple[Path, ...]) -> Path:
        key = (ch, chain)
        found = self._fonts.get(key)
        if found is None:
            code = ord(ch)
            found = next((f for f in chain if code in glyph_set(f)), chain[0])
            self._fonts[key] = found
        return found

    def width(self, ch: str, chain: tuple[Path, ...]) -> float:
        return 0.0 if ch == SOFT_HYPHEN else _char_width(ch, self.font(ch, chain))


@lru_cache(maxsize=1 << 15)
def _char_width(ch: str, font: Path) -> float:
    return text_width_mm(ch, font, 1.0)


when_fonts_change(_char_width.cache_clear)


class _Setting:
    """One text in one style, measured at unit size as the layout reaches each word.

    Only the words a layout gets to are measured (a text far too long for its box stops early),
    and equal words are measured once. Block metrics and glyph checks read each font chain's
    text joined, which costs little even for very long texts.
    """

    def __init__(self, parsed: tuple[_Paragraph, ...], style: RichStyle, icons: Mapping[str, Icon],
                 colors: Mapping[str, str] | None = None) -> None:
        self.parsed, self.icons = parsed, icons
        self.keep_words = style.keep_words
        self.colors = colors or {}  # a span's colour as written -> #rrggbb
        self.slant = math.tan(math.radians(style.slant_deg))
        self.chains = style_chains(style)
        self.regular = tuple(style.regular)
        base = font_metrics(self.regular[0])
        self.cap_height = base.cap_height
        by_style: dict[tuple[bool, bool], list[str]] = {}
        for paragraph in parsed:
            for line in paragraph:
                for word in line:
                    for span in word:
                        if type(span) is _Span:
                            by_style.setdefault((span.bold, span.italic), []).append(span.text)
        texts: dict[tuple[Path, ...], list[str]] = {}
        for key, parts in by_style.items():
            texts.setdefault(self.chains[key][0], []).extend(parts)
        # Soft hyphens are never drawn as they are: a font need not have them.
        self.chain_texts = {chain: " ".join(parts).replace(SOFT_HYPHEN, "") for chain, parts in texts.items()}
        # What the first font of each chain lacks: usually nothing, and then each span is one run.
        self.missing = {chain: missing_glyphs(text, chain[0]) for chain, text in self.chain_texts.items()}
        used = {self.regular[0]}
        for chain, missing in self.missing.items():
            used.add(chain[0])
            used.update(next((f for f in chain if ord(ch) in glyph_set(f)), chain[0]) for ch in missing)
        each = [font_metrics(f) for f in sorted(used)]
        self.metrics = FontMetrics(max(m.ascent for m in each), max(m.descent for m in each), base.cap_height)
        # The icon square: a little taller than the capitals, centred on their middle, within the ascent.
        self.icon_side = max(0.1, min(ICON_CAP_HEIGHTS * base.cap_height, 2 * self.metrics.ascent - base.cap_height))
        self.icon_drop = self.icon_side / 2 - base.cap_height / 2
        self._words: dict[_Word, _WordM] = {}
        self.lines: dict[int, list[_WordM]] = {}  # by id of a hard line of ``parsed`` (kept alive here)
        # Words without icons or spans measure the same in every text of these fonts: shared between texts.
        self._shared = _shared_words(tuple(self.chains.values()), self.slant, self.cap_height)

    def word(self, word: _Word) -> _WordM:
        found = self._words.get(word)
        if found is None:
            found = self._words[word] = self.measured(word)
        return found

    def measured(self, word: _Word) -> _WordM:
        """``word`` measured, through the measures every setting in these fonts shares (not kept in this one)."""
        # Icons depend on the text's metrics, span colours on the palette.
        if any(type(span) is _IconSpan or span.color is not None for span in word):
            return self._measure(word)
        found = self._shared.get(word)
        if found is None:
            found = self._measure(word)
            if len(self._shared) < MAX_SHARED_WORDS:
                self._shared[word] = found
        return found

    def _measure(self, word: _Word) -> _WordM:
        pieces: list[_Piece] = []
        for span in word:
            color = self.colors[span.color] if span.color is not None else None
            if isinstance(span, _IconSpan):
                side = self.icon_side * span.size if span.size != 1.0 else self.icon_side
                pieces.append(_Piece(None, self.icons[span.name], (), 0.0, side + 2 * ICON_SIDE_GAP_EM,
                                     color=color, scale=span.size))
                continue
            chain, deg = self.chains[span.bold, span.italic]
            text = span.text.replace(SOFT_HYPHEN, "") if SOFT_HYPHEN in span.text else span.text
            runs = font_runs(text, chain) if self.missing.get(chain) else [(text, chain[0])]
            k = span.size
            if k == 1.0:
                measured = tuple((run, font, _width(run, font)) for run, font in runs)
            else:
                measured = tuple((run, font, _width(run, font) * k) for run, font in runs)
            pieces.append(_Piece(span.text, None, chain, deg, sum(w for _, _, w in measured), measured, color, k))
        last = pieces[-1]
        space_font = font_runs(last.text[-1], last.chain)[0][1] if last.text else self.regular[0]
        overhang = self.slant * self.cap_height if any(p.slant for p in pieces) else 0.0
        space = _width(" ", space_font) if last.scale == 1.0 else _width(" ", space_font) * last.scale
        return _WordM(pieces, space, overhang)


@lru_cache(maxsize=64)
def _shared_words(chains: tuple, slant: float, cap_height: float) -> dict[_Word, _WordM]:
    """The measured words (without icons) of every text set in these font chains, slant and cap height.

    A word's measure depends on nothing else: its pieces' widths are those of the fonts
    :func:`font_runs` picks, its space that of the font of its last character, its overhang the
    slant times the cap height. A deck of thousands of cards measures each distinct word once.
    """
    return {}


when_fonts_change(_shared_words.cache_clear)


def _width(text: str, font: Path) -> float:
    """Advance width at unit size; long texts by character counts (one pass in C, not one per character)."""
    if len(text) < 4096:
        return text_width_mm(text, font, 1.0)
    distinct = set(text)
    counts = Counter(text).items() if len(distinct) > 32 else ((ch, text.count(ch)) for ch in distinct)
    return sum(_char_width(ch, font) * n for ch, n in counts)


def _top_em(metrics, valign: str) -> float:
    """How far the first line reaches above its baseline, in text sizes: its capitals for ``caps``."""
    return metrics.cap_height if valign == "caps" else metrics.ascent
