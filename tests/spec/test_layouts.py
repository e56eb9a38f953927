"""Layouts in a spec: what check finds, located at the layout's line or at the card, and the warnings."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest
from PIL import Image as PILImage

from printkit.decks import load_all_variants

from cli_in import assert_one_error, check_in, invoke_in, line_of, place_of

SPEC = """\
game: emberfall
name: Emberfall
art:
  colors: {accent: "#bc4b51"}
icons: {fire: art/fire.png, gem: ruby}
layouts:
  base:
    elements:
      - {name: band, kind: rect, height: 12mm, frame: bleed, fill: accent}
      - {name: title, kind: text, text: "{title}", height: 9mm, frame: safe, size: 5mm, bold: true}
      - {name: art, kind: image, image: "art/{art}", y: 14mm, height: 40%, frame: safe}
      - {name: rules, kind: text, text: "{text}", y: 50mm, height: 20mm, frame: safe, size: 3mm}
      - {name: flavor, kind: text, text: "{flavor}", when_has: flavor, y: -0mm, height: 6mm, frame: safe,
         size: 2.5mm, italic: true}
  spell:
    extends: base
    elements:
      - {name: band, kind: rect, height: 12mm, frame: bleed, fill: "#3d5a80"}
groups:
  - name: creatures
    layout: base
    cards:
      - {title: Ember Drake, art: a.png, text: "Deal 2 :fire: damage.", flavor: "It remembers."}
      - {title: Cinder Pup, art: a.png, text: "Gains :gem:."}
  - name: spells
    layout: spell
    cards:
      - {title: Flare, art: a.png, text: "Draw a card."}
