"""The manifest: its entries (one per file written), the warnings a build says once each, and
``manifest.json`` itself, written as one transaction with the files it lists (see
:mod:`printkit.pipeline.build`): what an earlier build wrote, which of its files are still as it
left them, and the record of a build still running."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from printkit import ownership
from printkit.deck import Card
from printkit.errors import BuildError, PrintkitError
from printkit.memo import identity_of
from printkit.outputs import BUILD_ID, Staging, canonical, current_sha256, inside
from printkit.ownership import Written
from printkit.plural import counted

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class ManifestEntry:
    """One written file as listed in ``manifest.json``."""

    path: str
    kind: str
    sha256: str
    deck: str | None = None
    variant: str | None = None
    paper: str | None = None
    pages: int | None = None
    cards: int | None = None
    lang: str | None = None  # rulebooks: "ko" or "en"
    back: str | None = None  # per-card fronts: the path of the back printed behind it
    draft: bool | None = None  # True: written by a draft build (placeholders, marked DRAFT)
    # The fingerprint of the deck's inputs the file was made from (printkit.pipeline.replay.deck_inputs:
    # the spec's for a rulebook); None: not known (an older manifest, a deck changed while read).
    inputs: str | None = None
    # The file name of the spec the file's deck was read from, and a digest of its folder (which
    # folder, without naming it in a manifest that may travel); None: not known (an older manifest).
    spec: str | None = None
    spec_folder: str | None = None
    # The file as printkit put it in place, with its proof (printkit.ownership); None: not proven
    # printkit's (an older manifest), so never removed.
    written: Written | None = None


@dataclass
class WarningLog:
    """Warnings, each said once: the same warning about many distinct cards (copies of a card are
    laid out once) is one line naming the first of them and how many more share it."""

    # (folder, warning without the card's label) -> the cards' labels, in the order met
    _said: dict[tuple[str, str], dict[str, None]] = field(default_factory=dict)

    def add(self, message: str, card: Card | None = None, folder: str = "") -> None:
        label, text = card.said_of(message) if card is not None else ("", message)
        labels = self._said.setdefault((folder, text), {})
        if label:
            labels.setdefault(label)

    def of_folder(self, folder: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The warnings said of one deck folder's cards: (warning, the cards' labels), in order."""
        return tuple((text, tuple(labels)) for (where, text), labels in self._said.items() if where == folder)

    def restore(self, folder: str, text: str, labels: Sequence[str]) -> None:
        """Say again a warning :meth:`of_folder` gave (a deck not built again has the same ones)."""
        said = self._said.setdefault((folder, text), {})
        for label in labels:
            said.setdefault(label)

    def lines(self, folder: str | None = None) -> list[str]:
        """``folder: card field: problem (and N more distinct cards)``, the folder when there is one;
        given ``folder``, the lines of that folder's warnings alone, without it (an export's README)."""
        out = []
        for (where, text), labels in self._said.items():
            if folder is not None and where != folder:
                continue
            more = len(labels) - 1
            also = f" (and {counted(more, 'more distinct card')})" if more > 0 else ""
            named = where + ": " if where and folder is None else ""
            out.append(f"{named}{next(iter(labels), '')}{text}{also}")
        return out


def scope(entry: ManifestEntry) -> tuple:
    """What a file is one of: its deck, variant, kind and paper. A build that writes files of a
    scope writes all of them, so an earlier file of that scope it does not write is stale."""
    return (entry.deck, entry.variant, entry.kind, entry.paper)


# Kinds written once per spec for all its variants, listed with no variant (printkit.rulebook.producer).
SPEC_KINDS = frozenset({"rulebook", "rulebook-booklet"})


