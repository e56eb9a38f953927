"""A deck whose inputs have not changed since its last build is not built again.

After a build, each deck's files, the scopes it wrote in full and its warnings are kept in the
render cache under a key made of everything the deck's files come from: printkit's code and
libraries, the build options, the producers that ran, the expanded deck, and the size, times and identity of every file
in the spec's folder (but its hidden folders, which no spec may read from) and of the bundled fonts. The next build with the same key finds the files
still in place (each one's sha256 as recorded) and lists them again without laying out or drawing
a card. A file changed or gone, any input touched, or a record that does not read back: the deck
is built as usual.

File times stand in for file contents here, as they do for make: ``st_ctime_ns`` changes with
every write to a file, and cannot be set back, so a file edited in place is never taken for
unchanged. A file written too shortly before its deck was read (:data:`SETTLE_NS`) could have been
written again within the same tick of the file system's clock, its times unchanged: such a deck
is built, and no record is kept of it.

A whole ``printkit build`` is kept the same way (:class:`Invocation`): under a key made of its
command line, the specs it names and the same folders' files, taken before any spec is read, the
files it listed and the manifest it left. The next identical command finds every input as it was
and the output folder as the manifest says (each file hashed), and lists the files again without
importing the spec reader or the renderers.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from printkit.cache import RenderCache
from printkit.memo import identity_of
from printkit.pipeline.foreign import foreign_note
from printkit.pipeline.manifest import MANIFEST, Hashed, ManifestEntry, hash_once, manifest_bytes

if TYPE_CHECKING:
    from printkit.deck import Deck
    from printkit.pipeline.context import BuildContext, BuildOptions
    from printkit.pipeline.producers import Producer

# A spec in a folder this full (a home folder, say) is built every time: looking at every file
# would cost more than it saves.
MAX_FILES = 5_000

# How long before a deck is read its files' last changes must lie for their times to vouch for
# their contents: file systems stamp files with a clock that moves in ticks (a few milliseconds on
# Linux), so a file written twice within one tick keeps its times. A file whose times have no
# fraction of a second comes from a file system that keeps whole (or even) seconds.
SETTLE_NS = 200_000_000
SETTLE_COARSE_NS = 3_000_000_000


@dataclass(frozen=True)
class DeckRecord:
    """What building one deck gave: its files, the scopes it wrote in full, its warnings."""

    entries: tuple["ManifestEntry", ...]
    covered: tuple[tuple, ...]
    warnings: tuple[tuple[str, tuple[str, ...]], ...]  # (warning, the labels of the cards it names)

    def to_bytes(self) -> bytes:
        return json.dumps({"entries": [asdict(e) for e in self.entries], "covered": self.covered,
                           "warnings": self.warnings}).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> "DeckRecord | None":
        try:
            raw = json.loads(data)
            return cls(tuple(ManifestEntry(**e) for e in raw["entries"]),
                       tuple(tuple(s) for s in raw["covered"]),
                       tuple((str(text), tuple(map(str, labels))) for text, labels in raw["warnings"]))
        except (ValueError, KeyError, TypeError):
            return None


def record_key(ctx: "BuildContext", deck: "Deck", producers: Sequence[str],
               listings: dict[Path, "Listing | None"] | None = None) -> str | None:
    """The cache key of ``deck``'s record in a build running ``producers`` (by name): printkit's
    code (as every key), the build's options, the producers and the deck's inputs
    (:func:`deck_inputs`, every file settled); None
    when its inputs cannot be told (a deck not read by :func:`printkit.pipeline.build.load_decks`,
    whose reading time is not known, too).

    ``listings`` keeps each folder's listing for the other decks of the build."""
    if not ctx.cache.enabled or ctx.options.cards or deck.read_at_ns is None:
        return None
    inputs = deck_inputs(deck, ctx.options.out_dir, listings)
    if inputs is None:
        return None
    return ctx.cache.key("deck", lambda: "\n".join([_options(ctx.options), " ".join(producers), inputs]))


