"""Card figures in a rulebook: the same faces a player prints, drawn by the layout templates.

``card_row`` lays a Figure's cards out in a row (pure geometry, in mm); :class:`CardRow` is the
platypus flowable that draws that row with :func:`printkit.render.canvas.draw_ops`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from reportlab.platypus import Flowable

from printkit import fonts
from printkit.deck import Card, Deck
from printkit.layout import templates
from printkit.layout.geometry import Box
from printkit.layout.ops import Face, Text
from printkit.errors import BuildError, RulebookError
from printkit.render.canvas import draw_ops
from printkit.rulebook.book import book_text_faces, font_runs, register_fonts
from printkit.rulebook.content import Figure, Pile, Zone
from printkit.units import MM_PER_POINT, mm_to_pt

GAP_MM = 4.0
LABEL_GAP_MM = 1.5
MIN_LABEL_MM = 2.2  # labels shrink to fit under their card (small pages, many cards) down to this size
OUTLINE = "#9a9a9a"  # a hairline around each trimmed card, so light cards stand out from the paper


@dataclass(frozen=True)
class PlacedCard:
    """One card of a figure: where its trim box goes (mm, y down from the figure's top), its label
    and the label's baseline (mm from the figure's top)."""

    card: Card
    x_mm: float
    y_mm: float
    scale: float
    label: str | None
    label_baseline_mm: float = 0.0


@dataclass(frozen=True)
class RowLayout:
    cards: tuple[PlacedCard, ...]
    width_mm: float
    height_mm: float
    label_size_mm: float
    rows: int = 1


MIN_CARD_TEXT_PT = 6.0  # the smallest card text a figure prints: smaller is not read, so cards grow
LEGIBLE_SLACK_PT = 1e-6  # floating-point error in a scale worked out from MIN_CARD_TEXT_PT
MIN_GAP_MM = 2.5  # how close cards may sit when that keeps them large enough to read
ROW_GAP_MM = 4.0


def smallest_text_pt(face: Face) -> float | None:
    """The size of the smallest text on a face at print size, in points (None: no text)."""
    sizes = [op.size_mm for op in face.ops if isinstance(op, Text)]
    return mm_to_pt(min(sizes)) if sizes else None


def legible_scale(text_pt: Sequence[float | None]) -> float:
    """The least scale at which every given face's smallest text prints at MIN_CARD_TEXT_PT."""
    return max((MIN_CARD_TEXT_PT / pt for pt in text_pt if pt), default=0.0)


def row_floor(text_pt: Sequence[float | None]) -> float:
    """The least scale at which a row of cards prints each face's text as a reader needs it: at
    MIN_CARD_TEXT_PT, or as the card prints it (print size) when the card's own text is smaller."""
    return min(legible_scale(text_pt), 1.0)


def small_text_error(named: tuple[str, int, str], small_pt: float) -> RulebookError:
    """The error of a figure the rule text names (``named``: path, line, what) whose card text
    would print at ``small_pt`` on the page it is held to."""
    path, line, what = named
    return RulebookError(path, line, f"{what}: its cards are shrunk to fit the page until their smallest text "
                                     f"would print at {small_pt:.1f} pt, under the {MIN_CARD_TEXT_PT:g} pt a book "
                                     "prints, and it would be left out; set the book on larger paper "
                                     "(--rulebook-paper) or show fewer or smaller cards in the figure")


