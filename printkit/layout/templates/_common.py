"""Which component a card is, and the back colour of a game's own design."""

from __future__ import annotations

from printkit.deck import Card

DEFAULT_BACK = "#1f3b5a"


# The components that are not playing cards, which a game's design gives a light back of their own.
COMPONENT_KINDS = ("aid", "terrain", "reference")


def component_kind(card: Card) -> str | None:
    """Which non-deck component a card is (one of ``COMPONENT_KINDS``, the first its attributes name),
    or None for deck cards."""
    return next((kind for kind in COMPONENT_KINDS if kind in card.attrs), None)
