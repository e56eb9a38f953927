"""Benchmark: the per-card PNGs of `printkit build clag --per-card`.

Two measurements:

1. In process, per distinct card of Clag (its 52 fronts, its player aids and its back), in CPU
   time: rendering the per-card PDF, making the PNG's image (rasterising that PDF with PDFium)
   and encoding the PNG. Medians over ``--runs`` passes, after one untimed pass (fonts
   registered, caches warm, as in a build after its first card).
2. As whole processes, alternately: ``printkit build clag --per-card --no-rulebooks`` and the same
   build without ``--per-card``, wall and CPU time; the CPU difference, divided by the per-card
   pairs written (PDF + PNG), is what a per-card file costs a build.

CPU time is reported beside wall time because it is what other work on the machine disturbs least.

    PYTHONPATH=. python benchmarks/png_speed.py [--runs 5]

At a revision that still drew PNGs with the Pillow painter (``printkit.render.png.render_face``),
the same script times that painter instead, so the two can be compared on one machine.
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

ROOT = Path(__file__).resolve().parent.parent


def in_process(runs: int) -> tuple[int, float, float, float]:
    """Distinct faces; median CPU ms per card for the PDF, the PNG's image and its encoding."""
    from printkit.pipeline.context import BuildContext, BuildOptions
    from printkit.pipeline.names import all_cards, card_key
    from printkit.pipeline.build import load_decks
    from printkit.layout import templates
    from printkit.layout.imposition import card_page
    from printkit.render import png
    from printkit.render.pdf import render_pages

    deck = load_decks([str(ROOT / "decks" / "clag.yaml")])[0]
    with tempfile.TemporaryDirectory() as tmp:
        faces = BuildContext(BuildOptions(out_dir=Path(tmp))).faces(deck)
        distinct = list({card_key(c): c for c in all_cards(deck) if not templates.is_page(c)}.values())
        jobs = [(faces.front(c), c.size) for c in distinct] + [(faces.back(distinct[0]), distinct[0].size)]

    if hasattr(png, "rasterise"):  # the PDF, rasterised by PDFium
        def image_of(face, size, pdf):
            return png.rasterise(pdf, size)
    else:  # the Pillow painter, drawing the ops again
        def image_of(face, size, pdf):
            return png.render_face(face, size)

    clock = time.process_time  # CPU time: what other processes on the machine disturb least
    samples: list[tuple[float, float, float]] = []
    for run in range(runs + 1):
        totals = [0.0, 0.0, 0.0]
        for face, size in jobs:
            t0 = clock()
            pdf = render_pages([card_page(face, size)])
            t1 = clock()
            image = image_of(face, size, pdf)
            t2 = clock()
            png.png_bytes(image)
            t3 = clock()
            totals[0] += t1 - t0
            totals[1] += t2 - t1
            totals[2] += t3 - t2
        if run:  # the first pass is a warm-up
            samples.append(tuple(t / len(jobs) * 1000 for t in totals))
    pdf_ms, image_ms, encode_ms = (statistics.median(s[i] for s in samples) for i in range(3))
    return len(jobs), pdf_ms, image_ms, encode_ms


def whole_build(runs: int) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of the build with and without --per-card; the pairs written."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        # One process: what a per-card file costs, not how it is shared out (jobs_speed.py).
        base = [sys.executable, "-m", "printkit", "build", "clag", "--no-rulebooks", "--jobs", "1"]
        commands = {"per-card": base + ["--per-card"], "plain": base}
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for run in range(runs + 1):
            for name, argv in commands.items():
                out = work / name
                shutil.rmtree(out, ignore_errors=True)
                start = time.perf_counter()
                proc = subprocess.Popen(argv + ["--out", str(out)], cwd=ROOT, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(proc.pid, 0)
                if os.waitstatus_to_exitcode(status):
                    raise SystemExit(f"{' '.join(argv)} failed")
                if run:  # the first round is a warm-up (byte-code cache)
                    times[name].append((time.perf_counter() - start, usage.ru_utime + usage.ru_stime))
        manifest = json.loads((work / "per-card" / "manifest.json").read_text())
        pairs = sum(1 for f in manifest["files"] if f["kind"] in ("card-png", "card-back-png"))
    result = {name: (statistics.median(t[0] for t in samples), statistics.median(t[1] for t in samples))
              for name, samples in times.items()}
    result["pairs"] = (pairs, pairs)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; medians of {args.runs} runs")
    cards, pdf_ms, image_ms, encode_ms = in_process(args.runs)
    print(f"in process, {cards} distinct faces, CPU ms per card: PDF {pdf_ms:.1f}, "
          f"PNG {image_ms + encode_ms:.1f} (image {image_ms:.1f} + encoding {encode_ms:.1f})")
    timings = whole_build(args.runs)
    pairs = timings.pop("pairs")[0]
    (wall, cpu), (plain_wall, plain_cpu) = timings["per-card"], timings["plain"]
    print(f"build clag --per-card --no-rulebooks: {wall:.2f} s wall, {cpu:.2f} s CPU; without --per-card "
          f"{plain_wall:.2f} s wall, {plain_cpu:.2f} s CPU; {pairs} PDF+PNG pairs: "
          f"{(cpu - plain_cpu) / pairs * 1000:.1f} ms CPU per pair")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
