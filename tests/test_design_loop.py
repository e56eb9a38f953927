"""The design loop: edit a card, rebuild, and the output folder is exactly the current build.

Per-card files are named from the card's identity (id, name, title, else its place in its group),
so an edited card keeps its file; files printkit wrote that the build no longer writes go; a
user's files stay; ``--card`` writes one card; and every moment of a build, even a killed one,
leaves a manifest that agrees with the folder.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_in import invoke_in
from manifests import without_records

REPO = Path(__file__).resolve().parent.parent
SPEC = "game: demo\nname: Loop\ngroups:\n  - name: cards\n    data: loop.csv\n"
ROWS = ["id,text,copies", "alpha,First text,2", "beta,Second text,1", "gamma,Third text,3"]


def run(cwd: Path, *args: str):
    return invoke_in(cwd, "build", *args)


def write_rows(folder: Path, rows: list[str]) -> None:
    (folder / "loop.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def listed(out: Path) -> dict[str, dict]:
    return {item["path"]: item for item in manifest(out)["files"]}


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.is_file()} if folder.exists() else set()


def assert_agrees(out: Path, users: set[str] = frozenset()) -> dict:
    """The manifest and the folder agree: each listed file is there with its hash, and every other
    file is the user's, a temporary of a build the manifest records (or the manifest's own
    temporary, recording its build: :func:`_records_itself`), or one whose old or new version the
    manifest names (a build stopped while replacing or removing it)."""
    data = manifest(out)
    for item in data["files"]:
        assert hashlib.sha256((out / item["path"]).read_bytes()).hexdigest() == item["sha256"], item["path"]
    known = {item["path"] for item in data["files"]}
    known |= {pair[side]["path"] for pair in data.get("replacing", []) for side in ("old", "new") if pair[side]}
    ids = data.get("unfinished", [])
    for path in out.rglob("*"):
        if not path.is_file() or ".printkit-cache" in path.parts:
            continue
        name = path.relative_to(out).as_posix()
        if name == "manifest.json" or name in known or name in users:
            continue
        if any(path.name.endswith(f".{i}.tmp") for i in ids) or _records_itself(path, out):
            continue
        raise AssertionError(f"{name} is neither listed nor the user's")
    return data


def _records_itself(path: Path, out: Path) -> bool:
    """A manifest's temporary left by a build killed while writing the manifest that records it:
    ``.manifest.json.ID.tmp`` beside the manifest, naming ID among its own unfinished builds (what
    the next build goes by to clean up after it)."""
    prefix, suffix = ".manifest.json.", ".tmp"
    if path.parent != out or not (path.name.startswith(prefix) and path.name.endswith(suffix)):
        return False
    build_id = path.name[len(prefix):-len(suffix)]
    try:
        return build_id in json.loads(path.read_text(encoding="utf-8")).get("unfinished", [])
    except ValueError:
        return False


@pytest.fixture
def loop(tmp_path) -> Path:
    (tmp_path / "loop.yaml").write_text(SPEC, encoding="utf-8")
    write_rows(tmp_path, ROWS)
    result = run(tmp_path, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    return tmp_path


def test_an_edited_card_keeps_its_name_and_the_folder_holds_the_current_deck(loop):
    out, cards = loop / "out", loop / "out" / "loop" / "cards"
    before = files_in(cards)
    assert before == {f"{n}.{ext}" for n in ("001-cards-alpha", "002-cards-beta", "003-cards-gamma", "back-1")
                      for ext in ("pdf", "png")}
    old_png = (cards / "002-cards-beta.png").read_bytes()
    (cards / "my-notes.txt").write_text("the designer's own file")
    write_rows(loop, [ROWS[0], ROWS[1], "beta,Second text with a new rule,1", ROWS[3]])
    result = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert files_in(cards) == before | {"my-notes.txt"}  # the same names, nothing beside them
    assert (cards / "002-cards-beta.png").read_bytes() != old_png
    items = assert_agrees(out, {"loop/cards/my-notes.txt"})
    assert "replacing" not in items and "unfinished" not in items
    pngs = [f for f in items["files"] if f["kind"] == "card-png"]
    assert sum(f["cards"] for f in pngs) == 6  # the deck's count: no card that no longer exists


def test_a_card_taken_out_or_renamed_leaves_no_file_behind(loop):
    out, cards = loop / "out", loop / "out" / "loop" / "cards"
    write_rows(loop, [ROWS[0], ROWS[1], "delta,Third text,3"])  # beta taken out, gamma renamed delta
    result = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert "4 earlier files removed" in result.stdout  # four per-card files (the proof shows its faces on one sheet)
    assert files_in(cards) == {"001-cards-alpha.pdf", "001-cards-alpha.png", "002-cards-delta.pdf",
                               "002-cards-delta.png", "back-1.pdf", "back-1.png"}
    items = assert_agrees(out)
    assert {p for p in listed(out) if "/cards/" in p} == {f"loop/cards/{n}" for n in files_in(cards)}
    assert sum(f["cards"] for f in items["files"] if f["kind"] == "card-pdf") == 5
    # Another group takes every card: the per-card folder printkit emptied goes with its files.
    (loop / "loop.yaml").write_text(SPEC.replace("name: cards", "name: deck"), encoding="utf-8")
    result = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert files_in(cards) == {"001-deck-alpha.pdf", "001-deck-alpha.png", "002-deck-delta.pdf",
                               "002-deck-delta.png", "back-1.pdf", "back-1.png"}
    assert_agrees(out)


def test_what_this_build_does_not_write_is_left_alone(loop):
    """Other decks stay, and other kinds and papers while the deck is as they were made from; so
    do a user's changed copies, even of a deck edited since."""
    out, cards = loop / "out", loop / "out" / "loop" / "cards"
    (loop / "other.yaml").write_text(SPEC.replace("Loop", "Other"), encoding="utf-8")
    assert run(loop, "other.yaml", "--per-card", "--no-rulebooks", "--out", "out").exit_code == 0
    edited = cards / "003-cards-gamma.png"
    edited.write_bytes(edited.read_bytes() + b"retouched")  # the user's now
    write_rows(loop, ROWS[:3])  # gamma taken out
    # Without --per-card the per-card files are not this build's kind, but they (and the A4 sheets)
    # were made from the deck before the edit: printkit's go, the user's copy stays.
    assert run(loop, "loop.yaml", "--no-rulebooks", "--paper", "letter", "--out", "out").exit_code == 0
    assert "loop/cards/001-cards-alpha.png" not in listed(out) and "loop/sheets-a4.pdf" not in listed(out)
    assert not (cards / "001-cards-alpha.png").exists() and edited.exists()
    assert run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out").exit_code == 0
    assert edited.exists() and "loop/cards/003-cards-gamma.png" not in listed(out)  # kept, not listed
    assert not (cards / "003-cards-gamma.pdf").exists()  # printkit's, unchanged: removed
    paths = listed(out)
    assert {"other/sheets-a4.pdf", "other/cards/001-cards-alpha.png", "loop/sheets-letter.pdf",
            "alignment-letter.pdf"} <= set(paths)
    assert_agrees(out, {"loop/cards/003-cards-gamma.png"})


