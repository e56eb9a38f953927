"""Figures any game's rulebook can show, with no Python of its own: they come from the deck.

``::: cards ember-drake, kindle`` a row of named cards; ``::: anatomy ember-drake`` one card with
its layout's elements labelled; ``::: setup Deck: back x20; Hand: back x5; Realm: ember-drake``
a table set up from cards, backs and named zones. A card is named by its ``id``, ``name`` or
``title`` (any case); ``back`` is the deck's card back. A book with no cover of its game's own
shows the deck's first few cards on its title page.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from reportlab.platypus import Flowable

from printkit import fonts
from printkit.deck import Card, Deck
from printkit.layout import templates
from printkit.layout.geometry import Box
from printkit.render.pdf import draw_ops
from printkit.rulebook.content import CardParts, Figure
from printkit.rulebook.figures import OUTLINE, FrontMaker, legible_ops
from printkit.units import MM_PER_POINT, mm_to_pt

KINDS = ("cards", "anatomy", "setup")
MAX_NAMES = 12  # cards in one row
MAX_ZONES = 9
MAX_PILE = 60
BACK = "back"


class FigureError(ValueError):
    """A designed figure names something the deck does not have; the message says what."""


def _names_of(card: Card) -> list[str]:
    return [str(card.attrs[k]) for k in ("id", "name", "title") if k in card.attrs and str(card.attrs[k]).strip()]


def find_card(deck: Deck, name: str) -> Card:
    """The first card of the deck whose id, name or title is ``name`` (ignoring case)."""
    wanted = name.strip().casefold()
    for card in deck.all_cards():
        if any(n.casefold() == wanted for n in _names_of(card)):
            return card
    known = list(dict.fromkeys(n for c in deck.all_cards() for n in _names_of(c)[:1]))
    hint = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    meant = f" (did you mean {hint[0]!r}?)" if hint else ""
    if not known:
        raise FigureError(f"no card is named {name!r}: give the cards an id, name or title attribute")
    listed = ", ".join(known[:12]) + (", …" if len(known) > 12 else "")
    raise FigureError(f"no card is named {name!r}{meant}; cards: {listed}")


def _title(card: Card) -> str:
    names = _names_of(card)
    return str(card.attrs.get("title") or card.attrs.get("name") or (names[0] if names else card.group))


def cards_figure(deck: Deck, spec: str) -> Figure:
    """``::: cards a, b, c``: the named cards in a row, each titled under it."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise FigureError("'::: cards' needs card names, e.g. '::: cards ember-drake, kindle'")
    if len(names) > MAX_NAMES:
        raise FigureError(f"'::: cards' shows at most {MAX_NAMES} cards in a row, got {len(names)}")
    cards = tuple(find_card(deck, n) for n in names)
    return Figure(cards, labels=tuple(_title(c) for c in cards), scale=0.6)


# One card drawn large with its layout's named elements labelled beside it.
Anatomy = CardParts


def anatomy_figure(deck: Deck, spec: str) -> Anatomy:
    """``::: anatomy NAME`` (or ``NAME: part, part``): the card with a label and a leader line for
    each named text, picture and icon of its layout (or each part named)."""
    name, _, wanted_text = spec.partition(":")
    card = find_card(deck, name)
    if card.layout is None:
        raise FigureError(f"card {name.strip()!r} is not drawn by a layout of the spec, so it has no named parts "
                          "to label")
    layout = deck.layouts[card.layout]
    shown = {e.name: e for e in layout.elements if e.name is not None and e.shown_for(card)}
    wanted = [w.strip() for w in wanted_text.split(",") if w.strip()]
    for part in wanted:
        if part not in shown:
            hint = difflib.get_close_matches(part, list(shown), n=1)
            meant = f" (did you mean {hint[0]!r}?)" if hint else ""
            raise FigureError(f"card {name.strip()!r} shows no element named {part!r}{meant}; its layout "
                              f"{card.layout!r} shows: {', '.join(shown)}")
    # Without a list: what a reader looks for (text, pictures, icons), not shapes behind them.
    chosen = [shown[p] for p in wanted] if wanted else \
        [e for e in shown.values() if e.kind in ("text", "image", "icon")]
    if not chosen:
        raise FigureError(f"the layout {card.layout!r} of card {name.strip()!r} has no named text, picture or icon "
                          "to label")
    parts = tuple((e.name.replace("_", " "), e.box(card.size)) for e in chosen)
    for label, _ in parts:
        _runs(label)
    return Anatomy(card, parts)


