"""Files in the output folder's folders that printkit did not write: an export refuses to run
while its folders to send hold one (:mod:`printkit.export.folders`); a build leaves them where
they are and says so (:func:`foreign_note`). printkit never removes a file it did not write.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable

from printkit.errors import PrintkitError
from printkit.pipeline.manifest import MANIFEST, Hashed, hash_once, previous_files
from printkit.plural import counted

# What file browsers leave in a folder they open (Finder, Windows Explorer): never picked for an
# upload, never said, and hidden from the user, who could not find them to move.
SYSTEM_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
NAMED = 5  # files a message names; the rest are counted


def foreign_files(out_dir: Path, folders: Iterable[str], hashed: Hashed, *, most: int | None = None,
                  too_many: Callable[[str], PrintkitError] | None = None,
                  other_outputs: bool = True) -> list[str]:
    """The files in ``out_dir``'s ``folders`` (paths relative to ``out_dir``, ``/``-separated)
    that printkit did not write there, or that were changed since: not listed in its manifest with
    the bytes they hold. Links count as foreign (printkit makes none). With ``most``, a folder
    holding more names than that raises ``too_many(folder)``: a file past the limit could be
    anyone's. Unless ``other_outputs``, a folder inside them holding printkit's own manifest (an
    export into ``output/my-game/export-tgc``) is passed over: its files are that manifest's. Each
    file's hash is kept in ``hashed`` (:func:`printkit.pipeline.manifest.hash_once`), where the
    build finds it again."""
    previous = previous_files(out_dir)
    root = out_dir.resolve()  # the paths the build hashes its listed files by
    found: list[str] = []
    for folder in sorted(set(folders)):
        top = root / folder
        if top.is_symlink() or not top.is_dir():
            continue
        seen = 0  # counted per folder, so the error names the folder that holds them
        for here, dirs, names in os.walk(top, followlinks=False):
            dirs.sort()
            if not other_outputs:
                dirs[:] = [d for d in dirs if not _printkits_output(Path(here) / d)]
            for name in sorted(names + [d for d in dirs if os.path.islink(os.path.join(here, d))]):
                seen += 1
                if most is not None and seen > most and too_many is not None:
                    raise too_many(folder)
                if name in SYSTEM_FILES:
                    continue
                path = Path(here) / name
                relative = path.relative_to(root).as_posix()
                listed = {e.sha256 for e in previous.get(relative, [])}
                if not listed or hash_once(path, hashed) not in listed:
                    found.append(relative)
    return found


def _printkits_output(folder: Path) -> bool:
    """Whether ``folder`` (not a link) holds a manifest printkit wrote: a build's or an export's."""
    if folder.is_symlink() or not (folder / MANIFEST).is_file():
        return False
    try:
        return bool(previous_files(folder))
    except (PrintkitError, OSError):
        return False  # not printkit's: its files are as foreign as any


def named(found: list[str]) -> str:
    """The first :data:`NAMED` of ``found``, and how many more: ``a, b, c, d, e (and 2 more)``."""
    return ", ".join(found[:NAMED]) + (f" (and {len(found) - NAMED} more)" if len(found) > NAMED else "")


def foreign_note(out_dir: Path, folders: Iterable[str], hashed: Hashed) -> str | None:
    """What a build says of the files in the deck ``folders`` it writes that are not printkit's
    (:func:`foreign_files`, once its manifest is written; an export inside them is the export's):
    left as they are, and would be sent to be printed with the build's own. None when there are none."""
    found = foreign_files(out_dir, folders, hashed, other_outputs=False)
    if not found:
        return None
    one = len(found) == 1
    return (f"{counted(len(found), 'file')} in the deck folders printkit writes {'is' if one else 'are'} not "
            f"printkit's (it did not write {'it' if one else 'them'}, or {'it was' if one else 'they were'} changed "
            f"since), so {'it was' if one else 'they were'} left as {'it is' if one else 'they are'}: {named(found)}; "
            f"move {'it' if one else 'them'} out of the output folder before sending it to be printed")
