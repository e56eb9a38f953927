"""Deck specs: YAML files in decks/ → validated Spec → expanded cards per variant (:mod:`.expand`).

A deck as printkit draws it, its layouts compiled too, comes from :mod:`printkit.decks`."""

from __future__ import annotations

from printkit.locate import (
    _REPO_DECKS,
    DECKS_DIR,
    all_spec_paths,
    decks_dir,
    default_spec_paths,
    find_spec,
)
from printkit.spec.expand import default_deck, default_variant, variant_names
from printkit.spec.files import load_spec
from printkit.spec.load import LoadedSpec

__all__ = ["DECKS_DIR", "decks_dir", "find_spec", "all_spec_paths", "default_spec_paths", "load_spec",
           "variant_names", "default_variant", "default_deck", "LoadedSpec"]

