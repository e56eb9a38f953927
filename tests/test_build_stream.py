"""Sheets of pictures are rendered straight into their staged file: the manifest's hash is the
file's, a cached render gives the same bytes, and a write that fails, is interrupted or is killed
midway leaves no part of a PDF behind."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image as PILImage

from cli_in import invoke_in
from manifests import without_records

TEMP_SUFFIX = ".tmp"

SPEC = """\
game: artdeck
name: Art deck
card: {size: poker, bleed: 3mm}
layouts:
  card:
    elements:
      - {name: title, kind: text, text: "{title}", x: 4mm, y: 4mm, width: 55mm, height: 7mm, size: 4mm}
      - {name: art, kind: image, image: "art/{art}", x: 4mm, y: 15mm, width: 55mm, height: 45mm, fit: cover}
groups:
  - name: cards
    layout: card
    cards:
"""


@pytest.fixture
def deck(tmp_path) -> Path:
    """Twelve cards, each its own picture: PNGs in colour and grey, JPEGs, a PNG with alpha."""
    (tmp_path / "art").mkdir()
    rng = random.Random(3)
    rows = []
    for n in range(12):
        mode, ext = [("RGB", "png"), ("L", "png"), ("RGB", "jpg"), ("RGBA", "png")][n % 4]
        img = PILImage.new(mode, (60, 40))
        bands = len(img.getbands())
        img.putdata([tuple(rng.randrange(256) for _ in range(bands)) if bands > 1 else rng.randrange(256)
                     for _ in range(60 * 40)])
        img.save(tmp_path / "art" / f"a{n}.{ext}")
        rows.append(f"      - {{title: Card {n}, art: a{n}.{ext}}}\n")
    (tmp_path / "deck.yaml").write_text(SPEC + "".join(rows), encoding="utf-8")
    return tmp_path


def build(folder: Path, *args: str):
    return invoke_in(folder, "build", "deck.yaml", "--no-rulebooks", "--no-proof", *args)


def files(out: Path) -> dict[str, bytes]:
    """The output files, the manifest without the records that name this folder's inodes."""
    return {p.relative_to(out).as_posix(): without_records(p.read_bytes()) if p.name == "manifest.json" else p.read_bytes()
            for p in out.rglob("*") if p.is_file() and ".printkit-cache" not in p.parts}


def temporaries(out: Path) -> list[str]:
    return [name for name in files(out) if Path(name).name.startswith(".") and name.endswith(TEMP_SUFFIX)]


def listed_hashes_hold(out: Path) -> list[str]:
    listed = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]
    for item in listed:
        assert hashlib.sha256((out / item["path"]).read_bytes()).hexdigest() == item["sha256"], item["path"]
    return [item["path"] for item in listed]


def test_streamed_sheets_match_their_manifest_and_a_cached_render(deck, monkeypatch):
    from printkit.render import pdf

    assert build(deck, "--out", "out").exit_code == 0
    out = deck / "out"
    assert {"deck/sheets-a4.pdf", "deck/sheets-fronts-a4.pdf"} <= set(listed_hashes_hold(out))
    first = files(out)
    assert first["deck/sheets-a4.pdf"].startswith(b"%PDF-") and first["deck/sheets-a4.pdf"].endswith(b"%%EOF\n")
    # Built again from nothing but the render cache: nothing is drawn, the files are the same.
    streamed = []
    monkeypatch.setattr(pdf, "write_pages", lambda *a, **k: streamed.append(a))
    for name in first:
        (out / name).unlink()
    assert build(deck, "--out", "out").exit_code == 0
    assert streamed == [] and files(out) == first
    monkeypatch.undo()
    # And without a cache at all.
    assert build(deck, "--out", "fresh", "--no-cache").exit_code == 0
    assert files(deck / "fresh") == first


@pytest.mark.parametrize("earlier", [False, True])
def test_a_picture_that_fails_while_the_sheets_are_written_leaves_nothing(deck, monkeypatch, earlier):
    from printkit.errors import BuildError
    from printkit.render import pdf

    out = deck / "out"
    if earlier:  # on letter paper: the A4 sheets are new files, begun with their first byte
        assert build(deck, "--out", "out", "--paper", "letter").exit_code == 0
    before = files(out) if earlier else {}
    real = pdf._checked_bytes
    read = []
    seen_part = []

    def failing(path, digest):
        read.append(path)
        if len(read) == 4:  # in the duplex sheets, after some of it is in its temporary
            seen_part.extend(name for name in temporaries(out) if (out / name).stat().st_size > 0)
            raise BuildError(f"image {str(path)!r} cannot be read: gone")
        return real(path, digest)

    monkeypatch.setattr(pdf, "_checked_bytes", failing)
    result = build(deck, "--out", "out")
    assert result.exit_code == 1 and result.stderr.strip().endswith("cannot be read: gone")
    assert len(result.stderr.strip().splitlines()) == 1
    assert len(seen_part) == 1 and seen_part[0].startswith("deck/.sheets-a4.pdf.")  # part of a PDF
    if earlier:
        assert files(out) == before  # the earlier build's files and manifest, untouched
    else:
        assert not out.exists()  # not even the folder the build made


