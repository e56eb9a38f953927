"""Deck specs: YAML files in decks/ → validated Spec → expanded Deck per variant."""

from __future__ import annotations

from pathlib import Path

from printkit.deck import Deck
from printkit.locate import (
    _REPO_DECKS,
    DECKS_DIR,
    _looks_like_spec,
    all_spec_paths,
    decks_dir,
    default_spec_paths,
    find_spec,
)
from printkit.spec.expand import default_deck, default_variant, expand, expand_all, variant_names
from printkit.spec.files import load_spec
from printkit.spec.load import LoadedSpec

__all__ = ["DECKS_DIR", "decks_dir", "find_spec", "all_spec_paths", "default_spec_paths", "load_spec", "expand",
           "load_deck", "load_all_variants", "expand_all", "variant_names",
           "default_variant", "default_deck", "LoadedSpec"]


def load_deck(name_or_path: str | Path, variant: str | None = None) -> Deck:
    """Load and expand one deck (the default variant when ``variant`` is None)."""
    return expand(load_spec(find_spec(name_or_path)), variant)


def load_all_variants(name_or_path: str | Path) -> list[Deck]:
    """One expanded Deck per variant of the spec, in file order."""
    loaded = load_spec(find_spec(name_or_path))
    return list(expand_all(loaded))
