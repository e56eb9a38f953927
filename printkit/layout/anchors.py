"""Anchors: an element of a layout placed by a text drawn before it, where that text was set.

A layout element with ``anchor: {to: NAME, x: ..., y: ..., gap: ...}`` keeps the size of its
box as written and moves it, across (``x``) and down (``y``), against the extent of the text
element ``NAME`` on each card (:attr:`printkit.layout.text.FittedText.extent`): from where its
lines start to where they end, and from the top of its first line's capitals to its last
baseline. A corner index's disc follows each number's width; a badge follows a title of any
length.

- ``x``: ``start``, ``center`` (or ``centre``) or ``end`` lines the box's left edges, centres or right edges
  up with the text's; ``after`` puts the box's left edge ``gap`` beyond the text's end, ``before``
  its right edge ``gap`` before the text's start. Left out: the box stays where ``x`` puts it.
- ``y``: ``top``, ``middle`` or ``bottom`` lines the box up with the top of the capitals, their
  middle or the last baseline; ``below`` puts its top ``gap`` under the last baseline, ``above``
  its bottom ``gap`` over the capitals. Left out: the box stays where ``y`` puts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from printkit.layout.geometry import Box

@dataclass(frozen=True)
class Anchor:
    """Where an element stands by the text element ``to``: ``x`` and ``y`` as the module says
    (None: as the box is written), ``gap_mm`` the room an ``after``, ``before``, ``above`` or
    ``below`` leaves. ``source`` is where ``to`` is written (``FILE:LINE:COLUMN``)."""

    to: str
    x: str | None = None
    y: str | None = None
    gap_mm: float = 0.0
    source: str | None = None


def anchored_box(box: Box, padding_mm: float, anchor: Anchor, extent: Box) -> Box:
    """``box`` (an element's, ``padding_mm`` inside what is written) moved as ``anchor`` places
    the written box against ``extent``, the text's as set."""
    outer = box.grow(padding_mm)
    gap = anchor.gap_mm
    x = {None: outer.x_mm, "start": extent.x_mm, "center": extent.cx_mm - outer.w_mm / 2,
         "end": extent.right_mm - outer.w_mm, "after": extent.right_mm + gap,
         "before": extent.x_mm - gap - outer.w_mm}[anchor.x]
    y = {None: outer.y_mm, "top": extent.y_mm, "middle": extent.cy_mm - outer.h_mm / 2,
         "bottom": extent.bottom_mm - outer.h_mm, "below": extent.bottom_mm + gap,
         "above": extent.y_mm - gap - outer.h_mm}[anchor.y]
    return box.shift(x - outer.x_mm, y - outer.y_mm)


__all__ = ["Anchor", "anchored_box"]
