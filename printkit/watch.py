"""``printkit watch``: rebuild the decks whenever their spec, data, art, fonts or rule texts change.

The folders watched are the specs' own folders (a spec's data, art, fonts and rule texts must lie
inside its folder, so that covers them all), recursively, through ``watchfiles`` (the operating
system's file events: inotify, FSEvents, ReadDirectoryChangesW). Never watched: the output
folder (when ``--out`` lies inside a spec's folder, the build's own writes would otherwise start
the next build), editors' swap and backup files, printkit's temporaries, and the files of other
specs in the same folder (``calc.yaml`` and ``calc.rules.en.md`` when only emberfall is watched).
printkit's bundled fonts are not watched: they change with printkit, not with a deck.

Changes are grouped: a rebuild starts once no new change came for :data:`STEP_MS` (an editor's
save is often a write, a rename and a chmod), and each rebuild reads the specs afresh. Changes
made while a build runs start the next one as soon as it ends. A bad spec is reported as its
one error line and the loop waits for the next save; only an interrupt ends it.

Which specs are watched is decided once, at the start (:func:`target`). A rebuild reads those
specs, and with no deck named also a new one in the watched folder, found by the rule that found
the first ones; a spec missing (an editor's save by rename, ``git checkout``) is said and nothing
is built: never are other specs looked for elsewhere (printkit's own decks, which a fresh ``build``
takes in a folder holding no YAML file at all).

This module reports through a callback (:class:`Reporter`) and never prints; ``cli.py`` prints.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from printkit.errors import BuildError, Errors, PrintkitError, SpecError, error_lines, one_line
from printkit.locate import DefaultSpecs, distinct_specs
from printkit.plural import counted

STEP_MS = 100  # quiet time after the last change before a rebuild starts
MAX_GROUP_MS = 1600  # a stream of changes rebuilds at least this often
IDLE_MS = 300  # how long the watcher waits before it reports a quiet spell (and starts watching)
WARNING_LINES = 3  # warnings printed under a rebuild's line (the rest are counted)

Reporter = Callable[[str], None]

_EDITOR = re.compile(r"(\.sw.|~|\.tmp|\.bak|\.part|\.crdownload|___jb_...___)$|^(\.#|#.*#$|\.DS_Store$|4913$)")
_IGNORED_DIRS = {".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache", ".hypothesis",
                 ".venv", "venv", "node_modules", ".idea", ".tox"}
_RULES = re.compile(r"^(?P<stem>.+)\.rules\.[A-Za-z-]+\.md$")


@dataclass(frozen=True)
class Target:
    """What one ``watch`` rebuilds: the deck names (as given), the folders to watch, and the specs."""

    names: tuple[str, ...]
    folders: tuple[Path, ...]
    specs: tuple[Path, ...] | None  # None: every spec in the folder (no names given)
    found: DefaultSpecs | None = None  # no names given: the specs found at the start, and their rule
    paths: tuple[Path, ...] | None = None  # the named specs as the build names them (None: ``specs``)

    def first_specs(self) -> tuple[Path, ...]:
        """The spec files the first build reads."""
        if self.found is not None:
            return tuple(self.found.paths)
        return self.paths if self.paths is not None else (self.specs or ())


def target(names: Sequence[str]) -> Target:
    """The folders to watch for ``names`` (deck names or spec paths; none: the folder where check
    and build find their specs, :func:`printkit.locate.default_specs`)."""
    from printkit.locate import default_specs, spec_paths

    if not names:
        found = default_specs()
        return Target((), (_absolute(found.folder),), None, found)
    paths = tuple(spec_paths(names))
    specs = tuple(_absolute(path) for path in paths)
    folders = tuple(dict.fromkeys(spec.parent for spec in specs))
    missing = [f for f in folders if not f.is_dir()]
    if missing:
        raise PrintkitError(f"cannot watch {str(missing[0])!r}: no such folder")
    return Target(tuple(names), folders, specs, paths=paths)


def watched_specs(target: Target, known: Sequence[Path] | None) -> list[Path]:
    """The spec files a rebuild reads: ``known`` (those the last rebuild read; None: the first
    build's, as found at the start), and with no deck named any new spec in the watched folder by
    the rule that found the first ones; each file once, as a build lists them (a link to a spec
    beside it is that spec).

    A known spec that is gone is an error naming it, so nothing is built until it is back (or the
    watch is started again without it); no spec at all is one too. Never are specs looked for in
    another folder.
    """
    if known is None:
        if target.found is None:
            return list(target.first_specs())  # a named spec missing from the start: the spec reader says so
        known = target.found.paths
    specs = list(known)
    if target.found is not None:  # as a build lists them (printkit.locate.spec_paths): each file once
        specs = distinct_specs(sorted({*target.found.listed_again(), *(path for path in known if path.exists())}))
    errors = Errors()
    for path in known:
        if not path.exists():
            with errors.collecting():
                raise SpecError(path, None, None, "the spec is gone (removed or renamed), so nothing was built; "
                                                  "Ctrl-C and watch again to build without it")
    errors.raise_any()
    if not specs:
        where = target.found.where if target.found is not None else "the watched folder"
        raise BuildError(f"no deck spec in {where}, so nothing was built; waiting for one")
    return specs


def _absolute(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path.absolute()


class ChangeFilter:
    """Which changed paths start a rebuild (``watchfiles`` calls it with each change and path)."""

    def __init__(self, target: Target, out_dir: Path) -> None:
        self.out_dir = _absolute(out_dir)
        self.specs = set(target.specs) if target.specs is not None else None
        self.stems = {spec.stem for spec in target.specs} if target.specs is not None else None

    def __call__(self, change: object, path: str) -> bool:
        p = Path(path)
        if p == self.out_dir or self.out_dir in p.parents:
            return False
        if any(part in _IGNORED_DIRS for part in p.parts):
            return False
        name = p.name
        if _EDITOR.search(name):  # printkit's own temporaries end in .tmp too
            return False
        if self.specs is not None and p.parent in {s.parent for s in self.specs}:
            if p.suffix in (".yaml", ".yml") and p not in self.specs:
                return False  # another spec in the same folder
            rules = _RULES.match(name)
            if rules and rules["stem"] not in self.stems:
                return False  # another spec's rule text
        return True


def describe(paths: Iterable[str], folders: Sequence[Path]) -> str:
    """``cards.csv, art/ember-drake.svg changed`` (at most three names, then how many more)."""
    shown = []
    for path in sorted(set(paths)):
        p = Path(path)
        for folder in folders:
            if folder in p.parents:
                p = p.relative_to(folder)
                break
        shown.append(p.as_posix())
    more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
    return f"{', '.join(shown[:3])}{more} changed"


@dataclass(frozen=True)
class Outcome:
    """One rebuild: what started it, whether it built, how long it took, what it said."""

    reason: str
    seconds: float
    files: int | None  # None: the build failed
    warnings: tuple[str, ...] = ()
    error: str | None = None
    more_errors: tuple[str, ...] = ()  # the build's further mistakes, each said on a line of its own
    proofs: tuple[Path, ...] = ()
    notes: tuple[str, ...] = ()  # the build's notes (printkit.pipeline.context.BuildResult.notes)
    specs: tuple[Path, ...] = ()  # the spec files it read (none: it found none to read)

    def lines(self) -> list[str]:
        stamp = time.strftime("%H:%M:%S")
        if self.error is not None:
            more = f" (and {counted(len(self.more_errors), 'more error')})" if self.more_errors else ""
            return ([f"[{stamp}] {self.reason}: {self.error}{more} (waiting for the next save)"]
                    + [f"  {line}" for line in self.more_errors])
        count = len(self.warnings)
        said = counted(count, "warning") if count else "no warnings"
        lines = [f"[{stamp}] {self.reason}: rebuilt in {self.seconds:.2f} s, {counted(self.files, 'file')}, {said}"]
        lines += [f"  warning: {w}" for w in self.warnings[:WARNING_LINES]]
        if count > WARNING_LINES:
            lines.append(f"  … and {counted(count - WARNING_LINES, 'more warning')}")
        return lines + [f"  note: {one_line(note)}" for note in self.notes]  # a note may quote a name from the manifest


def rebuild(target: Target, variant: str | None, options, reason: str,
            known: Sequence[Path] | None = None) -> Outcome:
    """Read the specs afresh (:func:`watched_specs`; ``known``: those the last rebuild read, None
    for the first build) and build them; a PrintkitError becomes the outcome's error line."""
    from printkit.pipeline.build import build, load_decks
    from printkit.draft import drafting
    from printkit.proof import proof_path

    started = time.perf_counter()
    specs: tuple[Path, ...] = ()
    try:
        specs = tuple(watched_specs(target, known))
        with drafting() if options.draft else contextlib.nullcontext():
            decks = load_decks(target.names, variant, paths=specs)
            result = build(decks, options, every_variant=variant is None)
    except PrintkitError as exc:
        said = error_lines(exc)
        return Outcome(reason, time.perf_counter() - started, None, error=said[0], more_errors=tuple(said[1:]),
                       specs=specs)
    except Exception as exc:  # a bug of printkit's, not the user's: said, and the watch goes on
        return Outcome(reason, time.perf_counter() - started, None,
                       error=f"internal error: {type(exc).__name__}: {exc}", specs=specs)
    proofs = tuple(proof_path(options.out_dir, d) for d in decks) if options.proof else ()
    return Outcome(reason, time.perf_counter() - started, len(result.entries), tuple(result.warnings),
                   proofs=proofs, notes=result.notes, specs=specs)


def changes(target: Target, out_dir: Path, stop: threading.Event | None = None,
            force_polling: bool | None = None) -> Iterator[set[str]]:
    """Groups of relevant changed paths, as the file system reports them; an empty group first.

    The empty group comes once the folders are watched, so a first build started on it misses
    no save made while it runs. (Quiet spells of :data:`IDLE_MS` come back empty too; skipped.)
    """
    import watchfiles

    first = True
    for group in watchfiles.watch(*target.folders, watch_filter=ChangeFilter(target, out_dir),
                                  debounce=MAX_GROUP_MS, step=STEP_MS, stop_event=stop,
                                  rust_timeout=IDLE_MS, yield_on_timeout=True,
                                  force_polling=force_polling, raise_interrupt=True):
        paths = _lasting(group)
        if paths or first:
            yield paths
            first = False


def _lasting(group: set) -> set[str]:
    """The changed paths, less those made and removed within the group (``sed -i``'s temporaries)."""
    from watchfiles import Change

    added = {path for change, path in group if change == Change.added}
    return {path for _, path in group if path not in added or Path(path).exists()}


def run(target: Target, variant: str | None, options, report: Reporter,
        stop: threading.Event | None = None, on_build: Callable[[Outcome], None] | None = None,
        force_polling: bool | None = None) -> None:
    """Build once, then rebuild after every relevant change until interrupted (or ``stop`` is set)."""
    from printkit.interrupts import interrupt_requested

    known = None
    for paths in changes(target, options.out_dir, stop, force_polling):
        reason = describe(paths, target.folders) if paths else "first build"
        outcome = rebuild(target, variant, options, reason, known)
        known = outcome.specs or known  # a spec gone stays waited for
        if interrupt_requested():  # Ctrl-C during the build whose KeyboardInterrupt got lost on the way
            raise KeyboardInterrupt
        for line in outcome.lines():
            report(line)
        if on_build:
            on_build(outcome)
