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
- Line breaks: at spaces, and at soft hyphens (U+00AD), which take no room and are not drawn: a
  word that does not fit the rest of a line is broken at its last soft hyphen that fits there
  (with a hyphen drawn), and so is a word wider than a whole line. A word wider than a whole line
  with no soft hyphen that helps is broken between characters, never before closing punctuation
  (``.,!?)」`` …) nor after opening punctuation (``(「`` …), with no hyphen added; a size at which
  that happens does not count as fitting.
- Korean: words are kept whole where that fits reasonably. A word containing Hangul syllables
  that does not fit on the rest of a line starts the next line, unless that would leave the
  line mostly empty (less than half full, :data:`KEEP_WHOLE_FROM`): it is then broken between
  two Hangul syllables, so a long word does not leave a wide gap behind it (never, with
  ``RichStyle.keep_words``). A break between two syllables is never next to punctuation, so the
  punctuation rule above holds here too. A Hangul word wider than a whole line is a word wider
  than the box as a Latin one is: a size at which it must be broken (between syllables, else
  between letters) does not count as fitting, and a word broken so at the size chosen is named
  in the warning.
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
  [min, max] at which every line fits the box's width, all lines its height and no word wider
  than a line is broken; ``"none"`` sets it at the maximum. Text that does not fit is still set (at
  the minimum) with a warning; of a text far too long for its box at most :data:`MAX_LINES` lines
  are drawn. A word broken for being wider than a line is a warning naming it (the text is then
  as small as it may be, so it is broken the least).

Widths are measured once, at unit size, and scaled: a size is tried by breaking lines against
``box width / size``, stopping as soon as the lines are taller than the box. The maximum size is
tried first (most texts fit at it); otherwise a binary search over the sizes finds the largest that
fits. The layout of the size chosen is drawn as tried, not laid out again.

This module breaks lines, finds the size and draws. Reading the markup is
:mod:`printkit.layout.richparse`, measuring words :mod:`printkit.layout.richmeasure`, and the
bound a check uses to prove a text fits without setting it :mod:`printkit.layout.fitbound`.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Literal, Mapping

from printkit.errors import RichTextError
from printkit.fonts import text_width_mm, when_fonts_change
from printkit.layout.geometry import Box
from printkit.layout.icons import Icon, takes_text_color
from printkit.layout.ops import Op, Text
from printkit.layout.richmeasure import (
    HYPHEN, ICON_SIDE_GAP_EM, MAX_LINES, SOFT_HYPHEN, RichStyle, _Measure, _Piece, _Setting, _top_em, _WordM,
)
from printkit.layout.richparse import (
    _check_icons, _parse, _plain, _span_colors, _Word, icon_names, plain_text, span_colors,
)
from printkit.layout.text import (
    _SIZE_STEP_MM, FittedText, _baseline_y, _glyph_warning, _short, _usable_sizes, font_runs,
)
from printkit.memo import Memo

# A Hangul word that does not fit moves whole to the next line once the line is this full:
# breaking it between syllables is for a line that would otherwise stay mostly empty.
KEEP_WHOLE_FROM = 0.5

CLOSING = frozenset(".,!?;:%)]}\u00bb\u2019\u201d\u2026\u3001\u3002\u3009\u300b\u300d\u300f\u3011\u3015"
                    "\u3017\u3019\u301b\uff01\uff09\uff0c\uff0e\uff1a\uff1b\uff1f\uff3d\uff5d")
OPENING = frozenset("([{\u00ab\u2018\u201c\u3008\u300a\u300c\u300e\u3010\u3014\u3016\u3018\u301a"
                    "\uff08\uff3b\uff5b")


# --- breaking lines ---------------------------------------------------------------------------

_START = (0, 0)


def _is_hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


_Cut = Literal["soft", "syllables", "letters"]
# Cuts that break a word wider than a line: a size that needs one does not count as fitting.
_BROKEN: frozenset[_Cut | None] = frozenset({"syllables", "letters"})


class _Frag:
    """Part of a word on one line: pieces from ``start`` up to ``end`` (piece, character), its width,
    and ``cut``, how the word goes on past ``end``: None (it ends there, or goes on after a Hangul
    syllable as Korean may), ``"soft"`` (at a soft hyphen: a hyphen is drawn, its width in
    ``width``), ``"syllables"`` (between Hangul syllables because the word is wider than a line)
    or ``"letters"`` (between letters: the word is wider than a line)."""

    __slots__ = ("word", "start", "end", "width", "cut")

    def __init__(self, word: _WordM, start: tuple[int, int], end: tuple[int, int], width: float,
                 cut: _Cut | None = None):
        self.word, self.start, self.end, self.width, self.cut = word, start, end, width, cut


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


def _soft_split(word: _WordM, start: tuple[int, int], avail: float,
                measure: _Measure) -> tuple[tuple[int, int], float, float] | None:
    """The furthest soft hyphen in ``word`` after ``start`` at which its head and a hyphen fit
    ``avail`` em: (position after it, head width, hyphen width), or None. A soft hyphen with
    nothing before it or after it breaks nothing. Work is bounded by the characters that fit, plus one.
    """
    total = 0.0
    seen = False  # something drawn since start
    after: tuple[float, float] | None = None  # a soft hyphen just passed whose head fits: (head, hyphen)
    best = None
    for pos, ch, piece in _atoms(word, start):
        if ch == SOFT_HYPHEN:
            hyphen = measure.width(HYPHEN, piece.chain) * piece.scale
            after = (total, hyphen) if seen and total + hyphen <= avail else None
            continue
        if after is not None:
            best = (pos, *after)
            after = None
        total += piece.width if ch is None else measure.width(ch, piece.chain) * piece.scale
        if total > avail:
            break
        seen = True
    return best


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
                soft = _soft_split(word, start, avail, measure) if word.soft else None
                if soft is not None:  # as much of the word as fits, up to a soft hyphen
                    line.append(_Frag(word, start, soft[0], soft[1] + soft[2], "soft"))
                    used += gap + soft[1] + soft[2]
                    start, rest = soft[0], rest - soft[1]
                elif word.hangul and not setting.keep_words and used < KEEP_WHOLE_FROM * width and avail > 0:
                    cut = _split(word, start, avail, True, measure, force=False)
                    if cut is not None:  # a word wider than a line would be broken anyway: it counts
                        wide = word.width + word.overhang > width + 1e-9
                        line.append(_Frag(word, start, cut[0], cut[1], "syllables" if wide else None))
                        used += gap + cut[1]
                        start, rest = cut[0], rest - cut[1]
                yield line, used
                line, used = [], 0.0
                continue
            # Alone on its line and still too wide: break it, at a soft hyphen, between Hangul
            # syllables, or else between letters (a size the search does not choose if it can help it).
            avail = width - word.overhang
            soft = _soft_split(word, start, avail, measure) if word.soft else None
            if soft is not None:
                yield [_Frag(word, start, soft[0], soft[1] + soft[2], "soft")], soft[1] + soft[2]
                start, rest = soft[0], rest - soft[1]
                continue
            cut = _split(word, start, avail, True, measure, force=False) if word.hangul else None
            cut_kind: _Cut = "syllables"
            if cut is None:
                cut = _split(word, start, avail, False, measure, force=True)
                cut_kind = "letters"
            if cut is None:  # cannot happen: forced splits always cut; guard against looping
                line.append(_Frag(word, start, (len(word.pieces), 0), rest))
                used = rest
                break
            yield [_Frag(word, start, cut[0], cut[1], cut_kind)], cut[1]
            start, rest = cut[0], rest - cut[1]
    yield line, used


@dataclass
class _Laid:
    lines: list[tuple[list[_Frag], float, float]]  # fragments, width (em, with overhang), baseline offset (em)
    more: bool  # lines were left out (MAX_LINES, or stopped at the first that does not fit)
    overflows: bool = False  # a line is wider than the box, or below it
    broken: tuple[_WordM, ...] = ()  # words wider than a line, broken between syllables or letters, each once
    letters: bool = False  # one of them was broken between letters (not only between Hangul syllables)

    @property
    def fits(self) -> bool:
        """Every line inside the box and every word whole (or broken at soft hyphens)."""
        return not (self.overflows or self.broken)


def _lay_out(setting: _Setting, style: RichStyle, box: Box, size: float, measure: _Measure,
             stop_when_too_tall: bool) -> _Laid:
    """The text's lines at ``size``; with ``stop_when_too_tall``, only up to the first line that
    does not fit (past the box, or a word wider than a line broken)."""
    width = box.w_mm / size
    height = box.h_mm / size
    m = setting.metrics
    top = _top_em(m, style.valign)
    lines: list[tuple[list[_Frag], float, float]] = []
    offset = 0.0
    overflows = False
    broken: dict[int, _WordM] = {}
    letters = False
    for paragraph in setting.parsed:
        for l_index, hard in enumerate(paragraph):
            for k, (frags, used) in enumerate(_hard_line(hard, setting, width, measure)):
                if lines:
                    offset += style.leading + (style.paragraph_gap if l_index == 0 and k == 0 else 0.0)
                over = frags[-1].word.overhang if frags else 0.0
                lines.append((frags, used + over if frags else 0.0, offset))
                if used + over > width + 1e-9 or top + m.descent + offset > height + 1e-9:
                    overflows = True
                if frags and frags[-1].cut in _BROKEN:
                    broken.setdefault(id(frags[-1].word), frags[-1].word)
                    letters = letters or frags[-1].cut == "letters"
                if (stop_when_too_tall and (overflows or broken)) or len(lines) >= MAX_LINES:
                    return _Laid(lines, True, overflows, tuple(broken.values()), letters)
    return _Laid(lines, False, overflows, tuple(broken.values()), letters)


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
                        if run:  # a piece of soft hyphens alone has nothing to draw
                            add(run, font, piece.slant, space_before, width * size, piece)
                            space_before = False
                    continue
                text = piece.text[lo:hi]
                if SOFT_HYPHEN in text:
                    text = text.replace(SOFT_HYPHEN, "")
                    if not text:
                        continue
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
        if frag.cut == "soft":  # the hyphen, in the style of the soft hyphen just before the break
            epi, eci = frag.end
            piece = pieces[epi] if eci else pieces[epi - 1]
            add(HYPHEN, measure.font(HYPHEN, piece.chain), piece.slant, space_before,
                measure.width(HYPHEN, piece.chain) * piece.scale * size, piece)
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
        from printkit.layout.fitbound import proved_plain  # a check's alone: a build sets every text

        proved = proved_plain(markup, box, style, max_size_mm, min_size_mm, fit, icons, where, prove_from_mm)
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
        from printkit.layout.fitbound import proved_size

        size = proved_size(setting, style, box, max_size_mm, low, fit, prove_from_mm)
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
    if laid.overflows:
        plain = _plain(parsed).replace(SOFT_HYPHEN, "")
        at = f"even at the minimum size {low:g} mm" if fit == "shrink" else f"at {size:g} mm"
        count = f"{len(laid.lines)}+ lines, the rest not drawn" if laid.more else f"{len(laid.lines)} lines"
        warnings.append(f"{where}: text {_short(plain)!r} does not fit {box.w_mm:.1f}x{box.h_mm:.1f} mm {at} "
                        f"({count})")
    if laid.broken:
        warnings.append(_broken_warning(laid.broken, laid.letters, box, size, low if fit == "shrink" else None,
                                        where))
    warnings.extend(_glyph_warnings(setting, where))
    ops: list[Op] = []
    spans: list[tuple[float, float, float]] = []  # each line set: its start, end and baseline
    if laid.lines:
        first = _baseline_y(box, size, setting.metrics, style.valign, laid.lines[-1][2])
        for frags, used, offset in laid.lines:
            if not frags:
                continue
            line_w = used * size
            x0 = {"start": box.x_mm, "middle": box.cx_mm - line_w / 2, "end": box.right_mm - line_w}[style.align]
            ops.extend(_line_ops(frags, x0, first + offset * size, size, style, setting, measure))
            spans.append((x0, x0 + line_w, first + offset * size))
    return FittedText(ops=tuple(ops), size_mm=size, warning="; ".join(warnings) or None,
                      extent=_set_extent(spans, setting.cap_height * size))


def _set_extent(spans: list[tuple[float, float, float]], cap_mm: float) -> Box | None:
    """The box lines (start, end, baseline) take: across their advances, down from the first
    line's capitals to the last baseline (see :attr:`FittedText.extent`)."""
    if not spans:
        return None
    left = min(s[0] for s in spans)
    top = spans[0][2] - cap_mm
    return Box(left, top, max(s[1] for s in spans) - left, spans[-1][2] - top)


def _broken_warning(words: tuple[_WordM, ...], letters: bool, box: Box, size: float, low: float | None,
                    where: object) -> str:
    """What a text whose ``words`` had to be broken (between letters if ``letters``, else between
    Hangul syllables) says (``low``: the minimum size the text shrank to, None when it does not shrink)."""
    named = [repr(_short("".join(p.text for p in w.pieces if p.text).replace(SOFT_HYPHEN, ""))) for w in words[:3]]
    more = f" and {len(words) - 3} more" if len(words) > 3 else ""
    said = f"the word {named[0]} is" if len(words) == 1 else f"the words {', '.join(named)}{more} are"
    at = f"even at the minimum size {low:g} mm" if low is not None else f"at {size:g} mm"
    # Hangul is broken between syllables without a hyphen: a space or a zero-width space marks where
    between, mark = ("letters", "put soft hyphens (U+00AD)") if letters else ("syllables", "put a space or a "
                                                                              "zero-width space (U+200B)")
    return (f"{where}: {said} wider than the {box.w_mm:.1f} mm box {at}, so broken between {between}; give it a "
            f"wider box or a smaller size, or {mark} where a word may break")


def _glyph_warnings(setting: _Setting, where: str) -> list[str]:
    out: list[str] = []
    for chain, text in setting.chain_texts.items():
        if setting.missing[chain]:
            out.extend(_glyph_warning(text, chain, where))
    return out


__all__ = ["RichTextError", "RichStyle", "fit_rich", "icon_names", "span_colors", "plain_text", "MAX_LINES", "CLOSING",
           "OPENING"]
