"""A spec's ``layouts:`` and ``icons:`` compiled for drawing, and checked against its cards.

:func:`designed` gives an expanded deck (:mod:`printkit.spec.expand`) its spec's compiled layouts,
as every deck printkit loads gets them (:mod:`printkit.decks`). Everything a layout names is
checked then, so ``printkit check`` finds it:
layouts that do not exist or extend in a circle, placeholders naming no attribute of any card,
cards that lack an attribute an unguarded element needs, pictures and icons that are not there,
colours that are not colours. Each is one located error: at the layout's line, or at the card
(its spec entry or data row). Attributes no layout reads, and boxes that leave the safe zone or
stop short of the bleed, are warnings.
"""

from __future__ import annotations

import dataclasses
import re
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, Sequence

from printkit.deck import OWN_VALUES, Card, CardSize, Deck
from printkit import direction, draft
from printkit.errors import Errors, SpecError, error_line
from printkit.layout import design
from printkit.layout.anchors import Anchor
from printkit.layout.design import Element, Layout, LayoutError, Length, Resources
from printkit.layout.placeholders import ATTRIBUTES, LOOKUPS, Template, split_item
from printkit.layout.geometry import bleed_box, safe_box
from printkit.games import draws_front, icons as builtin_icons
from printkit.layout.icons import Icon, ImageIcon
from printkit.spec.fields import close_key, no_attribute as _no_attribute, unknown_name as _unknown
from printkit.spec.load import LoadedSpec
from printkit.spec.models import BOX_SUM_RE, AnchorSpec, ElementSpec, TableSpec
from printkit.memo import Memo
from printkit.spec.yamlread import PathKey
from printkit.units import parse_length_mm

if TYPE_CHECKING:
    from printkit.layout.table import Table

_ALIGN = {"left": "start", "center": "middle", "centre": "middle", "right": "end"}
# Attributes that identify or count a card rather than print on it: never "unread".
_NOT_PRINTED = {"id"}


@dataclass
class Compiled:
    """A spec's layouts and icons, and the pictures its cards' layouts name (each checked once per
    binding to the cards: :func:`bind`)."""

    layouts: dict[str, Layout]
    icons: dict[str, Icon]
    images: dict[str, Path] = field(default_factory=dict)  # a name as rendered -> its checked file
    # A name refused in a draft (printkit.draft) -> where it would be: drawn as a placeholder, and
    # checked again by the next build (a draft's tolerance never lets a later build pass it).
    drafted: dict[str, Path] = field(default_factory=dict)

    def resources(self, languages: tuple[str, ...], deck_name: str) -> Resources:
        """What the layouts draw with, for a deck whose rulebook is in ``languages`` ({_languages}):
        the deck's own, read as it expands, since a rule text may come or go while the spec stays;
        and the deck's name ({_deck_name})."""
        return Resources(icons=self.icons, image_path=self._image_path, languages=languages, deck_name=deck_name)

    def _image_path(self, name: str) -> Path:
        try:
            return self.images[name] if name in self.images else self.drafted[name]
        except KeyError:
            raise LayoutError(f"image {name!r} was not checked when the deck expanded") from None


_COMPILED = Memo("layouts compiled", entries=64)  # by the loaded spec (Memo.of)


def compiled(loaded: LoadedSpec, *, recheck: bool = False) -> Compiled:
    """The spec's layouts and icons, compiled once per loaded spec (every variant shares them).

    ``recheck`` (a new expansion of the spec): its icons' pictures are checked again, since one
    may have been saved since (``printkit watch`` reads a spec it has read before only once); a
    picture the check now refuses is refused at its line, as when the spec was first read."""
    # each icon's picture read again only if its file changed
    still = (lambda found: _icons(loaded) == found.icons) if recheck else None
    return _COMPILED.of(loaded, None, lambda: Compiled(_compile_layouts(loaded), _icons(loaded)), still)


def _icons(loaded: LoadedSpec) -> dict[str, Icon]:
    from printkit.spec.files import image_file as _image

    offered = builtin_icons(loaded.spec.game)  # an installed game's own only for a spec selecting it
    icons: dict[str, Icon] = dict(offered)
    for name, value in loaded.spec.icons.items():
        if "/" not in value and "." not in value:
            icon = offered.get(value)
            if icon is None:
                hint = close_key(value, offered)
                meant = f" (did you mean {hint!r}?)" if hint else ""
                raise loaded.source.error(("icons", name), f"{value!r} is neither a picture file (art/fire.svg) nor "
                                          f"a built-in icon{meant}; built-in: {', '.join(sorted(offered))}")
            icons[name] = icon
        else:
            icons[name] = ImageIcon(_image(loaded, value, ("icons", name)), shown=value)
    return icons


