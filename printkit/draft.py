"""Draft builds (``printkit build --draft``): a deck proofed before all its art exists.

While :func:`drafting` is active, a picture that is missing or refused (a spec's art, a layout's
image, SVG art that cannot be drawn) is noted with the message that would have refused it
(:func:`tolerated`) instead of failing the build; every face that shows it draws a hatched box
saying ``missing: art/foo.png`` in its place, and the sheets say DRAFT in their margin (both
drawn by :mod:`printkit.layout.draft`). A draft writes nothing meant for a printer's hands
without that mark: no per-card files, no rulebooks. This module holds the draft's state alone,
so that the spec, which tolerates a refused picture, needs nothing of the layout.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator, Mapping

# The pictures drawn as placeholders in the draft being built (path -> why it is refused); None
# outside a draft, when a refused picture fails the build.
_REFUSED: ContextVar[dict[Path, str] | None] = ContextVar("draft_refused", default=None)

MARK = "DRAFT \u2014 not for print"


@contextlib.contextmanager
def drafting() -> Iterator[dict[Path, str]]:
    """Within this block refused pictures are tolerated; yields them (path -> why), as noted."""
    token = _REFUSED.set({})
    try:
        yield _REFUSED.get()
    finally:
        _REFUSED.reset(token)


def tolerated(path: Path, why: str) -> bool:
    """In a draft, note that the picture at ``path`` is drawn as a placeholder because ``why``
    (the error's line) and say True; outside a draft, False: the caller refuses it."""
    refused = _REFUSED.get()
    if refused is None:
        return False
    refused.setdefault(picture_key(path), why)
    return True


def refused_pictures() -> Mapping[Path, str]:
    """The pictures the current draft draws as placeholders (empty outside a draft)."""
    return _REFUSED.get() or {}


def picture_key(path: Path) -> Path:
    """How a refused picture is known: its absolute path."""
    return Path(path).absolute()


def shown_in(path: Path, folder: Path) -> str:
    """A picture as its spec names it: relative to the spec's ``folder`` (as given, else with links
    resolved: checked pictures are known by their real path), else its file name."""
    for inside, base in ((picture_key(path), picture_key(folder)), (Path(path).resolve(), Path(folder).resolve())):
        if inside.is_relative_to(base):
            return inside.relative_to(base).as_posix()
    return Path(path).name
