"""Benchmark: image-heavy decks (300 cards, each with its own picture, or all sharing one),
against the plain-reportlab floor (``floor_art_decks.py``).

Writes three decks into a temporary folder (:func:`write_deck`), each ``deck.yaml`` with
``data: cards.csv`` and a layout of a title band, the card's picture (an ``image`` element
``art/{art}``, fitted to cover a 55.5 x 45 mm window) and a frame; backs in one colour:

- ``jpeg``: 300 cards, each its own 1000 x 1400 JPEG (quality 90);
- ``png``: 300 cards, each its own 1000 x 1400 RGB PNG;
- ``shared``: 300 cards all drawing one 1000 x 1400 PNG;
- ``photo``: 300 cards, each its own 1500 x 2100 JPEG (quality 95), about 380 KB like a phone's
  picture cropped for a card.

Every picture is made with Pillow from a seed: a smooth two-colour gradient with a few dozen
shapes and some fine noise, so it compresses about as well as painted card art does (the PNGs
take about 1.5 MB each, the JPEGs about 0.3 MB).

Then times, as whole processes, alternately (``procbench.py``, as ``data_deck.py`` does)::

    printkit build deck.yaml --no-rulebooks --no-proof --out OUT
    python benchmarks/floor_art_decks.py deck-folder floor.pdf

and reports median wall and CPU time, peak memory (max RSS) and PDF bytes per card of the duplex
sheets, and whether issue 14's targets are met (at most 1.5x the floor's CPU time, 1.3x its peak
memory, 1.5x its bytes per card; the deck of own PNGs faster than the floor and under 300 MB).
Each build writes into a fresh output folder. For the decks named by ``--rebuild`` (the photo
deck unless told) it then times a rebuild as well, alternately with the floor: one card's title
changed in ``cards.csv`` before each run (put back afterwards), built into the same folder as
the run before (after one untimed build), against the same CPU target.
Compare CPU time and peak memory: wall time follows the machine's load.

    python benchmarks/art_decks.py [--runs 3] [--cards 300] [--decks jpeg,png,shared] [--rebuild photo]
                                   [--keep FOLDER | --use FOLDER]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import sys
import tempfile
from pathlib import Path

from procbench import TARGET_CPU, child_env, entry_point, header, measure, median_cpu, run, table, verdict

HERE = Path(__file__).resolve().parent
CARDS = 300
SIZE = (1000, 1400)
DECKS = ("jpeg", "png", "shared", "photo")
PHOTO = (1500, 2100)
FLOOR = "floor (plain reportlab)"

SPEC = """\
game: artdeck
name: Art deck
card: {size: poker, bleed: 0.125in, safe: 3mm}
art:
  colors: {background: "#fbf8f1", ink: "#1d1d1f"}
  back: {color: "#2b2d42", label: ART}
layouts:
  card:
    elements:
      - {name: band, kind: rect, frame: bleed, height: 14mm, fill: "#8c2f39"}
      - {name: title, kind: text, text: "{title}", x: 4mm, y: 4mm, width: 55.5mm, height: 7mm, size: 4.5mm,
         bold: true, color: "#ffffff", valign: middle}
      - {name: art, kind: image, image: "art/{art}", x: 4mm, y: 15mm, width: 55.5mm, height: 45mm, fit: cover}
      - {name: frame, kind: rect, x: 2mm, y: 2mm, width: 59.5mm, height: 84.9mm, stroke: ink,
         stroke_width: 0.3mm, radius: 2mm}
groups:
  - name: cards
    data: cards.csv
    layout: card
