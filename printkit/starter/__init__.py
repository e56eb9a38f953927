"""``printkit new NAME``: a starter game written into a new folder, ready to check and build.

The starter's files are package data (``printkit/starter/files/``), so an install from a wheel
has them; ``__GAME__`` and ``__TITLE__`` in them become the game's key and its display name.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from printkit.errors import StarterError
from printkit.games import BUILTIN

FILES = Path(__file__).resolve().parent / "files"

# Each starter file (under FILES) and where it goes in the new folder; {name} is the folder's name.
LAYOUT = (
    ("game.yaml", "{name}.yaml"),
    ("cards.csv", "cards.csv"),
    ("rules.en.md", "{name}.rules.en.md"),
    ("picture.svg", "picture.svg"),
    ("spark.svg", "icons/spark.svg"),
)

# A name that is also a valid ``game:`` key (printkit.spec.models.NAME) and means the same folder
# on every system: an ASCII letter first, then letters, digits, '-' and '_'.
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
# Names Windows reserves for devices, in any case and with any extension.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def check_name(name: str) -> str:
    """``name`` if it can name the game's folder and spec; else a :class:`StarterError` saying why."""
    if not _NAME.fullmatch(name):
        raise StarterError(f"cannot name a game {name!r}: use ASCII letters, digits, '-' and '_', a letter "
                           "first, at most 64 (no path separators or dots), e.g. printkit new my-game")
    if name.casefold() in _RESERVED:
        raise StarterError(f"cannot name a game {name!r}: Windows keeps that name for a device; choose another")
    if name.casefold() in BUILTIN:
        raise StarterError(f"{name!r} is one of printkit's own games; choose another name for yours")
    return name


def title_of(name: str) -> str:
    """The display name of a game from its folder name: ``my-game`` is ``My Game``."""
    return " ".join(word[:1].upper() + word[1:] for word in re.split(r"[-_]+", name) if word)


def new_game(name: str, parent: Path) -> list[Path]:
    """Write the starter game ``name`` into the new folder ``parent/name`` and return its files.

    An existing folder is used only when empty; no file is ever overwritten.
    """
    check_name(name)
    folder = Path(parent) / name
    if os.path.lexists(folder):
        if folder.is_symlink() or not folder.is_dir():
            raise StarterError(f"{name!r} already exists and is not a folder; choose another name")
        if any(folder.iterdir()):
            raise StarterError(f"folder {name!r} already exists and is not empty; nothing was written")
    replacements = {"__GAME__": name.casefold(), "__TITLE__": title_of(name)}
    written = []
    try:
        folder.mkdir(exist_ok=True)
        for source, target in LAYOUT:
            text = (FILES / source).read_text(encoding="utf-8")
            for marker, value in replacements.items():
                text = text.replace(marker, value)
            path = folder / target.format(name=name)
            path.parent.mkdir(exist_ok=True)
            with open(path, "x", encoding="utf-8", newline="\n") as handle:  # "x": never overwrite
                handle.write(text)
            written.append(path)
    except OSError as exc:
        raise StarterError(f"cannot write the starter game into {name!r}: {exc.strerror or exc}") from None
    return written
