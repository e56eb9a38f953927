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


def _said(args, cwd):
    """``printkit ARGS`` run in ``cwd``: its exit code and the rulebooks' warnings, each once."""
    from cli_in import invoke_in

    result = invoke_in(cwd, *args)
    lines = result.stdout.splitlines() + result.stderr.splitlines()
    said = {line.strip().removeprefix("warning: ") for line in lines if line.strip().startswith("warning: ")}
    return result.exit_code, {line.split(": ", 1)[1] if args[0] == "build" else line for line in said
                              if "rulebook" in line}


def test_check_says_first_what_a_build_warns_of_printkits_rule_texts(tmp_path):
    """A copy of a bundled spec without a card its game's text quotes, and a spec of a bundled
    game with no text of its own: check warns of each rulebook left out, as the build does."""
    calc = (DECKS_DIR / "calc.yaml").read_text(encoding="utf-8")
    start, end = calc.index("  - name: joker"), calc.index("\nvariants:")
    mycalc = calc[:start] + calc[end + 1:]
    for counted, without in (("total: 133", "total: 132"), ("total: 177", "total: 176"),
                             ("numbers: 132, joker: 1", "numbers: 132"), ("numbers: 176, joker: 1", "numbers: 176")):
        mycalc = mycalc.replace(counted, without)
    (tmp_path / "calc").mkdir()
    (tmp_path / "calc" / "mycalc.yaml").write_text(mycalc, encoding="utf-8")
    (tmp_path / "ember").mkdir()
    (tmp_path / "ember" / "d.yaml").write_text("game: emberfall\nname: G\ngroups:\n  - name: cards\n"
                                               "    cards: [{title: A}]\n", encoding="utf-8")
    for folder, spec, quoted in (("calc", "mycalc", "deck.groups.joker"), ("ember", "d", "deck.by.type.Creature")):
        checked, check_said = _said(["check", "--no-play"], tmp_path / folder)
        built, build_said = _said(["build", "--no-proof", "--jobs", "1"], tmp_path / folder)
        assert checked == built == 0
        assert check_said == build_said and len(check_said) == 2
        for lang in ("ko", "en"):
            assert any(line.startswith(f"no {lang} rulebook: {DECKS_DIR}/") and quoted in line
                       and f"write {spec}.rules.{lang}.md beside it" in line for line in check_said)


def test_check_sets_the_bundled_text_from_the_decks_it_expanded(tmp_path, monkeypatch):
    """check reads and expands a spec once: setting the rule texts it takes reads those decks
    (a game's own figures may still read the spec, as they do in a build)."""
    import shutil
    import sys

    import printkit.decks
    from printkit.check import check_spec

    spec = tmp_path / "mycalc.yaml"
    shutil.copy(DECKS_DIR / "calc.yaml", spec)
    read_again = []
    loader = printkit.decks.load_all_variants

    def counted(path):
        if sys._getframe(1).f_code.co_name == "prepare":  # the rule text's own reading of the spec
            read_again.append(path)
        return loader(path)

    monkeypatch.setattr(printkit.decks, "load_all_variants", counted)
    reports = check_spec(spec)
    assert [r.variant for r in reports] == ["standard", "expert"]
    assert read_again == []
