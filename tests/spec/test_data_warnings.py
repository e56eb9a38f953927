"""A warning about a card from a data file names the file, the row and the group, as errors do."""

from __future__ import annotations

from pathlib import Path

from cli_in import invoke_in

SPEC = """\
game: example
name: Rows
layouts:
  face:
    elements:
      - {name: rules, kind: text, text: "{text}", y: 10mm, height: 6mm, frame: safe, size: 4mm, min_size: 4mm}
groups:
  - name: creatures
    layout: face
    data: cards.csv
"""
LONG = "This rule text is far too long for the small box it is given on the card. " * 3


def folder_with(tmp_path: Path, csv: str) -> Path:
    (tmp_path / "deck.yaml").write_text(SPEC, encoding="utf-8")
    (tmp_path / "cards.csv").write_text(csv, encoding="utf-8")
    return tmp_path


def overflow_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if "does not fit" in line]


def test_check_and_build_name_the_row_and_group_of_a_card_from_a_data_file(tmp_path):
    folder = folder_with(tmp_path, f"text,power\nShort.,1\n\"{LONG}\",2\n")
    checked = invoke_in(folder, "check", "deck.yaml", "--no-play")
    assert checked.exit_code == 0, checked.output
    [line] = overflow_lines(checked.stdout)
    assert line.startswith("warning: cards.csv:3: creatures rules: "), line
    assert "text=" not in line and "power=" not in line  # no dump of the card's attributes
    built = invoke_in(folder, "build", "deck.yaml", "--no-rulebooks", "--out", "out")
    assert built.exit_code == 0, built.output
    [line] = overflow_lines(built.stderr)
    assert "deck: cards.csv:3: creatures rules: " in line, line
    assert "text=" not in line


def test_a_named_card_from_a_data_file_is_named_too(tmp_path):
    folder = folder_with(tmp_path, f"title,text\nPup,Short.\nDrake,\"{LONG}\"\n")
    checked = invoke_in(folder, "check", "deck.yaml", "--no-play")
    assert "warning: cards.csv:3: creatures 'Drake' rules: " in checked.stdout, checked.stdout


def test_a_card_written_in_the_spec_keeps_its_label(tmp_path):
    spec = SPEC.replace("    data: cards.csv\n", f"    cards: [{{text: \"{LONG}\"}}]\n")
    (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
    checked = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert "warning: creatures[text=" in checked.stdout, checked.stdout
