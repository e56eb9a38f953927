"""Writing output files safely: inside the output folder only, atomically, untouched when unchanged.

A build stages its files (:class:`Staging`): each is written to a temporary ``.NAME.ID.tmp``
beside its target and fsynced, and only when every file of the build is staged are they renamed
into place. ``ID`` is a build id that the build records in the output folder's manifest
before it writes its first temporary. A build that fails leaves the previous files as they were
and removes its temporaries; those a killed build leaves behind are removed by the next build
(:func:`remove_temporaries`), and only they: a file merely named like a temporary carries no id
the manifest recorded and that proves itself printkit's (:mod:`printkit.ownership`), so it is
never touched.

A file already at a target is replaced only when printkit wrote it (:meth:`Staging.check_replaceable`,
given what the previous manifest lists); otherwise the build is refused before anything is renamed.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Collection, Iterator, Mapping

from printkit.errors import BuildError, UnsafeFileError
from printkit.memo import identity_of
from printkit.safe_read import read_limited

# Names Windows reserves in any folder, whatever the extension.
_RESERVED = frozenset(["con", "prn", "aux", "nul"] + [f"{p}{n}" for p in ("com", "lpt") for n in range(1, 10)])
_MAX_PART = 80  # characters: well under the 255 bytes of a file name even in UTF-8 Hangul


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def safe_part(name: str) -> str:
    """One path component printkit may create, derived from ``name`` (a spec's stem, a variant).

    Letters and digits of any script are kept (``카드`` stays ``카드``), as are ``_``, ``-`` and
    single dots; every run of anything else (spaces, separators, ``..``) becomes ``-``. The result
    never starts or ends with ``-`` or ``.``, is never empty (``deck``) and is never a name Windows
    reserves, so it is one plain component on every platform.
    """
    text = unicodedata.normalize("NFC", name)  # macOS spells Hangul file names decomposed
    text = "".join(ch if ch in "_.-" or unicodedata.category(ch)[0] in "LNM" else "-" for ch in text)
    text = re.sub(r"-{2,}", "-", re.sub(r"\.{2,}", "-", text)).strip("-.")[:_MAX_PART].rstrip("-.")
    if not text:
        return "deck"
    return f"deck-{text}" if text.split(".")[0].casefold() in _RESERVED else text


# What printkit itself writes at the top of an output folder: no deck's folder may take one of these names.
_OWN_NAMES = ("manifest.json", "alignment-a4.pdf", "alignment-letter.pdf")


def deck_part(deck_id: str) -> str:
    """The folder of a deck (its spec's stem, made safe by :func:`safe_part`), kept apart from
    printkit's own files: a spec named ``manifest.json.yaml`` builds into ``deck-manifest.json/``."""
    part = safe_part(deck_id)  # never starts with a dot, so never a hidden folder of printkit's
    return f"deck-{part}" if part.casefold() in _OWN_NAMES else part


def inside(root: Path, relative: str | Path, resolved_root: Path | None = None) -> Path:
    """``root / relative``, refusing any path that would land outside ``root`` (``resolved_root``:
    ``root.resolve()``, when the caller has it for many paths)."""
    relative = Path(relative)
    if relative.is_absolute() or any(part in ("", ".", "..") for part in relative.parts):
        raise BuildError(f"refusing to write {str(relative)!r}: not a plain path inside {str(root)!r}")
    target = (root / relative).resolve()
    if (resolved_root or root.resolve()) not in target.parents:
        raise BuildError(f"refusing to write {str(target)!r}: outside the output folder {str(root)!r}")
    return target


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


BUILD_ID = re.compile(r"^[0-9a-f]{16}$")
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<id>[0-9a-f]{16})\.tmp$")
# How deep below the output folder printkit writes (deck/variant/cards/FILE), with room to spare.
_MAX_DEPTH = 6


def new_build_id() -> str:
    """A random id naming one build's temporaries (64 bits: no two builds share one)."""
    return secrets.token_hex(8)


def temp_path(path: Path, build_id: str) -> Path:
    """Where ``path`` is written before it is renamed into place: ``.NAME.ID.tmp`` beside it."""
    return path.with_name(f".{path.name}.{build_id}.tmp")


def canonical(relative: str) -> bool:
    """Whether ``relative`` is spelled as printkit spells the files it writes: parts joined by
    single ``/``, none empty, ``.``, ``..`` or hidden, no backslash or control character, NFC,
    no deeper than printkit writes. A manifest entry spelled otherwise (``deck//x.pdf``,
    ``deck/./x.pdf``, ``deck/x.pdf/``) names no file printkit wrote."""
    if not isinstance(relative, str) or not relative or "\\" in relative:
        return False
    if unicodedata.normalize("NFC", relative) != relative or any(ord(ch) < 32 or ord(ch) == 127 for ch in relative):
        return False
    parts = relative.split("/")
    return len(parts) <= _MAX_DEPTH and all(part and not part.startswith(".") for part in parts)


def remove_temporaries(root: Path, build_ids: Collection[str], signed: Callable[[str], bool]) -> int:
    """Remove the temporaries the builds ``build_ids`` left in ``root``; how many went.

    Only regular files named ``.NAME.ID.tmp`` (NAME a name printkit writes) with one of those ids
    go, and only ids that ``signed`` proves printkit made: the manifest the ids come from could
    have been written by anyone. Links are never followed and nothing else is touched.
    """
    ids = {i for i in build_ids if isinstance(i, str) and BUILD_ID.match(i) and signed(i)}
    if not ids:
        return 0
    removed = 0
    base = len(root.parts)
    for folder, dirs, names in os.walk(root, followlinks=False):
        if len(Path(folder).parts) - base >= _MAX_DEPTH:
            dirs[:] = []
        for name in names:
            match = _TEMP.match(name)
            if match is None or match["id"] not in ids or not canonical(match["name"]):
                continue
            path = Path(folder) / name
            try:
                if path.is_file() and not path.is_symlink():
                    path.unlink()
                    removed += 1
            except OSError:
                pass
    return removed


_CHUNK = 1 << 20  # bytes read at a time when a file is hashed or compared


def current_sha256(path: Path) -> str | None:
    """The sha256 of the regular file at ``path``; None for a link, a folder, nothing or an unreadable file.

    Read a piece at a time: a deck's sheets of pictures run to hundreds of megabytes."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            while piece := handle.read(_CHUNK):
                digest.update(piece)
        return digest.hexdigest()
    except OSError:
        return None


def _create_new(path: Path) -> int:
    """A new file opened for writing; whatever held the name (even a symlink) is replaced, never followed."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        return os.open(path, flags, 0o666)
    except FileExistsError:
        path.unlink()  # removes a link itself, not what it points to
        return os.open(path, flags, 0o666)


@dataclass
class Staging:
    """The files of one build: written to temporaries first, renamed into place together."""

    root: Path
    build_id: str = field(default_factory=new_build_id)
    # Called once, before the first temporary is written: records build_id where the next build finds it.
    before_first_write: Callable[[], None] | None = None
    staged: list[tuple[Path, Path]] = field(default_factory=list)  # (temporary, target)
    created: list[Path] = field(default_factory=list)  # folders this build made
    _announced: bool = False
    # The root as it resolved when the first file was staged: every later file must land inside it.
    _root_real: Path | None = field(default=None, repr=False)

    def _target(self, relative: str | Path) -> Path:
        """Where ``relative`` lands: inside the root as it resolved first, and not a link."""
        if self._root_real is None:
            self._root_real = self.root.resolve()
        target = inside(self.root, relative, self._root_real)
        if os.path.islink(self.root / relative):  # printkit makes no links: someone else put it there
            raise BuildError(f"refusing to replace {str(self.root.resolve() / relative)!r}: it is a link "
                             "printkit did not make; move it away or use another --out")
        return target

    def stage(self, relative: str | Path, data: bytes) -> bool:
        """Write ``data`` for ``ROOT/relative`` to a temporary; False when the file already holds it."""
        target = self._target(relative)
        try:
            if target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data:
                return False
        except OSError as exc:
            raise BuildError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
        self._announce()
        try:
            self._make_folder(target.parent)
            temp = temp_path(target, self.build_id)
            self.staged.append((temp, target))
            with os.fdopen(_create_new(temp), "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise BuildError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
        return True

    def stage_stream(self, relative: str | Path, write: Callable[["StreamedFile"], object]) -> "StreamedFile":
        """Stage what ``write(out)`` writes to ``out`` for ``ROOT/relative``, never holding it all in
        memory; ``out`` says whether the file changes (not when it already holds those bytes), their
        size and sha256.

        While what is written matches the file already there, nothing is written: the temporary is
        made (under the recorded build id, as :meth:`stage` makes it) at the first difference. If
        ``write`` fails or is interrupted, the temporary is removed before the error goes on, so no
        part of a file stays behind.
        """
        target = self._target(relative)
        out = StreamedFile(self, target)
        try:
            write(out)
            out.finish()
        except BaseException as exc:
            out.close()
            self._unstage(out.temp)
            # The file's own failures say which file; what ``write`` raised otherwise goes on as it is.
            if isinstance(exc, OSError) and exc is out.error:
                raise BuildError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
            raise
        return out

    def _announce(self) -> None:
        if not self._announced:
            if self.before_first_write is not None:
                self.before_first_write()
            self._announced = True

    def _unstage(self, temp: Path) -> None:
        try:
            temp.unlink(missing_ok=True)
        except OSError:
            return  # still staged: abort() tries again, and the next build knows its id
        self.staged = [pair for pair in self.staged if pair[0] != temp]

    def check_replaceable(self, written: Mapping[Path, Collection[str]],
                          sha256_of: Callable[[Path], str | None] = current_sha256) -> None:
        """Refuse (before any rename) to replace a file printkit did not write or that was changed since.

        ``written`` maps each file printkit wrote earlier (resolved path, as staged) to the sha256
        values it may hold. A staged target that already exists must be listed there and still hold
        one of them (``sha256_of(target)``: :func:`current_sha256`, or a build's hash of the file
        while it stays unchanged); a link or folder never qualifies. The error names the first
        file refused.
        """
        refused: list[tuple[Path, str]] = []
        for _, target in self.staged:
            if not os.path.lexists(target):
                continue  # a first write: nothing to lose
            hashes = written.get(target)
            if hashes is None:
                refused.append((target, "printkit did not write it"))
            elif sha256_of(target) not in hashes:
                refused.append((target, "it was changed since printkit wrote it"))
        if refused:
            target, reason = refused[0]
            more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
            raise BuildError(f"refusing to replace {str(target)!r}{more}: {reason}; "
                             "move it away or use another --out")

    def commit(self) -> None:
        """Rename every staged file into place, then make the renames durable."""
        try:
            for temp, target in self.staged:
                os.replace(temp, target)
        except OSError as exc:
            raise BuildError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
        for folder in dict.fromkeys(target.parent for _, target in self.staged):
            _fsync_dir(folder)
        self.staged = []

    def abort(self) -> None:
        """Remove the temporaries not yet renamed and the folders this build made that stayed empty."""
        for temp, _ in self.staged:
            try:
                temp.unlink(missing_ok=True)
            except OSError:
                pass
        self.staged = []
        for folder in reversed(self.created):
            try:
                folder.rmdir()  # only succeeds while empty: files of others stay
            except OSError:
                pass

    def make_folder(self, folder: Path) -> None:
        """Make ``folder`` and any missing parents; :meth:`abort` removes them again while empty."""
        try:
            self._make_folder(folder)
        except OSError as exc:
            raise BuildError(f"cannot make the folder {str(folder)!r}: {exc.strerror or exc}") from None

    def _make_folder(self, folder: Path) -> None:
        missing = []
        while not folder.exists():
            missing.append(folder)
            folder = folder.parent
        for path in reversed(missing):
            path.mkdir()
            self.created.append(path)


class StreamedFile:
    """What :meth:`Staging.stage_stream` lends its writer: the bytes written are counted and hashed
    (sha256) and compared with the file already at the target; the temporary is made at the first
    difference, beginning with the part that matched, copied from the file (inside the kernel
    where it can), which must have kept its size and times (:func:`printkit.memo.identity_of`)
    from when it was opened: a sheet of pictures differs near its end, and hashing what was just
    compared again would cost as much as the comparing."""

    def __init__(self, staging: Staging, target: Path) -> None:
        self.staging, self.target = staging, target
        self.temp = temp_path(target, staging.build_id)
        self.size = 0
        self.error: OSError | None = None  # the file's own failure, if one stopped the writing
        self._digest = hashlib.sha256()
        self._handle = None  # the temporary, once made
        self._old = None  # the file already there, while what is written matches it
        self._old_identity = None  # its size and times when opened
        try:
            if target.is_file():
                # Unbuffered: what is compared, and copied at a difference, is what the file holds then.
                self._old = open(target, "rb", buffering=0)
                self._old_identity = identity_of(os.fstat(self._old.fileno()))
        except OSError:
            pass  # unreadable: written afresh (and the rename says what is wrong)

    @property
    def changed(self) -> bool:
        """Whether the temporary was made: the file changes."""
        return self._handle is not None

    def write(self, data: bytes) -> int:
        try:
            if self._handle is None and (self._old is None or _read(self._old, len(data)) != data):
                self._start()
            if self._handle is not None:
                self._handle.write(data)
        except OSError as exc:
            self.error = exc
            raise
        self._digest.update(data)
        self.size += len(data)
        return len(data)

    def hexdigest(self) -> str:
        return self._digest.hexdigest()

    def read_back(self) -> bytes | None:
        """The bytes written, once the file is finished: read from the temporary while it is staged,
        from the file in place once it is renamed there (or from the file that held them already);
        None when they can no longer be read as they were written."""
        for path in (self.temp, self.target) if self.changed else (self.target,):
            try:
                data = read_limited(path, self.size)  # a regular file no longer than what was written
            except (OSError, UnsafeFileError):
                continue
            if hashlib.sha256(data).hexdigest() == self.hexdigest():
                return data
        return None

    def finish(self) -> None:
        """Make the temporary durable, or, when the file there holds just what was written, let it be."""
        try:
            if self._handle is None and (self._old is None or self._old.read(1)):
                self._start()  # a new file, or the old one is longer
            if self._handle is not None:
                self._handle.flush()
                os.fsync(self._handle.fileno())
        except OSError as exc:
            self.error = exc
            raise
        self.close()

    def close(self) -> None:
        for handle in (self._handle, self._old):
            if handle is not None:
                try:
                    handle.close()
                except OSError:
                    pass
        self._old = None

    def _start(self) -> None:
        staging = self.staging
        staging._announce()  # the build id is recorded before its temporary exists
        staging._make_folder(self.target.parent)
        staging.staged.append((self.temp, self.target))
        self._handle = os.fdopen(_create_new(self.temp), "wb")
        if self._old is None:
            return
        old, self._old = self._old, None
        with old:
            left = self.size - _copy_start(old.fileno(), self._handle.fileno(), self.size)
            self._handle.seek(self.size - left)
            old.seek(self.size - left)
            while left and (piece := _read(old, min(_CHUNK, left))):
                self._handle.write(piece)
                left -= len(piece)
            unchanged = identity_of(os.fstat(old.fileno())) == self._old_identity
        if left or not unchanged:
            raise BuildError(f"cannot write {str(self.target)!r}: it changed while printkit was writing it")


def _copy_start(source: int, target: int, size: int) -> int:
    """Copy up to ``size`` bytes from the start of the file ``source`` to the start of ``target``
    inside the kernel (``copy_file_range``: no pass through Python's buffers, a shared extent
    where the file system can); how many were copied, fewer (down to none) where it cannot."""
    done = 0
    copy = getattr(os, "copy_file_range", None)
    try:
        while copy is not None and done < size:
            count = copy(source, target, size - done, done, done)
            if count <= 0:
                break
            done += count
    except OSError:
        pass  # not across these file systems: the rest is copied by reading and writing
    return done


def _read(handle, size: int) -> bytes:
    """``size`` bytes from an unbuffered file, fewer only at its end."""
    parts, left = [], size
    while left > 0:
        piece = handle.read(left)
        if not piece:
            break
        parts.append(piece)
        left -= len(piece)
    return parts[0] if len(parts) == 1 else b"".join(parts)


@contextmanager
def exclusive(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for one build: another build into it while this one runs is refused.

    The lock is the operating system's advisory lock on the open folder (``flock``): nothing is
    written for it, and it ends with the process however that ends. Where there is no such lock
    (Windows, some network file systems) builds are not locked against each other.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        fd = None
    if fd is None:  # a folder one may write but not read: build unlocked rather than not at all
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BuildError(f"another printkit build is writing to {str(folder)!r}; "
                             "run this one when it has finished, or use another --out") from None
        except OSError:
            pass  # the file system has no locks: build unlocked, as on Windows
        yield
    finally:
        os.close(fd)


def remove_outputs(root: Path, files: Collection[tuple[str, str]],
                   proven: Callable[[str, str, Path], bool]) -> set[str]:
    """Remove files printkit wrote in ``root`` (relative path, sha256 it wrote), and the folders
    that leaves empty; the paths removed.

    A file goes only while its path is spelled canonically (:func:`canonical`), ``proven(relative,
    sha256, path)`` says it is still the very file printkit put there, and it is a regular file
    (never a link) that still holds those bytes: one changed since printkit wrote it is the
    user's now and stays, as does anything else in its folder. Folders go only when empty, up
    to (not including) ``root``.
    """
    removed: set[str] = set()
    folders: set[Path] = set()
    for relative, sha in files:
        if not canonical(relative):
            continue
        try:
            path = inside(root, relative)
        except BuildError:
            continue
        if not proven(relative, sha, path) or current_sha256(path) != sha or not proven(relative, sha, path):
            continue  # proven again after the hashing: the file is the same one that was hashed
        try:
            path.unlink()
        except OSError:
            continue
        removed.add(relative)
        folders.add(path.parent)
    top = root.resolve()
    for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
        while folder != top and top in folder.parents:
            try:
                folder.rmdir()  # only succeeds while empty
            except OSError:
                break
            folder = folder.parent
    for folder in folders:
        if folder.exists():
            _fsync_dir(folder)
    return removed
