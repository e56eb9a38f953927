"""Calc's numbers in a balance report: the fewest-cards bonus and the values paid."""

from __future__ import annotations

from typing import Any, Sequence

from printkit.rules.play import GameResult, _as_float


def first_round(r: GameResult) -> bool:
    """The game ended before any seat's second turn."""
    return bool(r.facts.get("first_round"))


def facts(done: Sequence[GameResult], a: dict[str, Any]) -> dict[str, Any]:
    return {
        "pay_values": [v for r in done for v in r.facts["pay"]],
        "decided_by_bonus": sum(1 for r in done if r.facts["decided_by_bonus"]),
        "winner_had_bonus": sum(1 for r in done if set(r.winners) & set(r.facts["bonus"])),
        "bonus_shared": sum(1 for r in done if len(r.facts["bonus"]) > 1),
    }


def paired(done: Sequence[GameResult], seats: int) -> tuple[dict[str, list[bool]], dict[str, list[float]]]:
    """Calc's own yes/no rates and numbers per game for the paired tests of ``--compare``."""
    samples = {f"score, seat {s}": [_as_float(r.scores[s]) for r in done] for s in range(seats)}
    rates = {
        "decided by the fewest-cards bonus": [bool(r.facts["decided_by_bonus"]) for r in done],
        "a winner had the bonus": [bool(set(r.winners) & set(r.facts["bonus"])) for r in done],
    }
    return rates, samples
