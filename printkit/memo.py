"""What a process keeps to reuse: one bounded, locked memo, and one meaning of "file unchanged".

Every store printkit keeps for the life of a process is a :class:`Memo`: least recently used
first out beyond a count of entries and, where entries are large, a sum of their bytes (an entry
larger than the whole byte budget is not kept; whoever made it still uses it). They are: pictures
checked, their verdicts, warnings and SVG art (:mod:`printkit.images`), file digests
(:mod:`printkit.safe_read`), PNG structures and pictures decoded or converted to CMYK
(:mod:`printkit.render.pictures`), SVG forms (:mod:`printkit.render.svg`), path and polygon code
and font names (:mod:`printkit.render.canvas`), shared shapes
(:mod:`printkit.layout.design`), texts set (:mod:`printkit.layout.richtext`), faces' file sets
(:mod:`printkit.layout.ops`), layouts compiled (:mod:`printkit.layout.compile`), specs read and
overrides selected (:mod:`printkit.spec`), decks counted by value (:mod:`printkit.rulebook.values`).
A per-spec or per-deck entry is kept by :meth:`Memo.of`: by its identity and a weak reference to
it, so a later spec or deck at the same address never takes it.

A file is unchanged while its :func:`file_identity` is: its size, modification and change times
(``st_ctime_ns`` moves on every write and rename, so a file rewritten in place with its old size
and modification time is still seen), inode and device. Pictures checked
(:mod:`printkit.images`), the digests of fonts and pictures (:mod:`printkit.safe_read`, which the
render cache keys by), the render cache's view of printkit's own files (:mod:`printkit.cache`)
and the replay of unchanged decks (:mod:`printkit.pipeline.replay`) all ask it.

Threads: the library may be called from several threads at once (a server building two decks).
Each memo holds its lock only while it looks up, stores or lets go of entries, never while a
value is made: two threads missing the same key both make the value (the same value, as every
memo here keeps a pure function of its key) and the later store wins. Reportlab documents and
canvases are not shared between threads; each build makes its own.

What stays ``functools.lru_cache`` (itself thread-safe), and why: small pure functions of small
keys that name no file's bytes, each bounded or bounded by what printkit ships — colour parsing
(``render.canvas._rgb``), ICC profiles and ink conversions (:mod:`printkit.render.cmyk`,
:mod:`printkit.render.color`), rich-text parsing and character widths
(:mod:`printkit.layout.richparse`, :mod:`printkit.layout.richmeasure`), lattice patterns (``layout.shapes.lattice``),
a rulebook's languages English first (``layout.design.english_first``), Calc's number theory (:mod:`printkit.games.calc.value`),
printkit's own layouts, icons, export profiles and game modules by name, and things made once
(``maxsize=1`` or per process: reportlab subclasses, the code fingerprint, the user's cache key).
Fonts (:mod:`printkit.fonts`, :mod:`printkit.layout.text`, :mod:`printkit.cff_fonts`) are parsed
once per process per path — a handful each, kept whole, as every text measured asks for them —
and what is kept of them by path is let go of when a build finds one of their files changed
(:func:`printkit.fonts.forget_changed_fonts`, by :func:`file_identity`), so ``printkit watch``
sets text in a spec's own font as it is now. printkit's bundled fonts are registered with
reportlab under their file names, once per process.

A compiled layout element keeps on itself what it works out again and again from the few card
sizes, fonts and colours of a deck (its box, ``design.Element.box``; its text's style,
``design._style``): a handful of entries each, made alike by any thread, let go of with the layout.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict
from typing import Any, Callable, Hashable, NamedTuple

_MISSING = object()


class FileIdentity(NamedTuple):
    """What says a file is the one seen before: equal while it is neither written nor replaced."""

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    device: int

    def __str__(self) -> str:
        return " ".join(map(str, self))


def identity_of(info: os.stat_result) -> FileIdentity:
    """The :class:`FileIdentity` in a stat result (of ``os.stat``, ``os.fstat`` or a ``DirEntry``)."""
    return FileIdentity(info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def file_identity(path) -> FileIdentity:
    """The :class:`FileIdentity` of the file at ``path`` (links followed; OSError when missing)."""
    return identity_of(os.stat(path))


class Memo:
    """A bounded least-recently-used map, safe to share between threads.

    At most ``entries`` entries and, when ``max_bytes`` is given, a sum of sizes (as given to
    :meth:`put`) within it; the least recently used go first.
    """

    def __init__(self, name: str, entries: int, max_bytes: int | None = None) -> None:
        self.name = name
        self.max_entries = entries
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value kept for ``key`` (now the most recently used), else ``default``."""
        with self._lock:
            found = self._items.get(key, _MISSING)
            if found is _MISSING:
                return default
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any, size: int = 0) -> bool:
        """Keep ``value`` for ``key``, letting the least recently used go to stay within bounds;
        False (and nothing kept) when ``size`` alone is over the byte budget."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if self.max_bytes is not None and size > self.max_bytes:
                return False
            while self._items and (len(self._items) >= self.max_entries or (
                    self.max_bytes is not None and self._bytes + size > self.max_bytes)):
                self._bytes -= self._items.popitem(last=False)[1][1]
            self._items[key] = (value, size)
            self._bytes += size
            return True

    def get_or_make(self, key: Hashable, make: Callable[[], Any], size: Callable[[Any], int] | None = None) -> Any:
        """The value kept for ``key``, else ``make()`` kept (sized by ``size(value)``) and given."""
        value = self.get(key, _MISSING)
        if value is _MISSING:
            value = make()
            self.put(key, value, size(value) if size is not None else 0)
        return value

    def of(self, owner: object, key: Hashable, make: Callable[[], Any],
           still: Callable[[Any], bool] | None = None) -> Any:
        """The value kept for ``key`` of ``owner`` (an object without a hash of its own, such as a
        loaded spec or a deck), else ``make()`` kept and given; with ``still``, a kept value for
        which ``still(value)`` is false is made again. Kept by the owner's identity and a weak
        reference to it: a later owner at the same address never takes it, and it goes in turn."""
        full = (id(owner), key)
        entry = self.get(full)
        if entry is not None and entry[0]() is owner and (still is None or still(entry[1])):
            return entry[1]
        value = make()
        self.put(full, (weakref.ref(owner), value))
        return value

    def pop(self, key: Hashable) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    @property
    def kept_bytes(self) -> int:
        return self._bytes
