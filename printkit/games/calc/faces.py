"""Calc's faces: the cards, aids and back from the game's design (``faces.yaml``).

The number cards, the joker, the player aids and the deck back are drawn by the layouts
``number``, ``joker``, ``aid`` and ``back`` of ``faces.yaml`` beside this module, in the language
every designer uses (a spec that names a layout of its own draws with that instead); the light
backs that tell a component from a deck card are every game's (:func:`design_file.component_back`).
"""

from __future__ import annotations

from pathlib import Path

from printkit.deck import Card
from printkit.games.calc import icons
from printkit.errors import LayoutError
from printkit.layout.ops import Face
from printkit.layout.templates import design_file

# Okabe-Ito hues, used when a spec names no colour for a symbol.
DEFAULT_COLORS = {**icons.SYMBOL_COLORS, "joker": "#e69f00"}
# The art.colors names these faces read (the design's layouts, the aids and the generic face).
COLOR_NAMES = ("background", "ink", "plus", "minus", "times", "power", "joker")
DESIGN = Path(__file__).resolve().with_name("faces.yaml")


# How a card is named in PDF titles and on digital tables: 7+, -1x, 3^ (the notation printkit score reads).
_SYMBOL_NOTATION = {"plus": "+", "minus": "-", "times": "x", "power": "^"}


def card_name(card: Card) -> str:
    """``7+``, ``-1x``, ``joker``, ``aid turn (en)``."""
    if card.get("kind") == "joker":
        return "joker"
    if card.get("aid") is not None:
        return f"aid {card.get('aid')} ({card.get('lang', 'en')})"
    symbol = _SYMBOL_NOTATION.get(str(card.get("symbol")), "")
    return f"{card.get('number')}{symbol}"


def designs(card: Card) -> bool:
    """Whether the design draws ``card``'s front; any other's is the generic face's, which the
    deck draws with its spec's icons."""
    return _front_layout(card) is not None


def _front_layout(card: Card) -> str | None:
    """The design's layout for ``card``'s front: a player aid, the joker or a number card; else None."""
    if "aid" in card.attrs:
        return "aid"
    if card.get("kind") == "joker":
        return "joker"
    if "symbol" in card.attrs and "number" in card.attrs:
        return "number"
    return None


def front(card: Card) -> Face:
    """A number card, the joker or a player aid as the design draws it; a card the design does not
    draw (:func:`designs`) is the generic face's, which printkit draws with the deck's icons
    (LayoutError here)."""
    layout = _front_layout(card)
    if layout is None:
        raise LayoutError(f"{card.label}: Calc's design draws no such card; the generic face draws it")
    return design_file.draw(DESIGN, layout, card, colors=DEFAULT_COLORS)


def back(card: Card) -> Face:
    """A component's light back (a player aid's, a terrain's or a reference's) and any other card's
    back, as the design draws them."""
    return design_file.back(DESIGN, card, DEFAULT_COLORS)


def back_key(card: Card) -> tuple[str, str] | None:
    """A key the cards whose backs :func:`back` draws alike share (None: the card's own)."""
    return design_file.back_key(DESIGN, card)
