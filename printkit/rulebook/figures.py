"""Card figures in a rulebook: the same faces a player prints, drawn by the layout templates.

``card_row`` lays a Figure's cards out in a row (pure geometry, in mm); :class:`CardRow` is the
platypus flowable that draws that row with :func:`printkit.render.pdf.draw_ops`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reportlab.platypus import Flowable

from printkit import fonts
from printkit.deck import Card, Deck
from printkit.layout import templates
from printkit.layout.geometry import Box
from printkit.layout.ops import Face
from printkit.errors import BuildError
from printkit.render.pdf import draw_ops
from printkit.rulebook.book import REGULAR, font_runs, register_fonts
from printkit.rulebook.content import Figure
from printkit.units import MM_PER_POINT, mm_to_pt

GAP_MM = 4.0
LABEL_GAP_MM = 1.5
MIN_LABEL_MM = 2.2  # labels shrink to fit under their card (small pages, many cards) down to this size
OUTLINE = "#9a9a9a"  # a hairline around each trimmed card, so light cards stand out from the paper


@dataclass(frozen=True)
class PlacedCard:
    """One card of a figure: where its trim box goes (mm, y down from the row's top) and its label."""

    card: Card
    x_mm: float
    y_mm: float
    scale: float
    label: str | None


@dataclass(frozen=True)
class RowLayout:
    cards: tuple[PlacedCard, ...]
    width_mm: float
    height_mm: float
    label_size_mm: float


def card_row(figure: Figure, max_width_mm: float, label_size_mm: float = 3.2) -> RowLayout:
    """Place the figure's cards side by side, centred, shrunk if the row is wider than the text."""
    if not figure.cards:
        return RowLayout((), 0.0, 0.0, label_size_mm)
    widths = [card.size.width_mm for card in figure.cards]
    heights = [card.size.height_mm for card in figure.cards]
    gaps = GAP_MM * (len(figure.cards) - 1)
    scale = min(figure.scale, (max_width_mm - gaps) / sum(widths))
    row_w = sum(widths) * scale + gaps
    row_h = max(heights) * scale
    x = (max_width_mm - row_w) / 2
    placed = []
    for i, card in enumerate(figure.cards):
        label = figure.labels[i] if i < len(figure.labels) else None
        # Cards of different heights (tokens beside cards) share a vertical centre line.
        y = (row_h - card.size.height_mm * scale) / 2
        placed.append(PlacedCard(card, x, y, scale, label))
        x += card.size.width_mm * scale + GAP_MM
    has_labels = any(p.label for p in placed)
    for p in placed:
        if p.label:
            # A label may reach a little into the gaps beside its card, never near the next label.
            room_mm = p.card.size.width_mm * p.scale + GAP_MM * 0.4
            label_size_mm = max(MIN_LABEL_MM, min(label_size_mm, room_mm / _label_width_mm(p.label, 1.0)))
    height = row_h + (LABEL_GAP_MM + label_size_mm * 1.3 if has_labels else 0.0)
    return RowLayout(tuple(placed), max_width_mm, height, label_size_mm)


def _label_width_mm(label: str, size_mm: float) -> float:
    try:
        runs = font_runs(label, REGULAR)
    except KeyError as exc:
        raise BuildError(f"figure label {label!r}: {exc.args[0]}") from None
    return max(sum(fonts.text_width_mm(text, font, size_mm) for font, text in runs), 1e-6)


# Lays out the front of a card of a deck: templates.front, or a stand-in that remembers faces.
FrontMaker = Callable[[Card, Deck], Face]


def faces(figure: Figure, deck: Deck, front: FrontMaker = templates.front) -> tuple[Face, ...]:
    """The front faces of the figure's cards, from the game's layout templates."""
    return tuple(front(card, deck) for card in figure.cards)


def remembered_fronts(deck: Deck) -> FrontMaker:
    """``templates.front`` for ``deck`` that lays each card out once and then hands back its face.

    Books of one spec show the same cards in every language (and a card may recur within a
    book), so the books share one of these. Cards are known by identity: the memo holds on to
    them, so an id is never reused. Another deck is laid out afresh each time.
    """
    laid_out: dict[int, tuple[Card, Face]] = {}

    def front(card: Card, for_deck: Deck) -> Face:
        if for_deck is not deck:
            return templates.front(card, for_deck)
        known = laid_out.get(id(card))
        if known is None:
            known = laid_out[id(card)] = (card, templates.front(card, deck))
        return known[1]

    return front


class CardRow(Flowable):
    """Draws a Figure's cards in a row at (up to) their print size."""

    def __init__(self, figure: Figure, deck: Deck, front: FrontMaker = templates.front):
        super().__init__()
        self.figure = figure
        self.deck = deck
        self.faces = faces(figure, deck, front)
        self.layout: RowLayout | None = None
        # Labels are split into font runs now, so a bad character fails the build, not the drawing.
        self.label_runs = []
        for label in figure.labels:
            try:
                self.label_runs.append(font_runs(label, REGULAR))
            except KeyError as exc:
                raise BuildError(f"figure label {label!r}: {exc.args[0]}") from None

    def wrap(self, avail_width, avail_height):
        self.layout = card_row(self.figure, avail_width * MM_PER_POINT)
        return avail_width, mm_to_pt(self.layout.height_mm)

    def draw(self) -> None:
        layout = self.layout
        assert layout is not None, "wrap() comes before draw()"
        canvas = self.canv
        height_mm = layout.height_mm
        for placed, face in zip(layout.cards, self.faces):
            size = placed.card.size
            trim = Box(0.0, 0.0, size.width_mm, size.height_mm)
            draw_ops(canvas, face.ops, placed.x_mm, placed.y_mm, height_mm, scale=placed.scale, clip_mm=trim)
            self._outline(placed, height_mm)
        register_fonts()
        for placed, runs in zip(layout.cards, self.label_runs):
            if placed.label:
                self._label(placed, runs, layout.label_size_mm)

    def _outline(self, placed: PlacedCard, height_mm: float) -> None:
        size = placed.card.size
        canvas = self.canv
        canvas.saveState()
        canvas.setStrokeColor(OUTLINE)
        canvas.setLineWidth(0.5)
        w, h = size.width_mm * placed.scale, size.height_mm * placed.scale
        r = size.corner_radius_mm * placed.scale
        canvas.roundRect(mm_to_pt(placed.x_mm), mm_to_pt(height_mm - placed.y_mm - h), mm_to_pt(w), mm_to_pt(h),
                         mm_to_pt(r), stroke=1, fill=0)
        canvas.restoreState()

    def _label(self, placed: PlacedCard, runs, size_mm: float) -> None:
        canvas = self.canv
        cx = placed.x_mm + placed.card.size.width_mm * placed.scale / 2
        baseline = size_mm * 0.3  # labels share one baseline at the bottom of the figure
        size_pt = mm_to_pt(size_mm)
        widths = [fonts.text_width_mm(text, font, size_mm) for font, text in runs]
        x = cx - sum(widths) / 2
        canvas.saveState()
        canvas.setFillColor("#333333")
        for (font, text), w in zip(runs, widths):
            canvas.setFont(fonts.font_name(font), size_pt)
            canvas.drawString(mm_to_pt(x), mm_to_pt(baseline), text)
            x += w
        canvas.restoreState()
