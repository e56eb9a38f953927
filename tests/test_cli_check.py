import json

import pytest
from click.testing import CliRunner

from printkit.cli import main

from cli_in import invoke_in


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_check_every_deck_counts_ok():
    result = run("check", "--no-play", "--json")
    assert result.exit_code == 0, result.output
    decks = {(d["deck"], d["variant"]): d for d in json.loads(result.stdout)["decks"]}
    assert {k: (d["total"], d["expected"], d["ok"]) for k, d in decks.items()} == {
        ("calc", "standard"): (133, 133, True),
        ("calc", "expert"): (177, 177, True),
        ("stack", None): (52, 52, True),
        ("clag", None): (52, 52, True),
        ("emberfall", None): (60, 60, True),
    }
    assert decks[("calc", "expert")]["counts"]["symbol"] == {"plus": 44, "minus": 44, "times": 44, "power": 44}
    assert decks[("stack", None)]["counts"]["cost"] == {"1": 12, "2": 24, "3": 16}
    assert decks[("clag", None)]["counts"]["suit"]["hearts"] == 13


def test_check_table_names_each_variant():
    result = run("check", "--no-play", "calc")
    assert result.exit_code == 0
    assert "calc (standard)" in result.stdout and "calc (expert)" in result.stdout
    assert "plus 44" in result.stdout


def test_check_fails_on_a_count_mismatch(tmp_path):
    spec = tmp_path / "d.yaml"
    spec.write_text("game: custom\nname: D\ngroups:\n  - name: n\n    generate: {a: [1, 2]}\nexpect: {total: 3, by: {a: {'1': 2}}}\n")
    result = run("check", "--json", str(spec))
    assert result.exit_code == 1
    report = json.loads(result.stdout)["decks"][0]
    assert report["ok"] is False and report["variant"] is None
    assert report["mismatches"] == ["total: expected 3, found 2", "a=1: expected 2, found 1", "a=2: expected 0, found 1"]


def test_schema_is_json_schema_of_the_spec():
    result = run("schema")
    schema = json.loads(result.stdout)
    assert schema["title"] == "printkit deck spec"
    assert {"game", "name", "groups"} <= set(schema["required"])
    assert "variants" in schema["properties"]


def test_every_command_has_help_with_an_example():
    for name, command in main.commands.items():
        assert command.help and "Example" in command.help, name


def test_check_plays_the_real_decks_with_their_engines():
    result = run("check", "calc", "stack")
    assert result.exit_code == 0, result.output
    assert "3 seeded games each for 2-8 players by the calc engine: all finished" in result.stdout
    assert "for 2 players by the stack engine" in result.stdout


def test_check_fails_when_the_engine_cannot_play_the_deck(tmp_path):
    spec = tmp_path / "nojoker.yaml"
    spec.write_text(
        "game: calc\nname: No joker\ngroups:\n  - name: numbers\n    attrs: {kind: number}\n"
        "    generate: {symbol: [plus, minus], number: [1, 2, 3]}\n    copies: 4\n"
    )
    result = run("check", "--json", str(spec))
    assert result.exit_code == 1
    report = json.loads(result.stdout)["decks"][0]
    assert report["mismatches"] == [] and report["ok"] is False
    assert any("joker" in problem for problem in report["problems"])


def test_unknown_engine_options_are_located_in_the_spec(tmp_path, repo):
    spec = tmp_path / "stack.yaml"
    text = (repo / "decks" / "stack.yaml").read_text(encoding="utf-8")
    spec.write_text(text.replace("count_by:", "options: { mode: bogus }\ncount_by:", 1), encoding="utf-8")
    line = spec.read_text(encoding="utf-8").splitlines().index("options: { mode: bogus }") + 1
    result = run("check", str(spec))
    assert result.exit_code == 1
    assert result.stderr.strip() == f"{spec}:{line}:12: Stack option mode must be one of quick, long, not 'bogus'"


def test_a_bad_option_is_located_at_its_own_key(tmp_path, repo):
    """Among several options, the error points at the one refused, in the deck or a variant."""
    spec = tmp_path / "stack.yaml"
    text = (repo / "decks" / "stack.yaml").read_text(encoding="utf-8")
    for bad, culprit in [("options:\n  mode: quick\n  turn_limit: 5\n", "turn_limit"),
                         # Two bad options: the place and the message are both the first one's.
                         ("options:\n  turn_cap: 0\n  mode: bogus\n", "turn_cap"),
                         ("variants:\n  odd:\n    options: {mode: quick, turn_cap: many}\n", "turn_cap")]:
        spec.write_text(text.replace("count_by:", bad + "count_by:", 1), encoding="utf-8")
        result = run("check", str(spec))
        assert result.exit_code == 1
        lines = spec.read_text(encoding="utf-8").splitlines()
        line = next(i for i, row in enumerate(lines, 1) if culprit in row)
        where, message = result.stderr.strip().split(": ", 1)
        assert where == f"{spec}:{line}:{lines[line - 1].index(culprit) + 1}" and culprit in message


