"""Exact Calc values beyond the Fraction range: differential tests against exact arithmetic.

The symbolic path is exercised with a small Fraction range (64 bits): every value past it is a Big,
and is checked against the exact Fraction wherever that fits (up to about 10^6,000 here; with the default range Fractions are exact up to 10^10,000).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printkit.games.calc.value import DEFAULT, Arithmetic, Big, evaluate, exact_form, format_scientific, to_float

SMALL = Arithmetic(bits=64)
EXACT_BITS = 20_000  # exact Fractions are built up to about 6,000 digits here

ops = st.tuples(st.sampled_from(["plus", "minus", "times", "power"]), st.integers(-1, 9))


def apply(arith: Arithmetic, value, op: str, n: int):
    if op == "plus":
        return arith.add(value, n)
    if op == "minus":
        return arith.add(value, -n)
    if op == "times":
        return arith.times(value, n)
    if n < 0 and value == 0:
        return Fraction(0)  # 0 ^ -1 leaves 0
    return arith.power(value, n)


def exact_step(value: Fraction, op: str, n: int) -> Fraction | None:
    """The textbook step, or None when the result would pass EXACT_BITS."""
    if op == "plus":
        return value + n
    if op == "minus":
        return value - n
    if op == "times":
        return value * n
    if n == 0:
        return Fraction(1)
    if value == 0:
        return Fraction(0)
    size = max(abs(value.numerator).bit_length(), value.denominator.bit_length()) * abs(n)
    return None if size > EXACT_BITS else value**n


def run(bottom: int, steps):
    """(symbolic values, exact values) after each step, until the exact value would be too large."""
    sym, exact = Fraction(bottom), Fraction(bottom)
    out = [(sym, exact)]
    for op, n in steps:
        nxt = exact_step(exact, op, n)
        if nxt is None:
            break
        sym, exact = apply(SMALL, sym, op, n), nxt
        out.append((sym, exact))
    return out


piles = st.tuples(st.integers(-1, 9), st.lists(ops, max_size=14))


@settings(max_examples=150, deadline=None)
@given(piles)
def test_symbolic_values_equal_the_exact_fraction_at_every_step(pile):
    for sym, exact in run(*pile):
        assert evaluate(sym) == exact
        if exact:
            assert format_scientific(sym) == format_scientific(exact)
        for small in (Fraction(0), Fraction(5), Fraction(-7, 3), Fraction(2**60 + 1, 3)):
            assert SMALL.compare(sym, small) == (exact > small) - (exact < small)


@settings(max_examples=150, deadline=None)
@given(piles, piles)
def test_symbolic_order_is_the_exact_order(a, b):
    x_sym, x = run(*a)[-1]
    y_sym, y = run(*b)[-1]
    expected = (x > y) - (x < y)
    assert SMALL.compare(x_sym, y_sym) == expected
    assert SMALL.compare(SMALL.add(x_sym, 5), y_sym) == ((x + 5 > y) - (x + 5 < y))


@settings(max_examples=100, deadline=None)
@given(piles)
def test_default_arithmetic_is_plain_fractions_up_to_the_bound(pile):
    value = Fraction(pile[0])
    for op, n in pile[1]:
        nxt = exact_step(value, op, n)
        if nxt is None:
            break
        got = apply(DEFAULT, value, op, n)
        assert type(got) is Fraction and got == nxt
        value = got


def tower(*cards: str, arith: Arithmetic = DEFAULT):
    value = None
    for card in cards:
        number, symbol = int(card[:-1]), card[-1]
        if value is None:
            value = Fraction(number)
            continue
        op = {"+": "plus", "-": "minus", "x": "times", "^": "power"}[symbol]
        value = apply(arith, value, op, number)
    return value


NINES = ["9+"] + ["9^"] * 12  # 9^(9^12) = 3^(2·9^12): about 2.7·10^11 digits


def test_astronomic_tower_is_exact_and_ordered():
    v = tower(*NINES)
    assert isinstance(v, Big)
    assert exact_form(v) == "3^564859072962"
    assert format_scientific(v) == "2.59891e+269506269631"
    doubled = tower(*NINES, "2x")
    assert doubled > v and exact_form(doubled) == "2·3^564859072962"
    assert tower(*NINES, "5+") - v == 5
    assert tower(*NINES, "5+") > tower(*NINES, "4+") > v > tower(*NINES, "1-")
    # The same number reached another way is the same value: (3^2)^(9^12) = (3^(9^12))^2.
    assert tower("3+", *["9^"] * 12, "2^") == v
    assert tower("3+", *["9^"] * 12, "2^", "5+") == tower(*NINES, "5+")


def test_negative_powers_and_tiny_values_are_exact():
    v = tower(*NINES)
    tiny = tower(*NINES, "-1^")
    assert 0 < tiny < Fraction(1, 10**1000)
    assert tower(*NINES, "-1^", "5+") > 5 > tower(*NINES, "-1^", "5-", "-1x")
    assert tower(*NINES, "-1^", "-1^") == v
    # 5 + 1/v raised to 9 stays above 5^9 by an amount beyond every float.
    p = tower(*NINES, "-1^", "5+", "9^")
    assert p > 5**9 and p < 5**9 + 1
    assert format_scientific(p) == "1.95313e+6"


def test_sums_of_towers_raised_again_compare_exactly():
    a = tower(*NINES, "5+", "9^")
    b = tower(*NINES, "9^")
    assert a > b
    assert tower(*NINES, "5+", "9^", "1+") > a
    assert tower(*NINES, "5-", "9^") < b
    assert tower(*NINES, "-1x", "9^") < 0 < tower(*NINES, "-1x", "2^")


def test_thousand_nines_have_a_value_and_double_to_a_larger_one():
    cards = ["9+"] + ["9^"] * 1000
    v = tower(*cards)
    assert tower(*cards, "2x") > v > tower(*cards, "1-")
    assert format_scientific(v).endswith("e+" + format_scientific(v).split("e+")[1])
    assert to_float(v) == float("inf") and to_float(tower(*cards, "-1^")) == 0.0


def test_different_bases_are_ordered_by_size():
    # 2^(9^12) against 3^(9^12 · 2): different atoms, decided by proven size brackets.
    two = tower("2+", *["9^"] * 12)
    three = tower(*NINES)
    assert two < three and not two == three
    assert tower("8+", *["9^"] * 12) > tower("7+", *["9^"] * 12)


@pytest.mark.parametrize("value, text", [(Fraction(52), "5.2e+1"), (Fraction(-7, 3), "-2.33333e+0"), (Fraction(0), "0")])
def test_format_scientific_small(value, text):
    assert format_scientific(value) == text
