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
    from cli_in import invoke_in

    (tmp_path / "manifest.json.yaml").write_text("game: demo\nname: M\ngroups:\n  - name: g\n    cards: [{n: 1}]\n",
                                                 encoding="utf-8")
    result = invoke_in(tmp_path, "build", "manifest.json.yaml", "--out", "out", "--no-rulebooks")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "deck-manifest.json" / "sheets-a4.pdf").is_file()
    assert (tmp_path / "out" / "manifest.json").is_file()


# --- staging a file as it is written ---------------------------------------------------------


def _staging(root, announced):
    from printkit.outputs import Staging

    return Staging(root, before_first_write=lambda: announced.append(True))


def _writes(*pieces):
    def write(out):
        for piece in pieces:
            out.write(piece)

    return write


def test_a_streamed_file_is_staged_with_its_hash_and_renamed_on_commit(tmp_path):
    import hashlib

    announced = []
    staging = _staging(tmp_path, announced)
    out = staging.stage_stream("deck/sheets.pdf", _writes(b"%PDF-", b"one ", b"two"))
    assert out.changed and out.hexdigest() == hashlib.sha256(b"%PDF-one two").hexdigest() and out.size == 12
    assert announced == [True]  # the build id was recorded before the temporary was made
    (temp, target), = staging.staged
    assert temp.name == f".sheets.pdf.{staging.build_id}.tmp" and temp.read_bytes() == b"%PDF-one two"
    assert not target.exists()
    staging.commit()
    assert (tmp_path / "deck/sheets.pdf").read_bytes() == b"%PDF-one two"


def test_a_streamed_file_is_read_back_from_its_temporary_then_from_its_place(tmp_path):
    staging = _staging(tmp_path, [])
    out = staging.stage_stream("deck/sheets.pdf", _writes(b"%PDF-", b"one ", b"two"))
    assert out.read_back() == b"%PDF-one two"  # staged: from the temporary
    staging.commit()
    assert out.read_back() == b"%PDF-one two"  # renamed into place: from the file there
    (tmp_path / "deck/sheets.pdf").write_bytes(b"%PDF-one six")  # changed since: not vouched for
    assert out.read_back() is None


def test_a_streamed_file_that_holds_what_is_there_leaves_it_alone(tmp_path):
    import os

    target = tmp_path / "sheets.pdf"
    target.write_bytes(b"same bytes")
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    announced = []
    staging = _staging(tmp_path, announced)
    out = staging.stage_stream("sheets.pdf", _writes(b"same ", b"bytes"))
    assert not out.changed and out.hexdigest() == sha256_hex(b"same bytes")
    assert out.read_back() == b"same bytes"
    assert announced == []  # no temporary was made, so no build id needed recording
    assert staging.staged == [] and sorted(p.name for p in tmp_path.iterdir()) == ["sheets.pdf"]
    staging.commit()
    assert target.stat().st_mtime_ns == 1_000_000_000


@pytest.mark.parametrize("new", [[b"same ", b"bytes but more"], [b"same ", b"bits"], [b"same ", b"by"],
                                 [b"other", b" bytes"]])
def test_a_streamed_file_that_differs_is_written_whole_from_where_it_differs(tmp_path, new):
    import hashlib

    (tmp_path / "sheets.pdf").write_bytes(b"same bytes")
    announced = []
    staging = _staging(tmp_path, announced)
    out = staging.stage_stream("sheets.pdf", _writes(*new))
    assert out.changed and announced == [True] and out.hexdigest() == hashlib.sha256(b"".join(new)).hexdigest()
    (temp, _), = staging.staged
    assert temp.read_bytes() == b"".join(new)  # the matching start copied from the file, then the rest
    assert out.read_back() == b"".join(new)
    temp.write_bytes(b"someone else's")
    assert out.read_back() is None  # not what was written: never cached as if it were
    temp.write_bytes(b"".join(new))
    staging.commit()
    assert (tmp_path / "sheets.pdf").read_bytes() == b"".join(new)


