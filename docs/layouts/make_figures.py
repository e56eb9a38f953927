"""Draws the pictures of docs/layouts.md with printkit, from the specs written in that page.

    python docs/layouts/make_figures.py [NAME ...]   (only those pictures; default: all)

Each ```yaml block of the page is a whole spec; it is saved beside the pictures it names, built
with ``printkit build --per-card`` and its card fronts put side by side into layouts/NAME.png.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
PAGE = HERE.parent / "layouts.md"
# Each block's picture, in the order the blocks appear in the page.
NAMES = ["text", "images", "shapes", "icons", "conditions", "extends", "frames", "anchors", "corners", "lists", "aids",
         "tables", "shorts"]
DPI_SCALE = 0.5  # the per-card PNGs are 300 DPI; the page shows them at 150


def specs(page: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", page, flags=re.S)


def main() -> None:
    blocks = specs(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) == len(NAMES), f"{len(blocks)} specs in the page, {len(NAMES)} names"
    wanted = set(sys.argv[1:]) or set(NAMES)
    for name, spec in zip(NAMES, blocks):
        if name not in wanted:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            shutil.copy(HERE / "picture.svg", folder / "picture.svg")
            (folder / "example.yaml").write_text(spec, encoding="utf-8")
            done = subprocess.run([sys.executable, "-m", "printkit", "build", "example.yaml", "--per-card",
                                   "--no-rulebooks", "--out", "out"], cwd=folder, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"{name}: {done.stderr.strip()}")
            fronts = sorted(p for p in (folder / "out" / "example" / "cards").glob("*.png")
                            if not p.name.startswith("back-"))
            images = [Image.open(p).convert("RGB") for p in fronts]
            images = [im.resize((round(im.width * DPI_SCALE), round(im.height * DPI_SCALE)), Image.LANCZOS)
                      for im in images]
            gap = 12
            sheet = Image.new("RGB", (sum(im.width for im in images) + gap * (len(images) - 1), images[0].height),
                              "#ffffff")
            x = 0
            for im in images:
                sheet.paste(im, (x, 0))
                x += im.width + gap
            sheet.save(HERE / f"{name}.png", optimize=True)
            print(f"{name}.png: {len(images)} card(s)")


if __name__ == "__main__":
    main()
