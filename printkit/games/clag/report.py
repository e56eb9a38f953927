"""Clag's numbers in a balance report: contracts made and points by round, wins by place."""

from __future__ import annotations

import statistics
from typing import Any, Sequence

from printkit.rules.play import GameResult, _as_float

# Clag's special rounds (GAMES.md): the report gives their points per seat.
SPECIAL_ROUNDS = tuple(range(8, 16))


def first_round(r: GameResult) -> bool:
    """Never: Clag always plays 22 rounds."""
    return False


def facts(done: Sequence[GameResult], a: dict[str, Any]) -> dict[str, Any]:
    n, seats = len(done), a["players"]
    rounds = len(done[0].facts["made"]) if done else 0
    made = [sum(r.facts["made"][i] for r in done) for i in range(rounds)]
    points = [sum(r.facts["points"][i] for r in done) for i in range(rounds)]
    dealer = [sum(1 for r in done if r.facts["dealer_made"][i]) for i in range(rounds)]
    wins_by_position = [sum(1 for r in done if (r.facts["first_dealer"] + p) % seats in r.winners)
                        for p in range(seats)]
    overbid = []
    for i in range(rounds):
        values = [r.facts["overbid"][i] for r in done if r.facts["overbid"][i] is not None]
        overbid.append(statistics.fmean(values) if values else None)
    return {
        "made_by_round": made,  # seats that completed a contract, over all games
        "seat_rounds": n * seats,  # trials per round for made_by_round
        "made_rate_by_round": [m / (n * seats) if n else 0.0 for m in made],
        "points_per_seat_by_round": [p / (n * seats) if n else 0.0 for p in points],
        "dealer_made_by_round": dealer,
        "overbid_by_round": overbid,
        "contracts_made": sum(made),
        "special_points": [sum(r.facts["points"][i - 1] for i in SPECIAL_ROUNDS) / seats for r in done],
        "bid_rounds_made": sum(made[i] for i in range(rounds) if done[0].facts["overbid"][i] is not None),
        "bid_seat_rounds": n * seats * sum(1 for i in range(rounds) if done and done[0].facts["overbid"][i] is not None),
        # The first dealer is drawn at random, so wins by seat hide the order of play: counted by
        # place from the first dealer (0: the first dealer, 1: the next seat …), they show it.
        "wins_by_position": wins_by_position,
        "win_rate_by_position": [w / n if n else 0.0 for w in wins_by_position],
    }


def paired(done: Sequence[GameResult], seats: int) -> tuple[dict[str, list[bool]], dict[str, list[float]]]:
    """Clag's own numbers per game for the paired tests of ``--compare`` (no yes/no rates)."""
    samples = {f"score, seat {s}": [_as_float(r.scores[s]) for r in done] for s in range(seats)}
    samples["points per seat in rounds 8-15"] = [
        sum(r.facts["points"][i - 1] for i in SPECIAL_ROUNDS) / seats for r in done]
    samples["contracts made per game"] = [float(sum(r.facts["made"])) for r in done]
    samples["dealers' contracts made per game"] = [float(sum(map(bool, r.facts["dealer_made"]))) for r in done]
    return {}, samples
