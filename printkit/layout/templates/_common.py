"""Pieces the faces share: plates under text, font choice, and which component a card is.

Every function is pure: it takes a card (and numbers in millimetres) and returns drawing ops.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from printkit import fonts
from printkit.deck import Card
from printkit.fonts import text_width_mm
from printkit.layout.ops import Op, Rect, Text
from printkit.layout.geometry import Box
from printkit.layout.text import font_metrics

DEFAULT_BACKGROUND = "#ffffff"
DEFAULT_BACK = "#1f3b5a"


def has_background_image(card: Card) -> bool:
    """Whether the card's art shows through: panels then stay unfilled and text sits on plates."""
    return card.art.background_image is not None


def plate(card: Card, box: Box, color: str | None = None, radius_mm: float = 1.2) -> tuple[Op, ...]:
    """A plate of the background colour under text, but only over a background image.

    Without an image the card's own background already is that colour, so nothing is drawn.
    """
    if not has_background_image(card):
        return ()
    fill = color or card.art.color("background", DEFAULT_BACKGROUND)
    return (Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=fill, radius_mm=radius_mm),)


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


def text_plate(card: Card, ops: Sequence[Op], pad_mm: float = 0.8) -> tuple[Op, ...]:
    """A :func:`plate` just around the text of ``ops`` (plus ``pad_mm``): put it before them."""
    box = text_box(ops)
    return () if box is None else plate(card, box.grow(pad_mm))


_REGULAR_OF = {fonts.KOREAN_BOLD: fonts.KOREAN, fonts.SYMBOLS_BOLD: fonts.SYMBOLS}


def font_chain(card: Card, bold: bool = True) -> tuple[Path, ...]:
    """The fonts text on ``card`` may use, preferred first: the spec's own, then the bundled ones."""
    own = card.art.font_bold if bold and card.art.font_bold else card.art.font
    if not bold and own in _REGULAR_OF:
        own = _REGULAR_OF[own]  # body text in the regular cut of a bundled bold font
    bundled = (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD) if bold else (fonts.KOREAN, fonts.SYMBOLS)
    return tuple(dict.fromkeys(([own] if own else []) + list(bundled)))


def text_font(card: Card, text: str, bold: bool = True) -> Path:
    """A font that can draw every character of ``text``: the spec's own first, then the bundled ones.

    Korean text on a deck whose font is Latin-only falls back to the bundled Pretendard.
    When no one font has every character, the preferred one is returned: pass
    ``fallbacks=font_chain(card, bold)`` to the fitter, which then sets the rest in the fonts
    that have them and warns about characters none has.
    """
    candidates = font_chain(card, bold)
    for font in candidates:
        if not fonts.missing_glyphs(text, font):
            return font
    return candidates[0]


# The components that are not playing cards, which a game's design gives a light back of their own.
COMPONENT_KINDS = ("aid", "terrain", "reference")


def component_kind(card: Card) -> str | None:
    """Which non-deck component a card is (one of ``COMPONENT_KINDS``, the first its attributes name),
    or None for deck cards."""
    return next((kind for kind in COMPONENT_KINDS if kind in card.attrs), None)
