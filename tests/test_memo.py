"""The one memo: bounded by count and bytes, shared between threads; and what "file unchanged" means."""

from __future__ import annotations

import hashlib
import os
import threading

from PIL import Image as PILImage

from printkit import images, safe_read
from printkit.memo import FileIdentity, Memo, file_identity
from printkit.render import pictures


def test_the_least_recently_used_go_first_within_count_and_bytes():
    memo = Memo("test", entries=3, max_bytes=10)
    for key in "abc":
        memo.put(key, key.upper(), 3)
    assert memo.get("a") == "A"  # now the most recently used
    memo.put("d", "D", 3)  # four entries: b, the least recently used, goes
    assert [k in memo for k in "abcd"] == [True, False, True, True]
    memo.put("e", "E", 7)  # 9 + 7 bytes: a and c go
    assert [k in memo for k in "acde"] == [False, False, True, True] and memo.kept_bytes == 10
    assert memo.put("f", "F", 11) is False and "f" not in memo  # larger than the budget: not kept
    assert memo.get_or_make("d", lambda: 1 / 0) == "D"
    assert memo.get_or_make("g", lambda: "G", len) == "G" and memo.kept_bytes == 4


def _pictures(folder, count):
    paths = []
    for n in range(count):
        path = folder / f"art{n}.png"
        PILImage.new("RGB", (8 + n % 5, 8), (n * 7 % 256, 90, 200)).save(path)
        paths.append(path)
    return paths


