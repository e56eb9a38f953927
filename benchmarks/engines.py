"""Benchmark: complete games per second for every rule engine, random players, one core.

Plays seeded games with every seat on the ``random`` player, in this process only, timed in CPU
seconds, for each game
registered in ``printkit.games`` whose engine imports (an engine that is missing or fails
to import is reported and skipped). Each engine is timed twice: bare (moves only) and as
``printkit simulate`` plays (legal-move check, invariants after every move, replay at the end).

    python benchmarks/engines.py [--seconds 3] [--json]

Targets (issue 4): Calc >= 500 four-player games/s, Clag >= 50 five-player games/s,
Stack >= 50 games/s, bare.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from printkit.games import engine_for, engine_names
from printkit.rules.play import play_game
from printkit.decks import load_deck

# game -> (players, variant, target games/s)
SETTINGS = {
    "calc": (4, "standard", 500),
    "clag": (5, None, 50),
    "stack": (2, None, 50),
}


def games_per_second(engine, deck, players: int, seconds: float, check: bool) -> tuple[float, int, float]:
    """(games/s, games played, mean moves per game), playing seeds 0, 1, 2 … for about ``seconds``.

    Time is this process's CPU time (``time.process_time``): on a shared machine wall time counts
    the other work too and halves the figures under load.
    """
    games = moves = 0
    start = time.process_time()
    while True:
        record = play_game(engine, deck, players, games, "random", check=check)
        games += 1
        moves += len(record.moves)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed, games, moves / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine and mode")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    results = {}
    for game in engine_names():
        try:
            engine = engine_for(game)
        except Exception as exc:  # an engine still being written: skip it, say why
            results[game] = {"skipped": f"{type(exc).__name__}: {exc}"}
            continue
        players, variant, target = SETTINGS.get(game, (engine.min_players, None, None))
        deck = load_deck(game, variant)
        bare, games, mean_moves = games_per_second(engine, deck, players, args.seconds, check=False)
        checked, _, _ = games_per_second(engine, deck, players, args.seconds, check=True)
        results[game] = {
            "players": players,
            "variant": deck.variant,
            "games_per_s": round(bare, 1),
            "checked_games_per_s": round(checked, 1),
            "mean_moves": round(mean_moves, 1),
            "games": games,
            "target_games_per_s": target,
            "meets_target": None if target is None else bare >= target,
        }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for game, r in results.items():
            if "skipped" in r:
                print(f"{game}: skipped ({r['skipped']})")
                continue
            verdict = "" if r["target_games_per_s"] is None else (
                f"  target {r['target_games_per_s']}: {'ok' if r['meets_target'] else 'MISSED'}"
            )
            print(
                f"{game} ({r['players']} players, {r['variant'] or 'default'}): {r['games_per_s']} games/s bare, "
                f"{r['checked_games_per_s']} checked, {r['mean_moves']} moves/game{verdict}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
