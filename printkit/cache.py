"""The render cache: PDFs and PNGs a build made, kept in ``OUT/.printkit-cache/`` to be reused.

A rebuild renders only what changed: every PDF printkit draws from pages (sheets, per-card
files, backs, the alignment test) is found by a key made of everything that decides its bytes
(the pages with every drawing op of every face, the title, the bytes of each font and picture
the ops name, and :func:`code_fingerprint`: this printkit's own code and the installed games',
the cache format and the versions of the libraries that write PDFs and PNGs); a per-card PNG by its PDF's bytes and size.
A different printkit (any change to its code) makes different keys, so it never reads an older
printkit's entries.

An entry is ``.printkit-cache/XX/KEY``: a header naming its key and its payload's size, an
HMAC-SHA256 of both and the payload under a secret of this user's (:func:`secret`), and the
payload. One that does not check out (truncated, edited, renamed from another key, made by
someone else, larger than it says or than :data:`MAX_ENTRY_BYTES`, not a regular file) is ignored
and rendered again, and is never read past its declared size: an output folder someone shared
cannot put its cache's bytes into your PDFs. The cache is read and written only through folder
descriptors opened without following links, so a link inside it (``.printkit-cache/5d`` to
elsewhere) is neither followed nor written through.

The cache is listed nowhere in the manifest and may be deleted at any time. New entries are
written only when the build has put its files in place, each to a temporary under the build's
recorded id and renamed (a temporary is removed again on any error, a full disk included); the
oldest entries go when the cache outgrows :data:`MAX_BYTES`.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import os
import secrets
import stat as stat_module
import sys
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from printkit.memo import file_identity, identity_of
from printkit.safe_read import content_digest

if TYPE_CHECKING:
    from printkit.workers import Later

FOLDER = ".printkit-cache"
FORMAT = 3
MAGIC = b"printkit-cache 2\n"
_HEADER = len(MAGIC) + 65 + 11 + 65  # magic, key line, size line (10 digits), HMAC line
MAX_BYTES = 1 << 30  # 1 GiB; the least recently used entries go beyond it
MAX_ENTRY_BYTES = 32 << 20  # larger renders (sheets of many pictures) are not kept: held until the
# build ends, they would multiply its memory, and rendering them again costs little next to that


# The libraries whose code decides what a build writes (by import name): PDFs, pictures, PNGs,
# SVG art, specs and workbooks, OpenType fonts' outlines.
LIBRARIES = ("reportlab", "_rl_accel", "pypdfium2", "pypdfium2_raw", "PIL", "svglib", "lxml", "cssselect2",
             "tinycss2", "yaml", "python_calamine", "fontTools")


@lru_cache(maxsize=None)
def code_fingerprint() -> str:
    """What a cached file depends on besides its inputs: printkit's code, the Python and libraries
    running it, and the settings reportlab reads from outside its code."""
    import printkit

    digest = hashlib.sha256(f"format {FORMAT}\nprintkit {printkit.__version__}\n{sys.version}\n".encode())
    # Each library by the size, times and identity of the file that starts it: installing any
    # other version (or the same one again) writes that file anew. Asking the installed packages'
    # metadata for versions instead costs a no-op rebuild a tenth of its time.
    for name in LIBRARIES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None and spec.has_location else None
        digest.update(f"{name} {_stat_line(origin) if origin else '-'}\n".encode())
    digest.update(_reportlab_settings().encode("utf-8", "surrogatepass"))
    root = Path(printkit.__file__).resolve().parent
    # Its code and its data (built-in layouts, colour profiles): whatever a render may read, each
    # file by its size and times (any write to a file changes its ctime), as reading them all
    # would cost a rebuild with nothing to do a tenth of its time.
    for relative, line in _package_files(str(root)):
        digest.update(f"{relative}\0{line}\0".encode("utf-8", "surrogatepass"))
    digest.update(_installed_games_code().encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _installed_games_code() -> str:
    """The installed games' code (each entry point's top-level package, found without importing
    it), each file by its size and times as printkit's own: editing a game's faces or engine
    changes every key, as editing printkit does. A build cannot know its decks' games before
    reading them, so every installed game counts."""
    from printkit.games import installed_code

    lines = []
    for place in installed_code():
        if os.path.isdir(place):
            lines += [f"{place}/{relative} {line}" for relative, line in _package_files(place)]
        else:
            lines.append(f"{place} {_stat_line(place)}")
    return "\n".join(lines)


def _stat_line(path: str) -> str:
    try:
        return str(file_identity(path))
    except OSError:
        return "missing"


def _reportlab_settings() -> str:
    """What reportlab takes from outside its code (``RL_*`` variables, its settings files), which
    can change the bytes of a PDF (``RL_invariant``, ``RL_pageCompression`` …)."""
    lines = [f"{name}={value}" for name, value in sorted(os.environ.items()) if name.startswith("RL_")]
    places = [os.path.join(os.path.expanduser("~"), ".reportlab_settings")]
    places += [os.path.join(entry or os.getcwd(), name) for entry in sys.path
               for name in ("reportlab_settings.py", os.path.join("reportlab_settings", "__init__.py"))]
    spec = importlib.util.find_spec("reportlab")
    if spec is not None and spec.origin:
        places.append(os.path.join(os.path.dirname(spec.origin), "local_rl_settings.py"))
    lines += [f"{place} {_stat_line(place)}" for place in places if os.path.lexists(place)]
    return "\n".join(lines)


def _package_files(root: str) -> list[tuple[str, str]]:
    """Every file under ``root`` but compiled code, as (relative path, size and times), sorted."""
    found = []
    pending = [""]
    while pending:
        relative = pending.pop()
        with os.scandir(os.path.join(root, relative)) as entries:
            for entry in entries:
                name = f"{relative}/{entry.name}" if relative else entry.name
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        pending.append(name)
                elif entry.is_file():
                    found.append((name, str(identity_of(entry.stat()))))
    return sorted(found)


def _state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "printkit"


@lru_cache(maxsize=None)
def secret() -> bytes | None:
    """This user's key for cache entries (``$XDG_STATE_HOME/printkit/cache-key``, 32 random bytes,
    0600): an entry written with another key, by another user or machine, is not taken. Made
    whole before it is put in place, so two first builds at once agree on one; a file there that
    is not a key is replaced. None when it can be neither read nor made: the cache is then off."""
    path = _state_dir() / "cache-key"
    for _ in range(3):
        key = _read_key(path)
        if key is not None:
            return key
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temp = path.with_name(f".cache-key.{os.getpid()}.{secrets.token_hex(4)}.tmp")
            descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            try:
                with os.fdopen(descriptor, "wb") as handle:
                    handle.write(secrets.token_bytes(32))
                if os.path.lexists(path):  # there, but no key: replaced
                    os.replace(temp, path)
                else:
                    try:
                        os.link(temp, path)  # never over one another build has just made
                    except FileExistsError:
                        pass
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
        except OSError:
            return None
    return None


def _read_key(path: Path) -> bytes | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        data = handle.read(64)
    return data if len(data) == 32 else None


class NamedEntries:
    """Small entries of one kind in a render cache, by name (a picture's verdict by its sha256,
    an SVG's form): kept when the cache is flushed, found by later builds into the same folder."""

    def __init__(self, cache: "RenderCache", kind: str) -> None:
        self.cache, self.kind = cache, kind

    def get(self, name: str) -> bytes | None:
        key = self.cache.key(self.kind, lambda: name)
        return (self.cache.pending.get(key) or self.cache.get(key)) if key else None

    def put(self, name: str, data: bytes) -> None:
        key = self.cache.key(self.kind, lambda: name)
        if key:
            self.cache.pending[key] = data


class NamedTable:
    """Small entries of one kind in a render cache, by name, kept together as one entry (a
    picture's verdict by its sha256: 300 pictures are one file to read and write, not 300): read
    when first asked for, written again at the flush when a build added to it, the names it
    asked for first and at most ``limit`` of them. A name holds no space or newline, a value no
    newline. Two builds into one folder at once may each write it: the last one's is kept, and
    what the other added is made again when next asked for."""

    def __init__(self, cache: "RenderCache", kind: str, limit: int = 20_000) -> None:
        import threading

        self.cache, self.kind, self.limit = cache, kind, limit
        self._lock = threading.Lock()
        self._kept: dict[str, bytes] | None = None  # as read from the cache
        self._used: dict[str, bytes] = {}  # asked for or added by this build
        self._added = False

    def _table(self) -> dict[str, bytes]:
        if self._kept is None:
            self._kept = {}
            key = self._key()
            data = self.cache.get(key) if key else None
            for line in (data or b"").splitlines():
                name, _, value = line.partition(b" ")
                self._kept[name.decode("ascii", "replace")] = value
        return self._kept

    def _key(self) -> str:
        return self.cache.key(self.kind, lambda: "table")

    def get(self, name: str) -> bytes | None:
        with self._lock:
            value = self._used.get(name)
            if value is None:
                value = self._table().get(name)
                if value is not None:
                    self._used[name] = value
            return value

    def put(self, name: str, data: bytes) -> None:
        with self._lock:
            self._used[name] = data
            self._added = True

    def keep(self) -> None:
        """Give the cache the table to store at its flush, if this build added to it."""
        with self._lock:
            key = self._key() if self._added else ""
            if not key:
                return
            table = dict(self._used)
            for name, value in self._table().items():
                if len(table) >= self.limit:
                    break
                table.setdefault(name, value)
            self.cache.keep(key, b"".join(b"%s %s\n" % (name.encode("ascii"), value)
                                          for name, value in sorted(table.items())))


# Where pictures' verdicts are kept between processes (:func:`printkit.images.checked_picture` reads
# it; :func:`picture_verdicts_kept` lends a :class:`NamedTable` of the render cache): an object
# with get(name) -> bytes | None and put(name, data), trusted as this user's own; None keeps them
# for the process only. Here, so that lending it imports no picture checks.
picture_verdicts: ContextVar[object | None] = ContextVar("picture_verdicts", default=None)


@contextlib.contextmanager
def picture_verdicts_kept(out_dir: Path, enabled: bool = True) -> Iterator[None]:
    """While the block runs (reading specs, building), pictures' verdicts
    (:data:`picture_verdicts`) are found in ``out_dir``'s render cache, so a
    rebuild decodes no picture checked before; new ones are stored when it ends without error."""
    cache = RenderCache(out_dir, enabled)
    verdicts = NamedTable(cache, "picture-verdicts")
    token = picture_verdicts.set(verdicts)
    try:
        yield
    finally:
        picture_verdicts.reset(token)
    verdicts.keep()
    cache.flush(secrets.token_hex(8))


def _seal(key: str, payload: bytes, size: int) -> bytes:
    mac = hmac.new(secret() or b"", f"{key}\n{size}\n".encode(), hashlib.sha256)
    mac.update(payload)
    return mac.hexdigest().encode()


class RenderCache:
    """Cached renders in one output folder for one build; :meth:`flush` stores the new ones."""

    def __init__(self, out_dir: Path, enabled: bool = True) -> None:
        self.folder = out_dir / FOLDER
        # A cache folder that is a link (or a file) is not printkit's: neither read nor written.
        self.enabled = enabled and not os.path.islink(self.folder) and (
            not os.path.lexists(self.folder) or self.folder.is_dir()) and secret() is not None
        self.pending: dict[str, bytes] = {}
        # Entries whose bytes are read when the cache is flushed (an output file this build wrote,
        # read back then), not held from their making to the build's end: key -> how to read them.
        self.pending_reads: dict[str, Callable[[], bytes | None]] = {}
        self.hits = self.misses = 0
        self._coming: dict[str, object] = {}  # key -> the Later of a miss not yet taken

    def file_hash(self, path: Path) -> str:
        """The sha256 of a font or picture a face uses ("-" when it cannot be read): hashed once
        while the file is unchanged (:func:`printkit.safe_read.content_digest`), as the picture
        checked when the spec was read already was."""
        return content_digest(path) or "-"

    def key(self, kind: str, description: Callable[[], str | Iterable[str]],
            files: Callable[[], Iterable[Path]] = tuple) -> str:
        """The key of an entry: printkit's code, ``kind``, ``description()`` and the files' bytes.

        ``description()`` may give its text in parts (a 10,000-card deck's pages: the key is
        hashed as they come, never held whole). Both are asked for only when the cache is on: a
        build with ``--no-cache`` describes and hashes nothing (its key is empty, and
        :meth:`cached` makes every entry afresh).
        """
        if not self.enabled:
            return ""
        digest = hashlib.sha256(f"{code_fingerprint()}\n{kind}\n".encode())
        text = description()
        for part in (text,) if isinstance(text, str) else text:
            digest.update(part.encode("utf-8", "surrogatepass"))
        files = files()
        for path in sorted(set(map(str, files))):
            digest.update(f"\n{path}\0{self.file_hash(Path(path))}".encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / key

    def _folder(self, sub: str | None = None, create: bool = False) -> int | None:
        """A descriptor of the cache folder, or of its subfolder ``sub``, each opened without
        following a link (None when one is a link, not a folder, or missing and not made)."""
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            if create:
                self.folder.mkdir(parents=True, exist_ok=True)
            top = os.open(self.folder, flags)
        except OSError:
            return None
        if sub is None:
            return top
        try:
            if create:
                try:
                    os.mkdir(sub, dir_fd=top)
                except FileExistsError:
                    pass
            return os.open(sub, flags, dir_fd=top)
        except OSError:
            return None
        finally:
            os.close(top)

    def get(self, key: str) -> bytes | None:
        if not self.enabled:
            return None
        folder = self._folder(key[:2])
        if folder is None:
            return None
        try:
            descriptor = os.open(key, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
        except OSError:
            return None
        finally:
            os.close(folder)
        try:
            with os.fdopen(descriptor, "rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat_module.S_ISREG(info.st_mode) or info.st_size > _HEADER + MAX_ENTRY_BYTES:
                    return None
                payload = self._read_entry(handle, key, info.st_size)
                if payload is not None:
                    try:
                        os.utime(handle.fileno())  # recently used: pruned last
                    except OSError:
                        pass
                return payload
        except OSError:
            return None

    @staticmethod
    def _read_entry(handle, key: str, file_size: int) -> bytes | None:
        """The payload of the entry open in ``handle`` if it is ``key``'s, sealed with this user's
        secret; read no further than its header says."""
        magic = handle.read(len(MAGIC))
        named = handle.readline(65)
        counted = handle.readline(12)
        sealed = handle.readline(65)
        if magic != MAGIC or named != f"{key}\n".encode() or not sealed.endswith(b"\n"):
            return None
        try:
            size = int(counted.strip())
        except ValueError:
            return None
        header = len(magic) + len(named) + len(counted) + len(sealed)
        if not 0 <= size <= MAX_ENTRY_BYTES or header + size != file_size:
            return None
        payload = handle.read(size)
        if len(payload) != size or not hmac.compare_digest(sealed[:-1], _seal(key, payload, size)):
            return None
        return payload

    def cached_many(self, keys: Sequence[str], make: Callable[[list[int]], list[bytes]]) -> list[bytes]:
        """The cached bytes for each of ``keys``; ``make(indexes)`` makes those not cached, at once
        (so the pictures of many faces can come from one PDF)."""
        if not self.enabled:
            return make(list(range(len(keys))))
        found: list[bytes | None] = []
        for key in keys:
            data = self.pending.get(key)
            found.append(data if data is not None else self.get(key))
        missing = [i for i, data in enumerate(found) if data is None]
        self.hits += len(keys) - len(missing)
        self.misses += len(missing)
        if missing:
            for i, data in zip(missing, make(missing)):
                found[i] = data
                if self.enabled and len(data) <= MAX_ENTRY_BYTES:
                    self.pending[keys[i]] = data
        return found  # type: ignore[return-value]

    def cached(self, key: str, make: Callable[[], bytes]) -> bytes:
        """The cached bytes for ``key``, else ``make()`` (stored by the next :meth:`flush`)."""
        data = self.found(key)
        if data is None:
            data = make()
            self.keep(key, data)
        return data

    @property
    def has_pending(self) -> bool:
        """Whether :meth:`flush` has entries to store."""
        return bool(self.pending or self.pending_reads)

    def _pending(self, key: str) -> bytes | None:
        data = self.pending.get(key)
        if data is None and key in self.pending_reads:
            data = self.pending_reads[key]()
        return data

    def found(self, key: str) -> bytes | None:
        """The cached bytes for ``key``; None when there are none (a miss) or the cache is off."""
        if not self.enabled:
            return None
        data = self._pending(key)
        if data is None:
            data = self.get(key)
        if data is None:
            self.misses += 1
        else:
            self.hits += 1
        return data

    def keep(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key`` at the next :meth:`flush`, unless it is over :data:`MAX_ENTRY_BYTES`."""
        if self.enabled and len(data) <= MAX_ENTRY_BYTES:
            self.pending[key] = data

    def keep_read(self, key: str, read: Callable[[], bytes | None]) -> None:
        """Store what ``read()`` gives under ``key`` at the next :meth:`flush` (nothing when it gives
        None or more than :data:`MAX_ENTRY_BYTES`), read only then: a file the build wrote is read
        back when the cache is stored, one at a time, rather than held until the build ends."""
        if self.enabled:
            self.pending_reads[key] = read

    def cached_later(self, key: str, make: Callable[[], "Later"]) -> "Later":
        """As :meth:`cached`, for work that may run in a worker (:mod:`printkit.workers`): the cached
        bytes as a finished Later, else ``make()``'s Later, stored when its result is taken."""
        from printkit.workers import Later

        if not self.enabled:
            return make()
        data = self._pending(key)
        if data is None:
            data = self.get(key)
        if data is not None:
            self.hits += 1
            return Later.ready(data)
        coming = self._coming.get(key)
        if coming is not None:  # asked for again before its result was taken: made once
            self.hits += 1
            return coming

        def keep(data: bytes) -> None:
            self._coming.pop(key, None)
            if len(data) <= MAX_ENTRY_BYTES:
                self.pending[key] = data

        self.misses += 1
        later = self._coming[key] = make().then(keep)
        return later

    def flush(self, build_id: str) -> None:
        """Store the new entries (each a temporary ``.KEY.BUILD_ID.tmp``, then renamed); best effort:
        a cache that cannot be written costs the next build time, never this build its files."""
        if not (self.enabled and self.has_pending):
            return
        try:
            top = self._folder(create=True)
            if top is None:
                return
            try:
                _write_new(top, "CACHEDIR.TAG", b"Signature: 8a477f597d28d172789f06886806bc55\n"
                           b"# printkit's render cache; safe to delete. See https://bford.info/cachedir/\n")
            finally:
                os.close(top)
            for key in [*self.pending, *(k for k in self.pending_reads if k not in self.pending)]:
                # Each entry's bytes are this call's alone: one read back is let go before the next.
                if not self._store(key, self._pending(key), build_id):
                    return
        finally:
            self.pending = {}
            self.pending_reads = {}
        self.prune()

    def _store(self, key: str, data: bytes | None, build_id: str) -> bool:
        """Write one entry (none for ``data`` None or too large); False when the cache cannot be written."""
        from printkit.outputs import temp_path

        if data is None or len(data) > MAX_ENTRY_BYTES:
            return True
        folder = self._folder(key[:2], create=True)
        if folder is None:
            return False  # a subfolder that is a link or a file: nothing is written through it
        try:
            temp = temp_path(Path(key), build_id).name
            header = MAGIC + f"{key}\n{len(data):010d}\n".encode() + _seal(key, data, len(data)) + b"\n"
            # The header, then the payload as it is: a sheet's PDF is not copied to be joined.
            if not _write_new(folder, temp, header, data):
                return False
            # A plain rename: an entry already there under this key holds these very bytes.
            try:
                os.rename(temp, key, src_dir_fd=folder, dst_dir_fd=folder)
            except OSError:
                _remove(folder, temp)
                return False
        finally:
            os.close(folder)
        return True

    def prune(self, limit: int = MAX_BYTES) -> None:
        """Remove the least recently used entries while the cache holds more than ``limit`` bytes."""
        entries = []
        top = self._folder()
        if top is None:
            return
        try:
            names = [entry.name for entry in os.scandir(top)
                     if entry.is_dir(follow_symlinks=False) and len(entry.name) == 2]
            for name in names:
                folder = self._folder(name)
                if folder is None:
                    continue
                try:
                    for entry in os.scandir(folder):
                        if entry.is_file(follow_symlinks=False) and len(entry.name) == 64:
                            info = entry.stat(follow_symlinks=False)
                            entries.append((info.st_mtime_ns, info.st_size, name, entry.name))
                finally:
                    os.close(folder)
        except OSError:
            return
        finally:
            os.close(top)
        total = sum(size for _, size, _, _ in entries)
        for _, size, name, entry in sorted(entries):
            if total <= limit:
                break
            folder = self._folder(name)
            if folder is not None:
                if _remove(folder, entry):
                    total -= size
                os.close(folder)


def _write_new(folder: int, name: str, *parts: bytes) -> bool:
    """Write ``parts`` one after the other to a new file ``name`` in the folder ``folder`` (never
    through a link, never over a file); on any error (a full disk) what was begun is removed.
    Whether it was written."""
    try:
        descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=folder)
    except FileExistsError:
        return name == "CACHEDIR.TAG"
    except OSError:
        return False
    try:
        with os.fdopen(descriptor, "wb") as handle:
            for part in parts:
                handle.write(part)
    except OSError:
        _remove(folder, name)
        return False
    return True


def _remove(folder: int, name: str) -> bool:
    try:
        os.unlink(name, dir_fd=folder)
        return True
    except OSError:
        return False


def face_files(pages) -> set[str]:
    """The fonts and pictures the ops of ``pages`` draw with."""
    from printkit.fonts import SYMBOLS
    from printkit.layout.ops import op_files

    files = {str(SYMBOLS)}  # a PDF's initial font when its pages have no text
    for page in pages:
        for face in {p.face for p in page.placements}:
            files |= face.files
        files |= op_files(page.ops)
    return files


def pages_description(pages) -> Iterator[str]:
    """What ``pages`` draw, for a cache key, in parts: each face by its digest (described once
    however often it is placed), the page-level ops (crop marks, repeated on every sheet) once
    per kind. The parts joined are the description."""
    described: dict[tuple, int] = {}
    for index, page in enumerate(pages):
        number = described.setdefault(page.ops, len(described))
        yield ("\n" if index else "") + repr((page.size, page.trim, page.bleed, number, [
            (p.face.digest, p.x_mm, p.y_mm, p.clip, p.clockwise_deg) + ((p.scale,) if p.scale != 1.0 else ())
            for p in page.placements]))
    for ops in described:
        yield "\n" + repr(ops)
