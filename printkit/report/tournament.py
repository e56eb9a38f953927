"""Head-to-head bot tournaments (``--tournament``): every pair of bots, both seatings, same seeds.

For bots A and B, the seats alternate A, B, A, B … for ``games`` seeds and then B, A, B, A … for the
same seeds, so neither bot keeps the better seats. A game scores 1 for A when only A's seats win,
½ when both bots have a winning seat (or nobody wins), 0 otherwise. A's head-to-head win rate
against B is its mean score, with a 95 % Wilson interval over the 2 × games games (a ½ counts as
half a win). Bots are ranked by their mean head-to-head win rate over all opponents, with a Wilson
interval over all their games; a rank is clear only where intervals do not overlap. Each bot also
gets a Bradley–Terry strength (fitted by Hunter's MM iteration, with half a win added each way per
pair so that a bot that never wins keeps a finite strength), given as its expected win rate against
a bot of the bots' mean strength (geometric mean).
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any, Callable, Sequence

from printkit.errors import DeckError
from printkit.plural import counted
from printkit.report.data import Setting, play_batch
from printkit.report.stats import wilson
from printkit.rules.play import GameResult


def seating(first: str, second: str, players: int) -> str:
    """``first+second+first…`` for ``players`` seats."""
    return "+".join(first if seat % 2 == 0 else second for seat in range(players))


def game_score(r: GameResult, bots: Sequence[str], bot: str) -> float:
    """1 when only ``bot``'s seats win, ½ when both bots' seats (or nobody) win, else 0."""
    mine = any(bots[s] == bot for s in r.winners)
    theirs = any(bots[s] != bot for s in r.winners)
    if mine and not theirs:
        return 1.0
    if mine == theirs:
        return 0.5
    return 0.0


def tournament(game: str, bots: Sequence[str], *, games: int, players: int | None, seed: int,
               variant: str | None, jobs: int = 1, check: bool = False,
               progress: Callable[[str], Any] | None = None) -> dict[str, Any]:
    """The head-to-head matrix and the ranking (see the module docstring)."""
    bots = list(dict.fromkeys(b.strip() for b in bots if b.strip()))
    joined = [b for b in bots if "+" in b]
    if joined:  # a + would seat several bots under one name, and the scores would go to the wrong one
        raise DeckError(f"--tournament {joined[0]!r}: name one bot per entry, separated by commas "
                        f"(e.g. {','.join(joined[0].split('+'))}); + seats several bots, which a tournament pairs itself")
    if len(bots) < 2:
        raise DeckError(f"--tournament needs two or more bots, not {', '.join(bots) or 'none'}")
    score: dict[tuple[str, str], float] = {}
    count: dict[tuple[str, str], int] = {}
    seats = None
    for a, b in combinations(bots, 2):
        total, n = 0.0, 0
        for first, second in ((a, b), (b, a)):
            if progress:
                progress(f"{first} against {second}")
            batch = play_batch(game, Setting(f"{first} / {second}"), games=games, players=players,
                               seed=seed, bot=seating(first, second, 8), variant=variant, jobs=jobs, check=check,
                               watch=False)
            seats = batch.players
            names = [first if s % 2 == 0 else second for s in range(batch.players)]
            for r in batch.results:
                if r.failure is None:
                    total += game_score(r, names, a)
                    n += 1
        score[a, b], count[a, b] = total, n
        score[b, a], count[b, a] = n - total, n
    matrix = []
    for a in bots:
        row = []
        for b in bots:
            if a == b:
                row.append(None)
                continue
            k, n = score[a, b], count[a, b]
            low, high = wilson(k, n)
            row.append({"rate": k / n if n else 0.0, "ci95": [low, high], "games": n})
        matrix.append(row)
    ranking = []
    for i, a in enumerate(bots):
        rates = [cell["rate"] for cell in matrix[i] if cell is not None]
        k = sum(score[a, b] for b in bots if b != a)
        n = sum(count[a, b] for b in bots if b != a)
        low, high = wilson(k, n)
        ranking.append({"bot": a, "mean_rate": sum(rates) / len(rates), "ci95": [low, high], "games": n})
    for e, strength in zip(ranking, bradley_terry(bots, score, count)):
        e["bradley_terry"] = strength
    ranking.sort(key=lambda e: (-e["mean_rate"], e["bot"]))
    return {"game": game, "players": seats, "seed": seed, "games": games, "bots": bots, "matrix": matrix,
            "ranking": ranking}


def bradley_terry(bots: Sequence[str], score: dict, count: dict, rounds: int = 500) -> list[float]:
    """Each bot's expected win rate against a bot of mean strength, from pairwise scores (see above)."""
    wins = {a: sum(score[a, b] + 0.5 for b in bots if b != a) for a in bots}
    p = {a: 1.0 for a in bots}
    for _ in range(rounds):
        new = {a: wins[a] / sum((count[a, b] + 1) / (p[a] + p[b]) for b in bots if b != a) for a in bots}
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {a: v / mean for a, v in new.items()}
        done = max(abs(new[a] - p[a]) for a in bots) < 1e-12
        p = new
        if done:
            break
    return [p[a] / (p[a] + 1) for a in bots]


def tournament_lines(t: dict[str, Any]) -> list[str]:
    """The matrix (row bot's win rate against the column bot) and the ranking, as text."""
    bots = t["bots"]
    width = max(10, *(len(b) + 2 for b in bots))
    out = [f"tournament: {t['game']}, {t['players']} players, seeds {t['seed']}-{t['seed'] + t['games'] - 1} "
           f"in both seatings; row's win rate against column (95 % Wilson)",
           " " * width + "".join(f"{b:>{width + 12}}" for b in bots)]
    for a, row in zip(bots, t["matrix"]):
        cells = "".join(f"{'-':>{width + 12}}" if c is None else
                        f"{c['rate']:>{width - 3}.1%} [{c['ci95'][0]:.0%}-{c['ci95'][1]:.0%}]".rjust(width + 12)
                        for c in row)
        out.append(f"{a:<{width}}{cells}")
    out.append("ranking by mean head-to-head win rate:")
    for place, e in enumerate(t["ranking"], 1):
        out.append(f"{place}. {e['bot']}: {e['mean_rate']:.1%} (95 % {e['ci95'][0]:.1%}-{e['ci95'][1]:.1%}, "
                   f"{counted(e['games'], 'game')}); Bradley-Terry: {e['bradley_terry']:.1%} against a mean bot")
    return out
