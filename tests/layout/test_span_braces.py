"""A span in a layout's own text: its braces are doubled there, and a single one says so."""

from __future__ import annotations

import re
from pathlib import Path

from cli_in import invoke_in, place_of

PAGE = Path(__file__).resolve().parents[2] / "docs" / "layouts.md"


def test_a_span_with_single_braces_in_a_layouts_text_says_to_double_them(tmp_path):
    spec = ('game: s\nname: S\nlayouts:\n  l:\n    elements:\n'
            '      - {kind: text, text: "Plain and [red :star:]{color=#cc0000}", frame: safe, size: 5mm}\n'
            'groups:\n  - name: g\n    layout: l\n    cards: [{n: 1}]\n')
    (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(place_of(spec, "[red", '"Plain')), line  # at the text's value
    assert ("{color=#cc0000} is not a placeholder: a span's style in a layout's text is written with doubled "
            "braces: ]{{color=#cc0000}} (a card's attribute value takes single braces)") in line


def test_the_spans_example_of_the_layouts_page_builds_as_written(tmp_path):
    # The page's layout with a span in its own text (doubled braces) and in a card's (single).
    section = PAGE.read_text(encoding="utf-8").split("### Spans", 1)[1].split("\n## ", 1)[0]
    [block] = [b for b in re.findall(r"```\n(.*?)```", section, flags=re.S) if "layouts:" in b]
    lines = [line[2:] for line in block.splitlines()]  # the block is indented under its list item
    (tmp_path / "s.yaml").write_text("game: s\nname: S\n" + "\n".join(lines) + "\n", encoding="utf-8")
    result = invoke_in(tmp_path, "build", "s.yaml", "--no-rulebooks", "--out", "out")
    assert result.exit_code == 0 and result.stderr == "", result.output
