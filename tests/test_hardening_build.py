"""Builds under bad input and bad luck: broken specs, killed processes, failing and hostile output folders.

Whatever happens, every file listed in ``manifest.json`` matches its hash, no partial file sits at
an output path, nothing is written outside ``--out`` and no file printkit did not write is deleted.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from cli_in import invoke_in

BAD = Path(__file__).resolve().parent / "data" / "bad"
EXPECTED = json.loads((BAD / "expected.json").read_text(encoding="utf-8"))
TEMP = re.compile(r"^\..+\.[0-9a-f]{16}\.tmp$")  # printkit's temporaries: .NAME.BUILDID.tmp

TINY = (Path(__file__).resolve().parent / "data" / "tiny.yaml").read_text(encoding="utf-8")  # three plain cards


def files_under(folder: Path) -> set[str]:
    """Every file below ``folder`` but the render cache (``.printkit-cache``, no output of a build)."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if (p.is_file() or p.is_symlink()) and ".printkit-cache" not in p.relative_to(folder).parts}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in files_under(folder) if (folder / name).is_file()}


def assert_consistent(out: Path) -> list[dict]:
    """The manifest parses and every file it lists is complete: hash matches, PDFs open."""
    listed = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]
    for item in listed:
        data = (out / item["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == item["sha256"], item["path"]
        if item["path"].endswith(".pdf"):
            assert len(PdfReader(out / item["path"]).pages) >= 1
    return listed


def temporaries(out: Path) -> set[str]:
    return {name for name in files_under(out) if TEMP.match(Path(name).name)}


def build(args: list[str], cwd: Path):
    """``printkit build`` in-process from ``cwd``."""
    return invoke_in(cwd, "build", *args)


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A three-card spec and a complete earlier build of it in ``out/`` (with a different back offset)."""
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    result = build(["tiny.yaml", "--per-card", "--back-offset", "1,0", "--out", "out"], tmp_path)
    assert result.exit_code == 0, result.output
    return tmp_path


# --- 1. the corpus of bad specs through build ------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_spec_builds_nothing_and_says_where(name, tmp_path):
    want = EXPECTED[name]
    out = tmp_path / "out"
    result = build(["--out", str(out), name], BAD)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"{name}:{want['line']}:{want['column']}: {want['message']}"]
    assert not out.exists()  # not even the folder or its manifest


def test_bad_specs_build_without_traceback_in_a_real_process(tmp_path):
    out = tmp_path / "out"
    for name in ("billion_laughs.yaml", "image_bomb.yaml", "deep_nesting.yaml"):
        proc = subprocess.run([sys.executable, "-m", "printkit", "build", "--out", str(out), name],
                              cwd=BAD, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 1
        assert "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith(f"{name}:")
    assert not out.exists()


# --- 3. killed builds ------------------------------------------------------------------------


def test_killed_builds_leave_complete_files_and_a_true_manifest(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "printkit", "build", "clag", "--out", str(out)]
    started = time.monotonic()
    first = subprocess.run(command + ["--back-offset", "1,0"], capture_output=True, text=True, timeout=120)
    duration = time.monotonic() - started  # only to spread the kills over a build on this machine
    assert first.returncode == 0, first.stderr
    (out / "notes.txt").write_text("the user's own file")
    complete = set(files_under(out))
    # Each killed build would change the sheets and the alignment test (the offset alternates),
    # so a kill can land while files are being staged, renamed or the manifest written.
    delays = [0.05, 0.2] + [duration * f for f in (0.6, 0.85, 0.95, 1.0)]
    for i, delay in enumerate(delays):
        proc = subprocess.Popen(command + ["--back-offset", f"{i % 2},0"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        assert_consistent(out)
        assert (out / "notes.txt").read_text() == "the user's own file"
        stray = files_under(out) - complete
        assert stray == temporaries(out) & stray, stray  # only printkit's temporaries may be new
    final = subprocess.run(command + ["--back-offset", "1,0"], capture_output=True, text=True, timeout=120)
    assert final.returncode == 0, final.stderr
    assert files_under(out) == complete  # stale temporaries of killed builds removed, nothing else
    listed = assert_consistent(out)
    assert {item["path"] for item in listed} == complete - {"manifest.json", "notes.txt"}


def test_a_build_that_fails_while_renaming_leaves_a_true_manifest(tiny, monkeypatch):
    """A crash between two renames (simulated: the n-th rename fails) never leaves a lying manifest."""
    out = tiny / "out"
    before = snapshot(out)
    real_replace = os.replace
    for fail_at in range(1, 20):  # until the build has fewer renames than fail_at
        calls = []

        def replace(src, dst, *args, **kwargs):
            calls.append(dst)
            if len(calls) == fail_at:
                raise OSError(errno.EIO, "Input/output error")
            return real_replace(src, dst, *args, **kwargs)

        monkeypatch.setattr(os, "replace", replace)
        result = build(["tiny.yaml", "--per-card", "--back-offset", f"{fail_at / 10},0", "--out", "out"], tiny)
        monkeypatch.setattr(os, "replace", real_replace)
        if len(calls) < fail_at:
            assert result.exit_code == 0, result.output
            break
        assert result.exit_code == 1
        assert result.stderr.startswith("error: cannot write ") and "Input/output error" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert_consistent(out)
        assert temporaries(out) == set()
        assert set(snapshot(out)) == set(before)
    assert fail_at > 3  # the interim manifest, the changed files and the final manifest were all hit
    assert build(["tiny.yaml", "--per-card", "--out", "out"], tiny).exit_code == 0
    assert_consistent(out)


@pytest.mark.parametrize("failure, said", [
    ("template bug", "template bug"),
    # A backend library's own error (not printkit's) still ends the build with one line.
    (ValueError("decoder broke"), "cannot write the per-card files: ValueError: decoder broke"),
])
def test_a_build_that_fails_midway_changes_nothing(tiny, monkeypatch, failure, said):
    """A failure after some files are rendered (here: drawing a per-card PNG) leaves the folder as it was."""
    from printkit.errors import BuildError
    from printkit.render import png

    out = tiny / "out"
    shutil.rmtree(out / ".printkit-cache")  # every PNG is rendered again, not taken from the cache
    before = snapshot(out)
    real_render = png.card_png
    calls, staged = [], []

    def failing_render(pdf, size):
        calls.append(pdf)
        if len(calls) == 2:  # in the per-card files, after the sheets and a back were staged
            staged.extend(p for p in tiny.rglob("*") if TEMP.match(p.name))
            raise BuildError(failure) if isinstance(failure, str) else failure
        return real_render(pdf, size)

    monkeypatch.setattr(png, "card_png", failing_render)
    result = build(["tiny.yaml", "--per-card", "--back-offset", "2,2", "--out", "out"], tiny)
    assert result.exit_code == 1 and said in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert staged  # files were staged when it failed ...
    assert snapshot(out) == before  # ... yet no temporary stays and nothing was replaced
    calls.clear()
    fresh = build(["tiny.yaml", "--per-card", "--back-offset", "2,2", "--out", "new/deeper"], tiny)
    assert fresh.exit_code == 1
    assert not (tiny / "new").exists()  # the folders this build made are gone again


# --- 4. output folder problems ---------------------------------------------------------------


def test_a_build_into_a_folder_another_build_holds_is_refused_and_changes_nothing(tiny):
    from printkit.outputs import exclusive

    out = tiny / "out"
    before = snapshot(out)
    with exclusive(out):  # as a build running in another process holds it
        result = build(["tiny.yaml", "--per-card", "--back-offset", "2,2", "--out", "out"], tiny)
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("run this one when it has finished, or use another --out")
    assert snapshot(out) == before and not [p for p in out.rglob("*") if TEMP.match(p.name)]
    assert build(["tiny.yaml", "--per-card", "--back-offset", "2,2", "--out", "out"], tiny).exit_code == 0


@pytest.mark.parametrize("error", [PermissionError(errno.EACCES, "Permission denied"),
                                   OSError(errno.ENOSPC, "No space left on device")])
def test_unwritable_or_full_output_folder_is_one_line_and_changes_nothing(tiny, monkeypatch, error):
    out = tiny / "out"
    before = snapshot(out)
    real_open = os.open

    def failing_open(path, flags, *args, **kwargs):
        if str(path).endswith(".tmp"):
            raise error
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", failing_open)
    result = build(["tiny.yaml", "--per-card", "--out", "out"], tiny)
    monkeypatch.undo()
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot write ") and error.strerror in lines[0]
    assert "Traceback" not in result.output
    assert snapshot(out) == before


def test_rename_refused_changes_nothing(tiny, monkeypatch):
    out = tiny / "out"
    before = snapshot(out)

    def refuse(src, dst, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    result = build(["tiny.yaml", "--per-card", "--out", "out"], tiny)
    monkeypatch.undo()
    assert result.exit_code == 1 and "Permission denied" in result.stderr
    assert snapshot(out) == before


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_output_folder(tiny):
    out = tiny / "out"
    before = snapshot(out)
    for folder in [out, *(p for p in out.rglob("*") if p.is_dir())]:
        folder.chmod(0o555)
    try:
        result = build(["tiny.yaml", "--per-card", "--out", "out"], tiny)
    finally:
        for folder in [out, *(p for p in out.rglob("*") if p.is_dir())]:
            folder.chmod(0o755)
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1
    assert snapshot(out) == before


def test_out_that_is_a_file_is_one_line_and_left_alone(tiny):
    (tiny / "afile").write_text("keep me")
    result = build(["tiny.yaml", "--out", "afile"], tiny)
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == ["error: output folder 'afile' is not a folder"]
    assert (tiny / "afile").read_text() == "keep me"
    below = build(["tiny.yaml", "--out", "afile/sub"], tiny)
    assert below.exit_code == 1 and len(below.stderr.strip().splitlines()) == 1
    assert "Traceback" not in below.output
    assert (tiny / "afile").read_text() == "keep me"


def test_a_file_where_a_deck_folder_goes_is_one_line_and_left_alone(tmp_path):
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "tiny").write_text("the user's file named like the deck")
    result = build(["tiny.yaml", "--out", "out"], tmp_path)
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"error: cannot write '{(tmp_path / 'out' / 'tiny').resolve()}/")
    assert line.endswith("': Not a directory")
    assert files_under(tmp_path / "out") == {"tiny"}
    assert (tmp_path / "out" / "tiny").read_text() == "the user's file named like the deck"


def test_a_link_out_of_the_output_folder_is_never_followed(tiny):
    out = tiny / "out"
    elsewhere = tiny / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(out / "tiny")
    (out / "tiny").symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(out)
    result = build(["tiny.yaml", "--per-card", "--out", "out"], tiny)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "outside the output folder" in lines[0]
    assert list(elsewhere.iterdir()) == []
    assert snapshot(out) == before


def test_a_linked_file_or_temporary_is_replaced_never_written_through(tiny):
    """Links at a file's own path or at its temporary's name: the target outside stays untouched."""
    out = tiny / "out"
    secret = tiny / "secret.txt"
    secret.write_text("outside")
    sheet = out / "tiny" / "sheets-a4.pdf"
    sheet.unlink()
    sheet.symlink_to(secret)
    assert build(["tiny.yaml", "--out", "out"], tiny).exit_code == 1  # resolves outside: refused
    sheet.unlink()
    # A planted link where this very build will put its temporary (its id made predictable here).
    import printkit.ownership

    (out / "tiny" / ".sheets-a4.pdf.00000000deadbeef.tmp").symlink_to(secret)
    real = printkit.ownership.new_build_id
    printkit.ownership.new_build_id = lambda: "00000000deadbeef"
    try:
        result = build(["tiny.yaml", "--out", "out"], tiny)
    finally:
        printkit.ownership.new_build_id = real
    assert result.exit_code == 0, result.output
    assert secret.read_text() == "outside"
    assert_consistent(out)


def test_user_files_survive_and_only_own_stale_temporaries_go(tiny):
    """Only temporaries whose build id the manifest recorded go; names that merely look like one stay."""
    out = tiny / "out"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    mine = {
        "notes.txt": "a note",
        "tiny/extra.pdf": "not printkit's",
        "tiny/.notes.txt.1.tmp": "looks like a temporary but names no printkit output",
        f"tiny/.unrelated.{dead.pid}.tmp": "a stale-looking name that printkit does not write",
        f"tiny/.sheets-a4.pdf.{dead.pid}.tmp": "named as printkit named temporaries once",
        ".sheets-a4.pdf.4000000.tmp": "a user's file named like a stale temporary",
        "tiny/.sheets-a4.pdf.0123456789abcdef.tmp": "a build-id name the manifest never recorded",
        # an id the (forged) manifest names but printkit never made: its HMAC half does not verify
        "tiny/.sheets-a4.pdf.feedfacecafebeef.tmp": "named with a forged id",
        "tiny/.proof.html.feedfacecafebeef.tmp": "named with a forged id",
    }
    for name, text in mine.items():
        (out / name).write_text(text)
    # A build killed after it recorded its id: its temporaries are printkit's, provably.
    from printkit.ownership import new_build_id, signed

    killed = new_build_id()
    assert signed(killed) and not signed("feedfacecafebeef")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["unfinished"] = [killed, "feedfacecafebeef"]
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    stale = [out / "tiny" / f".sheets-a4.pdf.{killed}.tmp",
             out / "tiny" / "cards" / f".back-1.png.{killed}.tmp"]
    for path in stale:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"%PDF-1.4 half a file")
    result = build(["tiny.yaml", "--per-card", "--out", "out"], tiny)
    assert result.exit_code == 0, result.output
    for name, text in mine.items():
        assert (out / name).read_text() == text, name
    assert not any(path.exists() for path in stale)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert "unfinished" not in manifest
    listed = {item["path"] for item in assert_consistent(out)}
    assert not listed & set(mine)


def test_a_failed_build_leaves_the_manifest_as_it_was(tiny, monkeypatch):
    """The build id recorded before the first temporary is withdrawn when the build fails."""
    import printkit.render.pdf

    out = tiny / "out"
    before = snapshot(out)
    calls = []

    def failing_second(real):
        def render(pages, *args, **kwargs):
            calls.append(pages)
            if len(calls) == 2:  # after the first file of the build is staged
                raise OSError("disk on fire")
            return real(pages, *args, **kwargs)

        return render

    for name in ("render_pages", "write_pages"):  # in memory, or into the staged file
        monkeypatch.setattr(printkit.render.pdf, name, failing_second(getattr(printkit.render.pdf, name)))
    result = build(["tiny.yaml", "--back-offset", "2,0", "--out", "out"], tiny)
    assert result.exit_code == 1 and "disk on fire" in result.stderr
    assert snapshot(out) == before
    assert not temporaries(out)


# --- 2. fonts without the glyphs the text needs ------------------------------------------------


def faces_of(deck, papers=("a4", "letter")):
    """Every distinct face of a deck as the build lays it out: fronts, backs and full pages."""
    from printkit.pipeline.names import all_cards, card_key
    from printkit.layout import templates
    from printkit.layout.geometry import paper_size

    seen = {}
    for card in all_cards(deck):
        if card_key(card) in seen:
            continue
        if templates.is_page(card):
            sizes = [paper_size(p) for p in papers]
            seen[card_key(card)] = [templates.page(card, deck, s.width_mm, s.height_mm) for s in sizes]
        else:
            seen[card_key(card)] = [templates.front(card, deck), templates.back(card, deck)]
    return [face for faces in seen.values() for face in faces]


def text_ops(faces):
    from printkit.layout.ops import Text

    return [op for face in faces for op in face.ops if isinstance(op, Text)]


def glyph_warnings(faces) -> list[str]:
    return [w for face in faces for w in face.warnings if "glyph" in w or "no font can draw" in w]


def assert_every_character_drawable(faces):
    from printkit.fonts import missing_glyphs

    for op in text_ops(faces):
        assert missing_glyphs(op.text, op.font) == "", (op.text, op.font.name)


@pytest.mark.parametrize("name", ["calc", "stack", "clag"])
def test_every_character_of_every_real_deck_exists_in_its_font(name):
    from printkit.decks import load_all_variants

    for deck in load_all_variants(name):
        faces = faces_of(deck)
        assert_every_character_drawable(faces)
        assert glyph_warnings(faces) == []
        assert text_ops(faces)


def test_alignment_pages_draw_every_character():
    from printkit import fonts
    from printkit.pipeline.producers import ALIGNMENT_FONT
    from printkit.layout.geometry import paper_size
    from printkit.layout.imposition import alignment_pages
    from printkit.layout.ops import Text

    for paper in ("a4", "letter"):
        for page in alignment_pages(paper_size(paper), ALIGNMENT_FONT, "long", (0.0, 0.0)):
            ops = [*page.ops, *(op for placed in page.placements for op in placed.face.ops)]
            texts = [op for op in ops if isinstance(op, Text)]
            assert texts or page is not None
            for op in texts:
                assert fonts.missing_glyphs(op.text, op.font) == "", op.text


def latin_font_copy(folder: Path) -> Path:
    """DejaVu Sans (no Hangul) as a spec's own font file."""
    from printkit import fonts

    (folder / "fonts").mkdir(exist_ok=True)
    target = folder / "fonts" / "latin.ttf"
    shutil.copyfile(fonts.SYMBOLS, target)
    return target


@pytest.mark.parametrize("name", ["calc", "stack", "clag"])
def test_a_spec_font_without_hangul_falls_back_per_character(name, tmp_path, repo):
    """Each real deck with its font replaced by a Latin-only one: Korean text comes from the bundled Pretendard."""
    from printkit import fonts
    from printkit.decks import load_all_variants

    latin = latin_font_copy(tmp_path)
    text = (repo / "decks" / f"{name}.yaml").read_text(encoding="utf-8")
    text, count = re.subn(r"(?m)^(\s*font(?:_bold)?:\s*)\S+\s*$", r"\1fonts/latin.ttf", text)
    assert count >= 1
    (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    for deck in load_all_variants(tmp_path / f"{name}.yaml"):
        assert deck.art.font == latin.resolve()
        faces = faces_of(deck)
        assert_every_character_drawable(faces)
        assert glyph_warnings(faces) == []
        ops = text_ops(faces)
        assert any(op.font == latin.resolve() for op in ops)  # the spec's font is used where it can draw
        hangul = [op for op in ops if re.search("[\uac00-\ud7a3]", op.text)]
        assert hangul and {op.font for op in hangul} <= {fonts.KOREAN, fonts.KOREAN_BOLD}


def test_characters_no_font_has_are_left_out_with_a_warning(tmp_path):
    """Text no bundled font can draw (an emoji) prints as nothing, never as a box, and is named."""
    latin_font_copy(tmp_path)
    (tmp_path / "odd.yaml").write_text(
        "game: demo\nname: Odd\nart: {font: fonts/latin.ttf, back: {label: \"Back \U0001F34E\"}}\n"
        "groups:\n  - name: fruit\n    cards: [{word: \"사과 \U0001F34E\"}, {word: \"배\"}]\n",
        encoding="utf-8")
    result = build(["odd.yaml", "--per-card", "--out", "out"], tmp_path)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    back = [w for w in warnings if "back label" in w]
    # The deck-wide back label is said to fail once, not once per card.
    assert len(back) == 1 and "\U0001F34E" in back[0] and back[0].endswith("(and 1 more distinct card)"), warnings
    from printkit.decks import load_deck

    faces = faces_of(load_deck(tmp_path / "odd.yaml"))
    assert_every_character_drawable(faces)
    assert glyph_warnings(faces)
    assert_consistent(tmp_path / "out")


@pytest.mark.parametrize("earlier", [False, True])
def test_an_interrupt_just_after_the_build_id_is_recorded_still_withdraws_it(tmp_path, monkeypatch, earlier):
    """The record is withdrawn even when the interrupt lands between the manifest's rename and
    the end of the method that wrote it (seen from a Ctrl-C sent to a first build)."""
    import printkit.pipeline.manifest as manifest_module

    out = tmp_path / "out"
    out.mkdir()
    before = b'{"files": []}\n' if earlier else None
    if before:
        (out / "manifest.json").write_bytes(before)
    record = manifest_module.UnfinishedRecord(out, "0123456789abcdef")
    real = manifest_module.write_manifest_bytes

    def renamed_then_interrupted(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(manifest_module, "write_manifest_bytes", renamed_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        record.write()
    monkeypatch.undo()
    record.withdraw()
    assert (out / "manifest.json").read_bytes() == before if before else not (out / "manifest.json").exists()
    assert not temporaries(out)