"""


@pytest.fixture
def folder(tmp_path) -> Path:
    (tmp_path / "art").mkdir()
    PILImage.new("RGB", (400, 300), "#5b8e7d").save(tmp_path / "art" / "a.png")  # 176 DPI over its 57.5 mm box: no warning
    PILImage.new("RGB", (16, 16), "#e4572e").save(tmp_path / "art" / "fire.png")
    # A rule text of its own: printkit's emberfall rules quote cards these decks lack (check warns so).
    (tmp_path / "deck.rules.en.md").write_text("# Deck\n\nPlay the cards.\n", encoding="utf-8")
    return tmp_path


def run(folder: Path, spec: str, *args: str, command: str = "check"):
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    extra = ["--no-play"] if command == "check" else ["--out", "out", "--no-rulebooks"]
    return invoke_in(folder, command, "deck.yaml", *extra, *args)


def one_error_at(folder: Path, spec: str, needle: str, word: str, message: str, command: str = "check") -> str:
    """The one line ``command`` refuses ``spec`` with, asserted to stand at ``word`` (after
    ``needle``) in the spec and to say ``message``."""
    result = run(folder, spec, command=command)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(place_of(spec, needle, word)), line
    assert message in line, line
    return line


def test_a_spec_with_layouts_checks_and_builds(folder):
    result = run(folder, SPEC)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    built = run(folder, SPEC, command="build")
    assert built.exit_code == 0, built.output
    assert (folder / "out" / "deck" / "sheets-a4.pdf").is_file()


def test_extends_replaces_named_elements_in_place(folder):
    (folder / "deck.yaml").write_text(SPEC, encoding="utf-8")
    [deck] = load_all_variants(folder / "deck.yaml")
    spell = deck.layouts["spell"]
    assert [e.name for e in spell.elements] == ["band", "title", "art", "rules", "flavor"]
    assert spell.elements[0].fill.constant == "#3d5a80"
    assert deck.layouts["base"].elements[0].fill.constant == "accent"
    assert {c.layout for c in deck.cards} == {"base", "spell"}


@pytest.mark.parametrize("change, needle, message", [
    (("layout: spell", "layout: spel"), "layout: spel",
     "unknown layout 'spel' (did you mean 'spell'?); known: base, spell"),
    (("extends: base", "extends: spell"), "extends: spell",
     "layouts extend each other in a circle: spell -> spell"),
    (('text: "{text}"', 'text: "{texxt}"'), '"{texxt}"',
     "no card has attribute 'texxt' (cards have: art, flavor, text, title); did you mean 'text'?"),
    (('text: "{title}"', 'text: "{title"'), '"{title"',
     "'{' at character 1 is not closed (write '{{' for a brace)"),
    (("frame: bleed, fill: accent", "frame: bleed, fill: accent, fit: cover"), "fill: accent, fit",
     "'fit' does not apply to a rect element (it is for: text, image, icon)"),
    (("size: 3mm}", "size: 3mm, fit: cover}"), "size: 3mm, fit",
     "fit 'cover' is not one of: shrink, none"),
    (("frame: safe, size: 3mm", "frame: middle, size: 3mm"), "frame: middle",
     "'middle' is not one of: trim, bleed, safe"),
    (("gem: ruby", "gem: rubby"), "gem: rubby",
     "'rubby' is neither a picture file (art/fire.svg) nor a built-in icon (did you mean 'ruby'?)"),
    (("fire: art/fire.png", "fire: art/fyre.png"), "fire: art/fyre.png", "image file 'art/fyre.png' not found"),
    (("size: 3mm}", "size: 3mm, paragraph_spacing: 6}"), "size: 3mm, paragraph_spacing",
     "paragraph_spacing 6 is not between 0 and 5"),
    (("size: 3mm}", "size: 3mm, paragraph_spacing: wide}"), "size: 3mm, paragraph_spacing",
     "paragraph_spacing"),
    (("frame: bleed, fill: accent", "frame: bleed, fill: accent, paragraph_spacing: 1"), "fill: accent, paragraph",
     "'paragraph_spacing' does not apply to a rect element (it is for: text)"),
])
def test_layout_mistakes_are_one_line_at_the_layout(folder, change, needle, message):
    assert_one_error(folder, SPEC.replace(*change), needle, message)


@pytest.mark.parametrize("change, needle, message", [
    (("{title: Cinder Pup, art: a.png, ", "{title: Cinder Pup, "), "Cinder Pup",
     "creatures 'Cinder Pup': layout 'base' (front), element 'art': the card has no attribute 'art'; give it one, "
     "or add 'when_has: art' to the element to draw it only for cards that have it"),
    (("{title: Flare, art: a.png", "{title: Flare, art: b.png"), "Flare",
     "spells 'Flare': layout 'spell' (front), element 'art': image file 'art/b.png' not found"),
    (("Gains :gem:.", "Gains :gen:."), "Cinder Pup",
     "element 'rules': unknown icon ':gen:' (did you mean ':gem:'?) (the spec's icons: fire, gem; built-in: "),
    (("fill: accent", 'fill: "{title}"'), "Ember Drake",
     "element 'band': 'Ember Drake' is not a colour such as '#1f3b5a' nor a name in art.colors"),
    (("fill: accent", 'fill: "on({title})"'), "Ember Drake",
     "element 'band': 'Ember Drake' is not a colour such as '#1f3b5a' nor a name in art.colors"),
])
def test_card_mistakes_name_the_card_where_it_was_written(folder, change, needle, message):
    spec = SPEC.replace(*change)
    result = run(folder, spec)
    assert result.exit_code == 1, result.output
    line = result.stderr.strip().splitlines()[0]  # each card with the mistake says so: the first here
    assert line.startswith(f"{folder / 'deck.yaml'}:{line_of(spec, needle)}:") or \
        line.startswith(f"deck.yaml:{line_of(spec, needle)}:"), line
    assert message in line, line


def test_a_picture_outside_the_folder_is_refused_for_the_card(folder):
    (folder.parent / "secret.png").write_bytes((folder / "art" / "a.png").read_bytes())
    spec = SPEC.replace("{title: Flare, art: a.png", "{title: Flare, art: ../../secret.png")
    result = run(folder, spec)
    assert result.exit_code == 1
    assert "leads outside the spec's folder" in result.stderr and "'Flare'" in result.stderr


def test_warnings_name_unread_attributes_and_boxes_at_odds_with_the_cut(folder):
    spec = SPEC.replace("text: \"Draw a card.\"", "text: \"Draw a card.\", texxt: typo") \
        .replace("y: 14mm, height: 40%, frame: safe", "y: 14mm, height: 40%, frame: trim") \
        .replace("{name: rules, kind: text, text: \"{text}\", y: 50mm, height: 20mm, frame: safe",
                 "{name: rules, kind: text, text: \"{text}\", y: 50mm, height: 20mm, frame: trim")
    result = run(folder, spec)
    assert result.exit_code == 0, result.output
    warnings = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("warning:")]
    # Each is the same for every card, so it begins where its cause is written: the element's line,
    # the first card that gives the unread attribute.
    said = [f"warning: {place_of(spec, 'Flare', '{title')} 'texxt' is an attribute of cards drawn by layouts that "
            "no layout of theirs reads",
            f"warning: {place_of(spec, 'name: art', '{name')} layout 'base', element 'art': the picture reaches the "
            "cut on the left, right of 63.5x88.9 mm cards but stops short of the bleed",
            f"warning: {place_of(spec, 'name: rules', '{name')} layout 'base', element 'rules': the text box leaves "
            "the safe zone of 63.5x88.9 mm cards by 3.00 mm"]
    for start in said:
        assert any(w.startswith(start) for w in warnings), (start, warnings)
    built = run(folder, spec, command="build")
    assert built.exit_code == 0, built.output
    # build says the same lines, each after the deck it is about
    built_warnings = [line.replace("warning: deck: ", "warning: ", 1) for line in built.stderr.splitlines()
                      if line.startswith("warning: ")]
    for start in said:
        assert any(w.startswith(start) for w in built_warnings), (start, built.stderr)


def test_a_shipped_game_can_take_a_layout_and_its_shapes_are_icons(folder, repo):
    spec = (repo / "decks" / "clag.yaml").read_text(encoding="utf-8")
    assert "layouts:" not in spec
    spec += textwrap.dedent("""\
        layouts:
          plain:
            elements:
              - {kind: icon, icon: "{suit}", x: 10%, y: 10%, width: 80%, height: 50%}
              - {kind: text, text: "{rank} :spades:", y: 65%, height: 20%, frame: safe, size: 8mm, align: center}
        """)
    spec = spec.replace("  - name: standard\n", "  - name: standard\n    layout: plain\n", 1)
    assert "layout: plain" in spec
    result = run(folder, spec)
    assert result.exit_code == 0, result.output
    [deck] = load_all_variants(folder / "deck.yaml")
    from printkit.layout import templates
    from printkit.layout.ops import Polygon, Text

    card = deck.cards[0]
    face = templates.front(card, deck)
    assert any(isinstance(op, Polygon) for op in face.ops)
    assert any(isinstance(op, Text) and str(card.get("rank")) in op.text for op in face.ops)


def test_a_card_from_a_data_file_is_named_by_its_row(folder):
    (folder / "cards.csv").write_text("title,art,text,flavor\nEmber Drake,a.png,Burn.,Hot.\nFlare,b.png,Draw.,\n",
                                      encoding="utf-8")
    spec = SPEC[:SPEC.index("groups:")] + "groups:\n  - name: creatures\n    layout: base\n    data: cards.csv\n"
    result = run(folder, spec)
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("cards.csv:3: creatures 'Flare': layout 'base' (front) of deck.yaml, element 'art': "
                           "image file 'art/b.png' not found"), line


def test_colours_a_mix_reads_count_as_read_and_a_bad_mix_is_named_at_the_card(folder):
    spec = SPEC.replace('colors: {accent: "#bc4b51"}', 'colors: {accent: "#bc4b51", shade: "#202020"}')
    spec = spec.replace("fill: accent}", 'fill: "mix(accent, shade, 0.3)"}', 1)
    result = run(folder, spec)
    assert result.exit_code == 0 and "warning" not in result.output, result.output  # both names are read
    result = run(folder, spec.replace("mix(accent, shade, 0.3)", "mix(accent, shade, 3)"))
    assert result.exit_code == 1
    assert "element 'band': 'mix(accent, shade, 3)': the amount '3' of a mix is not a number from 0 to 1" \
        in result.stderr, result.stderr


def test_on_is_white_on_a_dark_colour_and_ink_on_a_light_one(folder):
    # on(A): a title on a band of a colour the designer may change stays readable.
    from printkit.layout import templates
    from printkit.layout.ops import Text

    spec = SPEC.replace('colors: {accent: "#bc4b51"}', 'colors: {accent: "#bc4b51", ink: "#202020"}')
    spec = spec.replace("size: 5mm, bold: true}", 'size: 5mm, bold: true, color: "on(accent)"}')
    result = run(folder, spec)
    assert result.exit_code == 0 and "warning" not in result.output, result.output  # accent is read
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    for accent, expected in (("#bc4b51", "#ffffff"), ("#f4e7bf", "#202020")):
        [deck] = load_all_variants(folder / "deck.yaml")
        card = deck.cards[0]
        card = dataclasses.replace(card, art=dataclasses.replace(card.art, colors={**card.art.colors, "accent": accent}))
        title = next(op for op in templates.front(card, deck).ops if isinstance(op, Text) and op.text.startswith("Ember"))
        assert title.color == expected, (accent, title.color)


def test_paragraph_spacing_sets_paragraphs_apart_and_leaves_lines_of_one_paragraph_alone(folder):
    from printkit.layout import templates
    from printkit.layout.ops import Text

    def baselines(spacing):
        spec = SPEC.replace('text: "Draw a card."', 'text: "One.\\nTwo.\\n\\nThree."')
        spec = spec.replace("size: 3mm}", f"size: 3mm, fit: none, paragraph_spacing: {spacing}}}")
        (folder / "deck.yaml").write_text(spec, encoding="utf-8")
        deck = next(d for d in load_all_variants(folder / "deck.yaml"))
        card = next(c for c in deck.cards if c.get("title") == "Flare")
        ops = {op.text: op.y_mm for op in templates.front(card, deck).ops if isinstance(op, Text)}
        return ops["One."], ops["Two."], ops["Three."]

    one, two, three = baselines(0)
    assert three - two == pytest.approx(two - one)  # no gap: lines and paragraphs alike
    one, two, far = baselines(1.5)
    assert two - one == pytest.approx(3.0 * 1.2)  # a line break: line_spacing only
    assert far - two == pytest.approx(3.0 * (1.2 + 1.5))  # a new paragraph: 1.5 sizes more


TABLE_SPEC = """\
game: tally
name: Tally
card: {size: poker, bleed: 3mm, safe: 3mm}
layouts:
  sheet:
    elements:
      - name: table
        kind: table
        frame: safe
        y: 10mm
        height: 100% - 20mm
        stroke_width: 0.45mm
        table:
          columns:
            - {header: Round, width: 8mm, size: 3mm}
            - {header: Rule, width: 20mm, size: 3mm, align: left, same_size: true}
          repeat:
            count: "{players}"
            header: "P{n}"
            fill: "#eeeeee"
            columns:
              - {header: Bid, width: 50%}
              - {header: Won, width: 50%}
          rows_shown: "{rounds}"
          rows:
            - {cells: [1]}
            - {cells: [2, Wild], fill: "#f0e0e0", mark: "0"}
            - {cells: [3]}
          footer: [Total]