"""


def picture(seed: int, size: tuple[int, int] = SIZE):
    """A picture like painted art: a gradient, shapes, fine noise; the same for the same seed."""
    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    w, h = size
    top = tuple(rng.randrange(256) for _ in range(3))
    bottom = tuple(rng.randrange(256) for _ in range(3))
    column = Image.new("RGB", (1, h))
    column.putdata([tuple(top[c] + (bottom[c] - top[c]) * y // h for c in range(3)) for y in range(h)])
    img = column.resize((w, h))
    draw = ImageDraw.Draw(img)
    for _ in range(40):
        x0, y0 = rng.randrange(w), rng.randrange(h)
        x1, y1 = x0 + rng.randrange(40, 400), y0 + rng.randrange(40, 400)
        colour = tuple(rng.randrange(256) for _ in range(3))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)((x0, y0, x1, y1), fill=colour)
    noise = Image.effect_noise((w, h), 12).convert("RGB")  # grain, as a painting's texture has
    return Image.blend(img, noise, 0.08)


def write_deck(folder: Path, kind: str, count: int = CARDS) -> Path:
    """``deck.yaml``, ``cards.csv`` and ``art/`` in ``folder``; returns the spec's path."""
    art = folder / "art"
    art.mkdir(parents=True, exist_ok=True)
    rows = []
    for number in range(1, count + 1):
        card_id = f"A{number:03d}"
        if kind == "shared":
            name = "shared.png"
            if number == 1:
                picture(0).save(art / name)
        elif kind == "photo":
            name = f"{card_id}.jpg"
            picture(number, PHOTO).save(art / name, quality=95)
        else:
            name = f"{card_id}.{'jpg' if kind == 'jpeg' else 'png'}"
            img = picture(number)
            img.save(art / name, **({"quality": 90} if kind == "jpeg" else {}))
        rows.append({"id": card_id, "title": f"Card {number}", "art": name})
    with open(folder / "cards.csv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, ["id", "title", "art"])
        writer.writeheader()
        writer.writerows(rows)
    spec = folder / "deck.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    return spec


def rebuilt(build: list[str], floor: list[str], spec: Path, runs: int, work: Path, env: dict[str, str]) -> dict:
    """Samples of ``build`` rebuilding into its output folder after one card's title changed,
    alternated with ``floor`` (which writes everything every time)."""
    csv_path = spec.parent / "cards.csv"
    original = csv_path.read_text(encoding="utf-8")
    kept = work / "not-removed"  # run() removes the output it is given: not the folder rebuilt into
    samples = {"rebuild": [], FLOOR: []}
    try:
        run(build, work, env, kept)  # untimed: the folder's first build, its render cache
        for n in range(runs):
            csv_path.write_text(original.replace(",Card 1,", f",Card 1 (edit {n}),", 1), encoding="utf-8")
            samples["rebuild"].append(run(build, work, env, kept))
            samples[FLOOR].append(run(floor, work, env, work / "floor-rebuild.pdf"))
    finally:
        csv_path.write_text(original, encoding="utf-8")
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cards", type=int, default=CARDS)
    parser.add_argument("--decks", default=",".join(DECKS), help="which decks, comma-separated")
    parser.add_argument("--rebuild", default="photo", help="decks also timed rebuilding, comma-separated")
    parser.add_argument("--keep", type=Path, help="write the decks into this folder, keep them and stop")
    parser.add_argument("--use", type=Path, help="time the decks --keep wrote into this folder (making "
                        "the 300 pictures takes minutes)")
    args = parser.parse_args()
    kinds = [k for k in args.decks.split(",") if k]
    if args.keep:
        for kind in kinds:
            print(write_deck(args.keep / kind, kind, args.cards))
        return
    printkit = entry_point()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = child_env(work)
        for kind in kinds:
            spec = args.use / kind / "deck.yaml" if args.use else write_deck(work / kind, kind, args.cards)
            out, floor_pdf = work / f"out-{kind}", work / f"floor-{kind}.pdf"
            build = f"printkit build ({kind}) --no-rulebooks --no-proof"
            commands = {
                build: ([*printkit, "build", str(spec), "--no-rulebooks", "--no-proof", "--out", str(out)], out),
                FLOOR: ([sys.executable, str(HERE / "floor_art_decks.py"), str(spec.parent), str(floor_pdf)],
                        floor_pdf),
            }
            load_before = os.getloadavg()[0]
            samples = measure(commands, args.runs, work, env)
            load_after = os.getloadavg()[0]
            manifest = json.loads((out / "manifest.json").read_text())
            sheets = next(f for f in manifest["files"] if f["kind"] == "sheets")
            build_bytes = (out / sheets["path"]).stat().st_size
            floor_bytes = floor_pdf.stat().st_size
            print(f"## {kind}: {args.cards} cards; " + header(args.runs, load_before, load_after))
            print()
            print("\n".join(table(samples, FLOOR)))
            print()
            ratio = (build_bytes / sheets["cards"]) / (floor_bytes / args.cards)
            print(f"{sheets['path']}: {build_bytes / sheets['cards']:.0f} bytes/card; floor "
                  f"{floor_bytes / args.cards:.0f} bytes/card")
            # Each own PNG: the floor decodes and compresses them again, so the target is to be faster than it.
            print("fresh output folder: " + verdict(samples, build, FLOOR, ratio,
                                                    faster_and_under_mb=300 if kind == "png" else None),
                  flush=True)
            print()
            if kind in args.rebuild.split(","):
                load_before = os.getloadavg()[0]
                again = rebuilt(commands[build][0], commands[FLOOR][0], spec, args.runs, work, env)
                load_after = os.getloadavg()[0]
                print(f"## {kind}: rebuild after one card's title changed, same folder; "
                      + header(args.runs, load_before, load_after))
                print()
                print("\n".join(table(again, FLOOR)))
                print()
                cpu = median_cpu(again["rebuild"]) / median_cpu(again[FLOOR])
                print(f"rebuild: CPU {cpu:.2f}x floor (<= {TARGET_CPU}): {'met' if cpu <= TARGET_CPU else 'NOT MET'}",
                      flush=True)
                print()


if __name__ == "__main__":
    main()
