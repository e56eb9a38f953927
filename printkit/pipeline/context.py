"""What a build runs with: its options (:class:`BuildOptions`), what it gives back
(:class:`BuildResult`) and what every producer gets (:class:`BuildContext`): the options, a safe
writer, the render cache, the workers, the laid-out faces, a warning sink and progress reporting."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from printkit import ownership
from printkit.cache import RenderCache, face_files, pages_description
from printkit.deck import Card, Deck
from printkit.errors import BuildError
from printkit.layout import templates
from printkit.layout.geometry import Size, paper_size
from printkit.layout.imposition import Flip, Page
from printkit.outputs import Staging, sha256_hex
from printkit.pipeline.faces import Faces
from printkit.pipeline.manifest import Hashed, ManifestEntry, WarningLog, scope
from printkit.pipeline.names import deck_folder
from printkit.workers import PNG_MS, PRELOAD, Later, Workers

if TYPE_CHECKING:
    from printkit.pipeline.manifest import UnfinishedRecord
    from printkit.render.cmyk import Press
    from printkit.render.pdf import PdfInfo, SharedPages


@dataclass(frozen=True)
class BuildOptions:
    """What to build and how; lengths in millimetres."""

    out_dir: Path = Path("output")
    paper: str = "a4"
    per_card: bool = False
    flip: Flip = "long"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    gap_mm: float = 0.0
    rulebook_paper: str | None = None  # a4, a5 or letter: the rulebooks' page size (None: as --paper)
    booklet: bool = False  # also write each rulebook as a saddle-stitch booklet
    rulebooks: bool = True  # False: card outputs only (sheets, alignment test, per-card files)
    cards: tuple[str, ...] = ()  # --card: only these cards' per-card files (see choose_cards)
    cache: bool = True  # reuse and store renders in OUT/.printkit-cache (printkit.cache)
    proof: bool = True  # proof.html and its thumbnails per deck (printkit.proof)
    jobs: int = 1  # worker processes for PNGs, thumbnails and rulebooks (printkit.workers); same output
    draft: bool = False  # refused pictures as placeholders, sheets marked DRAFT, nothing else to print (printkit.draft)

    def check_draft(self) -> None:
        """Refuse a draft that would write per-card files: they reach printers without a mark."""
        if self.draft and (self.per_card or self.cards):
            raise BuildError(f"a draft writes no per-card files (they reach printers without the DRAFT "
                             f"mark); build without --draft for {'--per-card' if self.per_card else '--card'}")

    @property
    def paper_size(self) -> Size:
        try:
            return paper_size(self.paper)
        except ValueError as exc:
            raise BuildError(str(exc)) from None


@dataclass(frozen=True)
class BuildResult:
    entries: tuple[ManifestEntry, ...]
    warnings: tuple[str, ...]
    manifest: Path
    removed: tuple[str, ...] = ()  # earlier files of what this build wrote that it no longer writes
    # What it says of the files it removed as made before a file their deck may read was saved
    # again or as files of a spec that no longer exists, and of those it kept unchecked
    # (printkit.pipeline.build.removal_notes), and of the files in its decks' folders that are not
    # printkit's (printkit.pipeline.foreign.foreign_note), one line each.
    notes: tuple[str, ...] = ()


@dataclass
class BuildContext:
    """What a producer gets: the options, a safe writer, a warning sink and progress reporting."""

    options: BuildOptions
    progress: Callable[[int], None] = lambda n: None
    staging: Staging | None = None  # where write() puts files until the build commits them
    record: "UnfinishedRecord | None" = None  # the manifest's note of this build's id while it runs
    chosen: dict[int, set[str]] = field(default_factory=dict)  # --card: per deck (id()), the stems to write
    # What this build writes in full: (deck, variant, kind, paper) of every file it produces. Files
    # of earlier builds in these scopes that this build does not write are removed.
    covered: set[tuple] = field(default_factory=set)
    # Folders (relative, "/"-separated) that hold this build's files alone: an export's folders to
    # send. Earlier files of printkit's there that this build does not write are removed.
    sent: set[str] = field(default_factory=set)
    # Per deck whose rulebooks this build sets: the languages it has a rule text in. Its earlier
    # rulebooks in any other language (on any paper, booklets too) are of a text that is gone.
    rule_languages: dict[str, frozenset[str]] = field(default_factory=dict)
    cache: RenderCache | None = None
    # Where pure work runs (printkit.workers): here with one job. The build starts them with what
    # its producers will have them import (Producer.preload).
    workers: Workers | None = None
    # The output folder's files hashed so far, each read again only once it changes
    # (printkit.pipeline.manifest.hash_once): an export's folders to send, then every listed file.
    hashed: Hashed = field(default_factory=dict)
    # Work started before the producer that takes its result runs (a spec's rulebooks), by key.
    ahead: dict[tuple, Later] = field(default_factory=dict)
    _faces: dict[int, "Faces"] = field(default_factory=dict, repr=False)
    written: list["ManifestEntry"] = field(default_factory=list)  # this build's files so far, in order
    # Warnings in the order first seen, grouped by deck folder and text (without the card's label).
    warning_log: "WarningLog" = field(default_factory=lambda: WarningLog(), repr=False)

    def __post_init__(self) -> None:
        if self.staging is None:
            self.staging = Staging(self.options.out_dir, ownership.new_build_id())
        if self.cache is None:
            self.cache = RenderCache(self.options.out_dir, self.options.cache)
        if self.workers is None:
            self.workers = Workers(self.options.jobs, PRELOAD)

    def faces(self, deck: Deck) -> "Faces":
        """The deck's laid-out faces, shared by every producer so each card is laid out once."""
        if id(deck) not in self._faces:
            self._faces[id(deck)] = Faces(deck, self, draft=self.options.draft)
            for warning in templates.deck_warnings(deck):  # said of the deck's spec, once
                self.warn(deck, warning)
        return self._faces[id(deck)]

    def write(self, relative: str, data: bytes, *, kind: str, deck: Deck | None = None,
              paper: str | None = None, pages: int | None = None, cards: int | None = None,
              lang: str | None = None, back: str | None = None) -> ManifestEntry:
        """Stage ``data`` for ``OUT/relative`` (renamed into place when the build ends) and describe it."""
        self.staging.stage(relative, data)
        return self._entry(relative, sha256_hex(data), kind=kind, deck=deck, paper=paper, pages=pages,
                           cards=cards, lang=lang, back=back)

    def write_pdf(self, relative: str, pages: Sequence[Page], info: "PdfInfo", *, kind: str,
                  deck: Deck | None = None, paper: str | None = None, cards: int | None = None,
                  cmyk: "bool | Press" = False, keep_for: "SharedPages | None" = None,
                  reuse: "SharedPages | None" = None, cached: bool = True) -> ManifestEntry:
        """Render ``pages`` (as :meth:`render` does, the same bytes) straight into the staged file
        for ``OUT/relative`` and describe it: a large document (sheets of pictures) is never held
        in memory whole, and its sha256 is taken as it is written.

        From the render cache when it holds these pages; a fresh render of at most
        :data:`printkit.cache.MAX_ENTRY_BYTES` is kept there (unless ``cached`` is False).
        """
        from printkit.cache import MAX_ENTRY_BYTES
        from printkit.render import pdf

        key = self._render_key(pages, info, keep_for, cmyk) if cached else ""
        data = self.cache.found(key) if key else None
        if data is not None:
            return self.write(relative, data, kind=kind, deck=deck, paper=paper, pages=len(pages), cards=cards)
        out = self.staging.stage_stream(relative, lambda out: pdf.write_pages(
            pages, out, info=info, cmyk=cmyk, keep_for=keep_for, reuse=reuse))
        if key and out.size <= MAX_ENTRY_BYTES:  # read back from the file when the cache is stored
            self.cache.keep_read(key, out.read_back)
        return self._entry(relative, out.hexdigest(), kind=kind, deck=deck, paper=paper, pages=len(pages),
                           cards=cards)

    def _entry(self, relative: str, sha: str, *, kind: str, deck: Deck | None, paper: str | None,
               pages: int | None, cards: int | None, lang: str | None = None,
               back: str | None = None) -> ManifestEntry:
        entry = ManifestEntry(
            path=relative, kind=kind, sha256=sha,
            deck=deck.deck_id if deck else None, variant=deck.variant if deck else None,
            paper=paper, pages=pages, cards=cards, lang=lang, back=back, draft=self.options.draft or None,
        )
        self.written.append(entry)
        if not self.options.cards:  # a --card build writes some of a kind's files, never all
            self.covered.add(scope(entry))
        return entry

    def cover(self, deck: Deck | None, kind: str, paper: str | None = None) -> None:
        """Say that this build writes every file of ``kind`` for ``deck`` (and ``paper``), even when
        it writes none (a deck whose score sheet is gone): earlier files of it not written go."""
        if not self.options.cards:
            self.covered.add((deck.deck_id if deck else None, deck.variant if deck else None, kind, paper))

    def send_folder(self, folder: str) -> None:
        """Say that ``folder`` holds this build's files alone (an export's folder to send, every
        file of which the user sends): earlier files of printkit's there that it does not write go."""
        self.sent.add(folder.strip("/"))

    def render(self, pages: Sequence[Page], info: "PdfInfo", keep_for: "SharedPages | None" = None,
               reuse: "SharedPages | None" = None) -> bytes:
        """The PDF of ``pages`` saying ``info`` of itself (:func:`printkit.render.pdf.render_pages`,
        which also says what ``keep_for`` and ``reuse`` do), from the cache when these pages with
        these fonts and pictures were rendered before."""
        from printkit.render import pdf

        key = self._render_key(pages, info, keep_for)
        return self.cache.cached(key, lambda: pdf.render_pages(pages, info=info, keep_for=keep_for, reuse=reuse))

    def _render_key(self, pages: Sequence[Page], info: "PdfInfo", keep_for: "SharedPages | None",
                    cmyk: "bool | Press" = False) -> str:
        def description() -> Iterator[str]:
            yield f"{info!r}\n"
            yield from pages_description(pages)
            if keep_for is not None:  # a document keeping pages for another codes that one's text first
                yield f"\nseeded {keep_for.seed!r}"
            if cmyk:  # True (the default press) or a Press: its settings change the inks
                from printkit.render.cmyk import DEFAULT_PRESS

                yield f"\ncmyk {(DEFAULT_PRESS if cmyk is True else cmyk).key()}"

        return self.cache.key("pdf", description, lambda: face_files(pages))

    def png(self, pdf: bytes, size) -> Later:
        """The per-card PNG of the per-card PDF ``pdf``, to come (rasterised in a worker when
        there are workers), cached by the PDF's bytes."""
        from printkit.render.png import card_png

        key = self.cache.key("png", lambda: f"{sha256_hex(pdf)} {size!r}")
        return self.cache.cached_later(key, lambda: self.workers.later(PNG_MS, card_png, pdf, size))

    def write_all(self, planned: Iterable[tuple[str, "bytes | Later", dict]]) -> Iterator[ManifestEntry]:
        """:meth:`write` each of ``planned`` (path, bytes or bytes to come, write's keywords) in
        order, making up to ``workers.ahead`` of them before writing the first, so that workers
        have work while this process lays out and draws the next."""
        waiting: deque = deque()
        for item in planned:
            waiting.append(item)
            while len(waiting) > self.workers.ahead:
                yield self._write_planned(*waiting.popleft())
        while waiting:
            yield self._write_planned(*waiting.popleft())

    def _write_planned(self, relative: str, data: "bytes | Later", keywords: dict) -> ManifestEntry:
        return self.write(relative, data.result() if isinstance(data, Later) else data, **keywords)

    def warn(self, deck: Deck, message: str, card: Card | None = None) -> None:
        """Record a warning once; the same warning about many of a deck's cards is one line."""
        self.warning_log.add(message, card, deck_folder(deck))

    @property
    def warnings(self) -> list[str]:
        """Each warning as one line: ``deck: card field: problem (and N more distinct cards)``."""
        return self.warning_log.lines()
