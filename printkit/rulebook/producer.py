"""Building rulebooks: from a spec and its rule texts to PDFs, and the hook into ``printkit build``.

A spec ``decks/<stem>.yaml`` has rule texts ``decks/<stem>.rules.<lang>.md`` (see
docs/rulebook-format.md), or else printkit's texts for its game. :func:`render_rulebook` sets one of them as a PDF; the producer
:func:`produce_rulebooks` writes one per spec and language into the build's output folder::

    OUT/<deck>/rulebook-<lang>-<paper>.pdf            kind "rulebook"
    OUT/<deck>/rulebook-<lang>-booklet-<sheet>.pdf    kind "rulebook-booklet" (with --booklet)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from printkit.deck import Deck
from printkit.errors import BuildError, Errors, PrintkitError
from printkit.games import icons as builtin_icons
from printkit.layout.icons import Icon
from printkit.rulebook import booklet as bk
from printkit.rulebook import book
from printkit.rulebook import markdown as md
from printkit.rulebook.content import GameContent, TableSetup, content_for, words_lang
from printkit.rulebook.figures import CardRow, FrontMaker, TableFlowable, remembered_fronts
from printkit.rulebook.values import ValueContext, resolver
from printkit.safe_read import UnsafeFileError, read_limited, utf8_text
from printkit.spec.files import MAX_RULE_TEXT_BYTES, checked_rule_text as _checked, rule_texts
from printkit.spec.files import shown_path as _display_path
from printkit.workers import RULEBOOKS_MS

# The papers a rulebook is set on: those a booklet can also be imposed for.
PAPERS = tuple(bk.IMPOSITIONS)


def read_rule_text(path: Path) -> str:
    """The text of a rule text file, under the same path rules and a size limit."""
    resolved = _checked(Path(path))
    try:
        raw = read_limited(resolved, MAX_RULE_TEXT_BYTES)
    except UnsafeFileError as exc:
        raise BuildError(f"rule text {_display_path(path)} {exc}") from None
    except OSError as exc:
        raise BuildError(f"cannot read rule text {_display_path(path)}: {exc}") from None
    return utf8_text(raw, _display_path(path))


@dataclass(frozen=True)
class Rulebook:
    """A set rulebook: PDF bytes and its page count (sheet sides for a booklet)."""

    data: bytes
    pages: int
    paper: str
    warnings: tuple[str, ...] = ()  # each located at its rule text's file and line


def _players(game: str) -> tuple[int, int] | None:
    from printkit.games import engine_for, has_engine

    if not has_engine(game):
        return None  # a game without an engine simply has no {{ engine.* }} values
    engine = engine_for(game)
    return engine.min_players, engine.max_players


def prepare(spec_path: Path, lang: str, text_path: Path | None = None,
            variants: Sequence[Deck] | None = None, errors: Errors | None = None,
            ) -> tuple[md.Document, Deck, GameContent]:
    """Parse a rule text with its values resolved; the deck is the spec's default variant.

    ``variants`` are the spec's decks when the caller has loaded them (else they are loaded here).
    With ``errors``, every ``{{ value }}`` the deck lacks is kept there (the first line naming
    it), each read as ``?``, and the text parsed on.
    """
    from printkit.spec import default_deck
    from printkit.decks import load_all_variants

    variants = list(variants) if variants is not None else load_all_variants(spec_path)
    deck = default_deck(variants)
    content = _examples_once(content_for(deck.game), deck, words_lang(lang))
    text_path = Path(text_path) if text_path else rule_texts(spec_path, deck.game).get(lang)
    if text_path is None:
        raise BuildError(f"no {lang!r} rule text for {spec_path} (expected {Path(spec_path).stem}.rules.{lang}.md)")
    display = _display_path(text_path)

    @lru_cache(maxsize=None)
    def example_values(name: str):
        if name not in content.examples:
            known = ", ".join(sorted(content.examples)) or "none"
            raise KeyError(f"unknown example {name!r} for game {deck.game!r} (known: {known})")
        try:
            return content.examples[name](deck, words_lang(lang)).values
        except BuildError as exc:
            raise BuildError(f"example {name!r}: {exc}") from None

    context = ValueContext(
        deck=deck,
        variants={v.variant: v for v in variants if v.variant},
        example_values=example_values,
        players=_players(deck.game),
    )
    text = read_rule_text(text_path)
    icons, colors = inline_names(deck)
    resolve = resolver(context)
    refused: dict[str, None] = {}  # with ``errors``: values found missing, each then read as "?"
    while True:
        failed: list[str] = []  # the value whose failure stopped the parse, if one did

        def values(key: str) -> str:
            if key in refused:
                return "?"
            try:
                return resolve(key)
            except (KeyError, BuildError):
                failed.append(key)
                raise

        try:
            return (md.parse(text, display, values, default_title=md.escape(deck.name), icons=icons,
                             colors=colors, default_title_at=(_display_path(deck.spec_path), *deck.name_position)),
                    deck, content)
        except BuildError as exc:
            error = _with_hint(exc, spec_path, text_path, deck.game, lang)
            if errors is None or not failed or errors.full:
                raise error from None
            errors.add(error)
            refused[failed[0]] = None


def inline_names(deck: Deck) -> tuple[Mapping[str, Icon], dict[str, str]]:
    """The icons ``:name:`` draws in the deck's rule texts (the spec's and the built-in ones, as its
    cards have them) and the colours a span may name (its art.colors, ink and background)."""
    from printkit.layout.design import DEFAULT_BACKGROUND, DEFAULT_INK

    icons = deck.resources.icons if deck.resources is not None else builtin_icons(deck.game)
    return icons, {"ink": DEFAULT_INK, "background": DEFAULT_BACKGROUND, **deck.art.colors}


def picture_warnings(doc: md.Document, icons: Mapping[str, Icon]) -> list[str]:
    """What printkit cannot draw as written in the pictures of the icons ``doc``'s text sets (an
    SVG's filter or mask …), as card text says it, each at the line and column of the icon's first
    use: once per picture and problem."""
    from printkit.layout.design import icon_warnings

    said: set[str] = set()
    return [warning for name, line, column in doc.icons
            for warning in icon_warnings([name], icons, f"{doc.path}:{line}:{column}", said)]


def _examples_once(content: GameContent, deck: Deck, lang: str) -> GameContent:
    """``content`` with each example worked out at most once for ``deck`` in ``lang``.

    A rule text quotes an example's values inline and sets the same example as a block; both
    ask for it with the book's deck and language. Other arguments are passed through.
    """

    def once(make):
        made = []

        def example(for_deck: Deck, for_lang: str):
            if for_deck is not deck or for_lang != lang:
                return make(for_deck, for_lang)
            if not made:
                made.append(make(deck, lang))
            return made[0]

        return example

    return dataclasses.replace(content, examples={name: once(make) for name, make in content.examples.items()})


def _with_hint(exc: BuildError, spec_path: Path, text_path: Path, game: str, lang: str) -> BuildError:
    """An error from a bundled text used for another spec says how to write the spec's own text."""
    spec_path = Path(spec_path)
    if text_path.parent.resolve() == spec_path.parent.resolve():
        return exc
    # A bundled text quotes the bundled spec's groups and cards; an edited spec may lack them.
    hint = f" (printkit's {game} rules do not fit {spec_path.name}; write {spec_path.stem}.rules.{lang}.md beside it)"
    if isinstance(exc, md.RulebookError):
        return md.RulebookError(exc.path, exc.line, exc.message + hint, exc.column)
    return BuildError(f"{exc}{hint}")


