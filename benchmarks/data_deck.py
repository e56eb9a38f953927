"""Benchmark: a 10,000-row CSV deck with a designer's layout, against the plain-reportlab floor.

Writes a deck into a temporary folder (:func:`write_deck`): ``cards.csv`` with 10,000 distinct
rows (id, title, cost, type, rules text of 15-30 words, an inline ``:fire:`` icon in about a third
of them, a flavour line in about two fifths) and ``deck.yaml`` with ``data: cards.csv`` and a
layout like a real card game's: a title band coloured by type, a bold title that shrinks to fit,
a cost badge (ellipse and centred number), an art window, a type line over a rule, rich rules text
with the inline icon (``icons: {fire: star}``), an italic flavour line (``when_has: flavor``) and
a thin frame; backs in one colour with a label.

Then times, as whole processes, alternately (``procbench.py``, as ``build_speed.py`` does)::

    printkit build deck.yaml --no-rulebooks --no-proof --out OUT
    python benchmarks/floor_data_deck.py cards.csv floor.pdf

and reports median wall and CPU time, peak memory and PDF bytes per card. The floor draws the
same faces and backs into one duplex sheets PDF; see its docstring for what it does less. The
proof page (a picture of each distinct face, up to 1,000) is left out, as the floor makes none.

    python benchmarks/data_deck.py [--runs 5] [--rows 10000] [--keep FOLDER]

``--keep FOLDER`` writes the deck there and leaves it (to profile a build by hand).
The targets (issue 14, one job): at most 1.5x the floor's CPU time, 1.3x its peak memory and 1.5x
its PDF bytes per card; the last line says whether each is met.
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

from procbench import child_env, entry_point, header, measure, table, verdict

HERE = Path(__file__).resolve().parent
ROWS = 10_000
SEED = 20240
BUILD = "printkit build deck.yaml --no-rulebooks --no-proof"
FLOOR = "floor (plain reportlab)"

TYPES = {"Creature": "#8c2f39", "Spell": "#3d5a80", "Artifact": "#6b705c", "Land": "#5b8e7d", "Relic": "#a77b2c"}

SPEC = """\
game: emberfall
name: Emberfall
card: {size: poker, bleed: 0.125in, safe: 3mm}
art:
  colors: {background: "#fbf8f1", ink: "#1d1d1f", %(colors)s}
  back: {color: "#2b2d42", label: EMBERFALL}
icons: {fire: star}
layouts:
  card:
    elements:
      - {name: band, kind: rect, frame: bleed, height: 17.175mm, fill: "{type}"}
      - {name: title, kind: text, text: "{title}", x: 4mm, y: 3mm, width: 44mm, height: 8mm, size: 5mm,
         min_size: 2.5mm, bold: true, color: "#ffffff", valign: middle}
      - {name: badge, kind: ellipse, x: -4mm, y: 3mm, width: 10mm, height: 10mm, fill: "#f2e8cf",
         stroke: ink, stroke_width: 0.4mm}
      - {name: cost, kind: text, text: "{cost}", x: -4mm, y: 3mm, width: 10mm, height: 10mm, size: 6mm,
         bold: true, align: center, valign: middle}
      - {name: art, kind: rect, x: 4mm, y: 15mm, width: 55.5mm, height: 30mm, fill: "#d9d4c7", radius: 1mm}
      - {name: type, kind: text, text: "{type}", x: 4mm, y: 46.5mm, width: 55.5mm, height: 5mm, size: 3mm}
      - {name: rule, kind: line, x: 4mm, y: 52mm, width: 55.5mm, height: 0mm, stroke: ink, stroke_width: 0.25mm}
      - {name: rules, kind: text, text: "{text}", x: 4mm, y: 54mm, width: 55.5mm, height: 22mm, size: 3.2mm,
         min_size: 2mm}
      - {name: flavor, kind: text, text: "{flavor}", when_has: flavor, x: 4mm, y: 77mm, width: 55.5mm,
         height: 7mm, size: 2.6mm, min_size: 2mm, italic: true}
      - {name: frame, kind: rect, x: 2mm, y: 2mm, width: 59.5mm, height: 84.9mm, stroke: ink,
         stroke_width: 0.3mm, radius: 2mm}
groups:
  - name: cards
    data: cards.csv
    layout: card