ORCHARD = "game: {game}\nname: Orchard\ngroups:\n  - name: fruit\n    generate: {{fruit: [apple, pear]}}\n"


def test_check_says_when_no_game_was_played(tmp_path):
    spec = tmp_path / "orchard.yaml"
    spec.write_text(ORCHARD.format(game="orchard"))
    for args in ([], ["--no-play"]):
        result = run("check", *args, str(spec))
        assert result.exit_code == 0, result.output
        assert "  rules:     not played (printkit has no rule engine for 'orchard'; engines: calc, clag, stack)" \
            in result.stdout.splitlines()
    report = json.loads(run("check", "--json", str(spec)).stdout)["decks"][0]
    assert report["ok"] is True and report["played"] is None
    assert report["not_played"] == "printkit has no rule engine for 'orchard'; engines: calc, clag, stack"


def test_check_suggests_the_engine_a_game_name_misspells(tmp_path):
    spec = tmp_path / "orchard.yaml"
    spec.write_text(ORCHARD.format(game="stak"))
    result = run("check", str(spec))
    assert result.exit_code == 0
    assert "rules:     not played (printkit has no rule engine for 'stak'; engines: calc, clag, stack; " \
           "did you mean 'stack'?)" in result.stdout


def test_check_fails_a_game_named_like_an_engine_in_other_letters(tmp_path):
    """``Stack`` can only mean the stack engine: a passing check would hide that nothing is played."""
    spec = tmp_path / "orchard.yaml"
    spec.write_text(ORCHARD.format(game="Stack"))
    result = run("check", "--json", str(spec))
    assert result.exit_code == 1
    report = json.loads(result.stdout)["decks"][0]
    assert report["ok"] is False
    assert report["not_played"] == ("printkit has no rule engine for 'Stack'; engines: calc, clag, stack; "
                                     "did you mean 'stack'? (engine names are lower case)")
    # The report says why it failed, in --json as in text.
    assert report["problems"] == ["game 'Stack' is not played: engine names are lower case, write game: stack"]
    text = run("check", "--no-play", str(spec)).stdout
    assert "FAILED" in text and "  problem: game 'Stack' is not played" in text


def test_check_of_a_name_finds_the_spec_file_in_this_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "orchard.yaml").write_text(ORCHARD.format(game="orchard"))
    result = run("check", "orchard", "--no-play")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("orchard")
    misspelt = run("check", "orchad")
    assert misspelt.exit_code == 1 and misspelt.stderr.startswith("orchad: no deck named 'orchad' in ")


def test_a_name_in_a_decks_folder_points_at_a_spec_beside_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "decks").mkdir()
    (tmp_path / "orchard.yaml").write_text(ORCHARD.format(game="orchard"))
    result = run("check", "orchard")
    assert result.exit_code == 1
    assert result.stderr.rstrip().endswith("did you mean ./orchard.yaml?")


def test_a_count_by_attribute_a_variant_lacks_is_said_in_words(tmp_path):
    spec = tmp_path / "orchard.yaml"
    spec.write_text(ORCHARD.format(game="orchard")
                    + "  - name: crows\n    variants: [full]\n    cards: [{kind: crow}]\n"
                    + "count_by: [fruit, kind]\nvariants:\n  family: {}\n  full: {}\n")
    result = run("check", "--no-play", str(spec))
    assert result.exit_code == 0, result.output
    assert "  kind:      (no card has it)" in result.stdout.split("orchard (full)")[0]
    assert "  kind:      crow 1" in result.stdout


