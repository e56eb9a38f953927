"""Writing output files safely: inside the output folder only, atomically, untouched when unchanged."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from printkit.errors import BuildError

_SAFE_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def safe_part(name: str) -> str:
    """``name`` checked as one path component printkit may create (no ``..``, no separators)."""
    if not _SAFE_PART.match(name) or ".." in name:
        raise BuildError(f"refusing to use {name!r} as a file or folder name in the output")
    return name


def inside(root: Path, relative: str | Path) -> Path:
    """``root / relative``, refusing any path that would land outside ``root``."""
    relative = Path(relative)
    if relative.is_absolute() or any(part in ("", ".", "..") for part in relative.parts):
        raise BuildError(f"refusing to write {str(relative)!r}: not a plain path inside {str(root)!r}")
    target = (root / relative).resolve()
    if root.resolve() not in target.parents:
        raise BuildError(f"refusing to write {str(target)!r}: outside the output folder {str(root)!r}")
    return target


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` via a temporary file in the same folder, fsync and rename.

    A file that already holds exactly ``data`` is left alone (its date too). Returns whether the
    file was written. On failure the temporary file is removed and ``path`` is as before.
    """
    try:
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(temp, "xb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, path)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        _fsync_dir(path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    return True


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not every platform lets a folder be opened for this.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
