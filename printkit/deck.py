"""The expanded deck: concrete cards and components, the one thing layout and rules read."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from printkit.errors import SpecError
from printkit.paper import unfit_message

Scalar = str | int | float | bool

# printkit's own values a layout's templates read beside a card's attributes ({_group},
# {_back_label}, ...): no attribute may take one of their names, which a template would read as
# printkit's.
OWN_VALUES = ("_group", "_attributes", "_back_label", "_background_image", "_back_image", "_role", "_languages",
              "_deck_name")


def own_value_message(name: str) -> str:
    """Why ``name`` (one of :data:`OWN_VALUES`) cannot name an attribute."""
    return (f"{name!r} is printkit's own value that a layout reads as {{{name}}}, not an attribute's name: "
            f"name the attribute otherwise (say {name.lstrip('_')!r})")


# Trim sizes of the named card formats in millimetres (width, height), portrait. Poker, bridge and
# mini are inch formats, stored exactly (2.5 x 3.5 in is 63.5 x 88.9 mm) so 300 DPI images come
# out at whole pixel counts.
CARD_SIZES_MM: Mapping[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),    # 2.5 x 3.5 in (nominally 63 x 88 mm)
    "bridge": (57.15, 88.9),  # 2.25 x 3.5 in
    "mini": (44.45, 63.5),    # 1.75 x 2.5 in
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}


def named_card_size_mm(name: str) -> tuple[float, float]:
    """The trim size of a named card format; ValueError naming the choices otherwise."""
    try:
        return CARD_SIZES_MM[name.lower()]
    except KeyError:
        raise ValueError(f"unknown card size {name!r} (expected one of: {', '.join(CARD_SIZES_MM)})") from None


@dataclass(frozen=True)
class CardSize:
    """A card's trim size, bleed and safe margin, all in millimetres."""

    width_mm: float
    height_mm: float
    bleed_mm: float = 3.0
    safe_mm: float = 3.0
    corner_radius_mm: float = 3.0
    name: str | None = None
    min_text_mm: float = 6 * 25.4 / 72  # the legibility floor: 6 pt

    @property
    def bleed_width_mm(self) -> float:
        return self.width_mm + 2 * self.bleed_mm

    @property
    def bleed_height_mm(self) -> float:
        return self.height_mm + 2 * self.bleed_mm


