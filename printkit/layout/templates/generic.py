"""The plain template: used for any game or component that has no design of its own.

Every face is a layout of ``generic.yaml`` beside this module, written in the language designers
use. Front (``generic``): the background colour (and image) to the bleed edge, a thin frame at the safe
zone, a title (the card's ``title``, else its ``name``, else its group) large at the top, the
``text`` attribute as a paragraph in the middle (read as markup, as a layout's text is) and every
other attribute as a ``key: value`` line (printed as written), at the bottom under a text or large
in the middle without one; over a background image each block of text sits on a plate of the
background colour. Back (``back``): the back colour or
image and the back label. Whole pages (``page``): the group and a ``key: value`` line per attribute.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from printkit.deck import Card
from printkit.layout.ops import Face
from printkit.layout.templates import design_file

if TYPE_CHECKING:
    from printkit.layout.icons import Icon

# The back colour of a deck that names none (the colour every back layout starts with).
BACK = "#404040"
# The built-in layouts file beside this module: the front (``generic``), the back and the page.
GENERIC = Path(__file__).resolve().with_name("generic.yaml")
# The art.colors names these faces read (the layouts read these two).
COLOR_NAMES = ("background", "ink")


def front(card: Card, game: str | None = None, deck_icons: Mapping[str, Icon] | None = None) -> Face:
    """The front as the built-in layout ``generic.yaml`` (beside this module) draws it, with the
    icons its text may name: the deck's own (``deck_icons``: its spec's and those offered to a deck
    of its game), else those a deck of ``game`` is offered."""
    from printkit.games import icons
    from printkit.layout import design
    # The built-in layout is a spec printkit ships; reading it is the spec layer's work.
    from printkit.layout.compile import builtin_layout

    offered = deck_icons if deck_icons is not None else icons(game)
    return design.draw(builtin_layout("generic"), card, design.Resources(icons=offered))


def back(card: Card) -> Face:
    """The back as the built-in layout ``back`` of ``generic.yaml`` draws it: the back colour (and
    picture) to the bleed edge and the back's label across the middle."""
    return design_file.draw(GENERIC, "back", card, "back")


def role_back(card: Card, languages: tuple[str, ...]) -> Face:
    """The light back of a designer's component by its ``role`` (aid, reference or marker): the layout
    ``<role>_back`` of ``generic.yaml``, naming the role in the rulebook's ``languages``."""
    return design_file.draw(GENERIC, f"{card.role}_back", design_file.without_back_image(card), "back",
                            languages=languages)


def page(card: Card, width_mm: float, height_mm: float) -> Face:
    """A full page as the built-in layout ``page`` of ``generic.yaml`` draws it: the group and a
    ``key: value`` line per attribute (a stand-in for a designed sheet)."""
    return design_file.draw_page(GENERIC, "page", card, width_mm, height_mm)