def test_four_threads_share_the_memos_with_a_tiny_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(images, "_PICTURES", Memo("pictures", entries=3, max_bytes=200))
    monkeypatch.setattr(images, "_VERDICTS", Memo("verdicts", entries=5))
    monkeypatch.setattr(safe_read, "_DIGESTS", Memo("digests", entries=4))
    monkeypatch.setattr(pictures, "_PNG_INFOS", Memo("png", entries=2))
    monkeypatch.setattr(images, "_SVG_ARTS", Memo("svg", entries=1, max_bytes=300))
    paths = _pictures(tmp_path, 40)
    svgs = []
    for n in range(6):
        svgs.append(tmp_path / f"art{n}.svg")
        svgs[-1].write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                            f'<rect width="{n + 1}" height="5" fill="#123456"/></svg>')
    expected = {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in paths}
    failures, start = [], threading.Barrier(4)

    def work(offset: int) -> None:
        try:
            start.wait()
            for round_ in range(6):
                for path in paths[offset::2] + paths[::-3]:
                    picture = images.checked_picture(path)
                    assert picture.digest == expected[path]
                    assert images.picture(path).digest == expected[path]
                    assert safe_read.content_digest(path) == expected[path]
                    assert pictures._png_info(picture).width == picture.width
                for svg in svgs:
                    assert images.svg_art(svg.read_bytes()).width == 7.5  # 10 px in points
                    assert images.picture_warnings(svg) == ()
        except BaseException as exc:  # noqa: BLE001 (any failure of a thread fails the test)
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(n % 2,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(images._PICTURES) <= 3 and images._PICTURES.kept_bytes <= 200


def test_a_picture_rewritten_in_place_with_its_old_size_and_time_is_read_again(tmp_path):
    path = tmp_path / "art.png"
    PILImage.new("RGB", (20, 10), (255, 0, 0)).save(path, compress_level=0)
    old = path.read_bytes()
    PILImage.new("RGB", (20, 10), (0, 0, 255)).save(tmp_path / "other.png", compress_level=0)
    new = (tmp_path / "other.png").read_bytes()
    assert len(new) == len(old) and new != old
    first = images.checked_picture(path)
    assert safe_read.content_digest(path) == first.digest
    before = os.stat(path)
    with open(path, "r+b") as handle:  # the same inode, size and (set back) modification time
        handle.write(new)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    assert file_identity(path) != FileIdentity(before.st_size, before.st_mtime_ns, before.st_ctime_ns,
                                               before.st_ino, before.st_dev)  # its change time moved
    again = images.checked_picture(path)
    assert again.digest == hashlib.sha256(new).hexdigest() != first.digest
    assert safe_read.content_digest(path) == again.digest


def _picture_checks_counted(monkeypatch):
    """A list that grows by one for each picture decoded to be checked, and a function that
    forgets what this process kept of pictures (as a new process starts)."""
    checks = []
    real = images.check_picture
    monkeypatch.setattr(images, "check_picture", lambda data: checks.append(1) or real(data))

    def new_process():
        for name in ("_VERDICTS", "_PICTURES", "_IDENTIFIED"):
            monkeypatch.setattr(images, name, Memo(name, entries=10))

    return checks, new_process


def test_a_pictures_verdict_is_kept_in_the_render_cache_for_the_next_process(tmp_path, monkeypatch):
    from printkit.cache import picture_verdicts_kept

    jpeg = tmp_path / "art.jpg"
    PILImage.new("RGB", (40, 30), (200, 10, 10)).save(jpeg, quality=90)
    checks, new_process = _picture_checks_counted(monkeypatch)

    new_process()
    with picture_verdicts_kept(tmp_path / "out"):
        assert images.checked_picture(jpeg).width == 40
    assert len(checks) == 1
    new_process()
    with picture_verdicts_kept(tmp_path / "out"):
        picture = images.checked_picture(jpeg)
    assert len(checks) == 1 and (picture.width, picture.height) == (40, 30)  # not decoded again
    new_process()
    with picture_verdicts_kept(tmp_path / "out", enabled=False):  # --no-cache
        images.checked_picture(jpeg)
    assert len(checks) == 2


def test_a_builds_picture_verdicts_are_one_cache_entry_and_later_builds_add_to_it(tmp_path, monkeypatch):
    from printkit.cache import FOLDER, NamedTable, RenderCache, picture_verdicts_kept

    paths = []
    for n in range(4):
        paths.append(tmp_path / f"art{n}.jpg")
        PILImage.new("RGB", (40 + n, 30), (200, 10, 10 * n)).save(paths[-1], quality=90)
    checks, new_process = _picture_checks_counted(monkeypatch)

    def entries():
        return [entry for entry in (tmp_path / "out" / FOLDER).rglob("*") if len(entry.name) == 64]

    new_process()
    with picture_verdicts_kept(tmp_path / "out"):
        for path in paths[:3]:
            images.checked_picture(path)
    assert len(checks) == 3 and len(entries()) == 1  # three verdicts, one file
    new_process()
    with picture_verdicts_kept(tmp_path / "out"):
        widths = [images.checked_picture(path).width for path in paths]
    assert widths == [40, 41, 42, 43] and len(checks) == 4  # only the new picture checked
    assert len(entries()) == 1
    new_process()
    with picture_verdicts_kept(tmp_path / "out"):
        [images.checked_picture(path) for path in paths]
    assert len(checks) == 4  # all four kept
    table = NamedTable(RenderCache(tmp_path / "out"), "picture-verdicts", limit=2)
    names = [hashlib.sha256(path.read_bytes()).hexdigest() for path in paths]
    assert table.get(names[3]) == b"43 30 1"  # width, height and EXIF orientation
    table.put("x" * 64, b"1 1")
    table.keep()  # over its limit: what this build used first
    assert sorted(table.cache.pending.popitem()[1].splitlines()) == sorted([f"{names[3]} 43 30 1".encode(),
                                                                           b"x" * 64 + b" 1 1"])


def test_four_threads_write_the_pdfs_one_thread_writes(tmp_path, monkeypatch):
    from reportlab import rl_config

    from printkit.layout.geometry import Size
    from printkit.layout.imposition import Page, Placement
    from printkit import fonts
    from printkit.layout.ops import Face, Image, Rect, Text
    from printkit.render.pdf import render_pages

    monkeypatch.setattr(images, "_PICTURES", Memo("pictures", entries=2, max_bytes=4000))
    monkeypatch.setattr(pictures, "_DECODED", Memo("decoded", entries=2, max_bytes=2000))
    paths = _pictures(tmp_path, 6)
    PILImage.new("RGBA", (9, 7), (10, 200, 30, 128)).save(paths[0])  # decoded by reportlab (alpha)
    PILImage.new("RGB", (12, 9), (90, 20, 200)).save(tmp_path / "art.jpg", quality=90)
    paths.append(tmp_path / "art.jpg")
    font = tmp_path / "ThreadProbe.ttf"  # a font no thread has registered yet: the first ones race for it
    font.write_bytes(fonts.KOREAN.read_bytes())
    documents = [[Page(Size(100, 100), tuple(Placement(Face((Rect(0, 0, 20, 20, fill="#102030"),
                                                              Image(1, 1, 18, 18, paths[(n + k) % len(paths)]),
                                                              Text(2, 19, f"카드 {n}{k}", font, 3, "#000000"))),
                                                        5 + 22 * k, 5) for k in range(4)))]
                 for n in range(len(paths))]
    results, failures, start = {}, [], threading.Barrier(4)

    def work(offset: int) -> None:
        try:
            start.wait()
            for round_ in range(3):
                for n in range(offset, len(documents)) if round_ % 2 else range(len(documents)):
                    results.setdefault(n, set()).add(render_pages(documents[n], f"doc {n}"))
        except BaseException as exc:  # noqa: BLE001
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    expected = [render_pages(pages, f"doc {n}") for n, pages in enumerate(documents)]
    assert all(results[n] == {expected[n]} for n in range(len(documents)))
    assert rl_config.useA85 == 1  # reportlab's own setting, put back by the last render


def test_a_value_of_an_owner_is_never_taken_for_another_at_its_address():
    import weakref

    from printkit.memo import Memo

    class Owner:  # like a loaded spec: no hash of its own
        __hash__ = None

    memo = Memo("owned", entries=8)
    first, second = Owner(), Owner()
    made = []
    assert memo.of(first, "k", lambda: made.append(1) or "first's") == "first's"
    assert memo.of(first, "k", lambda: made.append(2) or "again") == "first's" and made == [1]
    # an entry another owner left at this one's address (it was let go of, the address reused)
    memo.put((id(second), "k"), (weakref.ref(first), "first's"))
    assert memo.of(second, "k", lambda: "second's") == "second's"
    # a value no longer true of its owner is made again
    assert memo.of(first, "k", lambda: "made again", still=lambda value: value != "first's") == "made again"
    assert memo.of(first, "k", lambda: "not asked", still=lambda value: True) == "made again"
