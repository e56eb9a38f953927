"""Print-service exports: one image per card face (``kind: images``) or one PDF per deck (``kind: pdf``).

A face is laid out with the service's bleed and drawn once as a per-card PDF (its page the bleed
box, TrimBox and BleedBox set); an image is that PDF rasterised with PDFium at the profile's
pixel size, tagged sRGB. Copies, backs and full-page components follow the profile.

Files to upload go into folders that hold nothing else (``README.txt``, ``manifest.json`` and the
render cache stay beside them): for an images service one folder per deck to order, that is per
run and distinct back, since such a deck has one back; for a PDF service one ``upload/`` folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from printkit.deck import Card, CardSize, Deck
from printkit.export import README, ExportOptions, Run, file_slug, press_for, readme_text, warned_of
from printkit.export.folders import take_folders
from printkit.export.profiles import Profile, size_name
from printkit.layout import templates
from printkit.layout.geometry import Box, Size
from printkit.layout.imposition import Page, Placement, card_page, full_page
from printkit.layout.ops import Face, Image, Line
from printkit.pipeline.manifest import EXPORT_README
from printkit.plural import counted

# Crop marks for the print-shop PDF: a slug this wide around the bleed holds them.
SLUG_MM = 6.0
MARK_OFFSET_MM = 0.5  # marks stop this far outside the bleed
MARK_WIDTH_MM = 0.2
# The folder of a PDF service's files (an images service has a folder per deck instead).
UPLOAD = "upload"


@dataclass(frozen=True)
class OrderDeck:
    """One deck to order from an images service: a run's cards that share one back, in a folder."""

    folder: str
    run: Run
    groups: tuple[tuple[Card, ...], ...]  # the copies of each distinct card

    @property
    def cards(self) -> int:
        return sum(len(copies) for copies in self.groups)


def produce_service(deck: Deck, prof: Profile, runs: Sequence[Run], pages: Sequence[Card],
                    options: ExportOptions, ctx) -> Iterator:
    from printkit.pipeline.names import deck_title, pdf_info
    from printkit.pipeline.names import card_key

    faces = ctx.faces(deck)
    files: list[tuple[str, str]] = []
    left_out: list[str] = []
    notes: list[str] = []
    included = []
    for run in runs:
        if run.size is None:
            sizes = size_name(run.cards[0].size)
            left_out.append(f"{run.title} ({counted(len(run.cards), 'card')}, {sizes}): {prof.name} offers no such "
                            f"size ({prof.offered()}).")
            continue
        distinct: dict[str, list[Card]] = {}
        for card in run.cards:
            distinct.setdefault(card_key(card), []).append(card)  # at the service's bleed (at_service_bleed)
        included.append((run, list(distinct.values())))

    if prof.kind == "images":
        decks = order_decks(included, faces)
        take_folders(ctx, [order.folder for order in decks])
        yield from _images(deck, prof, decks, faces, ctx, files)
        notes += _order_lines(prof, decks)
    else:
        take_folders(ctx, [UPLOAD])
        yield from _pdfs(deck, prof, included, faces, options, ctx, files)
        if prof.rulebook and options.rulebooks and press_for(prof, options) is not None:
            left_out.append("The rulebooks: printkit sets them in sRGB only, and this export is CMYK. Send the "
                            "rulebook PDFs of `printkit build` (or export again without --cmyk) and ask the shop "
                            "to convert them.")
        elif prof.rulebook and options.rulebooks:
            yield from _rulebooks(deck, ctx, files, left_out)

    if pages:
        if prof.pages == "separate-pdf":
            paper = ctx.options.paper_size
            by_sheet = [full_page(faces.page(card, paper), paper) for card in pages]
            path = f"{UPLOAD}/pages-{ctx.options.paper}.pdf"
            yield ctx.write_pdf(path, by_sheet, pdf_info(deck, "full-page sheets", "Full-page sheets, one-sided"),
                                cmyk=press_for(prof, options) or False, cached=False, kind="export-pages", deck=deck,
                                paper=ctx.options.paper)
            files.append((path, f"{counted(len(by_sheet), 'full-page sheet')} ({ctx.options.paper.upper()}), "
                                "one-sided: one copy per game"))
        else:
            left_out.append(f"{counted(len(pages), 'full-page sheet')} (score sheets and the "
                            f"like): not cards, so not for {prof.name}; print them from `printkit build`.")
    for line in soft_pictures(prof, included, faces):
        ctx.warn(deck, line)
    bleeds = sorted({f"{run.size.bleed_mm:g} mm" for run, _ in included})
    notes.append(f"Every card carries {', '.join(bleeds)} of bleed on each side beyond its trim; keep text "
                 "3 mm inside the trim.")
    notes.append(_colour_note(prof, options))
    if not prof.verified:
        notes.append("Some numbers of this profile were not found in the service's published pages (see "
                     "'Before you order').")
    total = sum(len(copies) for _, groups in included for copies in groups)
    notes.append(f"{counted(total, 'card')} in all ({deck_title(deck)}).")
    yield ctx.write(README, readme_text(deck, prof, notes, files, left_out, warned_of(deck, ctx)),
                    kind=EXPORT_README, deck=deck)