groups:
  - name: sheets
    layout: sheet
    cards: [{players: 3, rounds: 2}]
"""


def test_a_table_draws_its_headings_rows_groups_and_summary_in_its_box(folder):
    from printkit.layout import templates
    from printkit.layout.ops import Line, Rect, Text

    (folder / "deck.yaml").write_text(TABLE_SPEC, encoding="utf-8")
    [deck] = load_all_variants(folder / "deck.yaml")
    card = deck.cards[0]
    face = templates.front(card, deck)
    words = [op.text for op in face.ops if isinstance(op, Text)]
    # Two rows of three (rounds: 2), three groups (players: 3), each labelled and headed, the mark in each.
    assert words == ["Round", "Rule", "P1", "Bid", "Won", "P2", "Bid", "Won", "P3", "Bid", "Won", "1", "2", "Wild",
                     "0", "0", "0", "Total"]
    outline = next(op for op in face.ops if isinstance(op, Rect) and op.stroke is not None)
    # The box: 10 mm below the safe frame's top, 20 mm less than its height; rows of 9 mm at most.
    assert (outline.x_mm, outline.y_mm, outline.w_mm) == pytest.approx((3.0, 13.0, 63.5 - 6))
    assert outline.h_mm == pytest.approx(7 + 5 + 3 * 9)
    lines = [op for op in face.ops if isinstance(op, Line)]
    assert {round(op.width_mm, 3) for op in lines} == {0.45, 0.15}  # heavy and a third of it
    marked = [op for op in face.ops if isinstance(op, Rect) and op.fill == "#d9d9d9"]
    assert len(marked) == 3  # the first cell of each group in the marked row


@pytest.mark.parametrize("change, needle, message", [
    (("{cells: [1]}", "{cells: [1, a, b]}"), "{cells: [1, a, b]}",
     "a row of 3 cells in a table of 2 columns"),
    (('size: 3mm, align: left', 'size: 40%, align: left'), "size: 40%",
     "a table's text size is a length such as '3mm', not '40%'"),
    (("{header: Round, width: 8mm, size: 3mm}", "{header: Round, width: 8mm, size: 3mm, min_size: 4mm}"),
     "min_size: 4mm", "min_size 4 mm is more than the size, 3 mm"),
    (("{header: Bid, width: 50%}", "{header: Bid, width: -50%}"), "width: -50%",
     "a column's width is a length or a percentage of a repeated group's width, not '-50%'"),
    (("height: 100% - 20mm", "height: 100% - twenty"), "100% - twenty",
     "expected a length such as '3mm', '-5mm', '40%', '8%short' or '100% - 6mm', got '100% - twenty'"),
    (("          footer: [Total]\n", "          footer: [Total]\n          colour: red\n"), "colour: red",
     "colour"),
    (('count: "{players}"', 'count: "{player}"'), '"{player}"', "no card has attribute 'player'"),
    (("        stroke_width: 0.45mm\n", "        stroke_width: 0.45mm\n        fill: '#ffffff'\n"), "- name: table",
     "'fill' does not apply to a table element"),
])
def test_table_mistakes_are_one_line_at_the_layout(folder, change, needle, message):
    spec = TABLE_SPEC.replace(*change)
    assert spec != TABLE_SPEC
    assert_one_error(folder, spec, needle, message)


@pytest.mark.parametrize("old, new", [
    ('count: "{players}"', 'count: "{seat[players]}"'),
    ('header: "P{n}"', 'header: "{seat[players]} {n}"'),
    ('{header: Bid, width: 50%}', '{header: Bid, width: 50%, color: "{seat[players]}"}'),
    ('fill: "#f0e0e0"', 'fill: "{seat[players]}"'),
    ('rows_shown: "{rounds}"', 'rows_shown: "{seat[rounds]}"'),
])
def test_a_table_naming_a_lookup_the_spec_lacks_is_one_error_where_it_is_written(folder, old, new):
    # As for any other element: check finds it at the layout, before a card is drawn, in the same words.
    spec = TABLE_SPEC.replace("layouts:\n", "lookups: {seats: {'3': Three}}\nlayouts:\n").replace(old, new)
    assert spec.count("{seat[") == 1
    result = check_in(folder, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    where = place_of(spec, "{seat[", '"{seat[')  # the value's opening quote
    assert line == f"{where} unknown lookup 'seat' (did you mean 'seats'?); known: seats"
    other = spec.replace(new, old).replace("      - name: table\n",
                                           '      - {kind: rect, fill: "{seat[players]}"}\n      - name: table\n')
    assert check_in(folder, other).stderr.split(": ", 1)[1].strip() == line.split(": ", 1)[1]


def test_a_table_without_a_repeat_takes_no_mark_and_a_count_must_be_whole(folder):
    spec = TABLE_SPEC.replace('''          repeat:
            count: "{players}"
            header: "P{n}"
            fill: "#eeeeee"
            columns:
              - {header: Bid, width: 50%}
              - {header: Won, width: 50%}
''', "")
    result = run(folder, spec)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"deck.yaml:{line_of(spec, 'mark:')}:"), result.stderr
    assert "a mark goes in a repeat's first column, and the table has no repeat" in result.stderr
    result = run(folder, TABLE_SPEC.replace("{players: 3, rounds: 2}", "{players: many, rounds: 2}"))
    assert result.exit_code == 1
    assert "layout 'sheet' (front), element 'table'" in result.stderr or "element 'table'" in result.stderr, \
        result.stderr
    assert "the table's repeat count must be a whole number from 1 to 20, not 'many'" in result.stderr


@pytest.mark.parametrize("change, message", [
    (("{header: Rule, width: 20mm,", "{header: Rule, width: 70mm,"),
     "the table's columns take 78.0 mm of its 57.5 mm, leaving nothing for 3 repeated groups"),
    (("{header: Bid, width: 50%}", "{header: Bid, width: 150%}"),
     "the repeated columns take 19.7 mm of each group's 9.8 mm"),
    (("{header: Round, width: 8mm, size: 3mm}", "{header: Round, width: 8mm, size: 3mm, inset: 4mm}"),
     "column 'Round' is 8.0 mm wide, no more than its inset twice (4 mm a side)"),
    (("          rows_shown:", "          header_height: 80mm\n          rows_shown:"),
     "the headings take 85.0 mm of the table's 62.9 mm, leaving no room for its rows"),
])
def test_a_table_without_room_for_its_columns_or_rows_is_the_cards_error(folder, change, message):
    # Drawn past its box or with negative sizes, a table would print as a tangle of lines: the
    # check names the card and says what to change.
    spec = TABLE_SPEC.replace(*change)
    assert spec != TABLE_SPEC
    assert_one_error(folder, spec, "{players: 3, rounds: 2}", f"element 'table': {message}", prefix="error: ")


def test_a_layout_requires_what_it_can_draw_and_names_the_card_that_lacks_it(folder):
    # A layout with words for two languages says so: a card of a third is an error at that card,
    # where it would otherwise print without its words.
    spec = SPEC.replace("  spell:\n    extends: base\n", "  spell:\n    extends: base\n    requires: {title: [Flare, Frost]}\n")
    result = run(folder, spec)
    assert result.exit_code == 0, result.output
    result = run(folder, spec.replace("{title: Flare,", "{title: Flame,"))
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"deck.yaml:{line_of(spec, '{title: Flare,')}:"), line
    assert "layout 'spell' draws only cards with title 'Flare' or 'Frost'; this card has title 'Flame'" in line
    result = run(folder, spec.replace("requires: {title:", "requires: {titel:"))
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"deck.yaml:{line_of(spec, 'requires:')}:"), line
    # as a placeholder's misspelling is told
    assert line.endswith("no card has attribute 'titel' (cards have: art, flavor, text, title); "
                         "did you mean 'title'?"), line
    result = run(folder, spec.replace("requires: {title: [Flare, Frost]}", "requires: {title: []}"))
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"deck.yaml:{line_of(spec, 'requires:')}:"), line
    assert "requires.title: needs at least 1 item(s), got 0" in line


def test_the_shipped_aids_and_sheet_refuse_a_kind_or_language_they_have_no_words_for():
    from printkit.decks import load_deck
    from printkit.errors import DeckError
    from printkit.layout import templates

    deck = load_deck("clag", None)
    aid = deck.components["player_aids"][0]
    for attrs in ({**aid.attrs, "aid": "bidding"}, {**aid.attrs, "lang": "fr"}):
        with pytest.raises(DeckError, match="layout 'aid' draws only cards with aid 'turn' or 'scoring' or 'rounds'"):
            templates.front(dataclasses.replace(aid, attrs=attrs), deck)
    sheet = deck.components["score_sheet"][0]
    with pytest.raises(DeckError, match="this card has sheet 'score', lang 'en', min_players 4, max_players 9"):
        templates.page(dataclasses.replace(sheet, attrs={**sheet.attrs, "max_players": 9}), deck, 210.0, 297.0)


def test_colours_a_table_reads_count_as_read(folder):
    spec = TABLE_SPEC.replace("card: {size: poker, bleed: 3mm, safe: 3mm}",
                              'card: {size: poker, bleed: 3mm, safe: 3mm}\nart: {colors: {shade: "#f0e0e0", band: "#eeeeee"}}')
    spec = spec.replace('fill: "#f0e0e0"', "fill: shade").replace('fill: "#eeeeee"', "fill: band")
    result = run(folder, spec)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    result = run(folder, spec.replace("fill: shade", "fill: shadow"))
    assert result.exit_code == 1 and "'shadow' is not a colour" in result.stderr, result.output


def test_a_box_sum_may_take_a_percentage_and_start_before_its_frame(folder):
    # 0% - 10% of the safe frame's width: the band starts that far left of the safe line.
    spec = SPEC.replace("{name: band, kind: rect, height: 12mm, frame: bleed, fill: accent}",
                        "{name: band, kind: rect, x: 0% - 10%, width: 50% + 10%, height: 12mm, frame: safe, "
                        "fill: accent}")
    [deck] = load_all_variants(_written(folder, spec))
    from printkit.layout import templates
    from printkit.layout.ops import Rect
    from printkit.layout.geometry import safe_box

    card = deck.cards[0]
    safe = safe_box(card.size)
    band = next(op for op in templates.front(card, deck).ops if isinstance(op, Rect) and op.fill == "#bc4b51")
    assert (band.x_mm, band.w_mm) == pytest.approx((safe.x_mm - safe.w_mm * 0.1, safe.w_mm * 0.6))


def test_a_box_sum_giving_a_negative_width_is_one_line_at_the_layout(folder):
    spec = SPEC.replace("{name: band, kind: rect, height: 12mm, frame: bleed, fill: accent}",
                        "{name: band, kind: rect, width: 10% - 20%, height: 12mm, frame: bleed, fill: accent}")
    result = run(folder, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"deck.yaml:{line_of(spec, 'width: 10% - 20%')}:"), line
    assert "width cannot be negative, got '10% - 20%'" in line, line


def _written(folder: Path, spec: str) -> Path:
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    return folder / "deck.yaml"


def test_a_page_component_naming_a_layout_is_drawn_by_it_on_the_page(folder):
    # The layout's frames are the page: its safe frame is the page less 10 mm, whatever the card size.
    spec = SPEC.replace("groups:", """  sheet:
    elements:
      - {name: heading, kind: rect, frame: safe, height: 20mm, fill: accent}
      - {kind: text, text: "Tally of {rounds} rounds", frame: safe, y: 25mm, height: 10mm, size: 5mm}
