"""Figures any game's rulebook can show, with no Python of its own: they come from the deck.

``::: cards ember-drake, kindle`` a row of named cards; ``::: anatomy ember-drake`` one card with
its layout's elements labelled; ``::: setup Deck: back x20; Hand: back x5; Realm: ember-drake``
a table set up from cards, backs and named zones. A card is named by its ``id``, ``name`` or
``title`` (any case); ``back`` is the deck's card back. A book with no cover of its game's own
shows the deck's first few cards on its title page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reportlab.platypus import Flowable

from printkit import fonts
from printkit.deck import Card, Deck
from printkit.layout import design, templates
from printkit.layout.geometry import Box
from printkit.render.canvas import draw_ops
from printkit.rulebook.content import CardParts, Figure
from printkit.typography import smarten
from printkit.rulebook.figures import (OUTLINE, FrontMaker, legible_ops, legible_scale, small_text_error,
                                       smallest_text_pt)
from printkit.units import MM_PER_POINT, mm_to_pt
from printkit.errors import FigureError, LayoutError
from printkit.suggest import close_match

KINDS = ("cards", "anatomy", "setup")
MAX_NAMES = 12  # cards in one row
MAX_ZONES = 9
MAX_PILE = 60
BACK = "back"


def _names_of(card: Card) -> list[str]:
    return [str(card.attrs[k]) for k in ("id", "name", "title") if k in card.attrs and str(card.attrs[k]).strip()]


def find_card(deck: Deck, name: str) -> Card:
    """The first card of the deck whose id, name or title is ``name`` (ignoring case)."""
    wanted = name.strip().casefold()
    for card in deck.all_cards():
        if any(n.casefold() == wanted for n in _names_of(card)):
            return card
    known = list(dict.fromkeys(n for c in deck.all_cards() for n in _names_of(c)[:1]))
    hint = close_match(name, known)
    meant = f" (did you mean {hint!r}?)" if hint else ""
    if not known:
        raise FigureError(f"no card is named {name!r}: give the cards an id, name or title attribute")
    listed = ", ".join(known[:12]) + (", …" if len(known) > 12 else "")
    raise FigureError(f"no card is named {name!r}{meant}; cards: {listed}")


def _title(card: Card) -> str:
    names = _names_of(card)
    return str(card.attrs.get("title") or card.attrs.get("name") or (names[0] if names else card.group))


def cards_figure(deck: Deck, spec: str) -> Figure:
    """``::: cards a, b, c``: the named cards in a row, each titled under it; ``a = Label`` labels
    a card in the book's own words (its name in the book's language)."""
    named = [n.strip().partition("=") for n in spec.split(",") if n.strip()]
    if not named:
        raise FigureError("'::: cards' needs card names, e.g. '::: cards ember-drake, kindle'")
    if len(named) > MAX_NAMES:
        raise FigureError(f"'::: cards' shows at most {MAX_NAMES} cards in a row, got {len(named)}")
    cards = tuple(find_card(deck, name) for name, _, _ in named)
    labels = tuple(smarten(label.strip()) if eq and label.strip() else _title(card)
                   for (_, eq, label), card in zip(named, cards))
    return Figure(cards, labels=labels, scale=0.6)


# One card drawn large with its layout's named elements labelled beside it.
Anatomy = CardParts


def anatomy_figure(deck: Deck, spec: str, lang: str = "en") -> Anatomy:
    """``::: anatomy NAME`` (or ``NAME: part, part``): the card with a label and a leader line for
    each named text, picture and icon of its layout (or each part named), each labelled as its
    element's ``label:`` says in ``lang`` (see :func:`part_label`)."""
    name, _, wanted_text = spec.partition(":")
    card = find_card(deck, name)
    if card.layout is None:
        raise FigureError(f"card {name.strip()!r} is not drawn by a layout of the spec, so it has no named parts "
                          "to label")
    layout = deck.layouts[card.layout]
    languages = design.english_first(deck.resources.languages)
    shown = {e.name: e for e in layout.elements if e.name is not None and e.shown_for(card, languages)}
    wanted = [w.strip() for w in wanted_text.split(",") if w.strip()]
    for part in wanted:
        if part not in shown:
            hint = close_match(part, shown)
            meant = f" (did you mean {hint!r}?)" if hint else ""
            raise FigureError(f"card {name.strip()!r} shows no element named {part!r}{meant}; its layout "
                              f"{card.layout!r} shows: {', '.join(shown)}")
    # Without a list: what a reader looks for (text, pictures, icons), not shapes behind them.
    chosen = [shown[p] for p in wanted] if wanted else \
        [e for e in shown.values() if e.kind in ("text", "image", "icon")]
    if not chosen:
        raise FigureError(f"the layout {card.layout!r} of card {name.strip()!r} has no named text, picture or icon "
                          "to label")
    # Each part where the card shows it (an anchored one by its text as set); one it leaves out
    # (clear_of, when_drawn, unless_repeats, an anchor's text not drawn) is not labelled, and one
    # the text named is told. The card is drawn once for all the book's languages (its
    # {_languages} are every rule text's), so it looks the same in each language's book; a part
    # drawn only for the languages after this book's is theirs, and labelled in their books alone.
    drawn = design.placed_boxes(layout, card, deck.resources)
    language_of = _language_of_parts(layout, card, deck, drawn)
    mine = languages.index(lang) if lang in languages else len(languages)
    own = {name for name in drawn if languages.index(language_of[name]) <= mine}
    parts = tuple((part_label(e, lang), drawn[e.name]) for e in chosen if e.name in own)
    for label, _ in parts:
        _runs(label)
    return Anatomy(card, parts, left_out=tuple(dict.fromkeys(p for p in wanted if p not in drawn)),
                   other_language=tuple((p, language_of[p]) for p in dict.fromkeys(wanted)
                                        if p in drawn and p not in own))


