"""What a build would refuse, found before anything is drawn: `printkit check` and `printkit build`
both run these steps, so a deck that passes the check builds, and both name the same mistakes.

Each step collects its mistakes (:class:`printkit.errors.Errors`) instead of stopping at the
first: every card's faces laid out, every SVG the faces show converted and drawn as a PDF would
draw it, and every rule text of the spec's own parsed with its values and blocks resolved.
`printkit check` also says what a build only warns of about printkit's bundled rule texts (one
that does not fit a spec), which the build finds as it sets the books.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator, Mapping, Protocol, Sequence

from printkit.deck import Card, Deck
from printkit.draft import shown_in
from printkit.errors import BuildError, Errors, ImageError, ManyErrors, PrintkitError
from printkit.layout import templates
from printkit.layout.geometry import Size
from printkit.layout.ops import Face, Image


class DeckFaces(Protocol):
    """How a deck's faces are laid out (:class:`printkit.pipeline.faces.Faces`): errors name the card."""

    def front(self, card: Card) -> Face: ...

    def back(self, card: Card) -> Face: ...

    def page(self, card: Card, paper: Size) -> Face: ...


def check_faces(deck: Deck, faces: DeckFaces, paper: Size, errors: Errors) -> None:
    """Lay out every distinct card's front and back (a full-page component's page on ``paper``),
    then draw each SVG they show once; each card's mistakes are kept in ``errors``."""
    seen: set[bytes] = set()
    drawn: set[Path] = set()
    for card in deck.all_cards():
        if card.key in seen or errors.full:
            continue
        seen.add(card.key)
        laid: list[Face] = []
        with errors.collecting():
            if templates.is_page(card):
                laid.append(faces.page(card, paper))
            else:
                laid.append(faces.front(card))
                laid.append(faces.back(card))
        for face in laid:
            for path in new_svgs(face, drawn):
                with errors.collecting():
                    check_svg(deck, card, path)


def new_svgs(face: Face, seen: set[Path]) -> Iterator[Path]:
    """The SVG pictures ``face`` shows that are not in ``seen`` yet, each added to it as it comes."""
    for op in face.ops:
        if isinstance(op, Image):
            from printkit.images import is_svg  # loaded by a face showing a picture

            if is_svg(op.path) and op.path not in seen:
                seen.add(op.path)
                yield op.path


def check_svg(deck: Deck, card: Card, path: Path) -> None:
    """Convert the SVG at ``path`` and draw it as the PDF backend does; BuildError naming the card
    that shows it (where the spec made it) when it cannot be drawn."""
    from printkit.images import read_image, svg_art  # loaded by a deck showing SVG art
    from printkit.render.canvas import check_svg_drawing

    try:
        check_svg_drawing(svg_art(read_image(path)))
    except ImageError as exc:
        where = f"{card.source}: " if card.source else ""
        raise BuildError(f"{where}{card.short_label}: image {shown_in(path, Path(deck.spec_path).parent)!r} "
                         f"{exc}") from None


def _every_variant(decks: Sequence[Deck]) -> dict[Path, list[Deck]]:
    """``decks`` (every variant of each spec, as ``printkit check`` expands them) by spec: what a
    rule text reads, so that checking it does not read and expand the spec again."""
    by_spec: dict[Path, list[Deck]] = {}
    for deck in decks:
        by_spec.setdefault(Path(deck.spec_path), []).append(deck)
    return by_spec


def check_rule_texts(decks: Sequence[Deck], errors: Errors, paper: str | None = None,
                     variants: Mapping[Path, Sequence[Deck]] | None = None, *,
                     bundled: bool = False) -> dict[Path, tuple[str, ...]]:
    """Parse each spec's own rule texts with their ``{{ values }}`` and ``:::`` blocks resolved, as
    setting the rulebook does first, and (with ``paper``) lay their figures out on its pages; a
    text's first mistake is kept in ``errors``. What setting them would warn of, by spec.
    ``variants``: each spec's decks, every variant, where the caller has them (else read again).

    With ``bundled``, also what a build warns of about the rulebooks printkit's bundled texts make
    for specs that have none of their own, as it says it: a text that cannot be set for the spec (a
    copy that lacks the cards or groups it quotes; that rulebook is left out, the cards built), and
    what setting a text that fits would warn of; a mistake that would stop the build is kept in
    ``errors``. A build leaves those to the setting of the books (doing it here too would read each
    text twice); ``printkit check`` says them, so that a deck that checks builds without a new
    warning. A spec with no text at all is not said: no text went wrong, and a build says it has no
    rulebook.
    """
    from printkit.rulebook.producer import check_rule_text, spec_rule_texts

    said: dict[Path, tuple[str, ...]] = {}
    for spec, texts, own in spec_rule_texts(decks):
        decks_of = (variants or {}).get(spec)
        for lang in texts if own or bundled else ():
            with errors.collecting():
                found = check_rule_text(spec, lang, decks_of, paper) if own else _bundled(spec, lang, decks_of)
                said[spec] = said.get(spec, ()) + found
    return said


def _bundled(spec: Path, lang: str, decks: Sequence[Deck] | None) -> tuple[str, ...]:
    """What a build warns of about printkit's bundled text in ``lang`` for ``spec``; raises the
    mistake that would stop the build (its first: the build stops there)."""
    from printkit.rulebook.producer import check_rule_text, unfit_warning

    try:
        return check_rule_text(spec, lang, decks)
    except PrintkitError as exc:
        first = exc.errors[0] if isinstance(exc, ManyErrors) else exc
        if not isinstance(first, BuildError):
            raise first from None
        return (unfit_warning(lang, first),)


def preflight(decks: Sequence[Deck], faces_of: Callable[[Deck], DeckFaces], paper: Size, *,
              rulebooks: bool = True, every_rulebook: bool = False,
              rulebook_paper: str | None = None) -> dict[Path, tuple[str, ...]]:
    """Every step above for ``decks``: one error, or a ManyErrors naming up to MAX_ERRORS. What
    the spec's own rule texts would warn of when set, by spec (:func:`check_rule_texts`; their
    figures laid out on ``rulebook_paper``'s pages: a build leaves that to setting the books,
    which lays each card out once), and with ``every_rulebook`` also what a build warns of about
    printkit's bundled ones."""
    errors = Errors()
    for deck in decks:
        check_faces(deck, faces_of(deck), paper, errors)
    # check expands every variant (a build may be asked for some): the rule texts read those
    variants = _every_variant(decks) if every_rulebook else None
    said = (check_rule_texts(decks, errors, rulebook_paper, variants, bundled=every_rulebook)
            if rulebooks and not errors.full else {})
    errors.raise_any()
    return said
