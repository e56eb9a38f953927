"""The content registry: per-game figures, worked examples and tables for the rulebooks.

A rule text names content with block directives (``::: figure NAME``, ``::: example NAME``,
``::: table NAME``) and inline values (``{{ example.NAME.FIELD }}``). A game's rulebook module
(the games registry's ``rulebook`` part: ``printkit/games/<game>/rulebook.py`` …) exposes three dicts, ``FIGURES``, ``EXAMPLES`` and
``TABLES``, that map a name to a function ``(deck, lang) -> Figure | Example | Table``.

Content functions return plain data, never flowables, so they are tested without rendering.
They take every count from the deck and every score or legality verdict from the rule engine, so
the book cannot disagree with the spec or the engine. ``lang`` is one of :data:`LANGS`, the
languages printkit has words for (a book in another language is given English ones, see
:func:`words_lang`); strings in the returned data (captions, table cells) are already in that
language and may use the same inline markup as the rule text (``**bold**``, ``*italic*``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from printkit.deck import Card, Deck
from printkit.errors import BuildError
from printkit.games import module_of
from printkit.layout.geometry import Box

from printkit.spec.files import LANGS  # the languages printkit's own words (captions, examples, labels) come in


def words_lang(lang: str) -> str:
    """The language of printkit's own words in a book in ``lang``: itself, or English for a
    language printkit has no words for (a French book's worked examples speak English)."""
    return lang if lang in LANGS else "en"


@dataclass(frozen=True)
class Figure:
    """Cards drawn side by side at print size (or scaled down to fit the text width).

    ``labels`` (optional) has one short line per card, set under it (e.g. "1", "2", ... for the
    order of a pile, or a running score). ``scale`` shrinks the cards (1.0 = actual size); the
    book shrinks further if the row does not fit the text width.
    """

    cards: tuple[Card, ...]
    caption: str | None = None
    labels: tuple[str, ...] = ()
    scale: float = 0.6


@dataclass(frozen=True)
class CardParts:
    """One card drawn large with its parts named beside it, each joined to its place by a line.

    ``parts`` are (label, place) pairs; a place is a box in the card's frame (mm from the trim's
    top-left), or a function that finds that box on the card's face as the book lays it out.
    """

    card: Card
    parts: tuple[tuple[str, Box | Callable[[Any], Box]], ...]
    caption: str | None = None
    # Parts the rule text names that this card does not draw, so they go unlabelled (a warning).
    left_out: tuple[str, ...] = ()
    # Parts the rule text names that the card draws only for one of the rulebook's later languages,
    # each with that language (a warning): this language's book labels them nowhere.
    other_language: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Pile:
    """Cards on the table in a set-up figure: ``count`` of ``card`` face up, or its back
    (``back``), stacked, or spread like a hand held (``fan``). No card: an empty place."""

    card: Card | None
    back: bool = False
    count: int = 1
    fan: bool = False


@dataclass(frozen=True)
class Zone:
    """A named place on the table: a seat, the deck, the field …"""

    name: str
    piles: tuple[Pile, ...]


@dataclass(frozen=True)
class TableSetup:
    """The table at the start of a game seen from above: rows of zones, the far side first."""

    rows: tuple[tuple[Zone, ...], ...]
    caption: str | None = None


@dataclass(frozen=True)
class Table:
    """A table: a header row and body rows of cell strings (inline markup allowed)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str | None = None


@dataclass(frozen=True)
class Example:
    """A worked example computed by a rule engine.

    ``values`` are the named results a rule text may quote inline as ``{{ example.NAME.FIELD }}``
    (e.g. ``score``); they are formatted with ``str()``. ``::: example NAME`` sets the example as
    a block: its ``cards`` as a figure (if any), then a table of ``header`` + ``rows`` (the steps),
    then ``caption``.
    """

    values: Mapping[str, Any]
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    cards: tuple[Card, ...] = ()
    card_labels: tuple[str, ...] = ()
    caption: str | None = None


ContentFn = Callable[[Deck, str], Any]


@dataclass(frozen=True)
class GameContent:
    """The three registries of one game's content module."""

    figures: Mapping[str, Callable[[Deck, str], Figure]] = field(default_factory=dict)
    examples: Mapping[str, Callable[[Deck, str], Example]] = field(default_factory=dict)
    tables: Mapping[str, Callable[[Deck, str], Table]] = field(default_factory=dict)

    def registry(self, kind: str) -> Mapping[str, ContentFn]:
        """The dict for a directive kind: ``figure``, ``example`` or ``table``."""
        return {"figure": self.figures, "example": self.examples, "table": self.tables}[kind]


def content_for(game: str) -> GameContent:
    """The content registries of ``game`` (empty when the game has no rulebook module)."""
    module = module_of(game, "rulebook")
    if module is None:
        return GameContent()
    return GameContent(
        figures=dict(getattr(module, "FIGURES", {})),
        examples=dict(getattr(module, "EXAMPLES", {})),
        tables=dict(getattr(module, "TABLES", {})),
    )


def pick(lang: str, ko: str, en: str) -> str:
    """The string for ``lang``: a small helper for content functions."""
    if lang not in LANGS:
        raise BuildError(f"unknown rulebook language {lang!r} (known: {', '.join(LANGS)})")
    return ko if lang == "ko" else en


def name_in(names: Mapping[str, tuple[str, str]], key: str, lang: str, what: str) -> str:
    """The name of ``key`` in ``lang`` from a table of (Korean, English) names, such as a game's suits."""
    try:
        ko, en = names[key]
    except KeyError:
        raise BuildError(f"unknown {what} {key!r} (known: {', '.join(names)})") from None
    return pick(lang, ko, en)