def _language_of_parts(layout, card: Card, deck: Deck, drawn: dict[str, Box]) -> dict[str, str]:
    """For each part of ``drawn`` (what the card draws for all the book's languages), the language
    it is drawn for: the first of the book's languages (English first) that a rulebook in the
    languages up to it alone would have the card draw it for, as
    :func:`printkit.layout.design.placed_boxes` places them. A part drawn only with a later
    language (``when_has: _languages[1]``, or ``when_drawn`` by such a part) is that language's."""
    languages = design.english_first(deck.resources.languages)
    found: dict[str, str] = {}
    for count in range(1, len(languages)):
        try:
            alone = design.placed_boxes(layout, card, replace(deck.resources, languages=languages[:count]))
        except LayoutError:  # the layout reads a later language unasked: no part is told apart
            return dict.fromkeys(drawn, languages[0])
        for name in drawn:
            if name in alone:
                found.setdefault(name, languages[count - 1])
    return {name: found.get(name, languages[-1]) for name in drawn}


def left_out_warning(figure: Anatomy) -> str | None:
    """What an anatomy figure says of the parts its text names that the card does not draw (None
    if it draws them all)."""
    if not figure.left_out:
        return None
    name = (_names_of(figure.card) or [figure.card.group])[0]
    parts = ", ".join(repr(p) for p in figure.left_out)
    which = "part" if len(figure.left_out) == 1 else "parts"
    return (f"anatomy: card {name!r} does not draw its {which} {parts} (left out by clear_of, "
            f"when_drawn, unless_repeats or an anchor whose text is not drawn), so the figure labels "
            f"{'it' if len(figure.left_out) == 1 else 'them'} nowhere")


def other_language_warning(figure: Anatomy, lang: str) -> str | None:
    """What an anatomy figure in ``lang`` says of the parts its text names that the card draws only
    for the rulebook's later languages (None if there are none)."""
    if not figure.other_language:
        return None
    name = (_names_of(figure.card) or [figure.card.group])[0]
    parts = ", ".join(repr(p) for p, _ in figure.other_language)
    later = " and ".join(dict.fromkeys(language for _, language in figure.other_language))
    one = len(figure.other_language) == 1
    return (f"anatomy: card {name!r} draws its {'part' if one else 'parts'} {parts} only because the rulebook is "
            f"in {later} too, so the figure of this {lang} book labels {'it' if one else 'them'} nowhere; "
            f"the {later} book does")


