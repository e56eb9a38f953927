"""Shared machinery of the whole-process benchmarks (``build_speed.py``, ``data_deck.py``).

Each command runs as a child process, alternately with the others (one untimed run of each first,
then round after round of every command); per command the median wall time, the median CPU time
(user + system, which a busy machine disturbs less than wall time) and the peak memory (max RSS)
over all runs are reported. CPU time counts every process a command started, worker processes and
the fork server they come from included: on Linux this script adopts the orphans a command leaves
(a fork server outlives the build by a moment) and waits for them.

Every child runs with byte-code caching on (in a temporary PYTHONPYCACHEPREFIX, filled by the
untimed runs), as an installed printkit runs, and with this checkout first on PYTHONPATH, so the
printkit measured is the one beside these scripts even when the environment's ``printkit`` script
was installed from another checkout.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _adopt_orphans() -> bool:
    """Become the parent of any process a child leaves behind (Linux's child subreaper), so that
    their CPU time is counted when they are waited for."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


ADOPTS = _adopt_orphans()


@dataclass(frozen=True)
class Sample:
    wall: float  # seconds
    cpu: float  # seconds, user + system
    peak_mb: float  # max RSS


def run(argv: list[str], cwd: Path, env: dict[str, str], output: Path) -> Sample:
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
    cpu = usage.ru_utime + usage.ru_stime
    while ADOPTS:  # the processes it left (adopted): each counts its own waited-for children
        try:
            _, _, left = os.wait4(-1, 0)
        except ChildProcessError:
            break
        cpu += left.ru_utime + left.ru_stime
    # ru_maxrss is in kilobytes on Linux; the command's own process, not its workers'.
    return Sample(elapsed, cpu, usage.ru_maxrss / 1024)


def entry_point() -> list[str]:
    """How to start printkit with the interpreter that runs the floor.

    The console script installed beside that interpreter, as a user of the environment runs it;
    not whatever ``printkit`` comes first on PATH, which may be a wrapper (a pyenv shim costs about
    50 ms per start) or another environment's install. :func:`child_env` makes it import this
    checkout's printkit.
    """
    script = Path(sys.executable).with_name("printkit")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "printkit"]


def child_env(work: Path) -> dict[str, str]:
    """The environment of every timed child: byte-code cached under ``work``, this checkout first."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def measure(commands: dict[str, tuple[list[str], Path]], runs: int, cwd: Path,
            env: dict[str, str]) -> dict[str, list[Sample]]:
    """``runs`` samples of each command (name: (argv, output)), alternating, after one untimed run each."""
    for argv, output in commands.values():  # one untimed run each: fills the byte-code cache
        run(argv, cwd, env, output)
    samples: dict[str, list[Sample]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, output) in commands.items():
            samples[name].append(run(argv, cwd, env, output))
    return samples


def median_wall(samples: list[Sample]) -> float:
    return statistics.median(s.wall for s in samples)


def median_cpu(samples: list[Sample]) -> float:
    return statistics.median(s.cpu for s in samples)


def peak(samples: list[Sample]) -> float:
    return max(s.peak_mb for s in samples)


def table(samples: dict[str, list[Sample]], floor: str) -> list[str]:
    """A Markdown table: per command, wall and CPU medians with their multiples of ``floor``'s, peak RSS."""
    floor_wall, floor_cpu, floor_peak = median_wall(samples[floor]), median_cpu(samples[floor]), peak(samples[floor])
    lines = ["| command | wall | x floor | CPU | x floor | peak RSS | x floor |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, runs in samples.items():
        wall, cpu, top = median_wall(runs), median_cpu(runs), peak(runs)
        lines.append(f"| `{name}` | {wall:.2f} s | {wall / floor_wall:.2f} | {cpu:.2f} s | {cpu / floor_cpu:.2f} "
                     f"| {top:.0f} MB | {top / floor_peak:.2f} |")
    return lines


# Issue 14's targets for a deck against its plain-reportlab floor, one job.
TARGET_CPU, TARGET_MEMORY, TARGET_BYTES = 1.5, 1.3, 1.5


def verdict(samples: dict[str, list[Sample]], build: str, floor: str, bytes_ratio: float,
            faster_and_under_mb: float | None = None) -> str:
    """One line: ``build``'s CPU, peak memory and bytes per card against ``floor``'s, each said met
    or not by the targets (CPU at most 1.5x, memory 1.3x, bytes 1.5x; or, for a deck whose floor
    is slow, ``faster_and_under_mb``: faster than the floor and under that many MB)."""
    cpu = median_cpu(samples[build]) / median_cpu(samples[floor])
    top = peak(samples[build])
    memory = top / peak(samples[floor])

    def said(ok: bool) -> str:
        return "met" if ok else "NOT MET"

    if faster_and_under_mb is not None:
        parts = [f"CPU {cpu:.2f}x floor (< 1): {said(cpu < 1)}",
                 f"peak {top:.0f} MB (< {faster_and_under_mb:.0f} MB): {said(top < faster_and_under_mb)}"]
    else:
        parts = [f"CPU {cpu:.2f}x floor (<= {TARGET_CPU}): {said(cpu <= TARGET_CPU)}",
                 f"peak memory {memory:.2f}x (<= {TARGET_MEMORY}): {said(memory <= TARGET_MEMORY)}"]
    parts.append(f"bytes/card {bytes_ratio:.2f}x (<= {TARGET_BYTES}): {said(bytes_ratio <= TARGET_BYTES)}")
    return "targets: " + "; ".join(parts)


def header(runs: int, load_before: float, load_after: float) -> str:
    return (f"{runs} runs of each, alternating; medians; {os.cpu_count()} CPUs, Python "
            f"{sys.version.split()[0]}, load average {load_before:.1f} before, {load_after:.1f} after")
