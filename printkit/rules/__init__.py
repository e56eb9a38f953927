"""Reference rule engines, one module per game. They read an expanded Deck and never render."""

from __future__ import annotations

from printkit.rules.base import Engine, Outcome, engine_for, ENGINE_MODULES

__all__ = ["Engine", "Outcome", "engine_for", "ENGINE_MODULES"]