def soft_pictures(prof: Profile, included, faces) -> list[str]:
    """What to warn of each PNG or JPEG on the cards exported that prints below the profile's own
    ``dpi`` (where it states one) but not below :data:`~printkit.layout.resolution.LOW_DPI` (the
    face's own warning says those), once per picture and drawn size, naming the first card that
    shows it and how many more distinct cards do."""
    from printkit.layout.resolution import LOW_DPI, PRINT_DPI, resolution

    below = prof.stated_dpi or LOW_DPI
    wanted = prof.stated_dpi or PRINT_DPI
    asks = f"{prof.name} asks" if prof.stated_dpi else "print services commonly ask"
    found: dict[tuple, list] = {}  # (path, drawn size) -> [resolution, first card, side, cards]
    for _, groups in included:
        for copies in groups:
            card = copies[0]
            for side, face in (("front", faces.front(card)), ("back", faces.back(card))):
                for op in face.ops:
                    placed = resolution(op) if isinstance(op, Image) else None
                    if placed is None or placed.dpi >= below or placed.dpi < LOW_DPI:
                        continue
                    key = (str(op.path), tuple(round(v, 1) for v in placed.drawn_mm))
                    seen = found.setdefault(key, [placed, card, side, set()])
                    seen[3].add(card.key)
    lines = []
    for (path, _), (placed, card, side, cards) in found.items():
        more = f" and {counted(len(cards) - 1, 'more distinct card')}" if len(cards) > 1 else ""
        lines.append(f"picture {Path(path).name!r} on the {side} of {card.short_label}{more}: "
                     f"{placed.said(below, wanted, asks)}.")
    return lines


def order_decks(included, faces) -> list[OrderDeck]:
    """The decks to order: each run's distinct cards split by back, each deck in its own folder.

    A run with one back is one folder named as the run (``cards``); a run with several gets a
    folder per back, named by the group its cards come from when each back has a group of its own
    (``cards-spells``), else numbered (``cards-back-2``).
    """
    decks: list[OrderDeck] = []
    for run, groups in included:
        by_back: dict = {}
        for copies in groups:
            by_back.setdefault(_back_key(faces, copies[0]), []).append(tuple(copies))
        folder = _folder(run.name)
        if len(by_back) == 1:
            decks.append(OrderDeck(folder, run, tuple(next(iter(by_back.values())))))
            continue
        names = [{file_slug(c[0].group) for c in members} for members in by_back.values()]
        by_group = all(len(n) == 1 for n in names) and len({min(n) for n in names}) == len(names)
        for number, (members, groups_of) in enumerate(zip(by_back.values(), names), start=1):
            part = min(groups_of) if by_group else f"back-{number}"
            decks.append(OrderDeck(f"{folder}-{part}", run, tuple(members)))
    return decks


def _back_key(faces, card: Card):
    return (faces.back(card).ops, card.size)


def _card_pdf(deck: Deck, card: Card, face: Face, side: str) -> bytes:
    """One card's ``side`` ("front" or "back") as a PDF whose page is its bleed box (TrimBox set),
    titled by the card."""
    from printkit.pipeline.names import card_info
    from printkit.render.pdf import render_pages

    return render_pages([card_page(face, card.size)], info=card_info(deck, card, side))


