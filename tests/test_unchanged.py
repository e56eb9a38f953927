"""A deck whose inputs are as they were is listed again without being laid out or drawn, and
the same ``printkit build`` command again without even reading its spec.

Every change the deck's files come from (its card data, a picture, a font, the spec, an option, a
file of the deck removed or edited in the output folder, printkit's own code, reportlab's
settings) builds it again, and what such a build writes is what a cold build writes.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image
from manifests import without_records
from test_design_loop import run

from printkit import cache, fonts
from printkit.pipeline import build as building, faces as laying_out, replay as unchanged
from printkit.layout import templates

SPEC = ("game: demo\nname: Loop\nart: {font: own.ttf, background_image: paper.png}\n"
        "groups:\n  - name: cards\n    data: loop.csv\n")
ROWS = "id,text,copies\nalpha,First text,2\nbeta,Second text,1\n"
OTHER = "game: other\nname: Other\ngroups:\n  - name: cards\n    cards:\n      - {title: One, copies: 2}\n"


def outputs(out: Path) -> dict[str, str]:
    """Each output's sha256, the manifest's without the records that name this folder's inodes."""
    return {p.relative_to(out).as_posix(): hashlib.sha256(
        without_records(p.read_bytes()) if p.name == "manifest.json" else p.read_bytes()).hexdigest()
            for p in out.rglob("*") if p.is_file() and ".printkit-cache" not in p.parts}


def png(color: str) -> bytes:
    data = io.BytesIO()
    Image.new("RGB", (40, 56), color).save(data, "PNG")
    return data.getvalue()


def write_inputs(folder: Path, spec: str = SPEC, rows: str = ROWS) -> None:
    (folder / "loop.yaml").write_text(spec, encoding="utf-8")
    (folder / "loop.csv").write_text(rows, encoding="utf-8")
    shutil.copyfile(fonts.SYMBOLS, folder / "own.ttf")
    (folder / "paper.png").write_bytes(png("#f0e0c0"))


