"""printkit's command line run in-process from a folder, as a designer runs it there."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner, Result

from printkit.cli import main


def invoke_in(folder: Path, *args: str) -> Result:
    """``printkit ARGS`` run from ``folder`` (click's CliRunner does not change folders itself)."""
    here = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(here)


def line_of(spec: str, needle: str) -> int:
    """The number of the first line of ``spec`` holding ``needle`` (from 1, as errors count)."""
    return next(i for i, line in enumerate(spec.splitlines(), 1) if needle in line)


def assert_one_error(folder: Path, spec: str, needle: str, message: str, prefix: str = "") -> None:
    """``printkit check`` of ``spec`` (written as deck.yaml in ``folder``) fails with one line, at
    the line holding ``needle`` and saying ``message``; a card's error starts ``error: ``."""
    result = check_in(folder, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"{prefix}deck.yaml:{line_of(spec, needle)}:"), line
    assert message in line, line


def check_in(folder: Path, spec: str) -> Result:
    """``printkit check`` (no play) of ``spec``, written as deck.yaml in ``folder``."""
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    return invoke_in(folder, "check", "deck.yaml", "--no-play")


def place_of(spec: str, needle: str, word: str) -> str:
    """``deck.yaml:LINE:COLUMN:`` of ``word`` on the first line of ``spec`` holding ``needle``."""
    number = line_of(spec, needle)
    return f"deck.yaml:{number}:{spec.splitlines()[number - 1].index(word) + 1}:"
