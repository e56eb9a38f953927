"""The plain template: used for any game or component that has no design of its own.

Front: the background colour (and image) to the bleed edge, a thin frame at the safe zone, the
group name and each attribute as ``key: value``; over a background image the name and the
attributes each sit on a plate of the background colour. Back: the back colour or image and the back label.
"""

from __future__ import annotations

from pathlib import Path

from printkit import fonts
from printkit.deck import Card
from printkit.layout.geometry import Box, bleed_box, safe_box
from printkit.layout.ops import Face, Image, Op, Rect
from printkit.layout.templates._common import font_chain, text_plate
from printkit.layout.text import fit_block, fit_line

BACKGROUND = "#ffffff"
INK = "#1d1d1f"
BACK = "#404040"
# The art.colors names these faces read.
COLOR_NAMES = ("background", "ink")


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


def front(card: Card) -> Face:
    bleed = bleed_box(card.size)
    safe = safe_box(card.size)
    ink = card.art.color("ink", INK)
    ops: list[Op] = [Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, fill=card.art.color("background", BACKGROUND))]
    ops.extend(_cover(bleed, card.art.background_image))
    ops.append(Rect(safe.x_mm, safe.y_mm, safe.w_mm, safe.h_mm, stroke=ink, stroke_mm=0.3,
                    radius_mm=card.size.corner_radius_mm / 2))
    inner = Box(safe.x_mm + 1.5, safe.y_mm + 1.5, safe.w_mm - 3, safe.h_mm - 3)
    title_h = min(inner.h_mm * 0.2, 8.0)
    title = fit_line(card.group, _font(card), Box(inner.x_mm, inner.y_mm, inner.w_mm, title_h),
                     max_size_mm=title_h * 0.8, min_size_mm=1.5, where=_where(card, "group"), fallbacks=font_chain(card), color=ink)
    body_text = "\n".join(f"{k}: {_value(v)}" for k, v in card.attrs.items())
    body = fit_block(body_text, _font(card), Box(inner.x_mm, inner.y_mm + title_h + 1, inner.w_mm,
                                                 inner.h_mm - title_h - 1),
                     max_size_mm=4.0, min_size_mm=1.2, where=_where(card, "attributes"), fallbacks=font_chain(card), color=ink)
    # Over a background image each block of text sits on a plate of the background colour.
    ops.extend(text_plate(card, title.ops) + text_plate(card, body.ops))
    ops.extend(title.ops + body.ops)
    ops.extend(_cover(bleed, card.art.foreground_image))
    return Face(tuple(ops), title.warnings + body.warnings)


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