@dataclass(frozen=True)
class Zone:
    name: str
    items: tuple[tuple[Card, bool, int], ...]  # card, whether its back shows, how many in the pile


@dataclass(frozen=True)
class Setup:
    zones: tuple[Zone, ...]


def _pile(item: str) -> tuple[str, int]:
    """``"back x5"`` (or ``"back×5"``, ``"backx5"``) as ``("back", 5)``; a plain name counts once.

    Read from the end in one pass: rule text is untrusted, so no pattern that backtracks."""
    end = len(item)
    start = end
    while start > 0 and item[start - 1].isdecimal():
        start -= 1
    head = item[:start].rstrip()
    if start < end and head.endswith(("x", "×")):
        return head[:-1].strip(), int(item[start:])
    return item.strip(), 1



def setup_figure(deck: Deck, spec: str) -> Setup:
    """``::: setup Zone: item, item xN; Zone: ...``: named zones holding cards, backs and piles."""
    zones = []
    for part in (p.strip() for p in spec.split(";")):
        if not part:
            continue
        name, colon, rest = part.partition(":")
        if not colon or not name.strip():
            raise FigureError(f"setup zone {part!r} needs a name and its cards, e.g. 'Hand: back x5'")
        items = []
        for item in (i.strip() for i in rest.split(",")):
            if not item:
                continue
            label, count = _pile(item)
            if not 1 <= count <= MAX_PILE:
                raise FigureError(f"setup item {item!r}: a pile holds 1 to {MAX_PILE} cards")
            back = label.casefold() == BACK
            card = deck.cards[0] if back else find_card(deck, label)
            items.append((card, back, count))
        if not items:
            raise FigureError(f"setup zone {name.strip()!r} holds no cards")
        _runs(name.strip(), bold=True)
        zones.append(Zone(name.strip(), tuple(items)))
    if not zones:
        raise FigureError("'::: setup' needs zones, e.g. '::: setup Deck: back x20; Hand: back x5'")
    if len(zones) > MAX_ZONES:
        raise FigureError(f"'::: setup' lays out at most {MAX_ZONES} zones, got {len(zones)}")
    return Setup(tuple(zones))


def cover_figure(deck: Deck) -> Figure:
    """The title page's picture for a game without one of its own: its first distinct cards."""
    seen, cards = set(), []
    for card in deck.cards:
        key = (card.group, repr(sorted(card.attrs.items())))
        if key not in seen:
            seen.add(key)
            cards.append(card)
        if len(cards) == 3:
            break
    return Figure(tuple(cards), scale=0.7)


# --- drawing ---------------------------------------------------------------------------------

LABEL_MM = 3.0
INK = "#333333"
LINE = "#777777"


def _runs(text: str, bold: bool = False) -> list[tuple[str, object]]:
    """``text`` split into runs of the bundled font that draws them (the book's own split);
    FigureError naming a character no bundled font has."""
    from printkit.rulebook.book import BOLD, REGULAR, font_runs

    try:
        return [(run, font) for font, run in font_runs(text, BOLD if bold else REGULAR)]
    except KeyError as exc:
        raise FigureError(f"{exc.args[0]} in {text!r}") from None


