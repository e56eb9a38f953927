"""``printkit export``: a folder ready to upload to a print service, or to load in Tabletop Simulator.

:func:`export_deck` renders one expanded deck for one target (a profile from ``profiles.yaml``)
into its own folder, through the build machinery (:func:`printkit.pipeline.build.build` with one
producer): every file is staged and renamed into place together, only inside the folder, with a
``manifest.json`` that lets the next export replace exactly the files this one wrote. The files to
upload sit in subfolders that hold nothing else; ``README.txt``, ``manifest.json`` and the render
cache stay at the top, beside them.

What goes where:

- the deck's cards and each component of a size the service offers become that service's files
  (images or PDFs), copies and backs the way the profile says;
- the deck's own cards must be of a size the service offers: otherwise one error line names the
  sizes it has;
- components of a size it lacks (Emberfall's 20 mm tokens at The Game Crafter), and full-page
  components (Clag's score sheets) where the profile omits them, are left out with a line in
  ``README.txt``;
- the print shop also gets the deck's rulebooks (profile key ``rulebook``), one PDF per language;
- ``README.txt`` says what to upload where, and how many copies of each file to order (for
  MakePlayingCards, which deck size: it sells fixed ones), and, under one heading, everything the
  export warned of about the deck's cards and rulebooks (a text that does not fit, a character
  left out, a picture that prints below the profile's ``dpi``, else 150 DPI, counts the spec does
  not expect ...), or that it warned of nothing;
- a file in the folders to upload that printkit did not write refuses the export before anything
  is written (:mod:`printkit.export.folders`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from printkit.deck import Card, Deck
from printkit.errors import BuildError
from printkit.export.profiles import Profile, ServiceSize, profile, size_name
from printkit.layout import templates

README = "README.txt"


@dataclass(frozen=True)
class ExportOptions:
    """What ``printkit export`` was asked for."""

    target: str
    out_dir: Path | None = None  # None: output/<deck>[/<variant>]/export-<target>
    base_url: str | None = None  # tts: where the images will be hosted (else file:/// paths)
    crop_marks: bool = False  # print-shop: crop marks in a slug around each card's bleed
    cmyk: bool = False  # PDF targets: colours and pictures converted to CMYK (printkit.render.cmyk)
    pdfx: bool | None = None  # PDF targets: PDF/X-1a:2001 (implies CMYK); None: as the profile says
    paper: str = "a4"  # the paper of full-page components (and rulebooks) a profile keeps
    rulebooks: bool = True  # print-shop: the deck's rulebooks too (profile key ``rulebook``)


@dataclass(frozen=True)
class Run:
    """Cards printed together: the deck's cards or one component, and the service's size for them."""

    name: str
    cards: tuple[Card, ...]
    size: ServiceSize | None  # None: the service has no such size

    @property
    def title(self) -> str:
        return self.name.replace("_", " ")


def default_out_dir(deck: Deck, target: str, root: Path = Path("output")) -> Path:
    from printkit.pipeline.names import deck_folder

    return root / deck_folder(deck) / f"export-{target}"


def plan(deck: Deck, prof: Profile) -> tuple[list[Run], list[Card]]:
    """The deck's runs with the service's size for each, and its full-page components.

    Refuses (one line) a deck whose own cards are of a size the service does not offer.
    """
    from printkit.pipeline.names import print_runs

    runs: list[Run] = []
    pages: list[Card] = []
    for name, cards in print_runs(deck):
        pages += [c for c in cards if templates.is_page(c)]
        cards = tuple(c for c in cards if not templates.is_page(c))
        if not cards:
            continue
        sizes = {c.size for c in cards}
        for size in sorted(sizes, key=lambda s: (s.width_mm, s.height_mm)):
            chosen = tuple(c for c in cards if c.size == size)
            service = prof.size_for(size)
            if service is None and name == "cards":
                from printkit.pipeline.names import deck_title

                raise BuildError(f"{prof.name} takes {prof.offered()}; {deck_title(deck)}'s cards are "
                                 f"{size_name(size)}")
            runs.append(Run(name if len(sizes) == 1 else f"{name}-{size.width_mm:g}x{size.height_mm:g}",
                            chosen, service))
    return runs, pages


def resized(card: Card, service: ServiceSize) -> Card:
    """The card with the service's bleed (faces are laid out again, so bleed art reaches the edge)."""
    if abs(card.size.bleed_mm - service.bleed_mm) < 1e-9:
        return card
    return dataclasses.replace(card, size=dataclasses.replace(card.size, bleed_mm=service.bleed_mm))


