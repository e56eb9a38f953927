"""`printkit check` proves a build: every mistake of the test corpus fails both commands with the
same located lines (all of a deck's independent mistakes in one run), and what passes one passes both."""

from __future__ import annotations

import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from cli_in import invoke_in

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "data" / "bad"
TINY = "game: demo\nname: Tiny\ngroups:\n  - name: a\n    cards: [{n: 1}, {n: 2}, {n: 3}]\n"


def errors_of(folder: Path, *args: str) -> tuple[int, list[str]]:
    result = invoke_in(folder, *args)
    assert "Traceback" not in result.stderr and result.exception is None or isinstance(result.exception, SystemExit), \
        result.stderr
    return result.exit_code, [line for line in result.stderr.splitlines() if line.strip()]


def check_and_build(folder: Path, *specs: str) -> list[str]:
    """Run both commands on ``specs`` (none: the folder's); both fail with the same lines
    (returned) or both pass. Without specs each first says which folder it reads, in its words."""
    checked = errors_of(folder, "check", "--no-play", *specs)
    out = folder / "out-of-the-build"
    built = errors_of(folder, "build", *specs, "--out", str(out), "--jobs", "1", "--no-proof")
    if not specs:
        assert checked[1][:1] == ["checking the specs in this folder"], checked
        assert built[1][:1] == ["building the specs in this folder"], built
        checked, built = (checked[0], checked[1][1:]), (built[0], built[1][1:])
    assert checked[0] == built[0], (checked, built)
    if checked[0] == 0:
        return []
    assert checked[0] == 1, checked
    warnings = [line for line in built[1] if line.startswith("warning: ")]
    assert checked[1] == [line for line in built[1] if line not in warnings]
    assert not (out / "manifest.json").exists()  # nothing written
    return checked[1]


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.glob("*.yaml")))
def test_every_bad_spec_of_the_corpus_fails_check_and_build_alike(name):
    lines = check_and_build(BAD, name)
    assert lines and all(line.startswith(name) for line in lines), lines


def emberfall(tmp_path: Path) -> Path:
    for name in ("emberfall", "emberfall.yaml", "emberfall.rules.en.md", "emberfall.rules.ko.md"):
        source = ROOT / "decks" / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    return tmp_path


def test_three_missing_pictures_are_named_in_one_run(tmp_path):
    folder = emberfall(tmp_path)
    for card in ("ash-stalker", "antler-king", "bloom"):
        (folder / "emberfall" / "art" / f"{card}.svg").unlink()
    lines = check_and_build(folder, "emberfall.yaml")
    assert len(lines) == 4 and lines[-1] == "3 errors", lines
    for card in ("ash-stalker", "antler-king", "bloom"):
        assert any(line.startswith("emberfall/cards.csv:") and f"image file 'emberfall/art/{card}.svg' not found"
                   in line for line in lines), lines


def test_rule_text_values_the_deck_lacks_fail_check_at_their_lines(tmp_path):
    folder = emberfall(tmp_path)
    text = folder / "emberfall.rules.en.md"
    text.write_text(text.read_text(encoding="utf-8").replace("deck.by.type.Relic", "deck.by.type.Relik")
                    .replace("deck.by.element.wild", "deck.by.element.wyld"), encoding="utf-8")
    lines = check_and_build(folder, "emberfall.yaml")
    assert lines[0].startswith("emberfall.rules.en.md:14: unknown value 'deck.by.type.Relik' "
                               "(known under deck.by.type: Creature, Relic, Spell)"), lines
    assert lines[1].startswith("emberfall.rules.en.md:19: unknown value 'deck.by.element.wyld'"), lines
    assert lines[2:] == ["2 errors"]


def test_a_rule_text_figure_the_deck_cannot_show_fails_check(tmp_path):
    folder = emberfall(tmp_path)
    text = folder / "emberfall.rules.ko.md"
    text.write_text(text.read_text(encoding="utf-8") + "\n::: cards no-such-card\n", encoding="utf-8")
    [line] = check_and_build(folder, "emberfall.yaml")
    assert line.startswith("emberfall.rules.ko.md:") and "no card is named 'no-such-card'" in line, line


