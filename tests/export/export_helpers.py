"""Helpers of the export tests: the numbers of docs/print-services.md, and qpdf."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "print-services.md"


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


def qpdf_check(path: Path) -> None:
    """qpdf --check accepts the file (skipped, saying why, where qpdf is not installed)."""
    qpdf = shutil.which("qpdf")
    if qpdf is None:
        pytest.skip("qpdf is not installed (Debian package qpdf; .ci/run installs it)")
    result = subprocess.run([qpdf, "--check", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
