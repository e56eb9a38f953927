"""The render cache: PDFs and PNGs a build made, kept in ``OUT/.printkit-cache/`` to be reused.

A rebuild renders only what changed: every PDF printkit draws from pages (sheets, per-card
files, backs, the alignment test) is found by a key made of everything that decides its bytes
(the pages with every drawing op of every face, the title, the bytes of each font and picture
the ops name, and :func:`code_fingerprint`: this printkit's own code, the cache format and the
versions of the libraries that write PDFs and PNGs); a per-card PNG by its PDF's bytes and size.
A different printkit (any change to its code) makes different keys, so it never reads an older
printkit's entries.

An entry is ``.printkit-cache/XX/KEY``: a header, the payload's sha256 and the payload. One
that does not check out (truncated, edited, not a regular file) is ignored and rendered again.
The cache is listed nowhere in the manifest and may be deleted at any time. New entries are
written only when the build has put its files in place, each to a temporary under the build's
recorded id and renamed; the oldest entries go when the cache outgrows :data:`MAX_BYTES`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

if TYPE_CHECKING:
    from printkit.workers import Later

FOLDER = ".printkit-cache"
FORMAT = 1
MAGIC = b"printkit-cache 1\n"
MAX_BYTES = 1 << 30  # 1 GiB; the least recently used entries go beyond it
MAX_ENTRY_BYTES = 32 << 20  # larger renders (sheets of many pictures) are not kept: held until the
# build ends, they would multiply its memory, and rendering them again costs little next to that


# Where a build keeps SVG forms between builds (printkit.render.pdf draws with it): an object with
# get(name) -> bytes | None and put(name, data); None keeps them for the process only. Here, not
# in the renderer, so that a build that renders nothing does not load reportlab to say so.
svg_form_store: ContextVar[object | None] = ContextVar("svg_form_store", default=None)


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
    return digest.hexdigest()


def _stat_line(path: str) -> str:
    try:
        stat = os.stat(path)
    except OSError:
        return "missing"
    return f"{stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns} {stat.st_ino}"


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
                    stat = entry.stat()
                    found.append((name, f"{stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns}"))
    return sorted(found)


class RenderCache:
    """Cached renders in one output folder for one build; :meth:`flush` stores the new ones."""

    def __init__(self, out_dir: Path, enabled: bool = True) -> None:
        self.folder = out_dir / FOLDER
        # A cache folder that is a link (or a file) is not printkit's: neither read nor written.
        self.enabled = enabled and not os.path.islink(self.folder) and (
            not os.path.lexists(self.folder) or self.folder.is_dir())
        self.pending: dict[str, bytes] = {}
        self.hits = self.misses = 0
        self._coming: dict[str, object] = {}  # key -> the Later of a miss not yet taken
        self._files: dict[tuple, str] = {}  # (path, size, mtime, inode) -> sha256 of its bytes

    def file_hash(self, path: Path) -> str:
        """The sha256 of a font or picture a face uses ("-" when it cannot be read)."""
        try:
            stat = os.stat(path)
        except OSError:
            return "-"
        key = (str(path), stat.st_size, stat.st_mtime_ns, stat.st_ino)
        if key not in self._files:
            try:
                self._files[key] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                return "-"
        return self._files[key]

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

    def get(self, key: str) -> bytes | None:
        if not self.enabled:
            return None
        path = self._path(key)
        try:
            if path.is_symlink() or not path.is_file():
                return None
            data = path.read_bytes()
        except OSError:
            return None
        head = len(MAGIC)
        if not data.startswith(MAGIC) or data[head + 64:head + 65] != b"\n":
            return None
        payload = data[head + 65:]
        if hashlib.sha256(payload).hexdigest().encode() != data[head:head + 64]:
            return None
        try:
            os.utime(path)  # recently used: pruned last
        except OSError:
            pass
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

    def found(self, key: str) -> bytes | None:
        """The cached bytes for ``key``; None when there are none (a miss) or the cache is off."""
        if not self.enabled:
            return None
        data = self.pending.get(key)
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

    def cached_later(self, key: str, make: Callable[[], "Later"]) -> "Later":
        """As :meth:`cached`, for work that may run in a worker (:mod:`printkit.workers`): the cached
        bytes as a finished Later, else ``make()``'s Later, stored when its result is taken."""
        from printkit.workers import Later

        if not self.enabled:
            return make()
        data = self.pending.get(key)
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
        if not (self.enabled and self.pending):
            return
        from printkit.outputs import temp_path

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if not self.folder.joinpath("CACHEDIR.TAG").exists():
                self.folder.joinpath("CACHEDIR.TAG").write_bytes(
                    b"Signature: 8a477f597d28d172789f06886806bc55\n"
                    b"# printkit's render cache; safe to delete. See https://bford.info/cachedir/\n")
            for key, data in self.pending.items():
                path = self._path(key)
                path.parent.mkdir(parents=True, exist_ok=True)
                temp = temp_path(path, build_id)
                with open(temp, "xb") as handle:
                    handle.write(MAGIC + hashlib.sha256(data).hexdigest().encode() + b"\n" + data)
                # A plain rename: an entry already there under this key holds these very bytes.
                os.rename(temp, path)
        except OSError:
            return
        finally:
            self.pending = {}
        self.prune()

    def prune(self, limit: int = MAX_BYTES) -> None:
        """Remove the least recently used entries while the cache holds more than ``limit`` bytes."""
        entries = []
        try:
            for sub in os.scandir(self.folder):
                if not sub.is_dir(follow_symlinks=False) or len(sub.name) != 2:
                    continue
                for entry in os.scandir(sub.path):
                    if entry.is_file(follow_symlinks=False) and len(entry.name) == 64:
                        stat = entry.stat(follow_symlinks=False)
                        entries.append((stat.st_mtime_ns, stat.st_size, entry.path))
        except OSError:
            return
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= limit:
                break
            try:
                os.unlink(path)
                total -= size
            except OSError:
                pass


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
            (p.face.digest, p.x_mm, p.y_mm, p.clip, p.clockwise_deg) for p in page.placements]))
    for ops in described:
        yield "\n" + repr(ops)