def test_a_rule_text_character_no_font_has_fails_check_at_its_line(tmp_path):
    folder = emberfall(tmp_path)
    text = folder / "emberfall.rules.en.md"
    lines = text.read_text(encoding="utf-8").splitlines()
    text.write_text("\n".join(lines + ["", "A rare one \U00020000 here."]) + "\n", encoding="utf-8")
    [line] = check_and_build(folder, "emberfall.yaml")
    assert line.startswith(f"emberfall.rules.en.md:{len(lines) + 2}: no bundled font has the character(s) "
                           "'\U00020000' U+20000; add a font")
    assert line.endswith(" in 'A rare one \U00020000 here.'")


def test_a_deck_name_no_font_has_fails_the_rulebook_at_the_spec_name(tmp_path):
    (tmp_path / "nm.yaml").write_text('game: nm\nname: "Dragon \u6f22\u5b57 \U0001F3B2"\ngroups:\n'
                                      "  - name: cards\n    cards: [{title: A}]\n", encoding="utf-8")
    (tmp_path / "nm.rules.en.md").write_text("Some text.\n", encoding="utf-8")  # titled by the deck's name
    [line] = check_and_build(tmp_path, "nm.yaml")
    assert line.startswith("nm.yaml:2:7: no bundled font has the character(s) '\u5b57' U+5B57, '\u6f22' U+6F22, "
                           "'\U0001F3B2' U+1F3B2; add a font"), line


def test_a_deck_name_no_font_has_is_a_warning_at_the_spec_name_from_check_and_build(tmp_path):
    (tmp_path / "nm.yaml").write_text('game: nm\nname: "Dragon \u6f22\u5b57"\ngroups:\n'
                                      "  - name: cards\n    cards: [{title: A}]\n", encoding="utf-8")
    warning = ("nm.yaml:2:7: no font has the character(s) '\u5b57' U+5B57, '\u6f22' U+6F22 of the deck's name "
               "'Dragon \u6f22\u5b57', so every sheet's footer line leaves them out; add a font (.ttf or .otf) "
               "that has them to the spec")
    checked = invoke_in(tmp_path, "check", "--no-play", "nm.yaml")
    assert checked.exit_code == 0 and f"warning: {warning}" in checked.stdout + checked.stderr, checked.stdout
    built = invoke_in(tmp_path, "build", "nm.yaml", "--no-rulebooks", "--no-proof", "--jobs", "1")
    assert built.exit_code == 0 and f"warning: nm: {warning}" in built.stderr, built.stderr
    ascii_name = tmp_path / "ok.yaml"
    ascii_name.write_text("game: ok\nname: Dragon\ngroups:\n  - name: cards\n    cards: [{title: A}]\n",
                          encoding="utf-8")
    built = invoke_in(tmp_path, "build", "ok.yaml", "--no-rulebooks", "--no-proof", "--jobs", "1")
    assert built.exit_code == 0 and "warning" not in built.stderr, built.stderr


HUGE_NUMBER_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
                   '<path d="M0 0 L1e308 1e308 L0 100 Z" fill="red"/></svg>')