@pytest.fixture
def folder(tmp_path) -> Path:
    write_inputs(tmp_path)
    result = run(tmp_path, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    return tmp_path


@pytest.fixture
def laid_out(monkeypatch) -> list[str]:
    """The cards laid out from now on (by their text)."""
    seen: list[str] = []
    real = templates.front
    monkeypatch.setattr(templates, "front",
                        lambda card, deck, **kw: seen.append(str(card.get("text"))) or real(card, deck, **kw))
    return seen


@pytest.fixture
def built(monkeypatch) -> list[str]:
    """The decks built from now on (not found in their records), by name."""
    seen: list[str] = []
    real = laying_out.Faces.__init__
    monkeypatch.setattr(laying_out.Faces, "__init__",
                        lambda faces, deck, ctx, **kw: seen.append(deck.name) or real(faces, deck, ctx, **kw))
    return seen


@pytest.fixture
def read(monkeypatch) -> list[tuple]:
    """The decks read from their specs from now on (a command listed again reads none)."""
    seen: list[tuple] = []
    real = building.load_decks
    monkeypatch.setattr(building, "load_decks", lambda *args, **kw: seen.append(args) or real(*args, **kw))
    return seen


def test_nothing_changed_lays_out_nothing_and_changes_nothing(folder, laid_out, read):
    before = outputs(folder / "out")
    result = run(folder, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert laid_out == [] and read == []  # the command is listed again: no spec read
    assert outputs(folder / "out") == before  # the manifest too: the same files, listed alike


def test_a_command_listed_again_says_what_the_decks_records_say(folder, read, monkeypatch):
    args = ["loop.yaml", "--per-card", "--no-rulebooks", "--out", "out"]
    again = run(folder, *args)
    assert read == []
    monkeypatch.setattr(unchanged, "listed_again", lambda command: None)
    replayed = run(folder, *args)  # read, and each deck found in its record
    assert read and replayed.exit_code == again.exit_code == 0
    assert again.output == replayed.output and "001-cards-alpha.png" in again.output


OVERLONG = "id,text\nalpha," + " ".join(["Overlong"] * 400) + "\nbeta,Short\n"


def test_a_command_listed_again_repeats_its_warnings(tmp_path, read):
    write_inputs(tmp_path, rows=OVERLONG)
    first, second = (run(tmp_path, "loop.yaml", "--no-rulebooks", "--out", "out") for _ in range(2))
    assert len(read) == 1 and first.exit_code == second.exit_code == 0
    warned = [line for line in first.output.splitlines() if line.startswith("warning: ")]
    assert warned and "does not fit" in warned[0]
    # The same lines; the alignment test comes last, as when each deck is found in its record.
    assert second.output.splitlines()[:len(warned)] == warned
    assert sorted(second.output.splitlines()) == sorted(first.output.splitlines())


@pytest.mark.parametrize("edit", ["data", "spec", "option", "output removed", "touched", "picture", "font",
                                  "manifest rewritten", "reportlab setting", "printkit's code"])
def test_a_change_builds_the_deck_again_as_a_cold_build_would(folder, laid_out, read, built, edit, monkeypatch):
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
    elif edit == "picture":
        (folder / "paper.png").write_bytes(png("#c0e0f0"))
    elif edit == "font":  # another font under the same name: every width changes
        shutil.copyfile(fonts.SYMBOLS_BOLD, folder / "own.ttf")
    elif edit == "manifest rewritten":  # the same files listed, but not as printkit writes it
        listed = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        (out / "manifest.json").write_text(json.dumps(listed), encoding="utf-8")
    elif edit == "reportlab setting":  # reportlab reads RL_* variables: they may change a PDF's bytes
        monkeypatch.setenv("RL_printkitTestSetting", "1")
        cache.code_fingerprint.cache_clear()
    elif edit == "printkit's code":
        monkeypatch.setattr(cache, "_package_files", lambda root, real=cache._package_files: real(root) + [
            ("layout/edited.py", "1 2 3")])
        cache.code_fingerprint.cache_clear()
    try:
        result = run(folder, *args, "--out", "out")
    finally:
        cache.code_fingerprint.cache_clear()
    assert result.exit_code == 0, result.output
    assert read, "the spec was not read again"
    if edit == "manifest rewritten":  # the deck's record still holds: only the manifest is written again
        assert built == []
    else:
        assert built, "the deck was not built again"
        assert laid_out
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
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "other.yaml").write_text(OTHER, encoding="utf-8")
    (tmp_path / "loop").mkdir()
    write_inputs(tmp_path / "loop")
    args = ["loop/loop.yaml", "other/other.yaml", "--no-rulebooks", "--out", "out"]
    assert run(tmp_path, *args).exit_code == 0
    laid_out.clear()
    (tmp_path / "loop" / "loop.csv").write_text(ROWS.replace("First text", "First edited"), encoding="utf-8")
    result = run(tmp_path, *args)
    assert result.exit_code == 0, result.output
    assert laid_out and all(text != "None" for text in laid_out)  # loop's cards only: other's have no text
    assert "First edited" in laid_out


def test_warnings_are_said_again(tmp_path, laid_out, monkeypatch):
    write_inputs(tmp_path, rows=OVERLONG)
    monkeypatch.setattr(unchanged, "listed_again", lambda command: None)  # each deck from its record
    first = run(tmp_path, "loop.yaml", "--no-rulebooks", "--out", "out")
    second = run(tmp_path, "loop.yaml", "--no-rulebooks", "--out", "out")
    assert first.exit_code == second.exit_code == 0
    assert len(laid_out) == 2  # laid out by the first build only
    warned = [line for line in first.output.splitlines() if line.startswith("warning: ")]
    assert warned and warned == [line for line in second.output.splitlines() if line.startswith("warning: ")]


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


LAYOUT_SPEC = ("game: demo\nname: Loop\nlayouts:\n  face:\n    elements:\n"
               "      - {kind: rect, x: 0, y: 0, width: 100%, height: 100%, fill: \"#112233\"}\n"
               "      - {kind: text, text: \"{text}\", x: 0, y: 0, width: 100%, height: 20mm}\n"
               "groups:\n  - name: cards\n    data: loop.csv\n    layout: face\n")


def test_inputs_written_just_before_a_build_are_not_vouched_for(tmp_path, laid_out, read, built, monkeypatch):
    # As if every file had been written a moment ago: within one tick of the file system's clock a
    # second write could keep a file's times, so no build may be kept on their word.
    monkeypatch.setattr(unchanged, "SETTLE_NS", 3600 * 10**9)
    monkeypatch.setattr(unchanged, "SETTLE_COARSE_NS", 3600 * 10**9)
    write_inputs(tmp_path)
    for _ in range(2):
        assert run(tmp_path, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out").exit_code == 0
    assert len(read) == 2 and built == ["Loop"] * 2


def test_a_spec_changed_while_it_is_read_is_read_again(tmp_path, laid_out, read, monkeypatch):
    """An edit that lands after the spec was read but before its files' times were taken (one that
    the deck's description does not show: a layout's colour) is not taken for the state built."""
    import printkit.spec

    monkeypatch.setattr(unchanged, "SETTLE_NS", 10**6)  # the test's own writes settle at once
    write_inputs(tmp_path, spec=LAYOUT_SPEC)
    args = ["loop.yaml", "--per-card", "--no-rulebooks", "--out", "out"]
    time.sleep(0.01)
    real = printkit.spec.load_spec

    def read_then_edit(path):
        loaded = real(path)
        edited = LAYOUT_SPEC.replace("#112233", "#445566")
        if (tmp_path / "loop.yaml").read_text(encoding="utf-8") != edited:  # once (the proof reads it too)
            (tmp_path / "loop.yaml").write_text(edited, encoding="utf-8")
        return loaded

    monkeypatch.setattr(printkit.spec, "load_spec", read_then_edit)
    assert run(tmp_path, *args).exit_code == 0  # drawn in #112233
    monkeypatch.setattr(printkit.spec, "load_spec", real)
    time.sleep(0.01)
    laid_out.clear()
    result = run(tmp_path, *args)
    assert result.exit_code == 0, result.output
    assert len(read) == 2 and laid_out, "the edited spec was not read and laid out again"
    cold = run(tmp_path, *args[:-1], "cold", "--no-cache")
    assert cold.exit_code == 0 and outputs(tmp_path / "out") == outputs(tmp_path / "cold")


def test_data_beside_a_linked_spec_is_looked_at(tmp_path, laid_out, read):
    """A spec reached through a link reads its data beside the link: that folder is looked at."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "project").mkdir()
    write_inputs(tmp_path / "project")
    (tmp_path / "project" / "loop.yaml").replace(tmp_path / "elsewhere" / "loop.yaml")
    (tmp_path / "project" / "loop.yaml").symlink_to(tmp_path / "elsewhere" / "loop.yaml")
    args = ["project/loop.yaml", "--per-card", "--no-rulebooks"]
    assert run(tmp_path, *args, "--out", "out").exit_code == 0
    (tmp_path / "project" / "loop.csv").write_text(ROWS.replace("Second text", "Second edit"), encoding="utf-8")
    laid_out.clear()
    assert run(tmp_path, *args, "--out", "out").exit_code == 0
    assert "Second edit" in laid_out
    assert run(tmp_path, *args, "--no-cache", "--out", "cold").exit_code == 0
    assert outputs(tmp_path / "out") == outputs(tmp_path / "cold")


def test_a_command_is_not_listed_again_while_another_build_writes_its_folder(folder, read):
    from printkit.outputs import exclusive

    with exclusive(folder / "out"):  # as a build running in another process holds it
        result = run(folder, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 1 and "another printkit build is writing" in result.output
    assert read  # the build went as far as it always did: the command was not listed from its record


def test_a_stopped_builds_manifest_temporary_is_cleared_by_a_build(folder, read):
    out = folder / "out"
    listed = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    from printkit.ownership import new_build_id

    killed = new_build_id()
    stray = out / f".manifest.json.{killed}.tmp"  # a build stopped while recording its id
    stray.write_text(json.dumps({**listed, "unfinished": [killed]}), encoding="utf-8")
    result = run(folder, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert read and not stray.exists()


def test_a_build_of_every_spec_reads_those_it_found_once_each_and_is_listed_again(tmp_path, read):
    """No deck named: the specs in ./decks, a spec linked under two names built once (by the name
    first found), the same command listed again, and a spec added since built by the next one."""
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "one.yaml").write_text(OTHER, encoding="utf-8")
    (decks / "same.yaml").symlink_to(decks / "one.yaml")
    args = ["--no-rulebooks", "--no-proof", "--out", "out"]
    first = run(tmp_path, *args)
    assert first.exit_code == 0, first.output
    assert first.stderr.startswith("building the specs in ./decks\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir() and not p.name.startswith(".")) == ["one"]
    read.clear()
    again = run(tmp_path, *args)
    assert again.exit_code == 0 and read == [] and again.stdout == first.stdout
    (decks / "two.yaml").write_text(OTHER.replace("Other", "Two"), encoding="utf-8")
    added = run(tmp_path, *args)
    assert added.exit_code == 0, added.output
    assert read and (tmp_path / "out" / "two").is_dir() and not (tmp_path / "out" / "same").exists()