@dataclass(frozen=True)
class Art:
    """Resolved art settings for one card (deck < group < card, later wins).

    ``colors`` is a palette of named colours (``#rrggbb``) that card templates look up by name
    (e.g. ``plus``, ``ruby``, ``hearts``, ``background``). Image and font values are absolute paths
    already checked to lie inside the spec's folder or printkit's ``fonts/``.
    """

    colors: Mapping[str, str] = field(default_factory=dict)
    font: Path | None = None
    font_bold: Path | None = None
    background_image: Path | None = None
    foreground_image: Path | None = None
    back_image: Path | None = None
    back_color: str | None = None
    back_label: str | None = None
    # A colour's name -> "spec.yaml:LINE:COLUMN" where the level that gave it wrote it (for warnings).
    colors_at: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def color(self, name: str, default: str) -> str:
        return self.colors.get(name, default)


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: its attributes (``symbol``, ``number``, ``suit`` …) and its art."""

    uid: str
    group: str
    attrs: Mapping[str, Any]
    art: Art
    size: CardSize
    copy: int = 1  # 1-based copy number among identical cards
    source: str | None = None  # "spec.yaml:LINE:COLUMN" of the spec entry that made this card
    layout: str | None = None  # the spec's layout drawing the front (None: the game's own design)
    back_layout: str | None = None  # the spec's layout drawing the back
    face_on_both_sides: bool = False  # the back is the front again (a token)
    from_data: bool = False  # made by a row of a data file: ``source`` is ``FILE:ROW`` (``cards.xlsx:Cards!22``)
    role: str | None = None  # aid, reference or marker: the card gets printkit's back for that role
    # Worked out when first asked for, kept in slots (a deck of 10,000 cards, none with a dictionary).
    _key: bytes | None = field(default=None, init=False, repr=False, compare=False)
    _label: str | None = field(default=None, init=False, repr=False, compare=False)

    def get(self, key: str, default: Any = None) -> Any:
        return self.attrs.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self.attrs[key]

    @property
    def key(self) -> bytes:
        """Identical for copies of one card (same group, attributes, art, size and layouts): a
        16-byte digest, worked out once per card (a deck of 10,000 cards is asked for it often)."""
        if self._key is None:
            text = repr((self.group, sorted(self.attrs.items()), self.art, self.size, self.layout,
                         self.back_layout, self.face_on_both_sides))
            if self.role is not None:  # cards without a role keep the keys they always had
                text += repr(self.role)
            digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
            object.__setattr__(self, "_key", digest)
        return self._key

    @property
    def label(self) -> str:
        """A short human name, e.g. ``numbers[symbol=plus, number=7]#2`` (every text element's
        messages begin with it)."""
        if self._label is None:
            inner = ", ".join(f"{k}={_fmt(v)}" for k, v in self.attrs.items())
            object.__setattr__(self, "_label", f"{self.group}[{inner}]#{self.copy}")
        return self._label

    @property
    def cut_label(self) -> str:
        """:attr:`label`, cut to 70 characters: how warnings begin, so each stays one readable line."""
        return self.label if len(self.label) <= 70 else self.label[:69] + "…"

    def said_of(self, message: str) -> tuple[str, str]:
        """A warning that begins with the card's label (or cut label) split into the card as a
        warning line names it and the rest, or ``("", message)``. A card from a data file is named
        by where it is, as errors name it: ``cards.csv:22: creatures 'Ember Drake'`` (file, row,
        group and name), not by its attributes."""
        for label in (self.label, self.cut_label):
            if message.startswith(label):
                if self.from_data and self.source:
                    return f"{self.source}: {self._named() or self.group}", message[len(label):]
                return label, message[len(label):]
        return "", message

    @property
    def short_label(self) -> str:
        """The card named briefly for messages: ``creatures 'Ember Drake'``, else a cut :attr:`label`."""
        return self._named() or (self.label if len(self.label) <= 60 else self.label[:59] + "…")

    def _named(self) -> str | None:
        """``creatures 'Ember Drake'``: the group and the card's ``id``, ``name`` or ``title``, or None."""
        for key in ("id", "name", "title"):
            value = self.attrs.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
                return f"{self.group} {str(value)[:40]!r}"
        return None


