"""Expand a validated spec into concrete cards for one variant."""

from __future__ import annotations

import io
import itertools
import math
from pathlib import Path
from typing import Any, Iterable, Mapping

from printkit import fonts
from printkit.deck import Art, Card, CardSize, Deck, named_card_size_mm
from printkit.errors import SpecError
from printkit.spec.load import LoadedSpec
from printkit.spec.models import MAX_CARDS, ArtSpec, GroupSpec, SizeSpec
from printkit.safe_read import UnsafeFileError, read_limited
from printkit.spec.yamlread import PathKey
from printkit.units import parse_length_mm

MAX_IMAGE_PIXELS = 50_000_000
MAX_IMAGE_BYTES = 50_000_000


def variant_names(loaded: LoadedSpec) -> list[str | None]:
    """The spec's variants in file order (``[None]`` when it has none)."""
    return list(loaded.spec.variants) or [None]


def expand(loaded: LoadedSpec, variant: str | None = None) -> Deck:
    """The deck for ``variant`` (None: the default variant, or the only form of a deck without any)."""
    spec = loaded.spec
    _check_references(loaded)
    if variant is None and spec.variants:
        variant = spec.default_variant or next(iter(spec.variants))
    if variant is not None and variant not in spec.variants:
        where = ("variants",) if spec.variants else ()
        line, column = loaded.source.position(where, key=bool(spec.variants)) if where else (1, 1)
        raise SpecError(loaded.path, line or 1, column or 1, f"unknown variant {variant!r}{_known(spec.variants)}")
    variant_spec = spec.variants.get(variant) if variant else None

    base_size = _card_size(loaded, spec.card.size, ("card", "size"))
    deck_art = _resolve_art(loaded, Art(), spec.art, ("art",))
    excludes = [(m, ("variants", variant, "exclude", i)) for i, m in enumerate(variant_spec.exclude)] if variant_spec else []

    cards = _expand_groups(loaded, "groups", spec.groups, variant, deck_art, base_size, excludes)
    components: dict[str, tuple[Card, ...]] = {}
    for index, group in enumerate(spec.components):
        comp = _expand_groups(loaded, "components", [group], variant, deck_art, base_size, [], offset=index)
        components[group.name] = comp

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
    )


def _check_references(loaded: LoadedSpec) -> None:
    spec = loaded.spec
    if spec.default_variant is not None and spec.default_variant not in spec.variants:
        raise loaded.source.error(("default_variant",), f"unknown variant {spec.default_variant!r}{_known(spec.variants)}")
    for section, groups in (("groups", spec.groups), ("components", spec.components)):
        seen: dict[str, int] = {}
        for i, group in enumerate(groups):
            if group.name in seen:
                raise loaded.source.error((section, i, "name"), f"duplicate group name {group.name!r}")
            seen[group.name] = i
            for j, name in enumerate(group.variants or []):
                if name not in spec.variants:
                    raise loaded.source.error((section, i, "variants", j), f"unknown variant {name!r}{_known(spec.variants)}")
    for vname, vspec in spec.variants.items():
        for expect_path, expect in ((("variants", vname, "expect"), vspec.expect),):
            _check_expect_groups(loaded, expect_path, expect)
    _check_expect_groups(loaded, ("expect",), spec.expect)


def _check_expect_groups(loaded: LoadedSpec, path: PathKey, expect) -> None:
    if expect is None:
        return
    names = {g.name for g in loaded.spec.groups}
    for name in expect.groups:
        if name not in names:
            raise loaded.source.error(path + ("groups", name), f"expected count for unknown group {name!r}", key=True)


def _known(names: Iterable[str]) -> str:
    names = list(names)
    return f" (known: {', '.join(names)})" if names else " (this spec has no variants)"