def deep_use_svg(chain: int = 20, depth: int = 60) -> str:
    """<use> of <use> ... each inside ``depth`` groups: within every limit of the check, yet deeper
    than Python's stack when drawn."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             'viewBox="0 0 10 10"><defs><rect id="u0" width="1" height="1"/>']
    for i in range(1, chain):
        parts.append(f'<g id="u{i}">' + "<g>" * depth + f'<use xlink:href="#u{i - 1}"/>' + "</g>" * depth + "</g>")
    parts.append(f'</defs><use xlink:href="#u{chain - 1}"/></svg>')
    return "".join(parts)


@pytest.mark.parametrize("svg, said", [
    (HUGE_NUMBER_SVG, "cannot be drawn: a number in it (1e+308) is too large for a PDF"),
    (deep_use_svg(), "cannot be drawn: it nests groups and <use> too deeply"),
], ids=["1e308", "deep-use"])
def test_svg_art_that_cannot_be_drawn_fails_check_as_build_at_its_card(tmp_path, svg, said):
    folder = emberfall(tmp_path)
    (folder / "emberfall" / "art" / "ember-drake.svg").write_text(svg, encoding="utf-8")
    [line] = check_and_build(folder, "emberfall.yaml")
    assert line.startswith(f"error: emberfall/cards.csv:2: cards 'ember-drake': image 'emberfall/art/ember-drake.svg' "
                           f"{said}"), line


def png_of(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = zlib.compress((b"\0" + b"\0" * width * 3) * height)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def test_a_truncated_back_picture_fails_check_and_build_alike(tmp_path):
    (tmp_path / "bad.png").write_bytes(png_of(4, 4)[:-20])
    (tmp_path / "t.yaml").write_text(TINY + "art: {back: {image: bad.png}}\n", encoding="utf-8")
    [line] = check_and_build(tmp_path, "t.yaml")
    assert line.startswith("t.yaml:6:") and "bad.png" in line


def test_every_refused_picture_and_font_of_every_group_is_named_in_one_run(tmp_path):
    (tmp_path / "t.yaml").write_text(
        "game: demo\nname: Tiny\ngroups:\n"
        "  - name: a\n    art: {background_image: a.png, back: {image: b.png}}\n    cards: [{n: 1}]\n"
        "  - name: b\n    art: {background_image: c.png, font: nofont.ttf}\n    cards: [{n: 2}]\n"
        "  - name: c\n    art: {foreground_image: d.png}\n    cards: [{n: 3}]\n", encoding="utf-8")
    assert check_and_build(tmp_path, "t.yaml") == [
        "t.yaml:5:29: image file 'a.png' not found", "t.yaml:5:50: image file 'b.png' not found",
        "t.yaml:8:42: font file 'nofont.ttf' not found", "t.yaml:8:29: image file 'c.png' not found",
        "t.yaml:11:29: image file 'd.png' not found", "5 errors"]


def test_a_layout_the_spec_lacks_is_said_with_the_data_files_mistakes_in_one_run(tmp_path):
    (tmp_path / "cards.csv").write_text("title,copies\nCalm,2\nLoud,x\n", encoding="utf-8")
    (tmp_path / "t.yaml").write_text(
        "game: demo\nname: Tiny\nlayouts:\n  front:\n    elements:\n"
        "      - {kind: text, text: '{title}', x: 0, y: 0, width: 100%, height: 8mm}\n"
        "groups:\n  - name: a\n    layout: frnt\n    data: cards.csv\n"
        "  - name: b\n    back_layout: nosuch\n    cards: [{title: Odd}]\n", encoding="utf-8")
    assert check_and_build(tmp_path, "t.yaml") == [
        "t.yaml:9:13: unknown layout 'frnt' (did you mean 'front'?); known: front",
        "t.yaml:12:18: unknown layout 'nosuch'; known: front",
        "cards.csv:3:2: copies must be a whole number 0..1000, not 'x'", "3 errors"]


def test_a_deck_that_checks_builds(tmp_path):
    (tmp_path / "t.yaml").write_text(TINY, encoding="utf-8")
    assert check_and_build(tmp_path, "t.yaml") == []


def test_hostile_pictures_and_fonts_fail_check_and_build_alike(tmp_path):
    from test_hostile_inputs import damaged_font, png

    (tmp_path / "w.png").write_bytes(png(50_000_000, 1))
    (tmp_path / "f.ttf").write_bytes(damaged_font())
    (tmp_path / "wide.yaml").write_text(TINY + "art: {back: {image: w.png}}\n", encoding="utf-8")
    (tmp_path / "font.yaml").write_text(TINY + "art: {font: f.ttf}\n", encoding="utf-8")
    (tmp_path / "surrogate.yaml").write_text('game: demo\nname: "x\\ud800"\ngroups:\n  - name: a\n'
                                             '    cards: [{n: 1}]\n', encoding="utf-8")
    assert check_and_build(tmp_path, "wide.yaml")[0].startswith("wide.yaml:6:")
    assert "glyph data is damaged" in check_and_build(tmp_path, "font.yaml")[0]
    assert check_and_build(tmp_path, "surrogate.yaml")[0].startswith("surrogate.yaml:2:7:")


def test_a_run_names_at_most_fifty_mistakes(tmp_path):
    cards = ", ".join(f"{{n: {i}}}" for i in range(60))
    (tmp_path / "many.yaml").write_text(
        "game: demo\nname: Many\nlayouts:\n  f:\n    elements:\n"
        "      - {name: art, kind: image, image: 'art/{n}.png', x: 0, y: 0, width: 10mm, height: 10mm}\n"
        f"groups:\n  - name: a\n    layout: f\n    cards: [{cards}]\n", encoding="utf-8")
    lines = check_and_build(tmp_path, "many.yaml")
    assert len(lines) == 51 and lines[-1] == "50 errors (the first 50; fix them and run again)", lines[-3:]
    assert "image file 'art/49.png' not found" in lines[49]


def test_a_shapes_colour_a_card_gives_fails_check_as_build(tmp_path):
    # A check leaves plain shapes out of the faces it lays out (it draws nothing): their colours
    # are proved where the layout is bound to each card, and refused there as the build refuses them.
    (tmp_path / "deck.yaml").write_text("""\
