"""Card templates: turn a card into drawing ops for its front and back.

Each game may have a module here named after the spec's ``game:`` (``calc.py``, ``stack.py`` …)
exposing ``front(card) -> Face`` and optionally ``back(card) -> Face`` and, for components that
are whole pages (cards with a ``sheet`` attribute, like a score sheet),
``page(card, width_mm, height_mm) -> Face``. Whatever a game module does not provide, the plain
:mod:`printkit.layout.templates.generic` template draws, so every deck prints.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from printkit.deck import Card, Deck
from printkit.layout.ops import Face
from printkit.layout.templates import generic


def game_module(game: str) -> ModuleType | None:
    """The template module for ``game``, or None when there is none."""
    if not game.isidentifier() or game.startswith("_") or game == "generic":
        return None
    name = f"{__name__}.{game}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:  # only a missing template module means "use the generic one"
            return None
        raise


def is_page(card: Card) -> bool:
    """Whether the card is a full-page component (printed on its own page, not on a card sheet)."""
    return card.get("sheet") is not None


def front(card: Card, deck: Deck) -> Face:
    """The front of ``card`` drawn by its game's template (or the generic one)."""
    module = game_module(deck.game)
    return getattr(module, "front", generic.front)(card)


def back(card: Card, deck: Deck) -> Face:
    """The back of ``card`` drawn by its game's template (or the generic one)."""
    module = game_module(deck.game)
    return getattr(module, "back", generic.back)(card)


def page(card: Card, deck: Deck, width_mm: float, height_mm: float) -> Face:
    """A full-page component (``is_page(card)``) laid out on a page of the given size."""
    module = game_module(deck.game)
    return getattr(module, "page", generic.page)(card, width_mm, height_mm)
