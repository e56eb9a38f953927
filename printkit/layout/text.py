"""Text fitting: set text at the largest size that fits a box, and say so when it cannot.

Card templates never clip text. When a text does not fit its box even at the smallest size
allowed, the fitter still returns ops at that smallest size and a warning naming the card and the
field, which templates put into :class:`~printkit.layout.ops.Face.warnings`. Characters the
font lacks are set in the first of the given fallback fonts that has them (one Text op per run of
one font); a character that no font has gets a warning, since it would print as nothing.

Text is set with curly quotes and real minus signs (:func:`printkit.typography.smarten`).

Boxes are given by their top-left corner and size in millimetres (card frame: y downwards).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Sequence

from printkit import fonts
from printkit.fonts import ttfont, missing_glyphs, text_width_mm, when_fonts_change
from printkit.layout.geometry import Box
from printkit.layout.ops import Text
from printkit.typography import smarten

if TYPE_CHECKING:
    from printkit.deck import Card

Align = Literal["start", "middle", "end"]
# caps: the top of the capitals (and digits) at the top of the box, to line up with a shape beside them.
VAlign = Literal["top", "middle", "bottom", "caps"]

# Sizes are searched to this precision; finer steps change nothing visible in print.
_SIZE_STEP_MM = 0.05
# A soft hyphen (U+00AD) marks where a word may break; it is never drawn as it is (one line
# never breaks, and rich text draws a hyphen where it breaks a line at one).
SOFT_HYPHEN = "\u00ad"


@dataclass(frozen=True)
class FittedText:
    """The result of fitting: the lines as Text ops, the size chosen and a warning (or None)."""

    ops: tuple[Text, ...]
    size_mm: float
    warning: str | None = None
    proved: bool = False  # found to fit by a bound and not set (a check's): no ops, size_mm a lower bound
    # The box the lines take as set (rich text only): from the start of the line that starts
    # furthest left to the end of the one that ends furthest right (advances, not ink), and from
    # the top of the first line's capitals to the last line's baseline. None when nothing is set.
    extent: Box | None = None

    @property
    def warnings(self) -> tuple[str, ...]:
        return (self.warning,) if self.warning else ()


@dataclass(frozen=True)
class FontMetrics:
    """Vertical metrics of a font as fractions of the em size (descent is positive, below the baseline)."""

    ascent: float
    descent: float
    cap_height: float


def font_metrics(font: Path) -> FontMetrics:
    """Ascent, descent and cap height of a TrueType font, per unit of font size."""
    return _font_metrics(font if isinstance(font, Path) else Path(font))


@lru_cache(maxsize=None)
def _font_metrics(font: Path) -> FontMetrics:
    # Asked for by every text laid out: read from the font once.
    face = ttfont(font).face
    return FontMetrics(
        ascent=face.ascent / 1000.0,
        descent=-face.descent / 1000.0,
        cap_height=(face.capHeight or face.ascent) / 1000.0,
    )


when_fonts_change(_font_metrics.cache_clear)


def fit_line(
    text: str,
    font: Path,
    box: Box,
    *,
    max_size_mm: float,
    min_size_mm: float,
    where: str,
    color: str = "#000000",
    align: Align = "middle",
    valign: VAlign = "middle",
    fallbacks: Sequence[Path] = (),
) -> FittedText:
    """One line of ``text`` at the largest size in [min, max] whose width and height fit ``box``.

    ``where`` names the card and field for the warning, e.g. ``"numbers[...]#1 title"``.
    Soft hyphens are left out: one line never breaks at them.
    The line's height is the font's ascent plus descent, so accents and descenders stay inside.
    Characters ``font`` lacks are set in the first of ``fallbacks`` that has them (one Text op
    per run); characters no font has are named in a warning.
    """
    text = smarten(text).replace(SOFT_HYPHEN, "")
    min_size_mm, size_warnings = _usable_sizes(max_size_mm, min_size_mm, where)
    chain = _chain(font, fallbacks)
    metrics = _chain_metrics(text, chain)
    width_per_mm = _width_mm(text, chain, 1.0)
    height_per_mm = metrics.ascent + metrics.descent
    fits = max_size_mm
    if width_per_mm > 0:
        fits = min(fits, box.w_mm / width_per_mm)
    fits = min(fits, box.h_mm / height_per_mm)
    size = max(fits, min_size_mm)
    warnings = list(size_warnings)
    if fits < min_size_mm:
        warnings.append(
            f"{where}: text {text!r} does not fit {box.w_mm:.1f}x{box.h_mm:.1f} mm "
            f"even at the minimum size {min_size_mm:g} mm (it would need {max(fits, 0):.2f} mm)"
        )
    warnings.extend(_glyph_warning(text, chain, where))
    ops = _line_ops(text, chain, box, _baseline_y(box, size, metrics, valign, 0.0), size, color, align)
    return FittedText(ops=ops, size_mm=size, warning="; ".join(warnings) or None)


def font_runs(text: str, fonts: Sequence[Path]) -> list[tuple[str, Path]]:
    """``text`` cut into runs, each set in the first of ``fonts`` that can draw its characters.

    Spaces stay in the run they follow. Characters that no font has stay with the first font
    (they print as nothing; :func:`undrawable` lists them for a warning).
    """
    # Called for every width measured while wrapping: keep the Paths the caller already has.
    chain = [f if isinstance(f, Path) else Path(f) for f in fonts]
    if not missing_glyphs(text, chain[0]):
        return [(text, chain[0])] if text else []
    runs: list[tuple[str, Path]] = []
    for ch in text:
        if ch.isspace():
            font = runs[-1][1] if runs else chain[0]
        else:
            font = next((f for f in chain if not missing_glyphs(ch, f)), chain[0])
        if runs and runs[-1][1] == font:
            runs[-1] = (runs[-1][0] + ch, font)
        else:
            runs.append((ch, font))
    return runs


def undrawable(text: str, fonts: Sequence[Path]) -> str:
    """Characters of ``text`` (other than whitespace) that none of ``fonts`` can draw.

    A fallback is consulted only for characters the fonts before it lack: each one asked costs
    parsing the whole font file, so a fallback that draws nothing here is never parsed for it.
    """
    missing = missing_glyphs(text, Path(fonts[0]))
    for font in fonts[1:]:
        if not missing:
            break
        missing = missing_glyphs(missing, Path(font))
    return missing


def _baseline_y(box: Box, size_mm: float, metrics: FontMetrics, valign: VAlign, last_offset_em: float) -> float:
    """Baseline of the first line for the block to sit at the top, middle or bottom of ``box``, or
    for its capitals to start at the top (``caps``)."""
    if valign == "caps":
        return box.y_mm + size_mm * metrics.cap_height
    height = size_mm * (metrics.ascent + metrics.descent + last_offset_em)
    if valign == "top":
        top = box.y_mm
    elif valign == "bottom":
        top = box.bottom_mm - height
    else:
        top = box.cy_mm - height / 2
    return top + size_mm * metrics.ascent


def _anchor_x(box: Box, align: Align) -> float:
    return {"start": box.x_mm, "middle": box.cx_mm, "end": box.right_mm}[align]


def _chain(font: Path, fallbacks: Sequence[Path]) -> tuple[Path, ...]:
    """The font and its fallbacks, each once, the font first."""
    # The Paths given are kept: every Text op set refers to its font (a sheet's slug on each of
    # thousands of sheets), and a Path made anew for each would be kept with it.
    return tuple(dict.fromkeys(f if isinstance(f, Path) else Path(f) for f in (font, *fallbacks)))


def _width_mm(text: str, chain: tuple[Path, ...], size_mm: float) -> float:
    return sum(text_width_mm(run, font, size_mm) for run, font in font_runs(text, chain))


def _chain_metrics(text: str, chain: tuple[Path, ...]) -> FontMetrics:
    """The metrics of the first font, or the largest of every font ``text`` needs from the chain."""
    used = list(dict.fromkeys(font for _, font in font_runs(text, chain))) or [chain[0]]
    if len(used) == 1:
        return font_metrics(used[0])
    each = [font_metrics(f) for f in used]
    return FontMetrics(max(m.ascent for m in each), max(m.descent for m in each), max(m.cap_height for m in each))


def _line_ops(text: str, chain: tuple[Path, ...], box: Box, baseline_mm: float, size_mm: float, color: str,
              align: Align) -> tuple[Text, ...]:
    """One line as Text ops: a single op when one font draws it all, else one op per font run."""
    runs = font_runs(text, chain)
    if len(runs) <= 1:
        font = runs[0][1] if runs else chain[0]
        return (Text(_anchor_x(box, align), baseline_mm, text, font, size_mm, color, align),)
    width = sum(text_width_mm(run, font, size_mm) for run, font in runs)
    x = {"start": box.x_mm, "middle": box.cx_mm - width / 2, "end": box.right_mm - width}[align]
    ops = []
    for run, font in runs:
        ops.append(Text(x, baseline_mm, run, font, size_mm, color, "start"))
        x += text_width_mm(run, font, size_mm)
    return tuple(ops)


def _glyph_warning(text: str, chain: tuple[Path, ...], where: str) -> list[str]:
    missing = undrawable(text, chain)
    if not missing:
        return []
    if len(chain) == 1:
        return [f"{where}: font {chain[0].name} has no glyph for {missing!r} in {_short(text)!r}"]
    names = ", ".join(f.name for f in chain)
    return [f"{where}: no font can draw the character(s) {missing!r} in {_short(text)!r} "
            f"(tried {names}); they would print as nothing"]


def _usable_sizes(max_size_mm: float, min_size_mm: float, where: str) -> tuple[float, list[str]]:
    """The minimum size to search from, and a warning when it had to come down to the maximum.

    Templates scale their maximum sizes with the card while minimums stay legible; on a tiny
    card the maximum falls below the minimum, and the text is then set at the maximum.
    """
    if not (min_size_mm > 0 and max_size_mm > 0):
        raise ValueError(f"{where}: text sizes must be positive, got min {min_size_mm!r} mm, max {max_size_mm!r} mm")
    if min_size_mm <= max_size_mm:
        return min_size_mm, []
    return max_size_mm, [f"{where}: the box allows at most {max_size_mm:.2f} mm, below the minimum text size "
                         f"{min_size_mm:g} mm; set at {max_size_mm:.2f} mm"]


def _short(text: str, limit: int = 40) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


_REGULAR_OF = {fonts.KOREAN_BOLD: fonts.KOREAN, fonts.SYMBOLS_BOLD: fonts.SYMBOLS}


def font_chain(card: Card, bold: bool = True) -> tuple[Path, ...]:
    """The fonts text on ``card`` may use, preferred first: the spec's own, then the bundled ones."""
    own = card.art.font_bold if bold and card.art.font_bold else card.art.font
    if not bold and own in _REGULAR_OF:
        own = _REGULAR_OF[own]  # body text in the regular cut of a bundled bold font
    bundled = (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD) if bold else (fonts.KOREAN, fonts.SYMBOLS)
    return tuple(dict.fromkeys(([own] if own else []) + list(bundled)))
