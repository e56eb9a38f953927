"""A game from an installed package: the example package (tests/data/example_game) is installed
into a folder with pip, then `printkit check` plays a spec naming it and `printkit simulate`
plays it; a package that registers a game wrongly is one clear error naming the package."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "example_game"
REPO = Path(__file__).resolve().parents[2]


def run(args, cwd, site):
    """``args`` in a fresh interpreter whose path holds ``site`` (the installed packages) and this printkit."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(REPO)]))
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The example game installed by pip into a folder of its own (built from a copy: a build
    writes into the source folder)."""
    root = tmp_path_factory.mktemp("example")
    source = root / "source"
    shutil.copytree(EXAMPLE, source)
    site = root / "site"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(site), str(source)],
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert (site / "printkit_highcard" / "engine.py").is_file()
    work = root / "work"
    work.mkdir()
    shutil.copy(EXAMPLE / "highcard.yaml", work)
    return site, work


def test_check_plays_a_spec_naming_the_installed_game(installed):
    site, work = installed
    result = run(["-m", "printkit", "check", "highcard.yaml"], work, site)
    assert result.returncode == 0, result.stderr
    assert "40 cards   expected    40   ok" in result.stdout
    assert "3 seeded games each for 2-4 players by the highcard engine: all finished, invariants intact" in result.stdout


def test_simulate_plays_the_installed_game(installed):
    site, work = installed
    result = run(["-m", "printkit", "simulate", "highcard", "--games", "20", "--json"], work, site)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["game"], summary["games"], summary["finished"], summary["players"]) == ("highcard", 20, 20, 4)
    assert summary["length_unit"] == "moves" and summary["length"]["min"] == summary["length"]["max"] == 40
    assert summary["endings"] == {"all cards played": 20}
    assert summary["failures"] == []
    assert sum(summary["win_rate_by_seat"]) >= 1.0  # every game has a winner (ties share it)
    # the same seeds give the same games
    again = run(["-m", "printkit", "simulate", "highcard", "--games", "20", "--json"], work, site)
    assert json.loads(again.stdout) == summary


def test_the_installed_games_icon_is_offered_and_its_record_names_its_package(installed):
    site, work = installed
    code = ("from printkit import games; g = games.get('highcard'); "
            "print(g.package, g.engine, 'crown' in games.icons('highcard'), games.engine_names())")
    result = run(["-c", code], work, site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(None, 3) == ["printkit-highcard", "printkit_highcard.engine", "True",
                                             "('calc', 'clag', 'highcard', 'stack')\n"]


def fake_install(site: Path, package: str, entry_points: str, modules: dict[str, str] | None = None) -> None:
    """What installing a package leaves for importlib.metadata: its metadata and its entry points."""
    info = site / f"{package.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[printkit.games]\n{entry_points}\n", encoding="utf-8")
    for name, text in (modules or {}).items():
        (site / f"{name}.py").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("entry, modules, says", [
    ("odd = no_such_module:GAME", {}, "cannot load its entry point 'no_such_module:GAME' (ModuleNotFoundError"),
    ("odd = odd_game:GAME", {"odd_game": "GAME = 42\n"}, "names an object of type int, not a module or a printkit.games.Game"),
    ("odd = odd_game:GAME", {"odd_game": "from printkit.games import Game\nGAME = Game('even', engine='x')\n"},
     "names a Game called 'even'"),
    ("odd = odd_game", {"odd_game": "ENGINE = None\n"}, "module 'odd_game' has no ENGINE following printkit's "
                                                          "engine protocol"),
    ("odd = odd_game", {"odd_game": "class E:\n    name = 'odd'\nENGINE = E()\n"}, "(it lacks: min_players,"),
    ("odd = odd_game", {"odd_game": "raise RuntimeError('boom')\n"}, "cannot import its engine module 'odd_game' "
                                                                     "(RuntimeError: boom)"),
])
def test_a_package_registering_a_game_wrongly_is_one_clear_error(tmp_path, entry, modules, says):
    site = tmp_path / "site"
    fake_install(site, "printkit-odd", entry, modules)
    (tmp_path / "odd.yaml").write_text("game: odd\nname: Odd\ngroups:\n  - name: all\n    cards: [{ rank: 1 }]\n",
                                        encoding="utf-8")
    result = run(["-m", "printkit", "check", "odd.yaml"], tmp_path, site)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'printkit-odd'" in lines[0] and says in lines[0], result.stderr


def test_two_packages_giving_one_name_are_refused_when_a_spec_selects_it(tmp_path):
    site = tmp_path / "site"
    fake_install(site, "printkit-one", "odd = one_game")
    fake_install(site, "printkit-two", "odd = two_game")
    (tmp_path / "odd.yaml").write_text("game: odd\nname: Odd\ngroups:\n  - name: all\n    cards: [{ rank: 1 }]\n",
                                        encoding="utf-8")
    result = run(["-m", "printkit", "check", "odd.yaml"], tmp_path, site)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "both register a game named 'odd'; uninstall one of them" in lines[0]
    assert "'printkit-one'" in lines[0] and "'printkit-two'" in lines[0]


TINY_CALC = "game: calc\nname: Tiny\ngroups:\n  - name: all\n    cards: [{ value: 3, text: 'a :plus:' }]\n"


def broken_packages(site: Path) -> None:
    """Installed games each broken in its own way: none is selected by a calc deck."""
    fake_install(site, "printkit-loud", "loud = loud_game:GAME",
                 {"loud_game": "from printkit.games import Game\nGAME = Game('loud', icons='loud_icons')\n",
                  "loud_icons": "raise RuntimeError('icons boom')\n"})
    fake_install(site, "printkit-gone", "gone = gone_game:GAME", {"gone_game": "raise ImportError('gone boom')\n"})
    fake_install(site, "printkit-thief", "calc = thief_game")
    fake_install(site, "printkit-one", "twin = one_game")
    fake_install(site, "printkit-two", "twin = two_game")


def test_broken_installed_games_stop_no_other_games_deck(tmp_path):
    site = tmp_path / "site"
    broken_packages(site)
    (tmp_path / "tiny.yaml").write_text(TINY_CALC, encoding="utf-8")
    built = run(["-m", "printkit", "build", "tiny.yaml", "--out", "out", "--no-rulebooks"], tmp_path, site)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "out" / "tiny").is_dir()
    checked = run(["-m", "printkit", "check", "tiny.yaml", "--no-play"], tmp_path, site)
    assert checked.returncode == 0, checked.stderr
    assert "Traceback" not in checked.stderr
    # the skipped entry points are said, each once per deck, as warnings
    assert ("warning: package 'printkit-thief' registers a game named 'calc', which is one of printkit's own, "
            "and is ignored") in checked.stdout
    assert "warning: packages 'printkit-one' and 'printkit-two' both register a game named 'twin'" in checked.stdout
    # a deck naming a game no engine plays lists the installed ones without loading them
    (tmp_path / "other.yaml").write_text(TINY_CALC.replace("calc", "nogame"), encoding="utf-8")
    other = run(["-m", "printkit", "check", "other.yaml", "--no-play"], tmp_path, site)
    assert "Traceback" not in other.stderr, other.stderr
    assert "engines: calc, clag, gone, loud, stack" in other.stdout, other.stdout


def test_a_spec_selecting_a_game_whose_icons_fail_is_one_clear_error(tmp_path):
    site = tmp_path / "site"
    broken_packages(site)
    (tmp_path / "loud.yaml").write_text(TINY_CALC.replace("calc", "loud"), encoding="utf-8")
    result = run(["-m", "printkit", "build", "loud.yaml", "--out", "out", "--no-rulebooks"], tmp_path, site)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'printkit-loud'" in lines[0] and "RuntimeError: icons boom" in lines[0], result.stderr


def test_an_installed_games_icons_are_offered_only_to_its_own_specs(installed):
    site, work = installed
    code = "from printkit import games; print('crown' in games.icons('highcard'), 'crown' in games.icons('calc'))"
    result = run(["-c", code], work, site)
    assert result.stdout.split() == ["True", "False"], result.stderr


FACES = """from printkit.layout.ops import Face, Rect

