"""Typography: curly quotes, apostrophes and the minus sign, as printed text is set."""

import pytest

from printkit.typography import MINUS, QUOTES, smarten


@pytest.mark.parametrize("typed, set_", [
    ('"The 7-lock"', "\u201cThe 7-lock\u201d"),
    ("see (\"x\") and [\"y\"]", "see (\u201cx\u201d) and [\u201cy\u201d]"),
    ("the dealer's bid", "the dealer\u2019s bid"),
    ("don't", "don\u2019t"),
    ("the players' piles", "the players\u2019 piles"),
    ("he said 'go'.", "he said \u2018go\u2019."),
    ("'90s", "\u201990s"),
    ('"\uc67c\ucabd \uc0ac\ub78c"\uc740', "\u201c\uc67c\ucabd \uc0ac\ub78c\u201d\uc740"),  # Korean: the same marks
])
def test_quotes_and_apostrophes_are_curly(typed, set_):
    assert smarten(typed) == set_


@pytest.mark.parametrize("typed, set_", [
    ("from -1 to 9", f"from {MINUS}1 to 9"),
    ("-1", f"{MINUS}1"),
    ("x^-1 and (-3)", f"x^{MINUS}1 and ({MINUS}3)"),
    ("10^-100", f"10^{MINUS}100"),
    ("score: -5", f"score: {MINUS}5"),
    ("(cards in hand + 1 - sum of the other contracts)", f"(cards in hand + 1 {MINUS} sum of the other contracts)"),
    ("x = 4 - 2", f"x = 4 {MINUS} 2"),
    ("hand - (bids)", f"hand {MINUS} (bids)"),
])
def test_a_hyphen_that_means_minus_becomes_a_minus_sign(typed, set_):
    assert smarten(typed) == set_


@pytest.mark.parametrize("typed", [
    "two-player game", "the 7-lock", "well - said", "--back-offset", "a---b", "x-1", "9- 5x",
    "x2-3", "A4-5", "2024-01-05", "1-2-3", "3.5-4",
])
def test_hyphens_in_words_ranges_and_options_stay_hyphens(typed):
    assert smarten(typed) == typed


@pytest.mark.parametrize("typed, set_", [
    ("rounds 1-7", "rounds 1\u20137"),
    ("1-7", "1\u20137"),
    ("for 2-8 players (10-20 minutes).", "for 2\u20138 players (10\u201320 minutes)."),
    ("x^-1 in rounds 3-5, from -1", f"x^{MINUS}1 in rounds 3\u20135, from {MINUS}1"),
])
def test_a_range_of_numbers_gets_an_en_dash(typed, set_):
    assert smarten(typed) == set_


def test_text_without_quotes_or_hyphens_is_returned_as_it_is():
    text = "점수 × 3"
    assert smarten(text) is text


def test_text_set_in_pieces_reads_its_quotes_as_one():
    # '"**bold**"' set as '"', 'bold', '"': the closing quote follows a letter of the earlier piece.
    assert smarten('"', before="set as ") == "\u201c"
    assert smarten('" and', before="bold") == "\u201d and"
    assert smarten("s", before="x") == "s"


def test_markup_is_skipped_when_looking_at_a_quotes_neighbours():
    assert smarten('**"Bold"** and "*it*"', transparent="*") == "**\u201cBold\u201d** and \u201c*it*\u201d"


def test_every_language_has_its_marks_and_an_unknown_one_gets_the_default():
    assert set(QUOTES) >= {"en", "ko"}
    assert smarten('"a"', lang="ko") == QUOTES["ko"][0] + "a" + QUOTES["ko"][1]
    assert smarten('"a"', lang="xx") == smarten('"a"', lang="en")
