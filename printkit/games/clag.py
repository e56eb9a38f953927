"""Clag's vocabulary: suits and ranks in the rules' order, their letters, symbols and names."""

from __future__ import annotations

from types import MappingProxyType

SUITS: tuple[str, ...] = ("spades", "hearts", "diamonds", "clubs")
SUIT_LETTERS = MappingProxyType({"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"})
SUIT_SYMBOLS = MappingProxyType({"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"})

# Lowest to highest (aces high); the spec writes 2-10 as numbers and the courts and ace as letters.
RANKS: tuple[int | str, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A")
COURTS: tuple[str, ...] = ("J", "Q", "K")

# (Korean, English) names of the suits, and the English words for the letter ranks.
SUIT_NAMES = MappingProxyType({
    "spades": ("스페이드", "spades"),
    "hearts": ("하트", "hearts"),
    "diamonds": ("다이아몬드", "diamonds"),
    "clubs": ("클럽", "clubs"),
})
RANK_NAMES_EN = MappingProxyType({"J": "jack", "Q": "queen", "K": "king", "A": "ace"})
