"""Counts a spec's ``expect:`` gives and its deck lacks: ``printkit check`` lists them and fails; a
build and an export say them as one warning per deck (exit 0) and an export's README.txt carries it."""

from __future__ import annotations

from pathlib import Path

from cli_in import invoke_in, line_of

SPEC = """game: count
name: Count
groups:
  - name: g
    generate: {cost: [1, 2, 3]}
    copies: 3
expect:
  total: 10
  by:
    cost: {"1": 4, "2": 3, "3": 3}
variants:
  all: {description: every card}
  fewer:
    exclude: [{cost: 3}]
    expect: {total: 6, groups: {g: 7}}
"""
FIRST = ["total: expected 10, found 9", "cost=1: expected 4, found 3"]
FEWER = ["total: expected 6, found 6", "group g: expected 7, found 6"]


def _folder(tmp_path: Path, spec: str = SPEC) -> Path:
    (tmp_path / "count.yaml").write_text(spec, encoding="utf-8")
    return tmp_path


def _counts_warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "expect: gives" in line]


def test_check_lists_the_mismatches_a_build_warns_of(tmp_path):
    folder = _folder(tmp_path)
    checked = invoke_in(folder, "check", "--no-play", "count.yaml")
    assert checked.exit_code == 1
    listed = [line.strip()[len("mismatch: "):] for line in checked.stdout.splitlines()
              if line.strip().startswith("mismatch: ")]
    all_at, fewer_at = f"count.yaml:{line_of(SPEC, 'expect:')}:1", f"count.yaml:{line_of(SPEC, '    expect: {')}:5"
    assert listed == [f"{m} ({all_at})" for m in FIRST] + [f"{FEWER[1]} ({fewer_at})"]

    built = invoke_in(folder, "build", "count.yaml", "--out", "out", "--jobs", "1", "--no-proof", "--no-rulebooks")
    assert built.exit_code == 0, built.output
    all_line = line_of(SPEC, "expect:")
    fewer_line = line_of(SPEC, "    expect: {")
    assert _counts_warnings(built.stderr) == [
        f"warning: count/all: count.yaml:{all_line}:1: the deck does not have the counts its expect: gives "
        f"({'; '.join(FIRST)}); printkit check lists them and fails",
        f"warning: count/fewer: count.yaml:{fewer_line}:5: the deck does not have the counts its expect: gives "
        f"({FEWER[1]}); printkit check lists them and fails",
    ]
    assert (folder / "out" / "count" / "all" / "sheets-a4.pdf").is_file()
    # Built again from its record, the build says it again.
    again = invoke_in(folder, "build", "count.yaml", "--out", "out", "--jobs", "1", "--no-proof", "--no-rulebooks")
    assert _counts_warnings(again.stderr) == _counts_warnings(built.stderr)


def test_an_export_warns_and_its_readme_says_it(tmp_path):
    folder = _folder(tmp_path, SPEC.split("variants:")[0])
    result = invoke_in(folder, "export", "count.yaml", "--for", "tgc", "--out", "ex")
    assert result.exit_code == 0, result.output
    [warning] = _counts_warnings(result.stderr)
    said = f"count.yaml:{line_of(SPEC, 'expect:')}:1: the deck does not have the counts its expect: gives"
    assert warning.startswith(f"warning: count: {said} ({'; '.join(FIRST)})")
    readme = (folder / "ex" / "README.txt").read_text(encoding="utf-8")
    section = readme.split("Look at these before you order\n------------------------------\n")[1].split("\n\n")[0]
    said = [" ".join(entry.split()) for entry in section.split("\n- ")[1:]]
    assert said == [warning[len("warning: count: "):]]


def test_counts_as_expected_say_nothing(tmp_path):
    folder = _folder(tmp_path, SPEC.split("variants:")[0].replace("total: 10", "total: 9")
                     .replace('"1": 4', '"1": 3'))
    assert invoke_in(folder, "check", "--no-play", "count.yaml").exit_code == 0
    built = invoke_in(folder, "build", "count.yaml", "--out", "out", "--jobs", "1", "--no-proof", "--no-rulebooks")
    assert built.exit_code == 0 and _counts_warnings(built.stderr) == []
    exported = invoke_in(folder, "export", "count.yaml", "--for", "tgc", "--out", "ex")
    assert exported.exit_code == 0 and _counts_warnings(exported.stderr) == []
    assert "the deck does not have the counts" not in (folder / "ex" / "README.txt").read_text(encoding="utf-8")


