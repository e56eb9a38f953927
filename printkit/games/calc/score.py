"""Exact scoring of a Calc pay, with no limit on size (GAMES.md's rules, the seed has no cap).

A pay is scored from the bottom card up, starting at 0: the bottom card adds its number whatever its
symbol, every later card applies its symbol to its number. Only the cards above the topmost joker
count (the first of them is a bottom card); a pay with a joker on top scores 0.

Arithmetic is exact and strictly left to right: ``x ^ 0`` is 1 (``0 ^ 0`` included), ``x ^ -1`` is
``1/x`` and ``0 ^ -1`` leaves the score at 0. Values are exact Fractions up to about 10,000 digits
and exact symbolic values beyond (:mod:`printkit.games.calc.value`, which documents the algorithm
and its guarantees): ``9+ 9^ 9^ 9^ 9^ 9^ 9^`` is ``3^1062882`` and doubling it gives a larger score.
Every step estimates the size of its result before building it, so any pile scores in bounded time.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any, Iterable

from printkit.errors import InvalidMoveError
from printkit.games.calc.words import SYMBOLS
from printkit.games.calc.value import DEFAULT, Big, Value, exact_form, format_scientific

MIN_NUMBER, MAX_NUMBER = -1, 9
OPERATOR_SIGNS = {"plus": "+", "minus": "-", "times": "x", "power": "^"}

# How a step's result came about, when it is not plain arithmetic.
EXACT = "exact"
ZERO_POWER_MINUS_ONE = "0^-1 leaves 0"


@dataclass(frozen=True)
class PayCard:
    """A card as scoring sees it: a symbol and a number, or a joker."""

    symbol: str | None = None
    number: int | None = None

    @property
    def is_joker(self) -> bool:
        return self.symbol is None

    @property
    def text(self) -> str:
        """Compact notation used by ``printkit score``: ``9-``, ``-1x``, ``J``."""
        if self.is_joker:
            return "J"
        return f"{self.number}{OPERATOR_SIGNS[self.symbol]}"


JOKER = PayCard()


@dataclass(frozen=True)
class ScoreStep:
    """One card's effect on the score.

    ``counted`` is False for cards below the topmost joker; ``role`` is ``bottom`` (adds its number),
    ``operator`` (applies its symbol), ``joker`` (starts again from 0) or ``ignored``.
    ``limit`` is ``exact``, or says why the score did not change as plain arithmetic would
    (``0 ^ -1``).
    """

    position: int
    card: PayCard
    role: str
    before: Value
    after: Value
    limit: str = EXACT

    @property
    def counted(self) -> bool:
        return self.role != "ignored"

    @property
    def expression(self) -> str:
        """The step as arithmetic, e.g. ``9 x 5 = 45``."""
        if self.role == "ignored":
            return "below a joker: not counted"
        if self.role == "joker":
            return "joker: the cards below no longer count, start again from 0"
        if self.role == "bottom":
            text = f"bottom card adds {self.card.number}: {format_value(self.after)}"
        else:
            sign = OPERATOR_SIGNS[self.card.symbol]
            before = format_value(self.before, approx=False)
            if any(mark in before for mark in (" + ", " - ", "/")) and is_large(self.before):
                before = f"({before})"
            text = f"{before} {sign} {_fmt_operand(self.card.number)} = {format_value(self.after)}"
        if self.limit != EXACT:
            text += f" ({describe_limit(self.limit)})"
        return text


def _fmt_operand(number: int) -> str:
    return f"({number})" if number < 0 else str(number)


def describe_limit(limit: str) -> str:
    return {ZERO_POWER_MINUS_ONE: "0 ^ -1 leaves the score at 0"}.get(limit, limit)


def pay_card(card: Any) -> PayCard:
    """A PayCard from a deck ``Card`` (``kind``/``symbol``/``number`` attributes) or a PayCard."""
    if isinstance(card, PayCard):
        _check_card(card)
        return card
    if card.get("kind") == "joker":
        return JOKER
    result = PayCard(card.get("symbol"), card.get("number"))
    _check_card(result, label=getattr(card, "label", None))
    return result


def _check_card(card: PayCard, label: str | None = None) -> None:
    if card.is_joker:
        if card.number is not None:
            raise InvalidMoveError(f"a joker carries no number: {card!r}")
        return
    name = label or repr(card)
    if card.symbol not in SYMBOLS:
        raise InvalidMoveError(f"unknown symbol {card.symbol!r} on {name} (known: {', '.join(SYMBOLS)})")
    if isinstance(card.number, bool) or not isinstance(card.number, int):
        raise InvalidMoveError(f"card number must be an integer, got {card.number!r} on {name}")
    if not MIN_NUMBER <= card.number <= MAX_NUMBER:
        raise InvalidMoveError(f"card number {card.number!r} on {name} is outside {MIN_NUMBER}..{MAX_NUMBER}")


def apply_card(value: Value, card: PayCard) -> tuple[Value, str]:
    """The score after ``card`` is applied as an operator to ``value`` (not a bottom card)."""
    number = card.number
    if card.symbol == "plus":
        return DEFAULT.add(value, number), EXACT
    if card.symbol == "minus":
        return DEFAULT.add(value, -number), EXACT
    if card.symbol == "times":
        return DEFAULT.times(value, number), EXACT
    if card.symbol == "power":
        if number < 0 and value == 0:
            return Fraction(0), ZERO_POWER_MINUS_ONE
        return DEFAULT.power(value, number), EXACT
    raise InvalidMoveError(f"cannot apply {card!r} as an operator")


def score_pay(cards: Iterable[Any]) -> list[ScoreStep]:
    """Every step of scoring a pay given bottom to top (deck Cards or PayCards)."""
    pile = [pay_card(card) for card in cards]
    top_joker = max((i for i, card in enumerate(pile) if card.is_joker), default=-1)
    steps: list[ScoreStep] = []
    value = Fraction(0)
    bottom = True
    for position, card in enumerate(pile):
        if position < top_joker:
            steps.append(ScoreStep(position, card, "ignored", value, value))
            continue
        if card.is_joker:
            steps.append(ScoreStep(position, card, "joker", value, Fraction(0)))
            value, bottom = Fraction(0), True
            continue
        before = value
        if bottom:
            value = Fraction(card.number)
            steps.append(ScoreStep(position, card, "bottom", before, value))
            bottom = False
        else:
            value, limit = apply_card(value, card)
            steps.append(ScoreStep(position, card, "operator", before, value, limit))
    return steps


def pay_value(cards: Iterable[Any]) -> Value:
    """The score of a pay (0 when empty or when a joker is on top)."""
    steps = score_pay(cards)
    return steps[-1].after if steps else Fraction(0)


def is_large(value: Value) -> bool:
    """True for values written in scientific notation (beyond 40 digits, or symbolic)."""
    if isinstance(value, Big):
        return True
    return abs(value.numerator).bit_length() >= 130 or value.denominator.bit_length() >= 130


def format_value(value: Value, approx: bool = True) -> str:
    """``52``, ``7/3``; a large value as its exact form then (``approx``) scientific notation,
    e.g. ``3^1458 ≈ 4.39329e+695``."""
    if not is_large(value):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return f"{exact_form(value)} ≈ {format_scientific(value)}" if approx else exact_form(value)


def format_decimal(value: Value, digits: int = 12) -> str:
    """A decimal approximation with ``digits`` significant digits, e.g. ``2.33333333333``."""
    if isinstance(value, Big):
        return format_scientific(value, digits)
    if value == 0:
        return "0"
    if is_large(value):
        return format_scientific(value, digits)
    result = Context(prec=digits).divide(Decimal(value.numerator), Decimal(value.denominator))
    if Decimal("1e-6") <= abs(result) < Decimal("1e16"):
        return format(result, "f").rstrip("0").rstrip(".") if "." in format(result, "f") else format(result, "f")
    return format(result, "e")


def parse_card(token: str) -> PayCard:
    """Parse ``printkit score`` notation: number then symbol (``9-``, ``-1x``, ``3^``), or ``J``.

    Symbols: ``+``, ``-``, ``x``/``X``/``×``/``*``, ``^``. Raises InvalidMoveError quoting the token.
    """
    text = token.strip()
    if text in ("J", "j"):
        return JOKER
    signs = {"+": "plus", "-": "minus", "−": "minus", "x": "times", "X": "times", "×": "times", "*": "times", "^": "power"}
    if len(text) < 2 or text[-1] not in signs:
        raise InvalidMoveError(
            f"cannot read card {token!r}: write a number then a symbol (+ - x ^), e.g. '9-' or '-1x', or J for the joker"
        )
    number_text = text[:-1].replace("−", "-")
    try:
        number = int(number_text)
    except ValueError:
        raise InvalidMoveError(f"cannot read card {token!r}: {number_text!r} is not a whole number") from None
    if not MIN_NUMBER <= number <= MAX_NUMBER:
        raise InvalidMoveError(f"cannot read card {token!r}: numbers run from {MIN_NUMBER} to {MAX_NUMBER}")
    return PayCard(signs[text[-1]], number)


def score_lines(tokens: Iterable[str]) -> list[str]:
    """``printkit score``'s output: one line per card, then the final score alone on the last line.

    The last line is the exact value (``52``, ``7/3``, ``2·3^1458``); a non-integer is followed by a
    decimal and a value beyond 40 digits by scientific notation. Nothing is capped.
    """
    cards = [parse_card(token) for token in tokens]
    if not cards:
        raise InvalidMoveError("no cards to score: give the pay bottom to top, e.g. '9- 5x 2- 1+ 8+'")
    steps = score_pay(cards)
    width = max(len(card.text) for card in cards)
    lines = [f"{step.position + 1:>3}. {step.card.text:<{width}}  {step.expression}" for step in steps]
    value = steps[-1].after
    final = format_value(value)
    if not is_large(value) and (value.denominator != 1 or abs(value) >= 10**16):
        final += f" = {format_decimal(value)}"
    last = steps[-1]
    if last.counted and last.limit != EXACT:
        final += f" ({describe_limit(last.limit)})"
    lines.append(final)
    return lines