def _rows_of(count: int, per_row: int) -> list[int]:
    """``count`` cards in rows of at most ``per_row``, as even as can be (5 in rows of 4: 3 + 2)."""
    rows = -(-count // per_row)
    return [count // rows + (1 if i < count % rows else 0) for i in range(rows)]


def card_row(figure: Figure, max_width_mm: float, label_size_mm: float = 3.2,
             text_pt: Sequence[float | None] = (), max_height_mm: float | None = None) -> RowLayout:
    """Place the figure's cards side by side, centred, shrunk if the row is wider than the text
    (or, with ``max_height_mm``, if the rows are taller than that).

    ``text_pt`` (the smallest text of each card's face, see smallest_text_pt) sets a floor on the
    scale: when one row would print some card text below MIN_CARD_TEXT_PT, the cards sit closer
    and then wrap onto more rows, as even as can be, each at a readable size.
    """
    cards = figure.cards
    if not cards:
        return RowLayout((), 0.0, 0.0, label_size_mm, 0)
    least = row_floor(text_pt)
    target = max(figure.scale, least)
    chosen = None
    for per_row in range(len(cards), 0, -1):
        sizes = _rows_of(len(cards), per_row)
        starts = [sum(sizes[:i]) for i in range(len(sizes))]
        for gap in (GAP_MM, MIN_GAP_MM):
            label_mm = label_size_mm
            scale = min(target, *((max_width_mm - gap * (n - 1)) / sum(c.size.width_mm for c in cards[s:s + n])
                                  for s, n in zip(starts, sizes)))
            if max_height_mm is not None:
                # every row's labels at the largest size they may take, the cards in what is left;
                # the labels shrink (to MIN_LABEL_MM) before the cards' text would go unread
                tall = sum(max(c.size.height_mm for c in cards[s:s + n]) for s, n in zip(starts, sizes))
                for label_mm in (label_size_mm, min(label_size_mm, MIN_LABEL_MM)):
                    fixed = len(sizes) * (LABEL_GAP_MM + label_mm * 1.3) + ROW_GAP_MM * (len(sizes) - 1)
                    if max(max_height_mm - fixed, 0.0) / tall >= min(scale, least):
                        break
                # not below the scale that keeps the card text readable, even so
                scale = min(scale, max(max(max_height_mm - fixed, 0.0) / tall, least))
            if chosen is None or scale > chosen[3]:
                chosen = (sizes, starts, gap, scale, label_mm)  # the largest, if no layout is readable
            if scale >= least:
                break
        if chosen[3] >= least:
            break
    sizes, starts, gap, scale, label_size_mm = chosen
    if max_height_mm is not None:
        # Too tall even so: the cards shrink to fit, and CardRow leaves out their text that would
        # print under MIN_CARD_TEXT_PT, so the figure keeps its caption on its page.
        fixed = len(sizes) * (LABEL_GAP_MM + label_size_mm * 1.3) + ROW_GAP_MM * (len(sizes) - 1)
        tall = sum(max(c.size.height_mm for c in cards[s:s + n]) for s, n in zip(starts, sizes))
        scale = min(scale, max(max_height_mm - fixed, 0.0) / tall)
    has_labels = any(figure.labels[i] if i < len(figure.labels) else None for i in range(len(cards)))
    for i, card in enumerate(cards):
        label = figure.labels[i] if i < len(figure.labels) else None
        if label:
            # A label may reach a little into the gaps beside its card, never near the next label.
            room_mm = card.size.width_mm * scale + gap * 0.4
            label_size_mm = max(MIN_LABEL_MM, min(label_size_mm, room_mm / _label_width_mm(label, 1.0)))
    label_h = LABEL_GAP_MM + label_size_mm * 1.3 if has_labels else 0.0
    placed = []
    top = 0.0
    for start, n in zip(starts, sizes):
        row = cards[start:start + n]
        row_w = sum(c.size.width_mm for c in row) * scale + gap * (n - 1)
        row_h = max(c.size.height_mm for c in row) * scale
        x = (max_width_mm - row_w) / 2
        for i, card in enumerate(row, start=start):
            label = figure.labels[i] if i < len(figure.labels) else None
            # Cards of different heights (tokens beside cards) share a vertical centre line.
            y = top + (row_h - card.size.height_mm * scale) / 2
            baseline = top + row_h + label_h - label_size_mm * 0.3
            placed.append(PlacedCard(card, x, y, scale, label, baseline))
            x += card.size.width_mm * scale + gap
        top += row_h + label_h + ROW_GAP_MM
    return RowLayout(tuple(placed), max_width_mm, top - ROW_GAP_MM, label_size_mm, len(sizes))


def _label_width_mm(label: str, size_mm: float) -> float:
    try:
        runs = font_runs(label, book_text_faces()[0])
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
    """Draws a Figure's cards in a row at (up to) their print size. Card text that would print
    under MIN_CARD_TEXT_PT (cards shrunk to keep a figure on its page) is refused for a figure
    the rule text names, and left out of a cover's art."""

    def __init__(self, figure: Figure, deck: Deck, front: FrontMaker = templates.front):
        super().__init__()
        self.figure = figure
        self.deck = deck
        self.faces = faces(figure, deck, front)
        self.layout: RowLayout | None = None
        self.max_height_pt: float | None = None  # the book holds a figure to the page, less its caption
        # The rule text's directive that shows the figure, (path, line, what): card text the figure
        # cannot print there is reported at it (a cover, named by none, shows its cards as art).
        self.named: tuple[str, int, str] | None = None
        # Labels are split into font runs now, so a bad character fails the build, not the drawing.
        self.label_runs = []
        for label in figure.labels:
            try:
                self.label_runs.append(font_runs(label, book_text_faces()[0]))
            except KeyError as exc:
                raise BuildError(f"figure label {label!r}: {exc.args[0]}") from None

    def shrunk_ok(self) -> bool:
        """Whether the row, held to ``max_height_pt``, still prints every card's text (at 6 pt or more)."""
        least = row_floor([smallest_text_pt(face) for face in self.faces])
        return self.layout is not None and all(p.scale >= least - 1e-9 for p in self.layout.cards)

    def split_rows(self, width_pt: float, height_pt: float) -> tuple["CardRow", "CardRow"] | None:
        """The figure as two, parted between its rows: the first rows, as many as fit in
        ``height_pt`` (the first alone held a little smaller, if its card text still reads or the
        whole figure's is no larger), and
        the rest, all cards at the one size. None: it has one row, or not even its first fits."""
        self.wrap(width_pt, height_pt)
        layout = self.layout
        bottoms = sorted({placed.label_baseline_mm for placed in layout.cards})  # a row's labels share one
        if len(bottoms) < 2:
            return None
        room_mm = height_pt * MM_PER_POINT
        fitting = [b for b in bottoms[:-1] if b + layout.label_size_mm * 0.3 <= room_mm] or bottoms[:1]
        count = sum(1 for placed in layout.cards if placed.label_baseline_mm <= fitting[-1])
        scale = min(placed.scale for placed in layout.cards)
        head = self._part(0, count, scale)
        head.max_height_pt = height_pt
        if head.wrap(width_pt, height_pt)[1] > height_pt:
            return None
        if not head.shrunk_ok() and min(placed.scale for placed in head.layout.cards) < scale - 1e-9:
            return None  # smaller than the whole would be, and its card text no longer read
        return head, self._part(count, len(layout.cards), min(placed.scale for placed in head.layout.cards))

    def page_parts(self, width_pt: float, page_pt: float, last_pt: float) -> list["CardRow"]:
        """The figure parted between its rows into pieces that each fit a page (``page_pt``; the
        last, which its caption follows, ``last_pt``) with every card's text printed: a figure
        whose rows at a readable size are taller than a page runs on over pages rather than
        shrinking until its cards' text is left out. [self]: it fits as it is, or has one row."""
        held, self.max_height_pt = self.max_height_pt, None
        self.wrap(width_pt, page_pt)
        layout, self.max_height_pt = self.layout, held
        self.layout = None
        least = row_floor([smallest_text_pt(face) for face in self.faces])
        scale = min(placed.scale for placed in layout.cards) if layout.cards else 0.0
        if mm_to_pt(layout.height_mm) <= last_pt or layout.rows < 2 or scale < least - 1e-9:
            return [self]
        rows: list[int] = []  # where each row starts (its cards share the labels' baseline)
        for i, placed in enumerate(layout.cards):
            if i == 0 or placed.label_baseline_mm != layout.cards[i - 1].label_baseline_mm:
                rows.append(i)
        rows.append(len(layout.cards))
        pieces: list[CardRow] = []
        start = 0
        while start < len(rows) - 1:
            end = start + 1  # at least one row on each page
            while end < len(rows) - 1 and self._part_height(rows[start], rows[end + 1], scale, width_pt) <= (
                    last_pt if end + 1 == len(rows) - 1 else page_pt):
                end += 1
            piece = self._part(rows[start], rows[end], scale)
            piece.max_height_pt = last_pt if end == len(rows) - 1 else page_pt
            pieces.append(piece)
            start = end
        return pieces

    def _part_height(self, start: int, end: int, scale: float, width_pt: float) -> float:
        part = self._part(start, end, scale)
        part.max_height_pt = None
        return part.wrap(width_pt, 1e6)[1]

    def _part(self, start: int, end: int, scale: float) -> "CardRow":
        part = copy.copy(self)
        labels = self.figure.labels[start:end]
        part.figure = replace(self.figure, cards=self.figure.cards[start:end], labels=labels, scale=scale)
        part.faces = self.faces[start:end]
        part.label_runs = self.label_runs[start:start + len(labels)]
        part.layout = None
        return part

    def wrap(self, avail_width, avail_height):
        self.layout = card_row(self.figure, avail_width * MM_PER_POINT,
                               text_pt=[smallest_text_pt(face) for face in self.faces],
                               max_height_mm=None if self.max_height_pt is None else self.max_height_pt * MM_PER_POINT)
        return avail_width, mm_to_pt(self.layout.height_mm)

    def draw(self) -> None:
        layout = self.layout
        assert layout is not None, "wrap() comes before draw()"
        canvas = self.canv
        height_mm = layout.height_mm
        shown = self._shown()
        self.check_printable(shown)
        for placed, face, ops in zip(layout.cards, self.faces, shown):
            size = placed.card.size
            trim = Box(0.0, 0.0, size.width_mm, size.height_mm)
            draw_ops(canvas, ops, placed.x_mm, placed.y_mm, height_mm, scale=placed.scale, clip_mm=trim)
            self._outline(placed, height_mm)
        register_fonts()
        for placed, runs in zip(layout.cards, self.label_runs):
            if placed.label:
                self._label(placed, runs, layout.label_size_mm)

    def _shown(self) -> list[tuple]:
        """Each face's ops as the figure draws them, laid out (wrap): without what prints too small."""
        return [legible_ops(face.ops, placed.scale) for placed, face in zip(self.layout.cards, self.faces)]

    def check_printable(self, shown: list[tuple] | None = None) -> None:
        """Raise the RulebookError of a figure the rule text names whose card text, as laid out
        (wrap), would print too small and be left out (see legible_ops); ``shown``: the faces'
        ops as :meth:`_shown` gives them, when the caller has them."""
        if self.named is None:
            return
        shown = self._shown() if shown is None else shown
        if any(len(ops) < len(face.ops) for ops, face in zip(shown, self.faces)):
            raise small_text_error(self.named, min(pt * placed.scale for placed, face in zip(self.layout.cards, self.faces)
                                                   if (pt := smallest_text_pt(face))))

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
        baseline = self.layout.height_mm - placed.label_baseline_mm  # the labels of a row share one baseline
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


# --- the table at the start of a game ------------------------------------------------------------

THUMB_MAX_SCALE = 0.42  # cards of a set-up figure are small: the figure shows where things lie
THUMB_LEAST = 0.6  # held to the room on a page, a set-up figure shrinks to this much of its size, no more
ZONE_PAD_MM = 2.5
ZONE_GAP_MM = 4.0
ROW_SPACE_MM = 3.0
PILE_GAP_MM = 2.5
PILE_STEP_MM = 0.6  # how far each card under a pile's top card peeks out
FAN_STEP = 0.2  # a held hand: each card shows this much of its width beside the next
ZONE_LABEL_MM = 2.8
COUNT_MM = 2.5
TRAY_FILL, TRAY_LINE, INK = "#f4f1ea", "#b8b0a0", "#333333"


def legible_ops(ops, scale: float) -> tuple:
    """``ops`` without the text that would print below MIN_CARD_TEXT_PT at ``scale`` (and below
    its print size: fine print the card itself prints under 6 pt stays at print size).

    A set-up figure shows cards small; their fine print could not be read there, and the cards
    are known by their art and their larger text.
    """
    # Cards scaled to just the legible size print their smallest text at MIN_CARD_TEXT_PT less a
    # rounding error: such text stays.
    least = MIN_CARD_TEXT_PT - LEGIBLE_SLACK_PT
    return tuple(op for op in ops if not (isinstance(op, Text) and mm_to_pt(op.size_mm * scale) <
                                          min(least, mm_to_pt(op.size_mm) - LEGIBLE_SLACK_PT)))


def _text_runs(text: str, bold: bool = False):
    try:
        return font_runs(text, book_text_faces()[1 if bold else 0])
    except KeyError as exc:
        raise BuildError(f"figure text {text!r}: {exc.args[0]}") from None


def _runs_width(runs, size_mm: float) -> float:
    return sum(fonts.text_width_mm(text, font, size_mm) for font, text in runs)


def _draw_runs(canvas, runs, cx_mm: float, baseline_mm: float, size_mm: float) -> None:
    """Text centred on ``cx_mm`` at a baseline (figure frame, y up, mm)."""
    x = cx_mm - _runs_width(runs, size_mm) / 2
    for font, text in runs:
        canvas.setFont(fonts.font_name(font), mm_to_pt(size_mm))
        canvas.drawString(mm_to_pt(x), mm_to_pt(baseline_mm), text)
        x += fonts.text_width_mm(text, font, size_mm)


@dataclass(frozen=True)
class _PlacedPile:
    pile: Pile
    x_mm: float
    y_mm: float  # top, y down from the figure's top


@dataclass(frozen=True)
class _PlacedZone:
    zone: Zone
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    piles: tuple[_PlacedPile, ...]


class TableFlowable(Flowable):
    """A TableSetup drawn from above: each zone a labelled tray of its piles, rows centred."""

    # The table is best seen whole: it parts between its rows of zones only when moving it to the
    # next page would leave about half the page empty (this share of the frame, less the space after
    # the last paragraph, or more).
    parts_past = 0.48

    def __init__(self, setup, deck: Deck, front: FrontMaker = templates.front):
        super().__init__()
        self.setup, self.deck = setup, deck
        self.faces: dict[tuple[int, bool], Face] = {}
        self.label_runs = {}
        for row in setup.rows:
            for zone in row:
                self.label_runs[zone.name] = _text_runs(zone.name, bold=True)
                for pile in zone.piles:
                    if pile.card is not None and (id(pile.card), pile.back) not in self.faces:
                        self.faces[(id(pile.card), pile.back)] = (
                            templates.back(pile.card, deck) if pile.back else front(pile.card, deck))
        self.count_runs = {n: _text_runs(f"×{n}") for n in {p.count for r in setup.rows for z in r for p in z.piles}}
        self.zones: tuple[_PlacedZone, ...] = ()
        self.scale = self.free_scale = THUMB_MAX_SCALE
        self.max_height_pt: float | None = None  # the book may hold it to the room left on a page
        self.most_scale = THUMB_MAX_SCALE  # a part of a figure parted between its rows keeps the whole's scale

    def _size(self, pile, s: float) -> tuple[float, float]:
        size = (pile.card or self.deck.cards[0]).size
        w, h = size.width_mm * s, size.height_mm * s
        if pile.fan:
            return w * (1 + FAN_STEP * (pile.count - 1)), h
        extra = PILE_STEP_MM * (min(pile.count, 4) - 1)
        return w + extra, h + extra

    def _zone_size(self, zone, s: float) -> tuple[float, float]:
        sizes = [self._size(p, s) for p in zone.piles]
        inner = sum(w for w, _ in sizes) + PILE_GAP_MM * (len(sizes) - 1)
        label = _runs_width(self.label_runs[zone.name], ZONE_LABEL_MM)
        counted = any(p.count > 1 for p in zone.piles)
        h = ZONE_PAD_MM * 2 + ZONE_LABEL_MM * 1.5 + max(h for _, h in sizes) + (COUNT_MM * 1.6 if counted else 0)
        return max(inner, label) + 2 * ZONE_PAD_MM, h

    def _fits(self, s: float, width_mm: float, held: bool = True) -> bool:
        if held and self.max_height_pt is not None and mm_to_pt(self._height(s)) > self.max_height_pt:
            return False
        return all(sum(self._zone_size(z, s)[0] for z in row) + ZONE_GAP_MM * (len(row) - 1) <= width_mm
                   for row in self.setup.rows)

    def _height(self, s: float) -> float:
        rows = self.setup.rows
        return sum(max(self._zone_size(z, s)[1] for z in row) for row in rows) + ROW_SPACE_MM * (len(rows) - 1)

    def shrunk_ok(self) -> bool:
        """Whether the figure, held to ``max_height_pt``, still shows its cards large enough:
        at THUMB_LEAST of the size the text width alone allows, or more."""
        return self.scale >= self.free_scale * THUMB_LEAST - 1e-9

    def split_rows(self, width_pt: float, height_pt: float) -> tuple["TableFlowable", "TableFlowable"] | None:
        """The table as two, parted between its rows of zones at the whole's scale: the first rows,
        as many as fit ``height_pt``, and the rest. None: it has one row, or not even its first fits."""
        self.wrap(width_pt, height_pt)
        rows, scale = self.setup.rows, self.scale
        fitting = [k for k in range(1, len(rows))
                   if mm_to_pt(self._part(rows[:k], scale)._height(scale)) <= height_pt]
        if not fitting:
            return None
        k = fitting[-1]
        return self._part(rows[:k], scale), self._part(rows[k:], scale)

    def _part(self, rows, scale: float) -> "TableFlowable":
        part = copy.copy(self)
        part.setup = replace(self.setup, rows=rows)
        part.most_scale = scale
        part.max_height_pt = None  # at the whole's scale, which already fitted the page
        return part

    def _largest_scale(self, width_mm: float, held: bool) -> float:
        """The largest scale at which every row fits the width (``held``: and the figure its
        ``max_height_pt``)."""
        lo, hi = 0.05, self.most_scale
        if self._fits(hi, width_mm, held):
            return hi
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self._fits(mid, width_mm, held) else (lo, mid)
        return lo

    def _layout(self, width_mm: float) -> float:
        self.free_scale = self._largest_scale(width_mm, held=False)
        s = self._largest_scale(width_mm, held=True) if self.max_height_pt is not None else self.free_scale
        zones, top = [], 0.0
        for row in self.setup.rows:
            sizes = [self._zone_size(z, s) for z in row]
            row_h = max(h for _, h in sizes)
            x = (width_mm - sum(w for w, _ in sizes) - ZONE_GAP_MM * (len(row) - 1)) / 2
            for zone, (w, _) in zip(row, sizes):
                piles, px = [], x + ZONE_PAD_MM
                inner = sum(self._size(p, s)[0] for p in zone.piles) + PILE_GAP_MM * (len(zone.piles) - 1)
                px += (w - 2 * ZONE_PAD_MM - inner) / 2
                card_h = max(self._size(p, s)[1] for p in zone.piles)
                for pile in zone.piles:
                    pw, ph = self._size(pile, s)
                    # Smaller pieces (tokens) sit on the middle line of the zone's cards.
                    py = top + ZONE_PAD_MM + ZONE_LABEL_MM * 1.5 + (card_h - ph) / 2
                    piles.append(_PlacedPile(pile, px, py))
                    px += pw + PILE_GAP_MM
                zones.append(_PlacedZone(zone, x, top, w, row_h, tuple(piles)))
                x += w + ZONE_GAP_MM
            top += row_h + ROW_SPACE_MM
        self.zones = tuple(zones)
        self.scale = s
        return top - ROW_SPACE_MM

    def wrap(self, avail_width, avail_height):
        self.height_mm = self._layout(avail_width * MM_PER_POINT)
        return avail_width, mm_to_pt(self.height_mm)

    def draw(self) -> None:
        register_fonts()
        canvas, H, s = self.canv, self.height_mm, self.scale
        for placed in self.zones:
            canvas.saveState()
            canvas.setStrokeColor(TRAY_LINE)
            canvas.setFillColor(TRAY_FILL)
            canvas.setLineWidth(0.6)
            canvas.roundRect(mm_to_pt(placed.x_mm), mm_to_pt(H - placed.y_mm - placed.h_mm), mm_to_pt(placed.w_mm),
                             mm_to_pt(placed.h_mm), mm_to_pt(2.0), stroke=1, fill=1)
            canvas.setFillColor(INK)
            _draw_runs(canvas, self.label_runs[placed.zone.name], placed.x_mm + placed.w_mm / 2,
                       H - placed.y_mm - ZONE_PAD_MM - ZONE_LABEL_MM * 0.85, ZONE_LABEL_MM)
            canvas.restoreState()
            for p in placed.piles:
                self._pile(p, s, H)

    def _pile(self, placed: _PlacedPile, s: float, H: float) -> None:
        canvas, pile = self.canv, placed.pile
        size = (pile.card or self.deck.cards[0]).size
        w, h = size.width_mm * s, size.height_mm * s
        if pile.card is None:  # an empty place: a dashed outline
            canvas.saveState()
            canvas.setStrokeColor(OUTLINE)
            canvas.setDash(2, 2)
            canvas.setLineWidth(0.7)
            canvas.roundRect(mm_to_pt(placed.x_mm), mm_to_pt(H - placed.y_mm - h), mm_to_pt(w), mm_to_pt(h),
                             mm_to_pt(size.corner_radius_mm * s), stroke=1, fill=0)
            canvas.restoreState()
            return
        ops = legible_ops(self.faces[(id(pile.card), pile.back)].ops, s)
        shown = pile.count if pile.fan else min(pile.count, 4)
        for i in range(shown):
            if pile.fan:
                x, y = placed.x_mm + w * FAN_STEP * i, placed.y_mm
            else:  # the top card last, up and to the left
                x, y = placed.x_mm + PILE_STEP_MM * (shown - 1 - i), placed.y_mm + PILE_STEP_MM * (shown - 1 - i)
            draw_ops(canvas, ops, x, y, H, scale=s, clip_mm=Box(0.0, 0.0, size.width_mm, size.height_mm))
            canvas.saveState()
            canvas.setStrokeColor(OUTLINE)
            canvas.setLineWidth(0.4)
            canvas.roundRect(mm_to_pt(x), mm_to_pt(H - y - h), mm_to_pt(w), mm_to_pt(h),
                             mm_to_pt(size.corner_radius_mm * s), stroke=1, fill=0)
            canvas.restoreState()
        if pile.count > 1:
            pw, ph = self._size(pile, s)
            canvas.saveState()
            canvas.setFillColor(INK)
            _draw_runs(canvas, self.count_runs[pile.count], placed.x_mm + pw / 2,
                       H - placed.y_mm - ph - COUNT_MM * 1.25, COUNT_MM)
            canvas.restoreState()


def text_box(face: Face, text: str) -> Box:
    """The box (card frame, mm) of the upright text ``text`` on ``face``: where a label points."""
    for op in face.ops:
        if isinstance(op, Text) and op.text == text and not op.rotate_deg:
            w = fonts.text_width_mm(op.text, op.font, op.size_mm)
            left = op.x_mm - {"start": 0.0, "middle": w / 2, "end": w}[op.anchor]
            return Box(left, op.y_mm - op.size_mm * 0.72, w, op.size_mm * 0.72)
    raise BuildError(f"the card face shows no text {text!r} to label")


def turned(box: Box, card: Card) -> Box:
    """``box`` turned half a turn about the card's centre (the index in the opposite corner)."""
    size = card.size
    return Box(size.width_mm - box.right_mm, size.height_mm - box.y_mm - box.h_mm, box.w_mm, box.h_mm)


def located(places: Callable[[Face], tuple[Box, ...]], labels: tuple[str, ...]) -> tuple:
    """CardParts parts whose places are found on the face as laid out for the book (so the card
    is laid out once): each label with a function of the face that gives its box."""
    return tuple((label, lambda face, i=i: places(face)[i]) for i, label in enumerate(labels))
