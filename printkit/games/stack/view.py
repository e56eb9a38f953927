"""What a balance report watches in a Stack game (rules.observe): per turn, hands, stacks and matches.

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
    figures=lambda s, seat: {"hand size": s.hand_size(seat), "stacks": s.stacks[seat],
                             "field cards matched": len(s.matched(seat))},
    origin=lambda s: s.to_move,
    card_name=card_name,
)
