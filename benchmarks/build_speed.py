"""Benchmark: `printkit build calc --variant expert` against the plain-reportlab floor.

Runs each command as a whole process, alternately (one untimed run of each first, then round
after round of every command), and reports per command the median wall time, the median CPU time
(user + system, which a busy machine disturbs less than wall time), both as multiples of the
floor's, and the peak memory (max RSS) over all runs.

    python benchmarks/build_speed.py [--runs 7]

The issue's targets (issue 3, item 9): the card build at most 2x the floor's time, PDF bytes per
card within 1.5x of the floor's, peak memory under 150 MB. The card build is
``printkit build calc --variant expert --no-rulebooks``: what the floor draws (the 177 cards,
fronts and backs on A4 with an embedded subset font) plus the fronts-only sheets, the alignment
test, the deck's four player aids and the manifest. The full build, as users run it, also sets the
Korean and English rulebooks and is reported beside it.

The duplex sheets file is compared with the floor's PDF, which holds the same pages (fronts and
backs interleaved); the sheets also carry the player aids, so bytes are divided by the cards each
file holds.

Each run starts without its outputs, so every file is written (and fsynced) afresh, as in a
first build; a rebuild that finds identical files in place writes nothing and is faster.

Every process runs with byte-code caching on (in a temporary PYTHONPYCACHEPREFIX, filled by the
untimed runs), as an installed printkit runs; an environment that disables it
(PYTHONDONTWRITEBYTECODE) would otherwise make every run recompile printkit's modules.
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
CARD_BUILD = "printkit build calc --variant expert --no-rulebooks"
FULL_BUILD = "printkit build calc --variant expert"
FLOOR = "floor (plain reportlab)"


def run(argv: list[str], cwd: Path, env: dict[str, str], output: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of one child process.

    ``output`` (the command's output file or folder) is removed first, so every run writes all
    its files afresh rather than finding them already in place.
    """
    if output.is_dir():
        shutil.rmtree(output)
    output.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stderr.read().decode()}")
    proc.stderr.close()
    # ru_maxrss is in kilobytes on Linux.
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def entry_point() -> list[str]:
    """How to start printkit with the interpreter that runs the floor.

    The console script installed beside that interpreter, as a user of the environment runs it;
    not whatever ``printkit`` comes first on PATH, which may be a wrapper (a pyenv shim costs about
    50 ms per start) or another environment's install.
    """
    script = Path(sys.executable).with_name("printkit")
    if script.is_file():
        return [str(script)]
    try:
        import printkit  # noqa: F401
    except ImportError:
        sys.exit(f"printkit is not installed for {sys.executable} (pip install -e .)")
    return [sys.executable, "-m", "printkit"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    printkit = entry_point()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        build = [*printkit, "build", "calc", "--variant", "expert"]
        commands = {  # name: (argv, output)
            CARD_BUILD: (build + ["--no-rulebooks", "--out", str(work / "cards")], work / "cards"),
            FULL_BUILD: (build + ["--out", str(work / "full")], work / "full"),
            FLOOR: ([sys.executable, str(HERE / "floor_calc.py"), str(work / "floor.pdf")], work / "floor.pdf"),
        }
        for argv, output in commands.values():  # one untimed run each: fills the byte-code cache
            run(argv, work, env, output)
        load_before = os.getloadavg()[0]
        samples: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (argv, output) in commands.items():
                samples[name].append(run(argv, work, env, output))
        load_after = os.getloadavg()[0]
        manifest = json.loads((work / "cards/manifest.json").read_text())
        sheets = next(f for f in manifest["files"] if f["kind"] == "sheets" and f["variant"] == "expert")
        build_bytes = (work / "cards" / sheets["path"]).stat().st_size
        printed = sheets["cards"]
        floor_bytes = (work / "floor.pdf").stat().st_size

    def median(name: str, column: int) -> float:
        return statistics.median(s[column] for s in samples[name])

    floor_wall, floor_cpu = median(FLOOR, 0), median(FLOOR, 1)
    print(f"{args.runs} runs of each, alternating; medians; {os.cpu_count()} CPUs, "
          f"load average {load_before:.1f} before, {load_after:.1f} after")
    print()
    print("| command | wall | x floor | CPU | x floor | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in commands:
        wall, cpu = median(name, 0), median(name, 1)
        peak = max(s[2] for s in samples[name])
        print(f"| `{name}` | {wall:.2f} s | {wall / floor_wall:.2f} | {cpu:.2f} s | {cpu / floor_cpu:.2f} "
              f"| {peak:.0f} MB |")
    print()
    print(f"sheets-a4.pdf: {build_bytes} bytes for {printed} cards = {build_bytes / printed:.0f} bytes/card; "
          f"floor {floor_bytes / CARDS:.0f} bytes/card ({CARDS} cards); "
          f"ratio {(build_bytes / printed) / (floor_bytes / CARDS):.2f}x")
    print("targets (card build): time <= 2x floor, bytes/card <= 1.5x floor, peak memory < 150 MB")


if __name__ == "__main__":
    main()
