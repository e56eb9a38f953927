"""Designer layouts: a card face as a list of elements with boxes, bound to card attributes.

A :class:`Layout` is what a spec's ``layouts:`` compiles to (see :mod:`printkit.layout.compile`):
elements drawn in order, each with a box measured in the card's trim, bleed or safe frame, a
style, and strings with ``{attribute}`` placeholders. :func:`draw` turns a layout and a card into
the same drawing ops every other face is made of, so layouts print (and rasterise) exactly as
the games' own designs do.

Placeholders are read by :mod:`printkit.layout.placeholders`; besides the card's attributes a
template may read printkit's own values: ``{_group}`` the card's group, ``{_back_label}`` the
deck's back label (``art.back.label``), ``{_background_image}`` and ``{_back_image}`` the file
names of the card's background and back pictures, ``{_role}`` the card's role, ``{_languages}``
the rulebook's languages, English first, ``{_deck_name}`` the deck's name (the spec's ``name:``),
and ``{_attributes}`` every attribute no other element shows, as ``key: value`` lines.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, NamedTuple, Sequence

from printkit.deck import Card, CardSize, matches
from printkit.layout.anchors import Anchor, anchored_box
from printkit.layout.color import mix, on_color
from printkit.layout.geometry import Box, bleed_box, safe_box, trim_box
from printkit.layout.icons import Icon, ImageIcon
from printkit.layout.markup import BREAK, CODE, ICON, LITERAL, TEXT, tokenize
from printkit.layout.ops import Ellipse, Face, Image, Line, Op, Rect
from printkit.layout.plates import DEFAULT_BACKGROUND, text_plate
from printkit.layout.placeholders import ATTRIBUTES, LOOKUPS, Placeholder, Template, format_value, item_of, split_item
from printkit.memo import Memo
from printkit.spec.models import MIN_SPACING_MM
from printkit.layout.richtext import RichStyle, RichTextError, fit_rich, icon_names
from printkit.layout.shapes import hatch, lattice, turn_ops
from printkit.layout.text import SOFT_HYPHEN, font_chain
from printkit.suggest import close_match
from printkit.typography import smarten
from printkit.errors import DeckError, LayoutError

if TYPE_CHECKING:
    from printkit.layout.table import Table

# The card's ``role`` (aid, reference, marker, token; empty for a deck card): a condition's name too.
ROLE = "_role"
# The languages of the deck's rulebook, English first (English alone when it has none): a list,
# so ``{_languages[1]}`` is the second and ``when_has: _languages[1]`` asks whether there is one.
LANGUAGES = "_languages"
# A condition's name a card "has" when its art has a background picture (``when_lacks`` it: an
# opaque tint that would hide the picture steps aside).
BACKGROUND_IMAGE = "_background_image"
# Likewise for a back picture (art.back.image): a back's own drawing steps aside for it.
BACK_IMAGE = "_back_image"
# A condition's name a card has when its back has a label (art.back.label): what frames it is drawn.
BACK_LABEL = "_back_label"
# The deck's name (the spec's ``name:``), which every deck has: a back that prints the game's name
# reads it, so renaming the game renames its backs.
DECK_NAME = "_deck_name"
# printkit's own values that are the deck's or a card's art, not the card's own attributes.
DECK_VALUES = frozenset({LANGUAGES, BACKGROUND_IMAGE, BACK_IMAGE, BACK_LABEL, DECK_NAME})
DEFAULT_INK = "#1d1d1f"
DEFAULT_BACK = "#404040"
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
# A lattice's diamonds are this share of its spacing wide.
LATTICE_DIAMOND = 0.55


# --- compiled layouts --------------------------------------------------------------------------


@dataclass(frozen=True)
class Length:
    """A box length: millimetres, or a percentage of the frame's side, plus a percentage of the card's
    shorter side (``%short``); negative counts from the far edge."""

    value: float  # the size, negative only as a box sum's result ("0% - 1.5%")
    percent: bool = False
    from_end: bool = False  # written with a minus: measured from the right or bottom edge
    offset_mm: float = 0.0  # added to a percentage: "100% - 6mm"
    short_pct: float = 0.0  # a percentage of the card's shorter side (trim), added: "50% - 30%short"

    def mm(self, side_mm: float, short_mm: float = 0.0) -> float:
        own = self.value * side_mm / 100.0 + self.offset_mm if self.percent else self.value
        return own + self.short_pct * short_mm / 100.0


@dataclass(frozen=True)
class Element:
    """One compiled element; ``label`` names it in messages (its name, or its kind and index)."""

    kind: str
    label: str
    x: Length
    y: Length
    width: Length
    height: Length
    frame: str = "trim"
    name: str | None = None
    when: Mapping[str, Any] | None = None
    when_has: tuple[str, ...] = ()
    when_lacks: tuple[str, ...] = ()
    text: Template | None = None
    image: Template | None = None
    icon: Template | None = None
    font: Path | None = None
    font_bold: Path | None = None
    font_italic: Path | None = None
    size_mm: float = 4.0
    min_size_mm: float | None = None
    size_pct: float | None = None  # the size as a percentage of the box's height, instead of size_mm
    min_size_pct: float | None = None
    legibility_floor_mm: float | None = None  # a text's own floor for warnings, else the card's min_text_mm
    padding_mm: float = 0.0
    wrap: bool = True
    keep_words: bool = False  # a Hangul word never broken between syllables (RichStyle.keep_words)
    markup: bool = True
    plate: bool = False
    bold: bool = False
    italic: bool = False
    color: Template | None = None
    align: str = "start"
    valign: str = "top"
    line_spacing: float = 1.2
    paragraph_spacing: float = 0.35  # extra space before a paragraph, in text sizes
    rotate: int = 0
    both_ends: bool = False  # drawn again turned half a turn about the card's centre
    fit: str | None = None
    fill: Template | None = None
    stroke: Template | None = None
    stroke_width_mm: float = 0.3
    radius_mm: float = 0.0
    spacing_mm: float = 5.0  # a lattice's diamonds, centre to centre along a row; a hatch's stripes
    # Radius and spacing written as a share of the card's shorter side (``%short``), else 0.
    radius_short_pct: float = 0.0
    spacing_short_pct: float = 0.0
    clear_of: tuple[str, ...] = ()  # drawn only when its box overlaps none of these elements' boxes
    when_drawn: tuple[str, ...] = ()  # drawn only when these elements were drawn on the card
    unless_repeats: tuple[str, ...] = ()  # a text left out where it reads as one of these texts drawn
    border_mm: float = 0.0  # a hatch's stripes only this far in from its box's edges (0: everywhere)
    anchor: Anchor | None = None  # placed by a text drawn before it (printkit.layout.anchors)
    table: Table | None = None  # a table element's columns and rows
    source: str | None = None  # "spec.yaml:LINE:COLUMN" of the element
    # Where its picture, icon, text and colours (its table's too) are written, as (key in the element,
    # e.g. ("table", "rows", 2, "fill"), "spec.yaml:LINE:COLUMN"), and the layout that writes them: a
    # mistake in what the layout writes there itself, not a card, is said once, there.
    written: tuple[tuple[tuple[str | int, ...], str], ...] = ()
    written_in: str | None = None
    # What a rulebook's anatomy figure calls it: (language tag, label) pairs, "" for every language.
    labels: tuple[tuple[str, str], ...] = ()

    @cached_property
    def templates(self) -> tuple[Template, ...]:
        own = tuple(t for t in (self.text, self.image, self.icon, self.color, self.fill, self.stroke) if t)
        return own + (self.table.templates if self.table is not None else ())

    @property
    def reads(self) -> tuple[str, ...]:
        """Every attribute the element reads: in its strings and its conditions."""
        names = [n for t in self.templates for n in t.names]
        names += list(self.table.label_reads) if self.table is not None else []
        names += list(self.when or ()) + [split_item(n)[0] for n in self.when_has + self.when_lacks]
        return tuple(dict.fromkeys(names))

    def shown_for(self, card: Card, languages: Sequence[str] = ()) -> bool:
        if self.when_has and any(not _has(card, name, languages) for name in self.when_has):
            return False
        if self.when_lacks and any(_has(card, name, languages) for name in self.when_lacks):
            return False
        return self.when is None or matches(self.when, card.attrs)

    def box(self, size: CardSize) -> Box:
        """The element's box in the card frame (mm, y down)."""
        # The same few card sizes come back for every card: each box is worked out once.
        boxes = self.__dict__.setdefault("_boxes", {})
        box = boxes.get(size)
        if box is None:
            box = boxes[size] = self._box(size)
        return box

    def _box(self, size: CardSize) -> Box:
        frame = {"trim": Box(0.0, 0.0, size.width_mm, size.height_mm), "bleed": bleed_box(size),
                 "safe": safe_box(size)}[self.frame]
        short = short_side_mm(size)
        w, h = self.width.mm(frame.w_mm, short), self.height.mm(frame.h_mm, short)
        x, y = self.x.mm(frame.w_mm, short), self.y.mm(frame.h_mm, short)
        left = frame.right_mm - x - w if self.x.from_end else frame.x_mm + x
        top = frame.bottom_mm - y - h if self.y.from_end else frame.y_mm + y
        pad = self.padding_mm
        return Box(left + pad, top + pad, max(w - 2 * pad, 0.0), max(h - 2 * pad, 0.0))


