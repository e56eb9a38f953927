"""Benchmark: rebuilding a deck's per-card files with the render cache.

For a copy of a sample deck (emberfall by default) in a temporary folder, as whole processes,
``printkit build DECK --per-card --no-rulebooks`` (wall and CPU time, medians of ``--runs``; CPU
time, user and system, is what a busy machine disturbs least):

1. cold: no output folder (and so no cache);
2. nothing changed: the same build again into the same folder;
3. one card edited: one word of one card's rules text changed (and back, alternately);
4. one card alone: ``--card ID`` with the edit undone (its files come from the cache).

Then the same as ``printkit watch`` rebuilds (``printkit.watch.rebuild`` in one process that stays,
into a folder of its own, CPU time of each rebuild): the first build (the process just started:
its imports and fonts are part of it), again with nothing changed, and one card edited.

The rebuilds' files are then compared with a cold ``--no-cache`` build: they must be identical.

    PYTHONPATH=. python benchmarks/rebuild_speed.py [--deck emberfall] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPU: list[float] = []  # CPU seconds (user + system) of each timed build, in order


def timed(args: list[str], cwd: Path) -> float:
    # As a designer runs it: Python keeps its compiled modules (a setting that stops it would
    # make every run compile printkit afresh, a cost no real rebuild pays).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "printkit", "build", *args], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


WATCH_CHILD = """
import json, re, resource, sys, time
from pathlib import Path
from printkit.pipeline.context import BuildOptions
from printkit.watch import rebuild, target

work, runs = Path(sys.argv[1]), int(sys.argv[2])
data = work / sys.argv[3] / "cards.csv"
options = BuildOptions(out_dir=work / "watch-out", per_card=True, rulebooks=False, jobs=1)
spec = target([str(work / (sys.argv[3] + ".yaml"))])
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
def timed(reason):
    before = cpu()
    outcome = rebuild(spec, None, options, reason)
    assert outcome.error is None, outcome.error
    return cpu() - before
times = {"first build (process start included)": [cpu() + timed("start")], "nothing changed": [], "one card edited": []}
for run in range(runs):
    times["nothing changed"].append(timed("nothing"))
    text = data.read_text(encoding="utf-8")
    # A number never used before: the edited card is not in the render cache yet.
    data.write_text(re.sub(r"deal [0-9]+ :fire:", f"deal {run + 4} :fire:", text, count=1), encoding="utf-8")
    time.sleep(0.5)  # as a watch waits for the saves to settle
    times["one card edited"].append(timed("edit"))
print(json.dumps(times))
"""


def watch_rebuilds(work: Path, deck: str, runs: int) -> dict[str, list[float]]:
    """CPU seconds of each rebuild in one process, as ``printkit watch`` makes them."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", WATCH_CHILD, str(work), str(runs), deck], cwd=work, env=env,
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def outputs(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and ".printkit-cache" not in p.parts and p.name != "manifest.json"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deck", default="emberfall")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copy(ROOT / "decks" / f"{args.deck}.yaml", work)
        if (ROOT / "decks" / args.deck).is_dir():
            shutil.copytree(ROOT / "decks" / args.deck, work / args.deck)
        data = work / args.deck / "cards.csv"
        # As a designer's files are, the copies are older than the first build by more than the
        # moment printkit waits for before it trusts a file's times (printkit.pipeline.replay.SETTLE_NS).
        time.sleep(0.5)
        # One process, so CPU time is the build's whole cost (benchmarks/jobs_speed.py measures --jobs).
        build = [f"{args.deck}.yaml", "--per-card", "--no-rulebooks", "--jobs", "1", "--out", "out"]
        times: dict[str, list[float]] = {"cold": [], "nothing changed": [], "one card edited": [],
                                         "--card, edit undone": []}
        cpu: dict[str, list[float]] = {name: [] for name in times}
        for run in range(args.runs):
            shutil.rmtree(work / "out", ignore_errors=True)
            times["cold"].append(timed(build, work))
            cpu["cold"].append(CPU[-1])
            times["nothing changed"].append(timed(build, work))
            cpu["nothing changed"].append(CPU[-1])
            text = data.read_text(encoding="utf-8")
            edited = text.replace("deal 2 :fire:", "deal 3 :fire:", 1) if "deal 2 :fire:" in text \
                else text.replace("deal 3 :fire:", "deal 2 :fire:", 1)
            data.write_text(edited, encoding="utf-8")
            times["one card edited"].append(timed(build, work))
            cpu["one card edited"].append(CPU[-1])
            data.write_text(text, encoding="utf-8")
            times["--card, edit undone"].append(timed(build[:1] + ["--card", "ember-drake", "--out", "out"], work))
            cpu["--card, edit undone"].append(CPU[-1])
        timed(build, work)  # everything current again
        timed(build[:-1] + ["cold", "--no-cache"], work)
        same = outputs(work / "out") == outputs(work / "cold")
        watched = watch_rebuilds(work, args.deck, args.runs)
    cold, cold_cpu = statistics.median(times["cold"]), statistics.median(cpu["cold"])
    print(f"{'build':26s} {'wall':>8s} {'of cold':>8s} {'CPU':>8s} {'of cold':>8s}")
    for name, values in times.items():
        median, median_cpu = statistics.median(values), statistics.median(cpu[name])
        print(f"{name:26s} {median:6.2f} s {100 * median / cold:7.1f}% {median_cpu:6.2f} s "
              f"{100 * median_cpu / cold_cpu:7.1f}%")
    print(f"cached rebuild byte-identical to a cold --no-cache build: {same}")
    print()
    print("as printkit watch rebuilds (one process; CPU; of cold: of the cold printkit build above)")
    for name, values in watched.items():
        median = statistics.median(values)
        print(f"{name:40s} {median:6.2f} s {100 * median / cold_cpu:7.1f}%")


if __name__ == "__main__":
    main()
