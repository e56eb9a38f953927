"""The games registry: printkit's own games, each part found through one Game record, loaded lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest

from printkit import games
from printkit.errors import DeckError
from printkit.games import BUILTIN, PARTS, Game, engine_for, engine_names, get, has_engine, module_of, names


def test_the_shipped_games_are_registered_in_icon_order():
    assert names()[:3] == ("calc", "stack", "clag")
    assert {"calc", "clag", "stack"} <= set(engine_names())
    assert all(isinstance(game, Game) and game.package == "printkit" for game in BUILTIN.values())


@pytest.mark.parametrize("name", ["calc", "clag", "stack"])
def test_every_part_of_a_shipped_game_lives_in_its_folder(name):
    game = get(name)
    for part in PARTS:
        module = game.module(part)
        assert module.__name__ == f"printkit.games.{name}.{part}"
    assert engine_for(name).name == name
    assert callable(module_of(name, "faces").front)
    assert set(module_of(name, "rulebook").FIGURES) and callable(module_of(name, "report").facts)
    assert set(module_of(name, "icons").ICONS) <= set(games.icons())


def test_a_game_nobody_registered_has_no_parts_and_no_engine():
    assert get("solitaire") is None and not has_engine("solitaire")
    assert module_of("solitaire", "faces") is None
    with pytest.raises(DeckError, match=r"no rule engine for game 'solitaire' \(known: calc, clag, stack"):
        engine_for("solitaire")
    # a spec's game: is a name, never a module path
    assert all(module_of(odd, "faces") is None for odd in ("games.calc", "../calc", "calc.faces", "__init__"))


def test_a_game_without_an_engine_says_so():
    with pytest.raises(DeckError, match="has no rule engine"):
        Game("plain").load_engine()
    assert Game("plain").module("faces") is None


def test_every_icon_is_offered_once_games_first_then_the_generic_shapes():
    offered = list(games.icons())
    assert offered[:4] == ["plus", "minus", "times", "power"]  # Calc's, as before the move
    assert offered[-4:] == ["star", "circle", "square", "triangle"]
    assert {"ruby", "hearts"} <= set(offered)


def test_importing_the_registry_loads_no_engine_faces_or_layout():
    code = ("import sys, printkit.games as g; g.names(); g.get('calc'); g.has_engine('stack'); "
            "print(sorted(m for m in sys.modules if m.startswith('printkit.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['printkit.errors', 'printkit.games']"
