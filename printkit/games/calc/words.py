"""Calc's vocabulary: the four symbols in the rules' order, their signs and names."""

from __future__ import annotations

from types import MappingProxyType

# The rules' order; the spec writes symbols by these names.
SYMBOLS: tuple[str, ...] = ("plus", "minus", "times", "power")

# Signs as the rulebook prints them (a true minus sign, not a hyphen).
SIGNS = MappingProxyType({"plus": "+", "minus": "−", "times": "×", "power": "^"})

# (Korean, English) names of the symbols.
SYMBOL_NAMES = MappingProxyType({
    "plus": ("덧셈", "plus"),
    "minus": ("뺄셈", "minus"),
    "times": ("곱셈", "times"),
    "power": ("거듭제곱", "power"),
})
