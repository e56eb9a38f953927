"""Expand a validated spec into concrete cards for one variant."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from printkit.deck import Art, Card, CardSize, Deck, MatchIndex, matches, named_card_size_mm
from printkit.errors import Errors, PrintkitError, SpecError
from printkit.expected import expected_of
from printkit.paper import SHEET_PAPERS, fits_on_paper, no_fit_message, paper_name
from printkit.spec.fields import no_attribute
from printkit.spec.files import card_attributes as _card_attributes, font_file as _font, image_file as _image
from printkit.spec.layout_names import check_layout_names
from printkit.spec.load import LoadedSpec
from printkit.spec.models import MAX_CARDS, ArtSpec, GroupSpec, SizeSpec, Spec
from printkit.memo import Memo
from printkit.spec.yamlread import PathKey
from printkit.units import parse_length_mm


# The card templates place text inside the safe zone; with 3 mm or less they cannot place a line
# at all, and this much keeps one legible. A 10 mm card, the smallest printkit takes, keeps it
# with the default 3 mm safe zone.
MIN_SAFE_AREA_MM = 4.0


# What one spec may ask printkit to do, beyond its size: a small spec can multiply its work.
# Cards (components included) summed over every variant: a deck at the card limit and its
# components, or several smaller variants (a build of 100,000 cards stays well within 2 GB).
MAX_VARIANT_CARDS = 120_000
MAX_DECK_TEXT = 20_000_000  # characters of text in one deck's cards (an alias repeats a long text)


def expand_all(loaded: LoadedSpec) -> Iterator[Deck]:
    """One Deck per variant, in file order, refusing a spec whose variants together hold more
    than MAX_VARIANT_CARDS cards (each variant is a deck to count, lay out and print)."""
    total = 0
    for name in variant_names(loaded):
        deck = expand(loaded, name)
        total += len(deck.all_cards())
        if total > MAX_VARIANT_CARDS:
            where = ("variants", name) if name is not None else ("groups",)
            raise loaded.source.error(where, f"the variants up to {name!r} make {total} cards to check and print; "
                                             f"the limit over all variants is {MAX_VARIANT_CARDS}", key=name is not None)
        yield deck


def _check_text(loaded: LoadedSpec, cards: Sequence[Card]) -> None:
    """Refuse a deck whose cards hold more than MAX_DECK_TEXT characters of text between them."""
    total = 0
    for card in cards:
        for value in card.attrs.values():
            if isinstance(value, str):
                total += len(value)
            elif isinstance(value, (list, tuple)):
                total += sum(len(v) for v in value if isinstance(v, str))
        if total > MAX_DECK_TEXT:
            line, column = _card_position(loaded, card)
            raise SpecError(loaded.path, line, column, f"the cards up to {card.uid!r} hold {total} characters of "
                                                       f"text; the limit for a deck is {MAX_DECK_TEXT}")


def _card_position(loaded: LoadedSpec, card: Card) -> tuple[int, int]:
    """Where ``card`` was made (its ``source``, ``file:LINE:COLUMN``), else the top of the spec."""
    try:
        _, line, column = (card.source or "").rsplit(":", 2)
        return int(line), int(column)
    except ValueError:
        return 1, 1


def variant_names(loaded: LoadedSpec) -> list[str | None]:
    """The spec's variants in file order (``[None]`` when it has none)."""
    return list(loaded.spec.variants) or [None]


def default_variant(spec: Spec) -> str | None:
    """The variant used when none is asked for: ``default_variant``, else the first in the file
    (None for a spec without variants). Rulebooks, ``export``, ``simulate`` and ``load_deck`` all ask here."""
    if not spec.variants:
        return None
    return spec.default_variant or next(iter(spec.variants))


def default_deck(decks: Sequence[Deck]) -> Deck:
    """Among one spec's decks (one per variant, as :func:`expand_all` makes them), its default variant's."""
    return next((deck for deck in decks if deck.is_default), decks[0])