def _compile_layouts(loaded: LoadedSpec) -> dict[str, Layout]:
    from printkit.spec.files import card_attributes as _card_attributes

    specs = loaded.spec.layouts
    done: dict[str, Layout] = {}
    lookups = _lookups(loaded)
    known = _card_attributes(list(loaded.spec.groups) + list(loaded.spec.components)) | set(OWN_VALUES)

    def build(name: str, chain: tuple[str, ...]) -> Layout:
        if name in done:
            return done[name]
        spec = specs[name]
        elements: list[Element] = []
        if spec.extends is not None:
            if spec.extends not in specs:
                raise loaded.source.error(("layouts", name, "extends"), _unknown("layout", spec.extends, specs))
            if spec.extends in chain:
                circle = " -> ".join(chain[chain.index(spec.extends):] + (spec.extends,))
                raise loaded.source.error(("layouts", name, "extends"), f"layouts extend each other in a circle: {circle}")
            elements = list(build(spec.extends, chain + (spec.extends,)).elements)
        elements = _removed(loaded, name, spec.remove, spec.extends, elements)
        for key in spec.requires or ():
            if key not in known:
                raise loaded.source.error(("layouts", name, "requires", key), _no_attribute(key, known))
        own: set[str | None] = set()
        for index, element_spec in enumerate(spec.elements):
            path = ("layouts", name, "elements", index)
            if element_spec.name is not None and element_spec.name in own:
                raise loaded.source.error(path + ("name",), f"layout {name!r} has two elements named "
                                          f"{element_spec.name!r}; a name picks one element to replace in extends")
            own.add(element_spec.name)
            element = _element(loaded, element_spec, path, index)
            _check_reads(loaded, element, element_spec, path, known)
            same = next((i for i, e in enumerate(elements) if e.name is not None and e.name == element.name), None)
            anchor = element_spec.before or element_spec.after
            if anchor is not None:
                if same is not None:
                    del elements[same]  # a replacing element placed elsewhere moves there
                key = "before" if element_spec.before else "after"
                at = _placed(loaded, path + (key,), anchor, element.name, elements)
                elements.insert(at if key == "before" else at + 1, element)
            elif same is None:
                elements.append(element)
            else:
                elements[same] = element  # replaces the inherited element where it stood
        _check_anchors(loaded, name, elements)
        _check_clear_of(loaded, name, spec.elements, elements)
        inherited = done[spec.extends].requires if spec.extends is not None else None
        done[name] = Layout(name, tuple(elements), lookups, spec.requires if spec.requires is not None else inherited)
        return done[name]

    for name in specs:
        build(name, (name,))
    return done


def _lookups(loaded: LoadedSpec) -> dict[str, dict[str, str]]:
    """The spec's lookups with every entry as the text a placeholder prints (``true`` for True)."""
    return {name: {str(key): ("true" if value else "false") if isinstance(value, bool) else str(value)
                   for key, value in entries.items()}
            for name, entries in loaded.spec.lookups.items()}


def _template(loaded: LoadedSpec, value: object, path: PathKey) -> Template | None:
    """``value``, written at ``path``, parsed as placeholders (None if not written); a mistake in it, or
    a lookup the spec lacks, is an error there. Every template a layout holds is read here, a table's too."""
    if value is None:
        return None
    try:
        parsed = Template.parse(str(value))
    except LayoutError as exc:
        raise loaded.source.error(path, str(exc)) from None
    _check_lookups(loaded, parsed, path)
    return parsed


def _check_lookups(loaded: LoadedSpec, template: Template, path: PathKey) -> None:
    """A placeholder looking a value up in a lookup the spec's ``lookups:`` lacks is a located error."""
    for placeholder in template.placeholders:
        if placeholder.lookup is not None and placeholder.lookup not in loaded.spec.lookups:
            raise loaded.source.error(path, _unknown("lookup", placeholder.lookup, loaded.spec.lookups,
                                                     "the spec has no lookups: (add lookups: {NAME: {KEY: VALUE}})"))


def _removed(loaded: LoadedSpec, layout: str, names: Sequence[str], extends: str | None,
             elements: list[Element]) -> list[Element]:
    """``elements`` (inherited) without the ones ``remove:`` names; an unknown name is an error."""
    for i, name in enumerate(names):
        path = ("layouts", layout, "remove", i)
        if extends is None:
            raise loaded.source.error(path, f"layout {layout!r} extends no layout, so it has no element {name!r} "
                                            "to remove (add extends: LAYOUT, or leave the element out)")
        at = next((j for j, e in enumerate(elements) if e.name == name), None)
        if at is None:
            raise loaded.source.error(path, _unknown(f"element of layout {extends!r}", name, _names(elements),
                                                     "no element has a name"))
        del elements[at]
    return elements


def _placed(loaded: LoadedSpec, path: PathKey, anchor: str, own: str | None, elements: Sequence[Element]) -> int:
    """Where the element ``anchor`` names stands in ``elements`` (before/after places by it)."""
    if anchor == own:
        raise loaded.source.error(path, f"element {own!r} cannot be placed next to itself")
    at = next((j for j, e in enumerate(elements) if e.name == anchor), None)
    if at is None:
        raise loaded.source.error(path, _unknown("element", anchor, _names(elements), "no element has a name"))
    return at


def _names(elements: Iterable[Element]) -> list[str]:
    return [e.name for e in elements if e.name is not None]


