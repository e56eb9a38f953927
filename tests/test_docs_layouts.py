"""Every example spec in docs/layouts.md checks and builds, as the page says it does."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cli_in import invoke_in

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "layouts.md"
SPECS = re.findall(r"```yaml\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.S)


def test_the_page_has_its_examples_and_their_pictures():
    pictures = re.findall(r"\]\((layouts/[a-z]+\.png)\)", PAGE.read_text(encoding="utf-8"))
    assert len(SPECS) == len(pictures) == 13  # one picture of each example, drawn from it
    for picture in pictures:
        assert (REPO / "docs" / picture).is_file(), picture


@pytest.mark.parametrize("spec", SPECS, ids=[re.search(r"name: (\w+)", s)[1] for s in SPECS])
def test_each_example_checks_without_a_warning_and_builds(spec, tmp_path):
    shutil.copy(REPO / "docs" / "layouts" / "picture.svg", tmp_path / "picture.svg")
    (tmp_path / "example.yaml").write_text(spec, encoding="utf-8")
    checked = invoke_in(tmp_path, "check", "example.yaml", "--no-play")
    built = invoke_in(tmp_path, "build", "example.yaml", "--no-rulebooks", "--out", "out")
    assert checked.exit_code == 0 and "warning" not in checked.output, checked.output
    assert built.exit_code == 0 and built.stderr == "", built.output
