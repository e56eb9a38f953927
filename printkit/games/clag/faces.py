"""Clag's faces: the cards, aids, score sheet and backs from the game's design (``faces.yaml``).

The 52 playing cards, the player aids, the score sheet (a page, not a card) and the deck back are
drawn by the layouts ``playing_card``, ``aid``, ``score_sheet`` and ``back`` of ``faces.yaml``
beside this module, in the language every designer uses (a spec that names a layout of its own
draws with that instead); this module picks the layout. An aid's, a terrain's or a reference's
light back is every game's (:func:`design_file.component_back`).
:func:`pip_centres` says where the layout puts a number card's pips, for the rulebook's anatomy
figure.
"""

from __future__ import annotations

from pathlib import Path

from printkit.deck import Card
from printkit.errors import DeckError
from printkit.games.clag.icons import SUIT_COLORS
from printkit.errors import LayoutError
from printkit.layout.ops import Face
from printkit.layout.templates import design_file

# The art.colors names these faces read (the design's layouts and the generic face).
COLOR_NAMES = ("background", "ink", "spades", "hearts", "diamonds", "clubs")
DESIGN = Path(__file__).resolve().with_name("faces.yaml")

# Pip positions for 2-10, as the layout playing_card in faces.yaml places them: (column, row);
# columns -1 left, 0 middle, 1 right; rows 0 (top) .. 1 (bottom). Pips below the middle row are
# drawn upside down, as on printed decks.
PIP_LAYOUTS: dict[int, tuple[tuple[int, float], ...]] = {
    2: ((0, 0), (0, 1)),
    3: ((0, 0), (0, 0.5), (0, 1)),
    4: ((-1, 0), (1, 0), (-1, 1), (1, 1)),
    5: ((-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    6: ((-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    7: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    8: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)),
    9: ((-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)),
    10: ((-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1), (1, 1)),
}


def designs(card: Card) -> bool:
    """Whether the design draws ``card``'s front; any other's is the generic face's, which the
    deck draws with its spec's icons."""
    return _front_layout(card) is not None


def _front_layout(card: Card) -> str | None:
    """The design's layout for ``card``'s front: a player aid or a playing card; else None."""
    if "aid" in card.attrs:
        return "aid"
    if "suit" in card.attrs and "rank" in card.attrs:
        return "playing_card"
    return None


def front(card: Card) -> Face:
    """A playing card or a player aid as the design draws it; a card the design does not draw (:func:`designs`) is
    the generic face's, which printkit draws with the deck's icons (LayoutError here)."""
    layout = _front_layout(card)
    if layout is None:
        raise LayoutError(f"{card.label}: Clag's design draws no such card; the generic face draws it")
    return design_file.draw(DESIGN, layout, card, colors=SUIT_COLORS)


def back(card: Card) -> Face:
    """A component's light back (a player aid's, a terrain's or a reference's) and any other card's
    back, as the design draws them."""
    return design_file.back(DESIGN, card, SUIT_COLORS)


def back_key(card: Card) -> tuple[str, str] | None:
    """A key the cards whose backs :func:`back` draws alike share (None: the card's own)."""
    return design_file.back_key(DESIGN, card)


def pip_centres(card: Card, rank: int) -> tuple[tuple[float, float, bool], ...]:
    """(x, y, upside down) of every pip of a 2-10 card, in mm."""
    w, h = card.size.width_mm, card.size.height_mm
    half_span = w * 0.18
    top, bottom = h * 0.2, h * 0.8
    return tuple(
        (w / 2 + col * half_span, top + row * (bottom - top), row > 0.5) for col, row in PIP_LAYOUTS[rank]
    )


# --- score sheet ----------------------------------------------------------------------------


def page(card: Card, width_mm: float, height_mm: float) -> Face:
    """The score sheet on a page, as the design's layout ``score_sheet`` draws it."""
    if card.get("sheet") != "score":
        raise DeckError(f"{card.label}: Clag has no page {card.get('sheet')!r} (expected 'score')")
    return design_file.draw_page(DESIGN, "score_sheet", card, width_mm, height_mm, colors=SUIT_COLORS)
