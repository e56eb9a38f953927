"""Benchmark: ``printkit build`` with ``--jobs 1`` and ``--jobs 2``.

Three builds, each as a whole process into an empty output folder (so with an empty render
cache): every sample deck (``printkit build --per-card``), one deck (``printkit build emberfall
--per-card``) and that deck without per-card files (``printkit build emberfall``: only its
rulebooks and proof thumbnails are work for workers); each with one job and with two,
alternating, after one untimed run of each (``benchmarks/procbench.py``). Per build: the median
wall time, the median CPU time (user + system of the build and of every process it started:
workers, the fork server) and the load average seen before each run, low to high. The files of
the last ``--jobs 1`` and ``--jobs 2`` runs of a build are then compared byte for byte (outputs,
manifest and render cache, but for the record of the whole command, whose key holds its options).

    PYTHONPATH=. python benchmarks/jobs_speed.py [--runs 5]  # about 5 minutes on 2 CPUs

Wall time is what --jobs is for, and it is what other work on the machine disturbs most: read the
load averages beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from procbench import ADOPTS, REPO, child_env, entry_point, run  # noqa: E402

BUILDS = {"all decks": ["--per-card"], "emberfall": ["emberfall", "--per-card"], "emberfall, no per-card": ["emberfall"]}


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` but the record of the whole command, whose key holds the command
    line (``--jobs``, ``--out``) and so differs by design between the two builds."""
    found = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    return {path: data for path, data in found.items() if not command_record(path, data)}


def command_record(path: str, data: bytes) -> bool:
    if not path.startswith(".printkit-cache/"):
        return False
    try:
        record = json.loads(data.split(b"\n", 2)[-1])
    except ValueError:
        return False
    return isinstance(record, dict) and record.keys() == {"manifest", "paths", "warnings"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    printkit = entry_point()
    start_load = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = child_env(work)
        commands = {(name, jobs): ([*printkit, "build", *decks, "--jobs", str(jobs),
                                    "--out", str(work / f"{name}-{jobs}")], work / f"{name}-{jobs}")
                    for name, decks in BUILDS.items() for jobs in (1, 2)}
        for argv, output in commands.values():  # untimed: fills the byte-code cache
            run(argv, REPO, env, output)
        samples = {key: [] for key in commands}
        loads = {key: [] for key in commands}
        for _ in range(args.runs):
            for key, (argv, output) in commands.items():
                loads[key].append(os.getloadavg()[0])
                samples[key].append(run(argv, REPO, env, output))
        same = {name: files(work / f"{name}-1") == files(work / f"{name}-2") for name in BUILDS}
    print(f"{args.runs} runs of each, alternating; medians; {os.cpu_count()} CPUs, Python {sys.version.split()[0]}; "
          f"load average {start_load[0]:.2f} {start_load[1]:.2f} {start_load[2]:.2f} at the start"
          + ("" if ADOPTS else "; CPU of the build's own process and direct children only (not Linux)"))
    print()
    print("| build | jobs | wall | CPU | wall vs 1 job | load average before the runs |")
    print("|---|---:|---:|---:|---:|---|")
    for (name, jobs), runs in samples.items():
        wall = statistics.median(s.wall for s in runs)
        cpu = statistics.median(s.cpu for s in runs)
        one = statistics.median(s.wall for s in samples[(name, 1)])
        seen = sorted(loads[(name, jobs)])
        rows.append(f"| `printkit build {' '.join(BUILDS[name])}` | {jobs} | {wall:.2f} s | {cpu:.2f} s "
                    f"| {one / wall:.2f}x | {seen[0]:.2f}-{seen[-1]:.2f} |")
    print("\n".join(rows))
    print()
    for name, equal in same.items():
        print(f"{name}: --jobs 2 files byte-identical to --jobs 1 (outputs, manifest, cache but the command record): {equal}")


if __name__ == "__main__":
    main()
