"""Build inputs at their edges: spec file names, decks named twice, sheet options, score sheet settings."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from printkit.pipeline.build import load_decks
from printkit.cli import main
from printkit.outputs import safe_part

# Two cards and no components: quick to build, enough to write a deck's folder.
SMALL_CLAG = """game: clag
name: Small
groups:
  - name: s
    cards:
      - {suit: spades, rank: 2}
      - {suit: hearts, rank: A}
"""


def _build(*args: str):
    return CliRunner().invoke(main, ["build", "--no-rulebooks", *args])


def _manifest_paths(out) -> list[str]:
    return [f["path"] for f in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]]


# --- deck folders from spec file names -----------------------------------------------------------


@pytest.mark.parametrize("name, folder", [
    ("카드", "카드"),
    ("my deck", "my-deck"),
    ("calc", "calc"),
    ("a.b_c", "a.b_c"),
    ("x..y", "x-y"),
    ("..", "deck"),
    ("", "deck"),
    ("   ", "deck"),
    (".hidden", "hidden"),
    ("a/b\\c", "a-b-c"),
    ("한글 카드 (2)", "한글-카드-2"),
    ("\u1112\u1161\u11ab", "\ud55c"),  # 한 decomposed, as macOS names files: composed
    ("NUL", "deck-NUL"),
])
def test_safe_part_derives_a_plain_component(name, folder):
    assert safe_part(name) == folder


def test_safe_part_is_never_too_long_nor_unsafe():
    long = safe_part("카" * 300)
    assert 0 < len(long) <= 80 and len(long.encode("utf-8")) < 255
    for name in ["../..", "a/../b", "-", ". .", "\x00", "~/x", "C:\\x"]:
        part = safe_part(name)
        assert part and ".." not in part and "/" not in part and "\\" not in part
        assert not part.startswith((".", "-")) and not part.endswith((".", "-"))


@pytest.mark.parametrize("stem, folder", [("카드", "카드"), ("my deck", "my-deck")])
def test_specs_with_korean_or_spaced_names_build_into_a_safe_folder(tmp_path, stem, folder):
    spec = tmp_path / f"{stem}.yaml"
    spec.write_text(SMALL_CLAG, encoding="utf-8")
    out = tmp_path / "out"
    result = _build(str(spec), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert (out / folder / "sheets-a4.pdf").is_file()
    assert f"{folder}/sheets-a4.pdf" in _manifest_paths(out)


def test_two_specs_sharing_a_folder_are_refused_naming_both(tmp_path):
    first, second = tmp_path / "my deck.yaml", tmp_path / "My-Deck.yaml"
    for spec in (first, second):
        spec.write_text(SMALL_CLAG, encoding="utf-8")
    out = tmp_path / "out"
    result = _build(str(first), str(second), "--out", str(out))
    assert result.exit_code == 1
    assert str(first) in result.stderr and str(second) in result.stderr and "my-deck" in result.stderr
    assert not out.exists()  # refused before anything was written


# --- decks named twice -----------------------------------------------------------------------


def test_a_spec_named_twice_is_loaded_once_in_order(repo):
    decks = load_decks(["clag", "calc", str(repo / "decks" / "clag.yaml"), "calc"])
    assert [(d.deck_id, d.variant) for d in decks] == [("clag", None), ("calc", "standard"), ("calc", "expert")]


def test_build_calc_calc_builds_calc_once(tmp_path):
    out = tmp_path / "out"
    result = _build("calc", "calc", "--variant", "standard", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert _manifest_paths(out).count("calc/standard/sheets-a4.pdf") == 1


# --- sheet options -----------------------------------------------------------------------------


@pytest.mark.parametrize("option", [
    "--back-offset=-300,0", "--back-offset=0,20.5", "--back-offset=21mm,0", "--back-offset=0,1in",
    "--gap=-1", "--gap=-0.1mm", "--gap=25", "--gap=1in",
])
def test_absurd_sheet_options_are_usage_errors(tmp_path, option):
    out = tmp_path / "out"
    result = _build("clag", option, "--out", str(out))
    assert result.exit_code == 2
    name = option.split("=")[0]
    assert f"Invalid value for '{name}'" in result.stderr and "20 mm" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("option", ["--back-offset=20,-20", "--back-offset=-0.5mm,1.5", "--gap=0", "--gap=20mm"])
def test_sheet_options_at_their_bounds_build(tmp_path, option):
    spec = tmp_path / "small.yaml"
    spec.write_text(SMALL_CLAG, encoding="utf-8")
    result = _build(str(spec), option, "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output


# --- Clag score sheet settings ------------------------------------------------------------------

SCORE_SHEET = SMALL_CLAG + """components:
  - name: score_sheet
    cards:
      - { sheet: score, SETTINGS, lang: en }
"""


# The sheet's layout draws 4 to 7 players' columns (requires) and its table at most 22 rounds.
@pytest.mark.parametrize("settings, message", [
    ("rounds: 1000, min_players: 4, max_players: 100", "max_players 4 or 5 or 6 or 7; this card has sheet 'score', "
     "lang 'en', min_players 4, max_players 100"),
    ("rounds: 1000, min_players: 4, max_players: 7", "number of rows shown must be a whole number from 1 to 22, "
     "not '1000'"),
    ("rounds: 0, min_players: 4, max_players: 7", "number of rows shown must be a whole number from 1 to 22, not '0'"),
    ("rounds: 22, min_players: 3, max_players: 7", "min_players 4 or 5 or 6 or 7; max_players 4 or 5 or 6 or 7; "
     "this card has sheet 'score', lang 'en', min_players 3"),
])
def test_score_sheet_settings_out_of_range_are_located_errors(tmp_path, settings, message):
    spec = tmp_path / "sheet.yaml"
    spec.write_text(SCORE_SHEET.replace("SETTINGS", settings), encoding="utf-8")
    out = tmp_path / "out"
    result = _build(str(spec), "--out", str(out))
    assert result.exit_code == 1
    assert f"{spec}:11:9: score_sheet[" in result.stderr and message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("settings", ["rounds: 1, min_players: 4, max_players: 4",
                                      "rounds: 22, min_players: 7, max_players: 7"])
def test_score_sheet_settings_within_range_build(tmp_path, settings):
    spec = tmp_path / "sheet.yaml"
    spec.write_text(SCORE_SHEET.replace("SETTINGS", settings), encoding="utf-8")
    out = tmp_path / "out"
    result = _build(str(spec), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "sheet" / "score-sheet-a4.pdf").is_file()
