"""The plain template: used for any game or component that has no design of its own.

Front: the built-in layout ``generic.yaml`` beside this module, written in the layout language
designers use: the background colour (and image) to the bleed edge, a thin frame at the safe
zone, a title (the card's ``title``, else its ``name``, else its group) large at the top, the
``text`` attribute as a paragraph in the middle and every other attribute as a ``key: value``
line, at the bottom under a text or large in the middle without one; over a background image
each block of text sits on a plate of the background colour. Back: the back colour or image and
the back label. Whole pages: the group and a ``key: value`` line per attribute.
"""

from __future__ import annotations

from pathlib import Path

from printkit import fonts
from printkit.deck import Card
from printkit.layout.geometry import Box, bleed_box, safe_box
from printkit.layout.ops import Face, Image, Op, Rect
from printkit.layout.templates._common import font_chain
from printkit.layout.text import fit_block, fit_line

BACK = "#404040"
# The built-in layouts file beside this module: the front (``generic``), the back and the page.
GENERIC = Path(__file__).resolve().with_name("generic.yaml")
# The art.colors names these faces read (the front's layout reads these two).
COLOR_NAMES = ("background", "ink")
INK = "#1d1d1f"


def _font(card: Card) -> Path:
    return card.art.font or fonts.KOREAN_BOLD


def _where(card: Card, field: str) -> str:
    """The card and field a warning names; long attribute values are cut so the line stays readable."""
    return f"{card.cut_label} {field}"


def _value(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _cover(box, path: Path | None) -> tuple[Op, ...]:
    if path is None:
        return ()
    return (Image(box.x_mm, box.y_mm, box.w_mm, box.h_mm, path, fit="cover"),)


def front(card: Card, game: str | None = None) -> Face:
    """The front as the built-in layout ``generic.yaml`` (beside this module) draws it, with the
    icons a deck of ``game`` may name."""
    from printkit.games import icons
    from printkit.layout import design
    # The built-in layout is a spec printkit ships; reading it is the spec layer's work.
    from printkit.layout.compile import builtin_layout

    return design.draw(builtin_layout("generic"), card, design.Resources(icons=icons(game)))


def back(card: Card) -> Face:
    """The back as the built-in layout ``back`` of ``generic.yaml`` draws it: the back colour (and
    picture) to the bleed edge and the back's label across the middle."""
    from printkit.layout import design
    from printkit.layout.compile import shipped_layouts

    return design.draw(shipped_layouts(GENERIC)["back"], card, design.Resources(), "back")


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
