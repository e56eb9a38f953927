"""A spec of one's own still builds when printkit's rule text for its game does not fit it."""

import json

from click.testing import CliRunner

from printkit.cli import main
from printkit.spec import DECKS_DIR


def test_bundled_text_that_does_not_fit_is_a_warning_and_the_cards_still_build(tmp_path):
    text = (DECKS_DIR / "clag.yaml").read_text(encoding="utf-8")
    start, end = text.index("  # A4/Letter score sheets"), text.index("  # Card-sized player aids")
    spec = tmp_path / "myclag.yaml"
    spec.write_text(text[:start] + text[end:], encoding="utf-8")  # no score sheets: the text quotes them
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(spec), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("no ko rulebook") == 1 and result.stderr.count("no en rulebook") == 1
    assert "score_sheet" in result.stderr and "myclag.rules.ko.md" in result.stderr
    kinds = {entry["kind"] for entry in json.loads((out / "manifest.json").read_text())["files"]}
    assert "sheets" in kinds and "rulebook" not in kinds


def test_own_rule_text_errors_stay_errors(tmp_path):
    spec = tmp_path / "mine.yaml"
    spec.write_text((DECKS_DIR / "calc.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "mine.rules.en.md").write_text("# Mine\n\n## Cards\n\nThere are {{ deck.nothing }} cards.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(spec), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "mine.rules.en.md:5" in result.stderr and "deck.nothing" in result.stderr


def test_rulebooks_follow_the_card_paper_unless_told(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "stack", "--paper", "letter", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "stack" / "rulebook-en-letter.pdf").is_file()
    result = CliRunner().invoke(main, ["build", "stack", "--paper", "letter", "--rulebook-paper", "a5", "--out", str(out)])
    assert (out / "stack" / "rulebook-ko-a5.pdf").is_file()