@dataclass(frozen=True)
class Layout:
    name: str
    elements: tuple[Element, ...]
    # The spec's lookups (``lookups:``), each entry as text: {lookup[attribute]} reads them.
    lookups: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    requires: Mapping[str, Any] | None = None  # a match every card drawn must meet (``requires:``)

    @property
    def reads(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([n for e in self.elements for n in e.reads] + list(self.requires or ())))

    @cached_property
    def same_for_every_card(self) -> bool:
        """Whether the layout reads nothing of a card but the deck's values and the card's art (its
        back label, pictures and the rulebook's languages): it then draws every card of the same
        art and size alike. A ``when:`` or ``requires:`` match reads the card's own attributes,
        whatever their names."""
        if self.requires or any(e.when for e in self.elements):
            return False
        return all(split_item(name)[0] in DECK_VALUES for name in self.reads)

    @cached_property
    def lists_attributes(self) -> bool:
        """Whether an element prints the card's other attributes (``{_attributes}``)."""
        return any(ATTRIBUTES in t.names for e in self.elements for t in e.templates)

    @cached_property
    def anchored_to(self) -> frozenset[str]:
        """The names of the texts an element is anchored to: their extents are wanted."""
        return frozenset(e.anchor.to for e in self.elements if e.anchor is not None)

    @cached_property
    def repeated(self) -> frozenset[str]:
        """The names of the texts an element must not repeat (``unless_repeats``): their words are kept."""
        return frozenset(name for e in self.elements for name in e.unless_repeats)


@dataclass(frozen=True)
class Resources:
    """What drawing needs from outside: the deck's icons and a checked path for each image name."""

    icons: Mapping[str, Icon] = field(default_factory=dict)  # the deck's and the built-in ones
    image_path: Callable[[str], Path] = lambda name: Path(name)
    languages: tuple[str, ...] = ()  # the deck's rulebook's languages (``{_languages}``)
    deck_name: str = ""  # the deck's name (``{_deck_name}``); a game's own design reads none

    @cached_property
    def has_pictures(self) -> bool:
        """Whether an icon is drawn from a picture file (whose warnings a text setting it says)."""
        return any(isinstance(icon, ImageIcon) for icon in self.icons.values())


