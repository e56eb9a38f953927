"""Drawing operations: the only language between layout and the PDF/PNG backends.

Coordinates are millimetres in the *card frame*: origin at the top-left corner of the trim box,
x to the right, y downwards. The bleed area lies at negative coordinates and beyond the trim size.
Colours are ``#rrggbb`` strings. Backends translate these to points (PDF) or pixels (PNG) and
never decide positions themselves.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Literal, Union

from printkit.memo import Memo
from printkit.safe_read import content_digest

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle, optionally with rounded corners."""

    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    fill: str | None = None
    stroke: str | None = None
    stroke_mm: float = 0.3
    radius_mm: float = 0.0


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed polygon; curves are flattened into points by the layout code."""

    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_mm: float = 0.3


@dataclass(frozen=True, slots=True)
class Ellipse:
    cx_mm: float
    cy_mm: float
    rx_mm: float
    ry_mm: float
    fill: str | None = None
    stroke: str | None = None
    stroke_mm: float = 0.3


@dataclass(frozen=True, slots=True)
class Line:
    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float
    color: str = "#000000"
    width_mm: float = 0.3


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text. ``(x_mm, y_mm)`` is the anchor point on the baseline.

    ``anchor`` aligns the text's start, middle or end to x. ``rotate_deg`` turns the text
    counter-clockwise about the anchor point (180 for an upside-down corner index).
    ``size_mm`` is the font size (em height) in millimetres. ``slant_deg`` leans the glyphs
    forwards by that angle, sheared about the baseline (a synthetic italic, about 12), before
    any rotation.
    """

    x_mm: float
    y_mm: float
    text: str
    font: Path
    size_mm: float
    color: str = "#000000"
    anchor: Literal["start", "middle", "end"] = "start"
    rotate_deg: float = 0.0
    slant_deg: float = 0.0


@dataclass(frozen=True, slots=True, repr=False)
class Image:
    """A picture (PNG/JPEG) or SVG art (drawn as vectors) scaled to cover or fit inside its box.

    ``quarter_turns`` turns the picture counter-clockwise by that many quarter turns before it
    is fitted into the box (1: its top edge ends up on the left). ``color`` is what an SVG's
    ``currentColor`` paints (an icon in coloured text); None leaves it as the SVG says.
    """

    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    path: Path
    fit: Literal["cover", "contain", "stretch"] = "cover"
    quarter_turns: int = 0
    color: str | None = None

    def __repr__(self) -> str:
        # As a dataclass writes it, the colour only when there is one: a face's digest (and the
        # PDF form named by it) stays what it was for every picture without one.
        text = (f"Image(x_mm={self.x_mm!r}, y_mm={self.y_mm!r}, w_mm={self.w_mm!r}, h_mm={self.h_mm!r}, "
                f"path={self.path!r}, fit={self.fit!r}, quarter_turns={self.quarter_turns!r}")
        return text + (f", color={self.color!r})" if self.color is not None else ")")


Op = Union[Rect, Polygon, Ellipse, Line, Text, Image]

# A face's digest is the repr of its ops. An op holds numbers, strings, paths and tuples of
# numbers, never itself, so the generated repr's guard against recursion (a third of its
# time) is not needed: the same text, made directly.
for _op in (Rect, Polygon, Ellipse, Line, Text):  # Image writes its own
    _op.__repr__ = _op.__repr__.__wrapped__
del _op


@dataclass(frozen=True, slots=True)
class Face:
    """One side of a card laid out: its drawing ops and any layout warnings (e.g. text too long)."""

    ops: tuple[Op, ...]
    warnings: tuple[str, ...] = ()
    # A face is hashed wherever it is placed (one form per distinct face) and described for the
    # render cache: both are worked out once per face, not once per placement, and kept in slots
    # (a deck of 10,000 faces would otherwise give each a dictionary).
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)
    _digest: str | None = field(default=None, init=False, repr=False, compare=False)
    _files: frozenset[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __getstate__(self) -> tuple:
        return self.ops, self.warnings  # not the memos: str hashes differ between processes

    def __setstate__(self, state: tuple) -> None:
        for index, name in enumerate(f.name for f in fields(self)):  # the memos: None, to be worked out here
            object.__setattr__(self, name, state[index] if index < len(state) else None)

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash((self.ops, self.warnings)))
        return self._hash

    @property
    def digest(self) -> str:
        """A fingerprint of the drawing (equal ops, equal digest), for cache keys and the names of
        forms in PDFs. Files are known by what they hold, not by where they lie: a bundled font
        by its place in printkit's fonts folder, a deck's own font or picture by the sha256 of
        its bytes and its name. So a deck gives the same PDF bytes from any folder, and with
        printkit installed anywhere."""
        if self._digest is None:
            text = repr(self.ops)
            native, posix = _bundled_fonts()
            # Longest first, so that no path is replaced inside a longer one that begins with it.
            for path in sorted((p for p in self.files if not p.startswith(native)), key=len, reverse=True):
                digest = content_digest(path)
                if digest is not None:
                    text = text.replace(Path(path).as_posix(), f"<{digest}>/{Path(path).name}")
            text = text.replace(posix, "<printkit fonts>/")
            object.__setattr__(self, "_digest", hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
        return self._digest

    @property
    def files(self) -> frozenset[str]:
        """The fonts and pictures the ops draw with."""
        if self._files is None:
            files = op_files(self.ops)
            object.__setattr__(self, "_files", _FILE_SETS.get_or_make(files, lambda: files))  # faces share a few sets
        return self._files


@lru_cache(maxsize=1)
def _bundled_fonts() -> tuple[str, str]:
    """How printkit's fonts folder begins a font's path: as a file name, and in an op's repr."""
    from printkit.fonts import FONTS_DIR

    return os.path.join(str(FONTS_DIR), ""), f"{FONTS_DIR.as_posix()}/"


# The sets of files faces draw with, each kept once (a deck's faces mostly draw with the same fonts).
_FILE_SETS = Memo("file sets", entries=4096)  # bounded: a long watch over many pictures


def op_files(ops: Iterable[Op]) -> frozenset[str]:
    """The fonts (a Text's) and pictures (an Image's) ``ops`` draw with."""
    return frozenset(str(value) for op in ops
                     for value in (getattr(op, "font", None), getattr(op, "path", None)) if value is not None)
