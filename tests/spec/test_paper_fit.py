"""A card size that fits one sheet paper only: ``check`` warns at the size, a build on the other paper
is refused there (the paper is a build option, the size is written in the spec)."""

from pathlib import Path

from cli_in import check_in, invoke_in, place_of

DECK = """game: g
name: G
card:
  size: {width: 200mm, height: 280mm}
groups:
  - name: n
    cards: [{a: 1}]
"""

# The deck's cards are poker cards; a component sets a size of its own.
GROUP = """game: g
name: G
groups:
  - name: n
    cards: [{a: 1}]
components:
  - name: board
    size: {width: 200mm, height: 280mm}
    cards: [{b: 1}]
"""

LETTER = "a 200x280 mm card does not fit on 215.9x279.4 mm (Letter) paper with a 4 mm margin; it fits on A4"


def test_check_warns_at_the_size_that_fits_a4_only(tmp_path: Path):
    for spec in (DECK, GROUP):
        result = check_in(tmp_path, spec)
        assert result.exit_code == 0, result.output
        [warning] = [line.strip() for line in result.output.splitlines() if "warning:" in line]
        assert warning.startswith("warning: " + place_of(spec, "200mm", "{width")), warning
        assert LETTER in warning and "--paper a4" in warning


def test_a_build_on_letter_is_refused_at_the_size(tmp_path: Path):
    for spec in (DECK, GROUP):
        (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
        result = invoke_in(tmp_path, "build", "deck.yaml", "--paper", "letter", "--no-rulebooks", "--no-proof",
                           "--no-cache", "--out", "out")
        assert result.exit_code == 1, result.output
        [line] = result.stderr.strip().splitlines()[-1:]
        assert line.startswith(place_of(spec, "200mm", "{width")) and LETTER in line, result.stderr


def test_a_size_that_fits_both_papers_is_no_warning(tmp_path: Path):
    result = check_in(tmp_path, DECK.replace("200mm, height: 280mm", "190mm, height: 270mm"))
    assert result.exit_code == 0 and "warning" not in result.output, result.output


def test_sizes_that_no_one_paper_holds_are_an_error_of_check(tmp_path: Path):
    """A4 holds 200x280 mm but not 205x205 mm, Letter the other way round: every build would be refused."""
    spec = GROUP.replace("components:", "  - name: wide\n    size: {width: 205mm, height: 205mm}\n    cards: [{c: 1}]\n"
                                        "components:")
    result = check_in(tmp_path, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(place_of(spec, "200mm, height: 280mm", "{width")), line
    assert ("no paper holds every card: a 200x280 mm card does not fit on Letter paper and a 205x205 mm card "
            "of this deck does not fit on A4") in line, line
