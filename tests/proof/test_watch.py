"""printkit watch: a rebuild per save, errors that do not end it, and interrupts that leave no temporary."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from printkit.watch import ChangeFilter, Outcome, Target, describe, target
from printkit.locate import DECKS_DIR

from cli_in import invoke_in

from .decks import CALM, LOUD, many_cards, write_deck
from .watching import Watch

REBUILT = r"rebuilt in \d+\.\d\d s, \d+ files"


def test_it_rebuilds_on_save_reports_a_bad_spec_and_goes_on(tmp_path):
    spec = write_deck(tmp_path, cards=(CALM,), expect=1)
    with Watch(str(spec), "--out", "out", "--no-rulebooks", cwd=tmp_path) as watch:
        first = watch.expect(r"first build: " + REBUILT)
        assert "no warnings" in first
        proof = watch.expect(r"^proof: file://")
        assert proof.endswith("/out/proofing/proof.html")
        write_deck(tmp_path, cards=(CALM, LOUD), expect=2)
        line = watch.expect(r"proofing\.yaml changed: " + REBUILT)
        assert "1 warning" in line
        assert "does not fit" in watch.expect(r"^  warning: ")
        assert "A title far too long" in (tmp_path / "out/proofing/proof.html").read_text(encoding="utf-8")
        spec.write_text(spec.read_text() + "groups: [\n", encoding="utf-8")
        error = watch.expect(r"proofing\.yaml changed: ")
        assert "proofing.yaml:" in error and "waiting for the next save" in error
        write_deck(tmp_path, cards=(CALM,), expect=1)
        assert "no warnings" in watch.expect(r"proofing\.yaml changed: " + REBUILT)
        assert watch.stop(signal.SIGINT) == 0
        assert watch.seen[-1] == "stopped"
    assert not list(tmp_path.rglob("*.tmp"))


def test_an_output_folder_inside_the_spec_folder_starts_no_rebuild(tmp_path):
    spec = write_deck(tmp_path, cards=(CALM,), expect=1)
    (tmp_path / "other.yaml").write_text("not: watched\n")
    with Watch(str(spec), "--out", str(tmp_path / "out"), "--no-rulebooks", cwd=tmp_path) as watch:
        watch.expect("first build: " + REBUILT)
        (tmp_path / "other.yaml").write_text("still: not watched\n")  # another spec in the same folder
        (tmp_path / ".proofing.yaml.swp").write_text("x")  # an editor's swap file
        assert not [line for line in watch.quiet(2.5) if "changed" in line]
        passing = tmp_path / "sedX1y2Z3"  # made and removed within one save (sed -i does this)
        passing.write_text("x")
        passing.unlink()
        assert not [line for line in watch.quiet(1.5) if "changed" in line]
        (tmp_path / "notes.csv").write_text("a,b\n")  # anything else in the folder may be data
        assert "notes.csv changed" in watch.expect("changed: ")
        watch.stop()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupted_build_leaves_no_temporary_and_the_manifest_as_it_was(tmp_path, sig):
    spec = write_deck(tmp_path, cards=many_cards(60), expect=60)
    out = tmp_path / "out"
    with Watch(str(spec), "--out", str(out), "--per-card", "--no-rulebooks", cwd=tmp_path) as watch:
        deadline = time.monotonic() + 60
        while not list(out.rglob(".*.tmp")):  # the first build is staging its files
            assert time.monotonic() < deadline and watch.process.poll() is None, watch.seen
            time.sleep(0.02)
        assert watch.stop(sig) == 0
    assert not list(out.rglob("*.tmp"))
    manifest = out / "manifest.json"
    assert not manifest.exists() or "unfinished" not in json.loads(manifest.read_text())


def test_with_no_deck_named_it_watches_where_check_and_build_find_specs(tmp_path, monkeypatch):
    assert invoke_in(tmp_path, "new", "my-game").exit_code == 0
    game = tmp_path / "my-game"
    monkeypatch.chdir(game)
    assert target(()).folders == (game.resolve(),)
    (game / "decks").mkdir()
    assert target(()).folders == ((game / "decks").resolve(),)
    monkeypatch.chdir(tmp_path)  # no YAML file here: printkit's own decks, as check and build use
    assert target(()).folders == (DECKS_DIR.resolve(),)


def test_with_no_deck_named_it_rebuilds_the_designers_game_on_each_save(tmp_path):
    assert invoke_in(tmp_path, "new", "my-game").exit_code == 0
    game = tmp_path / "my-game"
    with Watch("--no-rulebooks", cwd=game) as watch:
        assert watch.expect("^watching ") == f"watching {game.resolve()} (output: output); Ctrl-C stops"
        watch.expect(r"first build: " + REBUILT)
        cards = game / "cards.csv"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Scout,", "Ranger,", 1), encoding="utf-8")
        watch.expect(r"cards\.csv changed: " + REBUILT)
        assert (game / "output" / "my-game").is_dir() and not (game / "output" / "calc").exists()
        spec = game / "my-game.yaml"
        spec.write_text(spec.read_text(encoding="utf-8").replace("\ngame:", "\ngmae:", 1), encoding="utf-8")
        error = watch.expect(r"my-game\.yaml changed: ")
        assert "my-game.yaml:4:1: unknown key 'gmae' (did you mean 'game'?) (waiting for the next save)" in error
        watch.stop()


def test_the_filter_skips_output_editors_temporaries_and_other_specs(tmp_path):
    spec = tmp_path / "deck.yaml"
    target = Target(("deck.yaml",), (tmp_path,), (spec,))
    keep = ChangeFilter(target, tmp_path / "out")
    assert keep(None, str(spec))
    assert keep(None, str(tmp_path / "art" / "x.svg"))
    assert keep(None, str(tmp_path / "deck.rules.en.md"))
    assert keep(None, str(tmp_path / "fonts" / "Mine.ttf"))
    assert not keep(None, str(tmp_path / "out" / "deck" / "proof.html"))
    assert not keep(None, str(tmp_path / "other.yaml"))
    assert not keep(None, str(tmp_path / "other.rules.en.md"))
    assert not keep(None, str(tmp_path / ".deck.yaml.swp"))
    assert not keep(None, str(tmp_path / "deck.yaml~"))
    assert not keep(None, str(tmp_path / ".git" / "index"))
    assert not keep(None, str(tmp_path / ".x.pdf.0123456789abcdef.tmp"))
    every = ChangeFilter(Target((), (tmp_path,), None), tmp_path / "out")
    assert every(None, str(tmp_path / "other.yaml"))


def test_lines_say_what_changed_how_long_and_the_first_warnings(tmp_path):
    assert describe([str(tmp_path / "a.csv"), str(tmp_path / "art/b.svg")], [tmp_path]) == "a.csv, art/b.svg changed"
    assert describe([str(tmp_path / f"{i}.svg") for i in range(5)], [tmp_path]).endswith("and 2 more changed")
    lines = Outcome("x.yaml changed", 1.234, 9, tuple(f"w{i}" for i in range(5))).lines()
    assert lines[0].endswith("x.yaml changed: rebuilt in 1.23 s, 9 files, 5 warnings")
    assert lines[1:] == ["  warning: w0", "  warning: w1", "  warning: w2", "  … and 2 more warnings"]
    error = Outcome("x.yaml changed", 0.1, None, error="x.yaml:3:1: bad").lines()
    assert error[0].endswith("x.yaml changed: x.yaml:3:1: bad (waiting for the next save)")


def test_an_interrupt_lost_inside_a_build_still_ends_the_watch(monkeypatch):
    """A KeyboardInterrupt that lands in a finaliser or a library's bare except never reaches the
    watch, and later signals are ignored by then: the watch asks after each build and stops."""
    import os

    from printkit import watch as watching
    from printkit.interrupts import interrupts_as_keyboard

    builds = []

    def swallowing_rebuild(*args):
        builds.append(args)
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the handler runs here, and its exception is dropped below
        except BaseException:
            pass
        os.kill(os.getpid(), signal.SIGINT)  # ignored now, as while a build unwinds
        return watching.Outcome("first build", 0.0, None, error="stopped inside")

    before = signal.getsignal(signal.SIGINT)  # Python's own handler, or SIG_IGN in a background job
    monkeypatch.setattr(watching, "changes", lambda *args: iter([set(), {"x"}, {"y"}]))
    monkeypatch.setattr(watching, "rebuild", swallowing_rebuild)
    target = watching.Target(("deck.yaml",), (Path("."),), None)
    with pytest.raises(KeyboardInterrupt), interrupts_as_keyboard():
        watching.run(target, None, type("Options", (), {"out_dir": Path("out")})(), lambda line: None)
    assert len(builds) == 1
    assert signal.getsignal(signal.SIGINT) is before  # the handlers are as they were


def test_a_rebuild_says_what_it_removed_as_made_before_a_file_of_the_deck_was_saved_again(tmp_path):
    from printkit.pipeline.context import BuildOptions
    from printkit.watch import rebuild

    spec = write_deck(tmp_path, cards=(CALM,), expect=1)
    built = invoke_in(tmp_path, "build", str(spec), "--per-card", "--no-rulebooks", "--out", "out", "--jobs", "1")
    assert built.exit_code == 0, built.output
    cards = tmp_path / "out" / "proofing" / "cards"
    assert {p.name for p in cards.iterdir()} == {"001-spells-calm.pdf", "001-spells-calm.png", "back-1.pdf", "back-1.png"}
    write_deck(tmp_path, cards=(CALM, LOUD), expect=2)
    options = BuildOptions(out_dir=tmp_path / "out", rulebooks=False, jobs=1)
    outcome = rebuild(Target((str(spec),), (tmp_path,), (spec,)), None, options, "proofing.yaml changed")
    assert outcome.error is None
    assert ("  note: proofing: removed 4 per-card files made before a file the deck may read was saved again"
            in outcome.lines())
    assert not cards.exists()


def test_a_spec_gone_for_a_moment_is_said_and_never_builds_printkits_own_decks(tmp_path, monkeypatch):
    """An editor's save by rename or a ``git checkout`` leaves the folder without its spec for a
    moment: the rebuild says so and builds nothing, and a new spec in the folder is taken up."""
    from printkit.pipeline.context import BuildOptions
    from printkit.watch import rebuild

    assert invoke_in(tmp_path, "new", "g").exit_code == 0
    game = tmp_path / "g"
    monkeypatch.chdir(game)
    watched = target(())
    options = BuildOptions(out_dir=Path("output"), rulebooks=False, proof=False, jobs=1)
    first = rebuild(watched, None, options, "first build")
    assert first.error is None and first.specs == (Path("g.yaml"),)
    (game / "g.yaml").rename(game / "g.yaml.bak")
    gone = rebuild(watched, None, options, "g.yaml changed", first.specs)
    assert gone.files is None
    assert gone.error == ("g.yaml: the spec is gone (removed or renamed), so nothing was built; "
                          "Ctrl-C and watch again to build without it")
    assert sorted(p.name for p in (game / "output").iterdir() if not p.name.startswith(".")) == ["alignment-a4.pdf", "g", "manifest.json"]
    (game / "g.yaml.bak").rename(game / "g.yaml")
    (game / "h.yaml").write_text((game / "g.yaml").read_text(encoding="utf-8").replace("name: \"G\"", "name: \"H\""),
                                 encoding="utf-8")
    back = rebuild(watched, None, options, "g.yaml changed", gone.specs or first.specs)
    assert back.error is None and back.specs == (Path("g.yaml"), Path("h.yaml"))
    assert sorted(p.name for p in (game / "output").iterdir() if not p.name.startswith(".")) == ["alignment-a4.pdf", "g", "h", "manifest.json"]


def test_with_no_deck_named_a_spec_under_two_names_is_built_once_as_build_builds_it(tmp_path, monkeypatch):
    from printkit.pipeline.context import BuildOptions
    from printkit.watch import rebuild

    assert invoke_in(tmp_path, "new", "g").exit_code == 0
    game = tmp_path / "g"
    (game / "z-link.yaml").symlink_to("g.yaml")  # the same spec under another name, beside it
    built = invoke_in(game, "build", "--no-rulebooks", "--no-proof", "--jobs", "1", "--no-cache")
    assert built.exit_code == 0, built.output
    monkeypatch.chdir(game)
    watched = target(())
    options = BuildOptions(out_dir=Path("output"), rulebooks=False, proof=False, jobs=1)
    first = rebuild(watched, None, options, "first build")
    assert first.error is None and first.specs == (Path("g.yaml"),)
    assert f"{first.files} files; manifest: " in built.output  # what build wrote, not the deck twice
    (game / "a-link.yaml").symlink_to("g.yaml")  # a new name for it, sorted before the others
    again = rebuild(watched, None, options, "a-link.yaml changed", first.specs)
    assert again.error is None and again.specs == (Path("a-link.yaml"),) and again.files == first.files


def test_a_named_spec_gone_is_waited_for_not_looked_up_among_printkits_decks(tmp_path, monkeypatch):
    from printkit.pipeline.context import BuildOptions
    from printkit.watch import rebuild

    spec = write_deck(tmp_path, cards=(CALM,), expect=1)
    spec = spec.rename(tmp_path / "calc.yaml")  # named as one of printkit's own decks
    monkeypatch.chdir(tmp_path)
    watched = target(("calc",))
    options = BuildOptions(out_dir=Path("out"), rulebooks=False, proof=False, jobs=1)
    first = rebuild(watched, None, options, "first build")
    assert first.error is None and first.specs == (Path("calc.yaml"),)
    manifest = (tmp_path / "out" / "manifest.json").read_bytes()
    spec.unlink()
    gone = rebuild(watched, None, options, "calc.yaml changed", first.specs)
    assert gone.error.startswith("calc.yaml: the spec is gone")
    assert (tmp_path / "out" / "manifest.json").read_bytes() == manifest  # printkit's calc was not built