def part_label(element, lang: str) -> str:
    """What an anatomy figure in ``lang`` calls a layout element: its ``label:`` in that language
    (or in its primary language, ``pt`` for ``pt-BR``), else its one ``label:`` for every
    language, else its name (``cost_badge`` as "cost badge")."""
    labels = dict(element.labels)
    for key in (lang, lang.split("-")[0], ""):
        if key in labels:
            return labels[key]
    return element.name.replace("_", " ")


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
    if item.casefold().endswith("rest"):
        lead = item[:-4].rstrip()
        if lead.endswith(("x", "×")) and lead[:-1].strip():
            return lead[:-1].strip(), REST
    if start < end and head.endswith(("x", "×")):
        return head[:-1].strip(), int(item[start:])
    return item.strip(), 1



def setup_figure(deck: Deck, spec: str) -> Setup:
    """``::: setup Zone: item, item xN; Zone: ...``: named zones holding cards, backs and piles.

    A pile ``xrest`` holds what the other zones leave: ``back xrest`` of the deck's cards, so
    ``Deck: back xrest`` shows the deck as setup leaves it, and ``NAME xrest`` of the cards so
    named (``Pool: ember xrest``, the ember tokens not handed out), computed from the deck."""
    zones: list[tuple[str, list]] = []
    dealt: dict[str, tuple[str, int]] = {}  # a card's name as written -> how many the piles deal of it
    named_rests: list[tuple[list, int, str]] = []  # each ``NAME xrest`` pile: its zone's items, its place, NAME
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
            if count != REST and not 1 <= count <= MAX_PILE:
                raise FigureError(f"setup item {item!r}: a pile holds 1 to {MAX_PILE} cards")
            back = label.casefold() == BACK
            card = deck.cards[0] if back else find_card(deck, label)
            items.append((card, back, count))
            if not back and count == REST:
                named_rests.append((items, len(items) - 1, label.strip()))
            elif not back:
                key = label.strip().casefold()
                shown, so_far = dealt.get(key, (label.strip(), 0))
                dealt[key] = (shown, so_far + count)
        if not items:
            raise FigureError(f"setup zone {name.strip()!r} holds no cards")
        zones.append((smarten(name.strip()), items))
    if not zones:
        raise FigureError("'::: setup' needs zones, e.g. '::: setup Deck: back x20; Hand: back x5'")
    if len(zones) > MAX_ZONES:
        raise FigureError(f"'::: setup' lays out at most {MAX_ZONES} zones, got {len(zones)}")
    _check_dealt(deck, dealt)
    _count_named_rests(deck, named_rests, dealt)
    _count_rests(deck, [items for _, items in zones])
    for name, _ in zones:
        _runs(name, bold=True)
    return Setup(tuple(Zone(name, tuple(items)) for name, items in zones))


REST = -1  # the count of a pile written ``xrest``, until it is worked out


def _card_set(deck: Deck, card: Card, back: bool) -> tuple[str, int]:
    """The set a pile's cards are dealt from (the deck, or one component) and how many it holds."""
    if not back:
        for name, cards in deck.components.items():
            if any(c is card for c in cards):
                return name, len(cards)
    return "", len(deck.cards)


def _copies(deck: Deck, key: str) -> int:
    """How many cards of the deck and its components a name (casefolded) names, copies included."""
    return sum(1 for card in deck.all_cards() if any(n.casefold() == key for n in _names_of(card)))


def _check_dealt(deck: Deck, dealt: dict[str, tuple[str, int]]) -> None:
    """FigureError if the piles deal more of a card (by name, all its copies) than the deck has."""
    for key, (label, count) in dealt.items():
        has = _copies(deck, key)
        if count > has:
            raise FigureError(f"'::: setup' deals {count} of {label!r}, but the deck has {has}; "
                              f"give its piles at most {has} in all")


def _count_named_rests(deck: Deck, rests: list[tuple[list, int, str]], dealt: dict[str, tuple[str, int]]) -> None:
    """Replace each ``NAME xrest`` count (in place) by what the other piles leave of the cards so named:
    the rest of that card, not of the deck, which a pile of its face could not show."""
    seen: set[str] = set()
    for items, i, label in rests:
        key = label.casefold()
        if key in seen:
            raise FigureError(f"'::: setup' has two piles 'xrest' of {label!r}; one takes the rest")
        seen.add(key)
        has, given = _copies(deck, key), dealt.get(key, (label, 0))[1]
        left = has - given
        if not 1 <= left <= MAX_PILE:
            raise FigureError(f"'::: setup': the rest of {label!r} is {left} cards (the deck has {has}, the other "
                              f"piles deal {given}); a pile holds 1 to {MAX_PILE}")
        card, back, _ = items[i]
        items[i] = (card, back, left)


