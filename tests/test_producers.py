"""A producer is a record that says what it needs of the build: adding one to the build's list is
all it takes for its files to be written, listed, kept for an unchanged deck and named in errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from printkit.errors import BuildError
from printkit.pipeline import faces as laying_out
from printkit.pipeline.build import build, load_decks
from printkit.pipeline.context import BuildOptions
from printkit.pipeline.names import deck_folder
from printkit.pipeline.producers import PRODUCERS, Producer, produce_alignment, produce_sheets

SPEC = "game: demo\nname: Notes\ngroups:\n  - name: cards\n    cards:\n      - {title: One}\n      - {title: Two}\n"


@pytest.fixture
def spec(tmp_path) -> Path:
    path = tmp_path / "notes.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


@pytest.fixture
def made(monkeypatch) -> list[str]:
    """The decks laid out from now on (not listed again from their records), by name."""
    seen: list[str] = []
    real = laying_out.Faces.__init__
    monkeypatch.setattr(laying_out.Faces, "__init__",
                        lambda faces, deck, ctx, **kw: seen.append(deck.name) or real(faces, deck, ctx, **kw))
    return seen


def notes_producer(calls: list[str]) -> Producer:
    def notes(decks, ctx):
        for deck in decks:
            calls.append(deck.name)
            yield ctx.write(f"{deck_folder(deck)}/notes.txt", f"notes on {deck.name}\n".encode(),
                            kind="notes", deck=deck)

    return Producer("notes", notes, "card notes")


def options(tmp_path: Path, **more) -> BuildOptions:
    return BuildOptions(out_dir=tmp_path / "out", rulebooks=False, proof=False, **more)


def test_a_producer_added_to_the_list_is_written_listed_and_kept_for_an_unchanged_deck(tmp_path, spec, made):
    calls: list[str] = []
    producers = (*PRODUCERS, notes_producer(calls))
    first = build(load_decks([str(spec)]), options(tmp_path), producers=producers)
    assert (tmp_path / "out" / "notes" / "notes.txt").read_text() == "notes on Notes\n"
    listed = {f["path"]: f["kind"] for f in json.loads(first.manifest.read_text())["files"]}
    assert listed["notes/notes.txt"] == "notes"
    second = build(load_decks([str(spec)]), options(tmp_path), producers=producers)
    assert calls == ["Notes"] and made == ["Notes"]  # the second build listed the deck again, drew nothing
    assert [e.path for e in second.entries if e.deck] == [e.path for e in first.entries if e.deck]
    assert "alignment-a4.pdf" in [e.path for e in second.entries]  # a deckless producer runs all the same


def test_a_decks_record_is_of_the_producers_that_ran(tmp_path, spec, made):
    calls: list[str] = []
    build(load_decks([str(spec)]), options(tmp_path), producers=(produce_sheets, notes_producer(calls)))
    fewer = build(load_decks([str(spec)]), options(tmp_path), producers=(produce_sheets, produce_alignment))
    assert made == ["Notes", "Notes"]  # not listed again from a record that holds notes.txt
    assert "notes/notes.txt" not in [e.path for e in fewer.entries]
    again = build(load_decks([str(spec)]), options(tmp_path), producers=(produce_sheets, produce_alignment))
    assert made == ["Notes", "Notes"] and [e.path for e in again.entries] == [e.path for e in fewer.entries]


def test_a_producer_that_cannot_replay_always_builds(tmp_path, spec, made):
    calls: list[str] = []
    once = notes_producer(calls)
    always = Producer(once.name, once.make, once.what, replay=False)
    for _ in range(2):
        build(load_decks([str(spec)]), options(tmp_path), producers=(produce_sheets, always))
    assert calls == made == ["Notes", "Notes"]


def test_a_card_build_runs_the_per_card_producers_only(tmp_path, spec):
    calls: list[str] = []
    result = build(load_decks([str(spec)]), options(tmp_path, cards=("Two",)),
                   producers=(*PRODUCERS, notes_producer(calls)))
    assert calls == []
    assert sorted(e.path for e in result.entries) == [
        "notes/cards/002-cards-two.pdf", "notes/cards/002-cards-two.png", "notes/cards/back-1.pdf",
        "notes/cards/back-1.png"]


def test_a_producers_failure_names_what_it_writes(tmp_path, spec):
    def broken(decks, ctx):
        raise ValueError("no ink")
        yield

    with pytest.raises(BuildError, match=r"^cannot write the card notes: ValueError: no ink$"):
        build(load_decks([str(spec)]), options(tmp_path), producers=(Producer("notes", broken, "card notes"),))
