"""printkit replaces a file at an output path only when it wrote it and nobody changed it since.

Whatever else sits there (a user's file, printkit's file edited afterwards, a ``manifest.json``
printkit did not write) refuses the whole build before any rename: one line, exit 1, and the
output folder exactly as it was.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import main
from printkit.errors import BuildError
from printkit.outputs import Staging, sha256_hex

from cli_in import invoke_in

TINY = (Path(__file__).resolve().parent / "data" / "tiny.yaml").read_text(encoding="utf-8")  # three plain cards
OTHER = TINY.replace("name: Tiny", "name: Other")
ADVICE = "; move it away or use another --out"


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry below ``folder``: file contents, link targets, folders."""
    found: dict[str, bytes | str] = {}
    for path in folder.rglob("*"):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[name] = f"-> {os.readlink(path)}"
        elif path.is_dir():
            found[name] = "folder"
        else:
            found[name] = path.read_bytes()
    return found


def build(cwd: Path, *args: str):
    return invoke_in(cwd, "build", "tiny.yaml", "--no-rulebooks", "--out", "out", *args)


def refusal(result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    [line] = result.stderr.strip().splitlines()
    return line


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture
def spec(tmp_path) -> Path:
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    return tmp_path


@pytest.fixture
def built(spec) -> Path:
    """``spec`` with a complete earlier build in ``out/``."""
    result = build(spec, "--per-card")
    assert result.exit_code == 0, result.output
    return spec


def test_a_users_file_at_an_output_path_is_refused_and_nothing_written(spec):
    out = spec / "out"
    (out / "tiny").mkdir(parents=True)
    (out / "tiny" / "sheets-a4.pdf").write_text("USER")
    line = refusal(build(spec, "--per-card"))
    target = (out / "tiny" / "sheets-a4.pdf").resolve()
    assert line == f"error: refusing to replace '{target}': printkit did not write it{ADVICE}"
    # No manifest, no temporaries, no folders for the per-card files: only the user's file.
    assert snapshot(out) == {"tiny": "folder", "tiny/sheets-a4.pdf": b"USER"}


def test_a_users_files_at_several_output_paths_are_counted(spec):
    out = spec / "out"
    (out / "tiny").mkdir(parents=True)
    for name in ("tiny/sheets-a4.pdf", "tiny/sheets-fronts-a4.pdf", "alignment-a4.pdf"):
        (out / name).write_text("USER")
    before = snapshot(out)
    line = refusal(build(spec))
    assert re.fullmatch(r"error: refusing to replace '[^']+' \(and 2 more\): printkit did not write it; .*", line)
    assert snapshot(out) == before


def test_printkit_files_without_their_manifest_are_not_replaced(built):
    """No manifest (deleted, or never there) means printkit wrote nothing here."""
    out = built / "out"
    (out / "manifest.json").unlink()
    before = snapshot(out)
    line = refusal(build(built, "--per-card", "--back-offset", "1,0"))
    assert "printkit did not write it" in line
    assert snapshot(out) == before
    assert build(built, "--per-card").exit_code == 0  # the same bytes again: nothing is replaced
    outputs = {path: data for path, data in snapshot(out).items() if not path.startswith(".printkit-cache")}
    # (the cache's note of this command changes: its manifest no longer proves the files printkit's)
    assert outputs == {**{path: data for path, data in before.items() if not path.startswith(".printkit-cache")},
                       "manifest.json": (out / "manifest.json").read_bytes()}
    assert all("written" not in item for item in json.loads((out / "manifest.json").read_bytes())["files"])


def test_a_users_file_where_this_build_adds_a_file_is_refused(built):
    """The manifest lists the earlier build's files only, not a file the user put at a new path."""
    out = built / "out"
    (out / "letter.pdf").write_text("not an output yet")
    (out / "alignment-letter.pdf").write_text("USER")
    before = snapshot(out)
    line = refusal(build(built, "--paper", "letter"))
    assert line == (f"error: refusing to replace '{(out / 'alignment-letter.pdf').resolve()}': "
                    f"printkit did not write it{ADVICE}")
    assert snapshot(out) == before


def test_a_printkit_file_changed_since_is_refused(built):
    out = built / "out"
    sheet = out / "tiny" / "sheets-a4.pdf"
    sheet.write_bytes(sheet.read_bytes() + b"% the user's annotation\n")
    before = snapshot(out)
    line = refusal(build(built, "--per-card", "--back-offset", "1,0"))
    assert line == f"error: refusing to replace '{sheet.resolve()}': it was changed since printkit wrote it{ADVICE}"
    assert snapshot(out) == before


def test_a_rebuild_hashes_each_earlier_file_once(built, monkeypatch):
    from printkit import outputs
    from printkit.pipeline import manifest as manifest_module

    hashed = []
    real = outputs.current_sha256

    def counted(path):
        hashed.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(outputs, "current_sha256", counted)
    monkeypatch.setattr(manifest_module, "current_sha256", counted)
    result = build(built, "--per-card", "--back-offset", "1,0")  # every sheet changes
    assert result.exit_code == 0, result.output
    assert hashed.count("sheets-a4.pdf") == 1  # listed as printkit's, and replaced, on one hash


def test_a_printkit_file_replaced_by_a_link_is_refused(built):
    out = built / "out"
    sheet = out / "tiny" / "sheets-a4.pdf"
    sheet.rename(out / "tiny" / "kept.pdf")
    sheet.symlink_to("kept.pdf")  # inside the folder, so only ownership can refuse it
    before = snapshot(out)
    line = refusal(build(built, "--back-offset", "1,0"))
    assert line == f"error: refusing to replace '{sheet.parent.resolve() / sheet.name}': it is a link printkit did not make{ADVICE}"
    assert snapshot(out) == before  # neither the link nor the file it names was written


def test_rebuilds_replace_printkit_files_and_leave_the_users_alone(built):
    out = built / "out"
    mine = {"notes.txt": b"a note", "tiny/extra.pdf": b"%PDF not printkit's", "tiny/cards/mine.png": b"png?"}
    for name, data in mine.items():
        (out / name).write_bytes(data)
    before = snapshot(out)
    result = build(built, "--per-card", "--back-offset", "1,0")
    assert result.exit_code == 0, result.output
    after = snapshot(out)
    assert after["tiny/sheets-a4.pdf"] != before["tiny/sheets-a4.pdf"]  # printkit's file replaced
    for name, data in mine.items():
        assert after[name] == data
    listed = {item["path"]: item["sha256"] for item in manifest(out)["files"]}
    assert not set(listed) & set(mine)
    assert all(sha256_hex((out / path).read_bytes()) == sha for path, sha in listed.items())
    assert "replacing" not in manifest(out)
    assert build(built, "--per-card", "--back-offset", "1,0").exit_code == 0  # and again: unchanged
    assert snapshot(out) == after


@pytest.mark.parametrize("text", ["USER", "", "[1, 2]", '{"files": [{"path": "x"}]}', '{"files": [1]}',
                                  '{"files": [], "replacing": [{"new": null}]}', "\ufeff{", "\xff\xfe"])
def test_a_manifest_printkit_did_not_write_is_refused(spec, text):
    out = spec / "out"
    out.mkdir()
    (out / "manifest.json").write_bytes(text.encode("latin-1" if text == "\xff\xfe" else "utf-8"))
    before = snapshot(out)
    line = refusal(build(spec))
    assert line == (f"error: refusing to replace '{(out / 'manifest.json').resolve()}': "
                    f"it is not a manifest printkit wrote{ADVICE}")
    assert snapshot(out) == before


def test_a_folder_or_link_named_manifest_is_refused(spec):
    out = spec / "out"
    (out / "manifest.json").mkdir(parents=True)
    line = refusal(build(spec))
    assert "manifest.json': printkit did not write it" in line
    (out / "manifest.json").rmdir()
    (out / "real.json").write_text('{"files": []}')
    (out / "manifest.json").symlink_to("real.json")
    before = snapshot(out)
    assert "printkit did not write it" in refusal(build(spec))
    assert snapshot(out) == before


def test_an_empty_printkit_manifest_owns_nothing_but_is_replaced(spec):
    out = spec / "out"
    out.mkdir()
    (out / "manifest.json").write_text('{"files": []}')
    result = build(spec)
    assert result.exit_code == 0, result.output
    assert {item["path"] for item in manifest(out)["files"]} == {
        "alignment-a4.pdf", "tiny/sheets-a4.pdf", "tiny/sheets-fronts-a4.pdf", "tiny/proof.html",
        "tiny/proof/faces-1.png"}


def test_files_of_a_build_stopped_while_renaming_stay_printkits(built, monkeypatch):
    """The interim manifest names old and new version of each file being replaced; both stay owned."""
    out = built / "out"
    real_replace = os.replace
    calls = []

    def replace(src, dst, *args, **kwargs):
        calls.append(dst)
        if len(calls) == 3:  # the interim manifest and one file are in place, then a crash
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    assert refusal(build(built, "--per-card", "--back-offset", "1,0")).startswith("error: cannot write ")
    monkeypatch.undo()
    interim = manifest(out)
    assert interim["replacing"] and all(pair["old"] and pair["new"] for pair in interim["replacing"])
    # Another spec into the same folder keeps every tiny file listed, replaced or not ...
    (built / "other.yaml").write_text(OTHER, encoding="utf-8")
    here = os.getcwd()
    os.chdir(built)
    try:
        other = CliRunner().invoke(main, ["build", "other.yaml", "--no-rulebooks", "--out", "out"])
    finally:
        os.chdir(here)
    assert other.exit_code == 0, other.output
    listed = {item["path"] for item in manifest(out)["files"]}
    assert {p for p in snapshot(out) if p.startswith("tiny/") and p.endswith((".pdf", ".png"))} <= listed
    # ... so both the half-finished offset and the original one build again.
    assert build(built, "--per-card", "--back-offset", "1,0").exit_code == 0
    assert build(built, "--per-card").exit_code == 0


def test_check_replaceable(tmp_path):
    staging = Staging(tmp_path)
    (tmp_path / "mine.txt").write_text("old")
    (tmp_path / "theirs.txt").write_text("user")
    for name in ("new.txt", "mine.txt", "theirs.txt"):
        staging.stage(name, b"printkit")
    try:
        mine = (tmp_path / "mine.txt").resolve()
        staging.check_replaceable({mine: {sha256_hex(b"old")}, (tmp_path / "theirs.txt").resolve(): set()})
    except BuildError as exc:
        assert str(exc).startswith(f"refusing to replace '{(tmp_path / 'theirs.txt').resolve()}': "
                                   "it was changed since printkit wrote it")
    else:
        pytest.fail("theirs.txt was not refused")
    staging.check_replaceable({mine: {sha256_hex(b"old")}, (tmp_path / "theirs.txt").resolve(): {sha256_hex(b"user")}})
    staging.abort()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt", "theirs.txt"]