def _count_rests(deck: Deck, zones: list[list]) -> None:
    """Replace the ``back xrest`` count in the zones' piles (in place) by what the other piles leave of
    the deck; FigureError if the piles, named rests included, add up to more than their set holds."""
    placed: dict[str, int] = {}
    sizes: dict[str, int] = {}
    rests: list[tuple[list, int]] = []
    for items in zones:
        for i, (card, back, count) in enumerate(items):
            if count == REST:
                if rests:
                    raise FigureError("'::: setup' has two piles 'xrest' of the deck; one takes the rest")
                rests.append((items, i))
            else:
                name, size = _card_set(deck, card, back)
                placed[name] = placed.get(name, 0) + count
                sizes[name] = size
    for name, count in placed.items():
        if count > sizes[name]:
            raise FigureError(f"'::: setup' deals {count} cards of {name or 'the deck'}, but it has "
                              f"{sizes[name]}; give its piles at most {sizes[name]} in all")
    for items, i in rests:
        card, back, _ = items[i]
        left = len(deck.cards) - placed.get("", 0)
        if not 1 <= left <= MAX_PILE:
            raise FigureError(f"'::: setup': the rest of the deck is {left} cards; a pile holds 1 to {MAX_PILE}")
        items[i] = (card, back, left)


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
    """``text`` split into runs of the book's font that draws them (the book's own split, the
    spec's font first); FigureError naming a character none of them has."""
    from printkit.rulebook.book import book_text_faces, font_runs

    try:
        return [(run, font) for font, run in font_runs(text, book_text_faces()[1 if bold else 0])]
    except KeyError as exc:
        raise FigureError(f"{exc.args[0]} in {text!r}") from None


def _text(canvas, x_mm: float, y_mm: float, text: str, size_mm: float, bold: bool = False, anchor: str = "start"):
    """One line at a baseline (page frame, y up, mm), each character in the book's font that has it."""
    runs = _runs(text, bold)
    width = sum(fonts.text_width_mm(t, f, size_mm) for t, f in runs)
    x = x_mm - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    for t, f in runs:
        canvas.setFont(fonts.font_name(f), mm_to_pt(size_mm))
        canvas.drawString(mm_to_pt(x), mm_to_pt(y_mm), t)
        x += fonts.text_width_mm(t, f, size_mm)


ELBOW_MM = 3.0  # a leader line leaves the card this far before it turns to its label
RUN_MM = 9.0  # the room between the card's side and its labels
LABEL_STEP = 1.45  # the least distance between two one-line labels' middles, in label sizes


@dataclass(frozen=True)
class Leader:
    """One labelled part as laid out (mm, y down from the figure's top): the label, the side it
    stands on, the dot on the part, where the line turns, and the middle of the label's line."""

    label: str
    side: str  # "left" or "right"
    dot: tuple[float, float]
    elbow: tuple[float, float]
    end: tuple[float, float]  # where the line meets the label
    label_x: float  # the label's start (right side) or end (left side)
    label_y: float
    lines: tuple[str, ...] = ()  # the label as set, wrapped


@dataclass(frozen=True)
class AnatomyLayout:
    card_x: float
    scale: float
    width: float
    height: float
    leaders: tuple[Leader, ...]


