"""Card templates: turn a card into drawing ops for its front and back.

Each game may have a module here named after the spec's ``game:`` (``calc.py``, ``stack.py`` …)
exposing ``front(card) -> Face`` and optionally ``back(card) -> Face`` and, for components that
are whole pages (cards with a ``sheet`` attribute, like a score sheet),
``page(card, width_mm, height_mm) -> Face``. Whatever a game module does not provide, the plain
:mod:`printkit.layout.templates.generic` template draws, so every deck prints.

Fonts: templates set text in the deck's own font with the bundled fonts as per-character
fallbacks (NanumGothic for Hangul, DejaVu Sans for symbols). A character that the font chosen for
it still cannot draw would print as the font's empty box; :func:`drawable` leaves it out of every
face these functions return, and the face carries a warning naming the card, font and characters.
"""

from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType

from printkit import fonts
from printkit.deck import Card, Deck
from printkit.layout.ops import Face, Text
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
    return drawable(getattr(module, "front", generic.front)(card), card)


def back(card: Card, deck: Deck) -> Face:
    """The back of ``card`` drawn by its game's template (or the generic one)."""
    module = game_module(deck.game)
    return drawable(getattr(module, "back", generic.back)(card), card)


def page(card: Card, deck: Deck, width_mm: float, height_mm: float) -> Face:
    """A full-page component (``is_page(card)``) laid out on a page of the given size."""
    module = game_module(deck.game)
    return drawable(getattr(module, "page", generic.page)(card, width_mm, height_mm), card)


def drawable(face: Face, card: Card) -> Face:
    """``face`` without the characters each Text op's font cannot draw (they would print as boxes)."""
    ops = []
    warnings = list(face.warnings)
    for op in face.ops:
        if isinstance(op, Text):
            missing = fonts.missing_glyphs(op.text, op.font)
            if missing:
                if not any(repr(missing) in w for w in warnings):  # the fitter usually said so already
                    warnings.append(f"{card.label}: font {op.font.name} has no glyph for {missing!r} in "
                                    f"{op.text[:40]!r}; left out")
                text = "".join(ch for ch in op.text if ch not in missing)
                if not text.strip():
                    continue
                op = dataclasses.replace(op, text=text)
        ops.append(op)
    if len(warnings) == len(face.warnings) and len(ops) == len(face.ops) and all(
            a is b for a, b in zip(ops, face.ops)):
        return face
    return Face(tuple(ops), tuple(warnings))