def test_an_interrupt_while_the_sheets_are_written_leaves_nothing(deck, monkeypatch):
    from printkit import outputs
    from printkit.pipeline.build import build as run_build, load_decks
    from printkit.pipeline.context import BuildOptions

    assert build(deck, "--out", "out", "--paper", "letter").exit_code == 0  # no A4 sheets to compare with
    out = deck / "out"
    before = files(out)
    real = outputs.StreamedFile.write
    begun = []

    def interrupted(self, data):
        if self.size > 20_000:  # well into the sheets PDF
            begun.extend(temporaries(out))
            raise KeyboardInterrupt
        return real(self, data)

    monkeypatch.setattr(outputs.StreamedFile, "write", interrupted)
    decks = load_decks([str(deck / "deck.yaml")])
    with pytest.raises(KeyboardInterrupt):
        run_build(decks, BuildOptions(out_dir=out, rulebooks=False, proof=False, cache=False))
    assert len(begun) == 1 and begun[0].startswith("deck/.sheets-a4.pdf.")
    assert files(out) == before


KILLED = """
import os, signal, sys
from printkit import outputs

real = outputs.StreamedFile.write

def write(self, data):
    real(self, data)
    if self.size > 20_000:  # killed in the middle of a PDF, with no chance to clean up
        os.kill(os.getpid(), signal.SIGKILL)

outputs.StreamedFile.write = write
from printkit.cli import main
main(sys.argv[1:])
"""


def test_a_build_killed_while_the_sheets_are_written_leaves_a_temporary_the_next_removes(deck):
    out = deck / "out"
    assert build(deck, "--out", "out", "--paper", "letter").exit_code == 0  # no A4 sheets to compare with
    before = files(out)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent.parent),
                                                         os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", KILLED, "build", "deck.yaml", "--no-rulebooks", "--no-proof",
                           "--out", "out", "--no-cache"],
                          cwd=deck, env=env, capture_output=True, timeout=120)
    assert proc.returncode == -9
    left = temporaries(out)
    assert len(left) == 1 and left[0].startswith("deck/.sheets-a4.pdf.")  # the PDF it was writing
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["unfinished"] == [left[0].rsplit(".", 2)[1]]  # recorded before it was made
    assert {name: data for name, data in files(out).items() if name not in left and name != "manifest.json"} \
        == {name: data for name, data in before.items() if name != "manifest.json"}
    assert build(deck, "--out", "out").exit_code == 0
    assert temporaries(out) == [] and set(files(out)) == set(before) | {
        "alignment-a4.pdf", "deck/sheets-a4.pdf", "deck/sheets-fronts-a4.pdf"}
    listed_hashes_hold(out)


def test_sheets_rendered_again_alike_leave_every_file_untouched(deck):
    out = deck / "out"
    assert build(deck, "--out", "out", "--no-cache").exit_code == 0
    for path in out.rglob("*"):
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    assert build(deck, "--out", "out", "--no-cache").exit_code == 0  # drawn and written again
    # The manifest alone is written again: touched files are no longer the ones it recorded.
    assert {p.stat().st_mtime_ns for p in out.rglob("*") if p.name != "manifest.json"} == {1_000_000_000}
    assert temporaries(out) == []


def test_the_same_deck_in_two_folders_builds_to_the_same_bytes(deck, tmp_path_factory):
    """Pictures and a deck's own font are known by their bytes, not where they lie: sheets,
    per-card files (PDFs and PNGs) and a CMYK print-shop export are byte for byte the same."""
    from printkit import fonts

    shutil.copy(fonts.SYMBOLS, deck / "own.ttf")
    spec = (deck / "deck.yaml").read_text(encoding="utf-8")
    (deck / "deck.yaml").write_text(spec.replace("card: {size: poker, bleed: 3mm}\n",
                                                 "card: {size: poker, bleed: 3mm}\nart: {font: own.ttf}\n"))
    outputs = []
    for place in ("first", "second"):
        folder = tmp_path_factory.mktemp(place) / "the deck"
        shutil.copytree(deck, folder)
        assert build(folder, "--per-card").exit_code == 0
        assert invoke_in(folder, "export", "deck.yaml", "--for", "print-shop", "--cmyk", "--out", "exports").exit_code == 0
        outputs.append({**files(folder / "output"), **{f"exports/{k}": v for k, v in files(folder / "exports").items()}})
    assert any(name.endswith(".png") for name in outputs[0]) and any(name.startswith("exports/") for name in outputs[0])
    assert outputs[0] == outputs[1]
