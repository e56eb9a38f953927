"""Paths no check foresaw — loops of links, names too long, a closed standard output, a FIFO among
the decks — are one line and exit 1 from `check` and `build` alike, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
LONG = "a" * 300


def printkit(cwd: Path, *args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


@pytest.fixture
def folder(tmp_path):
    shutil.copy(REPO / "decks" / "emberfall.yaml", tmp_path)
    shutil.copytree(REPO / "decks" / "emberfall", tmp_path / "emberfall")
    os.symlink(tmp_path / "loop-b", tmp_path / "loop-a")
    os.symlink(tmp_path / "loop-a", tmp_path / "loop-b")
    return tmp_path


def one_line_error(result: subprocess.CompletedProcess, said: str) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if said in line]
    assert len(errors) == 1, result.stderr


@pytest.mark.parametrize("out, said", [("loop-a", "a loop of symbolic links"), (LONG, "File name too long")])
def test_an_unusable_out_folder_is_one_line(folder, out, said):
    one_line_error(printkit(folder, "build", "emberfall.yaml", "--no-rulebooks", "--no-proof", "--out", out), said)


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("spec, said", [("loop-a", "loop-"), (f"{LONG}.yaml", "File name too long")])
def test_an_unusable_spec_path_is_one_line(folder, command, spec, said):
    (folder / "loop-a.yaml").symlink_to(folder / "loop-b.yaml")
    (folder / "loop-b.yaml").symlink_to(folder / "loop-a.yaml")
    name = "loop-a.yaml" if spec == "loop-a" else spec
    extra = ["--no-play"] if command == "check" else ["--no-rulebooks", "--no-proof"]
    one_line_error(printkit(folder, command, name, *extra), said)


def test_check_with_standard_output_closed_says_so_in_one_line(folder):
    result = subprocess.run([sys.executable, "-c", "import os, sys, runpy; os.close(1); sys.stdout = None; "
                             "sys.argv = ['printkit', 'check', 'emberfall.yaml', '--no-play']; "
                             "runpy.run_module('printkit', run_name='__main__')"],
                            cwd=folder, stderr=subprocess.PIPE, text=True, timeout=120)
    one_line_error(result, "standard output is closed")


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_folder_of_decks_with_a_fifo_and_a_loop_is_one_line(folder, command):
    decks = folder / "decks"
    decks.mkdir()
    shutil.move(folder / "emberfall.yaml", decks)
    shutil.move(folder / "emberfall", decks)
    os.mkfifo(decks / "fifo.yaml")
    (decks / "loop-a.yaml").symlink_to(decks / "loop-b.yaml")
    (decks / "loop-b.yaml").symlink_to(decks / "loop-a.yaml")
    extra = ["--no-play"] if command == "check" else ["--no-rulebooks", "--no-proof"]
    result = printkit(folder, command, *extra)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if "fifo.yaml" in line or "loop-" in line]
    assert errors and all(len(line) < 300 for line in errors)
