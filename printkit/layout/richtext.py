r"""Rich text: a small markup with bold, italic, line breaks and inline icons, fitted to a box.

Markup
------
The inline markup of :mod:`printkit.layout.markup` (bold, italic, icons, spans, escapes), read
leniently: stars that are not emphasis and a lone backtick print as typed, and a `` `code` ``
prints as typed with its backticks. An unknown icon name, a span colour that is neither ``#rgb``
/ ``#rrggbb`` nor a name of the palette, and a span's ``{…}`` asking for what a span does not do
are errors (:class:`RichTextError`). Emphasis and spans end with their paragraph.

- A newline starts a new line; a blank line (or several) starts a new paragraph, set with a
  small extra gap (``RichStyle.paragraph_gap``). Spaces and tabs between words shrink to one
  space; a line's leading and trailing spaces are dropped. A no-break space (U+00A0) never breaks.
- An icon is set inline as a word or part of one: ``3:gold:`` keeps the 3 with its gold.
- A span sets its text (markup inside it included, icons too) in its colour and at its size.

Setting
-------
- Line breaks: at spaces. A word wider than a whole line is broken between characters, never
  before closing punctuation (``.,!?)」`` …) nor after opening punctuation (``(「`` …), with no
  hyphen added.
- Korean: words are kept whole where that fits reasonably. A word containing Hangul syllables
  that does not fit on the rest of a line is broken between two Hangul syllables when the line
  is less than three quarters full (so a long word does not leave a wide gap behind it);
  otherwise it starts the next line (always, with ``RichStyle.keep_words``). A break between two syllables is never next to
  punctuation, so the punctuation rule above holds here too.
- Icons are squares centred on the middle of the capitals (a little taller than the cap height,
  never beyond the font's ascent), with a small space on either side. An icon with no colour of
  its own takes the text's colour; in a span with a colour, every icon that can be recoloured
  (the built-in ones) is drawn in it.
- A span's size scales its text and icons on the line's baseline; the lines keep the block's
  spacing, so a size above about 1.3 wants a ``line_spacing`` to match.
- Italic uses ``RichStyle.italic`` when given; otherwise the regular (or bold) fonts are slanted
  by ``RichStyle.slant_deg`` (a sheared ``Text``, as :class:`~printkit.layout.ops.Text` offers).
- Characters a font lacks are set in the next font of the chain that has them, as
  :mod:`printkit.layout.text` does; characters no font has are named in the warning.
- Fitting: ``fit="shrink"`` sets the whole block at the largest size on a 0.05 mm grid in
  [min, max] at which every line fits the box's width and all lines its height; ``"none"`` sets
  it at the maximum. Text that does not fit is still set (at the minimum) with a warning; of a
  text far too long for its box at most :data:`MAX_LINES` lines are drawn.

Widths are measured once, at unit size, and scaled: a size is tried by breaking lines against
``box width / size``, stopping as soon as the lines are taller than the box. The maximum size is
tried first (most texts fit at it); otherwise a binary search over the sizes finds the largest that
fits. The layout of the size chosen is drawn as tried, not laid out again.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Literal, Mapping, NamedTuple

from printkit.errors import RichTextError
from printkit.layout.markup import (
    BOLD, CODE, END, ICON, ITALIC, LITERAL, PLAIN, SPAN, TEXT, hex_color, tokenize, unknown_color, unknown_icon,
)
from printkit.fonts import glyph_set, missing_glyphs, text_width_mm, when_fonts_change
from printkit.layout.geometry import Box
from printkit.layout.icons import Icon, takes_text_color
from printkit.layout.ops import Op, Text
from printkit.memo import Memo
from printkit.layout.text import (
    _SIZE_STEP_MM,
    FittedText,
    FontMetrics,
    _baseline_y,
    _glyph_warning,
    _short,
    _usable_sizes,
    font_metrics,
    font_runs,
)

# At most this many lines of one text are laid out and drawn (a card shows a few dozen).
MAX_LINES = 500
# Distinct words kept measured per font chain and style (shared by all texts set in them).
MAX_SHARED_WORDS = 200_000
# A Hangul word that does not fit moves whole to the next line once the line is this full.
KEEP_WHOLE_FROM = 0.75
# Icon square: this many cap heights, centred on the capitals' middle; space each side in em.
ICON_CAP_HEIGHTS = 1.2
ICON_SIDE_GAP_EM = 0.06

CLOSING = frozenset(".,!?;:%)]}\u00bb\u2019\u201d\u2026\u3001\u3002\u3009\u300b\u300d\u300f\u3011\u3015"
                    "\u3017\u3019\u301b\uff01\uff09\uff0c\uff0e\uff1a\uff1b\uff1f\uff3d\uff5d")
OPENING = frozenset("([{\u00ab\u2018\u201c\u3008\u300a\u300c\u300e\u3010\u3014\u3016\u3018\u301a"
                    "\uff08\uff3b\uff5b")

# Breakable spaces: whitespace other than the no-break ones.
_SPACES = re.compile(r"[^\S\u00a0\u2007\u202f]+")


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


# --- parsing ----------------------------------------------------------------------------------

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
    if ":" not in markup:  # an icon is written :name:, so text without a colon names none
        if "]{" in markup:
            _parse(markup)  # but its spans are read, and refused here if they cannot be set
        return ()
    seen: dict[str, None] = {}
    for paragraph in _parse(markup):
        for line in paragraph:
            for word in line:
                for span in word:
                    if isinstance(span, _IconSpan):
                        seen.setdefault(span.name)
    return tuple(seen)


# A deck's repeated texts (Calc's numbers, a keyword's reminder) are parsed once; a parse of
# a long paragraph holds a few kilobytes, so a deck of distinct texts keeps only the latest.
@lru_cache(maxsize=256)
def _parse(markup: str) -> tuple[_Paragraph, ...]:
    """Paragraphs of lines of words; linear in the length of ``markup``."""
    paragraphs: list[_Paragraph] = []
    block: list[str] = []
    for line in markup.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
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


# --- measuring --------------------------------------------------------------------------------

def _is_hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


class _Piece:
    """A span ready to set: its fonts, slant and width at unit size (1 mm), and its runs (text,
    font, width at unit size) as :func:`font_runs` cuts it."""

    __slots__ = ("text", "icon", "chain", "slant", "width", "runs", "color", "scale")

    def __init__(self, text: str | None, icon: Icon | None, chain: tuple[Path, ...], slant: float, width: float,
                 runs: tuple[tuple[str, Path, float], ...] = (), color: str | None = None, scale: float = 1.0):
        self.text, self.icon, self.chain, self.slant, self.width = text, icon, chain, slant, width
        self.runs = runs
        self.color, self.scale = color, scale  # a span's colour (None: the text's) and relative size


class _WordM:
    """A measured word: pieces, unit width, the space after it and its slanted overhang."""

    __slots__ = ("pieces", "width", "space", "overhang", "hangul")

    def __init__(self, pieces: list[_Piece], space: float, overhang: float):
        self.pieces = pieces
        self.width = sum(p.width for p in pieces)
        self.space = space
        self.overhang = overhang
        self.hangul = any(p.text is not None and _has_hangul(p.text) for p in pieces)


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
        return _char_width(ch, self.font(ch, chain))


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
        self.chain_texts = {chain: " ".join(parts) for chain, parts in texts.items()}
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
            runs = font_runs(span.text, chain) if self.missing.get(chain) else [(span.text, chain[0])]
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


# --- breaking lines ---------------------------------------------------------------------------

_START = (0, 0)


class _Frag:
    """Part of a word on one line: pieces from ``start`` up to ``end`` (piece, character)."""

    __slots__ = ("word", "start", "end", "width")

    def __init__(self, word: _WordM, start: tuple[int, int], end: tuple[int, int], width: float):
        self.word, self.start, self.end, self.width = word, start, end, width


def _atoms(word: _WordM, start: tuple[int, int]) -> Iterator[tuple[tuple[int, int], str | None, _Piece]]:
    """(position before, character or None for an icon, piece) from ``start`` on."""
    pi, ci = start
    pieces = word.pieces
    while pi < len(pieces):
        piece = pieces[pi]
        if piece.text is None:
            yield (pi, 0), None, piece
        else:
            text = piece.text
            for c in range(ci, len(text)):
                yield (pi, c), text[c], piece
        pi, ci = pi + 1, 0


def _split(word: _WordM, start: tuple[int, int], avail: float, hangul_only: bool, measure: _Measure,
           force: bool) -> tuple[tuple[int, int], float] | None:
    """The furthest break in ``word`` after ``start`` whose head fits ``avail`` em: (position, head width).

    ``hangul_only`` allows breaks only between two Hangul syllables, else between any characters
    but before closing or after opening punctuation. ``force`` takes at least one character or
    icon when nothing fits. Work is bounded by the characters that fit, plus one.
    """
    total = 0.0
    prev: str | None = None
    first = True
    best = None
    for pos, ch, piece in _atoms(word, start):
        if not first:
            if hangul_only:
                allowed = ch is not None and prev is not None and _is_hangul(prev) and _is_hangul(ch)
            else:
                allowed = not (ch is not None and ch in CLOSING) and not (prev is not None and prev in OPENING)
            if allowed:
                best = (pos, total)
        w = piece.width if ch is None else measure.width(ch, piece.chain) * piece.scale
        if total + w > avail:
            if best is None and force and first:
                nxt = (pos[0] + 1, 0) if ch is None or pos[1] + 1 >= len(piece.text) else (pos[0], pos[1] + 1)
                return nxt, w
            if best is None and force:
                return pos, total
            return best
        total += w
        prev = ch
        first = False
    return None  # the rest fits whole: no split needed


def _hard_line(words: tuple[_Word, ...], setting: _Setting, width: float,
               measure: _Measure) -> Iterator[tuple[list[_Frag], float]]:
    """Lines of fragments (and their widths in em) breaking one hard line to ``width`` em."""
    line: list[_Frag] = []
    used = 0.0
    # Each trial size breaks the same words: the line's measured words are kept as reached.
    known = setting.lines.get(id(words))
    if known is None:
        known = setting.lines[id(words)] = []
    for i, raw in enumerate(words):
        if i < len(known):
            word = known[i]
        else:
            word = setting.word(raw)
            known.append(word)
        start, rest = _START, word.width
        while True:
            gap = line[-1].word.space if line else 0.0
            if used + gap + rest + word.overhang <= width + 1e-9:
                line.append(_Frag(word, start, (len(word.pieces), 0), rest))
                used += gap + rest
                break
            if line:
                avail = width - used - gap - word.overhang
                if word.hangul and not setting.keep_words and used < KEEP_WHOLE_FROM * width and avail > 0:
                    cut = _split(word, start, avail, True, measure, force=False)
                    if cut is not None:
                        line.append(_Frag(word, start, cut[0], cut[1]))
                        used += gap + cut[1]
                        start, rest = cut[0], rest - cut[1]
                yield line, used
                line, used = [], 0.0
                continue
            # Alone on its line and still too wide: break it.
            avail = width - word.overhang
            cut = _split(word, start, avail, True, measure, force=False) if word.hangul else None
            if cut is None:
                cut = _split(word, start, avail, False, measure, force=True)
            if cut is None:  # cannot happen: forced splits always cut; guard against looping
                line.append(_Frag(word, start, (len(word.pieces), 0), rest))
                used = rest
                break
            yield [_Frag(word, start, cut[0], cut[1])], cut[1]
            start, rest = cut[0], rest - cut[1]
    yield line, used


@dataclass
class _Laid:
    lines: list[tuple[list[_Frag], float, float]]  # fragments, width (em, with overhang), baseline offset (em)
    fits: bool
    more: bool  # lines were left out (MAX_LINES)


def _lay_out(setting: _Setting, style: RichStyle, box: Box, size: float, measure: _Measure,
             stop_when_too_tall: bool) -> _Laid:
    width = box.w_mm / size
    height = box.h_mm / size
    m = setting.metrics
    top = _top_em(m, style.valign)
    lines: list[tuple[list[_Frag], float, float]] = []
    offset = 0.0
    fits = True
    for paragraph in setting.parsed:
        for l_index, hard in enumerate(paragraph):
            for k, (frags, used) in enumerate(_hard_line(hard, setting, width, measure)):
                if lines:
                    offset += style.leading + (style.paragraph_gap if l_index == 0 and k == 0 else 0.0)
                over = frags[-1].word.overhang if frags else 0.0
                lines.append((frags, used + over if frags else 0.0, offset))
                if used + over > width + 1e-9 or top + m.descent + offset > height + 1e-9:
                    fits = False
                    if stop_when_too_tall:
                        return _Laid(lines, False, True)
                if len(lines) >= MAX_LINES:
                    return _Laid(lines, fits, True)
    return _Laid(lines, fits, False)


def _top_em(metrics, valign: str) -> float:
    """How far the first line reaches above its baseline, in text sizes: its capitals for ``caps``."""
    return metrics.cap_height if valign == "caps" else metrics.ascent


def _one_line_index(setting: _Setting, box: Box, sizes: list[float], measure: _Measure,
                    valign: str = "top") -> int:
    """The index of the largest of ``sizes`` (but the last) at which the text, one line without
    breaks, is as wide as ``box`` at most and no taller; 0 if there is none or it has several."""
    if len(sizes) < 3 or len(setting.parsed) != 1 or len(setting.parsed[0]) != 1:
        return 0
    (frags, used), *more = _hard_line(setting.parsed[0][0], setting, math.inf, measure)
    if more or not frags:
        return 0
    m = setting.metrics
    width = used + frags[-1].word.overhang
    largest = min(box.w_mm / width if width > 0 else math.inf, box.h_mm / (_top_em(m, valign) + m.descent))
    index = bisect.bisect_right(sizes, largest) - 1
    return min(max(index, 0), len(sizes) - 2)


# --- drawing ----------------------------------------------------------------------------------

def _line_ops(frags: list[_Frag], x0: float, baseline: float, size: float, style: RichStyle,
              setting: _Setting, measure: _Measure) -> list[Op]:
    ops: list[Op] = []
    pending: list = []  # [x, text, font, slant, colour, size] of the Text op being gathered
    x = x0

    def flush() -> None:
        if pending:
            ops.append(Text(pending[0], baseline, pending[1], pending[2], pending[5], pending[4], "start",
                            slant_deg=pending[3]))
            pending.clear()

    def add(text: str, font: Path, slant: float, space_before: bool, width: float, piece: _Piece) -> None:
        nonlocal x
        color = piece.color or style.color
        at = size * piece.scale if piece.scale != 1.0 else size
        if (pending and (pending[2] is font or pending[2] == font) and pending[3] == slant
                and pending[4] == color and pending[5] == at):
            pending[1] += (" " if space_before else "") + text
        else:
            flush()
            pending.extend([x, text, font, slant, color, at])
        x += width

    for n, frag in enumerate(frags):
        space_before = False
        if n:
            prev = frags[n - 1].word
            x += prev.space * size
            space_before = True
        (spi, sci), (epi, eci) = frag.start, frag.end
        pieces = frag.word.pieces
        for pi in range(spi, min(epi + 1, len(pieces))):
            piece = pieces[pi]
            if piece.icon is None:
                lo = sci if pi == spi else 0
                hi = eci if pi == epi else len(piece.text)
                if hi <= lo:
                    continue
                if lo == 0 and hi == len(piece.text):  # the whole piece: its runs are measured
                    for run, font, width in piece.runs:
                        add(run, font, piece.slant, space_before, width * size, piece)
                        space_before = False
                    continue
                text = piece.text[lo:hi]
                runs = font_runs(text, piece.chain) if setting.missing.get(piece.chain) else [(text, piece.chain[0])]
                at = size * piece.scale if piece.scale != 1.0 else size
                for run, font in runs:
                    add(run, font, piece.slant, space_before, text_width_mm(run, font, at), piece)
                    space_before = False
            else:
                if pi == epi:
                    continue
                flush()
                if piece.scale == 1.0:
                    side, drop = setting.icon_side * size, setting.icon_drop
                else:  # still centred on the capitals' middle
                    side = setting.icon_side * piece.scale * size
                    drop = setting.icon_side * piece.scale / 2 - setting.cap_height / 2
                gap = ICON_SIDE_GAP_EM * size
                color = piece.color or (style.color if takes_text_color(piece.icon) else None)
                top = baseline + drop * size - side
                ops.extend(piece.icon.ops(x + gap, top, side, color))
                x += side + 2 * gap
                space_before = False
    flush()
    return ops


# Texts set before, by everything the setting depends on when no icon can be named (no colon).
# Cost badges, type lines and repeated phrases come back on card after card.
_SET = Memo("texts set", entries=4096)
when_fonts_change(_SET.clear)


def fit_rich(markup: str, box: Box, style: RichStyle, *, max_size_mm: float, min_size_mm: float,
             fit: Literal["shrink", "none"], icons: Mapping[str, Icon], where: object,
             palette: Mapping[str, str] | None = None, prove_from_mm: float | None = None) -> FittedText:
    """``markup`` (see the module's description) set in ``box``: ops, the size chosen and a warning.

    ``where`` names the card and element in warnings and errors (its ``str``, taken only when one
    is made). ``palette`` maps the colour names a span may use to ``#rrggbb``. Raises
    :class:`RichTextError` for an icon not in ``icons``, a colour name not in ``palette`` or a span
    with attributes it does not take.

    With ``prove_from_mm`` (a check, which draws nothing), a text that a cheap bound proves to fit
    at a size no smaller than it is not set: the result has no ops, ``proved`` is true and its
    ``size_mm`` is a size it fits at (the one setting chooses is no smaller). Its errors and
    warnings are the ones setting it would give.
    """
    if prove_from_mm is not None:
        proved = _proved_plain(markup, box, style, max_size_mm, min_size_mm, fit, icons, where, prove_from_mm)
        if proved is not None:
            return proved
    if ":" in markup or "]{" in markup:
        return _fit_rich(markup, box, style, max_size_mm, min_size_mm, fit, icons, where, palette, prove_from_mm)
    key = (markup, box, style, max_size_mm, min_size_mm, fit)
    fitted = _SET.get(key)
    if fitted is None and prove_from_mm is not None:
        fitted = _fit_rich(markup, box, style, max_size_mm, min_size_mm, fit, icons, where, palette, prove_from_mm)
        if fitted.proved:  # not kept: a build wants the ops
            return fitted
        if fitted.warning is None:
            _SET.put(key, fitted)
    if fitted is None:
        fitted = _fit_rich(markup, box, style, max_size_mm, min_size_mm, fit, icons, where, palette)
        if fitted.warning is None:  # a warning names its card: not the same for the next one
            _SET.put(key, fitted)
    return fitted


def _fit_rich(markup: str, box: Box, style: RichStyle, max_size_mm: float, min_size_mm: float,
              fit: Literal["shrink", "none"], icons: Mapping[str, Icon], where: object,
              palette: Mapping[str, str] | None, prove_from_mm: float | None = None) -> FittedText:
    if fit not in ("shrink", "none"):
        raise ValueError(f"{where}: fit must be 'shrink' or 'none', got {fit!r}")
    try:
        parsed = _parse(markup)
    except RichTextError as exc:
        raise RichTextError(f"{where}: {exc}") from None
    _check_icons(parsed, icons, where)
    colors = _span_colors(parsed, palette or {}, where)
    low, warnings = _usable_sizes(max_size_mm, min_size_mm, where)
    setting = _Setting(parsed, style, icons, colors)
    if prove_from_mm is not None:
        size = _proved_size(setting, style, box, max_size_mm, low, fit, prove_from_mm)
        if size is not None:
            return FittedText(ops=(), size_mm=size, warning="; ".join(warnings) or None, proved=True)
    measure = _Measure()

    tried: dict[float, _Laid] = {}  # a layout that fits is complete, and is the one drawn

    def trial(size: float) -> bool:
        if size not in tried:
            tried[size] = _lay_out(setting, style, box, size, measure, stop_when_too_tall=True)
        return tried[size].fits

    if fit == "none":
        size = max_size_mm
    else:
        steps = int((max_size_mm - low) / _SIZE_STEP_MM + 1e-9)
        sizes = [low + i * _SIZE_STEP_MM for i in range(steps + 1)]
        if sizes[-1] < max_size_mm:
            sizes.append(max_size_mm)
        best = len(sizes) - 1  # most texts fit at their largest size: one layout settles them
        if not trial(sizes[best]):
            best = 0
            # A text that fits on one line at some size fits at every smaller one: the search
            # starts there, and a title shrunk onto one line is settled by two more layouts.
            start = _one_line_index(setting, box, sizes, measure, style.valign)
            if start and not trial(sizes[start]):
                start = 0  # not to be expected: the search starts at the smallest size then
            if trial(sizes[start]):
                lo, hi = start, len(sizes) - 2
                if start and lo < hi and not trial(sizes[lo + 1]):
                    hi = lo
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if trial(sizes[mid]):
                        lo = mid
                    else:
                        hi = mid - 1
                best = lo
        size = sizes[best]
    laid = tried.get(size)
    if laid is None or not laid.fits:  # a layout that did not fit stopped early: lay it all out
        laid = _lay_out(setting, style, box, size, measure, stop_when_too_tall=False)
    if not laid.fits:
        plain = _plain(parsed)
        at = f"even at the minimum size {low:g} mm" if fit == "shrink" else f"at {size:g} mm"
        count = f"{len(laid.lines)}+ lines, the rest not drawn" if laid.more else f"{len(laid.lines)} lines"
        warnings.append(f"{where}: text {_short(plain)!r} does not fit {box.w_mm:.1f}x{box.h_mm:.1f} mm {at} "
                        f"({count})")
    warnings.extend(_glyph_warnings(setting, where))
    ops: list[Op] = []
    if laid.lines:
        first = _baseline_y(box, size, setting.metrics, style.valign, laid.lines[-1][2])
        for frags, used, offset in laid.lines:
            if not frags:
                continue
            line_w = used * size
            x0 = {"start": box.x_mm, "middle": box.cx_mm - line_w / 2, "end": box.right_mm - line_w}[style.align]
            ops.extend(_line_ops(frags, x0, first + offset * size, size, style, setting, measure))
    return FittedText(ops=tuple(ops), size_mm=size, warning="; ".join(warnings) or None)


# Bounds are kept this far inside the box, so rounding in them never says "fits" at the edge.
_PROOF_MARGIN = 1e-6


def _proved_size(setting: _Setting, style: RichStyle, box: Box, max_size_mm: float, low: float,
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
    """Whether the bound of :func:`_proved_size` proves these hard lines of measured words fit
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
                any_text = any(p.text for p in word.pieces)
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
    """The most lines a hard line of words (the bound of :func:`_proved_size`) breaks into at
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


def _proved_plain(markup: str, box: Box, style: RichStyle, max_size_mm: float, min_size_mm: float,
                  fit: str, icons: Mapping[str, Icon], where: object, floor_mm: float) -> FittedText | None:
    """:func:`_proved_size` for text without markup but icons (or all of it in italic, without
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
            any(p.text for p in word.pieces), word.hangul)


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


def style_chains(style: RichStyle) -> dict[tuple[bool, bool], tuple[tuple[Path, ...], float]]:
    """The font chain and slant (degrees) of each (bold, italic) of ``style``."""
    return {
        (False, False): (tuple(style.regular), 0.0),
        (True, False): (tuple(style.bold), 0.0),
        (False, True): (tuple(style.italic), 0.0) if style.italic else (tuple(style.regular), style.slant_deg),
        (True, True): ((tuple(style.bold_italic), 0.0) if style.bold_italic
                       else (tuple(style.bold), style.slant_deg)),
    }


@lru_cache(maxsize=64)
def _plain_words(regular: tuple[Path, ...], bold: tuple[Path, ...], italic_chain: tuple[Path, ...] | None,
                 bold_italic: tuple[Path, ...] | None, slant_deg: float, italic: bool) -> _PlainWords:
    """The plain words of every text set in these fonts (what measuring reads of a style; regular
    or ``italic``), measured once each."""
    style = RichStyle(regular, bold, italic_chain, bold_italic=bold_italic, slant_deg=slant_deg)
    return _PlainWords(style, italic)


def _glyph_warnings(setting: _Setting, where: str) -> list[str]:
    out: list[str] = []
    for chain, text in setting.chain_texts.items():
        if setting.missing[chain]:
            out.extend(_glyph_warning(text, chain, where))
    return out


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


__all__ = ["RichTextError", "RichStyle", "fit_rich", "icon_names", "span_colors", "plain_text", "MAX_LINES", "CLOSING",
           "OPENING"]
