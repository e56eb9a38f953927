"""Lengths: every length inside printkit is millimetres; this module parses and converts them."""

from __future__ import annotations

import math
import re

MM_PER_INCH = 25.4
MM_PER_POINT = MM_PER_INCH / 72.0

_UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": MM_PER_INCH, "pt": MM_PER_POINT}
# The space before a unit sits inside the optional group: "\s*(unit)?\s*$" would try every split
# of a long run of spaces between the two, quadratic in its length.
LENGTH_RE = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:\s*(mm|cm|in|pt))?\s*$")


def parse_length_mm(value: str | int | float) -> float:
    """Parse ``"63mm"``, ``"2.5in"``, ``"0.3cm"``, ``"8pt"`` or a bare number (millimetres) to mm.

    Raises ValueError with a readable message for anything else.
    """
    if isinstance(value, bool):
        raise ValueError(f"expected a length such as '3mm' or '0.125in', got {value!r}")
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise ValueError(f"expected a length such as '3mm' or '0.125in', got {value!r}")
        return float(value)
    if not isinstance(value, str):
        raise ValueError(f"expected a length such as '3mm' or '0.125in', got {value!r}")
    match = LENGTH_RE.match(value)
    if not match:
        raise ValueError(f"expected a length such as '3mm' or '0.125in', got {value!r}")
    number, unit = match.groups()
    # Rounded to a micrometre so 3in reads as 76.2, not 76.19999999999999.
    return round(float(number) * _UNITS_MM[unit or "mm"], 6)


def mm_to_pt(mm: float) -> float:
    """Millimetres to PDF points (1/72 in)."""
    return mm / MM_PER_POINT


def mm_to_px(mm: float, dpi: float) -> float:
    """Millimetres to pixels at ``dpi``."""
    return mm * dpi / MM_PER_INCH
