"""Card templates: turn a card into drawing ops for its front and back.

The games registry (:mod:`printkit.games`) gives the faces module of a spec's ``game:``
(``printkit/games/calc/faces.py`` …), exposing ``front(card) -> Face`` and optionally ``back(card) -> Face``
(with ``back_key(card)``, see :func:`back_key`) and, for components that are whole pages (cards
with a ``sheet`` attribute, like a score sheet),
``page(card, width_mm, height_mm) -> Face``, and ``COLOR_NAMES``, the ``art.colors`` names its
faces read. Whatever a game module does not provide, the plain
:mod:`printkit.layout.templates.generic` template draws, so every deck prints.

Colours: a name in a card's ``art.colors`` that the templates drawing it never read (a typo such
as ``backgound``) prints as nothing, so every front carries a warning naming it and the names
that are read; the warning does not name the card, so a build says it once per deck.

Fonts: templates set text in the deck's own font with the bundled fonts as per-character
fallbacks (Pretendard for Hangul and Latin, DejaVu Sans for symbols it lacks). A character that the font chosen for
it still cannot draw would print as the font's empty box; :func:`drawable` leaves it out of every
face these functions return, and the face carries a warning naming the card, font and characters.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Hashable

from printkit import direction, fonts
from printkit.deck import Card, Deck
from printkit.games import draws_front, module_of
from printkit.errors import LayoutError, SpecError
from printkit.layout import slug
from printkit.layout.ops import Face, Text
from printkit.suggest import close_match
from printkit.layout.templates import _common, design_file, generic


def is_page(card: Card) -> bool:
    """Whether the card is a full-page component (printed on its own page, not on a card sheet)."""
    return card.get("sheet") is not None


def card_name(card: Card, deck: Deck) -> str:
    """A card's name for titles and digital tables: its ``id``, ``name`` or ``title`` attribute,
    else what its game's template calls it (Calc: ``7+``), else its attribute values."""
    for key in ("title", "name", "id"):
        value = card.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value).strip()
    named = getattr(module_of(deck.game, "faces"), "card_name", None)
    if named is not None:
        return named(card)
    values = [v for value in card.attrs.values()
              for v in (value if isinstance(value, (list, tuple)) else [value]) if not isinstance(v, bool)]
    return " ".join(str(v) for v in values) or card.group


def front(card: Card, deck: Deck, *, proving: bool = False) -> Face:
    """The front of ``card``: its spec layout, else its game's template (or the generic one).
    ``proving`` (a check): texts of a spec layout that provably fit are not set, its plain shapes
    not drawn (:func:`design.draw`)."""
    if card.layout is not None:
        return drawable(_designed(card, deck, card.layout, "front", proving), card)
    if draws_front(deck.game, card):
        return drawable(module_of(deck.game, "faces").front(card), card)
    # A spec with icons of its own gives them to the generic face's text as to its layouts'.
    icons = deck.resources.icons if deck.resources is not None else None
    return drawable(generic.front(card, deck.game, icons), card)


def back(card: Card, deck: Deck, *, proving: bool = False) -> Face:
    """The back of ``card``: its front again (``face_on_both_sides``), its spec layout, printkit's
    back for its ``role`` (named in the rulebook's languages), else its game's template (or the
    generic one)."""
    return _back(card, deck, proving)[1]()


def back_key(card: Card, deck: Deck) -> Hashable | None:
    """A key the cards of ``deck`` whose backs :func:`back` draws alike share, given the same art
    and size: their back is drawn by one layout that reads nothing else of a card. None when a
    card's back may be its own."""
    return _back(card, deck)[0]


