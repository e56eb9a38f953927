"""A deck whose inputs have not changed since its last build is not built again.

After a build, each deck's files, the scopes it wrote in full and its warnings are kept in the
render cache under a key made of everything the deck's files come from: printkit's code and
libraries, the build options, the expanded deck, and the size, times and identity of every file
in the spec's folder and of the bundled fonts. The next build with the same key finds the files
still in place (each one's sha256 as recorded) and lists them again without laying out or drawing
a card. A file changed or gone, any input touched, or a record that does not read back: the deck
is built as usual.

File times stand in for file contents here, as they do for make: ``st_ctime_ns`` changes with
every write to a file, and cannot be set back, so a file edited in place is never taken for
unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from printkit.cache import code_fingerprint

if TYPE_CHECKING:
    from printkit.build import BuildContext, BuildOptions, ManifestEntry
    from printkit.deck import Deck

# A spec in a folder this full (a home folder, say) is built every time: looking at every file
# would cost more than it saves.
MAX_FILES = 5_000


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
        from printkit.build import ManifestEntry

        try:
            raw = json.loads(data)
            return cls(tuple(ManifestEntry(**e) for e in raw["entries"]),
                       tuple(tuple(s) for s in raw["covered"]),
                       tuple((str(text), tuple(map(str, labels))) for text, labels in raw["warnings"]))
        except (ValueError, KeyError, TypeError):
            return None


def record_key(ctx: "BuildContext", deck: "Deck", signatures: dict[Path, str | None] | None = None) -> str | None:
    """The cache key of ``deck``'s record in this build, or None when its inputs cannot be told.

    ``signatures`` keeps each folder's signature for the other decks of the build."""
    if not ctx.cache.enabled or ctx.options.cards:
        return None
    from printkit.fonts import FONTS_DIR

    signatures = {} if signatures is None else signatures
    spec_folder, fonts_folder = Path(deck.spec_path).resolve().parent, Path(FONTS_DIR).resolve()
    for folder in (spec_folder, fonts_folder):
        if folder not in signatures:
            signatures[folder] = folder_signature(folder, ctx.options.out_dir)
    files, fonts = signatures[spec_folder], signatures[fonts_folder]
    if files is None or fonts is None:
        return None
    return ctx.cache.key("deck", lambda: "\n".join([_options(ctx.options), deck_description(deck), files, fonts]))


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


def folder_signature(folder: Path, skip: Path) -> str | None:
    """Every file under ``folder`` (links followed, ``skip`` left out) with its size, times and
    identity, in a stable order; None when there are more than :data:`MAX_FILES`."""
    lines: list[str] = []
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
                pending.append(Path(entry.path))
            else:
                lines.append(f"{entry.path}\0{stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns} "
                             f"{stat.st_ino} {stat.st_dev}")
            if len(lines) > MAX_FILES:
                return None
    return "\n".join(lines)


def replay(ctx: "BuildContext", decks: Sequence["Deck"], earlier: Sequence["ManifestEntry"],
           ) -> tuple[list["Deck"], list["ManifestEntry"], dict[int, str]]:
    """The decks to build, the files of those that need no building (listed again, as they are),
    and each deck's record key (by ``id``) for :func:`remember`."""
    from printkit.build import work_units

    present = {(e.path, e.sha256) for e in earlier}
    fresh: list["Deck"] = []
    kept: list["ManifestEntry"] = []
    keys: dict[int, str] = {}
    signatures: dict[Path, str | None] = {}
    for deck in decks:
        key = record_key(ctx, deck, signatures)
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
            ctx._warnings.restore(_folder(deck), text, labels)
        ctx.progress(work_units([deck], ctx.options))
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
            ctx._warnings.of_folder(_folder(deck)))
        ctx.cache.pending[key] = record.to_bytes()


def _folder(deck: "Deck") -> str:
    from printkit.build import deck_folder

    return deck_folder(deck)
