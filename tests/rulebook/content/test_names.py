import pytest

from printkit.errors import BuildError
from printkit.games.clag.words import SUIT_NAMES
from printkit.rulebook.content import name_in


def test_name_in_picks_the_language():
    assert name_in(SUIT_NAMES, "hearts", "ko", "suit") == "하트"
    assert name_in(SUIT_NAMES, "hearts", "en", "suit") == "hearts"


def test_an_unknown_key_is_a_build_error_naming_the_known_ones():
    with pytest.raises(BuildError, match=r"unknown suit 'stars' \(known: spades, hearts, diamonds, clubs\)"):
        name_in(SUIT_NAMES, "stars", "en", "suit")