@dataclass(frozen=True)
class Current:
    """The decks and variants a build writes: with ``every_variant`` each deck built is built in
    every variant its spec has (no ``--variant``). ``inputs``: the fingerprint of each deck's inputs
    by (deck, variant) of every deck built, ``spec_inputs`` of each spec's by deck (its rulebooks');
    None: not known."""

    every_variant: bool = False
    inputs: Mapping[tuple[str, str | None], str | None] = field(default_factory=dict)
    spec_inputs: Mapping[str, str | None] = field(default_factory=dict)
    specs: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # deck -> spec_place()
    folders: Mapping[str, Path] = field(default_factory=dict)  # folder digest -> the folders of specs read

    def gone(self, entry: ManifestEntry, rule_languages: Mapping[str, frozenset[str]]) -> bool:
        """Whether ``entry`` is a file of a variant or rulebook of a deck built that no longer exists:
        a variant taken out of its spec (a spec that gained variants has lost its variant None), a
        rulebook in a language ``rule_languages`` (per deck whose rulebooks the build sets, the
        languages of its texts) lacks. A rulebook is the spec's, whatever its variants. A deck not
        built is never said to be gone: the folder may hold decks built from specs elsewhere."""
        if entry.deck not in self.spec_inputs:
            return False  # a file of another deck, or of none (the alignment test: by kind and paper)
        if entry.kind in SPEC_KINDS:
            return entry.deck in rule_languages and entry.lang not in rule_languages[entry.deck]
        return self.every_variant and (entry.deck, entry.variant) not in self.inputs

    def spec_gone(self, entry: ManifestEntry) -> bool:
        """Whether ``entry`` is a file of a deck this build does not make whose spec, recorded in
        a folder this build reads specs from, no longer exists (taken away or renamed). A deck of
        a spec elsewhere, or of none recorded (an older manifest), is never said to be gone: the
        output folder may hold decks built from other folders, which this build cannot see."""
        if entry.spec is None or entry.deck in self.spec_inputs:
            return False
        folder = self.folders.get(entry.spec_folder or "")
        if folder is None or entry.spec in ("", ".", "..") or "/" in entry.spec or "\\" in entry.spec:
            return False  # another folder's, or not a name a spec has: nothing to tell
        return not os.path.lexists(folder / entry.spec)

    def stamped(self, entry: ManifestEntry) -> ManifestEntry:
        """``entry`` of this build with what it is made from: the fingerprint of its deck's inputs
        (:meth:`inputs_of`) and its spec (:func:`spec_place`)."""
        spec, folder = self.specs.get(entry.deck or "", (None, None))
        return replace(entry, inputs=self.inputs_of(entry), spec=spec, spec_folder=folder)

    def inputs_of(self, entry: ManifestEntry) -> str | None:
        """The fingerprint of the inputs a file like ``entry`` is made from now; None when not
        known or of no deck (or variant) this build makes."""
        if entry.kind in SPEC_KINDS:
            return self.spec_inputs.get(entry.deck) if entry.deck is not None else None
        return self.inputs.get((entry.deck, entry.variant)) if entry.deck is not None else None

    def outdated(self, entry: ManifestEntry) -> bool:
        """Whether ``entry`` is a file of a deck (or spec) this build makes that is not known to
        be made from the deck's inputs as they are now: its fingerprint differs, or was not
        recorded (a manifest of an older printkit, a deck changed while a build read it). A file
        whose deck's fingerprint cannot be taken now (:meth:`unjudged`) is not."""
        if not self._judges(entry):
            return False
        now = self.inputs_of(entry)
        return now is not None and entry.inputs != now

    def unjudged(self, entry: ManifestEntry) -> bool:
        """Whether ``entry`` is a file of a deck (or spec) this build makes whose inputs' fingerprint
        cannot be taken now (too many files, a file changed while the deck was read): it is left
        alone, as nothing says it no longer matches."""
        return self._judges(entry) and self.inputs_of(entry) is None

    def _judges(self, entry: ManifestEntry) -> bool:
        built = self.spec_inputs if entry.kind in SPEC_KINDS else self.inputs
        # another deck's or variant's, or of no deck: never judged by this build
        return (entry.deck if entry.kind in SPEC_KINDS else (entry.deck, entry.variant)) in built


def spec_place(spec_path: Path) -> tuple[str, str]:
    """A spec's file name and a digest of its folder (:func:`resolved_spec`)."""
    resolved = resolved_spec(spec_path)
    return resolved.name, hashlib.sha256(os.fsencode(resolved.parent)).hexdigest()


def resolved_spec(spec_path: Path) -> Path:
    """A spec's path with links resolved; as named (made absolute) when it cannot be, as for a
    loop of links, which reading the spec reports."""
    try:
        return spec_path.resolve()
    except (OSError, RuntimeError):  # Python before 3.13 reports a loop of links as RuntimeError
        return spec_path.absolute()