def _text(canvas, x_mm: float, y_mm: float, text: str, size_mm: float, bold: bool = False, anchor: str = "start"):
    """One line at a baseline (page frame, y up, mm), each character in a bundled font that has it."""
    runs = _runs(text, bold)
    width = sum(fonts.text_width_mm(t, f, size_mm) for t, f in runs)
    x = x_mm - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    for t, f in runs:
        canvas.setFont(fonts.font_name(f), mm_to_pt(size_mm))
        canvas.drawString(mm_to_pt(x), mm_to_pt(y_mm), t)
        x += fonts.text_width_mm(t, f, size_mm)


class AnatomyFlowable(Flowable):
    """The card at the left, its parts' names in a column at the right, joined by leader lines."""

    def __init__(self, anatomy: Anatomy, deck: Deck, front: FrontMaker = templates.front):
        super().__init__()
        self.anatomy, self.deck = anatomy, deck
        self.face = front(anatomy.card, deck)
        self.scale = 1.0
        # A part's place is a box, or a function that finds it on the face as laid out.
        self.parts = tuple((label, where(self.face) if callable(where) else where) for label, where in anatomy.parts)

    def wrap(self, avail_width, avail_height):
        size = self.anatomy.card.size
        width_mm = avail_width * MM_PER_POINT
        # The card takes at most half the width; the labels the rest.
        self.scale = min(1.0, width_mm * 0.5 / size.width_mm)
        self.height_mm = size.height_mm * self.scale
        return avail_width, mm_to_pt(self.height_mm)

    def draw(self) -> None:
        from printkit.rulebook.book import register_fonts

        register_fonts()
        card, s = self.anatomy.card, self.scale
        size = card.size
        canvas = self.canv
        draw_ops(canvas, self.face.ops, 0.0, 0.0, self.height_mm, scale=s,
                 clip_mm=Box(0.0, 0.0, size.width_mm, size.height_mm))
        canvas.saveState()
        canvas.setStrokeColor(OUTLINE)
        canvas.setLineWidth(0.5)
        canvas.roundRect(0, 0, mm_to_pt(size.width_mm * s), mm_to_pt(self.height_mm),
                         mm_to_pt(size.corner_radius_mm * s), stroke=1, fill=0)
        parts = sorted(self.parts, key=lambda p: p[1].cy_mm)
        label_x = size.width_mm * s + 12.0
        step = self.height_mm / len(parts)
        canvas.setLineWidth(0.6)
        for i, (label, box) in enumerate(parts):
            label_y = step * (i + 0.5)  # from the top
            # The line ends just inside the part's right side, so it crosses as little of the card as it can.
            target_x = (min(box.right_mm, size.width_mm) - min(box.w_mm * 0.15, 2.0)) * s
            target_y = box.cy_mm * s
            canvas.setStrokeColor(LINE)
            canvas.setFillColor(LINE)
            canvas.line(mm_to_pt(target_x), mm_to_pt(self.height_mm - target_y),
                        mm_to_pt(label_x - 2.0), mm_to_pt(self.height_mm - label_y))
            canvas.circle(mm_to_pt(target_x), mm_to_pt(self.height_mm - target_y), mm_to_pt(0.7), stroke=0, fill=1)
            canvas.setFillColor(INK)
            _text(canvas, label_x, self.height_mm - label_y - LABEL_MM * 0.35, label, LABEL_MM)
        canvas.restoreState()


