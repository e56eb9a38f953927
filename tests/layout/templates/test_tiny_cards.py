"""Every game's template lays out a 10 x 10 mm card: text too big for it becomes warnings, not errors."""

from __future__ import annotations

import dataclasses

import pytest

from printkit.layout import templates
from printkit.layout.ops import Face
from printkit.decks import load_all_variants


def _tiny_cards(game: str):
    for deck in load_all_variants(game):
        seen = set()
        for card in list(deck.cards) + [c for comp in deck.components.values() for c in comp]:
            key = (card.group, repr(sorted(card.attrs.items())))
            if templates.is_page(card) or key in seen:
                continue
            seen.add(key)
            size = dataclasses.replace(card.size, width_mm=10.0, height_mm=10.0)
            yield deck, dataclasses.replace(card, size=size)


@pytest.mark.parametrize("game", ["calc", "stack", "clag"])
def test_a_10mm_deck_lays_out_with_warnings(game):
    warned = 0
    for deck, card in _tiny_cards(game):
        for face in (templates.front(card, deck), templates.back(card, deck)):
            assert isinstance(face, Face) and face.ops
            warned += bool(face.warnings)
    assert warned, f"no warnings at all for a 10 mm {game} deck"