def _fmt(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "+".join(str(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Deck:
    """A deck expanded from a spec for one variant: the playing cards and the extra components."""

    game: str
    name: str
    deck_id: str
    variant: str | None
    spec_path: Path
    size: CardSize
    art: Art
    cards: tuple[Card, ...]
    components: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    count_by: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)  # the name in other languages, by code
    author: str = ""  # the spec's author: (the PDFs' Author); empty when it names none
    layouts: Mapping[str, Any] = field(default_factory=dict)  # name -> printkit.layout.design.Layout
    resources: Any = None  # printkit.layout.design.Resources: icons and checked pictures for layouts
    warnings: tuple[str, ...] = ()  # what the spec's layouts leave for the designer to look at
    is_default: bool = True  # the spec's default variant (printkit.spec.expand.default_variant)
    languages: tuple[str, ...] = ()  # the languages of its rulebook (rule texts), in printkit's order
    description_attr: str | None = None  # the spec's export.description: a card's text in exports
    # Where in the spec (line, column) each card size printed on sheets is given, by (width, height)
    # in mm (the later place, for a size given twice): see :meth:`paper_error`.
    size_positions: Mapping[tuple[float, float], tuple[int | None, int | None]] = field(
        default_factory=dict, compare=False, repr=False)
    # Where in the spec (line, column) its name: is written, for messages about the name itself.
    name_position: tuple[int | None, int | None] = field(default=(None, None), compare=False, repr=False)
    # What its spec's expect: asks of its counts, and where (printkit.expected.Expected): a build warns
    # of counts that differ, as printkit check fails on them. None for a deck made without a spec.
    expected: Any = field(default=None, compare=False, repr=False)
    # When its spec began to be read (time.time_ns()), for printkit.pipeline.replay; None when not known.
    read_at_ns: int | None = field(default=None, compare=False, repr=False)

    def name_in(self, lang: str) -> str:
        """The deck's name in ``lang``, or its ``name`` when the spec gives none for that language."""
        return self.names.get(lang, self.name)

    def __len__(self) -> int:
        return len(self.cards)

    def all_cards(self) -> list[Card]:
        """The deck's cards, then each component's, in print order."""
        return list(self.cards) + [card for cards in self.components.values() for card in cards]

    def groups(self) -> dict[str, int]:
        return dict(Counter(card.group for card in self.cards))

    def paper_error(self, paper: str, width_mm: float, height_mm: float) -> SpecError | None:
        """The error for the deck's cards of this size on sheets of ``paper``, at the size in the
        spec: a build on that paper raises it, ``check`` warns of it. None when they fit, or when
        the spec gives no such printed size."""
        position = self.size_positions.get((width_mm, height_mm))
        message = unfit_message(width_mm, height_mm, paper)
        if position is None or message is None:
            return None
        return SpecError(self.spec_path, *position, message)

    def counts(self, attrs: Iterable[str] | None = None) -> dict[str, dict[str, int]]:
        """Cards per value of each attribute; a list-valued attribute counts each element."""
        return count_cards(self.cards, attrs if attrs is not None else self.count_by)


def count_cards(cards: Iterable[Card], attrs: Iterable[str]) -> dict[str, dict[str, int]]:
    """Cards per value of each attribute: numbers in numeric order first, then other values as met."""
    cards = list(cards)
    result: dict[str, dict[str, int]] = {}
    for attr in attrs:
        counter: Counter[str] = Counter()
        numbers: dict[str, float] = {}
        for card in cards:
            if attr not in card.attrs:
                continue
            value = card.attrs[attr]
            values = value if isinstance(value, (list, tuple)) else [value]
            for v in values:
                counter[str(v)] += 1
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    numbers[str(v)] = v
        ordered = sorted(numbers, key=numbers.__getitem__) + [k for k in counter if k not in numbers]
        result[attr] = {key: counter[key] for key in ordered}
    return result


def matches(match: Mapping[str, Any], attrs: Mapping[str, Any]) -> bool:
    """A match selects cards whose attributes equal its values; a list means any of them.

    Against a list-valued attribute (e.g. minerals), a single value means "contains".
    """
    for key, wanted in match.items():
        if key not in attrs:
            return False
        have = attrs[key]
        options = wanted if isinstance(wanted, list) else [wanted]
        if isinstance(have, tuple):
            if not any((tuple(o) == have) if isinstance(o, list) else (o in have) for o in options):
                return False
        elif not any(_same(have, o) for o in options):
            return False
    return True


class MatchIndex:
    """A list of matches (a group's overrides, in order) indexed by one key of each, so that the
    ones that may select a card are found without trying every match on every card.

    A match is filed under its first key's values when they are texts or whole numbers (whose
    :func:`matches` is equality of their text); any other match is a candidate for every card.
    """

    def __init__(self, matches: Sequence[Mapping[str, Any]]) -> None:
        self.count = len(matches)
        self._by_value: dict[str, dict[str, list[int]]] = {}
        self._always: list[int] = []
        for index, match in enumerate(matches):
            key = next(iter(match), None)
            wanted = match[key] if key is not None else None
            options = wanted if isinstance(wanted, list) else [wanted]
            if key is None or not all(type(option) in (str, int) for option in options):
                self._always.append(index)
                continue
            values = self._by_value.setdefault(key, {})
            for text in dict.fromkeys(map(str, options)):
                values.setdefault(text, []).append(index)
        self.keys = frozenset(self._by_value)

    def candidates(self, attrs: Mapping[str, Any], after: int = -1) -> list[int]:
        """In order, the indexes past ``after`` of the matches that may select ``attrs`` (a card
        whose indexed attribute is a list, a flag or a fraction is given every one)."""
        found = [index for index in self._always if index > after]
        for key, values in self._by_value.items():
            if key not in attrs:
                continue
            have = attrs[key]
            if type(have) not in (str, int):
                return list(range(after + 1, self.count))
            found += [index for index in values.get(str(have), ()) if index > after]
        return sorted(found)


def _same(a: Any, b: Any) -> bool:
    # YAML's 7 and "7" name the same card value; True and 1 must not.
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b or str(a) == str(b)
