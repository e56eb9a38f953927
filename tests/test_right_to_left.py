"""Text written right to left is refused alike on cards and in rule texts, by check as by build."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_in import invoke_in

from printkit.direction import refusal

SHALOM = "\u05e9\u05dc\u05d5\u05dd"  # Hebrew
ARABIC = "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"
REFUSED = "is not set by printkit: its letters would print unjoined and left to right"


def _starter(tmp_path: Path) -> Path:
    assert invoke_in(tmp_path, "new", "mygame").exit_code == 0
    return tmp_path / "mygame"


def _retitle(game: Path, title: str) -> None:
    cards = game / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("scout,Scout,", f"scout,{title},"), encoding="utf-8")


@pytest.mark.parametrize("title", [SHALOM, ARABIC])
@pytest.mark.parametrize("command", [("check",), ("build", "--no-rulebooks", "--no-proof")])
def test_a_card_title_in_a_right_to_left_script_is_refused_at_its_row_naming_card_and_element(tmp_path, title,
                                                                                               command):
    game = _starter(tmp_path)
    _retitle(game, title)
    result = invoke_in(game, *command)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if REFUSED in line]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("cards.csv:2: ")
    assert "'scout'" in lines[0] and "element 'title'" in lines[0]
    assert "write the card's 'title' in a left-to-right script" in lines[0]
    assert not (game / "output" / "mygame" / "sheets-a4.pdf").exists()


def test_a_card_drawn_by_the_generic_template_is_refused_too(tmp_path):
    (tmp_path / "deck.yaml").write_text(
        f'game: plain\nname: Plain\ngroups:\n  - name: cards\n    cards:\n      - {{title: "{ARABIC}", count: 1}}\n',
        encoding="utf-8")
    result = invoke_in(tmp_path, "check")
    assert result.exit_code != 0
    assert REFUSED in result.output and "deck.yaml:6:" in result.output
    # Found as the card is checked against the generic face, as a layout's cards are: named by attribute.
    assert "the generic face, element 'title'" in result.output
    assert "write the card's 'title' in a left-to-right script" in result.output


def test_card_text_and_rule_text_say_the_one_rule(tmp_path):
    game = _starter(tmp_path)
    rules = game / "mygame.rules.en.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("## Overview", f"## Overview {SHALOM}"),
                     encoding="utf-8")
    result = invoke_in(game, "check")
    assert result.exit_code != 0
    said = next(line for line in result.output.splitlines() if REFUSED in line)
    assert said.startswith("mygame.rules.en.md:6: ")
    assert refusal(SHALOM, "the rule text") in said


def test_left_to_right_text_and_neutral_marks_are_not_refused():
    assert refusal("Scout \u2212 \uc2a4\uce74\uc6b0\ud2b8 \u00e9 123", "x") is None
    assert "'\u05e9' U+05E9" in refusal(f"a {SHALOM}", "x")
