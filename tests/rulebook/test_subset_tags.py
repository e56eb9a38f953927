"""Rulebooks and booklets name their font subsets from their own content, as the card sheets do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printkit.rulebook.producer import render_rulebook

DECKS = Path(__file__).resolve().parents[2] / "decks"


def _tags(data: bytes) -> set[str]:
    """The subset tags the file's fonts and their descriptors carry (reportlab writes no object streams)."""
    base = set(re.findall(rb"/BaseFont /([A-Z]{6})\+", data))
    named = set(re.findall(rb"/FontName /([A-Z]{6})\+", data))
    assert base and base == named
    return {t.decode() for t in base}


@pytest.mark.parametrize("booklet", [False, True], ids=["book", "booklet"])
def test_two_rulebooks_carry_different_subset_tags_and_rebuild_alike(booklet):
    calc = render_rulebook(DECKS / "calc.yaml", "en", "a5", booklet=booklet).data
    clag = render_rulebook(DECKS / "clag.yaml", "en", "a5", booklet=booklet).data
    assert "AAAAAA" not in _tags(calc) | _tags(clag)
    assert not _tags(calc) & _tags(clag)
    assert render_rulebook(DECKS / "calc.yaml", "en", "a5", booklet=booklet).data == calc
