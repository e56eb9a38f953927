"""What a balance report watches in a Clag game (rules.observe): per round, scores and contracts."""

from __future__ import annotations

from typing import Any

from printkit.games.clag.cards import Play, PlayingCard
from printkit.rules.observe import View


def card_name(card: Any) -> str:
    """A deck card as Clag's moves write it: ``QH``, ``10S``."""
    return str(PlayingCard.parse(f"{card.get('rank')}{str(card.get('suit'))[:1]}"))


VIEW = View(
    clock=lambda s: s.round_index,
    hand=lambda s, seat: [str(c) for c in s.hands[seat]] if s.hands else [],
    figures=lambda s, seat: {"score": s.scores[seat], "contracts made": s.contracts[seat]},
    # The first dealer is drawn at random: positions count from it (0: the first dealer).
    origin=lambda s: s.first_dealer,
    card_name=card_name,
    played=lambda s, move: [str(move.card)] if isinstance(move, Play) else [],
    position_from="the first dealer",
    clock_word="round",
)