def with_records(out_dir: Path, entries: Sequence[ManifestEntry], earlier: Sequence[ManifestEntry],
              records: dict[str, Written | None]) -> list[ManifestEntry]:
    """``entries`` with the record of each file as printkit put it in place: from ``records``
    (by path) for the files this build puts in place, else the earlier manifest's record of that
    file while it still proves the file the same (:func:`printkit.ownership.proven`); none else."""
    before = {(e.path, e.sha256): e.written for e in earlier if e.written is not None}
    root = out_dir.resolve()
    result = []
    for entry in entries:
        if entry.path in records:
            written = records[entry.path]
        else:
            written = entry.written or before.get((entry.path, entry.sha256))
            if written is not None and not ownership.proven(entry.path, entry.sha256, written,
                                                             inside(out_dir, entry.path, root)):
                written = None
        result.append(replace(entry, written=written))
    return result


def write_manifest(out_dir: Path, entries: Sequence[ManifestEntry],
                    replacing: Sequence[tuple[ManifestEntry | None, ManifestEntry | None]] = (),
                    unfinished: Sequence[str] = (), build_id: str | None = None,
                    before_first_write: Callable[[], None] | None = None) -> Path:
    """Write ``manifest.json`` atomically (temporary, fsync, rename) listing ``entries`` by path.

    ``replacing`` (only while a build renames and removes its files) pairs each file about to
    change with the entry it replaces (None for a first write), and each file about to be removed
    with None. ``unfinished`` names the builds whose
    temporaries may lie in the folder (the one running, until its files are in place).
    """
    manifest = listing(entries)
    if replacing:
        manifest["replacing"] = [{"old": _manifest_item(old) if old else None,
                                  "new": _manifest_item(new) if new else None}
                                 for old, new in sorted(replacing, key=lambda pair: (pair[1] or pair[0]).path)]
    if unfinished:
        manifest["unfinished"] = list(unfinished)
    return write_manifest_bytes(out_dir, manifest_bytes(manifest), unfinished[0] if unfinished else build_id,
                                before_first_write)


def listing(entries: Sequence[ManifestEntry]) -> dict:
    """A manifest listing ``entries`` by path."""
    return {"files": [_manifest_item(e) for e in sorted(entries, key=lambda e: e.path)]}


def manifest_bytes(manifest: dict) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")


def write_manifest_bytes(out_dir: Path, data: bytes, build_id: str | None = None,
                         before_first_write: Callable[[], None] | None = None) -> Path:
    staging = Staging(out_dir, build_id or ownership.new_build_id())
    staging.before_first_write = before_first_write
    try:
        staging.stage(MANIFEST, data)
        staging.commit()
    except BaseException:
        staging.abort()
        raise
    return inside(out_dir, MANIFEST)


class UnfinishedRecord:
    """The manifest's record that a build's temporaries may lie in the folder.

    :meth:`write` adds the build's id to the existing manifest (or writes one listing no files)
    before the build makes its first temporary, so a build killed at any later moment leaves
    temporaries the next build can prove are printkit's. :meth:`withdraw` puts the manifest
    back as it was when the build fails and has removed its temporaries itself.
    """

    def __init__(self, out_dir: Path, build_id: str) -> None:
        self.out_dir, self.build_id = out_dir, build_id
        self.before: bytes | None = None
        self.written = False

    def write(self) -> None:
        path = self.out_dir / MANIFEST
        manifest: dict = {"files": []}
        if os.path.lexists(path):
            previous_files(self.out_dir)  # refuses a manifest that is not printkit's
            try:
                self.before = path.read_bytes()  # within the limit: previous_files read it
                manifest = json.loads(self.before)
            except (OSError, ValueError) as exc:
                raise BuildError(f"cannot read {str(path)!r}: {exc}") from None
        manifest["unfinished"] = [self.build_id]
        # Marked first: an interrupt that lands while the manifest is being replaced (after its
        # rename, before this method returns) must still find the record to withdraw.
        self.written = True
        write_manifest_bytes(self.out_dir, manifest_bytes(manifest), self.build_id)

    def withdraw(self) -> None:
        """Undo :meth:`write` (only while no file of the build has been renamed into place)."""
        if not self.written:
            return
        staging = Staging(self.out_dir, self.build_id)
        try:
            if self.before is None:
                (self.out_dir / MANIFEST).unlink(missing_ok=True)
            else:
                staging.stage(MANIFEST, self.before)
                staging.commit()
        except (OSError, PrintkitError):
            staging.abort()  # no half-written manifest stays behind (a full disk)
            return  # the record stays: the next build finds no temporary of this id and drops it
        self.written = False


