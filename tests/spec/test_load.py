import os
from pathlib import Path

import pytest

from printkit.errors import SpecError
from printkit.spec import find_spec, load_spec
from printkit.decks import load_all_variants, load_deck
from printkit.spec.yamlread import parse_yaml


def test_real_decks_expand_to_their_counts():
    totals = {(d.deck_id, d.variant): len(d) for name in ("calc", "stack", "clag") for d in load_all_variants(name)}
    assert totals == {("calc", "standard"): 133, ("calc", "expert"): 177, ("stack", None): 52, ("clag", None): 52}


def test_default_variant_is_the_first():
    assert load_deck("calc").variant == "standard"
    assert load_deck("calc", "expert").variant == "expert"


def test_unknown_variant_is_a_spec_error():
    with pytest.raises(SpecError, match="unknown variant 'hard'.*standard, expert"):
        load_deck("calc", "hard")


def test_positions_are_recorded_for_keys_and_values():
    doc = parse_yaml(b"game: calc\nname: X\ngroups:\n  - name: a\n    copies: 3\n", Path("x.yaml"))
    assert doc.values[("groups", 0, "copies")] == (5, 13)
    assert doc.keys[("groups", 0, "copies")] == (5, 5)
    assert doc.position(("groups", 0, "nothere")) == (4, 5)


def test_numeric_keys_keep_the_text_typed():
    doc = parse_yaml(b"expect: {by: {number: {7: 4, -1: 4}}}\n", Path("x.yaml"))
    assert doc.data["expect"]["by"]["number"] == {"7": 4, "-1": 4}


def test_find_spec_by_name_and_path(repo):
    assert find_spec("calc") == repo / "decks" / "calc.yaml"
    assert find_spec("some/where.yaml") == Path("some/where.yaml")
    with pytest.raises(SpecError, match="no deck named 'nope'"):
        find_spec("nope")


def test_spec_error_message_names_file_line_and_column(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("game: calc\nname: X\ngroups:\n  - name: a\n    cards: [{a: 1}]\n    colour: red\n")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert info.value.line == 6 and info.value.column == 5
    assert str(info.value) == f"{path}:6:5: unknown key 'colour' (expected one of: " + ", ".join(
        ["name", "attrs", "generate", "combine", "cards", "data", "sheet", "copies", "exclude", "overrides", "art", "variants", "size", "expect", "layout", "back_layout", "face_on_both_sides", "role"]
    ) + ")"


def test_a_spec_changed_on_disk_is_read_again(tmp_path):
    path = tmp_path / "d.yaml"
    path.write_text("game: g\nname: First\ngroups:\n  - name: n\n    cards: [{a: 1}]\n")
    first = load_spec(path)
    assert load_spec(path) is first  # the same bytes are parsed and validated once per process
    path.write_text("game: g\nname: Second\ngroups:\n  - name: n\n    cards: [{a: 1}, {a: 2}]\n")
    assert load_spec(path).spec.name == "Second"
    path.write_text("game: g\nname: [broken\n")
    with pytest.raises(SpecError):
        load_spec(path)


def test_devices_pipes_and_folders_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for path, reason in [(Path("/dev/zero"), "not a regular file"), (fifo, "not a regular file"), (tmp_path, "folder")]:
        with pytest.raises(SpecError, match=reason):
            load_spec(path)


def test_oversized_spec_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * 1_000_001)
    with pytest.raises(SpecError, match="limit is 1000000"):
        load_spec(path)


def test_a_spec_named_alike_in_another_folder_draws_its_own_pictures(tmp_path, monkeypatch):
    """One process, the same relative spec name and bytes in two folders (a script that changes
    its working folder): each deck draws the picture beside its own spec."""
    from PIL import Image as PILImage

    from printkit.pipeline.context import BuildContext, BuildOptions
    from printkit.pipeline.build import load_decks

    spec = ("game: artdeck\nname: Art deck\ncard: {size: poker}\nlayouts:\n  card:\n    elements:\n"
            "      - {name: art, kind: image, image: art.png, x: 4mm, y: 4mm, width: 20mm, height: 20mm}\n"
            "groups:\n  - {name: cards, layout: card, cards: [{title: One}]}\n")
    drawn = []
    for folder, colour in (("first", "red"), ("second", "blue")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "deck.yaml").write_text(spec, encoding="utf-8")
        PILImage.new("RGB", (8, 8), colour).save(tmp_path / folder / "art.png")
        monkeypatch.chdir(tmp_path / folder)
        deck = load_decks(["deck.yaml"])[0]
        front = BuildContext(BuildOptions(out_dir=tmp_path / folder / "out")).faces(deck).front(deck.cards[0])
        drawn.append(next(op.path for op in front.ops if hasattr(op, "path")))
    assert drawn == [(tmp_path / "first" / "art.png").resolve(), (tmp_path / "second" / "art.png").resolve()]