def render_rulebook(spec_path: Path, lang: str, paper: str = "a4", booklet: bool = False,
                    text_path: Path | None = None, *, variants: Sequence[Deck] | None = None,
                    front: FrontMaker | None = None) -> Rulebook:
    """Set the rulebook of ``spec_path`` in ``lang`` as a PDF.

    ``paper`` is the page size (a4, a5, letter). With ``booklet`` the pages are A5 (half-Letter
    for letter) imposed two-up in saddle-stitch order on A4 (Letter) sheets. A caller setting
    several books of one spec passes its loaded ``variants`` and one
    ``remembered_fronts(default_deck(variants))`` as ``front`` to them all, so each card in their figures is
    laid out once.
    """
    if paper not in PAPERS:
        raise BuildError(f"unknown rulebook paper {paper!r} (known: {', '.join(PAPERS)})")
    doc, deck, content = prepare(Path(spec_path), lang, text_path, variants)
    used = Path(text_path) if text_path else rule_texts(spec_path, deck.game)[lang]
    try:
        return _render(doc, deck, content, lang, paper, booklet, front or remembered_fronts(deck))
    except BuildError as exc:
        raise _with_hint(exc, spec_path, used, deck.game, lang) from None


def check_rule_text(spec_path: Path, lang: str, variants: Sequence[Deck] | None = None,
                    paper: str | None = None) -> tuple[str, ...]:
    """Refuse what setting the rulebook of ``spec_path`` in ``lang`` refuses before it sets a page:
    the text, its ``{{ values }}``, what each ``:::`` block names (figures, examples, cards) and,
    with ``paper``, a figure that cannot print its cards' text on its pages.
    What setting it would warn of (a part an anatomy figure cannot label), each once, in text order."""
    errors = Errors()
    warnings: dict[str, None] = {}
    try:
        doc, deck, content = prepare(Path(spec_path), lang, variants=variants, errors=errors)
    except PrintkitError as exc:  # a mistake that ends the parse, after the values it found
        errors.add(exc)
        errors.raise_any()
    with errors.collecting():
        book.check_glyphs(doc, deck.art.font, deck.art.font_bold)
    warnings.update(dict.fromkeys(picture_warnings(doc, inline_names(deck)[0])))
    # a book may be set on any of the papers: a table that splits a word on one says which
    warnings.update(dict.fromkeys(book.table_warnings(doc, list(book.PAPERS.values()),
                                                      deck.art.font, deck.art.font_bold)))
    warnings.update(dict.fromkeys(book.code_warnings(doc, list(book.PAPERS.values()),
                                                     deck.art.font, deck.art.font_bold)))
    lookup = _lookup(doc, deck, content, lang, lambda said: warnings.setdefault(said))

    def hinted(exc: BuildError) -> BuildError:
        return _with_hint(exc, Path(spec_path), rule_texts(spec_path, deck.game)[lang], deck.game, lang)

    shown: dict[int, Any] = {}  # what each block shows, by id: the figures are laid out from it
    with book.setting(deck.art.font, deck.art.font_bold, *inline_names(deck)):
        for block in doc.blocks:
            if isinstance(block, md.Directive) and block.kind != "pagebreak":
                try:
                    shown[id(block)] = lookup(block)
                except BuildError as exc:
                    errors.add(hinted(exc))
        errors.raise_any()
        try:
            if paper in PAPERS:  # None: left to setting the book (an unknown paper is refused there)
                book.check_figures(doc, lambda block: shown[id(block)],
                                   _figure_maker(deck, remembered_fronts(deck)), book.paper(paper))
        except BuildError as exc:
            errors.add(hinted(exc))
    errors.raise_any()
    return tuple(warnings)