OWN = """game: count
name: Count
groups:
  - {name: g, generate: {cost: [1, 2, 3]}, expect: {total: 99}}
  - {name: h, generate: {cost: [4]}, expect: {total: 1}}
components:
  - {name: tok, generate: {n: [1, 2, 3]}, expect: {total: 5}}
expect: {total: 3}
"""


def test_each_mismatch_is_said_at_the_expect_it_comes_from(tmp_path):
    # A group's own total is checked (it was accepted and never read); a component's and the
    # deck's mismatches are each said at their own expect:, not all at the deck's.
    folder = _folder(tmp_path, OWN)
    group_at = f"count.yaml:{line_of(OWN, 'name: g')}:{OWN.splitlines()[3].index('expect:') + 1}"
    tok_at = f"count.yaml:{line_of(OWN, 'name: tok')}:{OWN.splitlines()[6].index('expect:') + 1}"
    deck_at = f"count.yaml:{line_of(OWN, 'expect: {total: 3}')}:1"
    checked = invoke_in(folder, "check", "--no-play", "count.yaml")
    assert checked.exit_code == 1, checked.output
    lines = [line.strip() for line in checked.stdout.splitlines()]
    assert [line for line in lines if line.startswith("mismatch: ")] == [
        f"mismatch: total: expected 3, found 4 ({deck_at})", f"mismatch: group g: expected 99, found 3 ({group_at})"]
    assert f"component tok: 3 (expected 5)  MISMATCH at {tok_at}" in lines

    built = invoke_in(folder, "build", "count.yaml", "--out", "out", "--jobs", "1", "--no-proof", "--no-rulebooks")
    assert built.exit_code == 0, built.output
    tail = "; printkit check lists them and fails"
    assert _counts_warnings(built.stderr) == [
        f"warning: count: {deck_at}: the deck does not have the counts its expect: gives (total: expected 3, found 4){tail}",
        f"warning: count: {group_at}: the deck does not have the counts its expect: gives (group g: expected 99, found 3){tail}",
        f"warning: count: {tok_at}: the deck does not have the counts its expect: gives (component tok: expected 5, found 3){tail}",
    ]


def test_a_groups_own_total_met_says_nothing(tmp_path):
    folder = _folder(tmp_path, OWN.replace("total: 99", "total: 3").replace("total: 5", "total: 3")
                     .replace("expect: {total: 3}\n", "expect: {total: 4}\n"))
    checked = invoke_in(folder, "check", "--no-play", "count.yaml")
    assert checked.exit_code == 0, checked.output
    built = invoke_in(folder, "build", "count.yaml", "--out", "out", "--jobs", "1", "--no-proof", "--no-rulebooks")
    assert built.exit_code == 0 and _counts_warnings(built.stderr) == []


def test_a_groups_expect_takes_its_total_alone(tmp_path):
    # Counts by value or by group are the deck's to expect: written on a group, they were never read.
    (tmp_path / "d.yaml").write_text("game: demo\nname: G\ngroups:\n  - name: c\n"
                                     "    expect: {total: 2, by: {kind: {a: 2}}}\n    cards: [{kind: a}, {kind: a}]\n",
                                     encoding="utf-8")
    result = invoke_in(tmp_path, "check", "d.yaml", "--no-play")
    assert result.exit_code == 1 and "d.yaml:5:24: unknown key 'by'" in result.output, result.output


def test_a_component_in_some_variants_is_expected_in_those_alone(tmp_path):
    (tmp_path / "d.yaml").write_text(
        "game: demo\nname: V\nvariants: {big: {}, small: {}}\ngroups:\n  - name: c\n    cards: [{n: 1}]\n"
        "components:\n  - name: tok\n    variants: [big]\n    expect: {total: 2}\n    cards: [{t: 1}, {t: 2}]\n",
        encoding="utf-8")
    result = invoke_in(tmp_path, "check", "d.yaml", "--no-play")
    assert result.exit_code == 0 and "MISMATCH" not in result.output, result.output
    assert "component tok: 2 (expected 2)" in result.output


def test_a_groups_empty_expect_is_refused_at_its_key(tmp_path):
    (tmp_path / "d.yaml").write_text("game: demo\nname: G\ngroups:\n  - name: c\n    expect: {}\n    cards: [{n: 1}]\n",
                                     encoding="utf-8")
    result = invoke_in(tmp_path, "check", "d.yaml", "--no-play")
    assert result.exit_code == 1 and "d.yaml:5:13: missing required key 'total'" in result.output, result.output
