"""The build pipeline: expanded decks in, print-ready files and ``manifest.json`` out.

:func:`build` runs every *producer* in :data:`PRODUCERS` over the decks. A producer is a function
``producer(decks, ctx) -> Iterable[ManifestEntry]`` that renders something and saves each file
with ``ctx.write(relative_path, data, deck=..., kind=..., ...)``, which writes atomically inside
the output folder and returns the manifest entry to yield. Layout warnings go to ``ctx.warn``.
To add an output (the rulebooks, for instance), write such a function and add it to
:data:`PRODUCERS`; nothing else changes.

Output layout (``OUT`` is ``--out``)::

    OUT/manifest.json                      every file of the build, with its sha256 (written last)
    OUT/alignment-a4.pdf                   the duplex alignment test (front and back page)
    OUT/calc/expert/sheets-a4.pdf          fronts and backs interleaved, for duplex printing
    OUT/calc/expert/sheets-fronts-a4.pdf   fronts only, for one-sided printing
    OUT/clag/score-sheet-a4.pdf            full-page components (Clag's score sheet), a page each
    OUT/emberfall/cards/001-cards-ember-drake.pdf|png   with --per-card: fronts (per_card_files) ...
    OUT/calc/expert/cards/back-1.pdf|png                       ... and each distinct back once
    OUT/calc/rulebook-ko-a4.pdf            a rulebook per deck and language (not with --no-rulebooks)
    OUT/calc/rulebook-ko-booklet-a4.pdf    with --booklet: A5 pages two-up, saddle-stitch order
    OUT/calc/expert/proof.html             every distinct face with its warnings (printkit.proof) ...
    OUT/calc/expert/proof/001-….png        ... and its thumbnails (not with --no-proof)

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
what a build writes in full (the same deck, variant, kind and paper, :func:`scope`) that the
build no longer writes, that still hold the bytes the manifest lists and whose ``written`` record
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
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter, deque
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from printkit import fonts, ownership, unchanged
from printkit.cache import RenderCache, face_files, pages_description
from printkit.render.svg import svg_form_store
from printkit.deck import Card, CardSize, Deck
from printkit.draft import MARK as DRAFT_MARK, marked
from printkit.errors import BuildError, Errors, PrintkitError
from printkit.layout import templates
from printkit.layout.geometry import Size, paper_size
from printkit.layout.imposition import (
    Flip,
    Page,
    SheetLayout,
    alignment_pages,
    card_page,
    full_page,
    fits_in_slot,
    impose,
    packed_sheet_pages,
)
from printkit.layout.ops import Face
from printkit.layout.slug import page_slug, sheet_name, sheet_slug
from printkit.ownership import Written
from printkit.pipeline.faces import Faces
from printkit.pipeline.manifest import ManifestEntry, WarningLog, scope
from printkit.pipeline.names import all_cards, choose_cards, deck_folder, per_card_files
from printkit.outputs import (
    BUILD_ID,
    Staging,
    canonical,
    current_sha256,
    deck_part,
    exclusive,
    inside,
    remove_outputs,
    remove_temporaries,
    sha256_hex,
)
from printkit.preflight import preflight
from printkit.workers import PNG_MS, PRELOAD, RULEBOOKS_MS, RULEBOOKS_PRELOAD, THUMBNAIL_MS, Later, Workers

if TYPE_CHECKING:
    from printkit.render.cmyk import Press
    from printkit.render.pdf import PdfInfo, SharedPages
    from printkit.unchanged import Invocation

MANIFEST = "manifest.json"


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


@dataclass
class BuildContext:
    """What a producer gets: the options, a safe writer, a warning sink and progress reporting."""

    options: BuildOptions
    progress: Callable[[int], None] = lambda n: None
    staging: Staging | None = None  # where write() puts files until the build commits them
    record: "_UnfinishedRecord | None" = None  # the manifest's note of this build's id while it runs
    chosen: dict[int, set[str]] = field(default_factory=dict)  # --card: per deck (id()), the stems to write
    # What this build writes in full: (deck, variant, kind, paper) of every file it produces. Files
    # of earlier builds in these scopes that this build does not write are removed.
    covered: set[tuple] = field(default_factory=set)
    cache: RenderCache | None = None
    workers: Workers | None = None  # where pure work runs (printkit.workers): here with one job
    # Work started before the producer that takes its result runs (a spec's rulebooks), by key.
    ahead: dict[tuple, Later] = field(default_factory=dict)
    _faces: dict[int, "Faces"] = field(default_factory=dict, repr=False)
    written: list["ManifestEntry"] = field(default_factory=list)  # this build's files so far, in order
    # Warnings in the order first seen, grouped by deck folder and text (without the card's label).
    _warnings: "WarningLog" = field(default_factory=lambda: WarningLog(), repr=False)

    def __post_init__(self) -> None:
        if self.staging is None:
            self.staging = Staging(self.options.out_dir, ownership.new_build_id())
        if self.cache is None:
            self.cache = RenderCache(self.options.out_dir, self.options.cache)
        if self.workers is None:
            books = self.options.rulebooks and not self.options.cards
            self.workers = Workers(self.options.jobs, PRELOAD + (RULEBOOKS_PRELOAD if books else ()))

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
        if key and out.size <= MAX_ENTRY_BYTES:  # read back from the file: never held while it is written
            data = out.read_back()
            if data is not None:
                self.cache.keep(key, data)
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
        self._warnings.add(message, card, deck_folder(deck))

    @property
    def warnings(self) -> list[str]:
        """Each warning as one line: ``deck: card field: problem (and N more distinct cards)``."""
        return self._warnings.lines()


def deck_title(deck: Deck) -> str:
    """``Calc (expert)`` or ``Clag``: how a deck is named in PDF titles."""
    return deck.name + (f" ({deck.variant})" if deck.variant else "")


def pdf_info(deck: Deck, what: str, subject: str, lang: str | None = None) -> "PdfInfo":
    """What a PDF of ``deck`` says about itself: ``Calc (expert): duplex sheets``, the spec's author."""
    from printkit.render.pdf import PdfInfo

    return PdfInfo(f"{deck_title(deck)}: {what}", deck.author, subject, lang)


