"""Calc pay scoring: the seed's example, every scoring decision of GAMES.md, limits and hostile pays."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printkit.errors import InvalidMoveError
from printkit.games.calc.score import (
    EXACT,
    JOKER,
    SYMBOLS,
    ZERO_POWER_MINUS_ONE,
    PayCard,
    format_decimal,
    format_value,
    parse_card,
    pay_value,
    score_lines,
    score_pay,
)
from printkit.games.calc.value import Big, evaluate


def pile(text: str) -> list[PayCard]:
    return [parse_card(token) for token in text.split()]


def value(text: str) -> Fraction:
    return pay_value(pile(text))


def assert_exact(steps) -> None:
    """Every step's value is the textbook result of the one before (checked where it fits)."""
    for step in steps:
        if step.role != "operator" or isinstance(step.before, Big) or step.limit != EXACT:
            continue
        n, before = step.card.number, step.before
        if step.card.symbol == "power" and max(abs(before.numerator).bit_length(), before.denominator.bit_length()) * abs(n) > 40_000:
            continue
        expected = {"plus": lambda: before + n, "minus": lambda: before - n, "times": lambda: before * n,
                    "power": lambda: before**n}[step.card.symbol]()
        assert evaluate(step.after) == expected


def test_seed_example_scores_52_step_by_step():
    steps = score_pay(pile("9- 5x 2- 1+ 8+"))
    assert [s.after for s in steps] == [9, 45, 43, 44, 52]
    assert [s.role for s in steps] == ["bottom", "operator", "operator", "operator", "operator"]
    assert all(s.limit == EXACT for s in steps)


def test_empty_pay_scores_zero():
    assert pay_value([]) == 0
    assert score_pay([]) == []


@pytest.mark.parametrize("bottom", ["3+", "3-", "3x", "3^"])
def test_bottom_card_adds_its_number_whatever_its_symbol(bottom):
    assert value(bottom) == 3


def test_negative_bottom_card():
    assert value("-1x") == -1


def test_strictly_left_to_right_without_precedence():
    assert value("2+ 3+ 4x") == 20


def test_times_and_minus_minus_one_are_ordinary():
    assert value("5+ -1x") == -5
    assert value("5+ -1-") == 6
    assert value("5+ -1+") == 4


def test_power_rules():
    assert value("2+ 3^") == 8
    assert value("2+ 0^") == 1
    assert value("0+ 0^") == 1
    assert value("2+ -1^") == Fraction(1, 2)
    assert value("2+ -1x 3^") == -8
    assert value("3+ -1^ 7x") == Fraction(7, 3)


def test_zero_to_the_minus_one_leaves_zero():
    steps = score_pay(pile("0+ -1^"))
    assert steps[-1].after == 0
    assert steps[-1].limit == ZERO_POWER_MINUS_ONE


def test_joker_on_top_scores_zero():
    assert value("9+ 5x J") == 0


def test_only_cards_above_the_topmost_joker_count():
    steps = score_pay(pile("9+ J 5x J 4x 2+"))
    assert [s.role for s in steps] == ["ignored", "ignored", "ignored", "joker", "bottom", "operator"]
    assert steps[-1].after == 6  # 4x is a bottom card: its number is added, its symbol ignored


def test_no_cap_on_large_values():
    steps = score_pay(pile("9+ 9^ 9^ 9^"))
    assert steps[-1].after == 9**729 and steps[-1].limit == EXACT
    assert format_value(steps[-1].after) == "3^1458 ≈ 4.39329e+695"
    assert value("9+ 9^ 9^ 9^ 2x") == 2 * 9**729
    assert value("9+ 9^ 9^ -1x 9^") == -(9**729)
    assert value("9+ 9^ 9^ 9^ 5-") == 9**729 - 5


def test_tiny_magnitudes_stay_exact():
    assert value("9+ 9^ 9^ -1^ 9^") == Fraction(1, 9**729)


def test_huge_denominators_stay_exact():
    assert value("9+ 9^ -1^ 8+ 9^ 9^") == (8 + Fraction(1, 9**9)) ** 81


def test_values_past_the_fraction_range_are_exact_symbols():
    v = value("9+ 9^ 9^ 9^ 9^ 9^ 9^ 9^")
    assert isinstance(v, Big) and format_value(v) == "3^9565938 ≈ 2.19346e+4564112"
    assert value("9+ 9^ 9^ 9^ 9^ 9^ 9^ 9^ 2x") > v
    assert value("9+ 9^ 9^ 9^ 9^ 9^ 9^ 9^ 5+") - v == 5


def test_all_power_cards_stacked():
    numbers = list(range(-1, 10)) * 4
    for order in (sorted(numbers), sorted(numbers, reverse=True), random.Random(4).sample(numbers, len(numbers))):
        steps = score_pay([PayCard("power", n) for n in order])
        assert_exact(steps)
    # Descending: 9^9^… grows past every bound, then 0^ gives 1 and 1 survives -1^.
    assert pay_value([PayCard("power", n) for n in sorted(numbers, reverse=True)]) == 1