def at_service_bleed(deck: Deck, runs: Sequence[Run]) -> tuple[Deck, list[Run]]:
    """``deck`` and ``runs`` with every card the service prints at the service's bleed, as it is
    printed: the build's checks then lay out (and warn about) the very faces the export draws, and
    a picture drawn too small is said once, at the size it prints."""
    printed: dict[int, Card] = {}
    out: list[Run] = []
    for run in runs:
        if run.size is not None:
            cards = tuple(resized(card, run.size) for card in run.cards)
            printed.update(zip(map(id, run.cards), cards))
            run = dataclasses.replace(run, cards=cards)
        out.append(run)

    def swap(cards: Sequence[Card]) -> tuple[Card, ...]:
        return tuple(printed.get(id(card), card) for card in cards)

    components = {name: swap(cards) for name, cards in deck.components.items()}
    return dataclasses.replace(deck, cards=swap(deck.cards), components=components), out


def export_deck(deck: Deck, options: ExportOptions, progress: Callable[[int], None] | None = None):
    """Write the export folder for ``deck``; returns the build's :class:`printkit.pipeline.context.BuildResult`."""
    from printkit.pipeline.build import build
    from printkit.pipeline.context import BuildOptions
    from printkit.pipeline.producers import Producer

    prof = profile(options.target)
    check_colour_options(prof, options.cmyk, options.pdfx)
    runs, pages = plan(deck, prof)
    deck, runs = at_service_bleed(deck, runs)
    out_dir = options.out_dir or default_out_dir(deck, options.target)
    refuse_build_folder(out_dir, default_out_dir(deck, options.target))
    if prof.kind == "tts":
        from printkit.export.tts import check_base_url, produce_tts as producer_for

        if options.base_url is not None:
            check_base_url(options.base_url)
    else:
        from printkit.export.service import produce_service as producer_for

    def export(decks: Sequence[Deck], ctx) -> Iterator:
        return producer_for(deck, prof, runs, pages, options, ctx)

    # Never listed again from a deck's record: an export is written whole each time.
    producer = Producer(f"export_{prof.key.replace('-', '_')}", export, f"export {prof.key.replace('-', ' ')}",
                        replay=False)
    build_options = BuildOptions(out_dir=out_dir, paper=options.paper, rulebooks=False)
    return build([deck], build_options, progress=progress, producers=(producer,), export=True)


def refuse_build_folder(out_dir: Path, default: Path) -> None:
    """Refuse to export into a folder a build writes to (its output folder, a deck's folder in
    it): the files to upload would lie among the build's. ``default`` is offered instead."""
    from printkit.pipeline.manifest import enclosing_manifests

    target = out_dir.resolve()
    for folder, export, listed in enclosing_manifests(out_dir):
        if export:
            continue
        inside = next((e.path for e in listed if target in (folder / e.path).parents), None)
        if folder == target or inside is not None:
            holds = "is printkit's build output folder" if folder == target else \
                f"is part of printkit's build in {str(folder)!r} (its manifest.json lists {inside})"
            raise BuildError(f"cannot export into {str(out_dir)!r}: it {holds}, and an export there would "
                             f"mix the files to upload with the build's; leave out --out (the export then "
                             f"goes to {str(default)!r}) or name a folder of its own")


def check_colour_options(prof: Profile, cmyk: bool, pdfx: bool | None) -> None:
    """Refuse ``--cmyk`` and ``--pdfx`` for a target that takes images (one line)."""
    for flag, given in (("--cmyk", cmyk), ("--pdfx", pdfx)):
        if given and prof.kind != "pdf":
            raise BuildError(f"{flag} is for the PDF targets only (print-shop, drivethrucards); "
                             f"{prof.name} takes sRGB images")


