"""When an engine refuses a deck card for a missing attribute, it says so in words, not ``None``."""

from dataclasses import replace

import pytest

from printkit.deck import Card
from printkit.errors import DeckError
from printkit.games import engine_for
from printkit.decks import load_deck


def _refusal(game: str, attrs: dict) -> str:
    deck = load_deck(game)
    card = Card("extra-001", "extra", attrs, deck.art, deck.size)
    with pytest.raises(DeckError) as info:
        engine_for(game).validate_deck(replace(deck, cards=(*deck.cards, card)))
    return str(info.value)


def test_calc_card_without_symbol_or_number():
    message = _refusal("calc", {"kind": "number"})
    assert "extra[kind=number]#1 has no symbol (known: " in message
    assert "extra[kind=number]#1 has no number (it takes -1..9)" in message
    assert "None" not in message


def test_clag_card_without_suit_or_rank():
    assert _refusal("clag", {"rank": "Q"}).endswith("card extra[rank=Q]#1 has no suit (Clag needs spades, hearts, diamonds, clubs)")
    assert _refusal("clag", {"suit": "hearts"}) == "card extra[suit=hearts]#1 has no rank (Clag needs 2-10, J, Q, K, A)"


def test_stack_card_without_minerals_or_cost():
    assert _refusal("stack", {"cost": 1}) == "card extra[cost=1]#1 has no minerals (a list such as [ruby, gold])"
    assert _refusal("stack", {"minerals": ["ruby"]}) == "card extra[minerals=ruby]#1 has no cost (a card's cost is its number of minerals, 1)"
