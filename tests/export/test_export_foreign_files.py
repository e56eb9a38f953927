"""The folders an export tells the user to send hold printkit's files only; README.txt counts in words."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from printkit.cli import main
from printkit.decks import load_deck
from printkit.errors import BuildError
from printkit.export import ExportOptions, export_deck

ONE = """game: one
name: One
groups:
  - name: cards
    cards: [{name: Knight}]
"""


def _deck(tmp_path, text=ONE):
    spec = tmp_path / "one.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


def _refused(spec, out) -> str:
    """The one line a print-shop export of ``spec`` into ``out`` is refused with (no traceback)."""
    result = CliRunner().invoke(main, ["export", str(spec), "--for", "print-shop", "--out", str(out)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    return lines[0]


def test_a_file_of_the_users_in_upload_refuses_the_export_before_anything_is_written(tmp_path):
    spec = _deck(tmp_path)
    out = tmp_path / "shop"
    (out / "upload").mkdir(parents=True)
    (out / "upload" / "cards-old.pdf").write_bytes(b"old")
    assert _refused(spec, out) == (
        f"error: cannot export into {str(out)!r}: upload/cards-old.pdf is not printkit's (it did not write it, or "
        "it was changed since), and README.txt would tell you to send everything in that folder; move it out of "
        "the export folder (printkit never removes a file it did not write) or use another --out")
    # Nothing written, the user's file kept as it was.
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["upload", "upload/cards-old.pdf"]
    assert (out / "upload" / "cards-old.pdf").read_bytes() == b"old"
    # Moved away, the export goes through, and again over its own files.
    (out / "upload" / "cards-old.pdf").unlink()
    for _ in range(2):
        export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out))
    assert sorted(p.name for p in (out / "upload").iterdir()) == ["cards.pdf"]


def test_printkits_own_file_changed_since_is_named_with_every_other(tmp_path):
    spec = _deck(tmp_path)
    out = tmp_path / "shop"
    export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out))
    (out / "upload" / "cards.pdf").write_bytes(b"edited")
    for name in ("a.pdf", "b.pdf", "c.pdf", "d.pdf", "e.pdf", "f.pdf"):
        (out / "upload" / name).write_bytes(b"x")
    with pytest.raises(BuildError) as caught:
        export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out))
    message = str(caught.value)
    assert ("upload/a.pdf, upload/b.pdf, upload/c.pdf, upload/cards.pdf, upload/d.pdf (and 2 more) are not "
            "printkit's (it did not write them, or they were changed since)") in message
    assert "move them out of the export folder" in message
    assert (out / "upload" / "cards.pdf").read_bytes() == b"edited"


@pytest.mark.parametrize("target, folder", [("tgc", "cards"), ("tts", "images")])
def test_image_folders_are_held_to_the_same(tmp_path, target, folder):
    spec = _deck(tmp_path)
    out = tmp_path / "out"
    export_deck(load_deck(str(spec)), ExportOptions(target=target, out_dir=out))
    (out / folder / ".DS_Store").write_bytes(b"finder")  # what a file browser leaves: not the user's to find
    export_deck(load_deck(str(spec)), ExportOptions(target=target, out_dir=out))
    (out / folder / "extra").mkdir()
    (out / folder / "extra" / "mine.png").write_bytes(b"png")
    with pytest.raises(BuildError, match=f": {folder}/extra/mine.png is not printkit's "):
        export_deck(load_deck(str(spec)), ExportOptions(target=target, out_dir=out))


def test_readme_says_one_card_and_one_page_in_the_singular(tmp_path):
    spec = _deck(tmp_path)
    (tmp_path / "one.rules.en.md").write_text("# One\n\nPlay the Knight.\n", encoding="utf-8")
    out = tmp_path / "shop"
    export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out))
    readme = (out / "README.txt").read_text(encoding="utf-8")
    assert "1 card in all (One)." in readme
    assert "upload/cards.pdf           1 card: page 1 its front, page 2 its back" in readme
    assert "upload/rulebook-en-a4.pdf  the rulebook (en): 1 A4 page, one copy per game" in readme
    export_deck(load_deck(str(spec)), ExportOptions(target="tgc", out_dir=tmp_path / "tgc"))
    readme = (tmp_path / "tgc" / "README.txt").read_text(encoding="utf-8")
    assert "- cards/: 1 card (1 distinct), back cards/back.png." in readme
    assert "the back of 1 card in cards/" in readme


def test_folders_too_full_to_look_through_refuse_the_export(tmp_path, monkeypatch):
    """A file past the names looked through is not let through: more than the limit refuses."""
    from printkit.export import folders

    monkeypatch.setattr(folders, "_MAX_FILES", 20)
    spec = _deck(tmp_path)
    out = tmp_path / "shop"
    for n in range(21):  # what a file browser leaves in each folder it opens, then the user's file past them
        (out / "upload" / f"a{n:02d}").mkdir(parents=True)
        (out / "upload" / f"a{n:02d}" / ".DS_Store").write_bytes(b"finder")
    (out / "upload" / "zz").mkdir()
    (out / "upload" / "zz" / "evil.pdf").write_bytes(b"not printkit's")
    assert _refused(spec, out) == (
        f"error: cannot export into {str(out)!r}: upload/ holds more than 20 files, more than printkit looks "
        "through to be sure each is its own, and README.txt would tell you to send everything in it; empty it "
        "(or move it out of the export folder) or use another --out")
    assert not (out / "upload" / "cards.pdf").exists() and not (out / "README.txt").exists()
    assert (out / "upload" / "zz" / "evil.pdf").read_bytes() == b"not printkit's"


def test_an_earlier_exports_file_this_one_does_not_write_is_removed_with_a_note(tmp_path):
    spec = _deck(tmp_path)
    (tmp_path / "one.rules.en.md").write_text("# One\n\nPlay the Knight.\n", encoding="utf-8")
    out = tmp_path / "shop"
    first = CliRunner().invoke(main, ["export", str(spec), "--for", "print-shop", "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert sorted(p.name for p in (out / "upload").iterdir()) == ["cards.pdf", "rulebook-en-a4.pdf"]
    again = CliRunner().invoke(main, ["export", str(spec), "--for", "print-shop", "--out", str(out), "--no-rulebooks"])
    assert again.exit_code == 0, again.output
    assert ("note: removed upload/rulebook-en-a4.pdf, an earlier export's file this export does not write "
            "(README.txt says to send everything in upload/)") in again.output.splitlines()
    assert sorted(p.name for p in (out / "upload").iterdir()) == ["cards.pdf"]
    assert "rulebook" not in (out / "README.txt").read_text(encoding="utf-8")
    assert "rulebook" not in (out / "manifest.json").read_text(encoding="utf-8")
    # A file of the user's there still refuses the export, and stays.
    (out / "upload" / "mine.pdf").write_bytes(b"mine")
    refused = CliRunner().invoke(main, ["export", str(spec), "--for", "print-shop", "--out", str(out)])
    assert refused.exit_code == 1 and "upload/mine.pdf is not printkit's" in refused.output
    assert (out / "upload" / "mine.pdf").read_bytes() == b"mine"



def test_an_earlier_file_printkit_cannot_prove_its_own_stays_with_a_warning(tmp_path):
    import json

    spec = _deck(tmp_path)
    (tmp_path / "one.rules.en.md").write_text("# One\n\nPlay the Knight.\n", encoding="utf-8")
    out = tmp_path / "shop"
    export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out))
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for item in manifest["files"]:  # as an older printkit listed it: no record that proves it printkit's
        item.pop("written", None)
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out, rulebooks=False))
    assert (out / "upload" / "rulebook-en-a4.pdf").exists()
    assert ("upload/rulebook-en-a4.pdf, an earlier export's file this export does not write, is still there: "
            "printkit cannot prove it wrote it, so leaves it; move it out of upload/ before sending everything "
            "in upload/") in result.warnings
    assert not result.notes


def test_an_earlier_exports_file_edited_while_the_export_renders_stays(tmp_path, monkeypatch):
    """The folders to send are looked through before rendering; a file of printkit's there that the
    user edits meanwhile is theirs by the time the export ends, and is not removed."""
    from printkit.export import folders, service

    spec = _deck(tmp_path)
    (tmp_path / "one.rules.en.md").write_text("# One\n\nPlay the Knight.\n", encoding="utf-8")
    out = tmp_path / "shop"
    export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out))
    rulebook = out / "upload" / "rulebook-en-a4.pdf"

    def take_then_edit(ctx, names):
        folders.take_folders(ctx, names)  # the rulebook is printkit's here
        rulebook.write_bytes(b"edited by the user")

    monkeypatch.setattr(service, "take_folders", take_then_edit)
    result = export_deck(load_deck(str(spec)), ExportOptions(target="print-shop", out_dir=out, rulebooks=False))
    assert rulebook.read_bytes() == b"edited by the user"
    assert "upload/rulebook-en-a4.pdf" not in result.removed and not result.notes
    # Not taken for the earlier export's file, which printkit would try to remove and warn of.
    assert not [w for w in result.warnings if "rulebook" in w]
    assert "rulebook" not in (out / "manifest.json").read_text(encoding="utf-8")
