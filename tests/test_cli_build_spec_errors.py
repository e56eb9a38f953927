"""`printkit build` stops at the same spec line as `check` for mistakes found when a deck expands."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import main

BAD = Path(__file__).resolve().parent / "data" / "bad"
EXPECTED = json.loads((BAD / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["component_bigger_than_paper.yaml", "corner_radius_too_big.yaml",
                                  "count_by_misspelt.yaml", "variant_without_cards.yaml"])
def test_build_refuses_at_the_spec_line(name, monkeypatch, tmp_path):
    monkeypatch.chdir(BAD)
    want = EXPECTED[name]
    result = CliRunner().invoke(main, ["build", name, "--out", str(tmp_path / "out"), "--no-rulebooks"])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"{name}:{want['line']}:{want['column']}: {want['message']}"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
