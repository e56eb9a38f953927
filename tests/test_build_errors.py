"""Cards that a game's templates cannot draw are reported at the spec line that made them."""

from click.testing import CliRunner

from printkit.cli import main


def test_unknown_suit_is_located_at_its_card_entry(tmp_path):
    spec = tmp_path / "odd.yaml"
    spec.write_text("game: clag\nname: Odd\ngroups:\n  - name: s\n    cards:\n      - {suit: spades, rank: 2}\n      - {suit: stars, rank: 3}\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(spec), "--out", str(out)])
    assert result.exit_code == 1
    assert f"{spec}:7:9: " in result.stderr and "stars" in result.stderr
    assert not out.exists() or not any(out.iterdir())


def test_bad_engine_option_stops_the_build_at_its_place(tmp_path, repo):
    spec = tmp_path / "stack.yaml"
    text = (repo / "decks" / "stack.yaml").read_text(encoding="utf-8")
    spec.write_text(text.replace("count_by:", "options: { mode: bogus }\ncount_by:", 1), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(spec), "--out", str(out)])
    assert result.exit_code == 1
    assert f"{spec}:" in result.stderr and "mode must be one of quick, long" in result.stderr
    assert not out.exists()