def _element(loaded: LoadedSpec, spec: ElementSpec, path: PathKey, index: int) -> Element:
    from printkit.spec.files import font_file as _font

    def template(key: str) -> Template | None:
        return _template(loaded, getattr(spec, key), path + (key,))

    def length(key: str) -> Length:
        value = getattr(spec, key)
        if isinstance(value, str) and BOX_SUM_RE.fullmatch(value):
            summed = _sum_length(value)
            if key in ("width", "height") and summed.value < 0:
                raise loaded.source.error(path + (key,), f"{key} cannot be negative, got {value!r}")
            return summed
        text = str(value).strip()
        negative = text.startswith("-")
        text = text.lstrip("+-").strip()
        if text.endswith(SHORT):
            if key in ("width", "height") and negative:
                raise loaded.source.error(path + (key,), f"{key} cannot be negative, got {value!r}")
            return Length(0.0, from_end=negative, short_pct=float(text[:-len(SHORT)]))
        percent = text.endswith("%")
        number = float(text[:-1]) if percent else parse_length_mm(text if isinstance(value, str) else float(text))
        if key in ("width", "height") and negative:
            raise loaded.source.error(path + (key,), f"{key} cannot be negative, got {value!r}")
        return Length(number, percent, from_end=negative)

    line, column = loaded.source.position(path)
    label = repr(spec.name) if spec.name else f"{index + 1} ({spec.kind})"
    size, size_pct = _text_size(loaded, spec.size, path + ("size",), 4.0)
    minimum, min_pct = _text_size(loaded, spec.min_size, path + ("min_size",), None)
    if minimum is not None and size_pct is None and minimum > size:
        raise loaded.source.error(path + ("min_size",), f"min_size {minimum:g} mm is more than the size, {size:g} mm")
    if min_pct is not None and size_pct is not None and min_pct > size_pct:
        raise loaded.source.error(path + ("min_size",), f"min_size {min_pct:g}% is more than the size, {size_pct:g}%")
    floor = parse_length_mm(spec.legibility_floor) if spec.legibility_floor is not None else None
    if floor is not None and not floor > 0:
        raise loaded.source.error(path + ("legibility_floor",), "legibility_floor is the size below which this "
                                  f"text is a warning; give a size such as 4.5pt, not {spec.legibility_floor!r}")
    as_list = lambda v: () if v is None else ((v,) if isinstance(v, str) else tuple(v))  # noqa: E731
    radius, spacing = _mm_or_short(spec.radius), _mm_or_short(spec.spacing)
    table = _table(loaded, spec.table, path + ("table",)) if spec.table is not None else None
    # The values in which the layout itself may write a mistake, whose place _bind_card names.
    written = [(key,) for key in _WRITTEN if getattr(spec, key) is not None]
    written += [("table",) + at for at, _ in table.colors_at] if table is not None else []
    return Element(
        kind=spec.kind, label=label, name=spec.name,
        x=length("x"), y=length("y"), width=length("width"), height=length("height"), frame=spec.frame,
        when=spec.when, when_has=as_list(spec.when_has), when_lacks=as_list(spec.when_lacks),
        text=template("text"), image=template("image"), icon=template("icon"),
        font=_font(loaded, spec.font, path + ("font",)) if spec.font else None,
        font_bold=_font(loaded, spec.font_bold, path + ("font_bold",)) if spec.font_bold else None,
        font_italic=_font(loaded, spec.font_italic, path + ("font_italic",)) if spec.font_italic else None,
        size_mm=size if size is not None else 4.0, min_size_mm=minimum, size_pct=size_pct, min_size_pct=min_pct,
        legibility_floor_mm=floor, padding_mm=parse_length_mm(spec.padding),
        wrap=spec.wrap, keep_words=spec.keep_words, markup=spec.markup, plate=spec.plate, bold=spec.bold, italic=spec.italic, color=template("color"),
        align=_ALIGN[spec.align], valign=spec.valign, line_spacing=float(spec.line_spacing),
        paragraph_spacing=float(spec.paragraph_spacing), rotate=spec.rotate,
        both_ends=spec.both_ends,
        fit=spec.fit, fill=template("fill"), stroke=template("stroke"),
        stroke_width_mm=parse_length_mm(spec.stroke_width), radius_mm=radius[0],
        radius_short_pct=radius[1], spacing_mm=spacing[0], spacing_short_pct=spacing[1],
        border_mm=parse_length_mm(spec.border),
        clear_of=as_list(spec.clear_of), when_drawn=as_list(spec.when_drawn),
        unless_repeats=as_list(spec.unless_repeats),
        anchor=_anchor(loaded, spec.anchor, path + ("anchor",)),
        table=table,
        source=f"{loaded.path}:{line}:{column}" if line else None,
        labels=_labels(spec.label),
        written=tuple((at, _written_at(loaded, path + at)) for at in written),
        written_in=path[1],
    )


# An element's values that are checked against every card it draws (Element.written).
_WRITTEN = ("image", "icon", "text", "color", "fill", "stroke")


def _written_at(loaded: LoadedSpec, path: PathKey) -> str:
    """``spec.yaml:LINE:COLUMN`` of the value at ``path`` (the spec alone if it has no place)."""
    line, column = loaded.source.position(path)
    return f"{loaded.path}:{line}:{column}" if line else str(loaded.path)


def _anchor(loaded: LoadedSpec, spec: AnchorSpec | None, path: PathKey) -> Anchor | None:
    """An element's ``anchor:`` compiled, with where its ``to`` is written (for :func:`_check_anchors`)."""
    if spec is None:
        return None
    line, column = loaded.source.position(path + ("to",))
    return Anchor(spec.to, "center" if spec.x == "centre" else spec.x, spec.y, parse_length_mm(spec.gap),
                  source=f"{loaded.path}:{line}:{column}" if line else None)


