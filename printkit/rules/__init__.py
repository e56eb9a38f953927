"""What every rule engine offers (:mod:`.base`) and how printkit plays them (:mod:`.play`); the
engines themselves live with their games (``printkit/games/<game>/engine.py``)."""

from __future__ import annotations

from printkit.rules.base import Engine, Outcome

__all__ = ["Engine", "Outcome"]
