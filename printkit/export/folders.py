"""The folders an export tells the user to send hold printkit's files only.

README.txt says "send the files in upload/" (or upload every image of a folder, host images/), so
a file printkit did not write there would be sent too. printkit never removes such a file (it is
the user's), so the export is refused before anything is written, naming the files to move away,
as a build refuses to replace a file it did not write. printkit's own earlier files there that the
export does not write (a rulebook, exported again with --no-rulebooks) are removed as it ends.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from printkit.errors import BuildError
from printkit.pipeline.manifest import Hashed, hash_once, previous_files

# What file browsers leave in a folder they open (Finder, Windows Explorer): never picked for an
# upload, and hidden from the user, who could not find them to move.
SYSTEM_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
_NAMED = 5  # files named in the error; the rest are counted
_MAX_FILES = 10_000  # the folders to send are looked through no further: more refuses the export


def foreign_files(out_dir: Path, folders: Iterable[str], hashed: Hashed) -> list[str]:
    """The files in ``out_dir``'s ``folders`` (paths relative to ``out_dir``, ``/``-separated)
    that printkit did not write there, or that were changed since: not listed in its manifest with
    the bytes they hold. Links count as foreign (printkit makes none). Folders holding more than
    :data:`_MAX_FILES` names each are refused (:class:`BuildError`): a file past the limit could be
    anyone's, and README.txt would tell the user to send it. Each file's hash is kept in ``hashed``
    (:func:`printkit.pipeline.manifest.hash_once`), where the build finds it again."""
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
            for name in sorted(names + [d for d in dirs if os.path.islink(os.path.join(here, d))]):
                seen += 1
                if seen > _MAX_FILES:
                    raise BuildError(f"cannot export into {str(out_dir)!r}: {folder}/ holds more than {_MAX_FILES:,} files, "
                                     "more than printkit looks through to be sure each is its "
                                     "own, and README.txt would tell you to send everything in it; empty it (or "
                                     "move it out of the export folder) or use another --out")
                if name in SYSTEM_FILES:
                    continue
                path = Path(here) / name
                relative = path.relative_to(root).as_posix()
                listed = {e.sha256 for e in previous.get(relative, [])}
                if not listed or hash_once(path, hashed) not in listed:
                    found.append(relative)
    return found


def refuse_foreign_files(out_dir: Path, folders: Iterable[str], hashed: Hashed) -> None:
    """Refuse (one line, before anything is written) an export whose folders to send hold a file
    printkit did not write (:func:`foreign_files`)."""
    found = foreign_files(out_dir, folders, hashed)
    if not found:
        return
    named = ", ".join(found[:_NAMED]) + (f" (and {len(found) - _NAMED} more)" if len(found) > _NAMED else "")
    one = len(found) == 1
    raise BuildError(f"cannot export into {str(out_dir)!r}: {named} {'is' if one else 'are'} not "
                     f"printkit's (it did not write {'it' if one else 'them'}, or {'it was' if one else 'they were'} "
                     f"changed since), and README.txt would tell you to send everything in "
                     f"{'that folder' if len({f.split('/')[0] for f in found}) == 1 else 'those folders'}; "
                     f"move {'it' if one else 'them'} out of the export folder (printkit never removes a file "
                     "it did not write) or use another --out")


def take_folders(ctx, folders: Iterable[str]) -> None:
    """Make ``folders`` (of the export ``ctx`` writes) hold this export's files alone: refused when
    one holds a file printkit did not write (:func:`refuse_foreign_files`); printkit's earlier files
    there that it does not write go as it ends (:meth:`printkit.pipeline.context.BuildContext.send_folder`)."""
    folders = sorted(set(folders))
    refuse_foreign_files(ctx.options.out_dir, folders, ctx.hashed)
    for folder in folders:
        ctx.send_folder(folder)
