"""The games printkit ships, one folder each (``calc/``, ``clag/``, ``stack/``): words, engine,
faces, rulebook content, report facts and icons.

Importing this package loads no engine and no layout; each part is imported when first asked for.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from printkit.layout.icons import Icon

# The shipped games, in the order their icons are offered.
BUILTIN_GAMES: tuple[str, ...] = ("calc", "stack", "clag")


@lru_cache(maxsize=1)
def icons() -> Mapping[str, "Icon"]:
    """Every icon a spec or a rule text may name: each game's glyphs, then the generic shapes."""
    from printkit.layout.icons import GENERIC_ICONS

    merged: dict[str, Icon] = {}
    for game in BUILTIN_GAMES:
        merged.update(importlib.import_module(f"{__name__}.{game}.icons").ICONS)
    merged.update(GENERIC_ICONS)
    return MappingProxyType(merged)
