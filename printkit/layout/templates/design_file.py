"""A game's design: the YAML layouts file in its folder that draws its cards when a spec names none.

A game's faces module picks which of the file's layouts draws a card; the layouts themselves are
in the language every spec uses, so a designer can copy one into a spec and change it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Mapping

from printkit.deck import Card, CardSize
from printkit.games import icons
from printkit.layout import design
from printkit.layout.compile import shipped_layouts
from printkit.layout.ops import Face
from printkit.layout.templates._common import component_kind

# The margin of a page a layout draws (a score sheet): its safe frame is the page less this, as
# home printers print no closer to the paper's edge.
PAGE_MARGIN_MM = 10.0
# The light backs of the components that are not deck cards (``aid_back``, ``terrain_back``,
# ``reference_back``), one design every game's shares, beside this module.
COMPONENT_BACKS = Path(__file__).resolve().with_name("component_backs.yaml")


def draw(path: Path, name: str, card: Card, side: str = "front", colors: Mapping[str, str] | None = None,
         languages: tuple[str, ...] = ()) -> Face:
    """``card`` drawn by the layout ``name`` of the design file ``path``, with the game's own colours
    (``colors``) for names the card's palette leaves out, for a deck whose rulebook is in ``languages``."""
    missing = {color: value for color, value in (colors or {}).items() if color not in card.art.colors}
    if missing:
        card = dataclasses.replace(card, art=dataclasses.replace(card.art, colors={**missing, **card.art.colors}))
    return design.card_face(shipped_layouts(path)[name], card, design.Resources(icons=icons(), languages=languages),
                            side)


def back(path: Path, card: Card, colors: Mapping[str, str] | None = None) -> Face:
    """``card``'s back as the design file ``path`` draws it: a component's light back (:func:`component_back`)
    for an aid, a terrain or a reference, else the layout ``back`` of ``path``."""
    kind = component_kind(card)
    if kind is not None:
        return component_back(kind, card, colors)
    return draw(path, "back", card, "back", colors)


def back_key(path: Path, card: Card) -> tuple[str, str] | None:
    """What :func:`back` draws ``card``'s back by, when every card of the same art and size gets
    the same back from it (:func:`layout_key`), else None."""
    kind = component_kind(card)
    return component_back_key(kind) if kind is not None else layout_key(path, "back")


def layout_key(path: Path, name: str) -> tuple[str, str] | None:
    """The design file ``path`` and its layout ``name``, when that layout reads nothing of a card
    but its art (:attr:`~printkit.layout.design.Layout.same_for_every_card`), else None."""
    return (str(path), name) if shipped_layouts(path)[name].same_for_every_card else None


def component_back(kind: str, card: Card, colors: Mapping[str, str] | None = None) -> Face:
    """The light back of a component that is not a deck card (``kind`` aid, terrain or reference): the
    layout ``<kind>_back`` of :data:`COMPONENT_BACKS`, with no deck back picture under it."""
    return draw(COMPONENT_BACKS, f"{kind}_back", without_back_image(card), "back", colors)


def component_back_key(kind: str) -> tuple[str, str] | None:
    """What :func:`component_back` draws a ``kind``'s back by (see :func:`layout_key`)."""
    return layout_key(COMPONENT_BACKS, f"{kind}_back")


def without_back_image(card: Card) -> Card:
    """``card`` without the deck's back picture: a component's back is a design of its own, and a
    picture drawn under it would only be covered."""
    if card.art.back_image is None:
        return card
    return dataclasses.replace(card, art=dataclasses.replace(card.art, back_image=None))


def draw_page(path: Path, name: str, card: Card, width_mm: float, height_mm: float,
              margin_mm: float = PAGE_MARGIN_MM, colors: Mapping[str, str] | None = None) -> Face:
    """A page-sized component (a score sheet) drawn by the layout ``name`` of the design file ``path``:
    the layout's frames are the page (``trim`` and ``bleed``) and the page less ``margin_mm`` (``safe``)."""
    return draw(path, name, on_page(card, width_mm, height_mm, margin_mm), "front", colors)


def on_page(card: Card, width_mm: float, height_mm: float, margin_mm: float = PAGE_MARGIN_MM) -> Card:
    """``card`` the size of a page: a layout drawing it has the page as its ``trim`` and ``bleed``
    frames and the page less ``margin_mm`` as its ``safe`` frame."""
    size = CardSize(width_mm, height_mm, bleed_mm=0.0, safe_mm=margin_mm, corner_radius_mm=0.0,
                    min_text_mm=card.size.min_text_mm)
    return dataclasses.replace(card, size=size)