def expand(loaded: LoadedSpec, variant: str | None = None) -> Deck:
    """The deck for ``variant`` (None: the default variant, or the only form of a deck without any)."""
    spec = loaded.spec
    _check_references(loaded)
    if variant is None:
        variant = default_variant(spec)
    if variant is not None and variant not in spec.variants:
        where = ("variants",) if spec.variants else ()
        line, column = loaded.source.position(where, key=bool(spec.variants)) if where else (1, 1)
        raise SpecError(loaded.path, line or 1, column or 1, f"unknown variant {variant!r}{_known(spec.variants)}")
    variant_spec = spec.variants.get(variant) if variant else None

    printed: dict[tuple[float, float], tuple[int | None, int | None]] = {}
    base_size = _card_size(loaded, spec.card.size, ("card", "size"), group=None, printed_at=printed)
    deck_art = _resolve_art(loaded, Art(), spec.art, ("art",))
    excludes = [(m, ("variants", variant, "exclude", i)) for i, m in enumerate(variant_spec.exclude)] if variant_spec else []

    layouts = (variant_spec.layout, variant_spec.back_layout) if variant_spec else (None, None)
    missed: list = []
    cards = _expand_groups(loaded, "groups", spec.groups, variant, deck_art, base_size, excludes, layouts=layouts,
                           missed=missed, printed_at=printed)
    components: dict[str, tuple[Card, ...]] = {}
    for index, group in enumerate(spec.components):
        comp = _expand_groups(loaded, "components", [group], variant, deck_art, base_size, [], offset=index,
                              layouts=layouts, missed=missed, printed_at=printed)
        components[group.name] = comp
    _check_overrides(loaded, variant, missed)
    if not cards:
        raise _no_cards(loaded, variant)
    every = cards + [c for group_cards in components.values() for c in group_cards]
    _check_text(loaded, every)
    _check_some_paper_holds_all(loaded, printed, every)
    _check_description(loaded, every)
    options: dict[str, Any] = dict(spec.options)
    if variant_spec:
        options.update(variant_spec.options)
    deck_id = loaded.path.stem
    return Deck(
        game=spec.game,
        name=spec.name,
        deck_id=deck_id,
        variant=variant,
        spec_path=loaded.path,
        size=base_size,
        art=deck_art,
        cards=tuple(cards),
        components=components,
        count_by=tuple(spec.count_by),
        options=options,
        names=dict(spec.names),
        author=spec.author or "",
        is_default=variant == default_variant(spec),
        languages=_rulebook_languages(loaded),
        description_attr=spec.export.description,
        size_positions=printed,
        name_position=loaded.source.position(("name",)),
        expected=expected_of(loaded, variant),
    )


def _rulebook_languages(loaded: LoadedSpec) -> tuple[str, ...]:
    """The languages the spec's rulebook is written in: its rule texts beside it
    (``<stem>.rules.<lang>.md``), else printkit's own texts for its game, as the rulebook takes them."""
    from printkit.spec.files import rule_texts

    return tuple(rule_texts(loaded.path, loaded.spec.game))


def _check_description(loaded: LoadedSpec, cards: list[Card]) -> None:
    """The attribute ``export: {description: ...}`` names must be one the cards have."""
    name = loaded.spec.export.description
    if name is None or any(name in card.attrs for card in cards):
        return
    known = {attr for card in cards for attr in card.attrs}
    raise loaded.source.error(("export", "description"), no_attribute(name, known))


def _check_references(loaded: LoadedSpec) -> None:
    spec = loaded.spec
    if spec.default_variant is not None and spec.default_variant not in spec.variants:
        raise loaded.source.error(("default_variant",), f"unknown variant {spec.default_variant!r}{_known(spec.variants)}")
    check_layout_names(loaded)  # also when loaded, with the data files; here for a spec loaded without them
    for section, groups in (("groups", spec.groups), ("components", spec.components)):
        seen: dict[str, int] = {}
        for i, group in enumerate(groups):
            if group.name in seen:
                raise loaded.source.error((section, i, "name"), f"duplicate group name {group.name!r}")
            seen[group.name] = i
            for j, name in enumerate(group.variants or []):
                if name not in spec.variants:
                    raise loaded.source.error((section, i, "variants", j), f"unknown variant {name!r}{_known(spec.variants)}")
    # An attribute counted or expected is checked against every card of every variant: one that
    # only some variants have is counted (as zero elsewhere); one no card has is a misspelling.
    attributes = _card_attributes(spec.groups)
    for i, name in enumerate(spec.count_by):
        if name not in attributes:
            raise loaded.source.error(("count_by", i), _no_attribute(name, attributes, spec.components))
    for vname, vspec in spec.variants.items():
        _check_expect(loaded, ("variants", vname, "expect"), vspec.expect, attributes)
    _check_expect(loaded, ("expect",), spec.expect, attributes)


