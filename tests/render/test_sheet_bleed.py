"""Bleed on every exposed edge of every shipped deck's sheets, seen on rendered pixels.

A card's edge is exposed when nothing is cut along it with it: no card beside it (the empty slots
of a deck's last sheet, the slots tokens fill, the empty places of a token sheet). The card's own
colour must reach past the trim there by its full bleed, on the fronts and, mirrored, on the
backs; and no crop mark may touch a painted card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
import pytest

from printkit.pipeline.context import BuildOptions
from printkit.pipeline.producers import deck_sheets
from printkit.pipeline.build import load_decks
from printkit.pipeline.names import all_cards
from printkit.deck import CardSize
from printkit.layout import templates
from printkit.layout.geometry import Box
from printkit.layout.imposition import Page, Placement, impose
from printkit.layout.ops import Face, Line
from printkit.render.pdf import render_pages

DPI = 150
PX_PER_MM = DPI / 25.4
SHIPPED = [("calc", "standard"), ("calc", "expert"), ("clag", None), ("emberfall", None), ("stack", None)]


class _Faces:
    """Faces as a build lays them out, remembering each one's card size."""

    def __init__(self, deck) -> None:
        self.deck, self.size = deck, {}

    def front(self, card) -> Face:
        face = templates.front(card, self.deck)
        self.size.setdefault(face, card.size)
        return face

    def back(self, card) -> Face:
        face = templates.back(card, self.deck)
        self.size.setdefault(face, card.size)
        return face


def _footprint(placement: Placement, size: CardSize) -> Box:
    """The trim of a placed card on the page (its top-left corner at x, y, turned clockwise)."""
    w, h = size.width_mm, size.height_mm
    x, y = placement.x_mm, placement.y_mm
    return {0: Box(x, y, w, h), 90: Box(x - h, y, h, w), 180: Box(x - w, y - h, w, h),
            270: Box(x, y - w, h, w)}[placement.clockwise_deg % 360]


def _painted(placement: Placement, trim: Box, size: CardSize) -> Box:
    """The clip (card frame) of a placement on the page: the trim grown by the clip's margins."""
    c = placement.clip
    left, top, right, bottom = -c.x_mm, -c.y_mm, c.right_mm - size.width_mm, c.bottom_mm - size.height_mm
    turn = placement.clockwise_deg % 360 // 90
    for _ in range(turn):  # a quarter turn clockwise takes the card's left side to the top
        left, top, right, bottom = bottom, left, top, right
    return trim.grow(left, top, right, bottom)


@dataclass(frozen=True)
class Edge:
    trim: Box
    side: str  # left, top, right, bottom (on the page)
    bleed_mm: float


def exposed_edges(page: Page, sizes: dict, grid: Box) -> list[Edge]:
    """Every side of a placed card that faces into the sheet's grid of slots with no card's trim
    beside it (the margins keep their own bleed, the README's table)."""
    trims = [(_footprint(p, sizes[p.face]), sizes[p.face]) for p in page.placements]
    edges = []
    for i, (t, size) in enumerate(trims):
        b = size.bleed_mm
        strips = {"left": Box(t.x_mm - b, t.y_mm + b, b, t.h_mm - 2 * b),
                  "right": Box(t.right_mm, t.y_mm + b, b, t.h_mm - 2 * b),
                  "top": Box(t.x_mm + b, t.y_mm - b, t.w_mm - 2 * b, b),
                  "bottom": Box(t.x_mm + b, t.bottom_mm, t.w_mm - 2 * b, b)}
        for side, strip in strips.items():
            inside = (grid.x_mm <= strip.x_mm and strip.right_mm <= grid.right_mm
                      and grid.y_mm <= strip.y_mm and strip.bottom_mm <= grid.bottom_mm)
            beside = any(strip.intersects(o) for j, (o, _) in enumerate(trims) if j != i)
            if inside and not beside:
                edges.append(Edge(t, side, b))
    return edges


def _samples(pixels: np.ndarray, edge: Edge, at_mm: float) -> np.ndarray:
    """The pixels along ``edge`` at ``at_mm`` outside the trim (negative: inside), its middle part."""
    t = edge.trim
    if edge.side in ("left", "right"):
        x = t.x_mm - at_mm if edge.side == "left" else t.right_mm + at_mm
        ys = np.linspace(t.y_mm + 2 * edge.bleed_mm, t.bottom_mm - 2 * edge.bleed_mm, 60)
        return np.array([pixels[int(y * PX_PER_MM), int(x * PX_PER_MM)] for y in ys])
    y = t.y_mm - at_mm if edge.side == "top" else t.bottom_mm + at_mm
    xs = np.linspace(t.x_mm + 2 * edge.bleed_mm, t.right_mm - 2 * edge.bleed_mm, 60)
    return np.array([pixels[int(y * PX_PER_MM), int(x * PX_PER_MM)] for x in xs])


def _line_box(mark: Line) -> Box:
    return Box(min(mark.x1_mm, mark.x2_mm), min(mark.y1_mm, mark.y2_mm),
               abs(mark.x2_mm - mark.x1_mm) or 1e-6, abs(mark.y2_mm - mark.y1_mm) or 1e-6)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name,variant", SHIPPED)
def test_the_last_sheet_bleeds_on_every_exposed_edge_front_and_back(name, variant, paper):
    (deck,) = load_decks([name], variant)
    faces = _Faces(deck)
    duplex, _ = deck_sheets(deck, faces, BuildOptions(paper=paper))
    sizes = faces.size
    checked: list[tuple[Page, list[Edge]]] = []
    for page in duplex:
        largest = max((sizes[p.face] for p in page.placements), key=lambda s: s.width_mm * s.height_mm)
        layout = impose(page.size, largest)
        grid = Box(layout.slots[0].trim.x_mm, layout.slots[0].trim.y_mm,
                   layout.slots[-1].trim.right_mm - layout.slots[0].trim.x_mm,
                   layout.slots[-1].trim.bottom_mm - layout.slots[0].trim.y_mm)
        # The back page's grid is the front's mirrored: the same box, as the grid is centred.
        edges = exposed_edges(page, sizes, grid)
        if edges:
            checked.append((page, edges))
        painted = [_painted(p, _footprint(p, sizes[p.face]), sizes[p.face]) for p in page.placements]
        for mark in (op for op in page.ops if type(op) is Line):
            assert not any(_line_box(mark).intersects(box) for box in painted), mark
    # The deck's last sheet, front and back, has exposed edges.
    assert duplex[-2] in [p for p, _ in checked] and duplex[-1] in [p for p, _ in checked]
    pdf = pdfium.PdfDocument(render_pages([p for p, _ in checked]))
    seen = 0
    for index, (page, edges) in enumerate(checked):
        pixels = np.asarray(pdf[index].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
        for edge in edges:
            inside = _samples(pixels, edge, -0.6)
            outside = _samples(pixels, edge, edge.bleed_mm - 0.4)  # the far end of the bleed
            # Bare paper (pure white as rendered) outside where the card inside is painted:
            # no bleed. Patterns and art change colour across the trim, so only the paper counts.
            bare = (outside.min(axis=1) == 255) & (inside.min(axis=1) < 255)
            assert bare.mean() <= 0.05, (f"page {duplex.index(page) + 1}: the {edge.side} edge of the card at "
                                         f"{edge.trim} shows {bare.mean():.0%} bare paper at its bleed")
            seen += (inside.min(axis=1) < 255).mean() > 0.5  # a painted card (not a white one) there
    assert seen  # some exposed edge is of a card painted in a colour, whose bleed shows
