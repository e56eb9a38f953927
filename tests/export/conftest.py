"""Export folders made once per (deck, target) and shared by the tests that read them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from printkit.export import ExportOptions, export_deck
from printkit.spec import load_deck

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "print-services.md"
DECKS = {"calc-expert": ("calc", "expert"), "emberfall": ("emberfall", None)}


def doc_numbers() -> dict[str, dict]:
    """The rows of docs/print-services.md's table: profile -> size, trim, bleed (in), pixels, verified."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 7 or cells[0] in ("profile", "") or set(cells[0]) <= {"-"}:
            continue
        pixels = re.fullmatch(r"(\d+) x (\d+)", cells[4])
        bleed = re.fullmatch(r"[\d.]+", cells[3])
        rows[cells[0]] = {"size": cells[1], "bleed_in": float(cells[3]) if bleed else None,
                          "pixels": (int(pixels[1]), int(pixels[2])) if pixels else None,
                          "verified": cells[5] == "yes"}
    return rows


@pytest.fixture(scope="session")
def exports(tmp_path_factory):
    """A function (deck key, target) -> the export folder, made on first use."""
    made: dict[tuple[str, str], Path] = {}

    def get(key: str, target: str) -> Path:
        if (key, target) not in made:
            name, variant = DECKS[key]
            out = tmp_path_factory.mktemp(f"{key}-{target}") / "export"
            export_deck(load_deck(name, variant), ExportOptions(target=target, out_dir=out))
            made[key, target] = out
        return made[key, target]

    return get


def qpdf_check(path: Path) -> None:
    """qpdf --check accepts the file (skipped, saying why, where qpdf is not installed)."""
    qpdf = shutil.which("qpdf")
    if qpdf is None:
        pytest.skip("qpdf is not installed (Debian package qpdf; .ci/run installs it)")
    result = subprocess.run([qpdf, "--check", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