groups:""") + """components:
  - name: tally
    layout: sheet
    cards: [{sheet: score, rounds: 9}]
"""
    [deck] = load_all_variants(_written(folder, spec))
    from printkit.layout import templates
    from printkit.layout.ops import Rect, Text

    [card] = deck.components["tally"]
    face = templates.page(card, deck, 210.0, 297.0)
    heading = next(op for op in face.ops if isinstance(op, Rect) and op.fill == "#bc4b51")
    assert (heading.x_mm, heading.y_mm, heading.w_mm, heading.h_mm) == pytest.approx((10, 10, 190, 20))
    assert "".join(op.text for op in face.ops if isinstance(op, Text)).replace(" ", "") == "Tallyof9rounds"


@pytest.mark.parametrize("change, word, message", [
    (('"art/{art}"', "art/nosuch.png"), "art/nosuch.png", "element 'art': image file 'art/nosuch.png' not found"),
    (("{name: rules, kind: text", "{name: mark, kind: icon, icon: fyre, height: 5mm}\n      - {name: rules, kind: text"),
     "fyre", "layout 'base', element 'mark': unknown icon 'fyre' (did you mean 'fire'?)"),
])
def test_a_literal_picture_or_icon_in_a_layout_is_one_error_where_it_is_written(folder, change, word, message):
    """Every card drawn by the layout (three, by two layouts) shares the mistake: it is the spec's."""
    one_error_at(folder, SPEC.replace(*change), word, word, message)


