"""What a draft (:mod:`printkit.draft`) draws: a placeholder where a refused picture would be
(:func:`with_placeholders`) and DRAFT in a sheet's margins (:func:`marked`)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Mapping

from printkit import fonts
from printkit.draft import MARK, picture_key as _key, shown_in
from printkit.layout.ops import Face, Image, Line, Op, Rect, Text
from printkit.paper import MIN_MARGIN_MM

PLACEHOLDER_FILL = "#f4f4f4"
PLACEHOLDER_INK = "#c0392b"  # the mark a proof-reader looks for: red, as a proof's corrections are
HATCH_STEP_MM = 3.0


def with_placeholders(face: Face, refused: Mapping[Path, str], folder: Path) -> Face:
    """``face`` with every picture of ``refused`` drawn as a placeholder naming it (relative to
    the spec's ``folder``); the same face when it shows none."""
    if not refused or not any(isinstance(op, Image) and _key(op.path) in refused for op in face.ops):
        return face
    ops: list[Op] = []
    for op in face.ops:
        if isinstance(op, Image) and _key(op.path) in refused:
            why = refused[_key(op.path)]
            ops += placeholder(op, shown_in(op.path, folder), "missing" if why.endswith("not found") else "refused")
        else:
            ops.append(op)
    return dataclasses.replace(face, ops=tuple(ops))


def placeholder(image: Image, shown: str, state: str = "missing") -> list[Op]:
    """A hatched, outlined box where ``image`` would be, saying ``missing: NAME`` (or another
    ``state``) across its middle."""
    x, y, w, h = image.x_mm, image.y_mm, image.w_mm, image.h_mm
    ops: list[Op] = [Rect(x, y, w, h, fill=PLACEHOLDER_FILL)]
    ops += _hatch(x, y, w, h)
    ops.append(Rect(x, y, w, h, stroke=PLACEHOLDER_INK, stroke_mm=0.4))
    text = f"{state}: {shown}"
    size = min(3.0, h / 3, w / max(1, len(text)) / 0.55)  # about 0.55 em a character: fits the width
    if size >= 0.8:
        band = size * 1.6
        ops.append(Rect(x, y + h / 2 - band / 2, w, band, fill="#ffffff"))
        ops.append(Text(x + w / 2, y + h / 2 + size * 0.35, text, fonts.SYMBOLS, size, PLACEHOLDER_INK,
                        anchor="middle"))
    return ops


def _hatch(x: float, y: float, w: float, h: float) -> list[Line]:
    """Diagonal lines (down to the right) every HATCH_STEP_MM, clipped to the box."""
    lines = []
    steps = math.ceil((w + h) / HATCH_STEP_MM)
    for i in range(1, steps):
        c = i * HATCH_STEP_MM  # the line x' + y' = c, in the box's own coordinates
        start = (max(0.0, c - h), min(h, c))
        end = (min(w, c), max(0.0, c - w))
        if start[0] < end[0]:
            lines.append(Line(x + start[0], y + start[1], x + end[0], y + end[1], PLACEHOLDER_INK, 0.15))
    return lines


def marked(page):
    """A sheet ``page`` (printkit.layout.imposition.Page) with :data:`MARK` in its top and bottom
    margins (a grid is centred on its paper: both are alike), in the widest span between crop marks."""
    top = min((p.y_mm for p in page.placements), default=0.0)
    width = page.size.width_mm
    cuts = sorted({op.x1_mm for op in page.ops if isinstance(op, Line) and op.x1_mm == op.x2_mm
                   and min(op.y1_mm, op.y2_mm) < top})
    edges = [0.0, *cuts, width]
    left, right = max(zip(edges, edges[1:]), key=lambda span: span[1] - span[0])
    size = min(2.8, (right - left - 4) / (len(MARK) * 0.62))  # about 0.62 em a bold character
    middle = (left + right) / 2
    # Baselines mid-margin, but inside what home printers print (MIN_MARGIN_MM from each edge).
    lift = max(top / 2 + size * 0.35, MIN_MARGIN_MM + size * 0.8)
    drop = max(top / 2 - size * 0.35, MIN_MARGIN_MM + size * 0.25)
    marks = (Text(middle, lift, MARK, fonts.SYMBOLS_BOLD, size, PLACEHOLDER_INK, anchor="middle"),
             Text(middle, page.size.height_mm - drop, MARK, fonts.SYMBOLS_BOLD, size, PLACEHOLDER_INK,
                  anchor="middle"))
    return dataclasses.replace(page, ops=tuple(page.ops) + marks)
