"""Benchmark: what printkit costs before and beside drawing, as whole processes in CPU time.

Three targets, each said met or not on the last lines:

1. ``printkit --help`` under 50 ms of CPU. Printed beside it: the interpreter alone
   (``python -c pass``, with this environment's start-up files: ``site`` and the ``.pth`` files of
   site-packages; ``-S`` without them, ``-I`` isolated from the environment's variables and the
   user's site-packages) and ``import click``, which ``--help`` cannot do without: what is left
   above them is printkit's own part.
2. ``printkit build calc --variant expert --no-rulebooks --no-proof --jobs 1 --no-cache`` within
   1.5x the CPU of ``benchmarks/floor_calc.py`` (plain reportlab writing the same files).
3. The proof page adds at most 15% to ``printkit build calc --no-rulebooks`` (both variants,
   default jobs, a fresh output folder each run, so its render cache starts empty).

Runs are alternated and timed by ``procbench.py`` (medians of ``--runs``, after one untimed run
of each; CPU is user + system of the process and every process it started). The machine's load
average before and after is printed: other work on the machine slows every command alike, which
the alternation spreads over all of them.

    python benchmarks/fixed_costs.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from procbench import child_env, entry_point, header, measure, median_cpu, table

HERE = Path(__file__).resolve().parent
HELP_MS = 50
CALC_RATIO = 1.5
PROOF_SHARE = 0.15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    printkit = entry_point()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = child_env(work)
        nothing = work / "nothing"  # what the commands that write nothing "write"
        expert = [*printkit, "build", "calc", "--variant", "expert", "--no-rulebooks", "--no-proof",
                  "--jobs", "1", "--no-cache"]
        calc = [*printkit, "build", "calc", "--no-rulebooks"]
        commands = {  # name: (argv, output)
            "python -S -c pass": ([sys.executable, "-S", "-c", "pass"], nothing),
            "python -I -c pass": ([sys.executable, "-I", "-c", "pass"], nothing),
            "python -c pass": ([sys.executable, "-c", "pass"], nothing),
            "python -c 'import click'": ([sys.executable, "-c", "import click"], nothing),
            "printkit --help": ([*printkit, "--help"], nothing),
            "floor_calc.py": ([sys.executable, str(HERE / "floor_calc.py"), str(work / "floor")],
                              work / "floor"),
            "build calc --variant expert (cards)": (expert + ["--out", str(work / "expert")], work / "expert"),
            "build calc --no-rulebooks --no-proof": (calc + ["--no-proof", "--out", str(work / "bare")],
                                                     work / "bare"),
            "build calc --no-rulebooks": (calc + ["--out", str(work / "proof")], work / "proof"),
        }
        load_before = os.getloadavg()[0]
        samples = measure(commands, args.runs, work, env)
        load_after = os.getloadavg()[0]

    print(header(args.runs, load_before, load_after))
    print()
    print("\n".join(table(samples, "floor_calc.py")))
    print()
    cpu = {name: median_cpu(runs) for name, runs in samples.items()}

    def said(ok: bool) -> str:
        return "met" if ok else "NOT MET"

    help_ms, bare_ms, click_ms, no_site_ms = (1000 * cpu[name] for name in
                                              ("printkit --help", "python -c pass", "python -c 'import click'",
                                               "python -S -c pass"))
    print(f"printkit --help: {help_ms:.0f} ms CPU (< {HELP_MS} ms): {said(help_ms < HELP_MS)}; "
          f"the interpreter alone {bare_ms:.0f} ms ({no_site_ms:.0f} ms without its start-up files, -S), "
          f"with click {click_ms:.0f} ms, printkit's own part {help_ms - click_ms:.0f} ms")
    ratio = cpu["build calc --variant expert (cards)"] / cpu["floor_calc.py"]
    print(f"calc expert cards: {ratio:.2f}x floor_calc.py (<= {CALC_RATIO}): {said(ratio <= CALC_RATIO)}")
    share = cpu["build calc --no-rulebooks"] / cpu["build calc --no-rulebooks --no-proof"] - 1
    print(f"the proof page adds {100 * share:.0f}% to build calc --no-rulebooks "
          f"(<= {100 * PROOF_SHARE:.0f}%): {said(share <= PROOF_SHARE)}")


if __name__ == "__main__":
    main()
