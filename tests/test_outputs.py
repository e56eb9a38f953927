"""Safe output writing: inside the output folder, atomic, unchanged files left alone."""

from __future__ import annotations

import os

import pytest

from printkit.errors import BuildError
from printkit.outputs import inside, safe_part, sha256_hex, write_atomic


def test_inside_accepts_plain_relative_paths(tmp_path):
    assert inside(tmp_path, "a/b.pdf") == (tmp_path / "a/b.pdf").resolve()


@pytest.mark.parametrize("bad", ["../x.pdf", "/etc/passwd", "a/../../x", "a/.."])
def test_inside_refuses_escapes(tmp_path, bad):
    with pytest.raises(BuildError, match="refusing"):
        inside(tmp_path / "out", bad)


def test_inside_refuses_symlinks_out_of_the_folder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "link").symlink_to(tmp_path)
    with pytest.raises(BuildError, match="outside"):
        inside(out, "link/x.pdf")


@pytest.mark.parametrize("name, ok", [("calc", True), ("expert-2", True), ("a.b_c", True), ("..", False),
                                      ("a/b", False), (".hidden", False), ("", False), ("x..y", False)])
def test_safe_part(name, ok):
    if ok:
        assert safe_part(name) == name
    else:
        with pytest.raises(BuildError):
            safe_part(name)


def test_write_atomic_creates_replaces_and_skips_identical(tmp_path):
    target = tmp_path / "deep/folder/file.bin"
    assert write_atomic(target, b"one") is True
    assert target.read_bytes() == b"one"
    os.utime(target, (1_000_000, 1_000_000))
    assert write_atomic(target, b"one") is False
    assert target.stat().st_mtime == 1_000_000
    assert write_atomic(target, b"two") is True
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.bin"]  # no temporary left


def test_write_atomic_failure_leaves_the_old_file(tmp_path):
    target = tmp_path / "file.bin"
    target.write_bytes(b"old")
    blocker = tmp_path / ".file.bin.{}.tmp".format(os.getpid())
    blocker.mkdir()  # the temporary name is taken: writing must fail cleanly
    with pytest.raises(BuildError, match="cannot write"):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old" and blocker.is_dir()


def test_sha256_hex():
    assert sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
