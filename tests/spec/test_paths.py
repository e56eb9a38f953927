"""The one resolver for files that come with a spec."""

from __future__ import annotations

import os

import pytest

from printkit.spec.paths import MAX_PATH_CHARS, PathRefused, inside_folder


@pytest.fixture
def folder(tmp_path):
    spec = tmp_path / "spec"
    (spec / "art").mkdir(parents=True)
    (spec / "art" / "a.png").write_bytes(b"x")
    (tmp_path / "outside.png").write_bytes(b"x")
    return spec


def test_a_file_inside_is_resolved(folder):
    assert inside_folder(folder, "art/a.png", "image") == (folder / "art" / "a.png").resolve()
    assert inside_folder(folder, "art/../art/a.png", "image") == (folder / "art" / "a.png").resolve()


@pytest.mark.parametrize("value, said", [
    ("", "image path is empty"),
    ("art/\0a.png", "contains a NUL character"),
    ("/etc/passwd", "must be relative to the spec's folder"),
    ("../outside.png", "leads outside the spec's folder; copy the file beside the spec"),
    ("art", "is a folder, not a file"),
    ("art/missing.png", "not found"),
    ("art/a.png/x", "goes through something that is not a folder"),
    ("x" * 300 + ".png", "has a name too long for the file system"),
    ("a/" * (MAX_PATH_CHARS // 2 + 1), f"is longer than {MAX_PATH_CHARS} characters"),
])
def test_refusals_say_why(folder, value, said):
    with pytest.raises(PathRefused) as caught:
        inside_folder(folder, value, "image")
    assert said in str(caught.value)
    assert "\n" not in str(caught.value)


def test_links_are_followed_only_while_they_stay_inside(folder):
    (folder / "in.png").symlink_to(folder / "art" / "a.png")
    (folder / "out.png").symlink_to(folder.parent / "outside.png")
    (folder / "loop.png").symlink_to(folder / "loop.png")
    os.mkfifo(folder / "pipe.png")
    assert inside_folder(folder, "in.png", "image") == (folder / "art" / "a.png").resolve()
    for name, said in [("out.png", "leads outside"), ("loop.png", "loop of links"), ("pipe.png", "not a regular file")]:
        with pytest.raises(PathRefused, match=said):
            inside_folder(folder, name, "image")
