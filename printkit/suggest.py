"""The "did you mean" of every message about an unknown name: the known name it most likely
misspells. A leaf (difflib is imported only when a suggestion is asked for), so spec checks and
card-text markup alike can ask it."""

from __future__ import annotations

from typing import Any, Iterable

# difflib's similarity ratio a known name needs to be suggested (difflib's own default)
CUTOFF = 0.6


def close_match(name: Any, known: Iterable[str]) -> str | None:
    """The known name that ``name`` most likely misspells, if any is close enough."""
    import difflib  # only for a name to suggest
    hint = difflib.get_close_matches(str(name), list(known), n=1, cutoff=CUTOFF)
    return hint[0] if hint else None