def front(card):
    return Face(ops=(Rect(0, 0, 10, 10, fill="{color}"),))
"""


def test_editing_an_installed_games_faces_is_rebuilt(installed, tmp_path):
    site0, work0 = installed
    site = tmp_path / "site"
    shutil.copytree(site0, site)
    package = site / "printkit_highcard"
    init = package / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8").replace('icons="printkit_highcard.icons",',
                                                              'icons="printkit_highcard.icons",\n    '
                                                              'faces="printkit_highcard.faces",'), encoding="utf-8")
    (package / "faces.py").write_text(FACES.format(color="#ff0000"), encoding="utf-8")
    work = tmp_path / "work"  # not the folder above the package: the spec's folder is an input
    work.mkdir()
    shutil.copy(work0 / "highcard.yaml", work)

    # the spec was just written: counted as settled (as tests/conftest.py does in process), so the
    # second build would replay the first's record if the game's code were not part of its key
    settled = ("import sys; from printkit.pipeline import replay; replay.SETTLE_NS = replay.SETTLE_COARSE_NS = 0; "
               "sys.argv[0] = 'printkit'; from printkit.cli import main; main()")

    def build(out, *more):
        result = run(["-c", settled, "build", "highcard.yaml", "--out", out, "--no-rulebooks", *more], work, site)
        assert result.returncode == 0, result.stderr
        return {p.relative_to(work / out): p.read_bytes() for p in sorted((work / out).rglob("*"))
                if p.is_file() and ".printkit-cache" not in p.parts and p.name != "manifest.json"}

    red = build("out")
    assert build("out") == red
    (package / "faces.py").write_text(FACES.format(color="#0000ff"), encoding="utf-8")
    blue = build("out")
    fresh = build("fresh", "--no-cache")
    assert blue != red
    assert blue == fresh
