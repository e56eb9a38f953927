"""How sharp a placed picture prints: its pixels over the size it is drawn at, in dots per inch.

A PNG or JPEG is drawn as :func:`printkit.layout.geometry.fit_image` places it in its box
(``cover`` larger than the box and clipped, ``contain`` inside it, ``stretch`` filling it), turned
by its EXIF orientation and its quarter turns, so its effective resolution is its shown pixels
over that drawn size. Print services commonly ask for 300 DPI (:data:`PRINT_DPI`); a picture
below :data:`LOW_DPI` prints visibly soft or blocky and is warned about. SVG art is vector and
not checked (a PNG or JPEG embedded in an SVG is not looked at either).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from printkit.errors import ImageError
from printkit.layout.geometry import Box, fit_image
from printkit.layout.ops import Image
from printkit.units import MM_PER_INCH

PRINT_DPI = 300  # what print services commonly ask of a picture where it is printed
LOW_DPI = 150  # below this a picture is warned about: half of what a print service asks


class Resolution(NamedTuple):
    """A picture as placed: its shown pixels (across and down as drawn, after its quarter turns),
    the size it is drawn at (mm), its DPI (the lower of across and down, which differ when
    stretched), and whether it is drawn a quarter turn from how the file shows it."""

    pixels: tuple[int, int]
    drawn_mm: tuple[float, float]
    dpi: float
    turned: bool = False

    def needed(self, dpi: float) -> tuple[int, int]:
        """The pixels the picture needs, in its own proportions as drawn, to print at ``dpi``."""
        return tuple(math.ceil(side * dpi / MM_PER_INCH - 1e-6) for side in self.drawn_mm)

    def said(self, below: float = LOW_DPI, wanted: float = PRINT_DPI, asks: str = "print services commonly ask") -> str:
        """The finding in words: the file's own pixels, the size drawn at, the DPI below ``below``,
        and the pixels needed for ``wanted`` DPI (``asks``: who asks for that). Sizes in pixels are
        the file's own across and down, even when it is drawn turned, so that a designer resizing
        the file to them does not get it sideways."""
        (px_w, px_h), (w_mm, h_mm) = self.pixels, self.drawn_mm
        need_w, need_h = self.needed(wanted)
        turned = ""
        if self.turned:
            px_w, px_h, need_w, need_h = px_h, px_w, need_h, need_w
            turned = ", turned a quarter turn,"
        return (f"{px_w} x {px_h} px{turned} drawn at {w_mm:.1f} x {h_mm:.1f} mm is {self.dpi:.0f} DPI, below "
                f"{below:g}; {asks} {wanted:g} DPI: give it at least {need_w} x {need_h} px")


def resolution(op: Image) -> Resolution | None:
    """The effective resolution of the picture ``op`` draws; None for SVG art, an empty box, or
    a file that cannot be read now (drawing it says why)."""
    from printkit.images import is_svg, picture  # a face of no picture never loads the pictures' checks

    if is_svg(op.path) or not (op.w_mm > 0 and op.h_mm > 0):
        return None
    try:
        shown = picture(op.path)
    except (ImageError, OSError):
        return None
    px_w, px_h = shown.width, shown.height
    if op.quarter_turns % 2:
        px_w, px_h = px_h, px_w
    drawn = fit_image(px_w, px_h, Box(op.x_mm, op.y_mm, op.w_mm, op.h_mm), op.fit)
    dpi = min(px_w / (drawn.w_mm / MM_PER_INCH), px_h / (drawn.h_mm / MM_PER_INCH))
    return Resolution((px_w, px_h), (drawn.w_mm, drawn.h_mm), dpi, bool(op.quarter_turns % 2))


def low_resolution(op: Image, below: float = LOW_DPI, wanted: float = PRINT_DPI,
                   asks: str = "print services commonly ask") -> str | None:
    """What to say of the picture ``op`` draws when it prints below ``below`` DPI (None otherwise):
    its pixels, the size it is drawn at, its DPI, and the pixels it needs for ``wanted`` DPI
    (``asks``: who asks for that)."""
    found = resolution(op)
    if found is None or found.dpi >= below:
        return None
    return found.said(below, wanted, asks)
