"""The "did you mean" of every message about an unknown name: the known name it most likely
misspells. A leaf (difflib is imported only when a suggestion is asked for), so spec checks and
card-text markup alike can ask it."""

from __future__ import annotations

from typing import Any, Iterable

# difflib's similarity ratio a known name needs to be suggested (difflib's own default)
CUTOFF = 0.6


def close_match(name: Any, known: Iterable[str]) -> str | None:
    """The known name that ``name`` most likely misspells, if any is close enough."""
    hint = close_matches(name, known, 1)
    return hint[0] if hint else None


def close_matches(name: Any, known: Iterable[str], most: int, cutoff: float = CUTOFF) -> list[str]:
    """Up to ``most`` known names ``name`` may misspell, closest first; a lower ``cutoff`` offers
    less similar ones (for a choice among many names, where a rough hint still helps)."""
    import difflib  # only for a name to suggest
    return difflib.get_close_matches(str(name), list(known), n=most, cutoff=cutoff)
