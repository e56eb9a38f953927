"""`printkit check`: expand every variant of a spec, count its cards, compare with what it expects."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from printkit.deck import Deck, count_cards
from printkit.errors import Errors, error_line
from printkit.expected import ComponentReport, at, component_reports, counted_attributes, expected_of, located_mismatches
from printkit.paper import SHEET_PAPERS
from printkit.spec import LoadedSpec, load_spec
from printkit.decks import expand_all
from printkit.spec.options import check_engine_options

if TYPE_CHECKING:
    from printkit.preflight import DeckFaces

# (deck) -> problems; the rule engines' playability check plugs in here.
PlayCheck = Callable[[Deck], list[str]]


GAMES_PER_PLAYER_COUNT = 3


def engine_play_check(deck: Deck) -> list[str]:
    """Seeded games by the deck's rule engine; no problems for a game printkit has no engine for."""
    from printkit.games import has_engine
    from printkit.rules.play import check_playable

    if not has_engine(deck.game):
        return []
    return check_playable(deck, games_per_count=GAMES_PER_PLAYER_COUNT)


def play_summary(deck: Deck) -> str | None:
    """What the rule check plays for this deck, e.g. ``3 seeded games each for 2-8 players``."""
    from printkit.games import engine_for, has_engine

    if not has_engine(deck.game):
        return None
    engine = engine_for(deck.game)
    low, high = engine.min_players, engine.max_players
    players = f"{low} players" if low == high else f"{low}-{high} players"
    return f"{GAMES_PER_PLAYER_COUNT} seeded games each for {players} by the {deck.game} engine"


def not_played(game: str) -> str | None:
    """Why no rule engine plays ``game`` (None when one does), with the engine it likely means."""
    from printkit.games import engine_names, has_engine
    from printkit.spec.fields import close_key

    if has_engine(game):
        return None
    engines = engine_names()
    reason = f"printkit has no rule engine for {game!r}; engines: {', '.join(engines)}"
    if game.lower() in engines:
        return reason + f"; did you mean {game.lower()!r}? (engine names are lower case)"
    hint = close_key(game.lower(), engines)
    return reason + (f"; did you mean {hint!r}?" if hint else "")


def names_engine_in_other_case(game: str) -> bool:
    """``Stack`` for ``stack``: a custom game would not take an engine's name, so this is a mistake."""
    from printkit.games import has_engine

    return not has_engine(game) and has_engine(game.lower())


@dataclass(frozen=True)
class DeckReport:
    """Counts of one deck variant compared with the spec's expectations."""

    deck: str
    variant: str | None
    total: int
    expected: int | None
    counts: dict[str, dict[str, int]]
    groups: dict[str, int]
    mismatches: tuple[str, ...]
    components: tuple[ComponentReport, ...] = ()
    problems: tuple[str, ...] = field(default=())
    played: str | None = None  # what the rule check played, when it ran
    not_played: str | None = None  # why no rule engine plays this game, when none does
    warnings: tuple[str, ...] = ()  # what the build would warn about the deck's spec (not a failure)
    mismatches_at: tuple[str, ...] = ()  # where the expect: of each mismatch is ("" when unknown)

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.problems and all(c.ok for c in self.components)

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "variant": self.variant,
            "total": self.total,
            "expected": self.expected,
            "ok": self.ok,
            "counts": self.counts,
            "groups": self.groups,
            "mismatches": list(self.mismatches),
            "mismatches_at": list(self.mismatches_at),
            "components": [
                {"name": c.name, "total": c.total, "expected": c.expected, "ok": c.ok, "at": c.at}
                for c in self.components
            ],
            "problems": list(self.problems),
            "played": self.played,
            "not_played": self.not_played,
            "warnings": list(self.warnings),
        }


def check_specs(paths: Sequence[Path], play_check: PlayCheck | None = None) -> tuple[list[DeckReport], Errors]:
    """The reports of the specs at ``paths`` that pass :func:`check_spec`, and the mistakes of the
    others, kept (not raised) so that the reports are said too. When every spec passes, two whose
    decks would share an output folder are the mistake a build of them all would refuse."""
    from printkit.pipeline.names import check_deck_folders

    errors = Errors()
    reports: list[DeckReport] = []
    decks: list[Deck] = []
    for path in paths:
        with errors.collecting():
            reports += check_spec(path, play_check, decks)
    if not errors.found:
        with errors.collecting():
            check_deck_folders(decks)
    return reports, errors