def test_a_card_value_naming_no_icon_is_said_once_per_value_at_its_row_naming_the_spec(folder):
    (folder / "cards.csv").write_text("title,mark\nA,fyre\nB,fyre\nC,fire\nD,gen\n", encoding="utf-8")
    spec = textwrap.dedent("""\
        game: g
        name: G
        icons: {fire: art/fire.png, gem: ruby}
        layouts:
          card:
            elements:
              - {name: mark, kind: icon, icon: "{mark}", height: 5mm}
        groups:
          - {name: cards, data: cards.csv, layout: card}
        """)
    for name in ("deck.yaml", "other.yaml"):  # two specs reading one data file
        (folder / name).write_text(spec, encoding="utf-8")
        result = invoke_in(folder, "check", name, "--no-play")
        assert result.exit_code == 1, result.output
        lines = result.stderr.strip().splitlines()
        assert [line.split(": ", 1)[0] for line in lines[:2]] == ["cards.csv:2", "cards.csv:5"], lines
        assert f"cards 'A': layout 'card' (front) of {name}, element 'mark': unknown icon 'fyre'" in lines[0]
        assert "unknown icon 'gen' (did you mean 'gem'?)" in lines[1]
        assert lines[2:] == ["2 errors"], lines


# Four cards, every one drawn by the one layout: a mistake the layout writes is there for each.
FOUR = """\
game: g
name: G
art:
  colors: {accent: "#bc4b51"}
icons: {fire: art/fire.png}
layouts:
  card:
    elements:
      - {name: band, kind: rect, height: 12mm, fill: accent}
      - {name: title, kind: text, text: "{title}", y: 14mm, height: 9mm}
groups:
  - name: cards
    layout: card
    cards: [{title: A, tint: accent, words: a}, {title: B, tint: accent, words: b},
            {title: C, tint: accent, words: c}, {title: D, tint: accent, words: d}]
"""


