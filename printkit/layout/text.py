"""Text fitting: set text at the largest size that fits a box, and say so when it cannot.

Card templates never clip text. When a text does not fit its box even at the smallest size
allowed, the fitter still returns ops at that smallest size and a warning naming the card and the
field, which templates put into :class:`~printkit.layout.ops.Face.warnings`. A text that uses
characters missing from its font also gets a warning, since it would print as empty boxes.

Boxes are given by their top-left corner and size in millimetres (card frame: y downwards).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from printkit.fonts import ttfont, missing_glyphs, text_width_mm
from printkit.layout.ops import Text

Align = Literal["start", "middle", "end"]
VAlign = Literal["top", "middle", "bottom"]

# Sizes are searched to this precision; finer steps change nothing visible in print.
_SIZE_STEP_MM = 0.05


@dataclass(frozen=True)
class Box:
    """A rectangle in millimetres: top-left corner ``(x_mm, y_mm)``, y downwards."""

    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float

    @property
    def right_mm(self) -> float:
        return self.x_mm + self.w_mm

    @property
    def bottom_mm(self) -> float:
        return self.y_mm + self.h_mm

    @property
    def cx_mm(self) -> float:
        return self.x_mm + self.w_mm / 2

    @property
    def cy_mm(self) -> float:
        return self.y_mm + self.h_mm / 2


@dataclass(frozen=True)
class FittedText:
    """The result of fitting: the lines as Text ops, the size chosen and a warning (or None)."""

    ops: tuple[Text, ...]
    size_mm: float
    warning: str | None = None

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
    face = ttfont(Path(font)).face
    return FontMetrics(
        ascent=face.ascent / 1000.0,
        descent=-face.descent / 1000.0,
        cap_height=(face.capHeight or face.ascent) / 1000.0,
    )


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
) -> FittedText:
    """One line of ``text`` at the largest size in [min, max] whose width and height fit ``box``.

    ``where`` names the card and field for the warning, e.g. ``"numbers[...]#1 title"``.
    The line's height is the font's ascent plus descent, so accents and descenders stay inside.
    """
    _check_sizes(max_size_mm, min_size_mm, where)
    metrics = font_metrics(font)
    width_per_mm = text_width_mm(text, font, 1.0)
    height_per_mm = metrics.ascent + metrics.descent
    fits = max_size_mm
    if width_per_mm > 0:
        fits = min(fits, box.w_mm / width_per_mm)
    fits = min(fits, box.h_mm / height_per_mm)
    size = max(fits, min_size_mm)
    warnings = []
    if fits < min_size_mm:
        warnings.append(
            f"{where}: text {text!r} does not fit {box.w_mm:.1f}x{box.h_mm:.1f} mm "
            f"even at the minimum size {min_size_mm:g} mm (it would need {max(fits, 0):.2f} mm)"
        )
    warnings.extend(_glyph_warning(text, font, where))
    op = Text(
        x_mm=_anchor_x(box, align),
        y_mm=_baseline_y(box, size, metrics, valign, 0.0),
        text=text,
        font=Path(font),
        size_mm=size,
        color=color,
        anchor=align,
    )
    return FittedText(ops=(op,), size_mm=size, warning="; ".join(warnings) or None)


def fit_block(
    text: str,
    font: Path,
    box: Box,
    *,
    max_size_mm: float,
    min_size_mm: float,
    where: str,
    color: str = "#000000",
    align: Align = "start",
    valign: VAlign = "top",
    leading: float = 1.25,
    paragraph_gap: float = 0.0,
) -> FittedText:
    """Wrap ``text`` into lines at the largest size in [min, max] at which all lines fit ``box``.

    Lines break at spaces (Korean and English alike); newlines start paragraphs; a word wider
    than the box is broken between characters. ``leading`` is the baseline distance in em and
    ``paragraph_gap`` the extra space between paragraphs, in em.
    """
    _check_sizes(max_size_mm, min_size_mm, where)
    metrics = font_metrics(font)

    def layout(size: float) -> tuple[list[tuple[str, float]], bool]:
        lines = _wrap_with_offsets(text, font, size, box.w_mm, leading, paragraph_gap)
        height = size * (metrics.ascent + metrics.descent + lines[-1][1])
        wide = any(text_width_mm(line, font, size) > box.w_mm + 1e-9 for line, _ in lines)
        return lines, height <= box.h_mm + 1e-9 and not wide

    # Candidate sizes on a grid from the minimum up, ending exactly at the maximum.
    steps = int((max_size_mm - min_size_mm) / _SIZE_STEP_MM + 1e-9)
    sizes = [min_size_mm + i * _SIZE_STEP_MM for i in range(steps + 1)]
    if sizes[-1] < max_size_mm:
        sizes.append(max_size_mm)
    lines, fits = layout(sizes[0])
    best = 0
    if fits:
        # Binary search for the largest fitting size (fitting shrinks as the size grows).
        lo, hi = 0, len(sizes) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            mid_lines, mid_fits = layout(sizes[mid])
            if mid_fits:
                lo, lines = mid, mid_lines
            else:
                hi = mid - 1
        best = lo
    size = sizes[best]
    warnings = []
    if not fits:
        warnings.append(
            f"{where}: text {_short(text)!r} does not fit {box.w_mm:.1f}x{box.h_mm:.1f} mm "
            f"even at the minimum size {min_size_mm:g} mm ({len(lines)} lines)"
        )
    warnings.extend(_glyph_warning(text, font, where))
    first_baseline = _baseline_y(box, size, metrics, valign, lines[-1][1])
    ops = tuple(
        Text(
            x_mm=_anchor_x(box, align),
            y_mm=first_baseline + offset * size,
            text=line,
            font=Path(font),
            size_mm=size,
            color=color,
            anchor=align,
        )
        for line, offset in lines
        if line  # a blank line only moves the next one down
    )
    return FittedText(ops=ops, size_mm=size, warning="; ".join(warnings) or None)


def wrap_lines(text: str, font: Path, size_mm: float, width_mm: float) -> list[str]:
    """Greedy word wrap of ``text`` to ``width_mm`` at ``size_mm``; keeps explicit newlines."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            candidate = f"{current} {word}" if current else word
            if text_width_mm(candidate, font, size_mm) <= width_mm:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = ""
            # A word wider than the line is broken between characters rather than overflowing.
            for ch in word:
                if current and text_width_mm(current + ch, font, size_mm) > width_mm:
                    lines.append(current)
                    current = ""
                current += ch
        lines.append(current)
    return lines