def test_options_that_only_work_together_pass_and_a_refusal_is_placed_where_it_belongs(tmp_path, repo, monkeypatch):
    """Options are tried one by one only to place a refusal; a set that passes as a whole passes."""
    from printkit.check import check_engine_options
    from printkit.errors import DeckError, SpecError
    from printkit import games
    from printkit.spec import load_spec

    class Paired:  # 'fast' needs 'short'; 'loud' and 'quiet' each pass but not together
        def check_options(self, options):
            if options.get("fast") and not options.get("short"):
                raise DeckError("fast needs short")
            if options.get("loud") and options.get("quiet"):
                raise DeckError("loud and quiet clash")

    monkeypatch.setattr(games, "engine_for", lambda game: Paired())
    spec = tmp_path / "stack.yaml"
    text = (repo / "decks" / "stack.yaml").read_text(encoding="utf-8")

    def place(options):
        spec.write_text(text.replace("count_by:", f"options: {options}\ncount_by:", 1), encoding="utf-8")
        try:
            check_engine_options(load_spec(spec))
        except SpecError as exc:
            line = spec.read_text(encoding="utf-8").splitlines()[exc.line - 1]
            return line[exc.column - 1:], exc.message
        return None

    assert place("{fast: true, short: true}") is None  # valid only together
    assert place("{short: true, fast: true}") is None
    assert place("{short: false, fast: true}") == ("fast: true}", "fast needs short")
    assert place("{loud: true, quiet: true}") == ("options: {loud: true, quiet: true}", "loud and quiet clash")


def test_check_warns_about_colour_names_no_card_reads_without_failing(tmp_path):
    spec = tmp_path / "orchard.yaml"
    spec.write_text(ORCHARD.format(game="orchard") + "art:\n  colors: {backgound: '#fff8e7', ink: '#222222'}\n")
    result = run("check", "--no-play", str(spec))
    assert result.exit_code == 0, result.output
    # said where the name is written (the last line, in the colours' braces)
    line = len(spec.read_text(encoding="utf-8").splitlines())
    assert f"  warning: {spec}:{line}:12: art.colors: 'backgound' (did you mean 'background'?) is not a colour " \
        "name" in result.stdout, result.stdout
    report = json.loads(run("check", "--json", "--no-play", str(spec)).stdout)["decks"][0]
    assert report["ok"] is True and len(report["warnings"]) == 1 and "'backgound'" in report["warnings"][0]
    clean = json.loads(run("check", "--json", "--no-play", "calc").stdout)["decks"]
    assert all(d["warnings"] == [] for d in clean)


def _check_in(folder, *args):
    return invoke_in(folder, "check", "--no-play", *args)


DEMO = "game: demo\nname: Demo\ngroups:\n  - name: g\n    cards: [{cost: 12}, {cost: 1}, {cost: 0}, {cost: 18}, {cost: 1}]\n" \
       "count_by: [cost]\n"


def test_with_no_deck_named_check_uses_decks_then_this_folder_then_its_own(tmp_path):
    (tmp_path / "mine.yaml").write_text(DEMO, encoding="utf-8")
    (tmp_path / "compose.yaml").write_text("services: {}\n", encoding="utf-8")  # not a spec: left alone
    here = _check_in(tmp_path)
    assert here.exit_code == 0, here.output
    assert here.stderr == "checking the specs in this folder\n"
    assert here.stdout.startswith("mine ")
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "other.yaml").write_text(DEMO, encoding="utf-8")
    local = _check_in(tmp_path)
    assert local.stderr == "checking the specs in ./decks\n" and local.stdout.startswith("other ")
    empty = tmp_path / "empty"
    empty.mkdir()
    bundled = _check_in(empty)
    assert bundled.stderr == "checking the specs in printkit's own decks\n" and "calc (standard)" in bundled.stdout