@pytest.mark.parametrize("change, needle, word, message", [
    (("fill: accent", "fill: accnt"), "fill: accnt", "accnt",
     "element 'band': 'accnt' is not a colour such as '#1f3b5a' nor a name in art.colors (did you mean 'accent'?)"),
    (("fill: accent", 'fill: "#bc4b5"'), 'fill: "#bc4b5"', '"#bc4b5"', "element 'band': '#bc4b5' is not a colour"),
    (("fill: accent", 'fill: "mix(accent, inc, 0.5)"'), "mix(", '"mix(', "'inc' is not a colour"),
    (("fill: accent", 'fill: "on()"'), "on()", '"on()"', "element 'band': 'on()' names no colour"),
    (('"{title}"', '"{title} :fyre:"'), ":fyre:", '"{title}', "element 'title': unknown icon ':fyre:' (did you "
     "mean ':fire:'?)"),
    (('"{title}"', '"[{title}]{{color=acent}}"'), "acent", '"[', "span color 'acent' is neither #rgb/#rrggbb"),
    (('"{title}"', '"שלום {title}"'), "שלום", '"ש', "right-to-left text ('ו' U+05D5, 'ל' U+05DC, 'ם' U+05DD, "
     "'ש' U+05E9) is not set by printkit: its letters would print unjoined and left to right; write the "
     "element's text in a left-to-right script"),
])
def test_a_mistake_a_layout_writes_itself_is_one_error_where_it_is_written(folder, change, needle, word, message):
    """Four cards share the mistake, yet it is the layout's: said once, at its value, by check and build."""
    spec = FOUR.replace(*change)
    for command in ("check", "build"):
        line = one_error_at(folder, spec, needle, word, message, command)
        assert line.startswith(place_of(spec, needle, word) + " layout 'card', "), line


