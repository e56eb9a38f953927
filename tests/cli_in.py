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
