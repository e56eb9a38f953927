"""Benchmark: `printkit build calc --variant expert` against the plain-reportlab floor.

Runs each command as a whole process, alternately (one untimed run of each first, then round
after round of every command), and reports per command the median wall time, the median CPU time
(user + system, which a busy machine disturbs less than wall time), both as multiples of the
floor's, and the peak memory (max RSS) over all runs.

    python benchmarks/build_speed.py [--runs 7]

The issue's targets (issue 3, item 9): the card build at most 2x the floor's time, PDF bytes per
card within 1.5x of the floor's, peak memory under 150 MB. The card build is
``printkit build calc --variant expert --no-rulebooks``; the floor writes the files its
``--no-proof`` writes (the 177 cards and four player aids, fronts and backs on A4, the fronts-only
sheets, the alignment test and the manifest, with the same two fonts), so the card build also pays
for the proof page here (``proof_cost.py`` measures that alone). The full build, as users run it,
also sets the Korean and English rulebooks and is reported beside it.

The duplex sheets file is compared with the floor's, which holds the same pages (fronts and backs
interleaved, the player aids with them).

Runs are timed by ``procbench.py`` (shared with ``data_deck.py``). Each run starts without its
outputs, so every file is written (and fsynced) afresh, as in a first build; a rebuild that finds
identical files in place writes nothing and is faster.

Every process runs with byte-code caching on (in a temporary PYTHONPYCACHEPREFIX, filled by the
untimed runs), as an installed printkit runs; an environment that disables it
(PYTHONDONTWRITEBYTECODE) would otherwise make every run recompile printkit's modules.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from procbench import child_env, entry_point, header, measure, table

HERE = Path(__file__).resolve().parent
CARD_BUILD = "printkit build calc --variant expert --no-rulebooks"
FULL_BUILD = "printkit build calc --variant expert"
FLOOR = "floor (plain reportlab)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    printkit = entry_point()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = child_env(work)
        # One process, as the floor is (benchmarks/jobs_speed.py measures --jobs).
        build = [*printkit, "build", "calc", "--variant", "expert", "--jobs", "1"]
        commands = {  # name: (argv, output)
            CARD_BUILD: (build + ["--no-rulebooks", "--out", str(work / "cards")], work / "cards"),
            FULL_BUILD: (build + ["--out", str(work / "full")], work / "full"),
            FLOOR: ([sys.executable, str(HERE / "floor_calc.py"), str(work / "floor")], work / "floor"),
        }
        load_before = os.getloadavg()[0]
        samples = measure(commands, args.runs, work, env)
        load_after = os.getloadavg()[0]
        manifest = json.loads((work / "cards/manifest.json").read_text())
        sheets = next(f for f in manifest["files"] if f["kind"] == "sheets" and f["variant"] == "expert")
        build_bytes = (work / "cards" / sheets["path"]).stat().st_size
        printed = sheets["cards"]
        floor_bytes = (work / "floor" / sheets["path"]).stat().st_size

    print(header(args.runs, load_before, load_after))
    print()
    print("\n".join(table(samples, FLOOR)))
    print()
    print(f"sheets-a4.pdf: {build_bytes} bytes for {printed} cards = {build_bytes / printed:.0f} bytes/card; "
          f"floor {floor_bytes / printed:.0f} bytes/card; ratio {build_bytes / floor_bytes:.2f}x")
    print("targets (card build): time <= 2x floor, bytes/card <= 1.5x floor, peak memory < 150 MB")


if __name__ == "__main__":
    main()