# --- drawing -----------------------------------------------------------------------------------


def card_face(layout: Layout, card: Card, resources: Resources, side: str = "front", *,
              proving: bool = False) -> Face:
    """:func:`draw`, a mistake named as the card's (a DeckError beginning with its label)."""
    try:
        return draw(layout, card, resources, side, proving=proving)
    except LayoutError as exc:
        raise DeckError(f"{card.label}: {exc}") from None


def draw(layout: Layout, card: Card, resources: Resources, side: str = "front", *,
         proving: bool = False) -> Face:
    """The face ``layout`` makes of ``card``: its background, its elements in order, its overlay.

    LayoutError names the element and what is wrong; the caller adds the card and where it came from.
    ``proving`` (a check, which draws nothing): a text a bound proves to fit is left out of the
    ops instead of set, and so are plain shapes (their colours are checked where the layout is
    bound to the card); the face's errors and warnings are the same.
    """
    check_requires(layout, card)
    size = card.size
    bleed = bleed_box(size)
    ops: list[Op] = []
    if side == "back":
        ops.append(_shared(Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, fill=card.art.back_color or DEFAULT_BACK)))
        if card.art.back_image is not None:
            ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.back_image, fit="cover"))
    else:
        ops.append(_shared(Rect(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm,
                                fill=card.art.color("background", DEFAULT_BACKGROUND))))
        if card.art.background_image is not None:
            ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.background_image, fit="cover"))
    warnings: list[str] = []
    for placed in laid_out(layout, card, resources, side, proving=proving):
        ops.extend(placed.ops)
        if placed.element.both_ends:
            ops.extend(turn_ops(placed.ops, 2, size.width_mm / 2, size.height_mm / 2))
        warnings.extend(placed.warnings)
    if side != "back" and card.art.foreground_image is not None:
        ops.append(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, card.art.foreground_image, fit="cover"))
    arts = (("back_image", card.art.back_image),) if side == "back" else (
        ("background_image", card.art.background_image), ("foreground_image", card.art.foreground_image))
    for key, art in arts:
        if art is not None:
            warnings.extend(picture_warnings(art, Path(art).name))
            warnings.extend(sharpness_warnings(Image(bleed.x_mm, bleed.y_mm, bleed.w_mm, bleed.h_mm, art, fit="cover"),
                                               card, f"art {key}", Path(art).name))
    return Face(tuple(ops), tuple(warnings))


class Placed(NamedTuple):
    """One element as :func:`draw` draws it on a card: the box it stands in, its ops and warnings."""

    element: Element
    box: Box
    ops: Sequence[Op]
    warnings: Sequence[str]


def laid_out(layout: Layout, card: Card, resources: Resources, side: str = "front", *,
             proving: bool = False) -> Iterator[Placed]:
    """Each element ``layout`` draws on ``card``, in order, where it stands: the one reading of an
    element's conditions, anchor, ``clear_of``, ``when_drawn`` and ``unless_repeats``, which both
    :func:`draw` and a figure pointing at the card's parts (:func:`placed_boxes`) follow.

    An element is drawn as it is reached (an anchor stands by its text as set); ``proving`` as for
    :func:`draw`, whose LayoutError naming the element this raises.
    """
    size = card.size
    languages = english_first(resources.languages)
    shown = [e for e in layout.elements if e.shown_for(card, languages)]
    values = own_values(card, languages, resources.deck_name)
    values[LOOKUPS] = layout.lookups
    if layout.lists_attributes and any(ATTRIBUTES in t.names for e in shown for t in e.templates):
        values[ATTRIBUTES] = _attribute_lines(card, shown, values)
    extents: dict[str, Box] = {}  # where the texts anchored to were set on this card
    pictures_said: set[str] = set()  # the icons' picture warnings said on this face (each once)
    boxes: dict[str, Box] = {}  # the boxes of the named elements drawn so far (for clear_of)
    words: dict[str, str] = {}  # the words of the texts drawn so far that another must not repeat
    for element in shown:
        box = _placed_box(element, size, extents)
        if box is None or (element.clear_of and any(name in boxes and box.intersects(boxes[name])
                                                    for name in element.clear_of)) \
                or (element.when_drawn and any(name not in boxes for name in element.when_drawn)) \
                or (element.unless_repeats and _repeats(element, values, words)):
            continue
        if element.name is not None:
            boxes[element.name] = box
            if element.name in layout.repeated:
                words[element.name] = _words(element, values)
        wanted = element.name in layout.anchored_to
        try:
            drawn, said, extent = _draw_element(element, card, values, resources, proving and not wanted, box, side,
                                                pictures_said)
        except (LayoutError, RichTextError) as exc:
            raise LayoutError(f"layout {layout.name!r}, element {element.label}: {exc}") from None
        if wanted and extent is not None:
            extents[element.name] = extent
        if element.anchor is not None:  # its box is known only now, where its text was set
            said = list(said) + anchored_warnings(element, box, card, side)
        yield Placed(element, box, drawn, said)


def footprint(element: Element, box: Box) -> Box:
    """Where ``element`` drawn in ``box`` prints: a text or picture turns within its box, any other
    element turns about the box's centre, so with ``rotate`` 90 or 270 its box turns with it."""
    if element.rotate in (90, 270) and element.kind not in ("text", "image"):
        return Box(box.cx_mm - box.h_mm / 2, box.cy_mm - box.w_mm / 2, box.h_mm, box.w_mm)
    return box


# Lengths within this of an edge count as on it (the sums of percentages and millimetres round).
EDGE_EPS_MM = 0.01