def _check_clear_of(loaded: LoadedSpec, layout: str, specs: Sequence[ElementSpec], elements: Sequence[Element]) -> None:
    """Each name an element of ``layout`` is ``clear_of``, ``when_drawn`` or ``unless_repeats`` names is an
    element drawn before it (for ``unless_repeats`` a text); otherwise one error at that key."""
    order = [e.name for e in elements]
    for index, spec in enumerate(specs):
        for key in ("clear_of", "when_drawn", "unless_repeats"):
            _check_before(loaded, layout, index, spec, key, order, elements)


def _check_before(loaded: LoadedSpec, layout: str, index: int, spec: ElementSpec, key: str,
                  order: Sequence[str | None], elements: Sequence[Element]) -> None:
    value = getattr(spec, key)
    names = () if value is None else (value,) if isinstance(value, str) else value
    at = order.index(spec.name) if spec.name is not None and spec.name in order else len(order)
    for other in names:
        problem = _not_before(other, spec.name, at, elements, itself="name itself", unset="placed",
                              text_only="a text repeats only a text" if key == "unless_repeats" else None)
        if problem is not None:
            raise loaded.source.error(("layouts", layout, "elements", index, key),
                                      f"layout {layout!r}: {key}: {problem}")


def _check_anchors(loaded: LoadedSpec, layout: str, elements: Sequence[Element]) -> None:
    """Every anchored element of ``layout`` (its own and inherited) names a text element drawn
    before it; otherwise one error at the anchor's ``to``."""
    for index, element in enumerate(elements):
        anchor = element.anchor
        if anchor is None:
            continue
        problem = _not_before(anchor.to, element.name, index, elements, itself="be anchored to itself", unset="set",
                              text_only="an anchor places a box by where a text element is set",
                              move=f" (or, in a layout that extends another, write after: {anchor.to})")
        if problem is not None:
            raise at_source(anchor.source or str(loaded.path),
                            f"layout {layout!r}, element {element.label}: anchor: {problem}")


def _not_before(name: str, own: str | None, at: int, elements: Sequence[Element], *, itself: str, unset: str,
                text_only: str | None = None, move: str = "") -> str | None:
    """What is wrong with ``name``, written in the element at ``at`` in ``elements`` (named ``own``),
    as the name of an element drawn before it (a text element when ``text_only`` says why it must
    be); None if nothing. ``itself``, ``unset`` and ``move`` word the problem for what names it."""
    found = next((j for j, e in enumerate(elements) if e.name == name), None)
    if name == own:
        return f"element {name!r} cannot {itself}"
    if found is None:
        return _unknown("element", name, _names(elements), "no element has a name")
    kind = elements[found].kind
    if text_only is not None and kind != "text":
        return f"{name!r} is {'an' if kind[0] in 'aeiou' else 'a'} {kind} element; {text_only}"
    if found > at:
        return (f"{name!r} is drawn after this element, so it is not {unset} yet; put the element after it "
                f"in the list{move}")
    return None


# The unit of a share of the card's shorter side (trim): "8%short".
SHORT = "%short"


def _mm_or_short(value: str | int | float) -> tuple[float, float]:
    """A radius or spacing as (millimetres, percentage of the card's shorter side): one is 0."""
    if isinstance(value, str) and value.strip().endswith(SHORT):
        return 0.0, float(value.strip()[:-len(SHORT)])
    return parse_length_mm(value), 0.0


def _sum_length(text: str) -> Length:
    """``P% + L`` or ``P% - L``: a percentage of the frame's side, more or less a length, another
    percentage (``0% - 1.5%`` starts before the frame's edge) or a share of the card's shorter side
    (``50% - 30%short``)."""
    percent, sign, rest = re.match(r"^\s*([0-9.]+)\s*%\s*([+-])\s*(.+?)\s*$", text).groups()
    if rest.endswith(SHORT):
        other = float(rest[:-len(SHORT)].strip())
        return Length(float(percent), True, short_pct=other if sign == "+" else -other)
    if rest.endswith("%"):
        other = float(rest[:-1].strip())
        return Length(float(percent) + (other if sign == "+" else -other), True)
    offset = parse_length_mm(rest.strip())
    return Length(float(percent), True, offset_mm=offset if sign == "+" else -offset)


