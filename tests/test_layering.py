"""The floors of printkit point down: the spec needs nothing of the layout, and ``check`` and
``proof`` take a build's names without the build; the spec's paper-fit check and the imposition
agree on what fits."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import printkit
from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.layout.geometry import PAPER_SIZES_MM
from printkit.layout.imposition import impose
from printkit.paper import fits_on_paper

PACKAGE = Path(printkit.__file__).parent


def imported(path: Path) -> set[str]:
    """Every printkit module ``path`` imports, at its top or inside a function."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return {n for n in names if n.startswith("printkit")}


def test_the_spec_imports_nothing_of_the_layout():
    for path in sorted((PACKAGE / "spec").glob("*.py")):
        assert not {n for n in imported(path) if n.startswith(("printkit.layout", "printkit.render"))}, path


def test_reading_and_expanding_a_spec_loads_no_layout_module():
    code = ("import sys; from printkit.spec import load_spec, find_spec; from printkit.spec.expand import expand_all; "
            "list(expand_all(load_spec(find_spec('calc')))); "
            "print(sorted(m for m in sys.modules if m.startswith('printkit.layout')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=PACKAGE.parent)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("module", ["check.py", "proof.py"])
def test_check_and_proof_take_names_not_the_build(module):
    found = imported(PACKAGE / module)
    assert not {n for n in found if n.startswith(("printkit.pipeline.build", "printkit.pipeline.producers"))}
    assert any(n.startswith("printkit.pipeline.names") for n in found)


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_the_paper_fit_check_agrees_with_the_imposition(paper):
    for width in range(150, 300, 3):
        for height in range(150, 300, 7):
            try:
                impose(PAPER_SIZES_MM[paper], CardSize(float(width), float(height)))
                imposed = True
            except BuildError:
                imposed = False
            assert fits_on_paper(width, height, paper) == imposed, (width, height)
