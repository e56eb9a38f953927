"""A plate of the card's background under text that stands on its background picture.

Without a picture the card's own background already is that colour, so nothing is drawn.
"""

from __future__ import annotations

from typing import Sequence

from printkit.deck import Card
from printkit.fonts import text_width_mm
from printkit.layout.geometry import Box
from printkit.layout.ops import Op, Rect, Text
from printkit.layout.text import font_metrics

DEFAULT_BACKGROUND = "#ffffff"


def text_box(ops: Sequence[Op]) -> Box | None:
    """The smallest box holding the upright Text ops' advance widths, ascents and descents (None: no text)."""
    edges = []
    for op in ops:
        if not isinstance(op, Text):
            continue
        width = text_width_mm(op.text, op.font, op.size_mm)
        metrics = font_metrics(op.font)
        start = op.x_mm - {"start": 0.0, "middle": width / 2, "end": width}[op.anchor]
        edges.append((start, op.y_mm - metrics.ascent * op.size_mm, start + width,
                      op.y_mm + metrics.descent * op.size_mm))
    if not edges:
        return None
    x0, y0 = min(e[0] for e in edges), min(e[1] for e in edges)
    return Box(x0, y0, max(e[2] for e in edges) - x0, max(e[3] for e in edges) - y0)


def text_plate(card: Card, ops: Sequence[Op], pad_mm: float = 0.8, radius_mm: float = 1.2) -> tuple[Op, ...]:
    """A plate of the background colour just around the text of ``ops`` (plus ``pad_mm``) when the
    card has a background picture, to put before them; nothing otherwise."""
    box = text_box(ops)
    if box is None or card.art.background_image is None:
        return ()
    box = box.grow(pad_mm)
    fill = card.art.color("background", DEFAULT_BACKGROUND)
    return (Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=fill, radius_mm=radius_mm),)