def test_alternating_minus_one_and_nine_powers_over_a_long_pile():
    cards = [PayCard("plus", 2)] + [PayCard("power", n) for _ in range(500) for n in (9, -1)]
    steps = score_pay(cards)
    # 2^9, 2^-9, 2^-81, 2^81, 2^729, 2^-729, ...: each step exact, however far the exponent grows.
    assert [s.after for s in steps[1:5]] == [2**9, Fraction(1, 2**9), Fraction(1, 2**81), 2**81]
    # Each pair multiplies the exponent by -9: after 500 pairs 2^(9^500), written as prime powers.
    assert steps[-1].after > 10**100_000 and 0 < steps[-2].after < Fraction(1, 10**100_000)
    assert format_value(steps[-1].after, approx=False) == "2^(3^1000)"


def test_thousand_card_random_piles_score_exactly():
    rng = random.Random(11)
    faces = [PayCard(s, n) for s in SYMBOLS for n in range(-1, 10)] + [JOKER]
    for _ in range(5):
        cards = [rng.choice(faces) for _ in range(1000)]
        steps = score_pay(cards)
        assert len(steps) == 1000
        assert_exact(steps)


def test_thousand_nines_grow_without_a_cap():
    powers = pay_value([PayCard("plus", 9)] + [PayCard("power", 9)] * 1000)
    assert isinstance(powers, Big) and powers > 10**100_000
    times = pay_value([PayCard("times", 9)] * 1000)
    assert times == 9**1000


def naive_value(cards: list[PayCard]) -> Fraction:
    """Textbook scoring without limits (valid only where no limit applies)."""
    top = max((i for i, c in enumerate(cards) if c.is_joker), default=-1)
    counted = cards[top + 1 :]
    if not counted:
        return Fraction(0)
    total = Fraction(counted[0].number)
    for card in counted[1:]:
        if card.symbol == "plus":
            total += card.number
        elif card.symbol == "minus":
            total -= card.number
        else:
            total *= card.number
    return total


standard_cards = st.one_of(
    st.builds(PayCard, st.sampled_from(["plus", "minus", "times"]), st.integers(-1, 9)), st.just(JOKER)
)
any_cards = st.one_of(st.builds(PayCard, st.sampled_from(SYMBOLS), st.integers(-1, 9)), st.just(JOKER))


@given(st.lists(standard_cards, max_size=25))
def test_standard_piles_match_textbook_arithmetic(cards):
    # Without ^, scores are plain exact arithmetic.
    assert pay_value(cards) == naive_value(cards)


@given(st.lists(any_cards, max_size=120))
def test_every_step_is_exact(cards):
    steps = score_pay(cards)
    assert len(steps) == len(cards)
    assert_exact(steps)
    assert pay_value(cards) == (steps[-1].after if steps else 0)


@pytest.mark.parametrize(
    "token, expected",
    [
        ("9-", PayCard("minus", 9)),
        ("-1x", PayCard("times", -1)),
        ("3^", PayCard("power", 3)),
        ("2×", PayCard("times", 2)),
        ("2*", PayCard("times", 2)),
        ("2X", PayCard("times", 2)),
        ("0+", PayCard("plus", 0)),
        ("−1+", PayCard("plus", -1)),
        ("J", JOKER),
        ("j", JOKER),
    ],
)
def test_parse_card(token, expected):
    assert parse_card(token) == expected


@pytest.mark.parametrize("token", ["", "5", "x", "10+", "-2+", "5q", "1.5+", "J+", "++"])
def test_parse_card_refuses_bad_tokens_quoting_them(token):
    with pytest.raises(InvalidMoveError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)


def test_card_text_round_trips():
    for card in [PayCard(s, n) for s in SYMBOLS for n in range(-1, 10)] + [JOKER]:
        assert parse_card(card.text) == card


def test_score_lines_ends_with_the_score():
    lines = score_lines("9- 5x 2- 1+ 8+".split())
    assert len(lines) == 6
    assert lines[-1] == "52"
    assert "9 x 5 = 45" in lines[1]


def test_score_lines_fraction_and_decimal():
    assert score_lines("3+ -1^ 7x".split())[-1] == "7/3 = 2.33333333333"


def test_score_lines_tower_and_its_double_differ():
    tower = score_lines("9+ 9^ 9^ 9^".split())[-1]
    doubled = score_lines("9+ 9^ 9^ 9^ 2x".split())[-1]
    assert tower == "3^1458 ≈ 4.39329e+695"
    assert doubled == "2·3^1458 ≈ 8.78657e+695"
    assert "saturat" not in tower + doubled


def test_score_lines_marks_zero_to_the_minus_one():
    lines = score_lines("2^ -1^ -1^ 9^ 9^ 9^ 0^ -1^".split())
    assert "2^729" in lines[5] or "2^(" in lines[5] or "e+219" in lines[5]
    assert lines[-1] == "1"
    lines = score_lines("0+ -1^".split())
    assert lines[-1] == "0 (0 ^ -1 leaves the score at 0)"


def test_format_decimal():
    assert format_decimal(Fraction(1, 4)) == "0.25"
    assert format_decimal(Fraction(-7, 2)) == "-3.5"
    assert format_decimal(Fraction(0)) == "0"
    assert "e+100" in format_decimal(Fraction(10**100 - 5))