def face_text_boxes(face) -> list[Box]:
    """The boxes (card frame, mm) of the face's text, turned text included."""
    import math

    from printkit.layout.ops import Text

    boxes = []
    for op in face.ops:
        if not isinstance(op, Text) or not op.text.strip():
            continue
        w = fonts.text_width_mm(op.text, op.font, op.size_mm)
        left = -{"start": 0.0, "middle": w / 2, "end": w}[op.anchor]
        corners = [(left, 0.0), (left + w, 0.0), (left, -op.size_mm * 0.75), (left + w, -op.size_mm * 0.75)]
        a = math.radians(op.rotate_deg)  # counter-clockwise on the page: y points down here
        turned = [(op.x_mm + x * math.cos(a) + y * math.sin(a), op.y_mm - x * math.sin(a) + y * math.cos(a))
                  for x, y in corners]
        xs, ys = [x for x, _ in turned], [y for _, y in turned]
        boxes.append(Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    return boxes


def _overlap(a: Box, b: Box) -> float:
    w = min(a.right_mm, b.right_mm) - max(a.x_mm, b.x_mm)
    h = min(a.bottom_mm, b.bottom_mm) - max(a.y_mm, b.y_mm)
    return max(w, 0.0) * max(h, 0.0)


LANES = ("middle", "above", "below")  # where a line may leave its part: its middle, or along its top or foot
LANE_GAP_MM = 1.0


def _route(box: Box, side: str, lane: str, text: bool, card_w: float) -> tuple[float, float, float]:
    """Where a part's line starts (x, y; card frame, mm) and the x its straight run ends at."""
    edge = 0.0 if side == "left" else card_w
    if lane == "middle":
        # the dot stands just off a text, so no letter is covered, or just inside a picture
        inset = -0.8 if text else min(box.w_mm * 0.15, 2.0)
        x = max(box.x_mm, 0.0) + inset if side == "left" else min(box.right_mm, card_w) - inset
        return x, box.cy_mm, edge
    y = box.y_mm - LANE_GAP_MM if lane == "above" else box.bottom_mm + LANE_GAP_MM
    return box.cx_mm, y, edge


def _blocked(box: Box, x0: float, x1: float, y: float, obstacles: list[Box]) -> int:
    """How many obstacles the straight run x0–x1 at height y crosses; an obstacle mostly inside the
    part (or the part mostly inside it) is the part itself."""
    x0, x1 = min(x0, x1), max(x0, x1)
    count = 0
    for other in obstacles:
        own = _overlap(box, other)
        if own > 0.5 * other.w_mm * other.h_mm or own > 0.5 * box.w_mm * box.h_mm:
            continue
        if other.y_mm - 0.4 <= y <= other.bottom_mm + 0.4 and other.x_mm < x1 and other.right_mm > x0:
            count += 1
    return count


def _spread(wanted: list[float], heights: list[float], gap: float, low: float, high: float) -> list[float]:
    """Middles of labels ``heights`` tall, as near ``wanted`` (ascending) as can be, ``gap`` apart
    at least, the first no higher than ``low`` and the last no lower than ``high`` allow."""
    out: list[float] = []
    for i, y in enumerate(wanted):
        least = low + heights[i] / 2 if not out else out[-1] + (heights[i - 1] + heights[i]) / 2 + gap
        out.append(max(y, least))
    if out and out[-1] + heights[-1] / 2 > high:  # pushed past the foot: push back up from there
        out[-1] = high - heights[-1] / 2
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - (heights[i] + heights[i + 1]) / 2 - gap)
    return out


def wrap_label(label: str, width_mm: float, label_width) -> list[str]:
    """A label broken into lines at most ``width_mm`` wide where it can be (at its spaces)."""
    lines: list[str] = []
    for word in label.split():
        if lines and label_width(lines[-1] + " " + word) <= width_mm:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [label]


LABELLED_SHARE = 0.55  # of the text's width, the most a card with labels beside it takes