game: demo
name: Shapes
layouts:
  face:
    elements:
      - {kind: rect, x: 0, y: 0, width: 10mm, height: 10mm, fill: "{tint}"}
      - {kind: ellipse, x: 0, y: 12mm, width: 10mm, height: 10mm, stroke: "{edge}"}
      - {kind: line, x: 0, y: 24mm, width: 10mm, height: 0mm, stroke: "{edge}"}
      - {kind: hatch, x: 0, y: 30mm, width: 10mm, height: 10mm, fill: "{tint}"}
      - {kind: lattice, x: 12mm, y: 30mm, width: 10mm, height: 10mm, fill: "{tint}"}
groups:
  - name: a
    layout: face
    cards:
      - {tint: "#336699", edge: "#000000"}
      - {tint: teel, edge: "#000000"}
      - {tint: "#336699", edge: "mix(#000000, #ffffff, 2)"}
""", encoding="utf-8")
    lines = check_and_build(tmp_path, "deck.yaml")
    assert len(lines) == 3 and lines[-1] == "2 errors", lines
    assert lines[0].startswith("deck.yaml:16:9: ") and "element 1 (rect): 'teel' is not a colour" in lines[0], lines
    assert lines[1].startswith("deck.yaml:17:9: ") and "element 2 (ellipse)" in lines[1] and "the amount '2' of a mix" in lines[1], lines


def test_two_specs_that_would_share_an_output_folder_fail_check_as_build(tmp_path):
    """``my deck.yaml`` and ``my-deck.yaml`` would both write to ``my-deck``: check refuses them as
    the build does, whether the folder's specs are read or both are named (in either order)."""
    for name in ("my deck.yaml", "my-deck.yaml"):
        (tmp_path / name).write_text(TINY, encoding="utf-8")
    first, second = (str((tmp_path / name).resolve()) for name in ("my deck.yaml", "my-deck.yaml"))
    said = "would both write to the output folder 'my-deck'; rename one of them"
    assert check_and_build(tmp_path) == [f"error: specs {first!r} and {second!r} {said}"]
    assert check_and_build(tmp_path, "my deck.yaml", "my-deck.yaml") == [f"error: specs {first!r} and {second!r} {said}"]
    assert check_and_build(tmp_path, "my-deck.yaml", "my deck.yaml") == [f"error: specs {second!r} and {first!r} {said}"]
    (tmp_path / "my deck.yaml").unlink()
    assert check_and_build(tmp_path) == []


SCOUTS = ("game: demo\nname: Scouts\ngroups:\n  - name: scouts\n    copies: 2\n    cards: [{name: scout}]\n"
          "  - name: others\n    cards: [{name: king}, {name: pawn}]\n")


@pytest.mark.parametrize("setup, said", [
    ("Hand: scout x5, king", "'::: setup' deals 5 of 'scout', but the deck has 2; give its piles at most 2 in all"),
    ("Hand: scout; Table: Scout x2", "'::: setup' deals 3 of 'scout', but the deck has 2"),
    ("Deck: back x3; Hand: king, pawn", "'::: setup' deals 5 cards of the deck, but it has 4"),
    ("Deck: back xrest; Hand: back x5", "'::: setup' deals 5 cards of the deck, but it has 4"),
    # A card's rest is the rest of that card, not of the deck: none is left of 2 scouts both in hand.
    ("Hand: scout x2; Deck: scout xrest",
     "'::: setup': the rest of 'scout' is 0 cards (the deck has 2, the other piles deal 2); a pile holds 1 to 60"),
    ("Hand: back x3; Deck: scout xrest", "'::: setup' deals 5 cards of the deck, but it has 4"),
])
def test_a_setup_that_deals_more_than_the_deck_has_fails_check_at_its_line(tmp_path, setup, said):
    (tmp_path / "deck.yaml").write_text(SCOUTS, encoding="utf-8")
    (tmp_path / "deck.rules.en.md").write_text(f"# Scouts\n\nSet up the table.\n\n::: setup {setup}\n\nPlay.\n",
                                               encoding="utf-8")
    lines = check_and_build(tmp_path, "deck.yaml")
    assert len(lines) == 1 and lines[0].startswith(f"deck.rules.en.md:5: setup: {said}"), lines


