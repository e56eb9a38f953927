"""Card and paper geometry in millimetres: the named sizes tables and small rectangle helpers.

Named card sizes come from ``printkit.deck.CARD_SIZES_MM``, the one place printkit knows what
"poker" or "bridge" means; paper sizes from ``printkit.paper.PAPER_SIZES_MM``.
"""

from __future__ import annotations

from dataclasses import dataclass

from printkit import deck, paper
from printkit.deck import CardSize


@dataclass(frozen=True, slots=True)
class Size:
    """A width and a height in millimetres."""

    width_mm: float
    height_mm: float

    def rotated(self) -> "Size":
        return Size(self.height_mm, self.width_mm)


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: top-left corner ``(x_mm, y_mm)`` (y downwards) and its size."""

    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float

    @property
    def right_mm(self) -> float:
        return self.x_mm + self.w_mm

    @property
    def bottom_mm(self) -> float:
        return self.y_mm + self.h_mm

    @property
    def cx_mm(self) -> float:
        return self.x_mm + self.w_mm / 2

    @property
    def cy_mm(self) -> float:
        return self.y_mm + self.h_mm / 2

    def grow(self, left_mm: float, top_mm: float | None = None, right_mm: float | None = None,
             bottom_mm: float | None = None) -> "Box":
        """The box grown outwards on each side (negative values shrink it); CSS-like shorthand."""
        top_mm = left_mm if top_mm is None else top_mm
        right_mm = left_mm if right_mm is None else right_mm
        bottom_mm = top_mm if bottom_mm is None else bottom_mm
        return Box(self.x_mm - left_mm, self.y_mm - top_mm, self.w_mm + left_mm + right_mm,
                   self.h_mm + top_mm + bottom_mm)

    def shift(self, dx_mm: float, dy_mm: float) -> "Box":
        return Box(self.x_mm + dx_mm, self.y_mm + dy_mm, self.w_mm, self.h_mm)

    def past(self, edge: "Box") -> dict[str, float]:
        """How far the box reaches past ``edge`` on each side (mm; negative: inside it), by side."""
        return {"top": edge.y_mm - self.y_mm, "bottom": self.bottom_mm - edge.bottom_mm,
                "left": edge.x_mm - self.x_mm, "right": self.right_mm - edge.right_mm}

    def intersects(self, other: "Box") -> bool:
        """True when the two boxes share interior area (touching edges do not count)."""
        return (self.x_mm < other.right_mm and other.x_mm < self.right_mm
                and self.y_mm < other.bottom_mm and other.y_mm < self.bottom_mm)

    def intersection(self, other: "Box") -> "Box":
        """The part of this box inside ``other`` (a negative width or height when they share none)."""
        x0, y0 = max(self.x_mm, other.x_mm), max(self.y_mm, other.y_mm)
        return Box(x0, y0, min(self.right_mm, other.right_mm) - x0, min(self.bottom_mm, other.bottom_mm) - y0)

    def contains(self, other: "Box", tolerance_mm: float = 1e-9) -> bool:
        return (other.x_mm >= self.x_mm - tolerance_mm and other.y_mm >= self.y_mm - tolerance_mm
                and other.right_mm <= self.right_mm + tolerance_mm
                and other.bottom_mm <= self.bottom_mm + tolerance_mm)


# Trim sizes of the named card formats (the table lives with the deck model, which specs read).
CARD_SIZES_MM: dict[str, Size] = {name: Size(*size) for name, size in deck.CARD_SIZES_MM.items()}

# Papers, portrait (the table lives below the spec, which checks that a card fits one).
PAPER_SIZES_MM: dict[str, Size] = {name: Size(*size) for name, size in paper.PAPER_SIZES_MM.items()}


def named_card_size(name: str) -> Size:
    """The trim size of a named card format; ValueError naming the choices otherwise."""
    return Size(*deck.named_card_size_mm(name))


def paper_size(name: str) -> Size:
    """The size of a named paper (``a4``, ``a5``, ``letter`` or ``half-letter``, portrait)."""
    try:
        return PAPER_SIZES_MM[name.lower()]
    except KeyError:
        raise ValueError(f"unknown paper {name!r} (expected one of: {', '.join(PAPER_SIZES_MM)})") from None


def trim_box(size: CardSize) -> Box:
    """The trim box in the card frame (origin at the trim's top-left corner)."""
    return Box(0.0, 0.0, size.width_mm, size.height_mm)


def bleed_box(size: CardSize) -> Box:
    """The bleed box in the card frame: the trim box grown by the bleed on every side."""
    return trim_box(size).grow(size.bleed_mm)


def safe_box(size: CardSize) -> Box:
    """The safe zone in the card frame: the trim box shrunk by the safe margin."""
    return trim_box(size).grow(-size.safe_mm)


def fit_image(px_w: int, px_h: int, box: Box, fit: str) -> Box:
    """Where an image of ``px_w`` x ``px_h`` pixels goes to ``cover``, ``contain`` or ``stretch`` ``box``.

    Both backends draw the image into the box returned (clipped to ``box`` for ``cover``).
    """
    if fit == "stretch" or px_w <= 0 or px_h <= 0:
        return box
    ratio = px_w / px_h
    scale = max if fit == "cover" else min
    w = scale(box.w_mm, box.h_mm * ratio)
    h = w / ratio
    return Box(box.cx_mm - w / 2, box.cy_mm - h / 2, w, h)
