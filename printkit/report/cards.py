"""Per-card statistics and per-turn trajectories, counted from watched games (rules.observe).

A *seat-game* is one seat in one game. For every distinct card: how many seat-games held it (dealt
or drawn) and played it, how often it was drawn and played in all, and the win rate of the seats
that held (played) it against the seats that did not, each with a 95 % Wilson interval. A shared
win counts for each of its winners, as in the win rates by seat.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from printkit.report.stats import wilson
from printkit.rules.play import GameResult, _quantile


def _rate(wins: int, trials: int) -> dict[str, Any]:
    low, high = wilson(wins, trials)
    return {"wins": wins, "of": trials, "rate": round(wins / trials, 6) if trials else None,
            "ci95": [round(low, 6), round(high, 6)]}


def card_table(results: Sequence[GameResult], players: int, names: Sequence[str]) -> list[dict[str, Any]]:
    """One entry per distinct card (``names``: the deck's cards by name, copies repeated), deck order;
    empty when no game was watched."""
    copies = Counter(names)
    done = [r for r in results if r.failure is None and r.watched is not None]
    if not done:
        return []  # a game printkit cannot watch (no view in rules.observe) has no per-card figures
    held = Counter()
    held_wins = Counter()
    played_games = Counter()
    played_wins = Counter()
    drawn = Counter()
    played = Counter()
    total_wins = 0
    for r in done:
        w = r.watched
        for seat in range(players):
            won = seat in r.winners
            total_wins += won
            for name in w["held"][seat]:
                held[name] += 1
                held_wins[name] += won
            for name, count in w["played"][seat].items():
                played[name] += count
                played_games[name] += 1
                played_wins[name] += won
            drawn.update(w["drawn"][seat])
    seat_games = len(done) * players
    table = []
    for name in copies:
        table.append({
            "card": name,
            "copies": copies[name],
            "drawn": drawn[name],
            "played": played[name],
            "held_by": held[name],
            "played_by": played_games[name],
            "win_rate_held": _rate(held_wins[name], held[name]),
            "win_rate_not_held": _rate(total_wins - held_wins[name], seat_games - held[name]),
            "win_rate_played": _rate(played_wins[name], played_games[name]),
            "win_rate_not_played": _rate(total_wins - played_wins[name], seat_games - played_games[name]),
        })
    return table


def trajectories(results: Sequence[GameResult]) -> dict[str, Any]:
    """Per figure (score, hand size …) and turn: quartiles over the seats of the games still going.

    ``turns[i]`` is the end of turn ``i + 1``; ``games[i]`` how many games lasted that long. A game
    that has ended no longer counts, so late turns speak only for the long games.
    """
    done = [r for r in results if r.failure is None and r.watched]
    if not done:
        return {}
    names = done[0].watched["figures"]
    longest = max(len(r.watched["turns"]) for r in done)
    out: dict[str, Any] = {"games": [], "figures": {}}
    for i in range(longest):
        out["games"].append(sum(1 for r in done if len(r.watched["turns"]) > i))
    for f, name in enumerate(names):
        rows = []
        for i in range(longest):
            values = sorted(v for r in done if len(r.watched["turns"]) > i for v in r.watched["turns"][i][f])
            rows.append([_quantile(values, q) for q in (0.25, 0.5, 0.75)])
        out["figures"][name] = rows
    return out