def _card_size(loaded: LoadedSpec, size: str | SizeSpec, path: PathKey) -> CardSize:
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
    bleed = parse_length_mm(fmt.bleed)
    safe = parse_length_mm(fmt.safe)
    radius = parse_length_mm(fmt.corner_radius)
    if bleed > 20:
        raise loaded.source.error(("card", "bleed"), f"bleed {bleed:g} mm is more than 20 mm")
    if 2 * safe >= min(width, height):
        raise loaded.source.error(("card", "safe"), f"safe zone {safe:g} mm leaves no room on a {width:g}x{height:g} mm card")
    radius = min(radius, min(width, height) / 2)
    return CardSize(width, height, bleed, safe, radius, name)


def _expand_groups(
    loaded: LoadedSpec,
    section: str,
    groups: list[GroupSpec],
    variant: str | None,
    deck_art: Art,
    base_size: CardSize,
    variant_excludes: list[tuple[Mapping[str, Any], PathKey]],
    offset: int = 0,
) -> list[Card]:
    source = loaded.source
    cards: list[Card] = []
    used_excludes = [False] * len(variant_excludes)
    for gi, group in enumerate(groups):
        gpath: PathKey = (section, gi + offset)
        if group.variants is not None and variant not in group.variants:
            continue
        size = base_size if group.size is None else _card_size(loaded, group.size, gpath + ("size",))
        group_art = _resolve_art(loaded, deck_art, group.art, gpath + ("art",))
        prototypes = _prototypes(loaded, group, gpath)
        excluded_by_group = [False] * len(group.exclude)
        override_used = [False] * len(group.overrides)
        in_group = 0
        for index, attrs in enumerate(prototypes):
            line, column = source.position(gpath + (("cards", index) if group.cards is not None else ()))
            origin = f"{loaded.path}:{line}:{column}" if line else str(loaded.path)
            if any(_matches(m, attrs) and _mark(excluded_by_group, i) for i, m in enumerate(group.exclude)):
                continue
            if any(_matches(m, attrs) and _mark(used_excludes, i) for i, (m, _) in enumerate(variant_excludes)):
                continue
            copies = group.copies
            art = group_art
            for oi, override in enumerate(group.overrides):
                if _matches(override.match, attrs):
                    override_used[oi] = True
                    if override.copies is not None:
                        copies = override.copies
                    attrs = {**attrs, **_freeze_attrs(override.attrs)}
                    art = _resolve_art(loaded, art, override.art, gpath + ("overrides", oi, "art"))
            if len(cards) + copies > MAX_CARDS:
                raise source.error(gpath, f"the deck would have more than {MAX_CARDS} cards")
            for copy in range(1, copies + 1):
                in_group += 1
                uid = f"{group.name}-{in_group:03d}"
                cards.append(Card(uid=uid, group=group.name, attrs=attrs, art=art, size=size, copy=copy, source=origin))
        for i, used in enumerate(excluded_by_group):
            if not used:
                raise source.error(gpath + ("exclude", i), f"exclusion {dict(group.exclude[i])!r} matches no card in group {group.name!r}")
        for i, used in enumerate(override_used):
            if not used:
                raise source.error(gpath + ("overrides", i, "match"), f"override match {dict(group.overrides[i].match)!r} matches no card in group {group.name!r}")
    for i, used in enumerate(used_excludes):
        if not used:
            raise source.error(variant_excludes[i][1], f"exclusion {dict(variant_excludes[i][0])!r} matches no card")
    return cards


def _mark(flags: list[bool], index: int) -> bool:
    flags[index] = True
    return True


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
    assert group.cards is not None
    if len(group.cards) * max(group.copies, 1) > MAX_CARDS:
        raise loaded.source.error(gpath + ("cards",), f"{len(group.cards)} x {group.copies} cards; the limit is {MAX_CARDS}")
    return [{**base, **_freeze_attrs(card)} for card in group.cards]


def _matches(match: Mapping[str, Any], attrs: Mapping[str, Any]) -> bool:
    """A match selects cards whose attributes equal its values; a list means any of them.

    Against a list-valued attribute (e.g. minerals), a single value means "contains".
    """
    for key, wanted in match.items():
        if key not in attrs:
            return False
        have = attrs[key]
        options = wanted if isinstance(wanted, list) else [wanted]
        if isinstance(have, tuple):
            if not any((tuple(o) == have) if isinstance(o, list) else (o in have) for o in options):
                return False
        elif not any(_same(have, o) for o in options):
            return False
    return True