def test_a_setup_that_deals_what_the_deck_has_passes(tmp_path):
    (tmp_path / "deck.yaml").write_text(SCOUTS, encoding="utf-8")
    (tmp_path / "deck.rules.en.md").write_text("# Scouts\n\n::: setup Deck: back xrest; Hand: scout x2, king\n",
                                               encoding="utf-8")
    assert check_and_build(tmp_path, "deck.yaml") == []


def test_a_list_item_indented_by_a_tab_under_another_fails_check_and_build_at_its_line(tmp_path):
    (tmp_path / "deck.yaml").write_text(SCOUTS, encoding="utf-8")
    (tmp_path / "deck.rules.en.md").write_text(
        "# Scouts\n\n## Turn\n\n- Draw a card.\n\t- If the deck is empty, shuffle.\n- Play a card.\n", encoding="utf-8")
    assert check_and_build(tmp_path, "deck.yaml") == [
        "deck.rules.en.md:6:2: lists do not nest: '- If the deck is empty, shuffle.' is indented under the item "
        "before it; start it at the beginning of the line for an item of its own, or leave out its '-' and start "
        "the line with two spaces to continue the item above"]


def test_a_setup_pile_of_a_cards_rest_shows_how_many_of_that_card_are_left(tmp_path):
    import pypdfium2 as pdfium

    (tmp_path / "deck.yaml").write_text(SCOUTS.replace("copies: 2", "copies: 3"), encoding="utf-8")
    (tmp_path / "deck.rules.en.md").write_text("# Scouts\n\n::: setup Hand: scout, king; Deck: scout xrest\n",
                                               encoding="utf-8")
    assert check_and_build(tmp_path, "deck.yaml") == []
    pdf = pdfium.PdfDocument(tmp_path / "out-of-the-build" / "deck" / "rulebook-en-a4.pdf")
    text = " ".join(page.get_textpage().get_text_range() for page in pdf)
    assert "\u00d72" in text and "\u00d73" not in text, text  # 3 scouts less 1 in hand, not 5 cards less 2


def test_inline_code_in_a_rule_text_prints_its_values_as_written(tmp_path):
    import pypdfium2 as pdfium

    (tmp_path / "deck.yaml").write_text(SCOUTS, encoding="utf-8")
    (tmp_path / "deck.rules.en.md").write_text(
        "# Scouts\n\nThe deck has {{ deck.total }} cards: `{{ deck.total }}` says so, `{{ deck.nope }}` is no value.\n",
        encoding="utf-8")
    assert check_and_build(tmp_path, "deck.yaml") == []  # a key in code is not looked up
    pdf = pdfium.PdfDocument(tmp_path / "out-of-the-build" / "deck" / "rulebook-en-a4.pdf")
    text = " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in pdf)
    assert "The deck has 4 cards: {{ deck.total }} says so, {{ deck.nope }} is no value." in text, text


def test_check_warns_of_a_game_component_the_generic_face_draws_as_build_does(tmp_path):
    # Calc designs its cards and aids; a component of a copied spec it does not design is drawn by
    # the generic face, whose text check lays out and warns of as the build does.
    spec = (ROOT / "decks" / "calc.yaml").read_text(encoding="utf-8")
    spec = spec.replace("\ncomponents:\n", "\ncomponents:\n  - name: notes\n    cards:\n      - {title: Note, text: \""
                        + " ".join(["word"] * 600) + "\"}\n", 1)
    (tmp_path / "calc.yaml").write_text(spec, encoding="utf-8")
    checked = invoke_in(tmp_path, "check", "calc.yaml", "--no-play")
    built = invoke_in(tmp_path, "build", "calc.yaml", "--no-rulebooks", "--no-proof", "--out", str(tmp_path / "out"))
    # build names the deck (calc/standard: ...) before a warning; check says it under the deck's table
    said = lambda text: {re.sub(r"^calc/\w+: ", "", line.split("warning: ", 1)[1])  # noqa: E731
                         for line in text.splitlines() if "warning:" in line and "notes[" in line}
    assert said(built.output) and said(checked.output) == said(built.output), (checked.output, built.output)
