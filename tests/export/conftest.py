"""Export folders made once per (deck, target) and shared by the tests that read them."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.export import ExportOptions, export_deck
from printkit.decks import load_deck

DECKS = {"calc-expert": ("calc", "expert"), "emberfall": ("emberfall", None)}


@pytest.fixture(scope="session")
def exports(tmp_path_factory):
    """A function (deck key, target) -> the export folder, made on first use."""
    made: dict[tuple[str, str], Path] = {}

    def get(key: str, target: str) -> Path:
        if (key, target) not in made:
            name, variant = DECKS[key]
            out = tmp_path_factory.mktemp(f"{key}-{target}") / "export"
            export_deck(load_deck(name, variant), ExportOptions(target=target, out_dir=out))
            made[key, target] = out
        return made[key, target]

    return get