def _table(loaded: LoadedSpec, spec: TableSpec, path: PathKey) -> Table:
    """A table element's ``table:`` compiled: lengths in mm, colours and counts as templates."""
    from printkit.layout.table import Column, Repeat, Row, Table  # loaded by the decks that have a table

    def size(value, at: PathKey) -> float:
        mm, pct = _text_size(loaded, value, at, None)
        if pct is not None:
            raise loaded.source.error(at, f"a table's text size is a length such as '3mm', not {value!r}")
        return mm

    def columns(specs, at: PathKey, shared: str) -> tuple[Column, ...]:
        out = []
        for i, column in enumerate(specs):
            where = at + (i,)
            width = str(column.width).strip()
            if width.startswith("-") or BOX_SUM_RE.fullmatch(width):
                raise loaded.source.error(where + ("width",), f"a column's width is a length or a percentage of "
                                                                f"{shared}, not {column.width!r}")
            percent = width.endswith("%")
            low, high = size(column.size, where + ("size",)), size(column.min_size, where + ("min_size",))
            if high > low:
                raise loaded.source.error(where + ("min_size",), f"min_size {high:g} mm is more than the size, "
                                                                   f"{low:g} mm")
            out.append(Column(float(width[:-1]) if percent else parse_length_mm(column.width), percent,
                              None if column.header is None else str(column.header), low, high, column.bold,
                              _template(loaded, column.color, where + ("color",)), _ALIGN[column.align],
                              parse_length_mm(column.inset), column.same_size))
        return tuple(out)

    repeat = None
    if spec.repeat is not None:
        at = path + ("repeat",)
        repeat = Repeat(_template(loaded, spec.repeat.count, at + ("count",)),
                        _template(loaded, spec.repeat.header, at + ("header",)),
                        _template(loaded, spec.repeat.fill, at + ("fill",)),
                        columns(spec.repeat.columns, at + ("columns",), "a repeated group's width"))
    rows = tuple(Row(tuple(_template(loaded, cell, path + ("rows", i, "cells", j))
                           for j, cell in enumerate(row.cells)),
                     _template(loaded, row.fill, path + ("rows", i, "fill")),
                     None if row.mark is None else str(row.mark)) for i, row in enumerate(spec.rows))
    fixed = columns(spec.columns, path + ("columns",), "the table's width")
    widest = max((len(r.cells) for r in rows), default=0)
    if widest > len(fixed):
        at = next(i for i, r in enumerate(rows) if len(r.cells) == widest)
        raise loaded.source.error(path + ("rows", at, "cells"), f"a row of {widest} cells in a table of "
                                                                  f"{len(fixed)} columns (a repeat's cells are "
                                                                  "left to write in)")
    if any(r.mark is not None for r in rows) and repeat is None:
        at = next(i for i, r in enumerate(rows) if r.mark is not None)
        raise loaded.source.error(path + ("rows", at, "mark"), "a mark goes in a repeat's first column, and the "
                                                                 "table has no repeat")
    return Table(fixed, repeat, parse_length_mm(spec.header_height), parse_length_mm(spec.subheader_height),
                 parse_length_mm(spec.row_height), rows,
                 _template(loaded, spec.rows_shown, path + ("rows_shown",)),
                 tuple(str(f) for f in spec.footer), _template(loaded, spec.footer_fill, path + ("footer_fill",)),
                 _template(loaded, spec.mark_fill, path + ("mark_fill",)),
                 header_size_mm=size(spec.header_size, path + ("header_size",)),
                 subheader_size_mm=size(spec.subheader_size, path + ("subheader_size",)),
                 label_size_mm=size(spec.label_size, path + ("label_size",)),
                 footer_size_mm=size(spec.footer_size, path + ("footer_size",)))


def _labels(label: str | dict[str, str] | None) -> tuple[tuple[str, str], ...]:
    """An element's ``label:`` as (language, label) pairs; a plain string is for every language ("")."""
    if label is None:
        return ()
    if isinstance(label, str):
        return (("", label),)
    return tuple(label.items())


def _text_size(loaded: LoadedSpec, value, path: PathKey, default: float | None) -> tuple[float | None, float | None]:
    """A text size as millimetres or as a percentage of the box's height (the other None)."""
    if value is None:
        return default, None
    if isinstance(value, str) and value.strip().endswith("%"):
        pct = float(value.strip()[:-1])
        # Above 100%: a size whose capitals (about 70% of it) fill the box, set with valign: caps.
        if not 1 <= pct <= 200:
            raise loaded.source.error(path, f"a text size of {pct:g}% of the box is not between 1% and 200%")
        return None, pct
    mm = parse_length_mm(value)
    if not 0.5 <= mm <= 100:
        raise loaded.source.error(path, f"a text size of {mm:g} mm is not between 0.5 and 100 mm")
    return mm, None


def _check_reads(loaded: LoadedSpec, element: Element, spec: ElementSpec, path: PathKey, known: set[str]) -> None:
    """A placeholder or condition naming an attribute no card or component has is a misspelling."""
    for attr in element.reads:
        if attr not in known:
            key = _key_reading(spec, attr)
            at = (key,) if key else _table_key_reading(spec.table, attr) if spec.table is not None else ()
            raise loaded.source.error(path + at, _no_attribute(attr, known))


def _key_reading(spec: ElementSpec, attr: str) -> str | None:
    for key in ("text", "image", "icon", "color", "fill", "stroke"):
        value = getattr(spec, key)
        if value is not None and ("{" + attr in str(value) or "[" + attr in str(value)):
            return key
    for key in ("when", "when_has", "when_lacks"):
        value = getattr(spec, key)
        if value is not None and attr in [split_item(v)[0] for v in ([value] if isinstance(value, str) else value)]:
            return key
    return None


def _table_key_reading(table: TableSpec, attr: str) -> PathKey:
    """Where in a table element's ``table:`` the placeholder ``{attr`` is written (() if nowhere)."""
    reads = lambda value: value is not None and "{" + attr in str(value)  # noqa: E731
    places: list[tuple[PathKey, object]] = [(("rows_shown",), table.rows_shown), (("footer_fill",), table.footer_fill),
                                            (("mark_fill",), table.mark_fill)]
    if table.repeat is not None:
        places += [(("repeat", "count"), table.repeat.count), (("repeat", "fill"), table.repeat.fill),
                   (("repeat", "header"), table.repeat.header)]
        places += [(("repeat", "columns", i, "color"), c.color) for i, c in enumerate(table.repeat.columns)]
    places += [(("columns", i, "color"), c.color) for i, c in enumerate(table.columns)]
    places += [(("rows", i, "fill"), r.fill) for i, r in enumerate(table.rows)]
    places += [(("rows", i, "cells", j), c) for i, r in enumerate(table.rows) for j, c in enumerate(r.cells)]
    return next((("table",) + at for at, value in places if reads(value)), ())