def check_spec(path, play_check: PlayCheck | None = None, decks_out: list[Deck] | None = None) -> list[DeckReport]:
    """One report per variant of the spec at ``path``, once everything a build of it would refuse
    is found not to be there (else an error, or a ManyErrors naming each, as the build names them).
    The decks checked are added to ``decks_out`` when given."""
    loaded = load_spec(path)
    check_engine_options(loaded)
    decks = list(expand_all(loaded))
    laid_out, rule_warnings = check_buildable(decks)
    reports = [check_deck(loaded, deck, play_check, faces=faces) for deck, faces in zip(decks, laid_out)]
    if decks_out is not None:
        decks_out += decks
    said = rule_warnings.get(Path(decks[0].spec_path), ()) if decks else ()
    if said:  # the rule texts' warnings are the spec's: said once, with its first deck, as a build says them
        reports[0] = dataclasses.replace(reports[0], warnings=reports[0].warnings + said)
    return reports


class _Unheard:
    """A build context for laying out faces whose warnings are not wanted (spec_warnings says them)."""

    def warn(self, deck: Deck, message: str, card=None) -> None:
        pass


def check_buildable(decks: Sequence[Deck], paper: str = "a4") -> tuple[list["DeckFaces"], dict[Path, tuple[str, ...]]]:
    """Run what a build runs before it draws (:func:`printkit.preflight.preflight`): every face
    laid out, every SVG drawn, every rule text of the spec's own resolved. The faces laid out,
    per deck (:func:`face_warnings` reads their warnings rather than laying them out again), and
    what the build would warn of about the rulebooks, by spec: its own texts' warnings when set,
    and each rulebook it would leave out because printkit's text does not fit the spec.

    Nothing is drawn, so a text that a cheap bound proves to fit its box is not set, nor a plain
    shape drawn (``proving``): the faces say every error and warning a build's would, but lack
    those ops."""
    from printkit.pipeline.faces import Faces
    from printkit.layout.geometry import paper_size
    from printkit.preflight import preflight

    laid_out = [Faces(deck, _Unheard(), proving=True) for deck in decks]
    faces_of = {id(deck): faces for deck, faces in zip(decks, laid_out)}
    said = preflight(decks, lambda deck: faces_of[id(deck)], paper_size(paper), every_rulebook=True,
                     rulebook_paper=paper)
    return laid_out, said


def check_deck(loaded: LoadedSpec, deck: Deck, play_check: PlayCheck | None = None, *,
               warnings: bool = True, faces: "DeckFaces | None" = None) -> DeckReport:
    """The deck's counts against its spec, its games played by ``play_check`` and (unless
    ``warnings`` is false: a build lays the faces out and warns by itself) its spec's warnings,
    read from ``faces`` when the deck's faces were laid out already (:func:`check_buildable`)."""
    # what the spec expects, as the deck was expanded with it (a deck made otherwise: read now)
    expected = deck.expected if deck.expected is not None else expected_of(loaded, deck.variant)
    counts = count_cards(deck.cards, counted_attributes(deck, expected))
    groups = deck.groups()
    problems = tuple(play_check(deck)) if play_check else ()
    if names_engine_in_other_case(deck.game):
        problems += (f"game {deck.game!r} is not played: engine names are lower case, "
                     f"write game: {deck.game.lower()}",)
    played = play_summary(deck) if play_check is engine_play_check else None
    located = tuple((text, at(deck.spec_path, line, column))
                    for text, line, column in located_mismatches(deck, expected, counts))
    return DeckReport(
        deck=deck.deck_id,
        variant=deck.variant,
        total=len(deck),
        expected=expected.counts.total if expected.counts else None,
        counts={attr: counts[attr] for attr in deck.count_by} if deck.count_by else counts,
        groups=groups,
        mismatches=tuple(text for text, _ in located),
        components=component_reports(deck, expected),
        problems=problems,
        played=played,
        not_played=not_played(deck.game),
        warnings=spec_warnings(deck, faces) + paper_warnings(deck) if warnings else (),
        mismatches_at=tuple(where for _, where in located),
    )


