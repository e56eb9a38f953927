"""A command imports what it uses: ``--help`` no drawing library, a build no checker (its proof page
and rulebooks included) and no rule engine (when its spec sets no engine options and it writes no
rulebook), no rasteriser when nothing is rasterised, nothing only some decks need.

Each command runs in a fresh interpreter (a test process has imported everything already) and
reports the modules it ended with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from printkit.games import BUILTIN

REPO = Path(__file__).resolve().parent.parent
ENGINES = {game.engine for game in BUILTIN.values()}  # module names

RUN = """
import json, sys
from printkit.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def modules_after(*args: str, cwd: Path = REPO) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", RUN, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    line = next(line for line in proc.stderr.splitlines() if line.startswith("MODULES "))
    return set(json.loads(line[len("MODULES "):]))


def test_help_imports_no_drawing_library_and_no_engine():
    loaded = modules_after("--help")
    assert "click" in loaded  # the command ran
    for heavy in ("reportlab", "PIL", "pypdfium2", "yaml", "printkit.build", "printkit.check", "printkit.spec"):
        assert heavy not in loaded, heavy
    assert not loaded & ENGINES
    # Of printkit's own modules only the command line and its errors: every command imports its
    # machinery when it runs, so the help costs the interpreter, click and those two.
    assert {name for name in loaded if name.split(".")[0] == "printkit"} == {"printkit", "printkit.cli",
                                                                             "printkit.errors"}


def test_a_card_build_imports_neither_the_check_nor_an_engine_nor_the_rasteriser(tmp_path):
    loaded = modules_after("build", "calc", "--variant", "expert", "--no-rulebooks", "--no-proof", "--jobs", "1",
                           "--no-cache", "--out", str(tmp_path / "out"))
    assert (tmp_path / "out" / "calc" / "expert" / "sheets-a4.pdf").is_file()
    assert "printkit.check" not in loaded
    assert not loaded & ENGINES
    assert "pypdfium2" not in loaded and not any(name.startswith("printkit.report") for name in loaded)
    # Nor what only some decks need: colour management (the sRGB profile is a file), the OpenType
    # converter (its fonts are TrueType), the CSV reader and the data files' reading (it has no
    # data file), the pictures' checks and SVG drawing (it shows no picture), the table element
    # (it has none), the bound a check proves texts with (a build sets every text), difflib
    # (nothing is misspelt).
    for unused in ("PIL.ImageCms", "printkit.cff_fonts", "csv", "printkit.spec.data", "printkit.images",
                   "printkit.jpeg", "printkit.render.svg", "printkit.layout.table", "printkit.layout.fitbound",
                   "difflib"):
        assert unused not in loaded, unused


def test_a_default_build_imports_no_check(tmp_path):
    # The proof page compares the deck's counts with what its spec expects through the deck itself
    # (printkit.expected), as the build's own warning does: neither it nor the rulebooks need the check.
    loaded = modules_after("build", "calc", "--variant", "expert", "--jobs", "1", "--no-cache",
                           "--out", str(tmp_path / "out"))
    assert (tmp_path / "out" / "calc" / "expert" / "proof.html").is_file()
    assert "printkit.check" not in loaded


def test_engine_options_are_still_checked_by_a_build(tmp_path):
    spec = (REPO / "decks" / "calc.yaml").read_text(encoding="utf-8")
    (tmp_path / "calc.yaml").write_text("options: {colour: red}\n" + spec, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "printkit", "build", "calc.yaml", "--no-rulebooks", "--no-proof",
                           "--out", "out"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.startswith("calc.yaml:1:11: unknown Calc option(s) 'colour'"), proc.stderr


def test_printkits_own_layouts_do_not_look_among_the_installed_games(tmp_path):
    # A Calc deck's component with a role draws with generic.yaml, whose game: (generic) is no game of
    # printkit's: compiling it must not read the installed games' entry points (importlib.metadata).
    spec = (REPO / "decks" / "calc.yaml").read_text(encoding="utf-8")
    component = "\ncomponents:\n  - name: rules_card\n    role: reference\n    cards: [{title: Rules}]\n"
    (tmp_path / "calc.yaml").write_text(spec.replace("\ncomponents:\n", component, 1), encoding="utf-8")
    loaded = modules_after("build", "calc.yaml", "--no-rulebooks", "--no-proof", "--jobs", "1", "--no-cache",
                           "--out", "out", cwd=tmp_path)
    assert (tmp_path / "out" / "calc").is_dir()
    assert "importlib.metadata" not in loaded and "printkit.layout.templates.generic" in loaded
