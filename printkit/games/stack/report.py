"""Stack's numbers in a balance report: how games end, first-turn wins, stacks used, deals."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from printkit.rules.play import GameResult


def first_round(r: GameResult) -> bool:
    """The game ended at the first settlement."""
    return r.turns == 1


def facts(done: Sequence[GameResult], a: dict[str, Any]) -> dict[str, Any]:
    cases = Counter(r.facts["case"] for r in done)
    return {
        "cases": {case: cases.get(case, 0) for case in ("all", "deciding", "cap")},
        "both_full_games": sum(1 for r in done if r.facts["both_full"]),
        "stacks_used": [sum(r.facts["stacks_used"]) for r in done],
        "first_turn_wins": sum(1 for r in done if r.facts["first_turn_win"]),
        "first_turn_wins_by_seat": [sum(1 for r in done if r.facts["first_turn_win"] and r.winners == (s,))
                                    for s in range(2)],
        "deal_complete_any": sum(1 for r in done if any(r.facts["deal_complete"])),
        "deal_complete_seat": [sum(1 for r in done if r.facts["deal_complete"][s]) for s in range(2)],
    }


def paired(done: Sequence[GameResult], seats: int) -> tuple[dict[str, list[bool]], dict[str, list[float]]]:
    """Stack's own yes/no rates and numbers per game for the paired tests of ``--compare``."""
    rates = {
        "first-turn wins": [bool(r.facts["first_turn_win"]) for r in done],
        "both matched all at least once": [bool(r.facts["both_full"]) for r in done],
        "a dealt hand holds all field types": [any(r.facts["deal_complete"]) for r in done],
    }
    return rates, {"stacks used per game": [float(sum(r.facts["stacks_used"])) for r in done]}