def _images(deck: Deck, prof: Profile, decks: Sequence[OrderDeck], faces, ctx, files) -> Iterator:
    from printkit.render.png import png_bytes, rasterise

    for order in decks:
        run, folder = order.run, order.folder
        back_path = f"{folder}/back.{prof.format}"
        for number, copies in enumerate(order.groups, start=1):
            card = copies[0]
            front = faces.front(card)
            pdf = _card_pdf(deck, card, front, "front")
            image = png_bytes(rasterise(pdf, card.size, pixels=run.size.pixels), prof.dpi)
            stem = f"{folder}/{number:03d}-{file_slug(templates.card_name(card, deck))}"
            n = len(copies)
            if prof.copies == "count-in-name":
                paths = [f"{stem}-x{n}.{prof.format}"]
                what = f"{n} cop{'ies' if n > 1 else 'y'}"
            elif prof.copies == "repeat":
                paths = [f"{stem}-{c}.{prof.format}" for c in range(1, n + 1)] if n > 1 else [f"{stem}.{prof.format}"]
                what = f"1 copy each (this card {n} times)"
            else:
                paths = [f"{stem}.{prof.format}"]
                what = f"order {n} cop{'ies' if n > 1 else 'y'}"
            for path in paths:
                yield ctx.write(path, image, kind="export-front", deck=deck, cards=1 if prof.copies == "repeat" else n,
                                back=back_path)
                files.append((path, what))
            ctx.progress(n)
        card = order.groups[0][0]
        pdf = _card_pdf(deck, card, faces.back(card), "back")
        yield ctx.write(back_path, png_bytes(rasterise(pdf, card.size, pixels=run.size.pixels), prof.dpi),
                        kind="export-back", deck=deck, cards=order.cards)
        every = "all " if order.cards > 1 else ""
        files.append((back_path, f"the back of {every}{counted(order.cards, 'card')} in {folder}/"))


def _order_lines(prof: Profile, decks: Sequence[OrderDeck]) -> list[str]:
    """What to order: one deck per folder, of the size the service sells that holds its cards."""
    lines = ["Decks to order, one per folder:"]
    for order in decks:
        line = (f"- {order.folder}/: {counted(order.cards, 'card')} ({len(order.groups)} distinct), back "
                f"{order.folder}/back.{prof.format}")
        if prof.order_sizes:
            size = next((n for n in prof.order_sizes if n >= order.cards), None)
            if size is None:
                line += (f"; more cards than {prof.name}'s largest deck ({prof.order_sizes[-1]}): split them "
                         "into several orders")
            elif size == order.cards:
                line += f": order {_a(size)} {size}-card deck"
            else:
                spare = size - order.cards
                line += (f": order {_a(size)} {size}-card deck, the smallest size that holds them, and fill its "
                         f"{counted(spare, 'other slot')} with extra copies of any of its cards")
        lines.append(line + ".")
    if prof.order_sizes:
        lines.append(f"{prof.name} sells decks of " + ", ".join(str(n) for n in prof.order_sizes) + " cards.")
    return lines


def _a(number: int) -> str:
    """The article before a number read aloud: an 18-card deck, a 36-card deck."""
    return "an" if str(number).startswith("8") or number in (11, 18) else "a"


def _rulebooks(deck: Deck, ctx, files, left_out) -> Iterator:
    """The deck's rulebooks, one PDF per language on the export's paper, beside the cards."""
    from printkit.rulebook.producer import set_rulebooks
    from printkit.spec.files import rule_texts

    paper = ctx.options.paper
    spec = deck.spec_path
    texts = rule_texts(spec, deck.game)
    if not texts:
        left_out.append(f"The rulebook: the deck has no rule text (write {spec.stem}.rules.<lang>.md beside "
                        f"{spec.name}).")
        return
    own = all(path.parent.resolve() == spec.parent.resolve() for path in texts.values())
    for lang, result, _, error in set_rulebooks(spec, tuple(texts), paper, False, own):
        if error is not None:
            if own:
                raise error  # the designer's own text: its mistakes are theirs to fix
            left_out.append(f"The {lang} rulebook: {error}")
            continue
        for said in dict.fromkeys(result.warnings):  # as a build says them, and README.txt with them
            ctx.warn(deck, said)
        path = f"{UPLOAD}/rulebook-{lang}-{paper}.pdf"
        yield ctx.write(path, result.data, kind="export-rulebook", deck=deck, paper=result.paper,
                        pages=result.pages, lang=lang)
        pages = counted(result.pages, f"{paper.upper()} page")
        files.append((path, f"the rulebook ({lang}): {pages}, one copy per game"))


