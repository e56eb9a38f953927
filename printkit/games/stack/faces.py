"""Stack Original's faces: every card and component from the game's design (``faces.yaml``).

``front(card)`` and ``back(card)`` dispatch on the card's attributes, as the spec produces them,
to the layouts of ``faces.yaml`` beside this module, in the language every designer uses:

- deck card ``{cost, minerals}`` (``card``): cost badge and mineral column in two corners, one
  large gem per mineral with its Korean and English name down the middle;
- generated marker ``{generated: True, minerals}`` (``marker``, ``marker_back``): the same in
  inverted colours inside a hatched frame with a "생성 / GENERATED" banner, so it never passes for
  a deck card, face or back;
- terrain ``{terrain, mineral}`` (``terrain``): name band in the mineral's colour, its scene, the
  effect and its trigger in Korean and in English;
- stack token ``{token: "stack"}`` (``token``): a round badge with the stack glyph, both sides;
- reference ``{reference: "actions", lang}`` and player aid ``{aid: "turn", lang}`` (``reference``,
  ``aid``), in Korean or English;
- the deck's back (``back``); terrains, the reference and aids have the light back of a component
  that every game's design shares (:func:`printkit.layout.templates.design_file.component_back`).

What stays in Python is what the icons draw (:mod:`printkit.games.stack.icons`,
:mod:`printkit.games.stack.scenes`) and the checks that name a card the design has no words for.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from printkit.deck import Card
from printkit.errors import DeckError
from printkit.games.stack.icons import DEFAULT_COLORS, MINERALS
from printkit.games.stack.words import TERRAIN_MINERAL
from printkit.layout.ops import Face
from printkit.layout.templates import design_file
from printkit.layout.templates._common import COMPONENT_KINDS

DESIGN = Path(__file__).resolve().with_name("faces.yaml")
# The game's colours where a spec's palette has none (the design's own colours in faces.yaml).
COLORS = {"background": "#f7f3ea", "ink": "#1d1d1f", **DEFAULT_COLORS}
# The art.colors names these faces read (the design's layouts).
COLOR_NAMES = ("background", "ink", *MINERALS)


# --- dispatch -------------------------------------------------------------------------------


def kind_of(card: Card) -> str:
    """Which Stack layout a card gets: deck, generated, terrain, token, reference or aid."""
    attrs = card.attrs
    if "token" in attrs:
        return "token"
    if "terrain" in attrs:
        return "terrain"
    if attrs.get("generated"):
        return "generated"
    if "reference" in attrs:
        return "reference"
    if "aid" in attrs:
        return "aid"
    if "minerals" in attrs:
        return "deck"
    raise DeckError(f"{card.label}: no Stack Original layout for a card with attributes {dict(attrs)!r}")


def front(card: Card) -> Face:
    """The face of any Stack Original card or component, as the design draws it."""
    kind = kind_of(card)
    if kind == "token":
        return design_file.draw(DESIGN, "token", card, colors=COLORS)
    if kind == "terrain":
        return design_file.draw(DESIGN, "terrain", _terrain_checked(card), colors=COLORS)
    if kind in ("reference", "aid"):
        return design_file.draw(DESIGN, kind, _words_checked(card, kind), colors=COLORS)
    face = design_file.draw(DESIGN, _DESIGNED[kind], _checked(card), colors=COLORS)
    return _with_cost_warning(face, card) if kind == "deck" else face


def back(card: Card) -> Face:
    """The back: the design's deck back, a marker's hatched back or a token's face again; terrains,
    the reference and aids have a component's light back (:func:`design_file.component_back`), never
    mistaken for deck cards."""
    kind = kind_of(card)
    if kind == "token":
        return front(card)
    if kind in COMPONENT_KINDS:
        return design_file.component_back(kind, card, COLORS)
    name = "marker_back" if kind == "generated" else "back"
    return design_file.draw(DESIGN, name, _checked(card), "back", colors=COLORS)


def back_key(card: Card) -> tuple[str, str] | None:
    """A key the cards whose backs :func:`back` draws alike share (None: the card's own)."""
    kind = kind_of(card)
    if kind == "token":
        return None
    if kind in COMPONENT_KINDS:
        return design_file.component_back_key(kind)
    _checked(card)  # a card the design cannot draw is refused as its own back would refuse it
    return design_file.layout_key(DESIGN, "marker_back" if kind == "generated" else "back")


# The design's layout for a deck card and a marker.
_DESIGNED = {"deck": "card", "generated": "marker"}


def _checked(card: Card) -> Card:
    """``card``, once its minerals are 1 to 3 different ones of the four (DeckError naming them if not)."""
    minerals = card.get("minerals", ())
    minerals = (minerals,) if isinstance(minerals, str) else tuple(minerals)
    if any(m not in MINERALS for m in minerals) or not 1 <= len(set(minerals)) == len(minerals) <= 3:
        raise DeckError(f"{card.label}: minerals {minerals!r} must be 1-3 of {', '.join(MINERALS)}")
    return card


def _words_checked(card: Card, kind: str) -> Card:
    """``card``, once it is a reference or aid the design has words for (DeckError naming them if not)."""
    which, have = ("actions", "a Stack reference card") if kind == "reference" else ("turn", "a Stack player aid")
    lang = card.get("lang")
    if card[kind] != which or lang not in ("ko", "en"):
        raise DeckError(f"{card.label}: no {have} {card[kind]!r} in language {lang!r} (have: {which} in ko, en)")
    return card


def _terrain_checked(card: Card) -> Card:
    """``card`` with its terrain's mineral (given, else the terrain's own), once both are known."""
    terrain = card["terrain"]
    if terrain not in TERRAIN_MINERAL:
        raise DeckError(f"{card.label}: unknown terrain {terrain!r} (expected one of {', '.join(TERRAIN_MINERAL)})")
    mineral = card.get("mineral", TERRAIN_MINERAL[terrain])
    if mineral not in MINERALS:
        raise DeckError(f"{card.label}: unknown mineral {mineral!r} (expected one of {', '.join(MINERALS)})")
    return card if "mineral" in card.attrs else dataclasses.replace(card, attrs={**card.attrs, "mineral": mineral})


def _with_cost_warning(face: Face, card: Card) -> Face:
    """``face`` warning that the card's cost is not its number of minerals, as printed."""
    minerals = _checked(card).get("minerals", ())
    count = 1 if isinstance(minerals, str) else len(minerals)
    cost = card.get("cost", count)
    if cost == count:
        return face
    return Face(face.ops, face.warnings + (f"{card.label} cost: cost {cost!r} differs from the {count} minerals shown",))
