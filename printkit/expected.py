"""Expected counts: a deck's counts against its spec's ``expect:``, compared once here for
``printkit check``, which lists the mismatches and fails, and for a build or export, which warns.

The deck's ``expect:`` (or its variant's) gives its total, groups and counts by attribute; a
group's or component's own ``expect: {total: N}`` gives its number of cards. Each mismatch is
said at the ``expect:`` it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from printkit.deck import Deck, count_cards
from printkit.errors import SpecError

if TYPE_CHECKING:
    from printkit.spec import LoadedSpec
    from printkit.spec.models import ExpectSpec


class Own(NamedTuple):
    """A group's or component's own ``expect: {total: N}``: its name, N, and where the key is."""

    name: str
    total: int | None
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class ComponentReport:
    name: str
    total: int
    expected: int | None
    at: str = ""  # where its expect: is, e.g. "deck.yaml:7:28" ("" when unknown)

    @property
    def ok(self) -> bool:
        return self.expected is None or self.expected == self.total


@dataclass(frozen=True)
class Expected:
    """What a spec expects of one of its decks, and where its ``expect:`` is: the variant's own
    ``expect`` when it gives one, else the spec's (None: it expects nothing); each component's
    total, and the total of each of the variant's groups that gives one."""

    counts: "ExpectSpec | None" = None
    components: tuple[Own, ...] = ()
    line: int | None = None
    column: int | None = None
    groups: tuple[Own, ...] = ()


def expected_of(loaded: "LoadedSpec", variant: str | None) -> Expected:
    """The expectations of ``loaded``'s deck for ``variant``, at the ``expect:`` key that gives them."""
    spec = loaded.spec
    own = spec.variants[variant].expect if variant is not None else None
    where = ("variants", variant, "expect") if own is not None else ("expect",)
    counts = own if own is not None else spec.expect
    line, column = loaded.source.position(where, key=True) if counts is not None else (None, None)
    # a group or component only in some variants is counted in those alone
    components = tuple(_own(loaded, "components", index, group) for index, group in enumerate(spec.components)
                       if group.variants is None or variant in group.variants)
    groups = tuple(_own(loaded, "groups", index, group) for index, group in enumerate(spec.groups)
                   if group.expect is not None and group.expect.total is not None
                   and (group.variants is None or variant in group.variants))
    return Expected(counts, components, line, column, groups)


def _own(loaded: "LoadedSpec", kind: str, index: int, group) -> Own:
    """The total group ``index`` of ``kind`` (groups, components) expects, at its ``expect:`` key."""
    if group.expect is None:
        return Own(group.name, None)
    return Own(group.name, group.expect.total, *loaded.source.position((kind, index, "expect"), key=True))


def at(path, line: int | None, column: int | None) -> str:
    """``path:line:column`` of an ``expect:`` key (as much of it as is known); "" when its line is not."""
    return SpecError(path, line, column, "").located()[:-2] if line is not None else ""


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
    return tuple(ComponentReport(own.name, len(deck.components.get(own.name, ())), own.total,
                                 at(deck.spec_path, own.line, own.column))
                 for own in expected.components)


def located_mismatches(deck: Deck, expected: Expected,
                       counts: dict[str, dict[str, int]] | None = None) -> tuple[tuple[str, int | None, int | None], ...]:
    """Each count ``deck`` lacks of what its spec expects, with the line and column of the
    ``expect:`` that gives it: the deck's (or variant's) mismatches, then each group's own total
    (components are reported apart, :func:`component_reports`). ``counts`` as :func:`mismatches`."""
    return (tuple((text, expected.line, expected.column) for text in mismatches(deck, expected, counts))
            + tuple((text, own.line, own.column) for own, text in group_mismatches(deck, expected)))


def group_mismatches(deck: Deck, expected: Expected) -> tuple[tuple[Own, str], ...]:
    """Each group whose own ``expect: {total: N}`` is not its number of cards in ``deck``, with the
    mismatch as ``group c: expected 99, found 2``."""
    groups = deck.groups()
    return tuple((own, f"group {own.name}: expected {own.total}, found {groups.get(own.name, 0)}")
                 for own in expected.groups if groups.get(own.name, 0) != own.total)


def count_warnings(deck: Deck) -> tuple[str, ...]:
    """The lines a build or export of ``deck`` says when its counts are not those its spec expects:
    one at the deck's (or variant's) ``expect:`` with every mismatch of it, and one at each group's
    and component's own ``expect:`` that is not met; none when all match or nothing is known."""
    expected = deck.expected
    if expected is None:
        return ()
    said: dict[tuple[int | None, int | None], list[str]] = {}  # by the expect: that gives them
    for text, line, column in located_mismatches(deck, expected):
        said.setdefault((line, column), []).append(text)
    for own, c in zip(expected.components, component_reports(deck, expected)):
        if not c.ok:
            said.setdefault((own.line, own.column), []).append(f"component {c.name}: expected {c.expected}, "
                                                               f"found {c.total}")
    return tuple(SpecError(deck.spec_path, line, column,
                           f"the deck does not have the counts its expect: gives ({'; '.join(texts)}); "
                           "printkit check lists them and fails").located()
                 for (line, column), texts in said.items())