def anchored_warnings(element: Element, box: Box, card: Card, side: str = "front") -> list[str]:
    """What ``card`` says of ``element``, anchored to a text and placed in ``box`` where that text was
    set on it: that it runs past the cut on a side its anchor places it (``x``: left or right, ``y``:
    top or bottom), or, a text, that it leaves the safe zone, as a text's written box is warned of."""
    anchor, size = element.anchor, card.size
    drawn = footprint(element, box)
    cut = drawn.past(trim_box(size))
    placed = (("left", "right") if anchor.x is not None else ()) + (("top", "bottom") if anchor.y is not None else ())
    past = {name: cut[name] for name in placed}
    sides = [name for name, out in past.items() if out > EDGE_EPS_MM]
    where = f"{card.cut_label} {_named(element, side)}"
    if sides:
        return [f"{where}: placed by {anchor.to!r} as it is set on this card, it runs "
                f"{max(past[name] for name in sides):.2f} mm past the cut on the {' and '.join(sides)}; give "
                f"this card a shorter {anchor.to!r}, or the element a smaller gap or box, or clear_of an "
                "element at that edge so it is left out where it does not fit"]
    if element.kind == "text":
        out = max(drawn.past(safe_box(size)).values())
        if out > EDGE_EPS_MM:
            return [f"{where}: placed by {anchor.to!r} as it is set on this card, the text box leaves the "
                    f"safe zone by {out:.2f} mm; a cut that wanders can take its text off"]
    return []


def placed_boxes(layout: Layout, card: Card, resources: Resources) -> dict[str, Box]:
    """Where each named element of ``layout`` stands on ``card`` as :func:`draw` places it (for a
    figure that points at it), by name; an element the card does not draw is left out."""
    # Proving: a text no anchor reads need not be set to know where its box stands.
    return {p.element.name: p.box for p in laid_out(layout, card, resources, proving=True)
            if p.element.name is not None}


def _words(element: Element, values: Mapping[str, Any]) -> str:
    """What a text element says on the card, as compared for ``unless_repeats``: its text filled in,
    without the spaces around it."""
    return element.text.render(values).strip() if element.text is not None else ""


def _repeats(element: Element, values: Mapping[str, Any], words: Mapping[str, str]) -> bool:
    """Whether ``element`` would print the same words as one of the texts it names in ``unless_repeats``
    (those drawn on the card)."""
    own = _words(element, values)
    return any(words.get(name) == own for name in element.unless_repeats)


def short_side_mm(size: CardSize) -> float:
    """The card's shorter side (trim), which ``%short`` lengths are shares of."""
    return min(size.width_mm, size.height_mm)


def english_first(languages: Sequence[str]) -> tuple[str, ...]:
    """The rulebook's ``languages`` with English first, as printkit's own components name things
    (English alone for a deck without a rulebook)."""
    return _english_first(tuple(languages))


# Every card of a deck asks with the same few languages: each order is worked out once.
@lru_cache(maxsize=64)
def _english_first(languages: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(languages, key=lambda lang: lang != "en")) or ("en",)


def check_requires(layout: Layout, card: Card) -> None:
    """LayoutError unless ``card`` meets the layout's ``requires:`` match (a card the design does not
    draw, such as an aid of a kind or language it has no words for)."""
    if layout.requires is None or matches(layout.requires, card.attrs):
        return
    wanted = "; ".join(f"{key} {' or '.join(repr(v) for v in (value if isinstance(value, list) else [value]))}"
                       for key, value in layout.requires.items())
    have = ", ".join(f"{key} {card.attrs[key]!r}" if key in card.attrs else f"no {key}"
                     for key in layout.requires)
    raise LayoutError(f"layout {layout.name!r} draws only cards with {wanted}; this card has {have}")


def _has(card: Card, name: str, languages: Sequence[str] = ()) -> bool:
    if name == ROLE:
        return card.role is not None
    if name.startswith(LANGUAGES):
        base, index = split_item(name)
        if base == LANGUAGES:  # _languages[1]: the rulebook has a second language
            return (index or 0) < len(english_first(languages))
    if name == BACKGROUND_IMAGE:
        return card.art.background_image is not None
    if name == BACK_IMAGE:
        return card.art.back_image is not None
    if name == BACK_LABEL:
        return bool(card.art.back_label)
    if name == DECK_NAME:
        return True  # every spec names its deck
    if name.endswith("]"):  # minerals[2]: the list attribute has a third item
        attr, index = split_item(name)
        return attr in card.attrs and index is not None and item_of(card.attrs[attr], index) is not None
    return name in card.attrs


def own_values(card: Card, languages: Sequence[str] = (), deck_name: str = "") -> dict[str, Any]:
    """What a card's placeholders may read: its attributes and printkit's own values but
    ``_attributes``, with the deck's rulebook's ``languages`` and the deck's name."""
    picture, back_picture = card.art.background_image, card.art.back_image
    return {**card.attrs, "_group": card.group, "_back_label": card.art.back_label or "",
            BACKGROUND_IMAGE: picture.name if picture is not None else "",
            BACK_IMAGE: back_picture.name if back_picture is not None else "", ROLE: card.role or "",
            LANGUAGES: list(english_first(languages)), DECK_NAME: deck_name}


def picture_warnings(path: Path, shown: str) -> tuple[str, ...]:
    """What printkit cannot draw as written in the picture ``shown`` (an SVG's filters, masks...,
    each naming the element and its line; a 16-bit PNG's transparent colour), each a warning naming
    the picture."""
    from printkit import images  # a face of no picture never loads the pictures' checks

    return tuple(f"picture {shown!r}: {warning}" for warning in images.picture_warnings(path))