def anatomy_layout(parts, card_size, obstacles: list[Box], width_mm: float, label_mm: float,
                   label_width, max_height_mm: float | None = None, least_scale: float = 0.0) -> AnatomyLayout:
    """The card in the middle, each part's label at the side its line reaches past no other text
    or part (the nearer side when both do), labels on a side in the order of their parts' heights.

    A line runs straight out from its part (from its middle, or along its top or foot) to just
    outside the card, then to its label, so lines cross neither each other nor the card's text.
    ``label_width(label)`` is a label's width in mm. The card is drawn at ``least_scale`` or more
    (so its text stays readable); labels wrap onto more lines to leave it that room."""
    W, H = card_size.width_mm, card_size.height_mm
    # A part that sets text is pointed at where its text stands, not at the whole of its box.
    texts = {}
    for label, box in parts:
        inside = [t for t in obstacles if _overlap(box, t) > 0.5 * t.w_mm * t.h_mm]
        if inside:
            texts[label] = True
            x0, y0 = min(t.x_mm for t in inside), min(t.y_mm for t in inside)
            box = Box(x0, y0, max(t.right_mm for t in inside) - x0, max(t.bottom_mm for t in inside) - y0)
        parts = [(l, box if l == label else b) for l, b in parts]
    all_obstacles = obstacles + [box for _, box in parts]
    sides = []
    for label, box in parts:
        others = [o for o in all_obstacles if o is not box]
        nearer = "left" if box.cx_mm < W * 0.4 else "right"

        def cost(route, box=box, label=label, others=others, nearer=nearer):
            side, lane = route
            x, y, edge = _route(box, side, lane, label in texts, W)
            return (_blocked(box, x, edge, y, others), lane != "middle", side != nearer)

        sides.append(min(((side, lane) for side in ("left", "right") for lane in LANES), key=cost))
    widest = {side: max((label_width(l) for (l, _), (sd, _) in zip(parts, sides) if sd == side), default=0.0)
              for side in ("left", "right")}
    margins = {side: (widest[side] + RUN_MM if widest[side] else 0.0) for side in widest}
    scale = min(1.0, (width_mm - margins["left"] - margins["right"]) / W, width_mm * LABELLED_SHARE / W)
    if max_height_mm is not None:
        scale = min(scale, max_height_mm / H)
    if scale < least_scale:  # the labels give way: each side's share of the room left, wrapped
        scale = least_scale
        room = width_mm - W * scale - RUN_MM * sum(1 for w in widest.values() if w)
        share = {side: room * widest[side] / sum(widest.values()) for side in widest}
        widest = {side: min(widest[side], share[side]) for side in widest}
        margins = {side: (widest[side] + RUN_MM if widest[side] else 0.0) for side in widest}
    lines = {label: wrap_label(label, widest[side], label_width) for (label, _), (side, _) in zip(parts, sides)}
    line_mm = label_mm * 1.2
    gap = label_mm * (LABEL_STEP - 1.2)
    height = max([H * scale] + [sum(len(lines[l]) * line_mm + gap for (l, _), (sd, _) in zip(parts, sides)
                                    if sd == side) for side in ("left", "right")])
    top = (height - H * scale) / 2
    used = margins["left"] + W * scale + margins["right"]
    card_x = (width_mm - used) / 2 + margins["left"]
    leaders = []
    for side in ("left", "right"):
        mine = sorted(((*_route(box, side, lane, label in texts, W), label) for (label, box), (sd, lane)
                       in zip(parts, sides) if sd == side), key=lambda t: (t[1], t[0]))
        heights = [len(lines[label]) * line_mm for *_, label in mine]
        ys = _spread([top + y * scale for _, y, *_ in mine], heights, gap, 0.0, height)
        for (x, y, _, label), label_y in zip(mine, ys):
            dot = (card_x + x * scale, top + y * scale)
            if side == "left":
                elbow = (card_x - ELBOW_MM, dot[1])
                label_x = card_x - RUN_MM
                end = (label_x + 1.5, label_y)
            else:
                elbow = (card_x + W * scale + ELBOW_MM, dot[1])
                label_x = card_x + W * scale + RUN_MM
                end = (label_x - 1.5, label_y)
            leaders.append(Leader(label, side, dot, elbow, end, label_x, label_y, tuple(lines[label])))
    return AnatomyLayout(card_x, scale, width_mm, height, tuple(leaders))