def press_for(prof: Profile, options: ExportOptions):
    """How the export's PDFs take ink: the profile's :class:`~printkit.render.cmyk.Press` (PDF/X-1a
    as ``--pdfx``/``--no-pdfx`` or the profile says), or None for sRGB files."""
    pdfx = prof.press.pdfx if options.pdfx is None else options.pdfx
    if prof.kind != "pdf" or not (options.cmyk or pdfx):
        return None
    return dataclasses.replace(prof.press, pdfx=pdfx)


def file_slug(name: str) -> str:
    """A file-name part from a card's name: ``7+`` -> ``7plus``, ``Ember Drake`` -> ``ember-drake``."""
    text = name.lower()
    for symbol, word in (("+", "plus"), ("^", "pow"), ("×", "x"), ("−", "minus")):
        text = text.replace(symbol, word)
    text = re.sub(r"^-(?=\d)", "minus", text)
    text = re.sub(r"(?<=\d)-$", "minus", text)  # Calc's 7- (seven, minus)
    text = re.sub(r"[^\w]+", "-", text).strip("-_")
    return text[:50].rstrip("-") or "card"


def readme_text(deck: Deck, prof: Profile, lines: Sequence[str], files: Sequence[tuple[str, str]],
                left_out: Sequence[str], warned: Sequence[str]) -> bytes:
    """README.txt: what the folder is for, what to upload where, each file with its copies, and
    what the export ``warned`` of (:func:`warned_of`), to look at before ordering."""
    from printkit.pipeline.names import deck_title

    out = [f"{deck_title(deck)}: export for {prof.name}", "=" * 60, "", "What to do", "----------",
           wrap(prof.upload), ""]
    out += [wrap(line) for line in lines]
    look = LOOK_TTS if prof.kind == "tts" else LOOK
    out += ["", look, "-" * len(look)]
    if warned:
        out += [wrap("printkit warned of these as it made this export (the same lines as on the command line): "
                     "fix them in the deck and export again, or be sure they are as you want them.")]
        out += [wrap(line, bullet=True) for line in warned]
    else:
        out.append("None: printkit warned of nothing as it made this export.")
    if prof.asks:
        out += ["", "Before you order", "----------------", wrap(prof.asks)]
    out += ["", "Files", "-----"]
    width = max((len(path) for path, _ in files), default=0)
    out += [f"{path.ljust(width)}  {what}" for path, what in files]
    if left_out:
        out += ["", "Left out", "--------"] + [wrap(line) for line in left_out]
    out += ["", "Beside the folders to upload, manifest.json (printkit's record of the files it wrote here,",
            "so that the next export replaces them) and .printkit-cache/ (renders it may reuse) are",
            "printkit's own: do not upload them.", ""]
    return "\n".join(out).encode("utf-8")


# The heading of README.txt's list of what the export warned of (a print service's; Tabletop
# Simulator's, where nothing is ordered).
LOOK = "Look at these before you order"
LOOK_TTS = "Look at these before you load the deck"


def warned_of(deck: Deck, ctx) -> list[str]:
    """What the build warned of about ``deck`` so far (its cards and faces, the pictures on them,
    its counts, its rulebooks), one line per warning grouped as the command line says them, without
    the deck's folder: README.txt's list (an export writes its README last)."""
    from printkit.pipeline.names import deck_folder

    return ctx.warning_log.lines(deck_folder(deck))


def wrap(text: str, width: int = 96, bullet: bool = False) -> str:
    """``text`` with its spaces made single, in lines of at most ``width`` characters; a ``bullet``
    begins with ``- `` and its other lines are indented to match, never breaking at a hyphen (a
    warning's file names and quoted words stay whole)."""
    import textwrap

    if bullet:
        lines = textwrap.wrap(" ".join(text.split()), width, initial_indent="- ", subsequent_indent="  ",
                              break_on_hyphens=False)
    else:
        lines = textwrap.wrap(" ".join(text.split()), width)
    return "\n".join(lines) if text else ""