def _check_expect(loaded: LoadedSpec, path: PathKey, expect, attributes: set[str]) -> None:
    if expect is None:
        return
    names = {g.name for g in loaded.spec.groups}
    for name in expect.groups:
        if name not in names:
            raise loaded.source.error(path + ("groups", name), f"expected count for unknown group {name!r}", key=True)
    for name in expect.by:
        if name not in attributes:
            raise loaded.source.error(path + ("by", name), _no_attribute(name, attributes, loaded.spec.components),
                                      key=True)


def _no_attribute(name: str, attributes: set[str], components: Iterable[GroupSpec] = ()) -> str:
    """What a count or match naming ``name``, which no card has, is told (see :func:`no_attribute`).

    An attribute only ``components`` have is named as theirs: counts are of the deck's cards.
    """
    owners = [g.name for g in components if name in _card_attributes([g])]
    if owners:
        return (f"only components ({', '.join(owners)}) have attribute {name!r}; "
                "counts are of the deck's cards, not its components")
    return no_attribute(name, attributes)


_YES_WORDS = {"yes", "on", "y"}
_YES_NO_WORDS = _YES_WORDS | {"no", "off", "n"}


def _unmatched(loaded: LoadedSpec, path: PathKey, match: Mapping[str, Any], message: str,
               attributes: set[str], cards: Iterable[Mapping[str, Any]] = ()):
    """The error for a match that selects no card: at an attribute no card has, if it names one,
    or with a hint when it asks for true/false where the cards hold a word such as 'yes'."""
    for name in match:
        if name not in attributes:
            return loaded.source.error(path + (name,), f"{message}: {_no_attribute(name, attributes)}", key=True)
    for name, wanted in match.items():
        if isinstance(wanted, bool):
            words = sorted({v for c in cards if isinstance(v := c.get(name), str) and v.lower() in _YES_NO_WORDS})
            if words:
                meant = next((w for w in words if (w.lower() in _YES_WORDS) == wanted), words[0])
                return loaded.source.error(path + (name,), (
                    f"{message}: the cards' {name!r} is the text {meant!r}, not {str(wanted).lower()} "
                    f"(only true and false are yes/no values): match {meant!r}, or write true/false on the cards"),
                    key=True)
    return loaded.source.error(path, message)


def _no_cards(loaded: LoadedSpec, variant: str | None) -> SpecError:
    """The error for a deck that would print no card, at its variant (or its groups)."""
    if variant is None:
        return loaded.source.error(("groups",), "the deck has no cards")
    if all(g.variants is not None and variant not in g.variants for g in loaded.spec.groups):
        why = " (every group is limited to other variants)"
    else:
        why = ""
    return loaded.source.error(("variants", variant), f"variant {variant!r} has no cards{why}", key=True)


def _known(names: Iterable[str]) -> str:
    names = list(names)
    return f" (known: {', '.join(names)})" if names else " (this spec has no variants)"