def _pdfs(deck: Deck, prof: Profile, included, faces, options: ExportOptions, ctx, files) -> Iterator:
    from printkit.pipeline.names import pdf_info

    def page(face: Face, size: CardSize) -> Page:
        return _marked_page(face, size) if options.crop_marks else card_page(face, size)

    if prof.backs == "interleaved":  # one PDF per deck: back then front of every physical card
        for run, groups in included:
            pages: list[Page] = []
            for copies in groups:
                card = copies[0]
                front, back = page(faces.front(card), card.size), page(faces.back(card), card.size)
                pages += [back, front] * len(copies)
                ctx.progress(len(copies))
            path = f"{UPLOAD}/{_folder(run.name)}.pdf"
            info = pdf_info(deck, f"{run.title} for {prof.name}", "Card deck in print order: each card's back, then its front")
            yield ctx.write_pdf(path, pages, info, cmyk=press_for(prof, options) or False, cached=False,
                                kind="export-pdf", deck=deck, cards=len(pages) // 2)
            files.append((path, f"{counted(len(pages) // 2, 'card')} ({run.title}), {len(pages)} pages: "
                                "back, front, back, front ..."))
        return
    fronts: list[Page] = []
    backs: list[Page] = []
    for run, groups in included:
        for copies in groups:
            card = copies[0]
            front, back = page(faces.front(card), card.size), page(faces.back(card), card.size)
            fronts += [front] * len(copies)
            backs += [back] * len(copies)
            ctx.progress(len(copies))
    info = pdf_info(deck, f"cards for {prof.name}", "Every card at its bleed size: all fronts, then all backs")
    path = f"{UPLOAD}/cards.pdf"
    yield ctx.write_pdf(path, fronts + backs, info, cmyk=press_for(prof, options) or False, cached=False,
                        kind="export-pdf",
                        deck=deck, cards=len(fronts))
    runs = ", ".join(counted(n, "card") if run.name == "cards" else f"{n} {run.title}"
                     for run, groups in included for n in [sum(len(c) for c in groups)])
    n = len(fronts)
    order = (f"pages 1-{n} fronts, {n + 1}-{2 * n} their backs in the same order" if n > 1
             else "page 1 its front, page 2 its back")
    held = counted(n, "card") if runs == counted(n, "card") else f"{counted(n, 'card')} ({runs})"  # not "12 cards (12 cards)"
    files.append((path, f"{held}: {order}" + ("; crop marks in a 6 mm slug" if options.crop_marks else "")))


def _colour_note(prof: Profile, options: ExportOptions) -> str:
    press = press_for(prof, options)
    if press is not None:
        from printkit.render.cmyk import CONDITION, profile_name

        black = ("large solid black areas (from {:g} mm across) in rich black (C{:g} M{:g} Y{:g} K{:g})".format(
            press.rich_black_from_mm, *(v * 100 for v in press.rich_black)) if press.rich_black else
            "no rich black")
        pdfx = " in PDF/X-1a:2001 files" if press.pdfx else ""
        return (f"Colour: CMYK{pdfx} for offset on coated paper ({profile_name()}, {CONDITION}), named in each PDF "
                "by its OutputIntent; black and greys in text, lines and small shapes are K alone (100% K "
                f"or a K tint), {black}; every other colour and picture converted through the profile, "
                f"at most {press.ink_limit * 100:g}% ink. Text and shapes stay vector. "
                "Ask the shop whether it prints to this condition; if it wants another, send the sRGB "
                "export instead and let it convert.")
    return "Colour: sRGB, " + ("each PNG with an embedded sRGB ICC profile." if prof.kind == "images"
                               else "named in each PDF by an sRGB OutputIntent.")


def _folder(name: str) -> str:
    return file_slug(name) if name != "cards" else "cards"


def _marked_page(face: Face, size: CardSize) -> Page:
    """A card on a page with a slug: bleed box inside, crop marks on the trim lines in the slug."""
    s, b = SLUG_MM, size.bleed_mm
    w, h = size.bleed_width_mm + 2 * s, size.bleed_height_mm + 2 * s
    left, top = s + b, s + b
    right, bottom = left + size.width_mm, top + size.height_mm
    near, far_x, far_y = s - MARK_OFFSET_MM, w - s + MARK_OFFSET_MM, h - s + MARK_OFFSET_MM
    marks = []
    for x in (left, right):
        marks += [Line(x, 0, x, near, "#000000", MARK_WIDTH_MM), Line(x, far_y, x, h, "#000000", MARK_WIDTH_MM)]
    for y in (top, bottom):
        marks += [Line(0, y, near, y, "#000000", MARK_WIDTH_MM), Line(far_x, y, w, y, "#000000", MARK_WIDTH_MM)]
    clip = Box(-b, -b, size.bleed_width_mm, size.bleed_height_mm)
    return Page(Size(w, h), (Placement(face, left, top, clip),), tuple(marks),
                trim=Box(left, top, size.width_mm, size.height_mm),
                bleed=Box(s, s, size.bleed_width_mm, size.bleed_height_mm))