@pytest.mark.parametrize("change, card, message", [
    (("fill: accent", 'fill: "{tint}"'), "tint: acent", "element 'band': 'acent' is not a colour"),
    (('"{title}"', '"{title} {words}"'), "words: ':fyre:'", "element 'title': unknown icon ':fyre:' (did you mean"),
    (('"{title}"', '"[{title}]{{color={tint}}}"'), "tint: acent", "element 'title': span color 'acent' is neither"),
    (('"{title}"', '"{title} {words}"'), "words: שלום", "write the card's 'words' in a left-to-right script"),
])
def test_the_same_mistake_given_by_a_card_is_said_at_the_card(folder, change, card, message):
    key = card.split(":")[0]
    attrs = ", ".join([card] + [value for value in ("tint: accent", "words: c") if not value.startswith(key)])
    spec = FOUR.replace(*change).replace("{title: C, tint: accent, words: c}", "{title: C, " + attrs + "}")
    result = run(folder, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"deck.yaml:{line_of(spec, '{title: C')}:"), line
    assert line.split(": ", 2)[1] == "cards 'C'", line
    assert message in line, line


def test_every_mistake_a_layout_writes_is_said_in_one_run_however_few_cards(folder):
    spec = FOUR.replace("fill: accent", "fill: accnt").replace('"{title}"', '"{title} :fyre:"')
    result = run(folder, spec.replace("{title: D, tint: accent, words: d}]", "]").replace(
        "{title: B, tint: accent, words: b},\n            {title: C, tint: accent, words: c}, ", ""))
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [place_of(spec, "accnt", "accnt")[:-1],
                                                          place_of(spec, ":fyre:", '"')[:-1], "2 errors"], lines


