"""Benchmark: one balance report per game, as a user runs it, with wall time, CPU time and load.

Runs ``printkit simulate GAME --games N --bot greedy --jobs J --no-check --report OUT`` as a whole
process for each game and prints its wall time, the CPU time of the process and its workers, and the
load average before and after. On a shared machine wall time depends on the other work: CPU time
divided by the jobs is what the report costs when the cores are free.

    python benchmarks/report_speed.py [--games 10000] [--jobs 2] [--out DIR] [--json] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(game: str, games: int, jobs: int, out: Path) -> dict:
    """Time one report; returns wall and CPU seconds and the 1-minute load average around it."""
    command = [sys.executable, "-m", "printkit", "simulate", game, "--games", str(games), "--bot", "greedy",
               "--jobs", str(jobs), "--no-check", "--report", str(out / f"{game}.html")]
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"game": game, "games": games, "jobs": jobs, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games to report on (default: stack calc clag)")
    parser.add_argument("--games", type=int, default=10_000, help="games per report")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--out", type=Path, help="folder for the reports (default: a temporary one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        results = [run(game, args.games, args.jobs, out) for game in args.games_ or ["stack", "calc", "clag"]]
    if args.json:
        print(json.dumps({"cpus": os.cpu_count(), "python": sys.version.split()[0], "results": results}, indent=2))
    else:
        print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
        for r in results:
            print(f"{r['game']}: {r['games']:,} games, --jobs {r['jobs']}: {r['wall_s']} s wall, {r['cpu_s']} s CPU, "
                  f"load {r['load_before']} -> {r['load_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
