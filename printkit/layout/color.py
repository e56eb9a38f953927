"""Colour arithmetic on ``#rrggbb`` strings: blends, tints, shades, luminance and legible text.

Templates and icons choose lighter and darker variants of a spec's palette here, so a deck
recoloured in its spec keeps its contrasts without any template knowing the new colours.
"""

from __future__ import annotations

WHITE = "#ffffff"
BLACK = "#000000"
DEFAULT_INK = "#1d1d1f"

# Fills darker than this (relative luminance) carry white text, lighter ones dark ink.
_LIGHT_TEXT_BELOW = 0.35


def rgb(color: str) -> tuple[int, int, int]:
    """The red, green and blue bytes of ``#rrggbb``; ValueError quoting anything else."""
    value = color[1:] if color.startswith("#") else ""
    try:
        if len(value) != 6:
            raise ValueError
        return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
    except ValueError:
        raise ValueError(f"expected a colour '#rrggbb', got {color!r}") from None


def mix(color: str, other: str, t: float) -> str:
    """``color`` moved a fraction ``t`` (0..1) of the way towards ``other``."""
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(rgb(color), rgb(other)))


def tint(color: str, t: float) -> str:
    """``color`` moved a fraction ``t`` towards white."""
    return mix(color, WHITE, t)


def shade(color: str, t: float) -> str:
    """``color`` moved a fraction ``t`` towards black."""
    return mix(color, BLACK, t)


def luminance(color: str) -> float:
    """Relative luminance as WCAG defines it (0 black .. 1 white), from linearised sRGB channels.

    Linearising matters: saturated darks such as a ruby red weigh far less than their bytes
    suggest, so thresholds on this value sort colours as the eye does.
    """

    def channel(byte: int) -> float:
        v = byte / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def on_color(color: str, ink: str = DEFAULT_INK) -> str:
    """White or ``ink``, whichever reads better on a fill of ``color``."""
    return WHITE if luminance(color) < _LIGHT_TEXT_BELOW else ink