def _same(a: Any, b: Any) -> bool:
    # YAML's 7 and "7" name the same card value; True and 1 must not.
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b or str(a) == str(b)


def _resolve_art(loaded: LoadedSpec, parent: Art, spec: ArtSpec | None, path: PathKey) -> Art:
    if spec is None:
        return parent
    colors = {**parent.colors, **spec.colors}
    back = spec.back
    return Art(
        colors=colors,
        font=_font(loaded, spec.font, path + ("font",)) if spec.font else parent.font,
        font_bold=_font(loaded, spec.font_bold, path + ("font_bold",)) if spec.font_bold else parent.font_bold,
        background_image=_image(loaded, spec.background_image, path + ("background_image",)) if spec.background_image else parent.background_image,
        foreground_image=_image(loaded, spec.foreground_image, path + ("foreground_image",)) if spec.foreground_image else parent.foreground_image,
        back_image=_image(loaded, back.image, path + ("back", "image")) if back and back.image else parent.back_image,
        back_color=back.color if back and back.color else parent.back_color,
        back_label=back.label if back and back.label is not None else parent.back_label,
    )


def _inside_spec_folder(loaded: LoadedSpec, value: str, path: PathKey, what: str) -> Path:
    folder = loaded.path.resolve().parent
    candidate = Path(value)
    if candidate.is_absolute():
        raise loaded.source.error(path, f"{what} path {value!r} must be relative to the spec's folder")
    resolved = (folder / candidate).resolve()
    if not resolved.is_relative_to(folder):
        raise loaded.source.error(path, f"{what} path {value!r} leaves the spec's folder")
    if resolved.is_dir():
        raise loaded.source.error(path, f"{what} path {value!r} is a folder, not a file")
    if not resolved.is_file():
        raise loaded.source.error(path, f"{what} file {value!r} not found")
    return resolved


def _font(loaded: LoadedSpec, value: str, path: PathKey) -> Path:
    bundled = fonts.FONTS_DIR / value
    if "/" not in value and "\\" not in value and bundled.is_file():
        resolved = bundled
    else:
        resolved = _inside_spec_folder(loaded, value, path, "font")
    try:
        fonts.glyph_set(resolved)
    except fonts.FontError as exc:
        raise loaded.source.error(path, f"font {value!r} cannot be used: {exc}") from None
    return resolved


def _image(loaded: LoadedSpec, value: str, path: PathKey) -> Path:
    resolved = _inside_spec_folder(loaded, value, path, "image")
    check_image(resolved, lambda message: loaded.source.error(path, message), shown=value)
    return resolved


def check_image(path: Path, error, shown: str | None = None) -> None:
    """Refuse anything but a sane PNG or JPEG: not an image, corrupt, truncated or too many pixels.

    ``error(message)`` builds the exception to raise; ``shown`` is how the path is named in it.
    """
    from PIL import Image, UnidentifiedImageError

    name = shown or path.name
    try:
        data = read_limited(path, MAX_IMAGE_BYTES)
    except UnsafeFileError as exc:
        raise error(f"image {name!r} {exc}") from None
    except OSError as exc:
        raise error(f"image {name!r} cannot be read: {exc.strerror or exc}") from None
    try:
        with Image.open(io.BytesIO(data)) as img:
            if img.format not in ("PNG", "JPEG"):
                raise error(f"image {name!r} is {img.format}, not PNG or JPEG")
            width, height = img.size
            if width * height > MAX_IMAGE_PIXELS:
                raise error(f"image {name!r} is {width}x{height} pixels; the limit is {MAX_IMAGE_PIXELS} pixels")
            img.load()  # decodes fully: catches truncated and corrupt data that verify() lets through
    except SpecError:
        raise
    except UnidentifiedImageError:
        raise error(f"image {name!r} is not a PNG or JPEG image") from None
    except Image.DecompressionBombError:
        raise error(f"image {name!r} has too many pixels (limit {MAX_IMAGE_PIXELS})") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise error(f"image {name!r} cannot be read: {exc}") from None
