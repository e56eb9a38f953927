"""printkit new NAME: a starter game that checks and builds as written, from package data."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from cli_in import invoke_in

from printkit import starter

REPO = Path(__file__).resolve().parent.parent
FILES = ["mygame/mygame.yaml", "mygame/cards.csv", "mygame/mygame.rules.en.md", "mygame/picture.svg",
         "mygame/icons/spark.svg"]


def _written(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_the_starter_game_checks_and_builds_without_a_warning(tmp_path):
    made = invoke_in(tmp_path, "new", "mygame")
    assert made.exit_code == 0, made.output
    assert _written(tmp_path) == sorted(FILES)
    assert [line for line in made.output.splitlines() if line.startswith("mygame/")] == FILES
    game = tmp_path / "mygame"
    spec = (game / "mygame.yaml").read_text(encoding="utf-8")
    assert 'game: "mygame"' in spec and 'name: "Mygame"' in spec and "extends: card" in spec
    assert "__" not in spec

    checked = invoke_in(game, "check")
    assert checked.exit_code == 0, checked.output
    assert "warning" not in checked.output.lower()
    assert "12 cards   expected    12   ok" in checked.output

    built = invoke_in(game, "build", "--per-card")
    assert built.exit_code == 0, built.output
    assert "warning" not in built.output.lower()
    out = game / "output" / "mygame"
    assert {"sheets-a4.pdf", "rulebook-en-a4.pdf"} <= {p.name for p in out.iterdir()}
    assert len(list((out / "cards").glob("0*-cards-*.png"))) == 6


def test_the_starter_card_prints_its_picture_text_and_inline_icon(tmp_path):
    import pypdfium2 as pdfium

    invoke_in(tmp_path, "new", "mygame")
    game = tmp_path / "mygame"
    assert invoke_in(game, "build", "--per-card", "--no-rulebooks", "--no-proof").exit_code == 0
    document = pdfium.PdfDocument(str(game / "output" / "mygame" / "cards" / "003-cards-captain.pdf"))
    try:
        page = document[0]
        text = page.get_textpage().get_text_range()
        image = page.render(scale=300 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    assert "Captain" in text and "Your other heroes have +1" in text and "Hero" in text
    width, height = image.size
    colours = {image.getpixel((x, y)) for x in range(0, width, 7) for y in range(0, height, 7)}

    def near(rgb, tolerance=12):
        return any(all(abs(a - b) <= tolerance for a, b in zip(rgb, c)) for c in colours)

    assert near((0xA8, 0x43, 0x2F))  # the hero band
    assert near((0x4D, 0x6B, 0x58)) and near((0xF6, 0xD2, 0x7A))  # the picture: hills and sun
    assert near((0xD1, 0x8A, 0x12), tolerance=20)  # the spark icon, beside the type and in the text


def test_the_starter_back_prints_the_name_the_spec_says_after_a_rename(tmp_path):
    # The back reads the deck's name ({_deck_name}), so renaming the game in name: renames its backs.
    import pypdfium2 as pdfium

    invoke_in(tmp_path, "new", "mygame")
    game = tmp_path / "mygame"
    spec = game / "mygame.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace('name: "Mygame"', 'name: "Harbour Lights"'),
                    encoding="utf-8")
    built = invoke_in(game, "build", "--per-card", "--no-rulebooks", "--no-proof")
    assert built.exit_code == 0 and "warning" not in built.output.lower(), built.output
    [back] = (game / "output" / "mygame" / "cards").glob("back*.pdf")
    document = pdfium.PdfDocument(str(back))
    try:
        text = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    assert text.strip() == "Harbour Lights"


@pytest.mark.parametrize("name", ["../up", "a/b", "a\\b", ".hidden", "my.game", "", "1st", "게임", "con", "x" * 65])
def test_a_name_that_cannot_be_a_folder_and_a_game_key_is_one_error_line(tmp_path, name):
    result = invoke_in(tmp_path, "new", name)
    assert result.exit_code == 1
    [line] = result.output.strip().splitlines()
    assert line.startswith(f"error: cannot name a game {name!r}: ")
    assert list(tmp_path.iterdir()) == []


def test_a_shipped_games_name_is_refused(tmp_path):
    result = invoke_in(tmp_path, "new", "calc")
    assert result.exit_code == 1 and "one of printkit's own games" in result.output
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_used_only_when_empty_and_nothing_is_overwritten(tmp_path):
    (tmp_path / "mygame").mkdir()
    (tmp_path / "mygame" / "cards.csv").write_text("mine\n")
    result = invoke_in(tmp_path, "new", "mygame")
    assert result.exit_code == 1
    assert result.output.strip() == "error: folder 'mygame' already exists and is not empty; nothing was written"
    assert _written(tmp_path) == ["mygame/cards.csv"] and (tmp_path / "mygame" / "cards.csv").read_text() == "mine\n"

    (tmp_path / "other").write_text("a file\n")
    assert "is not a folder" in invoke_in(tmp_path, "new", "other").output

    (tmp_path / "empty").mkdir()
    assert invoke_in(tmp_path, "new", "empty").exit_code == 0
    assert len(_written(tmp_path / "empty")) == len(FILES)


def test_a_wheel_carries_every_starter_file(monkeypatch):
    """setuptools, configured by pyproject.toml, puts every starter file into the built package
    (what a wheel carries), by the package-data of printkit.starter itself."""
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    monkeypatch.chdir(REPO)
    dist = Distribution({"script_name": "setup.py"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # setuptools calls its pyproject.toml support "beta"
        apply_configuration(dist, "pyproject.toml")
    build_py = dist.get_command_obj("build_py")
    build_py.ensure_finalized()
    carried = {name for package, _, _, names in build_py.data_files if package == "printkit.starter"
               for name in names}
    assert carried == {f"files/{source}" for source, _ in starter.LAYOUT}
    assert {p.name for p in starter.FILES.iterdir()} == {source for source, _ in starter.LAYOUT}


def test_a_starter_is_found_by_its_name_in_its_own_folder(tmp_path, monkeypatch):
    from printkit.locate import find_spec

    assert invoke_in(tmp_path, "new", "duel").exit_code == 0
    monkeypatch.chdir(tmp_path / "duel")
    assert find_spec("duel") == Path("duel.yaml")
    result = invoke_in(tmp_path / "duel", "export", "duel", "--for", "tgc", "--out", "tgc")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "duel" / "tgc" / "README.txt").is_file()