def designed(loaded: LoadedSpec, deck: Deck) -> Deck:
    """``deck`` (expanded from ``loaded``) with the spec's layouts and icons compiled and checked
    against its cards, and the warnings they leave; a spec without any: ``deck`` as it is, its
    cards the generic face draws checked against it."""
    spec = loaded.spec
    if not (spec.layouts or spec.icons):
        bind(loaded, deck.all_cards(), deck.languages)  # the generic face's text names icons too
        return deck
    comp = compiled(loaded, recheck=True)
    cards = deck.all_cards()
    bind(loaded, cards, deck.languages)
    said = warnings(loaded, cards)
    return dataclasses.replace(deck, layouts=comp.layouts, resources=comp.resources(deck.languages, deck.name),
                               warnings=said)


# --- binding cards -----------------------------------------------------------------------------


def bind(loaded: LoadedSpec, cards: Sequence[Card], languages: tuple[str, ...]) -> None:
    """Check that every card can be drawn by its layouts (the deck's rulebook in ``languages``):
    attributes, pictures, icons, colours.

    Each distinct card is checked once; pictures are resolved and checked once per name (again
    at each binding: a picture saved since the last is checked as it is now). A card the generic
    face draws (no layout, and no face of its game's design) is checked against it: its text
    names icons as a layout's does.
    """
    game = loaded.spec.game
    generic = [_on_generic_front(c, game) for c in cards]
    if not any(c.layout or c.back_layout for c in cards) and not any(generic):
        return
    comp = compiled(loaded)
    seen: set[tuple] = set()
    refused: set[tuple] = set()  # values said already (see _bind_card)
    looked_at: set[str] = set()  # the pictures' names checked in this binding
    errors = Errors()  # each card's own mistakes are independent: one run names them all
    for card, on_generic in zip(cards, generic):
        if errors.full:
            break
        for side, name in (("front", card.layout), ("back", card.back_layout)):
            if name is not None:
                layout = comp.layouts[name]
            elif side == "front" and on_generic:
                layout = builtin_layout("generic")
            else:
                continue
            key = (name, card.group, repr(sorted(card.attrs.items())), card.art.colors.items().__repr__())
            if key in seen:
                continue
            seen.add(key)
            with errors.collecting():
                _bind_card(loaded, comp, layout, card, side, languages, refused, errors, looked_at)
    errors.raise_any()


def _on_generic_front(card: Card, game: str) -> bool:
    """Whether ``card`` (of ``game``) is drawn by the generic face: no layout of its own, not a whole
    page (a ``sheet``, which the generic ``page`` draws with no text of its own), and no face of
    its game's design."""
    return card.layout is None and card.get("sheet") is None and not draws_front(game, card)