def _card_size(loaded: LoadedSpec, size: str | SizeSpec, path: PathKey, group: str | None,
               printed: bool = True, printed_at: dict | None = None) -> CardSize:
    """The size at ``path``: the deck's (``group`` None) or a group's, with the deck's bleed,
    safe zone and corner radius. A size that is ``printed`` on card sheets must fit a sheet paper and
    leave room inside its safe zone; its place in the spec goes in ``printed_at`` by (width, height)
    (see :attr:`Deck.size_positions`)."""
    fmt = loaded.spec.card
    if isinstance(size, str):
        try:
            width, height = named_card_size_mm(size)
        except ValueError as exc:
            raise loaded.source.error(path, str(exc)) from None
        name = size
    else:
        width, height = parse_length_mm(size.width), parse_length_mm(size.height)
        name = None
        if width < 10 or height < 10:
            raise loaded.source.error(path, f"card size {width:g}x{height:g} mm is too small (at least 10 mm a side)")
    if printed and not _fits_sheet_paper(width, height):
        raise loaded.source.error(path, no_fit_message(width, height))
    if printed and printed_at is not None:
        printed_at[(width, height)] = loaded.source.position(path)
    bleed = parse_length_mm(fmt.bleed)
    safe = parse_length_mm(fmt.safe)
    radius = parse_length_mm(fmt.corner_radius)
    shorter = min(width, height)
    cards = f"a {width:g}x{height:g} mm card" if group is None else f"the {width:g}x{height:g} mm cards of group {group!r}"
    if bleed > 20:
        raise loaded.source.error(("card", "bleed"), f"bleed {bleed:g} mm is more than 20 mm")
    if printed and shorter - 2 * safe < MIN_SAFE_AREA_MM - 1e-9:
        limit = (shorter - MIN_SAFE_AREA_MM) / 2
        raise loaded.source.error(("card", "safe"), f"safe zone {safe:g} mm leaves no room on {cards}: "
                                  f"at most {limit:g} mm keeps the {MIN_SAFE_AREA_MM:g} mm its text needs inside it")
    if group is None and radius > shorter / 2 + 1e-9:
        raise loaded.source.error(("card", "corner_radius"), f"corner radius {radius:g} mm is more than half the card's "
                                  f"shorter side: at most {shorter / 2:g} mm on {cards}")
    # The deck's corner radius on a smaller component (a token) rounds it as far as it goes.
    radius = min(radius, shorter / 2)
    return CardSize(width, height, bleed, safe, radius, name, min_text_mm=parse_length_mm(fmt.min_text_size))


def _fits_sheet_paper(width_mm: float, height_mm: float) -> bool:
    """Whether the build's imposition lays out one card of this trim size on some sheet paper
    (a gap between cards does not matter for whether one card fits)."""
    return any(fits_on_paper(width_mm, height_mm, name) for name in SHEET_PAPERS)


def _check_some_paper_holds_all(loaded: LoadedSpec, printed_at: Mapping[tuple[float, float], tuple[int | None, int | None]],
                                cards: Sequence[Card]) -> None:
    """Refuse cards of sizes that each fit a sheet paper but no paper holds all (every build would be
    refused), at the later size in the spec; ``printed_at`` is as :func:`_card_size` notes it."""
    laid_out = {(c.size.width_mm, c.size.height_mm) for c in cards if c.get("sheet") is None}
    missed = sorted(((line or 0, column or 0), paper, w, h) for (w, h), (line, column) in printed_at.items()
                    if (w, h) in laid_out for paper in SHEET_PAPERS if not fits_on_paper(w, h, paper))
    if {m[1] for m in missed} != set(SHEET_PAPERS):
        return
    _, paper, w, h = missed[-1]
    _, other, ow, oh = next(m for m in reversed(missed) if m[1] != paper)
    line, column = printed_at[(w, h)]
    raise SpecError(loaded.path, line, column,
                    f"no paper holds every card: a {w:g}x{h:g} mm card does not fit on {paper_name(paper)} paper "
                    f"and a {ow:g}x{oh:g} mm card of this deck does not fit on {paper_name(other)}; "
                    "make one of them smaller")