def spec_rule_texts(decks: Sequence[Deck]) -> Iterator[tuple[Path, dict[str, Path], bool]]:
    """Each spec of ``decks`` once, with the rule texts it takes by language (none: it has no
    rulebook) and whether they are its own (beside it): those refuse a build, printkit's bundled
    ones only warn."""
    for _, spec, texts, own in _specs(decks):
        yield spec, texts, own


def unfit_warning(lang: str, error: BuildError) -> str:
    """What a build warns of when printkit's bundled text in ``lang`` cannot be set for a spec (it
    quotes cards or groups an edited copy lacks; ``error`` says where and what to write): the
    cards are built all the same, without that rulebook."""
    return f"no {lang} rulebook: {error} (or build with --no-rulebooks)"


def _lookup(doc: md.Document, deck: Deck, content: GameContent, lang: str,
            warn: Callable[[str], None] = lambda _: None) -> Callable[[md.Directive], Any]:
    """What a ``:::`` block of ``doc`` shows; mistakes name the text's file and line, and so does
    what it tells ``warn``."""
    from printkit.rulebook import designed

    game_lookup = book.lookup_in(content, deck, lang, doc.path)

    def lookup(block: md.Directive) -> Any:
        if block.kind not in md.FREE_DIRECTIVES:
            return game_lookup(block)
        make = {"cards": designed.cards_figure, "anatomy": designed.anatomy_figure,
                "setup": designed.setup_figure}[block.kind]
        try:
            shown = make(deck, block.name, lang) if block.kind == "anatomy" else make(deck, block.name)
        except designed.FigureError as exc:
            raise md.RulebookError(doc.path, block.line, f"{block.kind}: {exc}") from None
        if block.kind == "anatomy":
            for said in (designed.left_out_warning(shown), designed.other_language_warning(shown, lang)):
                if said is not None:
                    warn(md.RulebookError(doc.path, block.line, said).located())
        return shown

    return lookup