def test_cards_that_would_share_a_name_get_distinct_ones_in_deck_order(loop):
    write_rows(loop, ["id,text,copies", "twin,One,1", "twin,Two,1", "twin-2,Three,1", "twin,Four,1"])
    result = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    names = sorted(p.stem for p in (loop / "out/loop/cards").glob("0*.png"))
    assert names == ["001-cards-twin", "002-cards-twin-2", "003-cards-twin-2-2", "004-cards-twin-3"]
    again = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert again.exit_code == 0 and "removed" not in again.stdout  # the same names every time


def test_one_card_alone(loop):
    out, cards = loop / "out", loop / "out" / "loop" / "cards"
    write_rows(loop, [ROWS[0], ROWS[1], "beta,Second text changed,1", ROWS[3]])
    stamps = {p.name: p.stat().st_mtime_ns for p in cards.iterdir()}
    sheets = (out / "loop/sheets-a4.pdf").read_bytes()
    result = run(loop, "loop.yaml", "--card", "BETA", "--out", "out")
    assert result.exit_code == 0, result.output
    assert [Path(line).name for line in result.stdout.splitlines()[:-1]] == [
        "back-1.pdf", "back-1.png", "002-cards-beta.pdf", "002-cards-beta.png"]
    changed = {p.name for p in cards.iterdir() if p.stat().st_mtime_ns != stamps[p.name]}
    assert changed == {"002-cards-beta.pdf", "002-cards-beta.png"}  # the back was the same bytes
    assert (out / "loop/sheets-a4.pdf").read_bytes() == sheets  # no sheets, no rulebooks
    assert len([p for p in listed(out) if "/cards/" in p]) == 8  # the other cards stay listed
    assert_agrees(out)
    for choice in ("gamma.png", "003-cards-gamma", "cards-gamma"):
        assert run(loop, "loop.yaml", "--card", choice, "--out", "out").exit_code == 0, choice