def _expand_groups(
    loaded: LoadedSpec,
    section: str,
    groups: list[GroupSpec],
    variant: str | None,
    deck_art: Art,
    base_size: CardSize,
    variant_excludes: list[tuple[Mapping[str, Any], PathKey]],
    offset: int = 0,
    layouts: tuple[str | None, str | None] = (None, None),
    missed: list | None = None,
    printed_at: dict | None = None,
) -> list[Card]:
    """The cards of ``groups`` in ``variant``; an override that selects none of them is added to ``missed``."""
    missed = [] if missed is None else missed
    source = loaded.source
    cards: list[Card] = []
    used_excludes = [False] * len(variant_excludes)
    errors = Errors()  # each group's own pictures and fonts: one run names every refused one
    for gi, group in enumerate(groups):
        gpath: PathKey = (section, gi + offset)
        if group.variants is not None and variant not in group.variants:
            continue
        size = base_size if group.size is None else _card_size(loaded, group.size, gpath + ("size",), group.name,
                                                              printed=False)
        inherited = deck_art
        if (size.width_mm, size.height_mm) != (base_size.width_mm, base_size.height_mm):
            # An overlay is made for the deck's card size: a component of another size (a token)
            # does not get it stretched onto it, unless it sets one of its own.
            inherited = dataclasses.replace(deck_art, foreground_image=None)
        try:
            group_art = _resolve_art(loaded, inherited, group.art, gpath + ("art",))
        except PrintkitError as exc:
            errors.add(exc)
            continue
        prototypes = _prototypes(loaded, group, gpath)
        # Whole-page components (``sheet: ...``) print on the build's paper, so a group's size is
        # judged (paper fit, safe zone) only once it makes a card that is not a page (below).
        first_of_group = len(cards)
        excluded_by_group = [False] * len(group.exclude)
        override_used = [False] * len(group.overrides)
        index_of_overrides = MatchIndex([override.match for override in group.overrides])
        in_group = 0
        rows = group.table.rows if group.table is not None else None
        for index, attrs in enumerate(prototypes):
            if rows is not None:  # a card from a data file names its row there
                origin = rows[index].where
            else:
                line, column = source.position(gpath + (("cards", index) if group.cards is not None else ()))
                origin = f"{loaded.path}:{line}:{column}" if line else str(loaded.path)
            if any(matches(m, attrs) and _mark(excluded_by_group, i) for i, m in enumerate(group.exclude)):
                continue
            if any(matches(m, attrs) and _mark(used_excludes, i) for i, (m, _) in enumerate(variant_excludes)):
                continue
            copies = group.copies if rows is None or rows[index].copies is None else rows[index].copies
            art = group_art
            front = group.layout or layouts[0]
            back = group.back_layout or layouts[1]
            for oi, override, attrs in _applied(group, index_of_overrides, attrs):
                override_used[oi] = True
                if override.copies is not None:
                    copies = override.copies
                art = _resolve_art(loaded, art, override.art, gpath + ("overrides", oi, "art"))
                front = override.layout or front
                back = override.back_layout or back
            if len(cards) + copies > MAX_CARDS:
                raise source.error(gpath, _over_limit(cards, group.name, copies))
            # A token's back is its front again, unless a back layout draws one.
            both_sides = group.face_on_both_sides or (group.role == "token" and back is None)
            role = group.role if group.role != "token" else None
            for copy in range(1, copies + 1):
                in_group += 1
                uid = f"{group.name}-{in_group:03d}"
                cards.append(Card(uid=uid, group=group.name, attrs=attrs, art=art, size=size, copy=copy, source=origin,
                                  layout=front, back_layout=back, face_on_both_sides=both_sides,
                                  from_data=rows is not None, role=role))
        if group.size is not None and any(c.get("sheet") is None for c in cards[first_of_group:]):
            # Refuses a size cards cannot print at, and notes where it is given for the papers it does not fit.
            _card_size(loaded, group.size, gpath + ("size",), group.name, printed_at=printed_at)
        for i, used in enumerate(excluded_by_group):
            if not used:
                match = group.exclude[i]
                raise _unmatched(loaded, gpath + ("exclude", i), match, f"exclusion {dict(match)!r} matches no card "
                                 f"in group {group.name!r}", _card_attributes([group]), prototypes)
        # Judged over every variant once all are known (see _check_overrides): a variant may
        # exclude the very cards an override is for.
        missed.extend((group, gpath, i, prototypes) for i, used in enumerate(override_used) if not used)
    errors.raise_any()  # before the variant's exclusions: a group left out above made no cards
    in_variant = [g for g in groups if g.variants is None or variant in g.variants]
    for i, used in enumerate(used_excludes):
        # A variant without groups has a plainer error than its exclusions matching nothing.
        if not used and in_variant:
            match, path = variant_excludes[i]
            raise _unmatched(loaded, path, match, f"exclusion {dict(match)!r} of variant {variant!r} matches no card",
                             _card_attributes(in_variant), [c.attrs for c in cards])
    return cards