def icon_warnings(names: Sequence[str], icons: Mapping[str, Icon], where: object,
                  said: set[str] | None = None) -> list[str]:
    """What printkit cannot draw as written in the pictures of the icons ``names`` (those of ``icons``
    drawn from a picture file), as :func:`picture_warnings` says it of an image, each said of
    ``where`` (the card and element or text that sets the icon) and the icon. A warning about a
    picture in ``said`` (said already on the face) is not said again; the rest are added to it."""
    said = set() if said is None else said
    out: list[str] = []
    for name in names:
        icon = icons.get(name)
        if not isinstance(icon, ImageIcon):  # a shape printkit draws itself: nothing it cannot draw
            continue
        for warning in picture_warnings(icon.path, icon.shown or Path(icon.path).name):
            if warning not in said:
                said.add(warning)
                out.append(f"{where}: icon {name!r}: {warning}")
    return out


def sharpness_warnings(image: Image, card: Card, where: str, shown: str) -> tuple[str, ...]:
    """A warning when the picture ``image`` draws prints below :data:`~printkit.layout.resolution.LOW_DPI`
    (:mod:`printkit.layout.resolution`), beginning with the card's label and ``where`` (the
    element, or the art key) so that a build says it once per picture, place and size."""
    from printkit.layout.resolution import low_resolution

    said = low_resolution(image)
    return (f"{card.cut_label} {where}: picture {shown!r}: {said}",) if said else ()


def icon_sharpness(ops: Sequence[Op], names: Sequence[str], icons: Mapping[str, Icon], card: Card,
                   where: str) -> list[str]:
    """:func:`sharpness_warnings` of the icons ``names`` (of ``icons``) drawn from a PNG or JPEG,
    where ``ops`` draw them: each picture once per size it is drawn at, said of ``where`` (the
    element) and the icon."""
    pictured = [(name, icon) for name in names if isinstance(icon := icons.get(name), ImageIcon)]
    if not pictured:  # built-in icons: a face of no picture never loads the pictures' checks
        return []
    from printkit.images import is_svg

    drawn = {}
    for name, icon in pictured:
        if not is_svg(icon.path):
            drawn.setdefault(Path(icon.path), (name, icon.shown or Path(icon.path).name))
    if not drawn:
        return []
    said: dict[str, None] = {}
    for op in ops:
        if isinstance(op, Image) and Path(op.path) in drawn:
            name, shown = drawn[Path(op.path)]
            for warning in sharpness_warnings(op, card, f"{where}: icon {name!r}", shown):
                said.setdefault(warning)
    return list(said)


def _placed_box(element: Element, size: CardSize, extents: Mapping[str, Box]) -> Box | None:
    """The element's box, moved by its anchor against the text it is anchored to as that text was
    set (``extents``); None when that text is not drawn on this card, so neither is the element."""
    box = element.box(size)
    if element.anchor is None:
        return box
    extent = extents.get(element.anchor.to)
    return None if extent is None else anchored_box(box, element.padding_mm, element.anchor, extent)