def _back(card: Card, deck: Deck, proving: bool = False) -> tuple[Hashable | None, Callable[[], Face]]:
    """``card``'s back as :func:`back_key` keys it and what draws it: one choice serves both."""
    if card.face_on_both_sides:
        return None, lambda: front(card, deck, proving=proving)
    if card.back_layout is not None:
        key = ("layout", card.back_layout) if deck.layouts[card.back_layout].same_for_every_card else None
        return key, lambda: drawable(_designed(card, deck, card.back_layout, "back", proving), card)
    module = module_of(deck.game, "faces")
    if card.role is not None:
        key = ("role", card.role) if design_file.layout_key(generic.GENERIC, f"{card.role}_back") else None
        return key, lambda: drawable(_role_back(card, deck, module is not None), card)
    if module is None:
        return design_file.layout_key(generic.GENERIC, "back"), lambda: drawable(generic.back(card), card)
    own_key, own = getattr(module, "back_key", None), getattr(module, "back", generic.back)
    return own_key(card) if own_key is not None else None, lambda: drawable(own(card), card)


def _role_back(card: Card, deck: Deck, game_design: bool) -> Face:
    """printkit's back for ``card``'s role. A game's own design's components are dark blue where the
    deck names no back colour, and a role back without a label names the deck."""
    base = card.art.back_color or (_common.DEFAULT_BACK if game_design else generic.BACK)
    label = card.art.back_label if card.art.back_label is not None else deck.name
    art = dataclasses.replace(card.art, back_color=base, back_label=label)
    return generic.role_back(dataclasses.replace(card, art=art), deck.languages)


def _designed(card: Card, deck: Deck, name: str, side: str, proving: bool = False) -> Face:
    from printkit.layout import design

    return design.card_face(deck.layouts[name], card, deck.resources, side, proving=proving)


def page(card: Card, deck: Deck, width_mm: float, height_mm: float) -> Face:
    """A full-page component (``is_page(card)``) laid out on a page of the given size: by its spec
    layout (whose frames are the page, and the page less a margin for ``safe``), else by its game's
    page (or the generic one)."""
    if card.layout is not None:
        return drawable(_designed(design_file.on_page(card, width_mm, height_mm), deck, card.layout, "front"), card)
    module = module_of(deck.game, "faces")
    return drawable(getattr(module, "page", generic.page)(card, width_mm, height_mm), card)


def color_names(game: str) -> tuple[str, ...]:
    """The ``art.colors`` names the templates drawing ``game``'s cards read.

    The game's own template's names, and the generic template's when the game's leaves any face
    to it.
    """
    module = module_of(game, "faces")
    if module is None:
        return generic.COLOR_NAMES
    names = tuple(getattr(module, "COLOR_NAMES", ()))
    if not all(hasattr(module, side) for side in ("front", "back", "page")):
        names += generic.COLOR_NAMES
    return tuple(dict.fromkeys(names))


def unknown_colors(deck: Deck) -> tuple[str, ...]:
    """The names in the palettes of ``deck``'s cards (the deck's, a group's or an override's) that
    no template drawing them reads, in the order first met."""
    known = set(color_names(deck.game)) | set(layout_color_names(deck))
    return tuple(dict.fromkeys(name for c in deck.all_cards() for name in c.art.colors if name not in known))


def layout_color_names(deck: Deck) -> tuple[str, ...]:
    """The ``art.colors`` names the deck's own layouts read: written as names, or given by a
    placeholder (``fill: "{element}"`` reads the palette name each card's ``element`` holds)."""
    from printkit.layout import design
    from printkit.layout.placeholders import LOOKUPS

    names: list[str] = []
    placeholders: dict[str, list] = {}  # layout name -> its colour templates with placeholders
    seen = set()
    for card in deck.all_cards():
        for name in (card.layout, card.back_layout):
            if not name:
                continue
            templates = placeholders.get(name)
            if templates is None:  # a layout's own colour names are read once, not once a card
                templates = placeholders[name] = []
                layout = deck.layouts.get(name)
                for element in layout.elements if layout is not None else ():
                    table = element.table.colors if element.table is not None else ()
                    for template in (element.color, element.fill, element.stroke) + table:
                        if template is not None:
                            if template.constant is None:
                                templates.append(template)
                            else:
                                names.extend(design.color_names(template.constant))
            for template in templates:
                key = (id(template), tuple(repr(card.attrs.get(n)) for n in template.names))
                if key in seen:
                    continue
                seen.add(key)
                try:
                    layout = deck.layouts.get(name)
                    lookups = layout.lookups if layout is not None else {}
                    names.extend(design.color_names(template.render({**card.attrs, "_group": card.group,
                                                                     LOOKUPS: lookups})))
                except ValueError:
                    continue
    return tuple(dict.fromkeys(names))


