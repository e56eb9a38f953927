"""Safe output writing: inside the output folder, atomic, unchanged files left alone."""

from __future__ import annotations


import pytest

from printkit.errors import BuildError
from printkit.outputs import inside, safe_part, sha256_hex


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
    # Safe names are kept; others become a plain component (see tests/test_build_inputs.py).
    part = safe_part(name)
    assert (part == name) == ok
    assert part and ".." not in part and "/" not in part and not part.startswith(".")


def test_sha256_hex():
    assert sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_exclusive_refuses_a_second_holder_until_the_first_lets_go(tmp_path):
    from printkit.outputs import exclusive

    with exclusive(tmp_path):
        with pytest.raises(BuildError, match="another printkit build is writing to"):
            with exclusive(tmp_path):
                pass
    with exclusive(tmp_path):  # free again
        pass
    assert list(tmp_path.iterdir()) == []  # the lock writes nothing


@pytest.mark.parametrize("stem, folder", [
    ("manifest.json", "deck-manifest.json"), ("alignment-a4.pdf", "deck-alignment-a4.pdf"),
    ("Manifest.JSON", "deck-Manifest.JSON"), (".printkit-cache", "printkit-cache"), ("calc", "calc"),
])
def test_a_deck_folder_never_takes_the_name_of_printkits_own_files(stem, folder):
    from printkit.outputs import deck_part

    assert deck_part(stem) == folder


def test_a_spec_named_like_the_manifest_builds_beside_it(tmp_path):
    import os

    from click.testing import CliRunner

    from printkit.cli import main

    (tmp_path / "manifest.json.yaml").write_text("game: demo\nname: M\ngroups:\n  - name: g\n    cards: [{n: 1}]\n",
                                                 encoding="utf-8")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["build", "manifest.json.yaml", "--out", "out", "--no-rulebooks"])
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "deck-manifest.json" / "sheets-a4.pdf").is_file()
    assert (tmp_path / "out" / "manifest.json").is_file()
