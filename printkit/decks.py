"""A spec's decks as printkit draws them: read (:mod:`printkit.spec`), expanded into cards
(:mod:`printkit.spec.expand`) and given the spec's layouts, compiled and checked against those
cards (:mod:`printkit.layout.compile`). Everything that builds, checks or shows a deck loads it here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from printkit.deck import Deck
from printkit.layout.compile import designed
from printkit.spec import find_spec, load_spec
from printkit.spec import expand as cards  # the module: expanding a spec into cards
from printkit.spec.load import LoadedSpec


def expand(loaded: LoadedSpec, variant: str | None = None) -> Deck:
    """The deck for ``variant`` (None: the default variant, or the only form of a deck without any)."""
    return designed(loaded, cards.expand(loaded, variant))


def expand_all(loaded: LoadedSpec) -> Iterator[Deck]:
    """One deck per variant, in file order (see :func:`printkit.spec.expand.expand_all`)."""
    for deck in cards.expand_all(loaded):
        yield designed(loaded, deck)


def load_deck(name_or_path: str | Path, variant: str | None = None) -> Deck:
    """Load and expand one deck (the default variant when ``variant`` is None)."""
    return expand(load_spec(find_spec(name_or_path)), variant)


def load_all_variants(name_or_path: str | Path) -> list[Deck]:
    """One expanded Deck per variant of the spec, in file order."""
    return list(expand_all(load_spec(find_spec(name_or_path))))
