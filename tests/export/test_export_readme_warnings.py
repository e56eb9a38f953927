"""README.txt lists what the export warned of, as the command line says it, under one heading, or
says that it warned of nothing; a text that runs out of its box past the trim is said to be cut off."""

from __future__ import annotations

import pypdfium2 as pdfium
from click.testing import CliRunner

from cli_in import invoke_in
from printkit.cli import main
from printkit.export import LOOK, LOOK_TTS

LONG = " ".join(["Draw a card, then discard one."] * 12)
DECK = """game: warned
name: Warned
card: {{size: poker, bleed: 0.125in}}
layouts:
  front:
    elements:
      - {{name: title, kind: text, text: "{{title}}", x: 0, y: 0, width: 100%, height: 8mm, frame: safe, size: 5mm}}
      - {{name: rules, kind: text, text: "{{text}}", x: 0, y: {y}, width: 100%, height: 12mm, frame: safe,
         size: 4mm, min_size: 3.5mm}}
groups:
  - name: cards
    layout: front
    cards:
      - {{title: Alpha, text: "Short."}}
{more}"""
WARNED = (f'      - {{title: Long, text: "{LONG}"}}\n'
          '      - {title: Far, text: "Rule 規則."}\n')


def _export(tmp_path, more: str, *flags: str, y: str = "60mm", target: str = "print-shop"):
    spec = tmp_path / "warned.yaml"
    spec.write_text(DECK.format(more=more, y=y), encoding="utf-8")
    out = tmp_path / target
    result = CliRunner().invoke(main, ["export", str(spec), "--for", target, "--out", str(out), *flags])
    assert result.exit_code == 0, result.output
    readme = (out / "README.txt").read_text(encoding="utf-8")
    heading = LOOK_TTS if target == "tts" else LOOK
    look = readme.split(f"{heading}\n{'-' * len(heading)}\n")[1].split("\n\n")[0]
    return look, [line for line in result.stderr.splitlines() if line.startswith("warning: ")], out


def test_an_overflowing_text_and_a_missing_character_are_in_the_readme_as_warned(tmp_path):
    look, warnings, out = _export(tmp_path, WARNED, "--pdfx")
    assert len(warnings) == 2, warnings
    # Each warning of the command line is one "- " entry, without the deck's folder.
    entries = [" ".join(entry.split()) for entry in look.split("\n- ")[1:]]
    assert entries == [w[len("warning: warned: "):] for w in warnings]
    overflow, missing = entries
    assert overflow.startswith("cards[title=Long") and "does not fit 57.5x12.0 mm even at the minimum size" in overflow
    assert "(12 lines); the text runs out of its box and at least" in overflow
    assert "past the trim at the bottom: what lies there will be cut off" in overflow
    assert "no font can draw the character(s) '則規' in 'Rule 規則.'" in missing
    assert "they would print as nothing" in missing

    pdf = pdfium.PdfDocument(str(out / "upload" / "cards.pdf"))
    # As printed: the long text's last lines lie below the trim (PDF y grows upwards), and the
    # characters no font has are not on the card.
    long_page = pdf[1]
    trim_bottom = long_page.get_trimbox()[1]
    text = long_page.get_textpage()
    lowest = min(text.get_charbox(i)[1] for i in range(text.count_chars())
                 if not text.get_text_range(i, 1).isspace())
    assert lowest < trim_bottom - 2 * 72 / 25.4
    far = pdf[2].get_textpage().get_text_range()
    assert "Rule" in far and "規" not in far and "則" not in far


def test_a_text_past_the_safe_zone_but_inside_the_trim_may_be_cut_off(tmp_path):
    # Five lines from a box 66 mm below the trim's top: the last baseline a little past the safe
    # zone (3 mm inside the 88.9 mm trim), not past the trim.
    mid = " ".join(["Draw a card."] * 11)
    look, warnings, _ = _export(tmp_path, f'      - {{title: Mid, text: "{mid}"}}\n', y="63mm")
    [cut] = [w for w in warnings if "runs out of its box" in w]
    assert "mm past the safe zone at the bottom: what lies there may be cut off by a cut that wanders" in cut
    assert "trim" not in cut
    assert cut[len("warning: warned: "):] in " ".join(look.split())
    # printkit check says it too, as it says every warning a build gives of a face.
    checked = CliRunner().invoke(main, ["check", "--no-play", str(tmp_path / "warned.yaml")])
    assert f"warning: {cut[len('warning: warned: '):]}" in checked.output


def test_a_clean_export_says_there_is_nothing_to_look_at(tmp_path):
    look, warnings, _ = _export(tmp_path, "")
    assert warnings == []
    assert look == "None: printkit warned of nothing as it made this export."


def test_the_rulebooks_sent_and_a_tabletop_simulator_deck_say_theirs(tmp_path):
    # A table whose words cannot stay whole on the page: the build warns of it, and so now does
    # the export that sends the rulebook, in its README.
    words = [f"Supercalifragilistic{i}" for i in range(12)]
    (tmp_path / "warned.rules.en.md").write_text(
        "# Warned\n\n|" + "|".join(words) + "|\n|" + "|".join("---" for _ in words) + "|\n|"
        + "|".join("Antidisestablishmentarianism" for _ in words) + "|\n", encoding="utf-8")
    look, warnings, out = _export(tmp_path, "")
    assert (out / "upload" / "rulebook-en-a4.pdf").is_file()
    [said] = warnings
    assert said.startswith(f"warning: warned: {tmp_path / 'warned.rules.en.md'}:3: table: its columns cannot keep")
    assert " ".join(look.split()).endswith("- " + said[len("warning: warned: "):])
    look, warnings, _ = _export(tmp_path, WARNED, target="tts")
    assert [" ".join(entry.split()) for entry in look.split("\n- ")[1:]] == [
        w[len("warning: warned: "):] for w in warnings] and len(warnings) == 2


def test_a_deck_of_plain_cards_is_counted_once_in_the_file_list(tmp_path):
    (tmp_path / "p.yaml").write_text("game: demo\nname: Plain\ngroups:\n  - name: a\n    cards: [{n: 1}, {n: 2}]\n",
                                     encoding="utf-8")
    result = invoke_in(tmp_path, "export", "p.yaml", "--for", "print-shop", "--no-rulebooks", "--out", "ex")
    assert result.exit_code == 0, result.output
    listed = next(line for line in (tmp_path / "ex" / "README.txt").read_text(encoding="utf-8").splitlines()
                  if line.startswith("upload/cards.pdf"))
    assert listed.split(None, 1)[1] == "2 cards: pages 1-2 fronts, 3-4 their backs in the same order", listed


def test_the_readme_reads_in_lines_of_a_page_width_above_its_file_list(tmp_path):
    (tmp_path / "p.yaml").write_text("game: demo\nname: Plain\ngroups:\n  - name: a\n    cards: [{n: 1}, {n: 2}]\n",
                                     encoding="utf-8")
    result = invoke_in(tmp_path, "export", "p.yaml", "--for", "print-shop", "--cmyk", "--no-rulebooks", "--out", "ex")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "ex" / "README.txt").read_text(encoding="utf-8")
    above = text.split("\nFiles\n", 1)[0].splitlines()
    assert any(line.startswith("Colour: CMYK") for line in above)
    assert max(map(len, above)) <= 96, [line for line in above if len(line) > 96]