def _check_overrides(loaded: LoadedSpec, variant: str | None, missed: list) -> None:
    """Refuse an override that selects no card in ``variant`` unless it selects one in another
    variant the group is in; the error names every variant it was tried in.

    What each variant's cards let each group's overrides select is worked out once per loaded
    spec (:data:`_SELECTED`), so judging every variant of a spec takes time linear in its
    variants, not in their square."""
    spec = loaded.spec
    known = _selected_for(loaded)
    for group, gpath, index, prototypes in missed:
        section = gpath[0]
        tried = [v for v in spec.variants if group.variants is None or v in group.variants] or [variant]

        def selects(other: str) -> set[int]:
            key = (section, group.name, other)
            if key not in known:
                if (section, group.name) not in known:  # what each prototype selects, any variant
                    known[(section, group.name)] = _overrides_selected(group, prototypes)
                chosen = known[(section, group.name)]
                excludes = spec.variants[other].exclude if section == "groups" else []
                known[key] = set().union(*(c for c, attrs in zip(chosen, prototypes)
                                           if not any(matches(m, attrs) for m in excludes)))
            return known[key]

        if any(index in selects(v) for v in tried if v != variant):
            continue
        match = group.overrides[index].match
        where = f" in variant{'s' if len(tried) > 1 else ''} {', '.join(map(repr, tried))}" if variant else ""
        raise _unmatched(loaded, gpath + ("overrides", index, "match"), match, f"override match {dict(match)!r} "
                         f"matches no card in group {group.name!r}{where}", _card_attributes([group]), prototypes)


# Per loaded spec (Memo.of), (section, group, variant) -> the indexes of the group's overrides that
# select a card the variant keeps.
_SELECTED = Memo("overrides selected", entries=64)


def _selected_for(loaded: LoadedSpec) -> dict[tuple, Any]:
    return _SELECTED.of(loaded, None, dict)


def _overrides_selected(group: GroupSpec, prototypes: Sequence[Mapping[str, Any]]) -> list[set[int]]:
    """For each prototype the group's own exclusions leave, the indexes of the overrides that
    select it (each override seeing the attributes earlier ones set, as expansion applies them);
    an empty set for one they exclude."""
    out: list[set[int]] = []
    index_of_overrides = MatchIndex([override.match for override in group.overrides])
    for attrs in prototypes:
        chosen: set[int] = set()
        if not any(matches(m, attrs) for m in group.exclude):
            chosen.update(index for index, _, _ in _applied(group, index_of_overrides, attrs))
        out.append(chosen)
    return out


def _applied(group: GroupSpec, index: MatchIndex, attrs: Mapping[str, Any]):
    """Each override of ``group`` that selects the card ``attrs``, in order, each seeing the
    attributes the ones before set: (its index, it, the card's attributes after it). Only the
    overrides ``index`` names as candidates are tried."""
    pending, position = index.candidates(attrs), 0
    while position < len(pending):
        number = pending[position]
        position += 1
        override = group.overrides[number]
        if matches(override.match, attrs):
            attrs = {**attrs, **_freeze_attrs(override.attrs)}
            yield number, override, attrs
            if index.keys.intersection(override.attrs):  # what later ones are filed under may change
                pending, position = index.candidates(attrs, number), 0


def _mark(flags: list[bool], index: int) -> bool:
    flags[index] = True
    return True


def _over_limit(cards: list[Card], group: str, copies: int) -> str:
    """Why the next card would pass the deck's limit: the running total, group by group."""
    so_far = Counter(card.group for card in cards)
    totals = f" ({', '.join(f'{name} {count:,}' for name, count in so_far.items())})" if so_far else ""
    return (f"the deck would have more than {MAX_CARDS:,} cards: {len(cards):,} so far{totals}, and the next card "
            f"of group {group!r} adds {copies:,}; split the deck into two specs or lower the copies")


def _freeze_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in attrs.items()}


