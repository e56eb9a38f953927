"""The folders an export tells the user to send hold printkit's files only.

README.txt says "send the files in upload/" (or upload every image of a folder, host images/), so
a file printkit did not write there would be sent too. printkit never removes such a file (it is
the user's), so the export is refused before anything is written, naming the files to move away,
as a build refuses to replace a file it did not write. printkit's own earlier files there that the
export does not write (a rulebook, exported again with --no-rulebooks) are removed as it ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from printkit.errors import BuildError
from printkit.pipeline.foreign import foreign_files, named
from printkit.pipeline.manifest import Hashed

_MAX_FILES = 10_000  # the folders to send are looked through no further: more refuses the export


def refuse_foreign_files(out_dir: Path, folders: Iterable[str], hashed: Hashed) -> None:
    """Refuse (one line, before anything is written) an export whose folders to send hold a file
    printkit did not write (:func:`printkit.pipeline.foreign.foreign_files`), or more than
    :data:`_MAX_FILES` names each to look through (README.txt would tell the user to send them)."""

    def too_many(folder: str) -> BuildError:
        return BuildError(f"cannot export into {str(out_dir)!r}: {folder}/ holds more than {_MAX_FILES:,} files, "
                          "more than printkit looks through to be sure each is its own, and README.txt would "
                          "tell you to send everything in it; empty it (or move it out of the export folder) or "
                          "use another --out")

    found = foreign_files(out_dir, folders, hashed, most=_MAX_FILES, too_many=too_many)
    if not found:
        return
    one = len(found) == 1
    raise BuildError(f"cannot export into {str(out_dir)!r}: {named(found)} {'is' if one else 'are'} not "
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
