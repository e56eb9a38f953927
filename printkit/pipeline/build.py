"""The build: expanded decks in, print-ready files and ``manifest.json`` out.

:func:`build` runs every producer of :data:`printkit.pipeline.producers.PRODUCERS` over the decks
(each says what it needs of the build: see :mod:`printkit.pipeline.producers`), then puts their
files in place and writes the manifest last (:mod:`printkit.pipeline.manifest`).

Output layout (``OUT`` is ``--out``)::

    OUT/manifest.json                      every file of the build, with its sha256 (written last)
    OUT/alignment-a4.pdf                   the duplex alignment test (front and back page)
    OUT/calc/expert/sheets-a4.pdf          fronts and backs interleaved, for duplex printing
    OUT/calc/expert/sheets-fronts-a4.pdf   fronts only, for one-sided printing
    OUT/clag/score-sheet-a4.pdf            full-page components (Clag's score sheet), a page each
    OUT/emberfall/cards/001-cards-ember-drake.pdf|png   with --per-card: fronts (printkit.pipeline.names.per_card_files) ...
    OUT/calc/expert/cards/back-1.pdf|png                       ... and each distinct back once
    OUT/calc/rulebook-ko-a4.pdf            a rulebook per deck and language (not with --no-rulebooks)
    OUT/calc/rulebook-ko-booklet-a4.pdf    with --booklet: A5 pages two-up, saddle-stitch order
    OUT/calc/expert/proof.html             every distinct face with its warnings (printkit.proof) ...
    OUT/calc/expert/proof/faces-1.png      ... and its thumbnails, on contact sheets (not with --no-proof)

A deck without variants writes to ``OUT/<deck>/``. ``<deck>`` is the spec's file name without
its extension, made safe (:func:`printkit.outputs.safe_part`: ``my deck.yaml`` writes to
``OUT/my-deck/``, ``카드.yaml`` to ``OUT/카드/``); two specs that would share a folder are refused.
Card sheets hold cards only; full-page components (cards with a ``sheet`` attribute) go to
``<sheet>-sheet-<paper>.pdf``, one page per component card, single-sided. Per-card files exist once per distinct card (identical copies share
one file; the manifest's ``cards`` says how many copies it stands for) and hold the front only;
each distinct back is written once (``back-1.pdf``, ``back-1.png`` …) and every per-card entry
names its back file in the manifest's ``back``, as print services ask for a front and a back.
Full-page components are no cards and never go into ``cards/``.

Every file is first written to a temporary name beside its target (``.NAME.ID.tmp``, ``ID`` a
random build id the manifest records before the first temporary is written) and fsynced; only when the whole build has rendered are they renamed into place, and the manifest
comes last. A build that fails or is killed at any moment leaves each output either the previous
complete file or the new one, and ``manifest.json`` lists only files that match it (before the
renames it is rewritten: the files about to change move from ``files`` to ``replacing``, each with
its old and new entry, so a build stopped midway still knows either version as its own). A file
whose bytes would not change is not touched, so rebuilding changes nothing. printkit never writes
outside the output folder and never deletes files it did not write: only the temporaries of a
killed build whose id the manifest recorded and that verifies, and its own earlier outputs of
what a build writes in full (the same deck, variant, kind and paper, :func:`printkit.pipeline.manifest.scope`)
or of a variant or rule text of a deck it builds that no longer exists (:class:`printkit.pipeline.manifest.Current`) that the
build no longer writes, or of a deck it builds (not with ``--card``) made from other inputs than the deck's now
(:meth:`printkit.pipeline.manifest.Current.outdated`: per-card files kept by a build without them, once a
card changed), or of a spec taken out of a folder it reads specs from
(:meth:`printkit.pipeline.manifest.Current.spec_gone`), that still hold the bytes the manifest lists and whose ``written`` record
still holds (:mod:`printkit.ownership`: a manifest proves nothing by itself). Those are recorded
in the interim manifest (old entry, no new one) before the first rename and removed after the
renames. An entry without a record (an older manifest's) or spelled otherwise than printkit
spells paths (:func:`printkit.outputs.canonical`) is never removed.
Renders are reused from ``OUT/.printkit-cache`` (:mod:`printkit.cache`). With ``jobs`` above 1 the
per-card PNGs, the proof thumbnails and the rulebooks are made in worker processes
(:mod:`printkit.workers`); this process still writes every file, in the same order, so the output,
the manifest and the warnings do not depend on ``jobs``.

A file already at an output path is replaced only if the previous manifest lists it with the hash
it still has. Anything else (a user's file, no manifest, a file edited since printkit wrote it, a
``manifest.json`` that is not printkit's) refuses the whole build before any rename, naming the file.
Any other file in the folders of the decks built that the new manifest does not list stays, and the
build says so in a note (:func:`printkit.pipeline.foreign.foreign_note`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Callable, Collection, Sequence

from printkit import ownership
from printkit.cache import NamedEntries
from printkit.deck import Deck
from printkit.errors import BuildError, Errors, PrintkitError
from printkit.expected import count_warnings
from printkit.outputs import (
    current_sha256,
    deck_part,
    exclusive,
    inside,
    remove_outputs,
    remove_temporaries,
    safe_part,
)
from printkit.pipeline import replay
from printkit.pipeline.context import BuildContext, BuildOptions, BuildResult
from printkit.pipeline.manifest import (
    SPEC_KINDS,
    Current,
    ManifestEntry,
    UnfinishedRecord,
    earlier_entries,
    enclosing_manifests,
    hash_once,
    hash_placed,
    listing,
    manifest_bytes,
    previous_files,
    recording_builds,
    scope,
    resolved_spec,
    spec_place,
    unfinished_builds,
    with_records,
    write_manifest,
    write_manifest_bytes,
    written_files,
)
from printkit.pipeline.foreign import foreign_note
from printkit.pipeline.names import check_deck_folders, choose_cards, deck_folders
from printkit.pipeline.producers import PRODUCERS, Producer
from printkit.preflight import preflight
from printkit.render.forms import svg_form_store
from printkit.workers import PRELOAD, Workers

if TYPE_CHECKING:
    from printkit.pipeline.replay import Invocation

# Each input folder listed once in a build (printkit.pipeline.replay.folder_listing).
Listings = dict[Path, "replay.Listing | None"]


def build(decks: Sequence[Deck], options: BuildOptions,
          progress: Callable[[int], None] | None = None,
          producers: Sequence[Producer] = PRODUCERS,
          command: "Invocation | None" = None, every_variant: bool = False,
          export: bool = False) -> BuildResult:
    """Render ``decks`` into ``options.out_dir`` and write the manifest last.

    The manifest lists this build's files plus those of earlier builds into the same folder that
    are still there unchanged (so building one deck keeps the others listed). A second build into
    the folder while this one runs is refused (:func:`printkit.outputs.exclusive`). ``command``:
    the ``printkit build`` command these decks were read for, whose result is then kept for the
    same command to list again (:func:`printkit.pipeline.replay.listed_again`).

    ``every_variant``: each deck is given in every variant its spec has, so earlier files of its
    other variants are stale (:class:`printkit.pipeline.manifest.Current`); files of decks not
    given stay, but for those of a spec taken out of a folder the build reads specs from (the
    output folder may hold decks built from other folders).
    ``export``: the files are an export for a print
    service (:mod:`printkit.export`), which has a folder of its own; any other build is refused at
    or inside an export's folder (:func:`refuse_export_folder`).
    """
    if not decks:
        raise BuildError("nothing to build: no decks given")
    options.paper_size  # fail early on an unknown paper
    options.check_draft()
    _check_out_dir(options.out_dir)
    if not export:
        refuse_export_folder(options.out_dir)
    check_deck_folders(decks)
    chosen = {}
    if options.cards:  # one card's files: no sheets, no rulebooks; an unknown card fails here
        chosen = choose_cards(decks, options.cards)
        producers = [p for p in producers if p.per_card]
    preload = PRELOAD + tuple(name for p in producers for name in p.preload(options))
    ctx = BuildContext(options, progress or (lambda n: None), chosen=chosen, workers=Workers(options.jobs, preload))
    try:
        ctx.staging.make_folder(options.out_dir)
    except BaseException:
        ctx.staging.abort()  # the parents it did make
        raise
    with exclusive(options.out_dir):  # when refused, the folder is the other build's to keep
        ctx.record = UnfinishedRecord(options.out_dir, ctx.staging.build_id)
        ctx.staging.before_first_write = ctx.record.write
        kept_forms = svg_form_store.set(NamedEntries(ctx.cache, "svg-form"))
        try:
            listings: Listings = {}
            current = _current(decks, every_variant, options.out_dir, listings)
            return _build_locked(decks, ctx, producers, current, listings, command, export)
        except BaseException:
            ctx.workers.stop()  # at once: nothing they would still make is wanted
            ctx.record.withdraw()  # first, so that the folders the build made are empty again
            ctx.staging.abort()  # while still holding the folder: no other build sees it half-cleaned
            if ctx.record.written:  # a full disk: there is room for the old manifest now the temporaries are gone
                ctx.record.withdraw()
                ctx.staging.abort()
            raise
        finally:
            ctx.workers.close()
            svg_form_store.reset(kept_forms)


def _current(decks: Sequence[Deck], every_variant: bool, out_dir: Path, listings: Listings) -> Current:
    """The decks a build makes, with the fingerprint of each one's inputs and of each spec's
    (:func:`printkit.pipeline.replay.deck_inputs`, ``listings`` keeping the folders listed):
    of the spec's folder, not printkit's own files, which a printkit update replaces."""
    inputs, spec_inputs, specs, folders = {}, {}, {}, {}
    for deck in decks:
        inputs[(deck.deck_id, deck.variant)] = replay.deck_inputs(deck, out_dir, listings, settled=False, bundled=False)
        if deck.deck_id not in spec_inputs:
            spec_inputs[deck.deck_id] = replay.deck_inputs(deck, out_dir, listings, whole_spec=True, settled=False,
                                                           bundled=False)
            specs[deck.deck_id] = spec_place(Path(deck.spec_path))
            folders[specs[deck.deck_id][1]] = resolved_spec(Path(deck.spec_path)).parent
    return Current(every_variant, inputs, spec_inputs, specs, folders)


def _build_locked(decks: Sequence[Deck], ctx: BuildContext, producers: Sequence[Producer],
                  current: Current, listings: Listings, command: "Invocation | None" = None,
                  export: bool = False) -> BuildResult:
    """The build, once it holds the output folder: the steps in order."""
    out_dir = ctx.options.out_dir
    # A manifest.json printkit did not write is refused before rendering; one that records killed
    # builds lets their temporaries go (this build holds the folder, so no other is writing them).
    remove_temporaries(out_dir, unfinished_builds(out_dir) + recording_builds(out_dir), ownership.signed)
    fresh, entries, keys = _replayed(decks, ctx, producers, listings)
    _prepare(fresh, ctx, producers)
    for producer in producers:
        if fresh or producer.deckless:
            entries.extend(_produced(producer, fresh, ctx))
    replay.remember(ctx, fresh, keys)
    entries = [current.stamped(e) for e in entries]
    _refuse_shared_paths(entries)
    if not export:
        _refuse_exports_inside(out_dir, entries)
    placed = _put_in_place(ctx, entries, current)
    manifest = manifest_bytes(listing(placed.entries + placed.kept))
    if command is not None and _replayable(producers) and not ctx.options.cards:
        replay.remember_invocation(ctx, command, decks, keys, manifest)
    target = _write_last_manifest(ctx, manifest, placed.swapped)
    notes, warnings = unsent_notes(placed.unsent, placed.removed)
    notes = removal_notes(placed.outdated, placed.orphaned, current, placed.unjudged) + notes
    if not export:  # an export refuses them in its folders to send (printkit.export.folders)
        notes += tuple(filter(None, [foreign_note(out_dir, deck_folders(decks), ctx.hashed)]))
    return BuildResult(tuple(placed.entries), tuple(ctx.warnings) + warnings, target, placed.removed, notes)


def _replayable(producers: Sequence[Producer]) -> bool:
    return all(p.replay for p in producers)


def _replayed(decks: Sequence[Deck], ctx: BuildContext, producers: Sequence[Producer],
              listings: Listings) -> tuple[list[Deck], list[ManifestEntry], dict[int, str]]:
    """The decks to build, the files of those listed again as they are, and each deck's record key
    (:func:`printkit.pipeline.replay.replay`). Every deck is built when a producer cannot replay."""
    if not _replayable(producers):
        return list(decks), [], {}
    out_dir = ctx.options.out_dir
    return replay.replay(ctx, decks, earlier_entries(out_dir, previous_files(out_dir), ctx.hashed), producers, listings)


def _prepare(fresh: Sequence[Deck], ctx: BuildContext, producers: Sequence[Producer]) -> None:
    """Before anything is drawn: everything that would refuse the build, said at once; the
    workers started with the work producers hand them early."""
    options = ctx.options
    for deck in fresh:  # counts the spec does not expect: check fails on them, a build warns
        for said in count_warnings(deck):
            ctx.warn(deck, said)
    if fresh and not options.cards:
        rule_texts = any(p.reads_rule_texts(options) for p in producers)
        preflight(fresh, ctx.faces, options.paper_size, rulebooks=rule_texts)
    if ctx.workers.jobs > 1 and fresh:
        ctx.workers.warm(expected_work_ms(fresh, options, producers))
        for producer in producers:
            if producer.start is not None:
                producer.start(fresh, ctx)


def expected_work_ms(decks: Sequence[Deck], options: BuildOptions,
                     producers: Sequence[Producer] = PRODUCERS) -> float:
    """Roughly how much work (ms) a build of ``decks`` has for workers if nothing is cached."""
    return sum((p.work_ms(decks, options) for p in producers), 0.0)


def _produced(producer: Producer, decks: Sequence[Deck], ctx: BuildContext) -> list[ManifestEntry]:
    """Run one producer; an unexpected failure in a backend (a library's own error) becomes one
    BuildError naming what was being written, so it reads like every other build error."""
    try:
        return list(producer(decks, ctx))
    except PrintkitError:
        raise
    except Exception as exc:
        raise BuildError(f"cannot write the {producer.what}: {type(exc).__name__}: {exc}") from exc


def _refuse_shared_paths(entries: Sequence[ManifestEntry]) -> None:
    paths = Counter(e.path for e in entries)
    duplicates = sorted(p for p, n in paths.items() if n > 1)
    if duplicates:
        raise BuildError(f"two outputs of this build share a path: {', '.join(duplicates)}")


@dataclass(frozen=True)
class _Placed:
    """The build's files in place: its entries (with their records), the earlier files still
    listed, the earlier files removed (and of those, the ones made from other inputs than the
    deck's now), and whether the manifest was rewritten for the swap."""

    entries: list[ManifestEntry]
    kept: list[ManifestEntry]
    removed: tuple[str, ...]
    outdated: tuple[ManifestEntry, ...]
    orphaned: tuple[ManifestEntry, ...]  # of the removed, the files of a spec that no longer exists
    swapped: bool
    unsent: tuple[ManifestEntry, ...] = ()  # earlier files in an export's folders to send it does not write
    unjudged: tuple[ManifestEntry, ...] = ()  # kept: their deck's fingerprint cannot be taken now


def _put_in_place(ctx: BuildContext, entries: list[ManifestEntry], current: Current) -> _Placed:
    """Rename the staged files into place and remove the stale ones, the manifest naming both
    versions of every file meanwhile (see the module's notes)."""
    out_dir = ctx.options.out_dir
    paths = {e.path for e in entries}
    previous = previous_files(out_dir)  # read again: files may have changed meanwhile
    earlier = earlier_entries(out_dir, previous, ctx.hashed)
    # Each file's hash as earlier_entries took it just now, while its size and times stay the same.
    ctx.staging.check_replaceable(written_files(out_dir, previous), lambda path: hash_once(path, ctx.hashed))
    changing = {target for _, target in ctx.staging.staged}
    # printkit's own earlier files that this build does not write, each judged once. Stale: those of
    # what it writes in full (an edited card's file under an old name, a card taken out of the deck,
    # a rulebook whose text is gone) or of a variant of a deck it builds that no longer exists; else
    # (not with --card: it writes a few files and vouches for no others) those of a deck it builds
    # (kinds or papers it does not write: per-card files without --per-card, rulebooks with
    # --no-rulebooks, another paper's sheets) not made from the deck's inputs as they are now, and
    # those of a deck whose spec, in a folder this build reads specs from, is gone; else, of an
    # export, those in a folder to send (an earlier export's rulebook, exported again with
    # --no-rulebooks): README.txt says to send everything there. Files of other decks, variants,
    # kinds or papers that may still be current stay, as does anything not listed or changed since
    # (not in ``earlier``).
    superseded, outdated, orphaned, unsent, unjudged = [], [], [], [], []
    for e in earlier:
        if e.path in paths:
            continue
        if scope(e) in ctx.covered or (not ctx.options.cards and current.gone(e, ctx.rule_languages)):
            superseded.append(e)
            continue
        if not ctx.options.cards:
            if current.unjudged(e):
                unjudged.append(e)
            if current.outdated(e):
                outdated.append(e)
                continue
            if current.spec_gone(e):
                orphaned.append(e)
                continue
        if _sent(e.path, ctx.sent):
            unsent.append(e)
    stale = superseded + outdated + orphaned + unsent
    going = {e.path for e in stale}
    root = out_dir.resolve()
    placed = {e.path: inside(out_dir, e.path, root) for e in [*earlier, *entries]}
    # Each file this build puts in place, recorded as its temporary is: a rename keeps the
    # device, inode, size and modification time, so the record holds for the file in place.
    temporaries = {target: temp for temp, target in ctx.staging.staged}
    records = {e.path: ownership.record(e.path, e.sha256, temporaries[placed[e.path]])
               for e in entries if placed[e.path] in temporaries}
    entries = with_records(out_dir, entries, earlier, records)
    swapped = bool(changing or stale)
    if swapped:
        # While files are swapped the manifest vouches for none of them, yet names both
        # versions of each (a file to be removed: its old version only), so a build stopped
        # midway leaves printkit's files known as its own.
        old = {e.path: e for e in earlier}
        write_manifest(out_dir,
                       [e for e in earlier if placed[e.path] not in changing and e.path not in going],
                       [(old.get(e.path), e) for e in entries if placed[e.path] in changing]
                       + [(e, None) for e in stale],
                       unfinished=[ctx.staging.build_id])
        ctx.record.written = False  # the manifest just written is the truth now, whatever follows
    ctx.staging.commit()
    for e in entries:  # what the build's note of files not printkit's finds listed, not read again
        if placed[e.path] in temporaries:
            hash_placed(placed[e.path], e.sha256, ctx.hashed)
    removed = _remove_stale(out_dir, stale)
    # A stale file that could not go (changed or locked meanwhile, or not proven printkit's)
    # stays listed while it matches.
    kept = [e for e in earlier if e.path not in paths and e.path not in removed
            and (e.path not in going or current_sha256(inside(out_dir, e.path)) == e.sha256)]
    kept = with_records(out_dir, kept, earlier, {})
    return _Placed(entries, kept, tuple(sorted(removed)), tuple(e for e in outdated if e.path in removed),
                   tuple(e for e in orphaned if e.path in removed), swapped, unsent=tuple(unsent),
                   unjudged=tuple(e for e in unjudged if e.path not in removed))



def _sent(path: str, folders: Collection[str]) -> bool:
    """Whether ``path`` lies in one of the ``folders`` to send (:meth:`BuildContext.send_folder`)."""
    return any(path.startswith(folder + "/") for folder in folders)


def unsent_notes(unsent: Sequence[ManifestEntry], removed: Collection[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What an export says of the earlier files of printkit's in its folders to send that it does
    not write: notes of those removed, warnings of those that stay (not proven printkit's, or
    changed meanwhile), which the user would send too."""
    notes, warnings = [], []
    for entry in unsent:
        folder = entry.path.split("/")[0]
        if entry.path in removed:
            notes.append(f"removed {entry.path}, an earlier export's file this export does not write "
                         f"(README.txt says to send everything in {folder}/)")
        else:
            warnings.append(f"{entry.path}, an earlier export's file this export does not write, is still there: "
                            f"printkit cannot prove it wrote it, so leaves it; move it out of {folder}/ before "
                            f"sending everything in {folder}/")
    return tuple(notes), tuple(warnings)


# How a note names the files of each kind (one, many); any other kind is a file.
_KIND_WORDS = {
    **dict.fromkeys(("card-pdf", "card-png", "card-back-pdf", "card-back-png"), ("per-card file", "per-card files")),
    **dict.fromkeys(("sheets", "sheets-fronts", "page"), ("sheet file", "sheet files")),
    **dict.fromkeys(SPEC_KINDS, ("rulebook", "rulebooks")),
    **dict.fromkeys(("proof", "proof-image"), ("proof file", "proof files")),
}
_FILES = ("file", "files")


def removal_notes(outdated: Sequence[ManifestEntry], orphaned: Sequence[ManifestEntry],
                  current: Current, unjudged: Sequence[ManifestEntry] = ()) -> tuple[str, ...]:
    """What a build says of the files it removed as made from other inputs than the deck's now
    (``current``): ``calc/expert: removed 12 per-card files made before a file the deck may read was
    saved again``, and as files of a spec that no longer exists (``old: removed 9 files of old.yaml,
    which no longer exists``); and of the files it kept without knowing whether they match the
    deck (``unjudged``: ``calc: kept 12 per-card files without checking them against the deck (…)``)."""
    counts: Counter[tuple[str, str, tuple[str, str], str]] = Counter()
    for entry in outdated:
        # The fingerprint is of the folder's files by size and times (hashing them all on each
        # build costs too much): a file saved again unchanged differs as an edited one does.
        why = ("made before a file the deck may read was saved again" if entry.inputs is not None
               else "not known to be made from the deck as it is now")
        counts[(_deck_folder(entry), "removed", _KIND_WORDS.get(entry.kind, _FILES), why)] += 1
    for entry in orphaned:
        counts[(deck_part(entry.deck or ""), "removed", _FILES, f"of {entry.spec}, which no longer exists")] += 1
    for entry in unjudged:
        counts[(_deck_folder(entry), "kept", _KIND_WORDS.get(entry.kind, _FILES), _UNJUDGED)] += 1
    return tuple(f"{folder}: {done} {n} {one if n == 1 else many} {why}"
                 for (folder, done, (one, many), why), n in counts.items())


# Why a build keeps files it cannot check against the deck (printkit.pipeline.replay.deck_inputs).
_UNJUDGED = (f"without checking them against the deck (its folder holds more than {replay.MAX_FILES:,} files, "
             "or one changed while the build read it)")


def _deck_folder(entry: ManifestEntry) -> str:
    """``calc/expert`` or ``calc``: the folder of an entry's deck and variant."""
    return "/".join(p for p in (deck_part(entry.deck or ""), entry.variant and safe_part(entry.variant)) if p)


def _remove_stale(out_dir: Path, stale: Sequence[ManifestEntry]) -> set[str]:
    """Remove the stale files still proven printkit's (:func:`printkit.outputs.remove_outputs`)."""
    proofs = {(e.path, e.sha256): e.written for e in stale}

    def proven(relative: str, sha: str, path: Path) -> bool:
        return ownership.proven(relative, sha, proofs.get((relative, sha)), path)

    return remove_outputs(out_dir, [(e.path, e.sha256) for e in stale], proven)


def _write_last_manifest(ctx: BuildContext, manifest: bytes, swapped: bool) -> Path:
    """Store the cache and write the manifest, last."""
    # Under this build's id, recorded first if nothing has recorded it yet, so that a kill while
    # the manifest's own temporary exists leaves one the next build may remove.
    recorded = ctx.staging._announced or swapped
    if ctx.cache.has_pending and not recorded:  # nothing renamed: the record can still be withdrawn
        ctx.record.write()
        recorded = True
    ctx.cache.flush(ctx.staging.build_id)
    return write_manifest_bytes(ctx.options.out_dir, manifest, build_id=ctx.staging.build_id,
                                before_first_write=None if recorded else ctx.record.write)


def _check_out_dir(out_dir: Path) -> None:
    """Refuse an output folder that is a file (or a link to one) before anything is rendered."""
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"output folder {str(out_dir)!r} is not a folder")


def refuse_export_folder(out_dir: Path) -> None:
    """Refuse to build at or inside an export's folder (:mod:`printkit.export`): the build's files
    would lie among the files to upload."""
    for folder, export, _ in enclosing_manifests(out_dir):
        if export:
            raise BuildError(f"cannot build into {str(out_dir)!r}: {str(folder)!r} holds printkit's export "
                             f"for a print service, and a build there would mix its files with the files to "
                             f"upload; build into a folder of its own (e.g. --out output)")


def _refuse_exports_inside(out_dir: Path, entries: Sequence[ManifestEntry]) -> None:
    """Refuse to write into an export's folder inside the output folder (``--out output/my-game/cards``
    given to an export before the build wrote per-card files there)."""
    folders = {parent for e in entries for parent in PurePosixPath(e.path).parents if parent != PurePosixPath(".")}
    for folder in sorted(folders, key=str):
        if any(export for _, export, _ in enclosing_manifests(out_dir / folder, up=False)):
            raise BuildError(f"cannot build into {str(out_dir / folder)!r}: it holds printkit's export for a "
                             f"print service, and the build's files there would mix with the files to "
                             f"upload; move the export away (or export again with another --out)")


def refuse_bundled_over_others(out_dir: Path) -> None:
    """Refuse to build printkit's own decks, taken because the working folder holds no YAML file,
    into an output folder holding decks built from specs elsewhere: a designer's game whose spec
    is missing for a moment (renamed, mid ``git checkout``) would get four decks it never had,
    which later builds of the game leave there."""
    from printkit.locate import DECKS_DIR

    try:
        listed = [entry for entries in previous_files(out_dir).values() for entry in entries]
    except BuildError:
        return  # a manifest printkit did not write: the build refuses it, saying why
    ours = spec_place(DECKS_DIR / "x.yaml")[1]
    names = {path.stem for path in DECKS_DIR.glob("*.y*ml")}
    others = sorted({e.deck for e in listed if e.deck and
                     (e.spec_folder != ours if e.spec_folder is not None else e.deck not in names)})
    if others:
        raise BuildError(f"this folder holds no deck spec, and {str(out_dir)!r} holds {', '.join(others)} built "
                         f"from specs elsewhere: printkit's own decks are not built into it; name the spec "
                         f"to build (or one of printkit's decks, e.g. calc), or use another --out")


def load_decks(names: Sequence[str], variant: str | None = None, paths: Sequence[Path] | None = None) -> list[Deck]:
    """The decks to build: each named spec (all specs when none) in every variant, or in ``variant``.

    Without names, ``variant`` picks the specs that have it; a named spec without it is an error.
    Without names the specs are those of :func:`printkit.locate.default_specs`; ``paths``, when
    given, are the spec files to read instead of looking the names up (found already: ``printkit
    build`` before it looked for its record, ``printkit watch`` when it started). A font file
    changed since it was parsed is read afresh (``printkit watch`` loads again for every rebuild).
    """
    import dataclasses
    import time

    from printkit.fonts import forget_changed_fonts

    forget_changed_fonts()

    from printkit.spec.options import check_engine_options
    from printkit.locate import spec_paths
    from printkit.spec import load_spec, variant_names
    from printkit.decks import expand, expand_all

    decks: list[Deck] = []
    errors = Errors()  # each spec's mistakes, said together
    for path in spec_paths(names) if paths is None else paths:
        read_at = time.time_ns()  # before the spec is read: see printkit.pipeline.replay.record_key
        with errors.collecting():
            loaded = load_spec(path)
            check_engine_options(loaded)
            variants = variant_names(loaded)
            if variant is None:
                expanded = list(expand_all(loaded))
            elif variant in variants or names:
                expanded = [expand(loaded, variant)]  # a named spec without it raises a located error
            else:
                expanded = []
            decks += [dataclasses.replace(deck, read_at_ns=read_at) for deck in expanded]
    errors.raise_any()
    if not decks:
        raise BuildError(f"no deck has a variant {variant!r}" if variant else "no deck specs found")
    return decks