"""

ADJECTIVES = ("Ashen Burning Crimson Dusk Ember Frozen Gilded Hollow Iron Jade Kindled Lost Molten Night "
              "Obsidian Pale Quiet Radiant Scarlet Tidal Umber Veiled Wild Young Zealous Ancient Bitter "
              "Cinder Dread Elder Fallen Grim Howling Ivory Lunar Mossy Noble Old Proud Restless").split()
NOUNS = ("Drake Pup Warden Oracle Golem Wisp Sentinel Hound Witch Knight Serpent Shaman Titan Raven "
         "Lantern Blade Crown Totem Idol Forge Spire Grove Marsh Harbor Gate Tome Chalice Mask Banner "
         "Whisper Ember Storm Tide Root Thorn Veil Shard Echo Beacon").split()
PLACES = ("the North,the Ashlands,the Deep,Embers,the Vale,Dawn,the Hollow,the Marsh,Ruin,the Spire,"
          "the Tides,the Wilds,Kings,Stone,Smoke,the Pyre,the Moon,Thorns,Glass,the Forge").split(",")
RULE_WORDS = ("when this creature enters the battlefield deal damage to any target draw a card discard "
              "your opponent gains life until end of turn each player sacrifices an artifact return "
              "target spell to its owner's hand you may search your library for a land put it onto "
              "the field tapped then shuffle whenever another ally dies create a token with flying "
              "and haste at the beginning of your upkeep scry two counter target ability").split()
FLAVOR_WORDS = ("the old fires never truly die they wait beneath ash and memory for a careless "
                "hand to wake them again as the songs of the north foretold").split()


def rows(count: int, seed: int = SEED) -> list[dict[str, object]]:
    """``count`` distinct cards, the same for the same seed."""
    rng = random.Random(seed)
    titles = [f"{a} {n}" for a in ADJECTIVES for n in NOUNS]
    titles += [f"{a} {n} of {p}" for a in ADJECTIVES for n in NOUNS for p in PLACES]
    if count > len(titles):
        raise SystemExit(f"at most {len(titles)} distinct titles")
    chosen = rng.sample(titles, count)
    out = []
    for number, title in enumerate(chosen, start=1):
        words = [rng.choice(RULE_WORDS) for _ in range(rng.randint(15, 30))]
        words[0] = words[0].capitalize()
        if rng.random() < 0.35:
            at = rng.randint(2, len(words) - 1)
            words[at] = f"{rng.randint(1, 5)} :fire: {words[at]}"
        text = " ".join(words) + "."
        row: dict[str, object] = {"id": f"E{number:05d}", "title": title, "cost": rng.randint(0, 9),
                                  "type": rng.choice(list(TYPES)), "text": text}
        if rng.random() < 0.4:
            flavor = [rng.choice(FLAVOR_WORDS) for _ in range(rng.randint(5, 10))]
            row["flavor"] = " ".join(flavor).capitalize() + "."
        out.append(row)
    return out


def write_deck(folder: Path, count: int = ROWS) -> Path:
    """``cards.csv`` and ``deck.yaml`` in ``folder``; returns the spec's path."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "cards.csv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, ["id", "title", "cost", "type", "text", "flavor"])
        writer.writeheader()
        writer.writerows(rows(count))
    colors = ", ".join(f'{name}: "{value}"' for name, value in TYPES.items())
    spec = folder / "deck.yaml"
    spec.write_text(SPEC % {"colors": colors}, encoding="utf-8")
    return spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--keep", type=Path, help="write the deck into this folder, keep it and stop")
    args = parser.parse_args()
    if args.keep:
        print(write_deck(args.keep, args.rows))
        return
    printkit = entry_point()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        spec = write_deck(work / "deck", args.rows)
        env = child_env(work)
        out, floor_pdf = work / "out", work / "floor.pdf"
        commands = {
            BUILD: ([*printkit, "build", str(spec), "--no-rulebooks", "--no-proof", "--out", str(out)], out),
            FLOOR: ([sys.executable, str(HERE / "floor_data_deck.py"), str(spec.parent / "cards.csv"),
                     str(floor_pdf)], floor_pdf),
        }
        load_before = os.getloadavg()[0]
        samples = measure(commands, args.runs, work, env)
        load_after = os.getloadavg()[0]
        manifest = json.loads((out / "manifest.json").read_text())
        sheets = next(f for f in manifest["files"] if f["kind"] == "sheets")
        build_bytes = (out / sheets["path"]).stat().st_size
        printed = sheets["cards"]
        floor_bytes = floor_pdf.stat().st_size

    print(header(args.runs, load_before, load_after))
    print(f"deck: {args.rows} rows from cards.csv, one card each")
    print()
    print("\n".join(table(samples, FLOOR)))
    print()
    ratio = (build_bytes / printed) / (floor_bytes / args.rows)
    print(f"{sheets['path']}: {build_bytes} bytes for {printed} cards = {build_bytes / printed:.0f} bytes/card; "
          f"floor {floor_bytes / args.rows:.0f} bytes/card; ratio {ratio:.2f}x")
    print(verdict(samples, BUILD, FLOOR, ratio))


if __name__ == "__main__":
    main()
