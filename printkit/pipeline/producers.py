"""The producers: each writes one kind of a build's outputs, and says what it needs of the build.

A producer's function ``make(decks, ctx) -> Iterable[ManifestEntry]`` renders something and saves
each file with ``ctx.write(relative_path, data, deck=..., kind=..., ...)`` (or ``ctx.write_pdf``),
which stages it inside the output folder and returns the manifest entry to yield; layout warnings
go to ``ctx.warn``. What else it needs of the build is data on its :class:`Producer` record:
whether it runs in a ``--card`` build, whether it writes a file of no deck, whether its files of
an unchanged deck may be listed again, what work it has for the workers and what they import
for it, work to hand them early, whether the spec's rule texts are checked before anything is
drawn, and how many progress steps it reports. To add an output, make its :class:`Producer`
and add it to :data:`PRODUCERS`; nothing else changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Sequence

from printkit.deck import Card, Deck
from printkit.draft import MARK as DRAFT_MARK
from printkit.layout.draft import marked
from printkit.layout import templates
from printkit.layout.imposition import (
    Page,
    SheetLayout,
    alignment_pages,
    card_page,
    full_page,
    fits_in_slot,
    impose,
    packed_sheet_pages,
)
from printkit.layout.slug import FONT as SLUG_FONT, PRINT_AT, SheetSlugs, page_slug, sheet_name
from printkit.pipeline.context import BuildContext, BuildOptions
from printkit.pipeline.faces import Faces
from printkit.pipeline.manifest import ManifestEntry
from printkit.pipeline.names import all_cards, card_info, choose_cards, deck_folder, pdf_info, per_card_files
from printkit.workers import PNG_MS, RULEBOOKS_MS, RULEBOOKS_PRELOAD, THUMBNAIL_MS, Later

Make = Callable[[Sequence[Deck], BuildContext], Iterable[ManifestEntry]]


def _no_work(decks: Sequence[Deck], options: BuildOptions) -> float:
    return 0.0


def _no_imports(options: BuildOptions) -> tuple[str, ...]:
    return ()


def _no_rule_texts(options: BuildOptions) -> bool:
    return False


def _no_units(decks: Sequence[Deck], options: BuildOptions) -> int:
    return 0


@dataclass(frozen=True)
class Producer:
    """One kind of output of a build: the function that makes it and what it needs of the build."""

    name: str  # "sheets": tells producers apart in a deck's replay record
    make: Make
    what: str  # what it writes, as an error says it: "cannot write the card sheets: ..."
    per_card: bool = False  # writes per-card files: the only producers a ``--card`` build runs
    deckless: bool = False  # writes files of no deck (the alignment test): runs when no deck is built
    # Its files of a deck whose inputs are as they were may be listed again from the deck's record
    # (printkit.pipeline.replay) instead of being made again. False: the deck is always built.
    replay: bool = True
    # Roughly how much work (ms) it has for the workers with nothing cached, to start them early.
    work_ms: Callable[[Sequence[Deck], BuildOptions], float] = _no_work
    preload: Callable[[BuildOptions], tuple[str, ...]] = _no_imports  # what workers import for it
    start: Callable[[Sequence[Deck], BuildContext], None] | None = None  # work handed to workers first
    # Whether the preflight checks the specs' rule texts for it (their mistakes said before drawing).
    reads_rule_texts: Callable[[BuildOptions], bool] = _no_rule_texts
    # How many progress steps it reports (ctx.progress) for these decks: one per card it draws.
    units: Callable[[Sequence[Deck], BuildOptions], int] = _no_units

    def __call__(self, decks: Sequence[Deck], ctx: BuildContext) -> Iterable[ManifestEntry]:
        return self.make(decks, ctx)


def _sheets(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
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
ALIGNMENT_FONT = SLUG_FONT


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
    runs: list[tuple[SheetLayout, list[Page]]] = []  # per grid: its duplex pages (a front page, then its back)
    groups = _size_groups([c for c in all_cards(deck) if not templates.is_page(c)])
    placed = [0] * len(groups)  # per group: cards already on an earlier group's sheets
    for g, group in enumerate(groups):
        chunk = group[placed[g]:]
        if not chunk:
            continue
        size = chunk[0].size
        unfit = deck.paper_error(opts.paper, size.width_mm, size.height_mm)
        if unfit is not None:  # at the card's size in the spec, not in the imposition
            raise unfit
        layout = impose(paper, size, opts.gap_mm)
        fronts = [faces.front(c) for c in chunk]
        backs = [faces.back(c) for c in chunk]
        # The later, smaller cards that fit a slot fill the last sheet's free slots.
        later = [c for h in range(g + 1, len(groups)) for c in groups[h][placed[h]:]]
        fill = [(c.size, faces.front(c), faces.back(c)) for c in later if fits_in_slot(layout, c.size)]
        pages, taken = packed_sheet_pages(layout, fronts, backs, fill, opts.flip, opts.back_offset_mm)
        runs.append((layout, pages))
        for h in range(g + 1, len(groups)):  # the filled cards, group by group (a group is one size)
            if fits_in_slot(layout, groups[h][0].size):
                used = min(taken, len(groups[h]) - placed[h])
                placed[h] += used
                taken -= used
        progress(len(chunk))
    total = sum(len(pages) // 2 for _, pages in runs)
    parts = (deck.name, deck.variant or "")
    own = templates.name_fonts(deck)
    # A draft's slugs say so on both lines: its sheets are for looking at, not for print.
    above, prefix = (DRAFT_MARK, f"{DRAFT_MARK} · ") if opts.draft else (PRINT_AT, "")
    duplex: list[Page] = []
    fronts_only: list[Page] = []  # the duplex sheets' front pages themselves, slugs and all
    for layout, pages in runs:
        slugs = {side: SheetSlugs(paper, grid, SLUG_FONT, layout.margin_mm, above, own) for side, grid in
                 (("fronts", layout.slots), ("backs", layout.back_slots(opts.flip, opts.back_offset_mm)))}
        first = len(fronts_only) + 1  # this grid's first sheet
        for i, page in enumerate(pages):
            side = "backs" if i % 2 else "fronts"
            page = _with_ops(page, slugs[side](prefix + sheet_name(parts, first + i // 2, total, side)))
            duplex.append(page)
            if side == "fronts":
                fronts_only.append(page)
    return duplex, fronts_only


def _with_ops(page: Page, ops: tuple) -> Page:
    """``page`` with ``ops`` drawn after its own."""
    return replace(page, ops=page.ops + tuple(ops))


def _pages(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
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


def _alignment(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
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


def _cards(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
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


def _rulebooks(decks: Sequence[Deck], ctx: BuildContext) -> Iterator[ManifestEntry]:
    """One rulebook PDF per spec and language (see printkit.rulebook.producer)."""
    if not ctx.options.rulebooks or ctx.options.draft:  # a draft writes nothing to print but its marked sheets
        return iter(())  # and without importing the rulebook machinery (platypus) at all
    from printkit.rulebook.producer import produce_rulebooks as produce

    return produce(decks, ctx)


def _proof(decks: Sequence[Deck], ctx: BuildContext) -> Iterable[ManifestEntry]:
    """Per deck: ``proof.html`` and its thumbnails (see printkit.proof); last, to link the PDFs.

    A ``--card`` build writes no proof page: it is a look at one card, not at the deck."""
    if not ctx.options.proof or ctx.options.cards:
        return iter(())
    from printkit.proof import produce_proof as produce

    return produce(decks, ctx)


def _size_groups(cards: Sequence[Card]) -> list[list[Card]]:
    """The cards grouped by size, groups in the order their size first appears, cards in order."""
    groups: dict = {}
    for card in cards:
        groups.setdefault(card.size, []).append(card)
    return list(groups.values())


def _distinct_cards(decks: Sequence[Deck]) -> int:
    return sum(len({c.key for c in all_cards(d)}) for d in decks)


def _png_work(decks: Sequence[Deck], options: BuildOptions) -> float:
    if not (options.per_card or options.cards):
        return 0.0
    return PNG_MS * (_distinct_cards(decks) if not options.cards else len(options.cards))


def _thumbnail_work(decks: Sequence[Deck], options: BuildOptions) -> float:
    return THUMBNAIL_MS * _distinct_cards(decks) if options.proof and not options.cards else 0.0


def _rulebooks_work(decks: Sequence[Deck], options: BuildOptions) -> float:
    if not options.rulebooks or options.cards:
        return 0.0
    return RULEBOOKS_MS * len({str(d.spec_path) for d in decks}) * (1 + options.booklet)


def _start_rulebooks(decks: Sequence[Deck], ctx: BuildContext) -> None:
    if ctx.options.rulebooks:
        from printkit.rulebook.producer import start_rulebooks

        start_rulebooks(decks, ctx)  # the workers set them while this process lays out cards


def _rulebook_imports(options: BuildOptions) -> tuple[str, ...]:
    return RULEBOOKS_PRELOAD if options.rulebooks else ()


def _rulebook_texts(options: BuildOptions) -> bool:
    return options.rulebooks  # a draft writes no rulebooks but checks their texts all the same


def _cards_counted(decks: Sequence[Deck], pages: bool) -> int:
    return sum(1 for d in decks for c in all_cards(d) if templates.is_page(c) == pages)


def _sheet_units(decks: Sequence[Deck], options: BuildOptions) -> int:
    return 0 if options.cards else _cards_counted(decks, pages=False)


def _page_units(decks: Sequence[Deck], options: BuildOptions) -> int:
    return 0 if options.cards else _cards_counted(decks, pages=True)


def _card_units(decks: Sequence[Deck], options: BuildOptions) -> int:
    if options.cards:  # the copies of the chosen cards
        chosen = choose_cards(decks, options.cards)
        return sum(len(f.copies) for d in decks for f in per_card_files(d) if f.stem in chosen.get(id(d), set()))
    return _cards_counted(decks, pages=False) if options.per_card else 0


def _proof_units(decks: Sequence[Deck], options: BuildOptions) -> int:
    return sum(len(all_cards(d)) for d in decks) if options.proof and not options.cards else 0


produce_sheets = Producer("sheets", _sheets, "card sheets", units=_sheet_units)
produce_pages = Producer("pages", _pages, "full-page sheets", units=_page_units)
produce_alignment = Producer("alignment", _alignment, "alignment test", deckless=True)
produce_cards = Producer("cards", _cards, "per-card files", per_card=True, work_ms=_png_work, units=_card_units)
produce_rulebooks = Producer("rulebooks", _rulebooks, "rulebooks", work_ms=_rulebooks_work,
                             preload=_rulebook_imports, start=_start_rulebooks, reads_rule_texts=_rulebook_texts)
produce_proof = Producer("proof", _proof, "proof page", work_ms=_thumbnail_work, units=_proof_units)

# Every output of a build, in order. Add a producer here to add an output.
PRODUCERS: tuple[Producer, ...] = (
    produce_sheets,
    produce_pages,
    produce_alignment,
    produce_cards,
    produce_rulebooks,
    produce_proof,
)


def work_units(decks: Sequence[Deck], options: BuildOptions, producers: Sequence[Producer] = PRODUCERS) -> int:
    """How many progress steps a build of ``decks`` reports: its producers' (:attr:`Producer.units`)."""
    return sum(p.units(decks, options) for p in producers)