def card_info(deck: Deck, card: Card, side: str) -> "PdfInfo":
    """What one card's PDF says of itself: ``Calc (expert): card 7+ front``."""
    name = templates.card_name(card, deck)
    return pdf_info(deck, f"card {name} {side}", f"One card's {side} with its bleed, for print services")


def card_pdf(deck: Deck, card: Card, face: Face, side: str, size: "CardSize | None" = None) -> bytes:
    """One card's ``side`` ("front" or "back") as a PDF whose page is its bleed box (TrimBox set).

    ``size`` overrides the card's size (an export's bleed); its title names the card.
    """
    from printkit.render.pdf import render_pages

    return render_pages([card_page(face, size or card.size)], info=card_info(deck, card, side))


# --- faces ------------------------------------------------------------------------------------


# --- producers --------------------------------------------------------------------------------


def produce_sheets(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
    """Per deck: ``sheets-<paper>.pdf`` (duplex, backs interleaved) and ``sheets-fronts-<paper>.pdf``
    (:func:`deck_sheets`). Full-page components (score sheets) are not cards: :func:`produce_pages`
    writes them.
    """
    opts = ctx.options
    for deck in decks:
        duplex, fronts_only = deck_sheets(deck, ctx.faces(deck), opts, ctx.progress)
        count = sum(1 for c in all_cards(deck) if not templates.is_page(c))
        ctx.cover(deck, "sheets", opts.paper)
        ctx.cover(deck, "sheets-fronts", opts.paper)
        if not fronts_only:
            continue
        folder = deck_folder(deck)
        from printkit.render.pdf import SharedPages

        shared = SharedPages(fronts_only)  # the front pages are drawn once, for both files
        yield ctx.write_pdf(f"{folder}/sheets-{opts.paper}.pdf", duplex,
                            pdf_info(deck, "duplex sheets", "Card sheets: fronts and backs, for double-sided printing"),
                            keep_for=shared, kind="sheets", deck=deck, paper=opts.paper, cards=count)
        yield ctx.write_pdf(f"{folder}/sheets-fronts-{opts.paper}.pdf", fronts_only,
                            pdf_info(deck, "fronts", "Card sheets: fronts only, for one-sided printing"),
                            reuse=shared, kind="sheets-fronts", deck=deck, paper=opts.paper, cards=count)
        del shared


# The house text face, which the cards' text has loaded already (a build parses no other font
# for the sheets' slugs and the test page, plain English).
ALIGNMENT_FONT = SLUG_FONT = fonts.KOREAN


def deck_sheets(deck: Deck, faces: "Faces", opts: BuildOptions,
                progress: Callable[[int], None] = lambda n: None) -> tuple[list[Page], list[Page]]:
    """The deck's duplex pages (each sheet's fronts, then its backs) and its fronts-only pages.

    Cards of one size share sheets whatever their place in the spec (the deck's cards, then
    each component of that size): paper is precious at home. Smaller cards (tokens) first fill
    the free slots of the last sheet of a larger size, as many to a slot as fit with marks of
    their own, then start sheets of their own grid. Each back page holds every back behind its
    own front. Every page carries its slug (:mod:`printkit.layout.slug`): print at actual size,
    and which sheet of the deck it is.
    """
    paper = opts.paper_size
    runs: list[tuple[SheetLayout, list[Page], list[Page]]] = []  # per grid: its duplex and fronts-only pages
    groups = _size_groups([c for c in all_cards(deck) if not templates.is_page(c)])
    placed = [0] * len(groups)  # per group: cards already on an earlier group's sheets
    for g, group in enumerate(groups):
        chunk = group[placed[g]:]
        if not chunk:
            continue
        layout = impose(paper, chunk[0].size, opts.gap_mm)
        fronts = [faces.front(c) for c in chunk]
        backs = [faces.back(c) for c in chunk]
        # The later, smaller cards that fit a slot fill the last sheet's free slots.
        later = [c for h in range(g + 1, len(groups)) for c in groups[h][placed[h]:]]
        fill = [(c.size, faces.front(c), faces.back(c)) for c in later if fits_in_slot(layout, c.size)]
        pages, taken = packed_sheet_pages(layout, fronts, backs, fill, opts.flip, opts.back_offset_mm)
        single = packed_sheet_pages(layout, fronts, None, [(z, f, None) for z, f, _ in fill[:taken]])[0]
        runs.append((layout, pages, single))
        for h in range(g + 1, len(groups)):  # the filled cards, group by group (a group is one size)
            if fits_in_slot(layout, groups[h][0].size):
                used = min(taken, len(groups[h]) - placed[h])
                placed[h] += used
                taken -= used
        progress(len(chunk))
    total = sum(len(single) for _, _, single in runs)
    parts = (deck.name, deck.variant or "")
    duplex: list[Page] = []
    fronts_only: list[Page] = []
    for layout, pages, single in runs:
        grids = {"fronts": layout.slots, "backs": layout.back_slots(opts.flip, opts.back_offset_mm)}

        def slug(number: int, side: str) -> tuple:
            name = sheet_name(parts, number, total, side)
            own = tuple(f for f in (deck.art.font, deck.art.font_bold) if f is not None)  # the deck's name in any script
            if opts.draft:  # both lines say so: a draft's sheets are for looking at, not for print
                return sheet_slug(paper, grids[side], f"{DRAFT_MARK} · {name}", SLUG_FONT, layout.margin_mm,
                                  above_text=DRAFT_MARK, fallbacks=own)
            return sheet_slug(paper, grids[side], name, SLUG_FONT, layout.margin_mm, fallbacks=own)

        first = len(fronts_only) + 1  # this grid's first sheet
        fronts_only += [_with_ops(page, slug(first + i, "fronts")) for i, page in enumerate(single)]
        duplex += [_with_ops(page, slug(first + i // 2, "backs" if i % 2 else "fronts"))
                   for i, page in enumerate(pages)]
    return duplex, fronts_only


def _with_ops(page: Page, ops: tuple) -> Page:
    """``page`` with ``ops`` drawn after its own."""
    return replace(page, ops=page.ops + tuple(ops))


def produce_pages(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
    """Per deck and kind of full-page component: ``<sheet>-sheet-<paper>.pdf``, a page per card.

    Clag's score sheet (``sheet: score``, in English and Korean) becomes ``score-sheet-a4.pdf``
    with two pages. Pages are printed one-sided, so no backs.
    """
    opts = ctx.options
    paper = opts.paper_size
    for deck in decks:
        ctx.cover(deck, "page", opts.paper)
        by_sheet: dict[str, list[Card]] = {}
        for card in all_cards(deck):
            if templates.is_page(card):
                by_sheet.setdefault(str(card.get("sheet")), []).append(card)
        if not by_sheet:
            continue
        faces = ctx.faces(deck)
        for sheet, cards in by_sheet.items():
            pages = [full_page(faces.page(card, paper), paper) for card in cards]
            if opts.draft:
                pages = [marked(p) for p in pages]
            ctx.progress(len(cards))
            name = re.sub(r"[^a-z0-9]+", "-", sheet.lower()).strip("-") or "page"
            yield ctx.write_pdf(f"{deck_folder(deck)}/{name}-sheet-{opts.paper}.pdf", pages,
                                pdf_info(deck, f"{sheet} sheet", "Full-page sheets, one-sided"),
                                kind="page", deck=deck, paper=opts.paper, cards=len(cards))


def alignment_sheet(opts: BuildOptions) -> list[Page]:
    """The alignment test's two pages, each with its slug (print at actual size, which page)."""
    pages = alignment_pages(opts.paper_size, ALIGNMENT_FONT, opts.flip, opts.back_offset_mm)
    return [_with_ops(page, page_slug(opts.paper_size, sheet_name(
        ("duplex alignment test", opts.paper.capitalize()), 1, 1, side), ALIGNMENT_FONT))
        for page, side in zip(pages, ("front", "back"))]


def produce_alignment(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
    """``alignment-<paper>.pdf``: the duplex alignment test for the chosen flip and back offset."""
    opts = ctx.options
    said = ("printkit duplex alignment test", "", "Print double-sided to measure how far the backs are off")

    def render() -> bytes:
        from printkit.render.pdf import PdfInfo, render_pages

        return render_pages(alignment_sheet(opts), info=PdfInfo(*said))

    # Keyed by what the pages are made from, so a rebuild finds it without laying them out.
    key = ctx.cache.key("alignment", lambda: repr((said, opts.paper_size, opts.flip, opts.back_offset_mm)),
                        lambda: [ALIGNMENT_FONT])
    data = ctx.cache.cached(key, render)
    yield ctx.write(f"alignment-{opts.paper}.pdf", data, kind="alignment", paper=opts.paper, pages=2)


def produce_cards(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
    """With ``--per-card``: a front PDF (bleed-sized page) and PNG per distinct card, a back of each kind.

    Each PNG is its PDF's bytes rasterised (PDFium, 300 DPI, the bleed box edge to edge). File
    names come from :func:`per_card_files`.

    Each front's manifest entry names its back (``back``): ``back-N.pdf`` for the PDF front,
    ``back-N.png`` for the PNG front, one pair per distinct back. Full-page components get one
    paper-sized PDF each (no back).

    With ``--card`` only the chosen cards are written (with their backs): a partial build of the
    per-card files, which leaves the deck's other per-card files in place. Backs are numbered
    over the whole deck all the same, so ``back-N`` names the same back either way.
    """
    if ctx.options.per_card or ctx.options.cards:
        yield from ctx.write_all(_card_files(decks, ctx))


def _card_files(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[tuple[str, "bytes | Later", dict]]:
    """What :func:`produce_cards` writes, in order: (path, bytes or the PNG to come, write's keywords)."""
    options = ctx.options
    for deck in decks:
        chosen = ctx.chosen.get(id(deck)) if options.cards else None
        if options.cards and not chosen:
            continue
        if not options.cards:
            for kind in ("card-pdf", "card-png", "card-back-pdf", "card-back-png"):
                ctx.cover(deck, kind)
            ctx.cover(deck, "page-pdf", options.paper)
        faces = ctx.faces(deck)
        folder = f"{deck_folder(deck)}/cards"
        # Backs are told apart by what they print (ops and size), not by their warnings: a back
        # label too long for its band warns on every card, naming each, yet prints the same.
        backs: dict[tuple[tuple, object], str] = {}  # back ops and card size -> "folder/back-N"
        written_backs: set[str] = set()
        for file in per_card_files(deck):
            card, copies, stem = file.card, file.copies, file.stem
            if templates.is_page(card):
                continue  # score sheets are no cards: produce_pages writes them
            wanted = chosen is None or file.stem in chosen
            back = faces.back(card)
            back_key = (back.ops, card.size)
            if back_key not in backs:
                backs[back_key] = f"{folder}/back-{len(backs) + 1}"
            back_stem = backs[back_key]
            if not wanted:
                continue
            if back_stem not in written_backs:
                written_backs.add(back_stem)
                # Titled by deck and number, not by a card: the same bytes whichever cards this
                # build writes and however the cards' texts change.
                back_info = pdf_info(deck, back_stem.rsplit("/", 1)[1], "A card back with its bleed, for print services")
                back_pdf = ctx.render([card_page(back, card.size)], back_info)
                yield f"{back_stem}.pdf", back_pdf, dict(kind="card-back-pdf", deck=deck, pages=1)
                # The PNG is that very PDF rasterised: the two cannot disagree.
                yield f"{back_stem}.png", ctx.png(back_pdf, card.size), dict(kind="card-back-png", deck=deck)
            pdf = ctx.render([card_page(faces.front(card), card.size)], card_info(deck, card, "front"))
            yield f"{stem}.pdf", pdf, dict(kind="card-pdf", deck=deck, pages=1, cards=len(copies),
                                           back=f"{back_stem}.pdf")
            yield f"{stem}.png", ctx.png(pdf, card.size), dict(kind="card-png", deck=deck, cards=len(copies),
                                                               back=f"{back_stem}.png")
            ctx.progress(len(copies))


def produce_rulebooks(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
    """One rulebook PDF per spec and language (see printkit.rulebook.producer)."""
    if not ctx.options.rulebooks or ctx.options.draft:  # a draft writes nothing to print but its marked sheets
        return iter(())  # and without importing the rulebook machinery (platypus) at all
    from printkit.rulebook.producer import produce_rulebooks as produce

    return produce(decks, ctx)


def produce_proof(decks: Sequence[Deck], ctx: BuildContext) -> Iterable[ManifestEntry]:
    """Per deck: ``proof.html`` and its thumbnails (see printkit.proof); last, to link the PDFs.

    A ``--card`` build writes no proof page: it is a look at one card, not at the deck."""
    if not ctx.options.proof or ctx.options.cards:
        return iter(())
    from printkit.proof import produce_proof as produce

    return produce(decks, ctx)


# Every output of a build, in order. Add a producer here to add an output.
PRODUCERS: tuple[Callable[[Sequence[Deck], BuildContext], Iterable[ManifestEntry]], ...] = (
    produce_sheets,
    produce_pages,
    produce_alignment,
    produce_cards,
    produce_rulebooks,
    produce_proof,
)


def _size_groups(cards: Sequence[Card]) -> list[list[Card]]:
    """The cards grouped by size, groups in the order their size first appears, cards in order."""
    groups: dict = {}
    for card in cards:
        groups.setdefault(card.size, []).append(card)
    return list(groups.values())


def load_decks(names: Sequence[str], variant: str | None = None) -> list[Deck]:
    """The decks to build: each named spec (all specs when none) in every variant, or in ``variant``.

    Without names, ``variant`` picks the specs that have it; a named spec without it is an error.
    Without names the specs are those of :func:`printkit.spec.default_spec_paths`.
    """
    import dataclasses
    import time

    from printkit.spec.options import check_engine_options
    from printkit.locate import spec_paths
    from printkit.spec import expand, expand_all, load_spec, variant_names

    decks: list[Deck] = []
    errors = Errors()  # each spec's mistakes, said together
    for path in spec_paths(names):
        read_at = time.time_ns()  # before the spec is read: see printkit.unchanged.record_key
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


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:  # a loop of links: left for load_spec to report
        return path


def check_deck_folders(decks: Sequence[Deck]) -> None:
    """Refuse two specs whose decks would share an output folder (``my deck`` and ``my-deck``).

    Folders are compared ignoring case, as macOS and Windows do. The error names both specs.
    """
    owners: dict[str, tuple[Path, str]] = {}  # folder, casefolded -> first spec and its folder
    for deck in decks:
        folder = deck_part(deck.deck_id)
        spec = _resolved(Path(deck.spec_path))
        other, other_folder = owners.setdefault(folder.casefold(), (spec, folder))
        if other != spec:
            same = "" if folder == other_folder else f" (and {folder!r}, the same folder where case is ignored)"
            raise BuildError(f"specs {str(other)!r} and {str(spec)!r} would both write to the output "
                             f"folder {other_folder!r}{same}; rename one of them")


def expected_work_ms(decks: Sequence[Deck], options: BuildOptions,
                     producers: Sequence[Callable] = PRODUCERS) -> float:
    """Roughly how much work (ms) a build of ``decks`` has for workers if nothing is cached."""
    distinct = [len({c.key for c in all_cards(d)}) for d in decks]
    work = 0.0
    if produce_cards in producers and (options.per_card or options.cards):
        work += PNG_MS * (sum(distinct) if not options.cards else len(options.cards))
    if produce_proof in producers and options.proof and not options.cards:
        work += THUMBNAIL_MS * sum(distinct)
    if produce_rulebooks in producers and options.rulebooks and not options.cards:
        work += RULEBOOKS_MS * len({str(d.spec_path) for d in decks}) * (1 + options.booklet)
    return work


def build(decks: Sequence[Deck], options: BuildOptions,
          progress: Callable[[int], None] | None = None,
          producers: Sequence[Callable[[Sequence[Deck], BuildContext], Iterable[ManifestEntry]]] = PRODUCERS,
          command: "Invocation | None" = None) -> BuildResult:
    """Render ``decks`` into ``options.out_dir`` and write the manifest last.

    The manifest lists this build's files plus those of earlier builds into the same folder that
    are still there unchanged (so building one deck keeps the others listed). A second build into
    the folder while this one runs is refused (:func:`printkit.outputs.exclusive`). ``command``:
    the ``printkit build`` command these decks were read for, whose result is then kept for the
    same command to list again (:func:`printkit.unchanged.listed_again`).
    """
    if not decks:
        raise BuildError("nothing to build: no decks given")
    options.paper_size  # fail early on an unknown paper
    options.check_draft()
    _check_out_dir(options.out_dir)
    check_deck_folders(decks)
    ctx = BuildContext(options, progress or (lambda n: None))
    if options.cards:  # one card's files: no sheets, no rulebooks; an unknown card fails here
        ctx.chosen = choose_cards(decks, options.cards)
        producers = [p for p in producers if p is produce_cards]
    try:
        ctx.staging.make_folder(options.out_dir)
    except BaseException:
        ctx.staging.abort()  # the parents it did make
        raise
    with exclusive(options.out_dir):  # when refused, the folder is the other build's to keep
        ctx.record = _UnfinishedRecord(options.out_dir, ctx.staging.build_id)
        ctx.staging.before_first_write = ctx.record.write
        kept_forms = svg_form_store.set(_SvgForms(ctx.cache))
        try:
            return _build_locked(decks, ctx, producers, command)
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


def _build_locked(decks: Sequence[Deck], ctx: BuildContext,
                  producers: Sequence[Callable[[Sequence[Deck], BuildContext], Iterable[ManifestEntry]]],
                  command: "Invocation | None" = None) -> BuildResult:
    options = ctx.options
    # A manifest.json printkit did not write is refused before rendering; one that records killed
    # builds lets their temporaries go (this build holds the folder, so no other is writing them).
    remove_temporaries(options.out_dir, _unfinished_builds(options.out_dir) + _recording_builds(options.out_dir),
                       ownership.signed)
    entries: list[ManifestEntry] = []
    fresh, keys = list(decks), {}
    hashed: dict[Path, tuple[tuple, str | None]] = {}  # output file -> (size and times, sha256)
    if producers is PRODUCERS:  # a deck whose inputs are as they were is listed again, not built
        fresh, entries, keys = unchanged.replay(
            ctx, decks, _earlier_entries(options.out_dir, _previous_files(options.out_dir), hashed))
    if fresh and not options.cards:  # everything that would refuse the build, said at once
        # A draft writes no rulebooks but checks their texts all the same, unless --no-rulebooks.
        preflight(fresh, ctx.faces, options.paper_size, rulebooks=options.rulebooks and produce_rulebooks in producers)
    if ctx.workers.jobs > 1 and fresh:
        ctx.workers.warm(expected_work_ms(fresh, options, producers))
        if produce_rulebooks in producers and options.rulebooks:
            from printkit.rulebook.producer import start_rulebooks

            start_rulebooks(fresh, ctx)  # the workers set them while this process lays out cards
    for producer in producers:
        if fresh or producer is produce_alignment:  # the alignment test belongs to no deck
            entries.extend(_produced(producer, fresh, ctx))
    unchanged.remember(ctx, fresh, keys)
    paths = Counter(e.path for e in entries)
    duplicates = sorted(p for p, n in paths.items() if n > 1)
    if duplicates:
        raise BuildError(f"two outputs of this build share a path: {', '.join(duplicates)}")
    previous = _previous_files(options.out_dir)  # read again: files may have changed meanwhile
    earlier = _earlier_entries(options.out_dir, previous, hashed)
    ctx.staging.check_replaceable(_written(options.out_dir, previous))
    changing = {target for _, target in ctx.staging.staged}
    # printkit's own files of what this build writes in full that it no longer writes: an edited
    # card's file under an old name, a card taken out of the deck. Files of other decks, variants,
    # kinds or papers stay, as does anything not listed or changed since (not in ``earlier``).
    stale = [e for e in earlier if e.path not in paths and scope(e) in ctx.covered]
    going = {e.path for e in stale}
    root = options.out_dir.resolve()
    placed = {e.path: inside(options.out_dir, e.path, root) for e in [*earlier, *entries]}
    # Each file this build puts in place, recorded as its temporary is: a rename keeps the
    # device, inode, size and modification time, so the record holds for the file in place.
    temporaries = {target: temp for temp, target in ctx.staging.staged}
    records = {e.path: ownership.record(e.path, e.sha256, temporaries[placed[e.path]])
               for e in entries if placed[e.path] in temporaries}
    entries = _recorded(options.out_dir, entries, earlier, records)
    if changing or stale:
        # While files are swapped the manifest vouches for none of them, yet names both
        # versions of each (a file to be removed: its old version only), so a build stopped
        # midway leaves printkit's files known as its own.
        old = {e.path: e for e in earlier}
        _write_manifest(options.out_dir,
                        [e for e in earlier if placed[e.path] not in changing and e.path not in going],
                        [(old.get(e.path), e) for e in entries if placed[e.path] in changing]
                        + [(e, None) for e in stale],
                        unfinished=[ctx.staging.build_id])
        ctx.record.written = False  # the manifest just written is the truth now, whatever follows
    ctx.staging.commit()
    proofs = {(e.path, e.sha256): e.written for e in stale}

    def proven(relative: str, sha: str, path: Path) -> bool:
        return ownership.proven(relative, sha, proofs.get((relative, sha)), path)

    removed = remove_outputs(options.out_dir, [(e.path, e.sha256) for e in stale], proven)
    # A stale file that could not go (changed or locked meanwhile, or not proven printkit's)
    # stays listed while it matches.
    kept = [e for e in earlier if e.path not in paths and e.path not in removed
            and (e.path not in going or current_sha256(inside(options.out_dir, e.path)) == e.sha256)]
    kept = _recorded(options.out_dir, kept, earlier, {})
    manifest = _manifest_data(_manifest(entries + kept))
    if command is not None and producers is PRODUCERS and not options.cards:
        unchanged.remember_invocation(ctx, command, decks, keys, manifest)
    # Under this build's id, recorded first if nothing has recorded it yet, so that a kill while
    # the manifest's own temporary exists leaves one the next build may remove.
    recorded = ctx.staging._announced or bool(changing or stale)
    if ctx.cache.pending and not recorded:  # nothing renamed: the record can still be withdrawn
        ctx.record.write()
        recorded = True
    ctx.cache.flush(ctx.staging.build_id)
    target = _write_manifest_data(options.out_dir, manifest, build_id=ctx.staging.build_id,
                                  before_first_write=None if recorded else ctx.record.write)
    return BuildResult(tuple(entries), tuple(ctx.warnings), target, tuple(sorted(removed)))


class _SvgForms:
    """SVG forms kept in the render cache between builds (see printkit.render.svg.svg_form_store)."""

    def __init__(self, cache: RenderCache) -> None:
        self.cache = cache

    def get(self, name: str) -> bytes | None:
        key = self.cache.key("svg-form", lambda: name)
        return (self.cache.pending.get(key) or self.cache.get(key)) if key else None

    def put(self, name: str, data: bytes) -> None:
        key = self.cache.key("svg-form", lambda: name)
        if key:
            self.cache.pending[key] = data


_OUTPUT_NAMES = {"sheets": "card sheets", "pages": "full-page sheets", "alignment": "alignment test",
                 "cards": "per-card files", "rulebooks": "rulebooks", "proof": "proof page"}


def _produced(producer: Callable[[Sequence[Deck], BuildContext], Iterable[ManifestEntry]],
              decks: Sequence[Deck], ctx: BuildContext) -> list[ManifestEntry]:
    """Run one producer; an unexpected failure in a backend (a library's own error) becomes one
    BuildError naming what was being written, so it reads like every other build error."""
    try:
        return list(producer(decks, ctx))
    except PrintkitError:
        raise
    except Exception as exc:
        name = producer.__name__.removeprefix("produce_")
        what = _OUTPUT_NAMES.get(name, name.replace("_", " "))
        raise BuildError(f"cannot write the {what}: {type(exc).__name__}: {exc}") from exc


def _recorded(out_dir: Path, entries: Sequence[ManifestEntry], earlier: Sequence[ManifestEntry],
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


def _check_out_dir(out_dir: Path) -> None:
    """Refuse an output folder that is a file (or a link to one) before anything is rendered."""
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"output folder {str(out_dir)!r} is not a folder")


def _write_manifest(out_dir: Path, entries: Sequence[ManifestEntry],
                    replacing: Sequence[tuple[ManifestEntry | None, ManifestEntry | None]] = (),
                    unfinished: Sequence[str] = (), build_id: str | None = None,
                    before_first_write: Callable[[], None] | None = None) -> Path:
    """Write ``manifest.json`` atomically (temporary, fsync, rename) listing ``entries`` by path.

    ``replacing`` (only while a build renames and removes its files) pairs each file about to
    change with the entry it replaces (None for a first write), and each file about to be removed
    with None. ``unfinished`` names the builds whose
    temporaries may lie in the folder (the one running, until its files are in place).
    """
    manifest = _manifest(entries)
    if replacing:
        manifest["replacing"] = [{"old": _manifest_item(old) if old else None,
                                  "new": _manifest_item(new) if new else None}
                                 for old, new in sorted(replacing, key=lambda pair: (pair[1] or pair[0]).path)]
    if unfinished:
        manifest["unfinished"] = list(unfinished)
    return _write_manifest_data(out_dir, _manifest_data(manifest), unfinished[0] if unfinished else build_id,
                                before_first_write)


def _manifest(entries: Sequence[ManifestEntry]) -> dict:
    """A manifest listing ``entries`` by path."""
    return {"files": [_manifest_item(e) for e in sorted(entries, key=lambda e: e.path)]}


def _manifest_data(manifest: dict) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")


def _write_manifest_data(out_dir: Path, data: bytes, build_id: str | None = None,
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


class _UnfinishedRecord:
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
            _previous_files(self.out_dir)  # refuses a manifest that is not printkit's
            try:
                self.before = path.read_bytes()  # within the limit: _previous_files read it
                manifest = json.loads(self.before)
            except (OSError, ValueError) as exc:
                raise BuildError(f"cannot read {str(path)!r}: {exc}") from None
        manifest["unfinished"] = [self.build_id]
        # Marked first: an interrupt that lands while the manifest is being replaced (after its
        # rename, before this method returns) must still find the record to withdraw.
        self.written = True
        _write_manifest_data(self.out_dir, _manifest_data(manifest), self.build_id)

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


def _unfinished_builds(out_dir: Path) -> list[str]:
    """The ids of builds the manifest records as unfinished (validating the manifest as it goes)."""
    _previous_files(out_dir)
    path = out_dir / MANIFEST
    if not os.path.lexists(path):
        return []
    try:
        ids = _load_json_limited(path).get("unfinished", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [i for i in ids if isinstance(i, str) and BUILD_ID.match(i)] if isinstance(ids, list) else []


def _recording_builds(out_dir: Path) -> list[str]:
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
    """An entry as listed in the manifest; ``lang``, ``back`` and ``draft`` appear only on files
    that have one."""
    item = asdict(entry)
    for optional in ("lang", "back", "draft", "written"):
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


def _previous_files(out_dir: Path) -> dict[str, list[ManifestEntry]]:
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


def _manifest_entry(item: dict) -> ManifestEntry:
    item = dict(item)
    written = item.pop("written", None)
    entry = ManifestEntry(**item, written=_written_record(written))
    if not isinstance(entry.path, str) or not isinstance(entry.sha256, str):
        raise TypeError("path and sha256 must be strings")
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


def _written(out_dir: Path, previous: dict[str, list[ManifestEntry]]) -> dict[Path, frozenset[str]]:
    """Each file printkit wrote (resolved, as staged) with the hashes it may hold."""
    written = {}
    root = out_dir.resolve()
    for relative, entries in previous.items():
        try:
            written[inside(out_dir, relative, root)] = frozenset(e.sha256 for e in entries)
        except BuildError:
            continue  # a path printkit would never write: owns nothing
    return written


def _earlier_entries(out_dir: Path, previous: dict[str, list[ManifestEntry]],
                     hashed: dict[Path, tuple[tuple, str | None]] | None = None) -> list[ManifestEntry]:
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
        sha = _hash_once(path, hashed) if hashed is not None else current_sha256(path)
        kept += [e for e in entries if e.sha256 == sha][:1]
    return kept


def _hash_once(path: Path, hashed: dict[Path, tuple[tuple, str | None]]) -> str | None:
    try:
        stat = os.lstat(path)
        signature = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_mode)
    except OSError:
        return None
    known = hashed.get(path)
    if known is not None and known[0] == signature:
        return known[1]
    sha = current_sha256(path)
    hashed[path] = (signature, sha)
    return sha
