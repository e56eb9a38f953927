"""`printkit build --draft`: a deck proofed before its art exists, and nothing of it mistaken for print."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdfium2
import pytest

from cli_in import invoke_in
from printkit.cli import main

ROOT = Path(__file__).resolve().parent.parent
MISSING = ("ash-stalker", "antler-king", "bloom")


@pytest.fixture
def unfinished(tmp_path) -> Path:
    """Emberfall with the art of three cards not drawn yet."""
    for name in ("emberfall", "emberfall.yaml", "emberfall.rules.en.md", "emberfall.rules.ko.md"):
        source = ROOT / "decks" / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    for card in MISSING:
        (tmp_path / "emberfall" / "art" / f"{card}.svg").unlink()
    return tmp_path


def page_text(pdf: Path, index: int) -> str:
    document = pypdfium2.PdfDocument(str(pdf))
    return document[index].get_textpage().get_text_range()


def test_a_draft_builds_with_placeholders_and_says_each_missing_picture(unfinished):
    result = invoke_in(unfinished, "build", "emberfall.yaml", "--draft", "--out", "out", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    for card in MISSING:
        assert any(line.startswith("warning: emberfall: draft: drawn as a placeholder: emberfall/cards.csv:")
                   and f"'emberfall/art/{card}.svg' not found" in line for line in result.stderr.splitlines())
    out = unfinished / "out"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["files"] and all(f.get("draft") is True for f in manifest["files"])
    kinds = {f["kind"] for f in manifest["files"]}
    assert not kinds & {"card-pdf", "card-png", "rulebook", "rulebook-booklet"}, kinds
    sheets = out / "emberfall" / "sheets-fronts-a4.pdf"
    first = page_text(sheets, 0)  # Ember Drake x2, Cinder Pup x2, Ash Stalker x2, ...
    assert "DRAFT \u2014 not for print" in first
    assert "missing: emberfall/art/ash-stalker.svg" in first
    proof = (out / "emberfall" / "proof.html").read_text(encoding="utf-8")
    assert "<b>DRAFT: not for print.</b> 3 pictures drawn as placeholders: emberfall/art/antler-king.svg, " \
           "emberfall/art/ash-stalker.svg, emberfall/art/bloom.svg" in proof
    assert "<title>DRAFT Emberfall: proof</title>" in proof


def test_the_placeholder_is_seen_where_the_art_would_be(unfinished):
    assert invoke_in(unfinished, "build", "emberfall.yaml", "--draft", "--out", "out", "--jobs", "1",
                     "--no-proof").exit_code == 0
    sheets = unfinished / "out" / "emberfall" / "sheets-fronts-a4.pdf"
    document = pypdfium2.PdfDocument(str(sheets))
    page = document[0]
    image = page.render(scale=2).to_pil().convert("RGB")
    width, height = image.size

    def greys(box) -> int:  # pixels of the placeholder's fill (#f4f4f4) in a part of the page
        data = image.crop(tuple(int(v) for v in box)).tobytes()
        return sum(1 for i in range(0, len(data), 3)
                   if all(238 <= c <= 250 for c in data[i:i + 3]) and abs(data[i] - data[i + 2]) < 4)

    # A4, 3x3 cards: the middle card of the second row is an Ash Stalker (art missing), the first
    # of that row a Cinder Pup (art drawn). Their art bands lie a fifth of a card below the top.
    row = (height * 0.36, height * 0.48)
    ash = greys((width * 0.36, row[0], width * 0.64, row[1]))
    pup = greys((width * 0.05, row[0], width * 0.33, row[1]))
    assert ash > 5000 and pup < 50, (ash, pup)


def test_without_draft_the_same_deck_is_refused_naming_all_three(unfinished):
    result = invoke_in(unfinished, "build", "emberfall.yaml", "--out", "out", "--jobs", "1")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "3 errors"
    assert not (unfinished / "out" / "manifest.json").exists()


@pytest.mark.parametrize("option", [["--per-card"], ["--card", "kindle"]])
def test_a_draft_writes_no_per_card_files(unfinished, option):
    result = invoke_in(unfinished, "build", "emberfall.yaml", "--draft", *option, "--out", "out")
    assert result.exit_code == 1
    assert "a draft writes no per-card files" in result.stderr
    assert not (unfinished / "out").exists()


def test_a_draft_still_refuses_what_is_not_a_picture(unfinished):
    text = unfinished / "emberfall.rules.en.md"
    text.write_text(text.read_text(encoding="utf-8").replace("deck.by.type.Relic", "deck.by.type.Relik"),
                    encoding="utf-8")
    result = invoke_in(unfinished, "build", "emberfall.yaml", "--draft", "--out", "out")
    assert result.exit_code == 1
    assert result.stderr.startswith("emberfall.rules.en.md:14: unknown value 'deck.by.type.Relik'")


def test_watch_takes_draft_as_build_does():
    defaults = {name: {p.name: p.default for p in main.commands[name].params} for name in ("build", "watch")}
    assert defaults["build"]["draft"] is False
    assert defaults["watch"]["draft"] is False


def test_a_watch_with_draft_rebuilds_the_unfinished_deck(unfinished, monkeypatch):
    from printkit import watch
    from printkit.pipeline.context import BuildOptions

    monkeypatch.chdir(unfinished)
    target = watch.target(["emberfall.yaml"])
    drafted = watch.rebuild(target, None, BuildOptions(out_dir=Path("out"), draft=True, jobs=1), "first build")
    assert drafted.error is None and drafted.files
    assert sum("drawn as a placeholder" in w for w in drafted.warnings) == 3
    refused = watch.rebuild(target, None, BuildOptions(out_dir=Path("out2"), jobs=1), "first build")
    assert refused.files is None and len(refused.more_errors) == 2, refused
    assert "(and 2 more errors)" in refused.lines()[0] and refused.lines()[1].startswith("  emberfall/cards.csv:")


def test_a_draft_never_reads_a_picture_outside_the_spec_folder(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    (tmp_path / "outside.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
                                          '<rect width="1" height="1" filter="url(#secret)"/></svg>')
    (deck / "deck.yaml").write_text("game: d\nname: D\nart:\n  background_image: ../outside.svg\n"
                                    "groups:\n  - name: g\n    cards: [{id: a}]\n")
    result = invoke_in(deck, "build", "deck.yaml", "--draft", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 1
    assert "leads outside the spec's folder" in result.stderr and "filter" not in result.stderr
    assert not (deck / "out" / "d" / "sheets-a4.pdf").exists()