def unfinished_builds(out_dir: Path) -> list[str]:
    """The ids of builds the manifest records as unfinished (validating the manifest as it goes)."""
    previous_files(out_dir)
    path = out_dir / MANIFEST
    if not os.path.lexists(path):
        return []
    try:
        ids = _load_json_limited(path).get("unfinished", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [i for i in ids if isinstance(i, str) and BUILD_ID.match(i)] if isinstance(ids, list) else []


def recording_builds(out_dir: Path) -> list[str]:
    """Builds killed while writing the manifest that records them: the manifest's temporary
    ``.manifest.json.ID.tmp`` names ID in its own ``unfinished``, which proves it printkit's."""
    ids = []
    try:
        names = [n for n in os.listdir(out_dir) if n.startswith(f".{MANIFEST}.") and n.endswith(".tmp")]
    except OSError:
        return []
    for name in names:
        build_id = name[len(MANIFEST) + 2:-4]
        path = out_dir / name
        if not BUILD_ID.match(build_id) or path.is_symlink() or not path.is_file():
            continue
        try:
            recorded = _load_json_limited(path).get("unfinished", [])
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(recorded, list) and build_id in recorded:
            ids.append(build_id)
    return ids


def _manifest_item(entry: ManifestEntry) -> dict:
    """An entry as listed in the manifest; ``lang``, ``back``, ``draft``, ``inputs`` and the
    spec appear only on files that have one."""
    item = asdict(entry)
    for optional in ("lang", "back", "draft", "written", "inputs", "spec", "spec_folder"):
        if item[optional] is None:
            del item[optional]
    return item


# A manifest lists at most a few files per card (10,000 cards a deck); far below this.
MAX_MANIFEST_BYTES = 50_000_000


def _load_json_limited(path: Path) -> object:
    """The JSON in ``path``: a regular file of at most MAX_MANIFEST_BYTES, nested as JSON allows.

    Raises OSError when it cannot be read and ValueError when it is too big, too deep or not JSON.
    """
    from printkit.safe_read import UnsafeFileError, read_limited

    try:
        raw = read_limited(path, MAX_MANIFEST_BYTES)
    except UnsafeFileError as exc:
        raise ValueError(str(exc)) from None
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def previous_files(out_dir: Path) -> dict[str, list[ManifestEntry]]:
    """What the existing manifest says printkit wrote: each path with the entries its file may match.

    A path has two entries (old and new) when a build stopped while replacing it. No manifest:
    nothing. A ``manifest.json`` that is not printkit's is refused, as the build would replace it.
    """
    path = out_dir / MANIFEST
    if not os.path.lexists(path):
        return {}
    refusal = f"refusing to replace {str(out_dir.resolve() / MANIFEST)!r}: "  # named as staged files are
    advice = "; move it away or use another --out"
    if path.is_symlink() or not path.is_file():
        raise BuildError(f"{refusal}printkit did not write it{advice}")
    try:
        manifest = _load_json_limited(path)
        listed = [_manifest_entry(item) for item in manifest["files"]]
        for pair in manifest.get("replacing", []):
            listed += [_manifest_entry(pair[side]) for side in ("old", "new") if pair[side] is not None]
    except OSError as exc:
        raise BuildError(f"{refusal}cannot read it ({exc.strerror or exc}) to tell whether printkit "
                         f"wrote it{advice}") from None
    except (ValueError, KeyError, TypeError, AttributeError):
        raise BuildError(f"{refusal}it is not a manifest printkit wrote{advice}") from None
    files: dict[str, list[ManifestEntry]] = {}
    for entry in listed:
        if canonical(entry.path):  # any other spelling names no file printkit wrote: it owns nothing
            files.setdefault(entry.path, []).append(entry)
    return files


# The kind of the README.txt every export for a print service writes (printkit.export): a manifest
# listing one is an export's, any other a build's.
EXPORT_README = "export-readme"


def enclosing_manifests(folder: Path, up: bool = True) -> Iterator[tuple[Path, bool, list[ManifestEntry]]]:
    """Each folder at or above ``folder`` (resolved; only ``folder`` itself unless ``up``) holding a
    manifest printkit wrote, nearest first: the folder, whether it holds an export (else a build),
    and the files its manifest lists. A ``manifest.json`` that is not printkit's is passed over."""
    here = folder.resolve()
    for candidate in (here, *here.parents) if up else (here,):
        try:
            listed = [entry for entries in previous_files(candidate).values() for entry in entries]
        except (BuildError, OSError):
            continue
        if listed:
            yield candidate, any(e.kind == EXPORT_README for e in listed), listed


def _manifest_entry(item: dict) -> ManifestEntry:
    item = dict(item)
    written = item.pop("written", None)
    entry = ManifestEntry(**item, written=_written_record(written))
    if not isinstance(entry.path, str) or not isinstance(entry.sha256, str):
        raise TypeError("path and sha256 must be strings")
    if not isinstance(entry.inputs, (str, type(None))):
        entry = replace(entry, inputs=None)  # not known: such a file is judged as one of an older manifest
    if not isinstance(entry.spec, (str, type(None))) or not isinstance(entry.spec_folder, (str, type(None))):
        entry = replace(entry, spec=None, spec_folder=None)
    return entry


def _written_record(item: object) -> Written | None:
    """A manifest's record of how a file was put in place; None when missing or malformed (such
    a file is then simply not proven printkit's)."""
    if not isinstance(item, dict):
        return None
    try:
        written = Written(**item)
    except TypeError:
        return None
    numbers = (written.device, written.inode, written.size, written.mtime_ns)
    if not all(type(n) is int for n in numbers) or not isinstance(written.mac, str):
        return None
    return written


def written_files(out_dir: Path, previous: dict[str, list[ManifestEntry]]) -> dict[Path, frozenset[str]]:
    """Each file printkit wrote (resolved, as staged) with the hashes it may hold."""
    written = {}
    root = out_dir.resolve()
    for relative, entries in previous.items():
        try:
            written[inside(out_dir, relative, root)] = frozenset(e.sha256 for e in entries)
        except BuildError:
            continue  # a path printkit would never write: owns nothing
    return written


# A file's sha256 by its path, with the size and times it had when hashed (:func:`hash_once`).
Hashed = dict[Path, tuple[tuple, "str | None"]]


def earlier_entries(out_dir: Path, previous: dict[str, list[ManifestEntry]],
                     hashed: Hashed | None = None) -> list[ManifestEntry]:
    """Entries of the previous manifest whose files are still there with the same contents.

    ``hashed`` keeps each file's hash by its size and times for a later call in the same build,
    which then reads only the files written since."""
    kept = []
    root = out_dir.resolve()
    for relative, entries in previous.items():
        try:
            path = inside(out_dir, relative, root)
        except BuildError:
            continue
        sha = hash_once(path, hashed) if hashed is not None else current_sha256(path)
        kept += [e for e in entries if e.sha256 == sha][:1]
    return kept


def hash_once(path: Path, hashed: Hashed) -> str | None:
    """The sha256 of the file at ``path`` (:func:`printkit.outputs.current_sha256`), taken from
    ``hashed`` while the file (not following a link) keeps the size and times it had then."""
    try:
        signature = _signature(path)
    except OSError:
        return None
    known = hashed.get(path)
    if known is not None and known[0] == signature:
        return known[1]
    sha = current_sha256(path)
    hashed[path] = (signature, sha)
    return sha


def hash_placed(path: Path, sha256: str, hashed: Hashed) -> None:
    """Keep ``sha256`` in ``hashed`` as the hash of the file just renamed into place at ``path``
    from a temporary printkit wrote with those bytes (the rename changed its times), so that
    :func:`hash_once` does not read it again."""
    try:
        hashed[path] = (_signature(path), sha256)
    except OSError:
        pass


def _signature(path: Path) -> tuple:
    stat = os.lstat(path)
    return (identity_of(stat), stat.st_mode)  # the link itself: a file swapped for a link differs
