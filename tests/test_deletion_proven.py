"""A forged manifest deletes nothing, and a full disk leaves no temporary.

printkit removes an earlier output only while the manifest's record of it (device, inode, size,
mtime_ns, HMAC under the user's key) still holds, and a killed build's temporary only when its
build id verifies (printkit.ownership). Anyone can write ``manifest.json``; none of that is in it.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from cli_in import invoke_in
from printkit.outputs import canonical

TINY = (Path(__file__).resolve().parent / "data" / "tiny.yaml").read_text(encoding="utf-8")  # three plain cards


@pytest.fixture
def built(tmp_path: Path) -> Path:
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    result = invoke_in(tmp_path, "build", "tiny.yaml", "--out", "out", "--no-rulebooks", "--no-proof")
    assert result.exit_code == 0, result.output
    return tmp_path


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def forge(out: Path, extra: list[dict], unfinished: list[str] | None = None) -> None:
    data = manifest(out)
    data["files"] += extra
    if unfinished is not None:
        data["unfinished"] = unfinished
    (out / "manifest.json").write_text(json.dumps(data), encoding="utf-8")


def rebuild(folder: Path, *args: str):
    result = invoke_in(folder, "build", "tiny.yaml", "--out", "out", "--no-rulebooks", "--no-proof", *args)
    assert result.exit_code == 0, result.output
    return result


def claim(path: str, data: bytes, written: dict | None = None) -> dict:
    """A manifest entry claiming a file of the scope the tiny build writes in full (its A4 card
    sheets), so that the build takes it for one of its own it no longer writes."""
    item = {"path": path, "kind": "sheets", "deck": "tiny", "variant": None, "paper": "a4", "pages": 1,
            "cards": None, "sha256": hashlib.sha256(data).hexdigest()}
    if written is not None:
        item["written"] = written
    return item


@pytest.mark.parametrize("spelling", ["probe/mine.pdf", "probe//mine.pdf", "probe/./mine.pdf", "./probe/mine.pdf",
                                      "probe/mine.pdf/", "probe/../probe/mine.pdf", "tiny/../probe/mine.pdf"])
def test_a_forged_entry_with_a_users_exact_sha256_does_not_delete_it(built, spelling):
    out = built / "out"
    mine = out / "probe" / "mine.pdf"
    mine.parent.mkdir()
    mine.write_bytes(b"%PDF-1.4 the user's own")
    forge(out, [claim(spelling, mine.read_bytes())])
    rebuild(built)
    assert mine.read_bytes() == b"%PDF-1.4 the user's own"
    listed = {item["path"] for item in manifest(out)["files"]}
    assert all(canonical(path) for path in listed)
    # The canonical spelling, not proven printkit's, is left and still listed; other spellings are dropped.
    assert ("probe/mine.pdf" in listed) == (spelling == "probe/mine.pdf")


def test_a_forged_record_copied_from_the_users_file_does_not_delete_it(built):
    out = built / "out"
    mine = out / "probe" / "mine.pdf"
    mine.parent.mkdir()
    mine.write_bytes(b"%PDF-1.4 the user's own")
    stat = mine.stat()
    # The file's own stat, with no HMAC (that needs the user's key) or with a real one of another file.
    for mac in ("0" * 64, manifest(out)["files"][0]["written"]["mac"]):
        forged = {"device": stat.st_dev, "inode": stat.st_ino, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
                  "mac": mac}
        forge(out, [claim("probe/mine.pdf", mine.read_bytes(), forged)])
        rebuild(built)
        assert mine.read_bytes() == b"%PDF-1.4 the user's own"
    forge(out, [claim("probe/mine.pdf", mine.read_bytes())])
    rebuild(built)
    assert mine.read_bytes() == b"%PDF-1.4 the user's own"


def test_a_forged_unfinished_id_does_not_delete_files_named_like_temporaries(built):
    out = built / "out"
    forged = "feedfacecafebeef"
    mine = {out / f".manifest.json.{forged}.tmp": b"{}",
            out / "tiny" / f".sheets-a4.pdf.{forged}.tmp": b"mine",
            out / "tiny" / f".notes.txt.{forged}.tmp": b"mine too",
            out / f".alignment-a4.pdf.{forged}.tmp": b"and this"}
    for path, data in mine.items():
        path.write_bytes(data)
    forge(out, [], unfinished=[forged])
    rebuild(built)
    assert {path: path.read_bytes() for path in mine} == mine
    assert "unfinished" not in manifest(out)


def test_stale_files_with_records_are_removed_those_without_are_left_and_listed(built):
    """Two files of printkit's the build no longer writes: the one whose record holds goes; the one
    listed without a record (as an older printkit's manifest lists every file) stays, listed."""
    from printkit import ownership

    out = built / "out"
    rebuild(built, "--per-card")
    card = next(item for item in manifest(out)["files"] if "/cards/" in item["path"])
    folder = card["path"].rsplit("/", 1)[0]
    extra = []
    for name in ("old-proven.png", "old-legacy.png", "old-touched.png"):
        (out / folder / name).write_bytes((out / card["path"]).read_bytes())
        entry = {**card, "path": f"{folder}/{name}"}
        entry.pop("written")
        if name != "old-legacy.png":  # as printkit records a file it has just put in place
            written = ownership.record(entry["path"], entry["sha256"], out / entry["path"])
            entry["written"] = {"device": written.device, "inode": written.inode, "size": written.size,
                                "mtime_ns": written.mtime_ns, "mac": written.mac}
        extra.append(entry)
    forge(out, extra)
    # The same bytes, but not the file as printkit left it: touched since.
    os.utime(out / folder / "old-touched.png", ns=(1_000_000_000, 1_000_000_000))
    rebuild(built, "--per-card")
    assert not (out / folder / "old-proven.png").exists()
    assert (out / folder / "old-legacy.png").exists()
    assert (out / folder / "old-touched.png").exists()
    listed = {item["path"]: item for item in manifest(out)["files"]}
    assert f"{folder}/old-legacy.png" in listed and "written" not in listed[f"{folder}/old-legacy.png"]
    assert f"{folder}/old-proven.png" not in listed


@pytest.mark.parametrize("path, ok", [
    ("tiny/sheets-a4.pdf", True), ("alignment-a4.pdf", True), ("카드/cards/001-a.png", True),
    ("tiny//sheets-a4.pdf", False), ("tiny/./sheets-a4.pdf", False), ("tiny/../tiny/sheets-a4.pdf", False),
    ("tiny/sheets-a4.pdf/", False), ("/tiny/sheets-a4.pdf", False), ("tiny\\sheets-a4.pdf", False),
    (".printkit-cache/ab/x", False), ("tiny/.sheets-a4.pdf.0123456789abcdef.tmp", False),
    ("\u1112\u1161\u11ab/x.pdf", False), ("tiny/x\n.pdf", False), ("", False), ("a/b/c/d/e/f/g.pdf", False),
])
def test_only_canonical_spellings_name_printkits_files(path, ok):
    assert canonical(path) is ok


# --- a full disk --------------------------------------------------------------------------------


def _mount(folder: Path, size_k: int) -> bool:
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_k}k", "tmpfs", str(folder)],
                          capture_output=True).returncode == 0


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".printkit-cache" not in p.parts}