def _draw_element(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
                  proving: bool = False, box: Box | None = None, side: str = "front",
                  pictures_said: set[str] | None = None) -> tuple[Sequence[Op], Sequence[str], Box | None]:
    """The element's ops and warnings, and for a text where it was set (its extent, or None).

    ``pictures_said``: the warnings about its icons' pictures the face has said already (see
    :func:`icon_warnings`), added to."""
    box = element.box(card.size) if box is None else box
    if element.kind == "text":  # text turns inside its box itself
        return _text(element, card, values, resources, box, proving, side, pictures_said)
    if proving and element.kind in _PLAIN_SHAPES:  # nothing to warn of, colours checked when bound
        return (), (), None
    if element.kind == "table":
        ops, warnings = _table(element, card, values, resources, box, side)
    else:
        ops, warnings = _draw_shape(element, card, values, resources, box, side=side, pictures_said=pictures_said)
    if element.rotate and element.kind != "image":  # a picture turns inside its box itself
        ops = turn_ops(ops, element.rotate // 90, box.cx_mm, box.cy_mm)
    return ops, warnings, None


# Shapes that say nothing of a card but their colours, which binding the layout to the card checked
# (:func:`printkit.layout.compile.bind`): a check, which draws nothing, leaves them out of its faces.
_PLAIN_SHAPES = frozenset({"rect", "ellipse", "line", "lattice", "hatch"})


def _draw_shape(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
                box: Box, side: str = "front",
                pictures_said: set[str] | None = None) -> tuple[Sequence[Op], Sequence[str]]:
    if element.kind == "image":
        if not (box.w_mm > 0 and box.h_mm > 0):
            return (), ()
        name = element.image.render(values)
        path = resources.image_path(name)
        # Turned, then fitted into its box: like a text, a turned picture fills (or fits) its own box.
        image = Image(box.x_mm, box.y_mm, box.w_mm, box.h_mm, path, fit=element.fit or "cover",
                      quarter_turns=element.rotate // 90 % 4)
        where = _named(element, side) + (f" ({element.source})" if element.source else "")
        return (image,), picture_warnings(path, name) + sharpness_warnings(image, card, where, name)
    if element.kind == "icon":
        name = element.icon.render(values)
        icon = find_icon(name, resources.icons)
        color = color_of(element.color, values, card) if element.color else None
        if element.stroke is not None:
            icon = outlined_icon(name, icon, color_of(element.stroke, values, card))
        said = icon_warnings((name,), resources.icons, _Where(card, _named(element, side)), pictures_said)
        ops = icon_ops(icon, element.fit, box, color)
        return ops, said + icon_sharpness(ops, (name,), resources.icons, card, _named(element, side))
    fill = color_of(element.fill, values, card) if element.fill else None
    stroke = color_of(element.stroke, values, card) if element.stroke else None
    if element.kind == "rect":
        return (_shared(Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=fill, stroke=stroke,
                          stroke_mm=element.stroke_width_mm,
                          radius_mm=_mm_and_share(element.radius_mm, element.radius_short_pct, card.size))),), ()
    if element.kind == "ellipse":
        return (_shared(Ellipse(box.cx_mm, box.cy_mm, box.w_mm / 2, box.h_mm / 2, fill=fill, stroke=stroke,
                             stroke_mm=element.stroke_width_mm)),), ()
    if element.kind == "lattice":
        return lattice(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, box.cx_mm, box.cy_mm, _spacing(element, card),
                       fill or _ink(card), size=LATTICE_DIAMOND), ()
    if element.kind == "hatch":
        return hatch(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, _spacing(element, card), fill or _ink(card),
                     element.border_mm), ()
    if element.kind == "line":
        return (_shared(Line(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, color=stroke or _ink(card),
                          width_mm=element.stroke_width_mm)),), ()
    raise LayoutError(f"unknown element kind {element.kind!r}")


# Equal shapes (a frame, a band in its type's colour, the background) are drawn on thousands of
# cards of a big deck: each is kept once. Ops are immutable, so sharing one changes nothing drawn.
_SHAPES = Memo("shapes", entries=4096)


def _mm_and_share(mm: float, short_pct: float, size: CardSize) -> float:
    """``mm`` plus ``short_pct`` percent of the card's shorter side: a radius or spacing as written."""
    return mm + short_pct * short_side_mm(size) / 100


def _spacing(element: Element, card: Card) -> float:
    """A pattern's spacing on ``card``: millimetres, or a share of its shorter side in their place
    (not added to the 5 mm default); never under 0.5 mm, so ``0%short`` is not a pattern without end."""
    mm = 0.0 if element.spacing_short_pct else element.spacing_mm
    return max(_mm_and_share(mm, element.spacing_short_pct, card.size), MIN_SPACING_MM)


def _shared(op: Op) -> Op:
    kept = _SHAPES.get(op)
    if kept is None:
        _SHAPES.put(op, op)
        kept = op
    elif _zero_signs(kept) != _zero_signs(op):  # 0.0 == -0.0, yet they may print differently
        return op
    return kept


def _zero_signs(op: Op) -> tuple[float, ...]:
    return tuple(math.copysign(1.0, value) for value in map(op.__getattribute__, op.__slots__)
                 if value == 0 and isinstance(value, float))


def _named(element: Element, side: str) -> str:
    """How a message names the element: on a back, as the back's (``back label``)."""
    name = element.name or element.label
    return f"back {name}" if side == "back" else name


class _Where:
    """"<card> <element>", the start of a text's messages, made only if one is said: most texts
    say nothing, and naming each card of a 10,000-card deck would keep 10,000 names."""

    __slots__ = ("card", "element")

    def __init__(self, card: Card, element: str) -> None:
        self.card, self.element = card, element

    def __str__(self) -> str:
        return f"{self.card.cut_label} {self.element}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _text(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
          box: Box, proving: bool = False, side: str = "front",
          pictures_said: set[str] | None = None) -> tuple[Sequence[Op], Sequence[str], Box | None]:
    # Curly quotes and minus signs are set before measuring; '*' is markup, not text, for the quotes.
    markup = smarten(_text_markup(element, values), transparent="*")
    if not markup.strip():
        return (), (), None
    if element.italic:
        markup = f"*{markup}*"
    turned = element.rotate in (90, 270)
    inner = Box(box.cx_mm - box.h_mm / 2, box.cy_mm - box.w_mm / 2, box.h_mm, box.w_mm) if turned else box
    if not (inner.w_mm > 0 and inner.h_mm > 0):
        return (), (), None
    style = _style(element, card, color_of(element.color, values, card) if element.color else _ink(card))
    size = element.size_pct * inner.h_mm / 100 if element.size_pct is not None else element.size_mm
    if element.min_size_pct is not None:
        minimum = element.min_size_pct * inner.h_mm / 100
    else:
        minimum = element.min_size_mm if element.min_size_mm is not None else min(size, 2.0)
    if not size > 0:
        return (), (), None
    where = _Where(card, _named(element, side))
    unbroken = None
    if not element.wrap:  # as large as keeps every line whole, but never below the minimum
        unbroken = _unbroken_size(markup, style.regular, inner.w_mm, where)
        size = max(min(size, unbroken), min(minimum, size))
    floor = card.size.min_text_mm if element.legibility_floor_mm is None else element.legibility_floor_mm
    fitted = fit_rich(markup, inner, style, max_size_mm=size, min_size_mm=min(minimum, size),
                      fit="none" if element.fit == "none" else "shrink", icons=resources.icons,
                      where=where, palette=palette(card) if "]{" in markup else None,
                      prove_from_mm=floor if proving and not element.plate else None)
    ops = fitted.ops
    warnings = list(fitted.warnings)
    if unbroken is not None and unbroken / _UNBROKEN_SLACK < size - 1e-6:  # wider than the box even unslacked
        warnings.append(f"{where}: a line of this wrap: false text is wider than its box even at {size:.2f} mm "
                        f"({size * 72 / 25.4:.1f} pt), its smallest size: it is broken onto more lines; give it a "
                        f"wider box, fewer words or a smaller min_size")
    if (ops or fitted.proved) and fitted.size_mm < floor - 1e-6 and not fitted.warnings:  # an overflow says it already
        warnings.append(f"{where}: text set at {fitted.size_mm:.2f} mm ({fitted.size_mm * 72 / 25.4:.1f} pt), below the "
                        f"legibility floor of {floor:.2f} mm ({floor * 72 / 25.4:.3g} pt); give it a larger box or "
                        f"fewer words, or lower {_floor_key(element)}")
    if ":" in markup and resources.has_pictures:  # an icon is written :name:
        names = icon_names(markup)
        warnings += icon_warnings(names, resources.icons, where, pictures_said)
        warnings += icon_sharpness(ops, names, resources.icons, card, _named(element, side))
    extent = fitted.extent
    if element.rotate:
        ops = turn_ops(ops, element.rotate // 90, box.cx_mm, box.cy_mm)
        extent = _turned_extent(extent, element.rotate // 90, box)
    cut = past_the_cut(extent, box, card.size) if fitted.warnings and extent is not None else None
    if cut:  # said with what the text's fitting warned of, on its line
        warnings[0] += f"; {cut}"
    if element.plate:
        ops = tuple(text_plate(card, ops)) + tuple(ops)
    return ops, warnings, extent


def past_the_cut(extent: Box, box: Box, size: CardSize) -> str | None:
    """What a text set beyond its ``box`` (it did not fit) adds to its warning when the lines set
    there (their ``extent``, to the last baseline: the letters reach a little further) reach past
    the trim, where the cut takes them off, or else past the safe zone, where a cut that wanders
    can; None when they stay inside it."""
    beyond = {side for side, out in extent.past(box).items() if out > EDGE_EPS_MM}
    for edge, name, fate in ((trim_box(size), "trim", "will be cut off"),
                             (safe_box(size), "safe zone", "may be cut off by a cut that wanders")):
        out = {side: length for side, length in extent.past(edge).items() if side in beyond and length > EDGE_EPS_MM}
        if out:
            return (f"the text runs out of its box and at least {max(out.values()):.2f} mm past the {name} at the "
                    f"{' and '.join(out)}: what lies there {fate}; give it a larger box or fewer words")
    return None


def _style(element: Element, card: Card, color: str) -> RichStyle:
    """The text element's style on ``card`` in ``color``: the same few on every card of a deck,
    each made once per element (by the card's fonts and the colour)."""
    styles = element.__dict__.setdefault("_styles", {})
    key = (card.art.font, card.art.font_bold, color)
    style = styles.get(key)
    if style is None:
        regular, bold = _chains(element, card)
        style = styles[key] = RichStyle(
            regular=bold if element.bold else regular, bold=bold,
            italic=(element.font_italic,) + regular if element.font_italic else None, color=color,
            align=element.align, valign=element.valign, leading=element.line_spacing,
            keep_words=element.keep_words, paragraph_gap=element.paragraph_spacing)
    return style


def _floor_key(element: Element) -> str:
    """The key that sets the legibility floor a text is held to: its own, else the card's."""
    if element.legibility_floor_mm is None:
        return "card.min_text_size (or, for a text small by design, its own legibility_floor)"
    return "its legibility_floor"


def _turned_extent(extent: Box | None, quarter_turns: int, box: Box) -> Box | None:
    """A text's extent turned with its text about its box's centre."""
    if extent is None:
        return None
    (turned,) = turn_ops((Rect(extent.x_mm, extent.y_mm, extent.w_mm, extent.h_mm),), quarter_turns,
                         box.cx_mm, box.cy_mm)
    return Box(turned.x_mm, turned.y_mm, turned.w_mm, turned.h_mm)


def _table(element: Element, card: Card, values: Mapping[str, Any], resources: Resources,
           box: Box, side: str = "front") -> tuple[Sequence[Op], Sequence[str]]:
    """A table element (:mod:`printkit.layout.table`): its ink is ``color``, its lines ``stroke``."""
    from printkit.layout.table import draw_table  # loaded by the decks that have a table

    ink = color_of(element.color, values, card) if element.color else _ink(card)
    stroke = color_of(element.stroke, values, card) if element.stroke else _ink(card)
    return draw_table(element.table, box, values, lambda t: color_of(t, values, card), ink, stroke,
                      element.stroke_width_mm, _chains(element, card),
                      _Where(card, _named(element, side)))


def _text_markup(element: Element, values: Mapping[str, Any]) -> str:
    """The element's text as markup: as written, or (``markup: false``) escaped to print literally."""
    return element.text.render(values, None if element.markup else escape_markup)


# Widths are measured as plain text; markup and icons make a line a little wider or narrower, so
# an unbroken size keeps this much room.
_UNBROKEN_SLACK = 0.97


def _unbroken_size(markup: str, chain: tuple[Path, ...], width_mm: float, where: object) -> float:
    """The largest size at which no line of ``markup`` (measured as the text it prints, an icon as its
    ``:name:``, a soft hyphen as nothing) is wider than ``width_mm``."""
    from printkit.layout.text import _width_mm

    try:
        tokens = tokenize(markup)
    except RichTextError as exc:
        raise RichTextError(f"{where}: {exc}") from None
    lines: list[list[str]] = [[]]
    for kind, value, _ in tokens:
        if kind == BREAK:
            lines.append([])
        elif kind in (TEXT, LITERAL, CODE, ICON):
            lines[-1].append(f"`{value}`" if kind == CODE else f":{value}:" if kind == ICON else value)
    widest = max(_width_mm("".join(line).strip().replace(SOFT_HYPHEN, ""), chain, 1.0) for line in lines)
    return width_mm * _UNBROKEN_SLACK / widest if widest > 0 else float("inf")


def _attribute_lines(card: Card, shown: Sequence[Element], values: Mapping[str, Any]) -> str:
    """The card's attributes that no shown element displays, one ``key: value`` line each, as text
    that prints as written (markup characters escaped)."""
    used = {n for e in shown for t in e.templates if ATTRIBUTES not in t.names for n in t.shown(values)}
    lines = [f"{key}: {format_value(value, Placeholder((key,)))}" for key, value in card.attrs.items() if key not in used]
    return "\n".join(escape_markup(line) for line in lines)


def escape_markup(text: str) -> str:
    """``text`` with the characters rich text reads as markup escaped, so it prints as written."""
    escaped = text.replace("\\", "\\\\").replace("*", "\\*").replace(":", "\\:").replace("`", "\\`")
    return escaped.replace("]{", "\\]{") if "]{" in escaped else escaped  # not a span


def _chains(element: Element, card: Card) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    regular = font_chain(card, bold=False)
    bold = font_chain(card, bold=True)
    if element.font is not None:
        regular = tuple(dict.fromkeys((element.font,) + regular))
        bold = tuple(dict.fromkeys(((element.font_bold or element.font),) + bold))
    elif element.font_bold is not None:
        bold = tuple(dict.fromkeys((element.font_bold,) + bold))
    return regular, bold


def find_icon(name: str, icons: Mapping[str, Icon]) -> Icon:
    """The icon ``name`` (``icons`` holds the deck's and the built-in ones); LayoutError naming the known ones."""
    icon = icons.get(name)
    if icon is None:
        hint = close_match(name, icons)
        meant = f" (did you mean {hint!r}?)" if hint else ""
        raise LayoutError(f"unknown icon {name!r}{meant}; known: {', '.join(sorted(icons))}")
    return icon


def outlined_icon(name: str, icon: Icon, stroke: str) -> Icon:
    """``icon`` with its outline in ``stroke`` (an icon element's ``stroke``), for icons that have an
    outline of their own to colour (``outlined``: Stack's minerals, a halo on a dark ground)."""
    outlined = getattr(icon, "outlined", None)
    if outlined is None:
        raise LayoutError(f"icon {name!r} has no outline to colour with stroke (leave stroke out; "
                          "icons with an outline: Stack's minerals)")
    return outlined(stroke)


def icon_ops(icon: Icon, fit: str | None, box: Box, color: str | None) -> tuple[Op, ...]:
    """``icon`` drawn in ``box`` as an icon element's ``fit`` says.

    ``contain`` (default): the drawing fitted and centred in the largest square of the box.
    ``square``: that square is the icon's own (``in_square``), the drawing where its maker placed it
    (Stack's gems sit as on Stack's cards), not fitted to its outline. ``stretch``: an icon of a
    shape of its own (``in_box``, a Stack terrain's scene) fills the whole box. An icon without the
    method asked for is fitted.
    """
    stretched = getattr(icon, "in_box", None) if fit == "stretch" else None
    if stretched is not None:
        return stretched(box.x_mm, box.y_mm, box.w_mm, box.h_mm, color)
    draw = getattr(icon, "in_square", icon.ops) if fit == "square" else icon.ops
    side = min(box.w_mm, box.h_mm)
    return draw(box.cx_mm - side / 2, box.cy_mm - side / 2, side, color)


def palette(card: Card) -> dict[str, str]:
    """The colour names a span in the card's text may use: its ``art.colors``, ink and background."""
    return {"ink": DEFAULT_INK, "background": DEFAULT_BACKGROUND, **card.art.colors}


def _ink(card: Card) -> str:
    return card.art.color("ink", DEFAULT_INK)


def color_of(template: Template, values: Mapping[str, Any], card: Card) -> str:
    """A colour from a template: ``#rrggbb`` (or ``#rgb``), a name in the card's ``art.colors``,
    ``mix(A, B, T)``, colour A moved the fraction T (0 to 1) of the way towards colour B, or
    ``on(A)``, white or the card's ink, whichever reads better on colour A."""
    text = template.render(values).strip()
    on = _ON.match(text)
    if on is not None:
        return _on_color(on.group(1).strip(), card)
    mixed = _MIX.match(text)
    if mixed is None:
        return _plain_color(text, card)
    first, second, amount = (part.strip() for part in mixed.group(1).split(","))
    try:
        t = float(amount)
    except ValueError:
        t = math.nan
    if not 0 <= t <= 1:
        raise LayoutError(f"{text!r}: the amount {amount!r} of a mix is not a number from 0 to 1")
    return mix(_plain_color(first, card), _plain_color(second, card), t)


def color_names(text: str) -> tuple[str, ...]:
    """The ``art.colors`` names a colour as written reads (two for a ``mix``, none for ``#rrggbb``)."""
    text = text.strip()
    on = _ON.match(text)
    if on is not None:
        text = on.group(1).strip()
    mixed = _MIX.match(text)
    parts = [p.strip() for p in mixed.group(1).split(",")[:2]] if mixed else [text]
    return tuple(p for p in parts if p and not p.startswith("#"))


# mix(A, B, T): exactly three parts, none holding brackets (linear time, no nesting).
_MIX = re.compile(r"^mix\(([^(),]*,[^(),]*,[^(),]*)\)$")
# on(A): one colour, no brackets inside.
_ON = re.compile(r"^on\(([^(),]*)\)$")


def _on_color(text: str, card: Card) -> str:
    """``on(A)``: white or the card's ink, whichever reads better on a fill of colour A (a title on a
    band of a colour the designer may change)."""
    if not text:
        raise LayoutError("'on()' names no colour: write on(A), A a colour such as '#1f3b5a' or a name in art.colors")
    return on_color(_plain_color(text, card), _ink(card))


def _plain_color(text: str, card: Card) -> str:
    if _HEX.match(text):
        if len(text) == 4:
            text = "#" + "".join(ch * 2 for ch in text[1:])
        return text.lower()
    palette = card.art.colors
    if text in palette:
        return palette[text]
    defaults = {"ink": DEFAULT_INK, "background": DEFAULT_BACKGROUND, "back": card.art.back_color or DEFAULT_BACK}
    if text in defaults:
        return defaults[text]
    names = set(palette) | set(defaults)
    hint = close_match(text, names)
    meant = f" (did you mean {hint!r}?)" if hint else ""
    raise LayoutError(f"{text!r} is not a colour such as '#1f3b5a' nor a name in art.colors{meant} "
                      f"(names: {', '.join(sorted(names))})")
