"""The render cache's keys: a description given in parts is hashed as its joined text."""

from __future__ import annotations

from printkit.cache import RenderCache, pages_description
from printkit.layout.geometry import Size
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Rect


def _pages(colour: str) -> list[Page]:
    front = Face((Rect(0, 0, 63, 88, fill=colour),), ())
    placements = tuple(Placement(front, 10 + 70 * i, 10) for i in range(2))
    return [Page(Size(210, 297), placements, ()), Page(Size(210, 297), placements[:1], ())]


def test_a_description_in_parts_keys_as_its_joined_text(tmp_path):
    cache = RenderCache(tmp_path)
    parts = list(pages_description(_pages("#112233")))
    assert len(parts) > 2  # given in parts, not as one text
    assert cache.key("pdf", lambda: iter(parts)) == cache.key("pdf", lambda: "".join(parts))
    assert cache.key("pdf", lambda: iter(parts)) != cache.key("pdf", lambda: "".join(parts[:-1]))


def test_pages_are_described_a_line_each_then_each_kind_of_page_level_drawing():
    pages = _pages("#112233")
    lines = "".join(pages_description(pages)).split("\n")
    assert len(lines) == len(pages) + 1  # both pages' ops (none) are one kind
    assert lines[0] == repr((pages[0].size, pages[0].trim, pages[0].bleed, 0, [
        (p.face.digest, p.x_mm, p.y_mm, p.clip, p.clockwise_deg) for p in pages[0].placements]))
    assert lines[-1] == repr(())


def test_pages_that_draw_differently_are_described_differently():
    assert "".join(pages_description(_pages("#112233"))) != "".join(pages_description(_pages("#112234")))
    assert "".join(pages_description(_pages("#112233"))) == "".join(pages_description(_pages("#112233")))


# --- the cache as untrusted ground ------------------------------------------------------------

import os  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402

from printkit import cache as cache_module  # noqa: E402

KEY_A, KEY_B = "a" * 64, "ab" + "c" * 62


def stored(tmp_path, entries: dict[str, bytes]) -> RenderCache:
    cache = RenderCache(tmp_path)
    cache.pending = dict(entries)
    cache.flush("build1")
    return RenderCache(tmp_path)


def test_an_entry_kept_to_be_read_is_read_when_stored_and_found_meanwhile(tmp_path):
    reads = []

    def read(data):
        def go():
            reads.append(data)
            return data
        return go

    cache = RenderCache(tmp_path)
    cache.keep_read(KEY_A, read(b"sheets of deck A"))
    cache.keep_read(KEY_B, read(None))  # no longer as written: nothing stored
    assert reads == [] and cache.has_pending  # nothing read while the build goes on
    assert cache.found(KEY_A) == b"sheets of deck A"
    cache.flush("build1")
    assert reads == [b"sheets of deck A", b"sheets of deck A", None] and not cache.has_pending
    again = RenderCache(tmp_path)
    assert again.get(KEY_A) == b"sheets of deck A" and again.get(KEY_B) is None


def test_an_entry_is_read_back_only_under_its_own_key(tmp_path):
    cache = stored(tmp_path, {KEY_A: b"pdf of deck A"})
    assert cache.get(KEY_A) == b"pdf of deck A"
    other = tmp_path / ".printkit-cache" / "ab" / KEY_B
    other.parent.mkdir(parents=True, exist_ok=True)
    os.replace(tmp_path / ".printkit-cache" / "aa" / KEY_A, other)  # renamed from another deck's key
    assert cache.get(KEY_B) is None


def test_an_entry_forged_with_a_recomputed_checksum_is_not_taken(tmp_path):
    import hashlib

    cache = stored(tmp_path, {KEY_A: b"genuine"})
    path = tmp_path / ".printkit-cache" / "aa" / KEY_A
    forged = b"forged!"
    header = cache_module.MAGIC + f"{KEY_A}\n{len(forged):010d}\n".encode()
    for seal in (hashlib.sha256(forged).hexdigest(), hashlib.sha256(header + forged).hexdigest(),
                 __import__("hmac").new(b"", f"{KEY_A}\n{len(forged)}\n".encode() + forged, "sha256").hexdigest()):
        path.write_bytes(header + seal.encode() + b"\n" + forged)
        assert cache.get(KEY_A) is None


def test_an_entry_is_not_read_past_its_declared_size(tmp_path):
    cache = stored(tmp_path, {KEY_A: b"small"})
    path = tmp_path / ".printkit-cache" / "aa" / KEY_A
    with open(path, "ab") as handle:
        handle.write(b"more")
    assert cache.get(KEY_A) is None
    with open(path, "r+b") as handle:  # a 3 GB sparse file is refused by its size, unread
        handle.truncate(3 << 30)
    assert cache.get(KEY_A) is None


def test_nothing_is_written_through_a_linked_cache_folder(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    (out / ".printkit-cache").mkdir(parents=True)
    elsewhere.mkdir()
    os.symlink(elsewhere, out / ".printkit-cache" / "aa")
    cache = RenderCache(out)
    cache.pending = {KEY_A: b"data", KEY_B: b"other"}
    cache.flush("build1")
    assert list(elsewhere.iterdir()) == []
    (elsewhere / KEY_A).write_bytes(b"planted")
    assert RenderCache(out).get(KEY_A) is None  # nor read through it


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_full_disk_leaves_no_temporary(tmp_path):
    out = tmp_path / "small"
    out.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(out)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        cache = RenderCache(out)
        cache.pending = {KEY_A: os.urandom(200_000)}  # larger than the disk
        cache.flush("build1")
        left = [p for p in out.rglob("*") if p.is_file() and p.name.endswith(".tmp")]
        assert left == []
        assert RenderCache(out).get(KEY_A) is None
    finally:
        subprocess.run(["umount", str(out)], check=False)


def test_a_broken_key_file_is_replaced_and_builds_agree_on_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    key = tmp_path / "state" / "printkit" / "cache-key"
    key.parent.mkdir(parents=True)
    key.write_bytes(b"")  # an empty file: no key
    cache_module.secret.cache_clear()
    try:
        made = cache_module.secret()
        assert made is not None and len(made) == 32 and key.read_bytes() == made
        assert oct(key.stat().st_mode & 0o777) == "0o600"
        cache_module.secret.cache_clear()
        assert cache_module.secret() == made  # read again, not made again
        assert not [p for p in key.parent.iterdir() if p.name.endswith(".tmp")]
    finally:
        cache_module.secret.cache_clear()


def test_pages_whose_faces_are_placed_at_another_scale_are_described_differently():
    import dataclasses

    pages = _pages("#112233")
    scaled = [dataclasses.replace(page, placements=tuple(dataclasses.replace(p, scale=0.4) for p in page.placements))
              for page in pages]
    assert "".join(pages_description(scaled)) != "".join(pages_description(pages))
