"""The corpus of broken and hostile specs: each gives exactly one located line and exit code 1."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import main

BAD = Path(__file__).resolve().parent.parent / "data" / "bad"
EXPECTED = json.loads((BAD / "expected.json").read_text(encoding="utf-8"))


def test_corpus_is_complete():
    on_disk = {p.name for p in BAD.glob("*.yaml")}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_spec_gives_one_located_line(name, monkeypatch, tmp_path):
    monkeypatch.chdir(BAD)
    want = EXPECTED[name]
    result = CliRunner().invoke(main, ["check", "--no-play", name])
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines == [f"{name}:{want['line']}:{want['column']}: {want['message']}"]


def test_no_traceback_in_a_real_process():
    proc = subprocess.run(
        [sys.executable, "-m", "printkit", "check", "--no-play", "billion_laughs.yaml", "non_utf8.yaml"],
        cwd=BAD, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("billion_laughs.yaml:1:")


def test_usage_errors_keep_click_exit_code():
    result = CliRunner().invoke(main, ["check", "--no-such-option"])
    assert result.exit_code == 2