def paper_warnings(deck: Deck) -> tuple[str, ...]:
    """Each card size of the deck that fits only some of the sheet papers, at its size in the spec:
    the paper is a build option, so a build on the other one is refused (not ``check``)."""
    unfit = (deck.paper_error(paper, w, h) for w, h in deck.size_positions for paper in SHEET_PAPERS)
    return tuple(error_line(exc) for exc in unfit if exc is not None)


def spec_warnings(deck: Deck, faces: "DeckFaces | None" = None) -> tuple[str, ...]:
    """What ``printkit build`` would warn about the deck's spec itself (colour names no card
    reads), and the installed games' entry points that are skipped (one broken package does not
    stop a deck, but it is said)."""
    from printkit.games import registry_warnings
    from printkit.layout.templates import deck_warnings

    return deck_warnings(deck) + face_warnings(deck, faces) + registry_warnings()


def face_warnings(deck: Deck, laid_out: "DeckFaces | None" = None) -> tuple[str, ...]:
    """What laying out the cards a spec's layouts or the generic face draw says (text that does not
    fit or falls below the legibility floor, characters no font has), as a build says it: one line
    per kind of warning, naming the first card and how many more distinct cards share it.

    A game's own designs are left out: their text is sized by design, and laying out every card
    of every game would make ``check`` as slow as a build. Faces already laid out (``laid_out``,
    as a build lays them out) are read, not laid out again.
    """
    from printkit.pipeline.names import all_cards, card_key
    from printkit.pipeline.manifest import WarningLog
    from printkit.games import draws_front
    from printkit.layout import templates

    log = WarningLog()  # grouped as a build groups them
    seen: set[str] = set()
    for card in all_cards(deck):
        key = card_key(card)
        if key in seen or templates.is_page(card):
            continue
        seen.add(key)
        faces = []
        if card.layout is not None or not draws_front(deck.game, card):  # the generic face's too
            faces.append(laid_out.front(card) if laid_out is not None else templates.front(card, deck))
        if card.back_layout is not None:
            faces.append(laid_out.back(card) if laid_out is not None else templates.back(card, deck))
        for face in faces:
            for warning in face.warnings:
                log.add(warning, card)
    return tuple(log.lines())


def format_report(report: DeckReport) -> str:
    """A readable block: the headline, counts by attribute, groups, components and any problems."""
    title = report.deck + (f" ({report.variant})" if report.variant else "")
    expected = "—" if report.expected is None else str(report.expected)
    status = "ok" if report.ok else "FAILED"
    noun = "card" if report.total == 1 else "cards"  # a column of its own: the numbers stand one under another
    lines = [f"{title:<22} {report.total:>5} {noun:<5}   expected {expected:>5}   {status}"]
    rows = [("groups", report.groups), *report.counts.items()]
    for label, values in rows:
        cells = "  ".join(f"{value} {count}" for value, count in values.items()) or "(no card has it)"
        lines.append(f"  {label + ':':<10} {cells}")
    for comp in report.components:
        exp = "" if comp.expected is None else f" (expected {comp.expected})"
        mark = "" if comp.ok else "  MISMATCH" + (f" at {comp.at}" if comp.at else "")
        lines.append(f"  component {comp.name}: {comp.total}{exp}{mark}")
    lines += [f"  mismatch: {m}" + (f" ({where})" if where else "")
              for m, where in zip(report.mismatches, report.mismatches_at or [""] * len(report.mismatches))]
    if report.played:
        lines.append(f"  rules:     {report.played}: {'all finished, invariants intact' if not report.problems else 'FAILED'}")
    elif report.not_played:
        lines.append(f"  rules:     not played ({report.not_played})")
    lines += [f"  problem: {p}" for p in report.problems]
    lines += [f"  warning: {w}" for w in report.warnings]
    return "\n".join(lines)