class AnatomyFlowable(Flowable):
    """The card with its parts' names at its sides, each joined to its part by a leader line
    (see anatomy_layout)."""

    def __init__(self, anatomy: Anatomy, deck: Deck, front: FrontMaker = templates.front):
        super().__init__()
        self.anatomy, self.deck = anatomy, deck
        self.face = front(anatomy.card, deck)
        self.layout: AnatomyLayout | None = None
        self.max_height_pt: float | None = None  # the book holds a figure to the page, less its caption
        # A part's place is a box, or a function that finds it on the face as laid out.
        self.parts = tuple((label, where(self.face) if callable(where) else where) for label, where in anatomy.parts)
        self.obstacles = face_text_boxes(self.face)
        # The rule text's directive that shows the figure, (path, line, what): a card that cannot
        # be drawn large enough to print its text is reported at it (see book._named).
        self.named: tuple[str, int, str] | None = None
        # The scale the card would have to shrink to, to fit the width and height it is held to,
        # when that is less than the scale that prints its text (wrap); None: it fits.
        self.unprintable: float | None = None

    def shrunk_ok(self) -> bool:
        """Whether the card, held to ``max_height_pt``, still prints all its text at 6 pt or more
        (or at print size, fine print its card prints smaller)."""
        return (self.layout is not None and self.unprintable is None
                and self.layout.scale >= min(legible_scale([smallest_text_pt(self.face)]), 1.0) - 1e-9)

    def check_printable(self) -> None:
        """Raise the RulebookError of a figure the rule text names whose card, as laid out (wrap),
        would have to shrink to fit its page until its text prints under 6 pt and under its print size."""
        if self.named is not None and self.unprintable is not None:
            raise small_text_error(self.named, smallest_text_pt(self.face) * self.unprintable)

    def wrap(self, avail_width, avail_height):
        size = self.anatomy.card.size
        room = [avail_width * MM_PER_POINT / size.width_mm]
        if self.max_height_pt is not None:
            room.append(self.max_height_pt * MM_PER_POINT / size.height_mm)
        # The card grows until its text prints at 6 pt. Fine print its card prints under 6 pt reads
        # at print size: such a card grows only as far as it leaves its labels room, as a card with
        # larger text does, and no less than print size.
        least = legible_scale([smallest_text_pt(self.face)])
        if least > 1.0:
            least = max(1.0, min(least, *room[1:], avail_width * MM_PER_POINT * LABELLED_SHARE / size.width_mm))
        self.layout = anatomy_layout(
            self.parts, size, self.obstacles, avail_width * MM_PER_POINT, LABEL_MM,
            lambda label: sum(fonts.text_width_mm(t, f, LABEL_MM) for t, f in _runs(label)),
            None if self.max_height_pt is None else self.max_height_pt * MM_PER_POINT, least)
        self.unprintable = min(room) if self.layout.scale > min(room) + 1e-9 else None
        height = mm_to_pt(self.layout.height)
        if self.unprintable is not None and self.max_height_pt is not None:
            # Said at the directive when drawn (check_printable), not as the page overflowing.
            height = min(height, self.max_height_pt)
        return avail_width, height

    def draw(self) -> None:
        from printkit.rulebook.book import register_fonts

        register_fonts()
        layout = self.layout
        assert layout is not None, "wrap() comes before draw()"
        self.check_printable()
        size, s, H = self.anatomy.card.size, layout.scale, layout.height
        card_top = (H - size.height_mm * s) / 2
        canvas = self.canv
        draw_ops(canvas, self.face.ops, layout.card_x, card_top, H, scale=s,
                 clip_mm=Box(0.0, 0.0, size.width_mm, size.height_mm))
        canvas.saveState()
        canvas.setStrokeColor(OUTLINE)
        canvas.setLineWidth(0.5)
        canvas.roundRect(mm_to_pt(layout.card_x), mm_to_pt(H - card_top - size.height_mm * s),
                         mm_to_pt(size.width_mm * s), mm_to_pt(size.height_mm * s),
                         mm_to_pt(size.corner_radius_mm * s), stroke=1, fill=0)
        canvas.setLineWidth(0.6)
        for leader in layout.leaders:
            canvas.setStrokeColor(LINE)
            canvas.setFillColor(LINE)
            path = canvas.beginPath()
            path.moveTo(mm_to_pt(leader.dot[0]), mm_to_pt(H - leader.dot[1]))
            path.lineTo(mm_to_pt(leader.elbow[0]), mm_to_pt(H - leader.elbow[1]))
            path.lineTo(mm_to_pt(leader.end[0]), mm_to_pt(H - leader.end[1]))
            canvas.drawPath(path, stroke=1, fill=0)
            canvas.circle(mm_to_pt(leader.dot[0]), mm_to_pt(H - leader.dot[1]), mm_to_pt(0.7), stroke=0, fill=1)
            canvas.setFillColor(INK)
            first = leader.label_y - (len(leader.lines) - 1) * LABEL_MM * 0.6  # the lines centred on the line's end
            for i, line in enumerate(leader.lines):
                _text(canvas, leader.label_x, H - first - i * LABEL_MM * 1.2 - LABEL_MM * 0.35, line, LABEL_MM,
                      anchor="end" if leader.side == "left" else "start")
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
