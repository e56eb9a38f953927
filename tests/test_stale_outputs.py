"""The output folder holds exactly the current build: a build of a deck removes printkit's files
of its rulebook whose text is gone and of a variant taken out of its spec (or the variant-less
files of a spec that gained variants); files of decks it does not build stay (they may have been
built from another folder); a partial build (``--variant``, ``--card``, ``--no-rulebooks``,
another ``--paper``) keeps what may still be current; nothing the manifest does not list is touched. An export and a build never
share a folder.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_in import invoke_in

VARIANTS = "variants: {full: {}, heroes: {exclude: [{kind: spell}]}}\n"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """``printkit new my-game`` (one spec, an English rule text), built once."""
    assert invoke_in(tmp_path, "new", "my-game").exit_code == 0
    folder = tmp_path / "my-game"
    build(folder)
    return folder


def build(folder: Path, *args: str):
    result = invoke_in(folder, "build", "--jobs", "1", *args)
    assert result.exit_code == 0, result.output
    return result


def listed(folder: Path) -> set[str]:
    data = json.loads((folder / "output" / "manifest.json").read_text(encoding="utf-8"))
    return {item["path"] for item in data["files"]}


def on_disk(folder: Path) -> set[str]:
    out = folder / "output"
    return {p.relative_to(out).as_posix() for p in out.rglob("*")
            if p.is_file() and ".printkit-cache" not in p.parts and p.name != "manifest.json"}


def with_variants(folder: Path, variants: str) -> None:
    spec = folder / "my-game.yaml"
    text = spec.read_text(encoding="utf-8").split("variants:")[0]
    spec.write_text(text + variants, encoding="utf-8")


def test_a_rulebook_whose_text_is_gone_is_removed(game):
    book = "my-game/rulebook-en-a4.pdf"
    assert book in listed(game)
    (game / "my-game.rules.en.md").unlink()

    # A build that writes no rulebooks says nothing of rule texts, but the rulebook was made from
    # the spec's folder as it was (a text in it): it goes, said as such.
    kept = build(game, "--no-rulebooks")
    assert "no rulebook" not in kept.output and book not in listed(game) and not (game / "output" / book).exists()
    assert "note: my-game: removed 1 rulebook made before a file the deck may read was saved again" in kept.output

    result = build(game)
    assert "no rulebook: no rule text beside my-game.yaml" in result.output
    assert "earlier files removed" not in result.output
    assert book not in listed(game) and not (game / "output" / book).exists()
    assert listed(game) == on_disk(game)


def test_a_language_whose_text_is_gone_loses_its_rulebooks_on_every_paper_and_booklet(game):
    en = (game / "my-game.rules.en.md").read_text(encoding="utf-8")
    (game / "my-game.rules.fr.md").write_text(en, encoding="utf-8")
    build(game, "--booklet")
    build(game, "--paper", "letter")
    books = {p for p in listed(game) if "/rulebook-" in p}
    assert books == {f"my-game/rulebook-{lang}-{paper}.pdf" for lang in ("en", "fr") for paper in ("a4", "letter")} \
        | {"my-game/rulebook-en-booklet-a4.pdf", "my-game/rulebook-fr-booklet-a4.pdf"}
    (game / "my-game.rules.fr.md").unlink()

    # The deck's rulebooks are set: French ones, on any paper, are gone. The English ones of
    # another paper and the booklet, and the Letter sheets, were made from the folder with the
    # French text in it: they go too, said as such.
    result = build(game, "my-game")
    assert {p for p in listed(game) if "/rulebook-" in p} == {"my-game/rulebook-en-a4.pdf"}
    assert "7 earlier files removed" in result.output  # 3 French rulebooks, 2 English ones, 2 sheets
    assert "note: my-game: removed 2 rulebooks made before a file the deck may read was saved again" in result.output
    assert "note: my-game: removed 2 sheet files made before a file the deck may read was saved again" in result.output
    assert listed(game) == on_disk(game)


def test_a_variant_taken_out_of_its_spec_is_removed(game):
    with_variants(game, VARIANTS)
    build(game)
    heroes = {p for p in listed(game) if p.startswith("my-game/heroes/")}
    assert "my-game/heroes/sheets-a4.pdf" in heroes

    with_variants(game, "variants: {full: {}}\n")
    build(game, "--variant", "full")  # a build of one variant says nothing of the others
    assert heroes <= listed(game) <= on_disk(game)

    build(game)
    assert not {p for p in listed(game) | on_disk(game) if p.startswith("my-game/heroes/")}
    assert not (game / "output" / "my-game" / "heroes").exists()  # the folder printkit made goes too
    assert listed(game) == on_disk(game)


def test_a_spec_that_gains_variants_loses_its_variant_less_files_but_not_its_rulebook(game):
    out = game / "output"
    (out / "my-game" / "notes.txt").write_text("mine", encoding="utf-8")  # the user's: never touched
    before = listed(game)
    assert {"my-game/sheets-a4.pdf", "my-game/proof.html", "my-game/rulebook-en-a4.pdf"} <= before

    with_variants(game, VARIANTS)
    build(game)
    now = listed(game)
    assert now == on_disk(game) - {"my-game/notes.txt"}
    assert not any(p.startswith("my-game/") and p.count("/") == 1 and p != "my-game/rulebook-en-a4.pdf"
                   for p in now)  # sheets, fronts and proof now live in full/ and heroes/ only
    assert not (out / "my-game" / "sheets-a4.pdf").exists() and not (out / "my-game" / "proof").exists()
    assert {"my-game/full/sheets-a4.pdf", "my-game/heroes/sheets-a4.pdf", "my-game/rulebook-en-a4.pdf"} <= now
    assert (out / "my-game" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_deck_built_from_another_folder_into_the_same_output_stays(game):
    # The folder's own specs are not every deck its output holds: a build of them removes none
    # of another's files, whether its spec is elsewhere or taken away.
    other = game.parent / "other"
    other.mkdir()
    spec = (game / "my-game.yaml").read_text(encoding="utf-8")
    (other / "other.yaml").write_text(spec.replace('name: "My Game"', 'name: "Other"'), encoding="utf-8")
    shutil.copy(game / "cards.csv", other / "cards.csv")
    for art in game.iterdir():
        if art.suffix == ".svg":
            shutil.copy(art, other / art.name)
    shutil.copytree(game / "icons", other / "icons")
    build(game, "../other/other.yaml")
    theirs = {p for p in listed(game) if p.startswith("other/")}
    assert "other/sheets-a4.pdf" in theirs

    build(game)
    (other / "other.yaml").unlink()
    build(game)
    assert theirs <= listed(game) and theirs <= on_disk(game)


def test_a_file_changed_since_printkit_wrote_it_stays(game):
    with_variants(game, VARIANTS)
    build(game)
    edited = game / "output" / "my-game" / "heroes" / "proof.html"
    edited.write_text("my notes", encoding="utf-8")
    with_variants(game, "variants: {full: {}}\n")
    build(game)
    assert edited.read_text(encoding="utf-8") == "my notes"
    assert not {p for p in listed(game) if p.startswith("my-game/heroes/")}


@pytest.mark.parametrize("out", ["output/my-game", "output", "output/my-game/cards"])
def test_an_export_into_a_build_folder_is_refused(game, out):
    if out.endswith("cards"):
        build(game, "--per-card")
    before = listed(game)
    result = invoke_in(game, "export", "my-game", "--for", "tgc", "--out", out)
    assert result.exit_code == 1
    [line] = result.output.strip().splitlines()
    assert line.startswith(f"error: cannot export into {out!r}: it is ")
    assert "leave out --out (the export then goes to 'output/my-game/export-tgc')" in line
    assert listed(game) == before and not any("README" in p for p in on_disk(game))


def test_a_build_inside_an_export_folder_is_refused_and_the_default_export_is_not(game):
    exported = invoke_in(game, "export", "my-game", "--for", "tgc")
    assert exported.exit_code == 0, exported.output
    export = game / "output" / "my-game" / "export-tgc"
    files = sorted(p for p in export.rglob("*") if p.is_file())
    for out in ("output/my-game/export-tgc", "output/my-game/export-tgc/sheets"):
        result = invoke_in(game, "build", "--jobs", "1", "--out", out)
        assert result.exit_code == 1
        [line] = result.output.strip().splitlines()[-1:]
        assert line.startswith(f"error: cannot build into {out!r}: ") and "holds printkit's export" in line
    assert sorted(p for p in export.rglob("*") if p.is_file()) == files
    assert not (export / "sheets").exists()
    build(game)  # the build beside its exports, as before
    assert (export / "README.txt").exists()


def test_a_build_that_would_write_into_an_export_folder_inside_its_own_is_refused(game):
    exported = invoke_in(game, "export", "my-game", "--for", "tgc", "--out", "output/my-game/cards")
    assert exported.exit_code == 0, exported.output  # the build wrote no per-card files there yet
    cards = game / "output" / "my-game" / "cards"
    files = sorted(p.relative_to(cards) for p in cards.rglob("*") if p.is_file())
    before = listed(game)
    result = invoke_in(game, "build", "--jobs", "1", "--per-card")
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1].startswith(
        f"error: cannot build into {str(Path('output') / 'my-game' / 'cards')!r}: it holds printkit's export")
    assert sorted(p.relative_to(cards) for p in cards.rglob("*") if p.is_file()) == files  # no temporaries left
    assert listed(game) == before


# --- files of a kind or paper a build does not write, made before a file of the deck's was saved again ---

def edit_a_card(folder: Path) -> None:
    cards = folder / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    assert "first over the hill" in text
    cards.write_text(text.replace("first over the hill", "first over the ridge"), encoding="utf-8")


def per_card(folder: Path) -> set[str]:
    return {p for p in on_disk(folder) if p.startswith("my-game/cards/")}


def test_per_card_files_of_an_earlier_version_of_the_deck_go_with_a_build_without_per_card(game):
    build(game, "--per-card")
    files = per_card(game)
    assert "my-game/cards/001-cards-scout.png" in files and files <= listed(game)
    edit_a_card(game)
    result = build(game)
    assert per_card(game) == set() and not (game / "output" / "my-game" / "cards").exists()
    assert listed(game) == on_disk(game)
    assert (f"note: my-game: removed {len(files)} per-card files made before a file the deck may read "
            "was saved again") in result.output
    assert f"{len(files)} earlier files removed" in result.output


def test_per_card_files_of_the_deck_as_it_is_stay_with_a_build_without_per_card(game):
    build(game, "--per-card")
    files = per_card(game)
    result = build(game)
    assert per_card(game) == files and files <= listed(game)
    assert "removed" not in result.output


def test_a_save_that_changes_nothing_is_said_as_a_save_not_as_another_version_of_the_deck(game):
    # The inputs' fingerprint is taken from the folder's file sizes and times, not their bytes: a
    # file saved again unchanged makes the kept files outdated, and the note says what is known.
    import os

    build(game, "--per-card")
    files = per_card(game)
    cards = game / "cards.csv"
    before = cards.read_bytes()
    stat = cards.stat()
    os.utime(cards, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))  # touch cards.csv
    result = build(game, "--no-rulebooks")
    assert cards.read_bytes() == before and per_card(game) == set()
    notes = [line for line in result.output.splitlines() if line.startswith("note: ")]
    assert notes == [f"note: my-game: removed {len(files)} per-card files made before a file the deck may read "
                     "was saved again",
                     "note: my-game: removed 1 rulebook made before a file the deck may read was saved again"]


def test_a_users_copy_among_outdated_per_card_files_stays(game):
    build(game, "--per-card")
    mine = game / "output" / "my-game" / "cards" / "001-cards-scout.png"
    mine.write_bytes(mine.read_bytes() + b"retouched")  # changed since printkit wrote it: the user's
    (mine.parent / "notes.txt").write_text("mine", encoding="utf-8")
    edit_a_card(game)
    build(game)
    assert per_card(game) == {"my-game/cards/001-cards-scout.png", "my-game/cards/notes.txt"}
    assert not per_card(game) & listed(game)


def test_rulebooks_of_an_earlier_version_of_the_deck_go_with_no_rulebooks(game):
    books = {p for p in listed(game) if "/rulebook-" in p}
    assert books == {"my-game/rulebook-en-a4.pdf"}
    build(game, "--no-rulebooks")  # the deck as it is: kept
    assert books <= listed(game) and books <= on_disk(game)
    edit_a_card(game)
    result = build(game, "--no-rulebooks")
    assert not books & (listed(game) | on_disk(game))
    assert "note: my-game: removed 1 rulebook made before a file the deck may read was saved again" in result.output


def test_another_papers_sheets_of_an_earlier_version_of_the_deck_go(game):
    a4 = {"my-game/sheets-a4.pdf", "my-game/sheets-fronts-a4.pdf", "my-game/rulebook-en-a4.pdf"}
    build(game, "--paper", "letter")  # the deck as it is: the A4 files are kept
    assert a4 <= listed(game) and a4 <= on_disk(game)
    edit_a_card(game)
    result = build(game, "--paper", "letter")
    assert not a4 & (listed(game) | on_disk(game))
    assert {"my-game/sheets-letter.pdf", "alignment-a4.pdf"} <= listed(game)  # the alignment test is no deck's
    assert "note: my-game: removed 2 sheet files made before a file the deck may read was saved again" in result.output
    assert "note: my-game: removed 1 rulebook made before a file the deck may read was saved again" in result.output
    assert listed(game) == on_disk(game)


def test_a_build_of_one_card_keeps_the_other_cards_files_of_an_earlier_version(game):
    build(game, "--per-card")
    files = per_card(game)
    edit_a_card(game)
    result = build(game, "--card", "scout")
    assert "removed" not in result.output
    assert per_card(game) == files and files <= listed(game)


def test_a_variant_not_built_keeps_its_files(game):
    with_variants(game, VARIANTS)
    build(game, "--per-card")
    heroes = {p for p in listed(game) if p.startswith("my-game/heroes/cards/")}
    edit_a_card(game)
    result = build(game, "--variant", "full")  # builds full/ only: heroes/ is not judged
    assert heroes and heroes <= listed(game) and heroes <= on_disk(game)
    assert not {p for p in on_disk(game) if p.startswith("my-game/full/cards/")}
    assert "note: my-game/full: removed" in result.output


def test_files_an_older_printkit_listed_without_their_inputs_go(game):
    build(game, "--per-card")
    files = per_card(game)
    manifest = game / "output" / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    for item in data["files"]:
        item.pop("inputs", None)  # as printkit wrote it before it recorded them
    manifest.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    result = build(game)
    assert per_card(game) == set() and listed(game) == on_disk(game)
    assert f"note: my-game: removed {len(files)} per-card files not known to be made from the deck as it is now" \
        in result.output


# --- a deck whose spec is gone from a folder the build reads specs from ---

def test_a_deck_whose_spec_is_taken_out_of_the_folder_goes(game):
    shutil.copy(game / "my-game.yaml", game / "spare.yaml")
    build(game, "--per-card")
    spare = {p for p in listed(game) if p.startswith("spare/")}
    assert {"spare/sheets-a4.pdf", "spare/cards/back-1.pdf", "spare/proof.html"} <= spare
    (game / "output" / "spare" / "notes.txt").write_text("mine", encoding="utf-8")  # the user's: stays
    (game / "spare.yaml").unlink()

    kept = build(game, "my-game", "--card", "scout")  # a build of one card judges no other file
    assert spare <= listed(game) and spare <= on_disk(game) and "spare" not in kept.output

    result = build(game, "my-game")  # the spec's folder is read: its deck is gone
    assert not {p for p in listed(game) | on_disk(game) if p.startswith("spare/")} - {"spare/notes.txt"}
    assert (game / "output" / "spare" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert f"note: spare: removed {len(spare)} files of spare.yaml, which no longer exists" in result.output
    assert listed(game) == on_disk(game) - {"spare/notes.txt"}



def test_one_build_judges_each_earlier_file_once_removing_stale_ones_of_every_kind(game):
    """A rulebook whose text is gone (though also made from an earlier version of the deck), per-card
    files of an earlier version, a deck whose spec is gone: one build removes them all, each said once."""
    shutil.copy(game / "my-game.yaml", game / "spare.yaml")
    build(game, "--per-card")
    files = per_card(game)
    spare = {p for p in listed(game) if p.startswith("spare/")}
    book = "my-game/rulebook-en-a4.pdf"
    assert files and spare and book in listed(game)
    (game / "spare.yaml").unlink()
    (game / "my-game.rules.en.md").unlink()
    edit_a_card(game)
    result = build(game)
    gone = files | spare | {book}
    assert not gone & (listed(game) | on_disk(game)) and listed(game) == on_disk(game)
    assert f"{len(gone)} earlier files removed" in result.output
    notes = [line for line in result.output.splitlines() if line.startswith("note: ")]
    assert notes == [f"note: my-game: removed {len(files)} per-card files made before a file the deck may read was "
                     "saved again",
                     f"note: spare: removed {len(spare)} files of spare.yaml, which no longer exists"]


# --- a deck whose inputs cannot all be looked at ---

def many_files(folder: Path, count: int = 5_001) -> None:
    folder.mkdir(parents=True)
    for n in range(count):
        (folder / f"{n:05}").write_bytes(b"x")


def test_kept_files_stay_with_a_note_when_the_spec_folder_has_too_many_files_to_check(game):
    build(game, "--per-card")
    files = per_card(game)
    many_files(game / "photos")
    result = build(game)
    assert per_card(game) == files and files <= listed(game)
    assert (f"note: my-game: kept {len(files)} per-card files without checking them against the deck "
            "(its folder holds more than 5,000 files, or one changed while the build read it)") in result.output
    assert "removed" not in result.output


def test_kept_files_stay_and_go_with_an_edit_when_the_many_files_are_in_a_hidden_folder(game):
    build(game, "--per-card")
    files = per_card(game)
    many_files(game / ".git" / "objects")  # a spec in a git repository: not the deck's
    result = build(game)
    assert per_card(game) == files and files <= listed(game)
    assert "note:" not in result.output
    edit_a_card(game)
    result = build(game)
    assert per_card(game) == set() and listed(game) == on_disk(game)
    assert (f"note: my-game: removed {len(files)} per-card files made before a file the deck may read "
            "was saved again") in result.output


def test_a_picture_in_a_hidden_folder_is_refused_with_its_place(game):
    spec = game / "my-game.yaml"
    (game / ".art").mkdir()
    shutil.copy(game / "picture.svg", game / ".art" / "picture.svg")
    text = spec.read_text(encoding="utf-8")
    assert "picture.svg" in text
    spec.write_text(text.replace("picture.svg", ".art/picture.svg", 1), encoding="utf-8")
    result = invoke_in(game, "build", "--jobs", "1")
    assert result.exit_code != 0
    assert "my-game.yaml:" in result.output and "inside the hidden folder '.art'" in result.output
    assert "Traceback" not in result.output


def test_files_stamped_by_a_clock_ahead_of_the_builds_do_not_keep_kept_files_from_being_checked(game, monkeypatch):
    import time

    build(game, "--per-card")
    files = per_card(game)
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() - 3_600_000_000_000)  # this clock an hour behind
    result = build(game)
    assert per_card(game) == files and "note:" not in result.output
    edit_a_card(game)  # stamped by the file system's clock, an hour ahead
    result = build(game)
    assert per_card(game) == set() and listed(game) == on_disk(game)
    assert (f"note: my-game: removed {len(files)} per-card files made before a file the deck may read "
            "was saved again") in result.output


def test_kept_files_stay_after_a_printkit_update(game, monkeypatch, tmp_path):
    import printkit.resources

    real, fonts = printkit.resources.bundled_dir, tmp_path / "installed-fonts"
    shutil.copytree(real("fonts"), fonts)
    monkeypatch.setattr(printkit.resources, "bundled_dir", lambda name: fonts if name == "fonts" else real(name))
    build(game, "--per-card")
    files = per_card(game)
    shutil.rmtree(fonts)
    shutil.copytree(real("fonts"), fonts)  # installed again: new files, new times
    result = build(game)
    assert per_card(game) == files and files <= listed(game)
    assert "note:" not in result.output


def test_a_note_quoting_a_spec_name_with_control_characters_is_escaped(game):
    from printkit.watch import Outcome

    shutil.copy(game / "my-game.yaml", game / "spare.yaml")
    build(game)
    manifest = game / "output" / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    for item in data["files"]:
        if item["path"].startswith("spare/"):
            item["spec"] = "sp\x1b[2Jare\n.yaml"  # as a manifest from elsewhere may name it
    manifest.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    result = build(game, "my-game")
    assert "files of sp\\x1b[2Jare\\n.yaml, which no longer exists" in result.output
    assert "\x1b" not in result.output
    lines = Outcome("my-game.yaml changed", 0.1, 3, notes=("spare: removed 2 files of sp\x1b[2Jare\n.yaml",)).lines()
    assert lines[-1] == "  note: spare: removed 2 files of sp\\x1b[2Jare\\n.yaml"


def test_a_spec_whose_path_cannot_be_resolved_has_one_place(tmp_path):
    from printkit.pipeline.manifest import resolved_spec, spec_place

    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)  # a loop of links: its reader reports it
    assert resolved_spec(loop) == loop
    assert spec_place(loop)[0] == "loop.yaml"


def test_files_not_printkits_in_a_deck_folder_are_left_and_said_at_every_build(game):
    out = game / "output"
    (out / "my-game" / "cards").mkdir()
    old = out / "my-game" / "cards" / "050-cards-old.png"
    old.write_bytes(b"an earlier export of the user's")
    (out / "mine.txt").write_text("beside the decks: not in a folder printkit writes\n")
    said = ("note: 1 file in the deck folders printkit writes is not printkit's (it did not write it, or it was "
            "changed since), so it was left as it is: my-game/cards/050-cards-old.png; move it out of the output "
            "folder before sending it to be printed")
    assert said in build(game).output  # listed again from its record: nothing else changed
    assert said in build(game, "--no-cache").output  # built
    assert old.read_bytes() == b"an earlier export of the user's" and (out / "mine.txt").is_file()

    for n in range(6):
        (out / "my-game" / f"notes-{n}.txt").write_text("mine\n")
    text = build(game).output
    assert ("note: 7 files in the deck folders printkit writes are not printkit's (it did not write them, or they "
            "were changed since), so they were left as they are: my-game/notes-0.txt, my-game/notes-1.txt, "
            "my-game/notes-2.txt, my-game/notes-3.txt, my-game/notes-4.txt (and 2 more); move them out") in text
    shutil.rmtree(out / "my-game" / "cards")
    for n in range(6):
        (out / "my-game" / f"notes-{n}.txt").unlink()
    assert "not printkit's" not in build(game).output
    exported = invoke_in(game, "export", "my-game", "--for", "tgc")  # into output/my-game/export-tgc: its own
    assert exported.exit_code == 0 and (out / "my-game" / "export-tgc" / "README.txt").is_file(), exported.output
    assert "not printkit's" not in build(game, "--no-cache").output


def test_looking_for_files_not_printkits_reads_no_file_the_build_just_wrote(tmp_path, monkeypatch):
    # The build knows what it put in place: hashing its files again would double a large build's reading.
    import printkit.pipeline.manifest as manifest

    assert invoke_in(tmp_path, "new", "my-game").exit_code == 0
    read: list[Path] = []
    hashed = manifest.current_sha256
    monkeypatch.setattr(manifest, "current_sha256", lambda path: read.append(path) or hashed(path))
    build(tmp_path / "my-game", "--per-card", "--no-cache")
    assert len(listed(tmp_path / "my-game")) > 10 and read == []
    (tmp_path / "my-game" / "output" / "my-game" / "mine.txt").write_text("mine\n")
    assert "my-game/mine.txt" in build(tmp_path / "my-game", "--per-card", "--no-cache").output
    assert len(read) == len(set(read))  # each listed file read once (as it is now: not known to the build)
