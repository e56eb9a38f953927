"""A deck whose inputs are as they were is listed again without being laid out or drawn.

Every change the deck's files come from (its card data, a picture, the spec, an option, a file of
the deck removed or edited in the output folder, printkit's own code) builds it again, and what
such a build writes is what a cold build writes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from test_design_loop import run

from printkit.layout import templates

SPEC = "game: demo\nname: Loop\ngroups:\n  - name: cards\n    data: loop.csv\n"
ROWS = "id,text,copies\nalpha,First text,2\nbeta,Second text,1\n"
OTHER = "game: other\nname: Other\ngroups:\n  - name: cards\n    cards:\n      - {title: One, copies: 2}\n"


def outputs(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in out.rglob("*")
            if p.is_file() and ".printkit-cache" not in p.parts}


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "loop.yaml").write_text(SPEC, encoding="utf-8")
    (tmp_path / "loop.csv").write_text(ROWS, encoding="utf-8")
    result = run(tmp_path, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    return tmp_path


@pytest.fixture
def laid_out(monkeypatch) -> list[str]:
    """The cards laid out from now on (by their text)."""
    seen: list[str] = []
    real = templates.front
    monkeypatch.setattr(templates, "front", lambda card, deck: seen.append(str(card.get("text"))) or real(card, deck))
    return seen


def test_nothing_changed_lays_out_nothing_and_changes_nothing(folder, laid_out):
    before = outputs(folder / "out")
    result = run(folder, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert laid_out == []
    assert outputs(folder / "out") == before  # the manifest too: the same files, listed alike


@pytest.mark.parametrize("edit", ["data", "spec", "option", "output removed", "touched"])
def test_a_change_builds_the_deck_again_as_a_cold_build_would(folder, laid_out, edit):
    out = folder / "out"
    args = ["loop.yaml", "--per-card", "--no-rulebooks"]
    if edit == "data":
        (folder / "loop.csv").write_text(ROWS.replace("Second text", "Second text edited"), encoding="utf-8")
    elif edit == "spec":
        (folder / "loop.yaml").write_text(SPEC + "card: {size: tarot}\n", encoding="utf-8")
    elif edit == "option":
        args += ["--gap", "3mm"]
    elif edit == "output removed":
        (out / "loop" / "cards" / "001-cards-alpha.png").unlink()
    elif edit == "touched":  # written again with the same bytes: its time is all that tells
        (folder / "loop.csv").write_text(ROWS, encoding="utf-8")
    result = run(folder, *args, "--out", "out")
    assert result.exit_code == 0, result.output
    assert laid_out, "the deck was not built again"
    cold = run(folder, *args, "--no-cache", "--out", "cold")
    assert cold.exit_code == 0, cold.output
    assert outputs(out) == outputs(folder / "cold")


def test_an_output_someone_edited_is_refused_as_before(folder, laid_out):
    sheets = folder / "out" / "loop" / "sheets-a4.pdf"
    sheets.write_bytes(b"%PDF-1.4 someone's own")
    result = run(folder, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 1 and "it was changed since printkit wrote it" in result.output
    assert sheets.read_bytes() == b"%PDF-1.4 someone's own"


def test_a_deck_in_its_own_folder_is_kept_when_another_changes(tmp_path, laid_out):
    for name, spec in (("loop", SPEC), ("other", OTHER)):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.yaml").write_text(spec, encoding="utf-8")
    (tmp_path / "loop" / "loop.csv").write_text(ROWS, encoding="utf-8")
    args = ["loop/loop.yaml", "other/other.yaml", "--no-rulebooks", "--out", "out"]
    assert run(tmp_path, *args).exit_code == 0
    laid_out.clear()
    (tmp_path / "loop" / "loop.csv").write_text(ROWS.replace("First text", "First edited"), encoding="utf-8")
    result = run(tmp_path, *args)
    assert result.exit_code == 0, result.output
    assert laid_out and all(text != "None" for text in laid_out)  # loop's cards only: other's have no text
    assert "First edited" in laid_out


def test_warnings_are_said_again(tmp_path, laid_out):
    (tmp_path / "loop.yaml").write_text(SPEC, encoding="utf-8")
    (tmp_path / "loop.csv").write_text("id,text,texxt\nalpha,First,typo\n", encoding="utf-8")
    first = run(tmp_path, "loop.yaml", "--no-rulebooks", "--out", "out")
    second = run(tmp_path, "loop.yaml", "--no-rulebooks", "--out", "out")
    assert first.exit_code == second.exit_code == 0
    assert laid_out[-1:] == ["First"] and len(laid_out) == 1  # laid out by the first build only
    warned = [line for line in first.output.splitlines() if "warning" in line.lower()]
    assert warned and warned == [line for line in second.output.splitlines() if "warning" in line.lower()]


def test_a_damaged_record_is_ignored(folder, laid_out):
    out = folder / "out"
    before = outputs(out)
    for entry in (out / ".printkit-cache").rglob("*"):
        if entry.is_file() and len(entry.name) == 64:
            data = entry.read_bytes()
            entry.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    result = run(folder, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert laid_out  # built again, and to the same files
    assert outputs(out) == before


def test_a_new_printkit_builds_again(folder, laid_out, monkeypatch):
    import printkit
    from printkit import cache

    monkeypatch.setattr(printkit, "__version__", printkit.__version__ + "-next")
    cache.code_fingerprint.cache_clear()
    try:
        result = run(folder, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    finally:
        cache.code_fingerprint.cache_clear()
    assert result.exit_code == 0 and laid_out