def deck_inputs(deck: "Deck", skip: Path, listings: dict[Path, "Listing | None"] | None = None, *,
                whole_spec: bool = False, settled: bool = True, bundled: bool = True) -> str | None:
    """The sha256 of what ``deck``'s files are made from besides the build's options and
    printkit's own code: every file of the folders the deck may read (:func:`input_folders`,
    ``skip`` left out, each file by its size, times and identity) and the expanded deck
    (:func:`deck_description`); with ``whole_spec`` the spec in place of the deck, which all its
    variants share (its rulebooks are made from it); without ``bundled``, printkit's own fonts and
    decks left out (files kept from an earlier build are judged by it: a printkit update, which
    puts new copies of those in place, does not make them outdated).

    None when it cannot be told: more than :data:`MAX_FILES` files, a file changed after the deck
    was read (:attr:`printkit.deck.Deck.read_at_ns`), or with ``settled`` a deck whose reading time
    is not known or a file changed too shortly before it for its times to vouch for its contents
    (:data:`SETTLE_NS`). ``listings`` keeps each folder's listing for the build's other decks."""
    read_at = deck.read_at_ns
    if settled and read_at is None:
        return None
    listings = {} if listings is None else listings
    digest = hashlib.sha256()
    for folder in input_folders(deck.spec_path, bundled):
        if folder not in listings:
            listings[folder] = folder_listing(folder, skip)
        listing = listings[folder]
        if listing is None or (read_at is not None and not listing.describes(read_at, settled)):
            return None
        digest.update(listing.text.encode("utf-8", "surrogatepass"))
    spec = repr((deck.deck_id, str(Path(deck.spec_path).resolve()))) if whole_spec else deck_description(deck)
    digest.update(spec.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def input_folders(spec_path: Path | str, bundled: bool = True) -> list[Path]:
    """Every folder a spec's deck may read from: the spec's own (as named, and where a link to
    the spec leads) and, with ``bundled``, printkit's fonts and its decks (whose rule texts stand
    in for a spec's own)."""
    from printkit.locate import DECKS_DIR
    from printkit.resources import bundled_dir

    spec_path = Path(spec_path)
    folders = [spec_path.parent.resolve(), spec_path.resolve().parent]
    if bundled:
        folders += [bundled_dir("fonts").resolve(), Path(DECKS_DIR).resolve()]
    return list(dict.fromkeys(folders))


def _options(options: "BuildOptions") -> str:
    # The output folder, the cache switch and the number of jobs do not change what a file holds.
    fields = {k: v for k, v in asdict(options).items() if k not in ("out_dir", "cache", "cards", "jobs")}
    return repr(sorted(fields.items()))


def deck_description(deck: "Deck") -> str:
    """The expanded deck as text: its cards (one short key each) and what its faces read besides."""
    cards = hashlib.sha256()
    for card in deck.all_cards():
        cards.update(card.key)
    return repr((deck.game, deck.name, deck.deck_id, deck.variant, str(Path(deck.spec_path).resolve()),
                 deck.size, deck.art, deck.count_by, sorted(deck.options.items(), key=repr),
                 sorted(deck.names.items()), deck.author, deck.warnings, sorted(deck.components),
                 len(deck.cards), cards.hexdigest()))


@dataclass(frozen=True)
class Listing:
    """Every file under a folder with its size, times and identity (:func:`folder_listing`)."""

    text: str
    # The latest change (ctime) of any file in it but those stamped later than the listing ended:
    # a clock ahead of this one (another machine's, or this one's set back) stamped those, so their
    # times cannot tell whether they changed after a deck was read, and would say so until that
    # clock's time came; a write here stamps a file with the present, and is seen.
    newest_ns: int
    # Every file had settled (SETTLE_NS) by any moment after this; a file stamped by a clock ahead
    # of this one keeps its deck from being listed again until that moment, as it may be written
    # again within that clock's tick.
    settled_ns: int

    def describes(self, read_at_ns: int, settled: bool = True) -> bool:
        """Whether the files as listed are those read at ``read_at_ns``: none changed since, and
        with ``settled`` none so shortly before that a change within the same tick of the file
        system's clock would not show in its times."""
        return self.settled_ns < read_at_ns if settled else self.newest_ns <= read_at_ns


def folder_signature(folder: Path, skip: Path, read_at_ns: int | None = None) -> str | None:
    """The text of :func:`folder_listing`; None when there is none, or when a file changed too
    shortly before ``read_at_ns`` (:data:`SETTLE_NS`) for its times to vouch for it."""
    listing = folder_listing(folder, skip)
    if listing is None or (read_at_ns is not None and not listing.describes(read_at_ns)):
        return None
    return listing.text


def folder_listing(folder: Path, skip: Path) -> Listing | None:
    """Every file under ``folder`` (links followed; ``skip`` and hidden folders such as ``.git``,
    which no deck may read from, left out) with its size, times and identity, in a stable order;
    None when there are more than :data:`MAX_FILES`."""
    lines: list[str] = []
    stamped: list[int] = []  # each file's last change (ctime)
    settled_at = 0
    try:
        skip_real = skip.resolve()
    except OSError:
        skip_real = skip
    seen: set[tuple[int, int]] = set()
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            here = os.stat(current)
            if (here.st_dev, here.st_ino) in seen or Path(current).resolve() == skip_real:
                continue
            seen.add((here.st_dev, here.st_ino))
            entries = sorted(os.scandir(current), key=lambda e: e.name)
        except OSError:
            lines.append(f"{current}\0unreadable")
            continue
        for entry in entries:
            try:
                stat = entry.stat()  # follows links, as reading the file would
            except OSError:
                lines.append(f"{entry.path}\0missing")
                continue
            if entry.is_dir():
                if not entry.name.startswith("."):  # a hidden folder is no deck's (printkit.spec.paths)
                    pending.append(Path(entry.path))
            else:
                stamped.append(stat.st_ctime_ns)
                settled_at = max(settled_at, stat.st_ctime_ns + _settle_wait(stat.st_ctime_ns))
                lines.append(f"{entry.path}\0{identity_of(stat)}")
            if len(lines) > MAX_FILES:
                return None
    ended = time.time_ns()
    newest = max((ctime for ctime in stamped if ctime <= ended), default=0)
    return Listing("\n".join(lines), newest, settled_at)


def _settle_wait(ctime_ns: int) -> int:
    """How long after its last change (``ctime_ns``) a file's times vouch for its contents."""
    return SETTLE_COARSE_NS if ctime_ns % 1_000_000_000 == 0 else SETTLE_NS


def replay(ctx: "BuildContext", decks: Sequence["Deck"], earlier: Sequence["ManifestEntry"],
           producers: Sequence["Producer"], listings: dict[Path, "Listing | None"] | None = None,
           ) -> tuple[list["Deck"], list["ManifestEntry"], dict[int, str]]:
    """The decks to build, the files of those that need no building (listed again, as they are),
    and each deck's record key (by ``id``) for :func:`remember`; ``producers``: the producers this
    build runs (a record is of what they wrote); ``listings``: the folders listed so far."""
    names = [p.name for p in producers]

    present = {(e.path, e.sha256) for e in earlier}
    fresh: list["Deck"] = []
    kept: list["ManifestEntry"] = []
    keys: dict[int, str] = {}
    for deck in decks:
        key = record_key(ctx, deck, names, listings)
        data = ctx.cache.get(key) if key else None
        record = DeckRecord.from_bytes(data) if data is not None else None
        if key:
            keys[id(deck)] = key
        if record is None or not all((e.path, e.sha256) in present for e in record.entries):
            fresh.append(deck)
            continue
        ctx.written.extend(record.entries)
        ctx.covered.update(record.covered)
        for text, labels in record.warnings:
            ctx.warning_log.restore(_folder(deck), text, labels)
        ctx.progress(sum(p.units([deck], ctx.options) for p in producers))
        kept.extend(record.entries)
    return fresh, kept, keys


def remember(ctx: "BuildContext", decks: Sequence["Deck"], keys: dict[int, str]) -> None:
    """Keep a record of each built deck (stored with the cache when the build succeeds)."""
    for deck in decks:
        key = keys.get(id(deck))
        if key is None:
            continue
        ident = (deck.deck_id, deck.variant)
        record = DeckRecord(
            tuple(e for e in ctx.written if (e.deck, e.variant) == ident),
            tuple(sorted((s for s in ctx.covered if tuple(s[:2]) == ident), key=repr)),
            ctx.warning_log.of_folder(_folder(deck)))
        ctx.cache.pending[key] = record.to_bytes()


def _folder(deck: "Deck") -> str:
    from printkit.pipeline.names import deck_folder

    return deck_folder(deck)


# --- a whole build command -----------------------------------------------------------------------

@dataclass(frozen=True)
class Invocation:
    """One ``printkit build`` command with its inputs as they stood before any spec was read."""

    options: str  # every option and argument of the command, as text
    specs: tuple[Path, ...]  # the specs it builds, as named
    out_dir: Path
    started_ns: int  # when its inputs were looked at: their last changes had settled by then
    key: str

    def still_as_started(self, cache: RenderCache) -> bool:
        """Whether every input is as it was when the command started (nothing was changed while it
        read and built, or the key would not describe what it read)."""
        return _invocation_key(cache, self.options, self.specs, self.out_dir, self.started_ns) == self.key


def invocation(params: Mapping[str, Any], names: Sequence[str], out_dir: Path,
               paths: Sequence[Path] | None = None) -> Invocation | None:
    """The command ``printkit build`` was given (all of ``params``, as click parsed them), or None
    when it keeps no record: ``--no-cache``, ``--card``, specs that cannot be found (the build
    reports it), inputs too many or too recently changed, an unusable cache folder. ``paths``, when
    given, are its specs (:func:`printkit.locate.spec_paths`), found already."""
    from printkit.errors import PrintkitError
    from printkit.locate import spec_paths

    if not params.get("cache", True) or params.get("cards"):
        return None
    try:
        specs = tuple(spec_paths(names) if paths is None else paths)
    except (PrintkitError, OSError):
        return None
    cache = RenderCache(out_dir)
    if not cache.enabled:
        return None
    options = repr(sorted(params.items(), key=lambda item: item[0]))
    started = time.time_ns()
    key = _invocation_key(cache, options, specs, out_dir, started)
    return Invocation(options, specs, out_dir, started, key) if key else None


def _invocation_key(cache: RenderCache, options: str, specs: Sequence[Path], out_dir: Path,
                    settle_at: int) -> str | None:
    parts = [options]
    for spec in specs:
        try:
            parts.append(f"{spec}\0{spec.resolve()}")
        except (OSError, RuntimeError):
            return None
    for folder in dict.fromkeys(folder for spec in specs for folder in input_folders(spec)):
        signature = folder_signature(folder, out_dir, settle_at)
        if signature is None:
            return None
        parts.append(signature)
    return cache.key("build", lambda: "\n".join(parts))


@dataclass(frozen=True)
class Listed:
    """What a build lists: its warnings, its files (relative paths, in order) and its manifest."""

    warnings: tuple[str, ...]
    paths: tuple[str, ...]
    manifest: Path
    notes: tuple[str, ...] = ()  # of the files in its deck folders that are not printkit's


def listed_again(command: Invocation) -> Listed | None:
    """What the same command built before, when its inputs and its output folder are as that build
    left them (so building again would write nothing); None otherwise."""
    from printkit.errors import BuildError
    from printkit.outputs import exclusive, inside

    cache = RenderCache(command.out_dir)
    data = cache.get(command.key)
    if data is None:
        return None
    try:
        record = json.loads(data)
        manifest_sha, paths, warnings = record["manifest"], record["paths"], record["warnings"]
        folders = [str(folder) for folder in record["folders"]]
    except (ValueError, KeyError, TypeError):
        return None
    try:
        for folder in folders:
            inside(command.out_dir, folder)
    except BuildError:
        return None  # not a record printkit kept: the build looks for itself
    hashed: Hashed = {}  # the listed files, hashed once for both questions
    try:
        with exclusive(command.out_dir):  # as a build would: not while another writes the folder
            if not _as_left(command.out_dir, str(manifest_sha), hashed):
                return None
            # Said as the build says it: the folder may have gained a file since.
            note = foreign_note(command.out_dir, folders, hashed)
    except BuildError:
        return None  # another build is writing: the build says so
    return Listed(tuple(map(str, warnings)), tuple(map(str, paths)), (command.out_dir / MANIFEST).resolve(),
                  (note,) if note else ())


def _as_left(out_dir: Path, manifest_sha: str, hashed: Hashed) -> bool:
    """Whether ``out_dir`` holds the manifest whose sha256 is ``manifest_sha``, every file it
    lists with the bytes it lists, and no temporary a killed build left for the next to remove."""
    from printkit.errors import BuildError
    from printkit.outputs import inside
    from printkit.safe_read import UnsafeFileError, read_limited

    path = out_dir / MANIFEST
    try:
        if os.path.islink(path) or any(n.startswith(f".{MANIFEST}.") and n.endswith(".tmp") for n in os.listdir(out_dir)):
            return False
        data = read_limited(path, 50_000_000)
        if _listing_sha(data) != manifest_sha:
            return False
        files = json.loads(data)["files"]
        root = out_dir.resolve()
        return all(hash_once(inside(out_dir, item["path"], resolved_root=root), hashed) == item["sha256"]
                   for item in files)
    except (OSError, UnsafeFileError, ValueError, KeyError, TypeError, AttributeError, BuildError):
        return False


def remember_invocation(ctx: "BuildContext", command: Invocation, decks: Sequence["Deck"], keys: dict[int, str],
                        manifest: bytes) -> None:
    """Keep what ``command`` lists (stored with the cache) when every deck of it kept a record and
    its inputs are still as they were when it started; ``manifest`` is the manifest it leaves."""
    from printkit.pipeline.names import deck_folder, deck_folders
    from printkit.pipeline.manifest import WarningLog

    if not all(id(deck) in keys for deck in decks) or not command.still_as_started(ctx.cache):
        return
    # Listed as a build that finds every deck's record lists them: deck by deck, then the rest.
    idents = [(deck.deck_id, deck.variant) for deck in decks]
    paths = [e.path for ident in idents for e in ctx.written if (e.deck, e.variant) == ident]
    paths += [e.path for e in ctx.written if e.deck is None]
    warnings = WarningLog()
    for deck in decks:
        folder = deck_folder(deck)
        for text, labels in ctx.warning_log.of_folder(folder):
            warnings.restore(folder, text, labels)
    ctx.cache.pending[command.key] = json.dumps(
        {"manifest": _listing_sha(manifest), "paths": paths, "warnings": warnings.lines(),
         "folders": deck_folders(decks)}).encode()


def _listing_sha(manifest: bytes) -> str | None:
    """The sha256 of what a manifest lists, without the records of how each file was put in place
    (printkit.ownership): those name the folder's inodes, which no cached note should depend on.
    None for a manifest not laid out as printkit writes one (:func:`printkit.pipeline.manifest.manifest_bytes`)."""
    listed = json.loads(manifest)
    if manifest_bytes(listed) != manifest:
        return None
    for item in listed["files"]:
        item.pop("written", None)
    return hashlib.sha256(manifest_bytes(listed)).hexdigest()
