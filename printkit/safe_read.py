"""Reading files a spec points at: regular files only, never more than a size limit, text as UTF-8."""

from __future__ import annotations

import hashlib
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from printkit.errors import SpecError, UnsafeFileError
from printkit.memo import FileIdentity, Memo, file_identity, identity_of


def read_limited(path: Path, limit_bytes: int) -> bytes:
    """The bytes of the regular file at ``path``, refusing devices, pipes, folders and big files.

    The file is opened non-blocking and checked with fstat before any read, so a FIFO cannot hang
    printkit and ``/dev/zero`` cannot exhaust its memory.
    """
    return read_identified(path, limit_bytes)[0]


def utf8_text(raw: bytes, shown: str | Path, column: bool = False) -> str:
    """``raw`` read as UTF-8, without the byte-order mark some editors write first.

    Raises SpecError at ``shown``'s line (and with ``column``, the column) of the first byte that
    is not UTF-8. A CSV file's columns are its cells, so it is named by its line alone.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        at = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1 if column else None
        raise SpecError(shown, line, at, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); "
                        "save the file as UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text


@contextmanager
def opened_regular(path: Path) -> Iterator[tuple[int, os.stat_result]]:
    """The descriptor of the regular file at ``path`` and its fstat, closed after: opened
    non-blocking and checked before any read (UnsafeFileError for a folder, device or pipe)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnsafeFileError("is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFileError("is not a regular file")
        yield fd, info
    finally:
        os.close(fd)


def read_identified(path: Path, limit_bytes: int) -> tuple[bytes, FileIdentity]:
    """:func:`read_limited`, with the identity of the file read (taken from the open file before
    its bytes: a write meanwhile moves its change time, so the bytes are never vouched for by a
    later identity)."""
    with opened_regular(path) as (fd, info):
        if info.st_size > limit_bytes:
            raise UnsafeFileError(f"is {info.st_size} bytes; the limit is {limit_bytes}")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            # Ask for the size fstat gave (plus one byte to see the end): a read of the whole
            # limit makes Python set aside that much memory first, ~5 ms per file for a 40 MB
            # limit. Only a file longer than it said (growing, or /proc) reads on to the limit.
            data = handle.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += handle.read(limit_bytes + 1 - len(data))
    if len(data) > limit_bytes:
        raise UnsafeFileError(f"is larger than the limit of {limit_bytes} bytes")
    return data, identity_of(info)


# The sha256 of files a drawing is known by (a deck's own fonts and pictures), by path and the
# file's identity when it was hashed; a few MB at most.
_DIGESTS = Memo("file digests", entries=20_000)
_DIGEST_LIMIT_BYTES = 50_000_000  # the largest file a spec may name (a picture)


def content_digest(path) -> str | None:
    """The sha256 of the regular file at ``path``, worked out once while the file is unchanged;
    None when it cannot be read within the limit."""
    key = os.fspath(path)
    try:
        identity = file_identity(key)
    except OSError:
        return None
    known = _DIGESTS.get((key, identity))
    if known is not None:
        return known
    try:
        data, identity = read_identified(Path(key), _DIGEST_LIMIT_BYTES)
    except (OSError, UnsafeFileError):
        return None
    digest = hashlib.sha256(data).hexdigest()
    remember_digest(key, identity, digest)
    return digest


def known_digest(path, identity: FileIdentity) -> str | None:
    """The sha256 of the file at ``path`` when it was read with ``identity``, if still known."""
    return _DIGESTS.get((os.fspath(path), identity))


def remember_digest(path, identity: FileIdentity, digest: str) -> None:
    """Record the sha256 of a file just read whole (a picture checked), for :func:`content_digest`."""
    _DIGESTS.put((os.fspath(path), identity), digest)