def _prototypes(loaded: LoadedSpec, group: GroupSpec, gpath: PathKey) -> list[dict[str, Any]]:
    """One attribute dict per distinct card of the group, before copies."""
    base = _freeze_attrs(group.attrs)
    if group.generate is not None:
        total = math.prod(len(values) for values in group.generate.values())
        if total * max(group.copies, 1) > MAX_CARDS:
            raise loaded.source.error(gpath + ("generate",), f"generates {total} x {group.copies} cards; the limit is {MAX_CARDS}")
        keys = list(group.generate)
        return [{**base, **dict(zip(keys, combo))} for combo in itertools.product(*group.generate.values())]
    if group.combine is not None:
        combine = group.combine
        sizes = combine.size if isinstance(combine.size, list) else [combine.size]
        for si, size in enumerate(sizes):
            if not 1 <= size <= len(combine.of):
                spath = gpath + ("combine", "size") + ((si,) if isinstance(combine.size, list) else ())
                raise loaded.source.error(spath, f"combination size {size} must be between 1 and {len(combine.of)}")
        total = sum(math.comb(len(combine.of), size) for size in sizes)
        if total * max(group.copies, 1) > MAX_CARDS:
            raise loaded.source.error(gpath + ("combine",), f"combines to {total} x {group.copies} cards; the limit is {MAX_CARDS}")
        return [
            {**base, combine.attr: tuple(combo)}
            for size in sizes
            for combo in itertools.combinations(combine.of, size)
        ]
    if group.table is not None:
        rows = group.table.rows
        total = sum(group.copies if row.copies is None else row.copies for row in rows)
        if total > MAX_CARDS:
            raise loaded.source.error(gpath + ("data",), f"{group.data!r} makes {total} cards; the limit is {MAX_CARDS}")
        # Without group attributes a card reads its row's attributes (never changed): not a copy per card.
        return [{**base, **row.attrs} if base else row.attrs for row in rows]
    assert group.cards is not None
    if len(group.cards) * max(group.copies, 1) > MAX_CARDS:
        raise loaded.source.error(gpath + ("cards",), f"{len(group.cards)} x {group.copies} cards; the limit is {MAX_CARDS}")
    return [{**base, **_freeze_attrs(card)} for card in group.cards]


# An image key set to this removes the picture a wider level gave.
NO_IMAGE = "none"


def _resolve_art(loaded: LoadedSpec, parent: Art, spec: ArtSpec | None, path: PathKey) -> Art:
    """``parent``'s art with a level's own: colours merge by name; fonts and pictures are replaced
    (``none`` removes a picture); a ``back`` replaces the inherited back whole (colour, label and
    picture together), so a component's own back never mixes with the deck's."""
    if spec is None:
        return parent
    colors = {**parent.colors, **spec.colors}
    colors_at = dict(parent.colors_at)
    for name in spec.colors:
        line, column = loaded.source.position(path + ("colors", name), key=True)
        colors_at[name] = f"{loaded.path}:{line}:{column}" if line else str(loaded.path)

    errors = Errors()  # each font and picture of the level is said, not only the first refused

    def picture(value: str | None, inherited: Path | None, key: PathKey) -> Path | None:
        if value is None:
            return inherited
        with errors.collecting():
            return None if value == NO_IMAGE else _image(loaded, value, path + key)
        return None

    def font(value: str | None, inherited: Path | None, key: str) -> Path | None:
        if not value:
            return inherited
        with errors.collecting():
            return _font(loaded, value, path + (key,))
        return inherited

    back = spec.back
    art = Art(
        colors=colors,
        font=font(spec.font, parent.font, "font"),
        font_bold=font(spec.font_bold, parent.font_bold, "font_bold"),
        background_image=picture(spec.background_image, parent.background_image, ("background_image",)),
        foreground_image=picture(spec.foreground_image, parent.foreground_image, ("foreground_image",)),
        back_image=picture(back.image, None, ("back", "image")) if back else parent.back_image,
        back_color=back.color if back else parent.back_color,
        back_label=back.label if back else parent.back_label,
        colors_at=colors_at,
    )
    errors.raise_any()
    return art


