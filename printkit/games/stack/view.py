"""What a balance report watches in a Stack game (rules.observe): per turn, stacks and cards set on terrains.

Generated cards (made in play) are no deck cards: the hands name deck cards only.
"""

from __future__ import annotations

from typing import Any

from printkit.games.stack.moves import Gem
from printkit.rules.observe import View


def card_name(card: Any) -> str:
    """A deck card as Stack's moves write it: ``ruby+gold``."""
    return str(Gem.of(*card.get("minerals")))


VIEW = View(
    clock=lambda s: s.turn,
    hand=lambda s, seat: [str(g) for g in s.hand(seat) if not g.generated],
    # At a turn's end every hand holds 7 cards and no match is left standing: what differs is how
    # many of the 7 are set on terrains, and the stacks.
    figures=lambda s, seat: {"stacks": s.stacks[seat], "cards set on terrains": sum(s.inv_n[seat])},
    origin=lambda s: s.to_move,
    card_name=card_name,
)