def _wrap_with_offsets(
    text: str, font: Path, size_mm: float, width_mm: float, leading: float, paragraph_gap: float
) -> list[tuple[str, float]]:
    """Wrapped lines with each baseline's distance below the first, in em."""
    out: list[tuple[str, float]] = []
    offset = 0.0
    for paragraph in text.split("\n"):
        for i, line in enumerate(wrap_lines(paragraph, font, size_mm, width_mm)):
            if out:
                offset += leading + (paragraph_gap if i == 0 else 0.0)
            out.append((line, offset))
    return out


def _baseline_y(box: Box, size_mm: float, metrics: FontMetrics, valign: VAlign, last_offset_em: float) -> float:
    """Baseline of the first line for the block to sit at the top, middle or bottom of ``box``."""
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


def _glyph_warning(text: str, font: Path, where: str) -> list[str]:
    missing = missing_glyphs(text, font)
    if not missing:
        return []
    return [f"{where}: font {Path(font).name} has no glyph for {missing!r} in {_short(text)!r}"]


def _check_sizes(max_size_mm: float, min_size_mm: float, where: str) -> None:
    if not 0 < min_size_mm <= max_size_mm:
        raise ValueError(f"{where}: need 0 < min_size_mm <= max_size_mm, got {min_size_mm!r}, {max_size_mm!r}")


def _short(text: str, limit: int = 40) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"
