"""Each game's vocabulary: complete name tables, and nothing heavy behind the import."""

from __future__ import annotations

import subprocess
import sys

from printkit.games.calc import words as calc
from printkit.games.clag import words as clag
from printkit.games.stack import words as stack


def test_every_word_has_a_korean_and_an_english_name():
    for words, names in ((calc.SYMBOLS, calc.SYMBOL_NAMES), (stack.MINERALS, stack.MINERAL_NAMES),
                         (stack.TERRAINS, stack.TERRAIN_NAMES), (clag.SUITS, clag.SUIT_NAMES)):
        assert tuple(names) == words
        assert all(len(pair) == 2 and all(pair) for pair in names.values())
    assert tuple(calc.SIGNS) == calc.SYMBOLS
    assert tuple(clag.SUIT_LETTERS) == tuple(clag.SUIT_SYMBOLS) == clag.SUITS


def test_terrains_follow_the_mineral_order():
    assert [stack.TERRAIN_MINERAL[t] for t in stack.TERRAINS] == list(stack.MINERALS)
    assert stack.TERRAIN_MINERAL["coal_mine"] == "coal"


def test_clag_ranks_run_from_two_to_the_ace():
    assert len(clag.RANKS) == 13 and clag.RANKS[0] == 2 and clag.RANKS[-1] == "A"
    assert set(clag.COURTS) | set(clag.RANK_NAMES_EN) == {"J", "Q", "K", "A"}


def test_importing_the_vocabularies_loads_no_engine_or_layout():
    code = ("import sys, printkit.games.calc.words, printkit.games.stack.words, printkit.games.clag.words; "
            "print(sorted(m for m in sys.modules if m.startswith('printkit.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "rules" not in loaded and "layout" not in loaded and "rulebook" not in loaded


def test_stacks_design_names_minerals_and_terrains_as_its_words_do():
    # The design's lookups hold the names its cards print (English in capitals); the engine and the
    # rulebook read words.py: the two must not drift apart.
    from printkit.games.stack.faces import DESIGN
    from printkit.layout.compile import shipped_layouts

    lookups = shipped_layouts(DESIGN)["card"].lookups
    for table, names in (("mineral", stack.MINERAL_NAMES), ("terrain", stack.TERRAIN_NAMES)):
        assert lookups[f"{table}_ko"] == {key: korean for key, (korean, _) in names.items()}
        assert lookups[f"{table}_en"] == {key: english.upper() for key, (_, english) in names.items()}
