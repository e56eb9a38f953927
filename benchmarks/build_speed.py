"""Benchmark: `printkit build calc --variant expert` against the plain-reportlab floor.

Runs both as whole processes, alternately, several times each, and reports the median wall time,
their ratio, the PDF bytes per card and each process's peak memory (max RSS).

    python benchmarks/build_speed.py [--runs 7]

The target (issue 3): build time at most 2x the floor, bytes per card within 1.5x of the floor,
peak memory under 150 MB. The duplex sheets file is compared with the floor's PDF, which holds the
same pages (fronts and backs interleaved); the sheets also carry the deck's player aids, so bytes
are divided by the cards each file holds. The full command also writes the fronts-only sheets,
the alignment test and everything else in printkit.build.PRODUCERS (the rulebooks), so it is
timed twice: as users run it, and with the card outputs only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CARDS = 177
# The card outputs alone (sheets, fronts-only sheets, alignment test), without the rulebooks.
CARDS_ONLY = """
import sys
from pathlib import Path
from printkit.build import BuildOptions, build, produce_alignment, produce_cards, produce_sheets
from printkit.spec import load_deck
build([load_deck("calc", "expert")], BuildOptions(out_dir=Path(sys.argv[1])),
      producers=(produce_sheets, produce_alignment, produce_cards))
"""


def run(argv: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stderr.read().decode()}")
    # ru_maxrss is in kilobytes on Linux.
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    printkit = shutil.which("printkit") or sys.exit("printkit is not installed (pip install -e .)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        commands = {
            "printkit build calc --variant expert": [printkit, "build", "calc", "--variant", "expert",
                                                     "--out", str(work / "out")],
            "  the same, card sheets only": [sys.executable, "-c", CARDS_ONLY, str(work / "cards")],
            "floor (plain reportlab)": [sys.executable, str(HERE / "floor_calc.py"), str(work / "floor.pdf")],
        }
        for argv in commands.values():  # one untimed run each: warm caches, write first outputs
            run(argv, work)
        times: dict[str, list[float]] = {name: [] for name in commands}
        memory: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, argv in commands.items():
                seconds, mb = run(argv, work)
                times[name].append(seconds)
                memory[name].append(mb)
        manifest = json.loads((work / "out/manifest.json").read_text())
        sheets = next(f for f in manifest["files"] if f["kind"] == "sheets" and f["variant"] == "expert")
        build_bytes = (work / "out" / sheets["path"]).stat().st_size
        printed = sheets["cards"]
        floor_bytes = (work / "floor.pdf").stat().st_size
    floor = statistics.median(times["floor (plain reportlab)"])
    print(f"{args.runs} runs of each, alternating; median wall time, peak RSS:")
    for name in commands:
        median = statistics.median(times[name])
        print(f"{name:40s} {median:5.2f} s ({median / floor:4.2f}x floor)  {max(memory[name]):4.0f} MB")
    print(f"sheets-a4.pdf: {build_bytes} bytes for {printed} cards = {build_bytes / printed:.0f} bytes/card; "
          f"floor {floor_bytes / CARDS:.0f} bytes/card ({CARDS} cards); "
          f"ratio {(build_bytes / printed) / (floor_bytes / CARDS):.2f}x")
    print("targets: time <= 2x floor, bytes/card <= 1.5x floor, peak memory < 150 MB")


if __name__ == "__main__":
    main()
