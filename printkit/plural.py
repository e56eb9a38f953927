"""Counts said to a person: ``1 card``, ``12 cards``. A leaf, so every message can ask it."""

from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one: ``1 card``, ``12 cards``, ``1 A4 page``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