def _bind_card(loaded: LoadedSpec, comp: Compiled, layout: Layout, card: Card, side: str,
               languages: tuple[str, ...], refused: set[tuple], errors: Errors, looked_at: set[str]) -> None:
    """Check ``card`` against ``layout`` (the deck's rulebook in ``languages``); a value in
    ``refused`` (element, key, value) was said already and is not said again: one error for a
    picture or icon many cards read, and for a mistake the layout writes itself (a picture, icon,
    colour, or text's icon, span colour or right-to-left letters), said where it is written.
    The card's first mistake is raised; the layout's own go to ``errors``, and the card is checked on."""
    from printkit.images import check_image
    from printkit.spec.paths import PathRefused, inside_folder

    values = {**design.own_values(card, languages, loaded.spec.name), ATTRIBUTES: "", LOOKUPS: layout.lookups}

    def fail(element: Element, message: str, key: PathKey | None = None, value: str = "",
             own: bool = False) -> SpecError:
        """``message`` at the card; with a ``key`` (in the element), said once for its ``value``, and
        where the layout writes it when the mistake is there (``own``), the same for every card."""
        if key is not None:
            refused.add((element.source, element.label, key, value))
            written = dict(element.written)
            if own and key in written:
                owned.append(at_source(written[key], f"layout {element.written_in!r}, element {element.label}: "
                                                     f"{message}"))
                return owned[-1]
        # A card from a data file is read by every spec naming the file: say which.
        spec = f" of {loaded.path}" if card.from_data else ""
        own_layout = comp.layouts.get(layout.name) is layout  # else the generic face (see bind)
        drawn_by = f"layout {layout.name!r} ({side})" if own_layout else "the generic face"
        return at_source(card.source or str(loaded.path), f"{card.short_label}: {drawn_by}"
                                                          f"{spec}, element {element.label}: {message}")

    def said(element: Element, key: PathKey, value: str) -> bool:
        return (element.source, element.label, key, value) in refused

    try:
        design.check_requires(layout, card)
    except LayoutError as exc:
        raise at_source(card.source or str(loaded.path), f"{card.short_label}: {exc}") from None
    owned: list[SpecError] = []  # the layout's own mistakes said (see fail)
    palette = design.palette(card)

    def check(element: Element) -> None:
        for template in element.templates:
            for placeholder in template.placeholders:
                if placeholder.choose(values) is None:
                    attr = placeholder.names[0] + (f"[{placeholder.index}]" if placeholder.index is not None else "")
                    names = " or ".join(repr(n) for n in placeholder.names)
                    if placeholder.index is not None:
                        names = f"{names} with an item {placeholder.index} (counted from 0)"
                    raise fail(element, f"the card has no attribute {names}; give it one, or add "
                                        f"'when_has: {attr}' to the element to draw it only for cards that have it")
        try:
            if element.image is not None:
                name = element.image.render(values)
                own = not element.image.placeholders
                if name not in looked_at and not said(element, ("image",), name):
                    looked_at.add(name)
                    try:
                        path = inside_folder(loaded.path.parent, name, "image")
                        check_image(path, LayoutError, shown=name)  # read again only if its file changed
                        comp.images[name] = path
                    except PathRefused as exc:  # a draft tolerates a missing picture, never one outside
                        comp.images.pop(name, None)  # checked before, refused now
                        if not exc.missing:
                            raise fail(element, str(exc), ("image",), name, own) from None
                        _draft_or_refuse(loaded, comp, name, fail(element, str(exc), ("image",), name, own))
                    except LayoutError as exc:
                        comp.images.pop(name, None)
                        _draft_or_refuse(loaded, comp, name, fail(element, str(exc), ("image",), name, own))
            if element.icon is not None:
                name = element.icon.render(values)
                try:
                    if not said(element, ("icon",), name):
                        icon = design.find_icon(name, comp.icons)
                        if element.stroke is not None:
                            design.outlined_icon(name, icon, "#000000")
                except LayoutError as exc:
                    raise fail(element, str(exc), ("icon",), name, not element.icon.placeholders) from None
            for key, template in _colors(element):
                try:
                    design.color_of(template, values, card)
                except LayoutError as exc:
                    if template.placeholders:
                        raise  # the card's value: said at the card
                    if not said(element, key, template.constant):
                        raise fail(element, str(exc), key, template.constant, own=True) from None
            if element.text is not None:
                escape = None if element.markup else design.escape_markup  # as drawn: no markup read
                problem = _text_problem(element.text.render(values, escape), comp.icons, palette,
                                        _written_in(element.text, values))
                if problem is not None:
                    # The layout's own mistake is there whatever the cards give: said once, where written.
                    written = element.text.marked(_MARK)
                    written = escape(written) if escape else written
                    if problem != _text_problem(written, comp.icons, palette, "the element's text"):
                        raise LayoutError(problem)
                    if not said(element, ("text",), written):
                        raise fail(element, problem, ("text",), written, own=True)
        except LayoutError as exc:
            raise fail(element, str(exc)) from None

    for element in layout.elements:
        if element.shown_for(card, languages):
            try:
                check(element)
            except SpecError as exc:
                if not any(exc is own for own in owned):
                    raise
                errors.add(exc)  # the layout's own mistake: the card's others are looked for still


# What a placeholder is in a layout's own text when it is checked apart from the cards: a character
# no markup reads and no name holds, which YAML cannot write, so it never joins the text around it.
_MARK = "\x00"


def _colors(element: Element) -> Iterator[tuple[PathKey, Template]]:
    """The element's colour templates, each with its key in the element (as in Element.written)."""
    for key in ("color", "fill", "stroke"):
        template = getattr(element, key)
        if template is not None:
            yield (key,), template
    if element.table is not None:
        for at, template in element.table.colors_at:
            yield ("table",) + at, template


def _text_problem(text: str, icons: Mapping[str, Icon], palette: Mapping[str, str], what: str) -> str | None:
    """Why ``text`` (markup) cannot be set on a card, or None: an icon or span colour it names
    that does not exist, or right-to-left letters (``what`` names what to write instead)."""
    try:
        _check_text_icons(text, icons, palette)
    except LayoutError as exc:
        return str(exc)
    return direction.refusal(text, what)


def _written_in(template: Template, values: Mapping[str, object]) -> str:
    """What to rewrite for a text ``template`` whose rendering is refused: the card's attribute
    that holds the right-to-left text, else the element's own text."""
    for placeholder in template.placeholders:
        name = placeholder.choose(values)
        if name is not None and direction.right_to_left(str(values[name])):
            return f"the card's {name!r}"
    return "the element's text"


def _draft_or_refuse(loaded: LoadedSpec, comp: Compiled, name: str, refused: SpecError) -> None:
    """A draft draws the refused picture ``name`` as a placeholder; anything else raises ``refused``."""
    where = loaded.path.parent / name
    if not draft.tolerated(where, error_line(refused)):
        raise refused
    comp.drafted[name] = where


def at_source(source: str, message: str) -> SpecError:
    """A SpecError at a card's source, ``FILE:LINE:COLUMN`` (a spec entry) or ``FILE:ROW`` (a data row)."""
    head, _, column = source.rpartition(":")
    path, _, line = head.rpartition(":")
    if path and line.isdigit() and column.isdigit():
        return SpecError(path, int(line), int(column), message)
    if head and column.isdigit():
        return SpecError(head, int(column), None, message)
    return SpecError(source, None, None, message)


def _check_text_icons(markup: str, icons: Mapping[str, Icon], palette: Mapping[str, str]) -> None:
    from printkit.layout.richtext import RichTextError, icon_names, span_colors

    try:
        names = icon_names(markup)
        span_colors(markup, palette)
    except RichTextError as exc:  # a span that cannot be set
        raise LayoutError(str(exc)) from None
    for name in names:
        if name not in icons:
            hint = close_key(name, icons)
            meant = f" (did you mean ':{hint}:'?)" if hint else ""
            own = sorted(n for n in icons if icons[n] is not builtin_icons().get(n))
            listed = (f"the spec's icons: {', '.join(own)}; " if own else "") + \
                f"built-in: {', '.join(sorted(builtin_icons()))}"
            raise LayoutError(f"unknown icon ':{name}:'{meant} ({listed}); add it under icons: in the spec, "
                              "or write \\: for a colon that is not an icon")


