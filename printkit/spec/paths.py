"""Files that come with a spec (images, fonts, data, rule texts): found inside the spec's folder only.

A spec, and everything beside it, may come from someone else. :func:`inside_folder` is the one
place that turns a name into a file printkit may read: relative, resolved through any links, still
inside the folder and in no hidden folder, a regular file. Whatever it refuses raises :class:`PathRefused` with a message
that says what is wrong and what to do; callers add where the name was written.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from printkit.errors import PathRefused

# Longer names are refused before the file system is asked (it would say ENAMETOOLONG anyway).
MAX_PATH_CHARS = 1024


def inside_folder(folder: Path, value: str | Path, what: str) -> Path:
    """The regular file ``value`` names, relative to ``folder`` and inside it after links resolve.

    ``what`` names the kind of file in messages ("image", "font", "rule text" …).
    """
    text = str(value)
    shown = repr(text) if len(text) <= 80 else repr(text[:77] + "...")
    if not text:
        raise PathRefused(f"{what} path is empty")
    if "\0" in text:
        raise PathRefused(f"{what} path {shown} contains a NUL character")
    if len(text) > MAX_PATH_CHARS:
        raise PathRefused(f"{what} path {shown} is longer than {MAX_PATH_CHARS} characters")
    if Path(text).is_absolute():
        raise PathRefused(f"{what} path {shown} must be relative to the spec's folder")
    hidden = _hidden_folder(Path(text).parts)
    if hidden:
        raise PathRefused(_hidden_problem(what, shown, hidden))
    try:
        base = folder.resolve()
        resolved = (base / text).resolve()
        if not resolved.is_relative_to(base):
            raise PathRefused(f"{what} path {shown} leads outside the spec's folder; copy the file beside the spec")
        # ``a/../b`` through a link can still land in a hidden folder the name does not show.
        hidden = ".." in Path(text).parts and _hidden_folder(resolved.relative_to(base).parts)
        if hidden:
            raise PathRefused(_hidden_problem(what, shown, hidden))
        info = os.stat(resolved)
    except PathRefused:
        raise
    except RuntimeError:  # Python before 3.13 reports a loop of links this way
        raise PathRefused(f"{what} path {shown} is a loop of links") from None
    except OSError as exc:
        raise PathRefused(_os_problem(exc, what, shown), missing=exc.errno == errno.ENOENT) from None
    if stat.S_ISDIR(info.st_mode):
        raise PathRefused(f"{what} path {shown} is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise PathRefused(f"{what} path {shown} is not a regular file (a device, pipe or socket)")
    return resolved


def _hidden_folder(parts: tuple[str, ...]) -> str | None:
    """The first hidden folder (``.git``, ``.cache``) among a path's folders, if any. Files in
    hidden folders are no deck's: a build does not look at them to tell whether a deck changed
    (printkit.pipeline.replay.folder_listing), so a deck may not read them."""
    return next((part for part in parts[:-1] if part.startswith(".") and part not in (".", "..")), None)


def _hidden_problem(what: str, shown: str, hidden: str) -> str:
    return (f"{what} path {shown} is inside the hidden folder {hidden!r}, which printkit does not read; "
            "move the file to a folder whose name does not start with '.'")


def _os_problem(exc: OSError, what: str, shown: str) -> str:
    if exc.errno == errno.ENOENT:
        return f"{what} file {shown} not found"
    if exc.errno == errno.ELOOP:
        return f"{what} path {shown} is a loop of links"
    if exc.errno == errno.ENAMETOOLONG:
        return f"{what} path {shown} has a name too long for the file system"
    if exc.errno == errno.ENOTDIR:
        return f"{what} path {shown} goes through something that is not a folder"
    return f"{what} path {shown} cannot be read: {exc.strerror or exc}"