def test_an_unknown_card_names_close_ones_and_changes_nothing(loop):
    out = loop / "out"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    result = run(loop, "loop.yaml", "--card", "alpah", "--out", "out")
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: no card 'alpah' in loop (did you mean 'alpha'?)"
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_emberfall_card_edited_in_a_copy(tmp_path):
    """The sample deck: one card's rules text edited, rebuilt, every other name and file unchanged."""
    shutil.copy(REPO / "decks" / "emberfall.yaml", tmp_path)
    shutil.copytree(REPO / "decks" / "emberfall", tmp_path / "emberfall")
    out, cards = tmp_path / "out", tmp_path / "out" / "emberfall" / "cards"
    assert run(tmp_path, "emberfall.yaml", "--per-card", "--no-rulebooks", "--out", "out").exit_code == 0
    before = {p.name: p.read_bytes() for p in cards.iterdir()}
    assert "001-cards-ember-drake.png" in before and "031-embers-ember.png" in before
    data = tmp_path / "emberfall" / "cards.csv"
    text = data.read_text(encoding="utf-8")
    assert "deal 2 :fire: to a creature" in text
    data.write_text(text.replace("deal 2 :fire: to a creature", "deal 3 :fire: to a creature", 1), encoding="utf-8")
    result = run(tmp_path, "emberfall.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    after = {p.name: p.read_bytes() for p in cards.iterdir()}
    assert set(after) == set(before)
    assert {n for n in after if after[n] != before[n]} == {"001-cards-ember-drake.pdf", "001-cards-ember-drake.png"}
    items = assert_agrees(out)
    assert sum(f["cards"] for f in items["files"] if f["kind"] == "card-png") == 60 + 24


# --- stopped builds --------------------------------------------------------------------------


def test_a_build_stopped_at_any_step_of_renaming_or_removing_leaves_a_true_manifest(loop, monkeypatch):
    """The n-th rename or removal fails: the manifest still lists only files that are there."""
    out = loop / "out"
    real_replace, real_unlink = os.replace, Path.unlink
    versions = [ROWS, [ROWS[0], ROWS[1], "beta,Changed,1", "delta,New card,1"]]  # changes, adds and removes
    for fail_at in range(1, 30):
        calls = []

        def counted(real):
            def call(*args, **kwargs):
                calls.append(args[0])
                if len(calls) == fail_at:
                    raise OSError(errno.EIO, "Input/output error")
                return real(*args, **kwargs)
            return call

        write_rows(loop, versions[0])  # from the first version, whatever the stopped build left ...
        assert run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out").exit_code == 0
        write_rows(loop, versions[1])  # ... to the second, stopped at the n-th step
        monkeypatch.setattr(os, "replace", counted(real_replace))
        monkeypatch.setattr(Path, "unlink", counted(real_unlink))
        result = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
        monkeypatch.undo()
        assert_agrees(out)
        assert result.exit_code == 0 or "Input/output error" in result.stderr, result.output
        if len(calls) < fail_at:
            assert result.exit_code == 0, result.output
            break
    assert fail_at > 8
    for rows in versions:  # and printkit builds on from whatever the stopped build left
        write_rows(loop, rows)
        assert run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out").exit_code == 0
        assert_agrees(out)
    assert {p for p in listed(out) if "/cards/" in p} == {
        f"loop/cards/{n}" for n in files_in(out / "loop" / "cards")}


def test_killed_builds_that_remove_files_leave_a_true_manifest(tmp_path):
    (tmp_path / "loop.yaml").write_text(SPEC, encoding="utf-8")
    rows = [ROWS + [f"card{i},Text {i},1" for i in range(12)],
            [ROWS[0]] + [f"other{i},Text {i},1" for i in range(12)]]
    command = [sys.executable, "-m", "printkit", "build", "loop.yaml", "--per-card", "--no-rulebooks",
               "--out", "out"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    write_rows(tmp_path, rows[0])
    started = time.monotonic()
    first = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    duration = time.monotonic() - started
    assert first.returncode == 0, first.stderr
    out = tmp_path / "out"
    (out / "loop" / "cards" / "mine.txt").write_text("the user's")
    delays = [0.1, 0.3] + [duration * f for f in (0.5, 0.7, 0.8, 0.9, 0.95, 1.0, 1.05)]
    for i, delay in enumerate(delays):
        write_rows(tmp_path, rows[(i + 1) % 2])
        proc = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        assert_agrees(out, {"loop/cards/mine.txt"})
        assert (out / "loop" / "cards" / "mine.txt").read_text() == "the user's"
    write_rows(tmp_path, rows[1])
    final = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert final.returncode == 0, final.stderr
    data = assert_agrees(out, {"loop/cards/mine.txt"})
    assert "unfinished" not in data and "replacing" not in data
    cards = files_in(out / "loop" / "cards") - {"mine.txt"}
    assert {p for p in listed(out) if "/cards/" in p} == {f"loop/cards/{n}" for n in cards}
    assert len([n for n in cards if n.endswith(".png")]) == 12 + 1  # twelve cards and one back
    assert not [p for p in out.rglob("*.tmp")]


# --- the render cache ------------------------------------------------------------------------


def outputs(out: Path) -> dict[str, bytes]:
    """The output files, the manifest without the records that name this folder's inodes."""
    return {p.relative_to(out).as_posix(): without_records(p.read_bytes()) if p.name == "manifest.json" else p.read_bytes()
            for p in out.rglob("*") if p.is_file() and ".printkit-cache" not in p.parts}


def test_cached_rebuilds_are_byte_identical_to_cold_builds(loop, monkeypatch):
    from printkit.render import png

    calls = []
    real = png.card_png
    monkeypatch.setattr(png, "card_png", lambda pdf, size: calls.append(1) or real(pdf, size))
    write_rows(loop, [ROWS[0], ROWS[1], "beta,Edited,1", ROWS[3]])
    warm = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert warm.exit_code == 0, warm.output
    assert len(calls) == 1  # only the edited card's PNG was rendered; the rest came from the cache
    cold = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--no-cache", "--out", "cold")
    assert cold.exit_code == 0 and len(calls) == 1 + 4  # three fronts and the back
    assert not (loop / "cold" / ".printkit-cache").exists()
    assert outputs(loop / "out") == outputs(loop / "cold")


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_a_corrupt_cache_is_ignored(loop, damage):
    out = loop / "out"
    cold = outputs(out)
    entries = [p for p in (out / ".printkit-cache").rglob("*") if p.is_file() and len(p.name) == 64]
    assert entries
    for entry in entries:
        data = entry.read_bytes()
        entry.write_bytes({"truncate": data[:len(data) // 2], "garbage": b"not a cache entry",
                           "flip": data[:-1] + bytes([data[-1] ^ 1])}[damage])
    for p in out.rglob("*"):
        if p.is_file() and ".printkit-cache" not in p.parts and p.name != "manifest.json":
            p.unlink()  # (unlisted now: the manifest goes too, so the files are written afresh)
    (out / "manifest.json").unlink()
    result = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0, result.output
    assert outputs(out) == cold


def test_another_printkit_never_reads_this_cache(loop, monkeypatch):
    import printkit
    from printkit import cache
    from printkit.render import png

    calls = []
    real = png.card_png
    monkeypatch.setattr(png, "card_png", lambda pdf, size: calls.append(1) or real(pdf, size))
    monkeypatch.setattr(printkit, "__version__", printkit.__version__ + "-next")
    cache.code_fingerprint.cache_clear()
    try:
        result = run(loop, "loop.yaml", "--per-card", "--no-rulebooks", "--out", "out")
    finally:
        cache.code_fingerprint.cache_clear()
    assert result.exit_code == 0 and len(calls) == 4  # every PNG rendered again