def test_a_hidden_yaml_file_in_decks_is_no_spec(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mine.yaml").write_text(DEMO, encoding="utf-8")
    (tmp_path / "decks" / "._mine.yaml").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X")  # macOS's resource fork
    checked = _check_in(tmp_path)
    assert checked.exit_code == 0, checked.output
    assert checked.stderr == "checking the specs in ./decks\n" and checked.stdout.startswith("mine ")
    assert "._mine" not in checked.stdout
    unknown = _check_in(tmp_path, "nothing")
    assert unknown.exit_code == 1 and "(known: mine)" in unknown.stderr


def _starter(tmp_path):
    assert invoke_in(tmp_path, "new", "my-game").exit_code == 0
    return tmp_path / "my-game"


def test_a_misspelt_key_in_the_folders_spec_is_its_error_not_printkits_own_decks(tmp_path):
    folder = _starter(tmp_path)
    spec = folder / "my-game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("\ngame:", "\ngmae:", 1), encoding="utf-8")
    checked = _check_in(folder)
    assert checked.exit_code == 1
    assert checked.stderr == ("checking the specs in this folder\n"
                              "my-game.yaml:4:1: unknown key 'gmae' (did you mean 'game'?)\n")
    built = invoke_in(folder, "build", "--no-rulebooks")
    assert built.exit_code == 1 and "my-game.yaml:4:1: unknown key 'gmae'" in built.stderr
    assert not (folder / "output").exists()  # printkit's own decks are not built into the designer's folder
    named = _check_in(folder, "my-game")
    assert named.exit_code == 1 and named.stderr.startswith("my-game.yaml:4:1: unknown key 'gmae'")


def test_a_game_whose_spec_is_missing_for_a_moment_does_not_get_printkits_decks_built_into_its_output(tmp_path):
    folder = _starter(tmp_path)
    built = invoke_in(folder, "build", "--no-rulebooks", "--no-proof", "--jobs", "1")
    assert built.exit_code == 0, built.output
    (folder / "my-game.yaml").rename(folder / "my-game.yaml.bak")  # renamed away, or mid `git checkout`
    again = invoke_in(folder, "build", "--no-rulebooks", "--no-proof", "--jobs", "1")
    assert again.exit_code == 1
    assert again.stderr == ("building the specs in printkit's own decks\n"
                            "error: this folder holds no deck spec, and 'output' holds my-game built from specs elsewhere: "
                            "printkit's own decks are not built into it; name the spec to build (or one of printkit's "
                            "decks, e.g. calc), or use another --out\n")
    assert sorted(p.name for p in (folder / "output").iterdir() if not p.name.startswith(".")) == [
        "alignment-a4.pdf", "manifest.json", "my-game"]
    watched = invoke_in(folder, "watch", "--no-rulebooks")
    assert watched.exit_code == 1 and "this folder holds no deck spec, and 'output' holds my-game" in watched.stderr


def test_an_empty_spec_in_the_folder_is_an_error_naming_it(tmp_path):
    folder = _starter(tmp_path)
    (folder / "my-game.yaml").write_text("", encoding="utf-8")
    checked = _check_in(folder)
    assert checked.exit_code == 1
    assert checked.stderr == "checking the specs in this folder\nmy-game.yaml:1:1: spec file is empty\n"


def test_yaml_files_of_other_tools_are_left_alone_but_are_no_reason_to_use_printkits_decks(tmp_path):
    (tmp_path / "compose.yaml").write_text("services:\n  web: {image: x}\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: Rules\nnav: [index.md]\n", encoding="utf-8")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    result = _check_in(tmp_path)
    assert result.exit_code == 1 and "calc" not in result.stdout
    assert result.stderr.startswith("compose.yaml: not a deck spec (a list, or none of game:, groups:, card:, art:, layouts: "
                                    "at its top level), nor is any other YAML file here")
    (tmp_path / "draft.yaml").write_text("# a spec, begun\n", encoding="utf-8")  # no key yet: a spec
    begun = _check_in(tmp_path)
    assert begun.stderr == "checking the specs in this folder\ndraft.yaml:1:1: spec file is empty\n"
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    assert _check_in(hidden).stderr == "checking the specs in printkit's own decks\n"


def test_a_yaml_list_beside_the_spec_is_no_spec(tmp_path):
    folder = _starter(tmp_path)
    (folder / "playtests.yaml").write_text("# sessions\n---\n- date: 2026-01-02\n  players: 3\n", encoding="utf-8")
    (folder / "tags.yml").write_text("[red, blue]\n", encoding="utf-8")
    checked = _check_in(folder)
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.startswith("my-game ")
    assert invoke_in(folder, "build", "--no-rulebooks", "--no-proof").exit_code == 0


def test_counts_list_numbers_in_numeric_order(tmp_path):
    (tmp_path / "mine.yaml").write_text(DEMO, encoding="utf-8")
    result = _check_in(tmp_path, "mine.yaml")
    assert "  cost:      0 1  1 2  12 1  18 1\n" in result.stdout + "\n", result.stdout


def test_one_card_is_said_in_the_singular(tmp_path):
    spec = tmp_path / "single.yaml"
    spec.write_text("game: demo\nname: Single\ncard: {size: poker}\nexpect: {total: 1}\n"
                    "groups:\n  - name: only\n    cards:\n      - {id: one}\n")
    result = run("check", str(spec))
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first == "single                     1 card    expected     1   ok"
    several = tmp_path / "several.yaml"
    several.write_text("game: demo\nname: Several\ngroups:\n  - name: only\n    cards:\n"
                       + "".join(f"      - {{id: c{i}}}\n" for i in range(12)))
    many = run("check", str(several)).stdout.splitlines()[0]
    assert many.startswith("several                   12 cards   expected"), many
    assert first.index("1 card") == many.index("2 cards") and first.index("expected") == many.index("expected")