# --- warnings ----------------------------------------------------------------------------------


def warnings(loaded: LoadedSpec, cards: Sequence[Card]) -> tuple[str, ...]:
    """What a designer should look at: attributes no layout reads, boxes at odds with the cut."""
    drawn = [c for c in cards if c.layout or c.back_layout]
    if not drawn:
        return ()
    comp = compiled(loaded)
    out: list[str] = []
    counted = set(loaded.spec.count_by) | _NOT_PRINTED
    for expect in [loaded.spec.expect] + [v.expect for v in loaded.spec.variants.values()]:
        if expect is not None:
            counted |= set(expect.by)
    unread: dict[str, Card] = {}  # an attribute no layout reads -> the first card that gives it
    reads: dict[tuple, set[str]] = {}  # (layout, back layout) -> the attributes they read
    for card in drawn:
        read = reads.get((card.layout, card.back_layout))
        if read is None:
            read = reads[(card.layout, card.back_layout)] = set().union(
                *(comp.layouts[name].reads for name in (card.layout, card.back_layout) if name is not None))
        if ATTRIBUTES in read:
            continue  # a layout that lists the other attributes shows every one
        for attr in card.attrs:
            if attr not in read and attr not in counted:
                unread.setdefault(attr, card)
    if unread:
        from printkit.spec.data import COPIES_COLUMNS  # only to name what an unread attribute misspells

        # What each may misspell: a name the layouts read that no card gives, or the copies column.
        given = {attr for card in drawn for attr in card.attrs}
        meant = {name for read in reads.values() for name in read if name not in given} | set(COPIES_COLUMNS)

        def named(attr: str) -> str:
            hint = close_key(attr.lower(), meant)
            return f"{attr!r} (did you mean {hint!r}?)" if hint else repr(attr)

        names = ", ".join(named(a) for a in unread)
        verb = "is an attribute" if len(unread) == 1 else "are attributes"
        first = next(iter(unread.values())).source  # where the first of them is given
        out.append(f"{_at(first)}{names} {verb} of cards drawn by layouts that no layout of theirs reads, so "
                   f"{'it prints' if len(unread) == 1 else 'they print'} nowhere (a misspelling?)")
    boxes: dict[tuple[str, CardSize], None] = {}
    for card in drawn:
        for name in (card.layout, card.back_layout):
            if name is not None:
                boxes.setdefault((name, card.size))
    for name, size in boxes:
        out.extend(_box_warnings(comp.layouts[name], size))
    return tuple(out)


def _box_warnings(layout: Layout, size: CardSize) -> list[str]:
    said = []
    safe, bleed = safe_box(size), bleed_box(size)
    cards = f"{size.width_mm:g}x{size.height_mm:g} mm cards"
    eps = design.EDGE_EPS_MM
    for element in layout.elements:
        if element.anchor is not None:
            continue  # its box stands where its text is set: each card says it (design.anchored_warnings)
        box = design.footprint(element, element.box(size))  # where it prints, turned as drawn
        where = f"{_at(element.source)}layout {layout.name!r}, element {element.label}"
        if element.kind == "text":
            out = max(box.past(safe).values())
            if out > eps:
                said.append(f"{where}: the text box leaves the safe zone of {cards} by {out:.2f} mm; "
                            "a cut that wanders can take its text off")
        elif element.kind == "image":
            edges = [(box.x_mm, 0.0, bleed.x_mm, "left"), (box.y_mm, 0.0, bleed.y_mm, "top")]
            short = [side for start, trim, full, side in edges if start <= trim + eps and start > full + eps]
            if box.right_mm >= size.width_mm - eps and box.right_mm < bleed.right_mm - eps:
                short.append("right")
            if box.bottom_mm >= size.height_mm - eps and box.bottom_mm < bleed.bottom_mm - eps:
                short.append("bottom")
            if short:
                said.append(f"{where}: the picture reaches the cut on the {', '.join(short)} of {cards} but "
                            "stops short of the bleed; a white sliver may show (use frame: bleed)")
    return said


def _at(source: str | None) -> str:
    """A warning's opening ``FILE:LINE:COLUMN: `` (or ``FILE:ROW: ``) for what is written at ``source``."""
    return f"{source}: " if source else ""


# --- printkit's own layouts --------------------------------------------------------------------


def builtin_layout(name: str) -> Layout:
    """A layout printkit ships as a spec of its own (``printkit/layout/templates/<name>.yaml``)."""
    return shipped_layouts(Path(__file__).resolve().parent / "templates" / f"{name}.yaml")[name]


@functools.lru_cache(maxsize=None)
def shipped_layouts(path: Path) -> Mapping[str, Layout]:
    """The layouts of a spec printkit ships (the generic face, a game's design), compiled once.
    Its icons are not looked up: whoever draws it passes the icons (printkit's own, or the deck's
    game's), and its ``game:`` (``generic``) may be no game of printkit's, which would have every
    build that draws it read the installed games' entry points."""
    from printkit.spec.files import load_spec

    return _compile_layouts(load_spec(path))