@pytest.mark.parametrize("options, sizes_k", [
    # card sheets and the alignment test, every 4 KB from nothing fits to all does
    (["--no-rulebooks", "--no-proof"], [*range(8, 132, 4), 1200]),
    # every kind of output: per-card PDFs and PNGs, the proof page and its thumbnails too
    (["--no-rulebooks", "--per-card"], [*range(16, 624, 32), 2400]),
], ids=["sheets", "every-kind"])
def test_a_full_disk_leaves_no_temporary_and_no_half_output(tmp_path, options, sizes_k):
    """Into tmpfs of growing sizes, from too small for anything to just enough: each build succeeds
    or fails with one clear line, leaving no temporary, no partial output, and the previous build's
    files and manifest as they were and true."""
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    probe = tmp_path / "probe"
    probe.mkdir()
    if not _mount(probe, 64):
        pytest.skip("mounting a tmpfs needs root")
    subprocess.run(["umount", str(probe)], check=False)
    args = ["build", "tiny.yaml", "--out", "out", "--no-cache", *options]
    outcomes = []
    for size_k in sizes_k:
        out = tmp_path / "out"
        out.mkdir(exist_ok=True)
        assert _mount(out, size_k)
        try:
            first = invoke_in(tmp_path, *args)
            before = _files(out)
            # Then a build that changes every output (another back offset) into what is left.
            second = invoke_in(tmp_path, *args, "--back-offset", "1,0")
            after = _files(out)
            outcomes.append((size_k, first.exit_code, second.exit_code))
            for result in (first, second):
                if result.exit_code:
                    lines = [line for line in result.output.splitlines() if line.strip()]
                    assert len(lines) == 1 and lines[0].startswith("error: "), (size_k, result.output)
                    assert "Traceback" not in result.output
            assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")], (size_k, list(out.rglob("*")))
            if second.exit_code:
                assert after == before, size_k  # the previous outputs and manifest, as they were
            if after:
                listed = json.loads(after["manifest.json"])
                assert "unfinished" not in listed and "replacing" not in listed
                for item in listed["files"]:
                    assert hashlib.sha256(after[item["path"]]).hexdigest() == item["sha256"], (size_k, item["path"])
                assert set(after) == {item["path"] for item in listed["files"]} | {"manifest.json"}, size_k
            else:
                assert first.exit_code, size_k
        finally:
            subprocess.run(["umount", str(out)], check=False)
            for p in sorted(out.rglob("*"), reverse=True):
                p.unlink() if p.is_file() else p.rmdir()
    assert any(code for _, code, _ in outcomes), outcomes  # the smallest disk is too small
    assert outcomes[-1][1:] == (0, 0), outcomes  # the largest is enough