def _figure_maker(deck: Deck, front: FrontMaker) -> Callable[[Any, float], Any]:
    """The book's FigureMaker for ``deck``: each kind of figure as the flowable that draws it."""
    from printkit.rulebook import designed

    def figure(fig, width_pt: float) -> Any:
        if isinstance(fig, designed.Anatomy):
            return designed.AnatomyFlowable(fig, deck, front)
        if isinstance(fig, designed.Setup):
            return designed.SetupFlowable(fig, deck, front)
        if isinstance(fig, TableSetup):
            return TableFlowable(fig, deck, front)
        return CardRow(fig, deck, front)

    return figure


def _render(doc: md.Document, deck: Deck, content: GameContent, lang: str, paper: str, booklet: bool,
            front: FrontMaker) -> Rulebook:
    from printkit.rulebook import designed

    # each once however often the book asks: its icons' pictures and its tables first, then the
    # figures', in text order
    page_paper = bk.imposition_for(paper).page_paper if booklet else paper
    warnings = dict.fromkeys(picture_warnings(doc, inline_names(deck)[0]) + book.table_warnings(
        doc, [book.paper(page_paper)], deck.art.font, deck.art.font_bold) + book.code_warnings(
        doc, [book.paper(page_paper)], deck.art.font, deck.art.font_bold))
    lookup = _lookup(doc, deck, content, lang, lambda said: warnings.setdefault(said))
    figure = _figure_maker(deck, front)

    # A game without a cover of its own shows its first cards on the title page.
    cover = (content.figures["cover"](deck, words_lang(lang)) if "cover" in content.figures
             else designed.cover_figure(deck))
    icons, colors = inline_names(deck)
    if not booklet:
        data, pages = book.render(doc, lang, lookup, figure, book.paper(paper), cover=cover,
                                   author=deck.author, font=deck.art.font, font_bold=deck.art.font_bold,
                                   icons=icons, colors=colors)
        return Rulebook(data, pages, paper, tuple(warnings))
    imposition = bk.imposition_for(paper)
    page = book.paper(imposition.page_paper)
    canvas = bk.booklet_canvas(imposition, words_lang(lang), page.margin_mm, book.make_styles(page).h[0].fontSize)
    data, pages = book.render(doc, lang, lookup, figure, page, canvasmaker=canvas, cover=cover, author=deck.author,
                              font=deck.art.font, font_bold=deck.art.font_bold, icons=icons, colors=colors)
    return Rulebook(data, bk.padded_count(pages, blank_back=True) // 2, imposition.sheet_paper, tuple(warnings))


def produce_rulebooks(decks: Sequence[Deck], ctx) -> Iterator:
    """Build producer: one rulebook per spec and language (and a booklet with ``--booklet``)."""
    paper = ctx.options.rulebook_paper or ctx.options.paper
    for deck, spec, texts, own in _specs(decks):
        # A rulebook covers every variant: it is listed under the deck, not one of its variants.
        book_deck = dataclasses.replace(deck, variant=None)
        folder = _folder(deck)
        # Every rulebook of the spec on this paper is written here, even none (its text is gone);
        # one in a language without a text is gone on every paper.
        ctx.cover(book_deck, "rulebook", paper)
        if ctx.options.booklet and paper in bk.IMPOSITIONS:
            ctx.cover(book_deck, "rulebook-booklet", bk.imposition_for(paper).sheet_paper)
        ctx.rule_languages[deck.deck_id] = frozenset(texts)
        if not texts:
            ctx.warn(book_deck, f"no rulebook: no rule text beside {spec.name} "
                                f"(write {spec.stem}.rules.<lang>.md, lang a language tag such as en, ko or fr)")
        task = (spec, tuple(texts), paper, ctx.options.booklet, own)
        books = ctx.ahead.pop(("rulebooks",) + task, None) or ctx.workers.later(RULEBOOKS_MS, set_rulebooks, *task)
        for lang, result, booklet_result, error in books.result():
            if error is not None:
                if own:
                    raise error  # the designer's own text: its mistakes are theirs to fix
                # printkit's text quotes cards an edited spec may lack: build the cards anyway.
                ctx.warn(book_deck, unfit_warning(lang, error))
                continue
            # the booklet's pages are smaller: a table may split a word there only
            for said in dict.fromkeys(result.warnings + (booklet_result.warnings if booklet_result else ())):
                ctx.warn(book_deck, said)
            yield _write(ctx, f"{folder}/rulebook-{lang}-{paper}.pdf", result, "rulebook", book_deck, lang)
            if booklet_result is not None:
                yield _write(ctx, f"{folder}/rulebook-{lang}-booklet-{booklet_result.paper}.pdf", booklet_result,
                             "rulebook-booklet", book_deck, lang)


def start_rulebooks(decks: Sequence[Deck], ctx) -> None:
    """Hand each spec's rulebooks to the workers now (:func:`produce_rulebooks` takes them later),
    so that they are set while the build lays out and draws the cards."""
    paper = ctx.options.rulebook_paper or ctx.options.paper
    try:
        specs = list(_specs(decks))
    except PrintkitError:
        return  # said by produce_rulebooks, in its turn
    for _, spec, texts, own in specs:
        if texts:
            task = (spec, tuple(texts), paper, ctx.options.booklet, own)
            ctx.ahead[("rulebooks",) + task] = ctx.workers.later(RULEBOOKS_MS, set_rulebooks, *task)


def _specs(decks: Sequence[Deck]) -> Iterator[tuple[Deck, Path, dict[str, Path], bool]]:
    """Each spec once (its first deck): the deck, the spec, its rule texts and whether they are its own."""
    seen: set[Path] = set()
    for deck in decks:
        spec = Path(deck.spec_path)
        if spec in seen:
            continue
        seen.add(spec)
        texts = rule_texts(spec, deck.game)
        own = all(path.parent.resolve() == spec.parent.resolve() for path in texts.values())
        yield deck, spec, texts, own


def set_rulebooks(spec: Path, langs: Sequence[str], paper: str, booklet: bool, own: bool,
                  ) -> list[tuple[str, Rulebook | None, Rulebook | None, BuildError | None]]:
    """A spec's rulebooks in ``langs``: per language its book, its booklet (with ``booklet``) or the
    error that stopped it. The first error ends the list when the texts are the spec's ``own``."""
    from printkit.spec import default_deck
    from printkit.decks import load_all_variants

    # Every book of the spec reads the same decks, so a card in their figures is laid out once.
    variants = load_all_variants(spec) if langs else []
    front = remembered_fronts(default_deck(variants)) if variants else None
    books = []
    for lang in langs:
        try:
            result = render_rulebook(spec, lang, paper, variants=variants, front=front)
            booklet_result = (render_rulebook(spec, lang, paper, booklet=True, variants=variants, front=front)
                              if booklet else None)
        except BuildError as exc:
            books.append((lang, None, None, exc))
            if own:
                break
            continue
        books.append((lang, result, booklet_result, None))
    return books


def _folder(deck: Deck) -> str:
    from printkit.outputs import deck_part

    return deck_part(deck.deck_id)


def _write(ctx, relative: str, result: Rulebook, kind: str, deck: Deck, lang: str):
    return ctx.write(relative, result.data, kind=kind, deck=deck, paper=result.paper, pages=result.pages,
                     lang=lang)
