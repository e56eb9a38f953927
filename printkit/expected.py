"""Expected counts: a deck's counts against its spec's ``expect:``, compared once here for
``printkit check``, which lists the mismatches and fails, and for a build or export, which warns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from printkit.deck import Deck, count_cards
from printkit.errors import SpecError

if TYPE_CHECKING:
    from printkit.spec import LoadedSpec
    from printkit.spec.models import ExpectSpec


@dataclass(frozen=True)
class ComponentReport:
    name: str
    total: int
    expected: int | None

    @property
    def ok(self) -> bool:
        return self.expected is None or self.expected == self.total


@dataclass(frozen=True)
class Expected:
    """What a spec expects of one of its decks, and where its ``expect:`` is: the variant's own
    ``expect`` when it gives one, else the spec's (None: it expects nothing); each component's total."""

    counts: "ExpectSpec | None" = None
    components: tuple[tuple[str, int | None], ...] = ()
    line: int | None = None
    column: int | None = None


def expected_of(loaded: "LoadedSpec", variant: str | None) -> Expected:
    """The expectations of ``loaded``'s deck for ``variant``, at the ``expect:`` key that gives them."""
    spec = loaded.spec
    own = spec.variants[variant].expect if variant is not None else None
    where = ("variants", variant, "expect") if own is not None else ("expect",)
    counts = own if own is not None else spec.expect
    line, column = loaded.source.position(where, key=True) if counts is not None else (None, None)
    components = tuple((group.name, group.expect.total if group.expect else None) for group in spec.components)
    return Expected(counts, components, line, column)


def counted_attributes(deck: Deck, expected: Expected) -> list[str]:
    """The attributes counted for ``deck``: its ``count_by``, then those its ``expect`` counts by."""
    return list(dict.fromkeys([*deck.count_by, *(expected.counts.by if expected.counts else {})]))


def mismatches(deck: Deck, expected: Expected, counts: dict[str, dict[str, int]] | None = None) -> tuple[str, ...]:
    """Each expected total, group and count by value that ``deck`` does not have, as
    ``total: expected 10, found 9``. ``counts``: the deck's counts by :func:`counted_attributes`,
    when counted already."""
    expect = expected.counts
    if expect is None:
        return ()
    if counts is None:
        counts = count_cards(deck.cards, list(expect.by))
    groups = deck.groups()
    found: list[str] = []
    if expect.total is not None and expect.total != len(deck):
        found.append(f"total: expected {expect.total}, found {len(deck)}")
    for name, want in expect.groups.items():
        have = groups.get(name, 0)
        if have != want:
            found.append(f"group {name}: expected {want}, found {have}")
    for attr, wanted in expect.by.items():
        have_counts = counts.get(attr, {})
        for value in sorted(set(wanted) | set(have_counts), key=str):
            want, have = wanted.get(value, 0), have_counts.get(value, 0)
            if want != have:
                found.append(f"{attr}={value}: expected {want}, found {have}")
    return tuple(found)


def component_reports(deck: Deck, expected: Expected) -> tuple[ComponentReport, ...]:
    """Each component's pieces, with the total the spec expects of it."""
    return tuple(ComponentReport(name, len(deck.components.get(name, ())), want)
                 for name, want in expected.components)


def count_warning(deck: Deck) -> str | None:
    """One line for a build or export of ``deck`` whose counts are not those its spec expects: at
    the spec's ``expect:`` (when known), every mismatch; None when all match or nothing is known."""
    expected = deck.expected
    if expected is None:
        return None
    found = list(mismatches(deck, expected))
    found += [f"component {c.name}: expected {c.expected}, found {c.total}"
              for c in component_reports(deck, expected) if not c.ok]
    if not found:
        return None
    return SpecError(deck.spec_path, expected.line, expected.column,
                     f"the deck does not have the counts its expect: gives ({'; '.join(found)}); "
                     "printkit check lists them and fails").located()
