"""Every game's content registry: each function returns the kind of content its directive expects."""

import pytest

from printkit.rulebook.content import LANGS, CardParts, Example, Figure, Table, TableSetup, content_for
from printkit.decks import load_all_variants


@pytest.mark.parametrize("game", ["calc", "stack", "clag"])
def test_every_registered_function_returns_its_kind(game):
    registry = content_for(game)
    assert registry.examples, game
    for deck in load_all_variants(game):
        for lang in LANGS:
            for kind, expected in ((registry.figures, (Figure, CardParts, TableSetup)), (registry.examples, Example),
                                   (registry.tables, Table)):
                for name, function in kind.items():
                    assert isinstance(function(deck, lang), expected), (game, deck.variant, lang, name)
