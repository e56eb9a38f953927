"""Benchmark: ``printkit check`` on the 10,000-row deck of ``data_deck.py``, against its build.

Times, as whole processes, alternately (``procbench.py``)::

    printkit check deck.yaml --no-play
    printkit build deck.yaml --no-rulebooks --no-proof --jobs 1 --out OUT

The check proves everything the build would refuse (it lays out every face, as the build does
before drawing, but a text a cheap bound proves to fit is not set) and says the build's warnings
about the spec; it draws nothing. The target: its CPU time under a third of the build's; the last
line says the ratio and whether it is met.

    python benchmarks/check_speed.py [--runs 3] [--rows 10000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from data_deck import ROWS, write_deck
from procbench import child_env, entry_point, header, measure, median_cpu, table

CHECK = "printkit check deck.yaml --no-play"
BUILD = "printkit build deck.yaml --no-rulebooks --no-proof --jobs 1"
TARGET = 1 / 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=ROWS)
    args = parser.parse_args()
    printkit = entry_point()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        spec = write_deck(work / "deck", args.rows)
        env = child_env(work)
        out = work / "out"
        commands = {
            CHECK: ([*printkit, "check", str(spec), "--no-play"], work / "nothing"),
            BUILD: ([*printkit, "build", str(spec), "--no-rulebooks", "--no-proof", "--jobs", "1",
                     "--out", str(out)], out),
        }
        load_before = os.getloadavg()[0]
        samples = measure(commands, args.runs, work, env)
        load_after = os.getloadavg()[0]

    print(header(args.runs, load_before, load_after))
    print(f"deck: {args.rows} rows from cards.csv, one card each")
    print()
    print("\n".join(table(samples, BUILD)))
    print()
    share = median_cpu(samples[CHECK]) / median_cpu(samples[BUILD])
    print(f"check: {share:.2f} of the build's CPU (< {TARGET:.2f}): {'met' if share < TARGET else 'NOT MET'}")


if __name__ == "__main__":
    main()