class SetupFlowable(Flowable):
    """Zones side by side (three to a row), each a labelled tray of its cards, piles and backs.

    The cards are small, so their text that would print under MIN_CARD_TEXT_PT is left out."""

    PER_ROW = 3
    GAP_MM = 5.0
    PAD_MM = 3.0

    def __init__(self, setup: Setup, deck: Deck, front: FrontMaker = templates.front):
        super().__init__()
        self.setup, self.deck = setup, deck
        self.faces = {}
        for zone in setup.zones:
            for card, back, _ in zone.items:
                key = (id(card), back)
                if key not in self.faces:
                    self.faces[key] = templates.back(card, deck) if back else front(card, deck)

    def _geometry(self, width_mm: float):
        rows = [self.setup.zones[i:i + self.PER_ROW] for i in range(0, len(self.setup.zones), self.PER_ROW)]
        zone_w = (width_mm - self.GAP_MM * (self.PER_ROW - 1)) / self.PER_ROW
        card = self.deck.cards[0].size
        # Each zone fits its widest row of items: piles show as one card, fanned a little.
        widest = max(sum(item[0].size.width_mm for item in zone.items) + 2.0 * (len(zone.items) - 1)
                     for zone in self.setup.zones)
        scale = min(0.3, (zone_w - 2 * self.PAD_MM - 3.0) / widest)
        tray_h = card.height_mm * scale + 2 * self.PAD_MM + LABEL_MM * 1.6 + 4.5  # room for a pile's count
        return rows, zone_w, scale, tray_h

    def wrap(self, avail_width, avail_height):
        self.width_mm = avail_width * MM_PER_POINT
        rows, _, _, tray_h = self._geometry(self.width_mm)
        self.height_mm = len(rows) * tray_h + (len(rows) - 1) * self.GAP_MM
        return avail_width, mm_to_pt(self.height_mm)

    def draw(self) -> None:
        from printkit.rulebook.book import register_fonts

        register_fonts()
        canvas = self.canv
        rows, zone_w, scale, tray_h = self._geometry(self.width_mm)
        for r, row in enumerate(rows):
            top = r * (tray_h + self.GAP_MM)
            for c, zone in enumerate(row):
                left = c * (zone_w + self.GAP_MM)
                canvas.saveState()
                canvas.setStrokeColor("#b8b0a0")
                canvas.setFillColor("#f4f1ea")
                canvas.setLineWidth(0.6)
                canvas.roundRect(mm_to_pt(left), mm_to_pt(self.height_mm - top - tray_h), mm_to_pt(zone_w),
                                 mm_to_pt(tray_h), mm_to_pt(2.5), stroke=1, fill=1)
                canvas.setFillColor(INK)
                _text(canvas, left + zone_w / 2, self.height_mm - top - self.PAD_MM - LABEL_MM * 0.9, zone.name,
                      LABEL_MM, bold=True, anchor="middle")
                canvas.restoreState()
                widths = [card.size.width_mm * scale for card, _, _ in zone.items]
                x = left + (zone_w - sum(widths) - 2.0 * (len(widths) - 1)) / 2
                y = top + self.PAD_MM + LABEL_MM * 1.6
                for (card, back, count), w in zip(zone.items, widths):
                    self._pile(card, back, count, x, y, scale)
                    x += w + 2.0

    def _pile(self, card: Card, back: bool, count: int, x_mm: float, y_mm: float, scale: float) -> None:
        canvas = self.canv
        face = self.faces[(id(card), back)]
        size = card.size
        shown = min(count, 4)
        for i in range(shown):
            dx = dy = 0.6 * (shown - 1 - i)
            draw_ops(canvas, legible_ops(face.ops, scale), x_mm + dx, y_mm + dy, self.height_mm, scale=scale,
                     clip_mm=Box(0.0, 0.0, size.width_mm, size.height_mm))
            canvas.saveState()
            canvas.setStrokeColor(OUTLINE)
            canvas.setLineWidth(0.4)
            canvas.roundRect(mm_to_pt(x_mm + dx), mm_to_pt(self.height_mm - y_mm - dy - size.height_mm * scale),
                             mm_to_pt(size.width_mm * scale), mm_to_pt(size.height_mm * scale),
                             mm_to_pt(size.corner_radius_mm * scale), stroke=1, fill=0)
            canvas.restoreState()
        if count > 1:
            canvas.saveState()
            canvas.setFillColor(INK)
            below = y_mm + size.height_mm * scale + 0.6 * (shown - 1) + 3.0  # under the pile's lowest card
            _text(canvas, x_mm + size.width_mm * scale / 2, self.height_mm - below, f"×{count}", 2.6, anchor="middle")
            canvas.restoreState()