def deck_warnings(deck: Deck) -> tuple[str, ...]:
    """What is said once of a deck's spec: colours no template reads, characters of its name the
    sheets' slug cannot print, and its layouts' warnings."""
    said = (palette_warning(deck), name_warning(deck))
    return tuple(w for w in said if w) + tuple(deck.warnings)


def name_fonts(deck: Deck) -> tuple:
    """The deck's own fonts, which the sheets' slug falls back on for its name (in any script)."""
    return tuple(f for f in (deck.art.font, deck.art.font_bold) if f is not None)


def name_warning(deck: Deck) -> str | None:
    """A warning at the spec's ``name:`` naming the characters of the deck's name that no font of
    the sheets' slug has (None if none): they are left out of every sheet's footer line, as card
    text leaves out characters no font has, with a warning."""
    missing = slug.undrawn(deck.name, name_fonts(deck))
    if not missing:
        return None
    listed = ", ".join(f"{ch!r} U+{ord(ch):04X}" for ch in missing)
    return SpecError(deck.spec_path, *deck.name_position,
                     f"no font has the character(s) {listed} of the deck's name {deck.name!r}, so every sheet's "
                     "footer line leaves them out; add a font (.ttf or .otf) that has them to the spec (art: font: "
                     "fonts/YourFont.ttf; a path beside the spec or a font in printkit's fonts/)").located()


def palette_warning(deck: Deck) -> str | None:
    """One warning naming every colour of the deck that :func:`unknown_colors` finds (None if none),
    and the names the deck's template reads instead."""
    unknown = unknown_colors(deck)
    if not unknown:
        return None
    known = color_names(deck.game)
    which = (f"the {deck.game} template" if module_of(deck.game, "faces") is not None
             else f"the generic template (game {deck.game!r} has none of its own)")
    named = []
    for name in unknown:
        hint = close_match(name, known)
        named.append(f"{name!r}" + (f" (did you mean {hint!r}?)" if hint else ""))
    verb = "is not a colour name the cards read, so it changes" if len(named) == 1 else \
        "are not colour names the cards read, so they change"
    first = next(c.art.colors_at.get(unknown[0]) for c in deck.all_cards() if unknown[0] in c.art.colors)
    at = f"{first}: " if first else ""  # where the first of them is written
    return f"{at}art.colors: {', '.join(named)} {verb} nothing; {which} reads: {', '.join(known)}"


def drawable(face: Face, card: Card) -> Face:
    """``face`` without the characters each Text op's font cannot draw (they would print as boxes).

    Raises LayoutError for text written right to left, which would print reversed and unjoined."""
    ops = []
    warnings = list(face.warnings)
    for op in face.ops:
        if isinstance(op, Text):
            refused = direction.refusal(op.text, "the card's text")
            if refused:  # a spec layout's text is refused where it is bound; this is every other template's
                raise LayoutError(f"{card.label}: {refused}")
            missing = fonts.missing_glyphs(op.text, op.font)
            if missing:
                if not any(repr(missing) in w for w in warnings):  # the fitter usually said so already
                    warnings.append(f"{card.label}: font {op.font.name} has no glyph for {missing!r} in "
                                    f"{op.text[:40]!r}; left out")
                text = "".join(ch for ch in op.text if ch not in missing)
                if not text.strip():
                    continue
                op = dataclasses.replace(op, text=text)
        ops.append(op)
    if len(warnings) == len(face.warnings) and len(ops) == len(face.ops) and all(
            a is b for a, b in zip(ops, face.ops)):
        return face
    return Face(tuple(ops), tuple(warnings))