def test_the_matching_start_of_a_file_is_copied_without_hashing_it_again(tmp_path, monkeypatch):
    import hashlib

    from printkit import outputs

    start, end = b"picture " * 50_000, b"a new title"  # a sheet of pictures differs near its end
    (tmp_path / "sheets.pdf").write_bytes(start + b"an old title")
    hashed = []

    class Counted:
        def __init__(self, data=b""):
            self._digest = hashlib.sha256()
            self.update(data)

        def update(self, data):
            hashed.append(len(data))
            self._digest.update(data)

        def hexdigest(self):
            return self._digest.hexdigest()

    monkeypatch.setattr(outputs, "hashlib", type("hashlib", (), {"sha256": Counted}))
    staging = _staging(tmp_path, [])
    out = staging.stage_stream("sheets.pdf", _writes(start, end))
    assert sum(hashed) == len(start + end)  # what was written, once
    assert out.changed and out.hexdigest() == hashlib.sha256(start + end).hexdigest()
    (temp, _), = staging.staged
    assert temp.read_bytes() == start + end


@pytest.mark.parametrize("kernel_copy", ["whole", "a piece, then refused", "refused", "missing"])
def test_the_matching_start_is_copied_in_the_kernel_or_else_by_reading(tmp_path, monkeypatch, kernel_copy):
    import os

    start = bytes(range(256)) * 4000
    (tmp_path / "sheets.pdf").write_bytes(start + b"old end")
    real = getattr(os, "copy_file_range", None)
    calls = []

    def copy(source, target, count, offset_source, offset_target):
        calls.append(count)
        if kernel_copy == "refused" or (kernel_copy == "a piece, then refused" and len(calls) > 1):
            raise OSError(18, "Invalid cross-device link")
        if kernel_copy == "a piece, then refused":
            count = 1000
        if real is None:  # a platform without it: what it would copy
            data = os.pread(source, count, offset_source)
            return os.pwrite(target, data, offset_target)
        return real(source, target, count, offset_source, offset_target)

    if kernel_copy == "missing":
        monkeypatch.delattr(os, "copy_file_range", raising=False)
    else:
        monkeypatch.setattr(os, "copy_file_range", copy, raising=False)
    staging = _staging(tmp_path, [])
    out = staging.stage_stream("sheets.pdf", _writes(start, b"new end, longer"))
    (temp, _), = staging.staged
    assert temp.read_bytes() == start + b"new end, longer" and out.size == len(start) + 15
    assert (calls == []) == (kernel_copy == "missing")


def test_a_file_changed_while_it_is_compared_is_not_half_copied(tmp_path):
    target = tmp_path / "sheets.pdf"
    target.write_bytes(b"same bytes")

    def write(out):
        out.write(b"same ")
        target.write_bytes(b"SAME bytes")  # someone else's edit, after its start was compared
        out.write(b"bits")

    staging = _staging(tmp_path, [])
    with pytest.raises(BuildError, match="changed while printkit was writing it"):
        staging.stage_stream("sheets.pdf", write)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheets.pdf"] and staging.staged == []


@pytest.mark.parametrize("failure", [BuildError("image 'a.png' changed while the build drew it"), KeyboardInterrupt()])
def test_a_streamed_file_that_fails_midway_leaves_no_temporary(tmp_path, failure):
    target = tmp_path / "sheets.pdf"
    target.write_bytes(b"the previous build's file")

    def write(out):
        out.write(b"%PDF-1.4 half of it")
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # begun
        raise failure

    staging = _staging(tmp_path, [])
    with pytest.raises(type(failure)):
        staging.stage_stream("sheets.pdf", write)
    assert staging.staged == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheets.pdf"]
    assert target.read_bytes() == b"the previous build's file"


def test_a_streamed_file_the_disk_refuses_is_one_error_naming_it(tmp_path, monkeypatch):
    import os

    from printkit import outputs

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full to stand for a full disk")
    monkeypatch.setattr(outputs, "_create_new", lambda path: os.open("/dev/full", os.O_WRONLY))
    staging = _staging(tmp_path, [])
    with pytest.raises(BuildError, match=r"cannot write '.*sheets.pdf': No space left on device"):
        staging.stage_stream("sheets.pdf", _writes(b"%PDF-", b"x" * 100_000))
    assert list(tmp_path.iterdir()) == [] and staging.staged == []


def test_current_sha256_of_a_file_longer_than_one_read(tmp_path):
    from printkit import outputs

    data = bytes(range(256)) * 9000  # read a megabyte at a time: three reads
    (tmp_path / "big.pdf").write_bytes(data)
    assert outputs.current_sha256(tmp_path / "big.pdf") == sha256_hex(data)
