"""The plain template: used for any game or component that has no design of its own.

Front: the background colour (and image) to the bleed edge, a thin frame at the safe zone, a title
(the card's ``title`` or ``name``, else its group) large at the top, the ``text`` attribute as a
paragraph in the middle and every other attribute as a ``key: value`` line, at the bottom under a
text or large in the middle without one; over a background image each block of text sits on a
plate of the background colour. Back: the back colour or image and the back label.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printkit import fonts
from printkit.deck import Card
from printkit.layout.geometry import Box, bleed_box, safe_box
from printkit.layout.ops import Face, Image, Op, Rect
from printkit.layout.templates._common import font_chain, text_box, text_plate
from printkit.layout.text import FittedText, fit_block, fit_line

BACKGROUND = "#ffffff"
INK = "#1d1d1f"
BACK = "#404040"
# The art.colors names these faces read.
COLOR_NAMES = ("background", "ink")
# Largest sizes of the front's text: a ``text`` paragraph, the attribute lines under it, and the
# attribute lines alone in the body (a card without ``text``).
_TEXT_MAX_MM = 5.0
_ATTR_MAX_MM = 3.5
_LINES_MAX_MM = 6.0


def _font(card: Card) -> Path:
    return card.art.font or fonts.KOREAN_BOLD


def _where(card: Card, field: str) -> str:
    """The card and field a warning names; long attribute values are cut so the line stays readable."""
    label = card.label if len(card.label) <= 70 else card.label[:69] + "…"
    return f"{label} {field}"


def _value(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _cover(box, path: Path | None) -> tuple[Op, ...]:
    if path is None:
        return ()
    return (Image(box.x_mm, box.y_mm, box.w_mm, box.h_mm, path, fit="cover"),)


def _title(card: Card) -> tuple[str, str | None]:
    """What the title says and the attribute it comes from: ``title`` or ``name`` text, else the group."""
    for key in ("title", "name"):
        value = card.get(key)
        if isinstance(value, str) and value.strip():
            return value, key
    return card.group, None


@dataclass(frozen=True)
class _Layout:
    """The title band at the top of the safe zone, the body below it and the gap between blocks."""

    band: Box
    body: Box
    gap_mm: float

    @property
    def title_max_mm(self) -> float:
        return self.band.h_mm * 0.62


def _layout(card: Card) -> _Layout:
    safe = safe_box(card.size)
    inner = Box(safe.x_mm + 1.5, safe.y_mm + 1.5, safe.w_mm - 3, safe.h_mm - 3)
    # About a fifth of a tall card; a larger share of a small one, so its title stays the largest text.
    band_h = min(max(inner.h_mm * 0.18, min(8.0, inner.h_mm * 0.3)), 12.0)
    gap = min(inner.h_mm * 0.04, 2.5)
    body = Box(inner.x_mm, inner.y_mm + band_h + gap, inner.w_mm, inner.h_mm - band_h - gap)
    return _Layout(Box(inner.x_mm, inner.y_mm, inner.w_mm, band_h), body, gap)


def _unwrapped_mm(lines: list[str], chain: tuple[Path, ...], width_mm: float, max_size_mm: float) -> float:
    """The largest size up to ``max_size_mm`` at which no line is wider than ``width_mm``.

    A ``key: value`` line broken in two reads as two attributes, so the lines shrink rather than wrap.
    """
    tall = Box(0.0, 0.0, width_mm, 1e6)
    return min((fit_line(line, chain[0], tall, max_size_mm=max_size_mm, min_size_mm=0.01, where="",
                         fallbacks=chain).size_mm for line in lines), default=max_size_mm)


def _attributes(lines: list[str], chain: tuple[Path, ...], box: Box, max_size_mm: float, valign: str,
                card: Card, ink: str) -> FittedText:
    """The ``key: value`` lines centred in ``box``, as large as fits without breaking a line."""
    size = max(_unwrapped_mm(lines, chain, box.w_mm, max_size_mm), min(1.2, max_size_mm))
    return fit_block("\n".join(lines), chain[0], box, max_size_mm=size, min_size_mm=min(1.2, size),
                     where=_where(card, "attributes"), align="middle", valign=valign, fallbacks=chain, color=ink)


def front(card: Card) -> Face:
    bleed = bleed_box(card.size)
    safe = safe_box(card.size)
    ink = card.art.color("ink", INK)
    bold, regular = font_chain(card), font_chain(card, bold=False)
    ops: list[Op] = [Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, fill=card.art.color("background", BACKGROUND))]
    ops.extend(_cover(bleed, card.art.background_image))
    ops.append(Rect(safe.x_mm, safe.y_mm, safe.w_mm, safe.h_mm, stroke=ink, stroke_mm=0.3,
                    radius_mm=card.size.corner_radius_mm / 2))
    layout = _layout(card)
    body = layout.body
    title_text, title_key = _title(card)
    title = fit_line(title_text, bold[0], layout.band, max_size_mm=layout.title_max_mm, min_size_mm=1.5,
                     where=_where(card, title_key or "group"), fallbacks=bold, color=ink)
    text = _value(card.get("text", "")).strip()
    lines = [f"{k}: {_value(v)}" for k, v in card.attrs.items() if k not in (title_key, "text")]
    blocks: list[FittedText] = [title]
    # No body text outgrows the title, whatever the card's size.
    text_max = min(_TEXT_MAX_MM, layout.title_max_mm)
    attr_max = min(_ATTR_MAX_MM, layout.title_max_mm * 0.75)
    if text:
        text_area = body
        if lines:
            # The attributes sit at the bottom in at most two fifths of the body; the text fills the rest.
            attr_h = min(attr_max * (1.25 * (len(lines) - 1) + 1.3), body.h_mm * 0.4)
            attrs = _attributes(lines, bold, Box(body.x_mm, body.bottom_mm - attr_h, body.w_mm, attr_h),
                                attr_max, "bottom", card, ink)
            above_mm = text_box(attrs.ops).y_mm - layout.gap_mm - body.y_mm
            text_area = Box(body.x_mm, body.y_mm, body.w_mm, max(above_mm, 0.0))
        blocks.append(fit_block(text, regular[0], text_area, max_size_mm=text_max, min_size_mm=1.2,
                                where=_where(card, "text"), align="middle", valign="middle", fallbacks=regular,
                                color=ink))
        if lines:
            blocks.append(attrs)
    elif lines:
        # Alone in the body the attributes are the card's content, set large.
        blocks.append(_attributes(lines, bold, body, min(_LINES_MAX_MM, layout.title_max_mm), "middle", card, ink))
    # Over a background image each block of text sits on a plate of the background colour.
    for block in blocks:
        ops.extend(text_plate(card, block.ops))
    for block in blocks:
        ops.extend(block.ops)
    ops.extend(_cover(bleed, card.art.foreground_image))
    return Face(tuple(ops), tuple(w for block in blocks for w in block.warnings))


def back(card: Card) -> Face:
    bleed = bleed_box(card.size)
    safe = safe_box(card.size)
    color = card.art.back_color or BACK
    ops: list[Op] = [Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, fill=color)]
    if card.art.back_image is not None:
        ops.extend(_cover(bleed, card.art.back_image))
        return Face(tuple(ops))
    warnings: tuple[str, ...] = ()
    if card.art.back_label:
        band = Box(safe.x_mm, safe.cy_mm - safe.h_mm * 0.1, safe.w_mm, safe.h_mm * 0.2)
        label = fit_line(card.art.back_label, _font(card), band, max_size_mm=band.h_mm, min_size_mm=1.5,
                         where=_where(card, "back label"), fallbacks=font_chain(card), color="#ffffff")
        ops.extend(label.ops)
        warnings = label.warnings
    return Face(tuple(ops), warnings)


def page(card: Card, width_mm: float, height_mm: float) -> Face:
    """A full page listing the component's attributes (a stand-in for a designed sheet)."""
    margin = 15.0
    ink = card.art.color("ink", INK)
    title = fit_line(card.group, _font(card), Box(margin, margin, width_mm - 2 * margin, 12.0),
                     max_size_mm=9.0, min_size_mm=3.0, where=_where(card, "title"), fallbacks=font_chain(card), color=ink)
    body_text = "\n".join(f"{k}: {_value(v)}" for k, v in card.attrs.items())
    body = fit_block(body_text, _font(card), Box(margin, margin + 16, width_mm - 2 * margin, height_mm - 2 * margin - 16),
                     max_size_mm=5.0, min_size_mm=2.0, where=_where(card, "attributes"), fallbacks=font_chain(card), color=ink)
    return Face(title.ops + body.ops, title.warnings + body.warnings)
