"""Benchmark: what the proof page adds to a build, as whole processes in CPU time.

The target: the proof page adds at most 15% to ``printkit build DECK --no-rulebooks`` (default
jobs, a fresh output folder each run, so the render cache starts empty), measured against the
same command with ``--no-proof``. Calc is the deck the target names; ``--deck`` measures others.
``--rebuild`` measures a designer's next build instead: each run builds into the folder the run
before it built (its render cache filled), as a second ``printkit build`` does.

Runs are alternated and timed by ``procbench.py`` (medians of ``--runs``, after one untimed run
of each; CPU is user + system of the process and every process it started). The machine's load
average before and after is printed: other work slows every command alike, which the alternation
spreads over both. "paired" is the median of each round's own ratio (the build with the proof
against the build without it run just before it): steadier than the ratio of the medians when the
load moves during the runs, as it does on a shared machine.

    python benchmarks/proof_cost.py [--runs 9] [--rebuild] [--deck calc --deck clag ...] [-- extra build options]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from procbench import child_env, entry_point, header, measure, median_cpu

PROOF_SHARE = 0.15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--deck", action="append", help="a shipped deck's name (repeatable; default calc)")
    parser.add_argument("--rebuild", action="store_true",
                        help="build into the previous run's folder (render cache filled), not a fresh one")
    parser.add_argument("extra", nargs="*", help="further build options, after --")
    args = parser.parse_args()
    decks = args.deck or ["calc"]
    printkit = entry_point()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = child_env(work)
        commands = {}
        for deck in decks:
            build = [*printkit, "build", deck, "--no-rulebooks", *args.extra]
            for name, out, flags in ((f"{deck} --no-proof", work / f"{deck}-bare", ["--no-proof"]),
                                     (deck, work / f"{deck}-proof", [])):
                # What each run removes first: the output folder, or (rebuilding) nothing.
                fresh = work / f"{deck}-none" if args.rebuild else out
                commands[name] = (build + flags + ["--out", str(out)], fresh)
        load_before = os.getloadavg()[0]
        samples = measure(commands, args.runs, work, env)
        load_after = os.getloadavg()[0]

    print(header(args.runs, load_before, load_after))
    if args.rebuild:
        print("each run built into the folder the run before it built (the render cache filled)")
    print()
    print("| deck | CPU without proof | with proof | proof adds | paired |")
    print("|---|---:|---:|---:|---:|")
    verdicts = []
    for deck in decks:
        bare, full = median_cpu(samples[f"{deck} --no-proof"]), median_cpu(samples[deck])
        share = full / bare - 1
        paired = statistics.median(f.cpu / b.cpu for b, f in zip(samples[f"{deck} --no-proof"], samples[deck])) - 1
        print(f"| `{deck}` | {bare:.3f} s | {full:.3f} s | {100 * share:.1f}% | {100 * paired:.1f}% |")
        said = "met" if share <= PROOF_SHARE else "NOT MET"
        again = " built again" if args.rebuild else ""
        verdicts.append(f"the proof page adds {100 * share:.1f}% to build {deck} --no-rulebooks{again} "
                        f"(<= {100 * PROOF_SHARE:.0f}%): {said}")
    print()
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
