"""What a balance report watches in a Calc game (rules.observe): per move, pay values and hand sizes."""

from __future__ import annotations

from typing import Any

from printkit.games.calc.score import pay_card
from printkit.games.calc.value import to_float
from printkit.rules.observe import View


def card_name(card: Any) -> str:
    """A deck card as the ``score`` command writes it: ``5x``, ``-1+``, ``J``."""
    return pay_card(card).text


VIEW = View(
    clock=lambda s: s.moves,
    hand=lambda s, seat: [s.cards[i].text for i in s.hands[seat]],
    figures=lambda s, seat: {"pay value": to_float(s.values[seat]), "hand size": len(s.hands[seat])},
    origin=lambda s: s.turn,
    card_name=card_name,
)
