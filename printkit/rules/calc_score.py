"""Exact scoring of a Calc pay, with the display limits of GAMES.md.

A pay is scored from the bottom card up, starting at 0: the bottom card adds its number whatever its
symbol, every later card applies its symbol to its number. Only the cards above the topmost joker
count (the first of them is a bottom card); a pay with a joker on top scores 0.

Arithmetic is exact (``Fraction``), strictly left to right, and every step is bounded:

- a result beyond ±10^100 saturates at ±10^100;
- a non-zero result smaller than 10^-100 in magnitude becomes 0;
- a result whose denominator passes 10^100 is rounded to the nearest fraction within it;
- ``0 ^ -1`` leaves the score at 0, and ``x ^ 0`` is 1 (``0 ^ 0`` included);
- before raising to a power the result's size is estimated from bit lengths, so a pile of ``^ 9``
  cards never builds a number much larger than the limit.

Numbers are the card numbers -1..9, so every step works on integers of a few thousand bits at most.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any, Iterable

from printkit.errors import InvalidMoveError
from printkit.games.calc import SYMBOLS

LIMIT = 10**100
LIMIT_FRACTION = Fraction(LIMIT)
TINY = Fraction(1, LIMIT)
MAX_DENOMINATOR = LIMIT
# 10^100 < 2^333: a power whose estimated size passes this many bits surely saturates.
LIMIT_BITS = 333

MIN_NUMBER, MAX_NUMBER = -1, 9
OPERATOR_SIGNS = {"plus": "+", "minus": "-", "times": "x", "power": "^"}

# How a step's raw result was brought within the limits.
EXACT = "exact"
SATURATED = "saturated"
UNDERFLOW = "underflow"
ROUNDED = "rounded"
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
    ``limit`` says how the raw result was brought within the limits (``exact`` when untouched).
    """

    position: int
    card: PayCard
    role: str
    before: Fraction
    after: Fraction
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
            text = f"{format_value(self.before)} {sign} {_fmt_operand(self.card.number)} = {format_value(self.after)}"
        if self.limit != EXACT:
            text += f" ({describe_limit(self.limit)})"
        return text


def _fmt_operand(number: int) -> str:
    return f"({number})" if number < 0 else str(number)


def describe_limit(limit: str) -> str:
    return {
        SATURATED: "saturated at the ±10^100 limit",
        UNDERFLOW: "below 10^-100, becomes 0",
        ROUNDED: "denominator above 10^100, rounded",
        ZERO_POWER_MINUS_ONE: "0 ^ -1 leaves the score at 0",
    }.get(limit, limit)


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


def bound(value: Fraction) -> tuple[Fraction, str]:
    """``value`` brought within the limits, and which limit applied."""
    if value > LIMIT_FRACTION:
        return LIMIT_FRACTION, SATURATED
    if value < -LIMIT_FRACTION:
        return -LIMIT_FRACTION, SATURATED
    if value and -TINY < value < TINY:
        return Fraction(0), UNDERFLOW
    if value.denominator > MAX_DENOMINATOR:
        # The nearest fraction within the bound stays inside ±10^100 and outside ±10^-100:
        # both limits are themselves candidates of denominator <= 10^100.
        return value.limit_denominator(MAX_DENOMINATOR), ROUNDED
    return value, EXACT


def power(base: Fraction, exponent: int) -> tuple[Fraction, str]:
    """``base ** exponent`` within the limits, without building numbers far beyond them."""
    if exponent == 0:
        return Fraction(1), EXACT
    if base == 0:
        return Fraction(0), (ZERO_POWER_MINUS_ONE if exponent < 0 else EXACT)
    if exponent < 0:
        base, exponent = 1 / base, -exponent
    num_bits = abs(base.numerator).bit_length()
    den_bits = base.denominator.bit_length()
    # 2^(n-1) <= |p| < 2^n, so |base| lies within 2^(num_bits - den_bits ± 1).
    negative = base < 0 and exponent % 2 == 1
    if exponent * (num_bits - den_bits - 1) > LIMIT_BITS:
        return (-LIMIT_FRACTION if negative else LIMIT_FRACTION), SATURATED
    if exponent * (num_bits - den_bits + 1) < -LIMIT_BITS:
        return Fraction(0), UNDERFLOW
    return bound(base**exponent)


def apply_card(value: Fraction, card: PayCard) -> tuple[Fraction, str]:
    """The score after ``card`` is applied as an operator to ``value`` (not a bottom card)."""
    number = card.number
    if card.symbol == "plus":
        return bound(value + number)
    if card.symbol == "minus":
        return bound(value - number)
    if card.symbol == "times":
        return bound(value * number)
    if card.symbol == "power":
        return power(value, number)
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
            value, limit = bound(Fraction(card.number))
            steps.append(ScoreStep(position, card, "bottom", before, value, limit))
            bottom = False
        else:
            value, limit = apply_card(value, card)
            steps.append(ScoreStep(position, card, "operator", before, value, limit))
    return steps


def pay_value(cards: Iterable[Any]) -> Fraction:
    """The score of a pay (0 when empty or when a joker is on top)."""
    steps = score_pay(cards)
    return steps[-1].after if steps else Fraction(0)


def is_saturated(value: Fraction) -> bool:
    return abs(value) == LIMIT_FRACTION


def format_value(value: Fraction) -> str:
    """``52``, ``7/3``, or ``10^100`` / ``-10^100`` for saturated values."""
    if is_saturated(value):
        return "10^100" if value > 0 else "-10^100"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def format_decimal(value: Fraction, digits: int = 12) -> str:
    """A decimal approximation with ``digits`` significant digits, e.g. ``2.33333333333``."""
    if value == 0:
        return "0"
    # Decimal division of the exact numerator and denominator: no float overflow near 10^100.
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

    The last line is the exact value (``52``, ``7/3``); a non-integer or a very large value is
    followed by a decimal. A step whose own result went through a limit says which, and so does the
    last line when the final value did (a limit met earlier and left behind is not repeated there).
    """
    cards = [parse_card(token) for token in tokens]
    if not cards:
        raise InvalidMoveError("no cards to score: give the pay bottom to top, e.g. '9- 5x 2- 1+ 8+'")
    steps = score_pay(cards)
    width = max(len(card.text) for card in cards)
    lines = [f"{step.position + 1:>3}. {step.card.text:<{width}}  {step.expression}" for step in steps]
    value = steps[-1].after
    final = format_value(value)
    if value.denominator != 1 or (abs(value) >= 10**16 and not is_saturated(value)):
        final += f" = {format_decimal(value)}"
    last = steps[-1]
    if last.counted and last.limit != EXACT:
        final += f" ({describe_limit(last.limit)})"
    lines.append(final)
    return lines