def test_a_text_printed_as_written_reads_no_icon(folder):
    spec = FOUR.replace('"{title}"', '"{title} at 12:30:00", markup: false')
    result = run(folder, spec)
    assert result.exit_code == 0, result.output


TABLE = FOUR.replace("      - {name: title, kind: text", """      - kind: table
        y: 30mm
        height: 40mm
        table:
          columns:
            - {header: "#", width: 8mm, color: accent}
            - {header: Who, width: 30mm}
          rows:
            - {cells: [1, "{title} of {words}"], fill: "#eeeeee"}
      - {name: title, kind: text""")


def test_a_table_cell_reads_the_card_as_every_text_does(folder):
    [deck] = load_all_variants(_written(folder, TABLE))
    from printkit.layout import templates
    from printkit.layout.ops import Text

    for card in deck.cards:
        words = [op.text for op in templates.front(card, deck).ops if isinstance(op, Text)]
        assert f"{card.attrs['title']} of {card.attrs['words']}" in words, words


@pytest.mark.parametrize("change, needle, word, message", [
    (("{title} of {words}", "{title} of {wrods}"), "{wrods}", '"{title}', "no card has attribute 'wrods'"),
    (("color: accent}", "color: acent}"), "acent", "acent", "layout 'card', element 2 (table): 'acent' is not a "
     "colour"),
    (('fill: "#eeeeee"', 'fill: "#eeeeeg"'), "#eeeeeg", '"#', "'#eeeeeg' is not a colour"),
])
def test_a_table_mistake_is_one_error_where_it_is_written(folder, change, needle, word, message):
    one_error_at(folder, TABLE.replace(*change), needle, word, message)


@pytest.mark.parametrize("text", ['":{words}: and {title}:{words}:"', '"[{title}]{{color={tint}}} at {title}:30"'])
def test_a_layout_text_whose_markup_the_card_completes_is_not_the_layouts_mistake(folder, text):
    spec = FOUR.replace('"{title}"', text).replace("words: a}", "words: fire}").replace(
        "words: b}", "words: fire}").replace("words: c}", "words: fire}").replace("words: d}", "words: fire}")
    result = run(folder, spec)
    assert result.exit_code == 0, result.output


def test_an_unread_attribute_names_what_it_likely_misspells(folder):
    """'Copies' is not copies: the warning says which name it likely misspells."""
    result = run(folder, SPEC.replace("text: \"Draw a card.\"", "text: \"Draw a card.\", Copies: 2, zzz: 1"))
    warnings = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("warning:")]
    assert any("'Copies' (did you mean 'copies'?), 'zzz' are attributes of cards drawn by layouts" in w
               for w in warnings), warnings
