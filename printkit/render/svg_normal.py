"""SVG written in forms svglib misreads, rewritten in place to forms it reads as browsers do.

Each rewrite touches only what svglib would draw wrongly or drop, so art it already draws right
is left exactly as it was: the stylesheet's presentation properties applied to every element
whatever its place (with ``!important`` and custom properties), CSS colour names and colour
functions in any case (rgb channels clamped), percentage opacities, compact transform lists
(``translate(150-0)rotate(10)``) and ``transform-origin``, paint fallbacks (``url(#missing) #0a0``),
an ``<ellipse>`` with one radius, percentage radii, a clip path's own transform, nested ``<svg>``
viewports and ``<use>`` of a ``<symbol viewBox>`` as groups with their scaling and clip (an empty
viewport, or whatever a singular transform squashes flat, removed: it shows nothing), percentages
inside either read against its own viewport (a symbol's: its viewBox, as SVG 2 says),
``paint-order="stroke"`` as a group of the stroke then the fill, a shape's ``<pattern>`` fill as
copies of the pattern's tile clipped to the shape, and a colour that is not one left out, as
browsers leave it.

The rewrites run in time and memory linear in the checked tree: selector matching and ``var()``
expansion are bounded (:data:`MAX_SELECTOR_STEPS`, :data:`MAX_SUBSTITUTED`; past them, ImageError), and
so are pattern tiles (:data:`MAX_PATTERN_TILES`, :data:`MAX_PATTERN_ELEMENTS`; past them, a warning).
:func:`normalise` returns, located, what it found but could not draw as written.
"""

from __future__ import annotations

import math
import re
from collections import ChainMap

from printkit.errors import ImageError, SelectorTooCostly
from printkit.render.svg import (NUMBER, _multiply, at_line, inherited_property as _inherited_property,
                                 local_name as _local, own_property as _property, picture_placement,
                                 style_declarations)

_NUMBER_AT = re.compile(NUMBER)
_SEPARATOR = re.compile(r"\s*,?\s*")
_TRANSFORM_NAME = re.compile(r"[\s,]*(matrix|translate|scale|rotate|skewX|skewY)\s*\(\s*")
_ARGUMENTS = {"matrix": (6,), "translate": (1, 2), "scale": (1, 2), "rotate": (1, 3), "skewX": (1,), "skewY": (1,)}
_URL_PAINT = re.compile(r"""url\(\s*(['"]?)#([^'")\s]+)\1\s*\)\s*(.*)""", re.DOTALL)
_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,((?:[^()]|\([^()]*\))*))?\)")  # a fallback may be rgb(...)
_COLOUR_FUNCTION = re.compile(r"\s*(rgba?|hsla?)\(([^()]*)\)\s*", re.IGNORECASE)
_CHANNEL = re.compile(rf"({NUMBER})(%?)")
_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
LENGTH = re.compile(rf"\s*+({NUMBER})\s*+(px|pt|pc|mm|cm|in|%)?\s*+")  # possessive: linear time
_UNITS = {None: 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
MAX_SUBSTITUTED = 1_000_000  # characters the var() of a picture expand to, in all
# Elements a stylesheet's selectors may look at, in all, to match: `g g g g rect` over deep
# nesting, `:nth-of-type` over long runs of siblings, `:has()` look at many per element.
MAX_SELECTOR_STEPS = 2_000_000

_COLOURED = ("fill", "stroke", "stop-color", "color", "flood-color", "lighting-color")
_OPACITIES = ("opacity", "fill-opacity", "stroke-opacity", "stop-opacity")
_TRANSFORMS = ("transform", "gradientTransform", "patternTransform")
# The CSS properties SVG defines as presentation attributes: all a stylesheet rule may write onto
# an element. Geometry (x, width, ...), transform, href, id and class are not among them: browsers
# do not read a stylesheet's href, and the picture's size and links were checked as written.
_PRESENTATION = frozenset((
    "alignment-baseline", "baseline-shift", "clip", "clip-path", "clip-rule", "color", "color-interpolation",
    "color-interpolation-filters", "color-rendering", "cursor", "direction", "display", "dominant-baseline",
    "fill", "fill-opacity", "fill-rule", "filter", "flood-color", "flood-opacity", "font", "font-family",
    "font-size", "font-size-adjust", "font-stretch", "font-style", "font-variant", "font-weight",
    "glyph-orientation-horizontal", "glyph-orientation-vertical", "image-rendering", "isolation",
    "letter-spacing", "lighting-color", "marker", "marker-end", "marker-mid", "marker-start", "mask",
    "mix-blend-mode", "opacity", "overflow", "paint-order", "pointer-events", "shape-rendering", "stop-color",
    "stop-opacity", "stroke", "stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin",
    "stroke-miterlimit", "stroke-opacity", "stroke-width", "text-anchor", "text-decoration", "text-overflow",
    "text-rendering", "transform-origin", "unicode-bidi", "vector-effect", "visibility", "white-space",
    "word-spacing", "writing-mode"))
_ACROSS = ("x", "cx", "x1", "x2", "width", "rx")
_DOWN = ("y", "cy", "y1", "y2", "height", "ry")


def _at(element) -> str:
    return at_line(element.sourceline)


def _shown(value: str) -> str:
    return value if len(value) <= 40 else value[:37] + "..."


def parse_transform(text: str) -> list[tuple[str, list[str]]] | None:
    """An SVG transform list as (function, its numbers as written), read with SVG's number syntax
    (``1-20`` is two numbers, ``.5.5`` too); None when it is not one."""
    found, at = [], 0
    while True:
        name = _TRANSFORM_NAME.match(text, at)
        if name is None:
            return found if text[at:].strip(" \t\r\n,") == "" and (found or not text.strip()) else None
        at, numbers = name.end(), []
        while True:
            number = _NUMBER_AT.match(text, at)
            if number is None:
                break
            numbers.append(number.group())
            at = _SEPARATOR.match(text, number.end()).end()
            if text[number.end():at].strip() == "," and not _NUMBER_AT.match(text, at):
                return None  # a comma before the closing bracket
        if text[at:at + 1] != ")" or len(numbers) not in _ARGUMENTS[name.group(1)]:
            return None
        found.append((name.group(1), numbers))
        at += 1


def _written(transform: list[tuple[str, list[str]]]) -> str:
    return " ".join(f"{name}({' '.join(numbers)})" for name, numbers in transform)


def _length(value: str | None, percent_of: float, default: float | None = None) -> float | None:
    """A length in user units: a number, px and absolute units, or a percentage of ``percent_of``."""
    match = LENGTH.fullmatch(value) if value is not None else None
    if match is None:
        return default
    number = float(match.group(1))
    if not math.isfinite(number):
        return default
    return number / 100 * percent_of if match.group(2) == "%" else number * _UNITS[match.group(2)]


def _number_text(value: float) -> str:
    return repr(float(value))


def _edit_properties(element, edit) -> None:
    """Apply ``edit(name, value) -> new value or None`` to the element's presentation attributes
    and to its ``style`` declarations (the style rewritten only when one changes)."""
    for name, value in list(element.attrib.items()):
        if isinstance(name, str) and name != "style":
            new = edit(name, value)
            if new is not None and new != value:
                element.set(name, new)
    style = element.get("style")
    if style:
        declarations = style_declarations(style)
        changed = False
        for index, (name, value) in enumerate(declarations):
            new = edit(name, value)
            if new is not None and new != value:
                declarations[index] = (name, new)
                changed = True
        if changed:
            element.set("style", ";".join(f"{name}:{value}" for name, value in declarations))


def _drop_property(element, name: str) -> None:
    element.attrib.pop(name, None)
    declarations = style_declarations(element.get("style") or "")
    if any(key == name for key, _ in declarations):
        element.set("style", ";".join(f"{k}:{v}" for k, v in declarations if k != name))


def _bounded_wrapper(cssselect2):
    """cssselect2's element wrapper counting each element a selector looks at (across ancestors,
    siblings and children), past :data:`MAX_SELECTOR_STEPS` in all raising SelectorTooCostly."""

    class Steps(list):  # [count], shared by every wrapper of one tree
        def take(self, items):
            for item in items:
                self[0] += 1
                if self[0] > MAX_SELECTOR_STEPS:
                    raise SelectorTooCostly
                yield item

    class Children(list):  # an element's children, counted when a selector walks them
        def __init__(self, items, steps: Steps) -> None:
            super().__init__(items)
            self.steps = steps

        def __iter__(self):
            return self.steps.take(super().__iter__())

        def __getitem__(self, index):
            found = super().__getitem__(index)
            return Children(self.steps.take(found), self.steps) if isinstance(index, slice) else found

    class Bounded(cssselect2.ElementWrapper):
        def __init__(self, etree_element, parent, *args, **kwargs) -> None:
            self.steps = parent.steps if parent is not None else Steps([0])
            super().__init__(etree_element, parent, *args, **kwargs)

        @property
        def etree_children(self):
            if "_children" not in self.__dict__:
                self._children = Children((element for element in self.etree_element
                                           if isinstance(element.tag, str)), self.steps)
            return self._children

        @property
        def ancestors(self):  # walked, not kept as tuples (which grow as the square of the tree)
            return self.steps.take(self._chain("parent"))

        @property
        def previous_siblings(self):
            return self.steps.take(self._chain("previous"))

        def _chain(self, link: str):
            at = getattr(self, link)
            while at is not None:
                yield at
                at = getattr(at, link)

        def iter_children(self):
            return self.steps.take(super().iter_children())

    return Bounded


def _named(test, selector: str, where: str):
    """The selector's ``test``, its running past :data:`MAX_SELECTOR_STEPS` an ImageError naming it."""
    def run(element) -> bool:
        try:
            return test(element)
        except SelectorTooCostly:
            raise ImageError(f"has a CSS rule ({where}) whose selector {_shown(selector)!r} looks at more than "
                             f"{MAX_SELECTOR_STEPS:,} elements to match; write a simpler selector, such as a "
                             "class (.name)") from None
    return run


def _fold_stylesheet(root) -> None:
    """The ``<style>`` rules written onto every element they match (wherever the ``<style>`` is;
    ``!important`` over the ``style`` attribute), the ``<style>`` elements then removed: svglib
    applies a stylesheet only to elements after it, and drops ``!important`` declarations."""
    sheets = [element for element in root.iter() if _local(element.tag) == "style"]
    if not sheets:
        return
    import cssselect2
    import tinycss2

    matcher = cssselect2.Matcher()
    for sheet in sheets:
        for rule in tinycss2.parse_stylesheet(sheet.text or "", skip_comments=True, skip_whitespace=True):
            if rule.type != "qualified-rule":
                continue
            try:
                selectors = cssselect2.compile_selector_list(rule.prelude)
            except cssselect2.SelectorError:
                continue
            where = f"<style>{_at(sheet)}" if rule.source_line == 1 or not sheet.sourceline else \
                f"<style> at line {sheet.sourceline + rule.source_line - 1}"
            for selector in selectors:
                selector.test = _named(selector.test, tinycss2.serialize(rule.prelude).strip(), where)
            declarations = [(d.name if d.name.startswith("--") else d.lower_name, tinycss2.serialize(d.value).strip(),
                             d.important)
                            for d in tinycss2.parse_blocks_contents(rule.content, skip_comments=True,
                                                                     skip_whitespace=True)
                            if d.type == "declaration"]
            for selector in selectors:
                matcher.add_selector(selector, declarations)
    found = []
    try:
        for wrapper in _bounded_wrapper(cssselect2).from_xml_root(root).iter_subtree():
            matches = sorted((match for match in matcher.match(wrapper) if match[2] is None),  # no ::before
                             key=lambda m: (m[0], m[1]))  # weakest first
            if matches:
                found.append((wrapper.etree_element, [d for match in matches for d in match[3]]))
    except SelectorTooCostly:  # the walk itself took the last steps the selectors left
        raise ImageError(f"has CSS rules whose selectors look at more than {MAX_SELECTOR_STEPS:,} elements in all "
                         "to match; write simpler selectors, such as classes (.name)") from None
    for sheet in sheets:
        sheet.getparent().remove(sheet)
    for element, declarations in found:
        declarations = [d for d in declarations if d[0] in _PRESENTATION or d[0].startswith("--")]
        normal = {name: value for name, value, important in declarations if not important}
        important = {name: value for name, value, important in declarations if important}
        own = style_declarations(element.get("style") or "")
        custom = [(name, value) for name, value in {**normal, **important}.items() if name.startswith("--")]
        for name, value in {**normal, **important}.items():
            if not name.startswith("--"):  # a custom property: no attribute can hold it
                element.set(name, value)
        if custom or any(name in important for name, _ in own):
            # Custom properties (no attribute can hold them) go first in the style, which the
            # element's own declarations follow, and an !important one then overrides.
            # (An !important declaration of the element's own wins over one of the stylesheet.)
            kept = [(n, v) for n, v in own if n not in important or _important(v) is not None]
            element.set("style", ";".join(f"{n}:{v}" for n, v in custom + kept
                                          + [(n, important[n]) for n, v in own
                                             if n in important and _important(v) is None]))


def _resolve_variables(root) -> None:
    """CSS custom properties (``--c: #c00``) substituted where ``var(--c)`` uses them, each
    inherited from the element's ancestors; a ``var()`` left unresolved is warned about."""
    if not any("var(" in value for element in root.iter() for value in element.attrib.values()):
        return
    inherited: dict = {}
    written = 0
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        # Each element's own custom properties over its parent's, shared, not copied: memory
        # grows with what the file declares, not with elements times properties.
        own = inherited.get(element.getparent(), ChainMap())
        declared = {name: value for name, value in style_declarations(element.get("style") or "")
                    if name.startswith("--")}
        if declared:
            own = own.new_child(declared)  # as deep as the tree (MAX_SVG_DEPTH)
        inherited[element] = own

        def substitute(name: str, value: str, own=own) -> str | None:
            nonlocal written
            if "var(" not in value or name.startswith("--"):
                return None
            new = _VAR.sub(lambda m: own.get(m.group(1), m.group(2).strip() if m.group(2) is not None else m.group(0)),
                           value)
            written += len(new)
            if written > MAX_SUBSTITUTED:  # one long value used by every element: no picture needs it
                raise ImageError(f"has CSS custom properties (var()) that expand to more than {MAX_SUBSTITUTED:,} "
                                 f"characters in all (<{_local(element.tag)}>{_at(element)}); write the values out")
            return new

        _edit_properties(element, substitute)


def _colour_function(value: str) -> str | None:
    """``rgb()``, ``rgba()``, ``hsl()``, ``hsla()`` as svglib reads them: the name in lower case
    and an rgb channel out of range clamped, as browsers draw ``RGB(300, -5, 0)``; None when it
    is not one of them (or not one svglib can be helped to read)."""
    match = _COLOUR_FUNCTION.fullmatch(value)
    if match is None:
        return None
    kind = match.group(1).lower()
    if kind.startswith("hsl"):
        return f"{kind}({match.group(2)})"
    colour, slash, alpha = match.group(2).partition("/")
    parts = [part for part in re.split(r"\s*,\s*|\s+", colour.strip()) if part]
    if slash:
        parts.append(alpha.strip())
    channels = [_CHANNEL.fullmatch(part) for part in parts]
    if len(channels) not in (3, 4) or None in channels:
        return None
    numbers = []
    for index, channel in enumerate(channels):
        number = float(channel.group(1))
        if not math.isfinite(number):
            return None
        if index == 3:
            numbers.append(min(1.0, max(0.0, number / 100 if channel.group(2) else number)))
        else:
            numbers.append(round(min(255.0, max(0.0, number * 255 / 100 if channel.group(2) else number))))
    if len(numbers) == 3:
        return "#{:02x}{:02x}{:02x}".format(*numbers)
    return f"rgba({numbers[0]},{numbers[1]},{numbers[2]},{_number_text(numbers[3])})"


def _fix_colours(name: str, value: str) -> str | None:
    """A CSS named colour svglib does not know in that case or at all, as hex; a colour
    function as svglib reads it (:func:`_colour_function`)."""
    if name not in _COLOURED:
        return None
    word = value.strip()
    if "(" in word and not word.startswith("url("):
        return None if _readable(word) else _colour_function(word)  # art svglib reads is kept as written
    if not word.isalpha():
        match = _URL_PAINT.fullmatch(word)
        if match and match.group(3):
            fallback = _fix_colours(name, match.group(3))
            return value.replace(match.group(3), fallback) if fallback else None
        return None
    if word.lower() == "currentcolor":
        return "currentColor" if word != "currentColor" else None
    from reportlab.lib import colors

    if isinstance(getattr(colors, word, None), colors.Color):
        return None
    from PIL import ImageColor

    if word.lower() not in ImageColor.colormap:  # the CSS named colours
        return None
    return "#{:02x}{:02x}{:02x}".format(*ImageColor.getrgb(word.lower())[:3])


def _important(value: str) -> int | None:
    """Where the ``!important`` that ends ``value`` starts (None: it does not end so)."""
    at = value.rfind("!")
    return at if at >= 0 and value[at + 1:].strip().lower() == "important" else None


def _readable(value: str) -> bool:
    """Whether svglib reads the paint or colour ``value`` (a ``url()`` is seen to elsewhere)."""
    if value in ("none", "currentColor", "inherit") or value.startswith("url(") or _HEX_COLOUR.fullmatch(value):
        return True
    from reportlab.lib import colors

    if value.isalpha() and isinstance(getattr(colors, value, None), colors.Color):
        return True
    from svglib.svglib import Svg2RlgAttributeConverter

    try:
        return Svg2RlgAttributeConverter().convertColor(value) is not None
    except (ValueError, TypeError, IndexError):  # reportlab cannot read it: 'rgb(1,2)', '#ggg'
        return False


def _drop_unreadable_colours(element, say) -> None:
    """A colour printkit cannot read left out, as browsers leave out an invalid value (the
    element then takes its parent's, or the default), and said."""
    for name in _COLOURED:
        value = (_property(element, name) or "").strip()
        if not value or _readable(value):
            continue
        _drop_property(element, name)
        if "var(" in value:
            say(element, f"its {name} uses a CSS variable ({_shown(value)}) that is not defined, and is left out; "
                         "define it (--name: value) or write the value")
        else:
            say(element, f"its {name} {_shown(value)!r} is not a colour printkit can read, and is left out (as "
                         "browsers do); write a colour such as #2a6 or rgb(34, 170, 102)")


def _fix_importance(name: str, value: str) -> str | None:
    """A declaration's value without its ``!important`` (which svglib would read as part of it)."""
    at = _important(value)
    return None if at is None else value[:at].rstrip()


def _fix_opacity(name: str, value: str) -> str | None:
    if name in _OPACITIES and value.strip().endswith("%"):
        number = _length(value, 1.0)
        return None if number is None else _number_text(min(1.0, max(0.0, number)))
    return None


def _paint_fallbacks(root, ids: dict, say) -> None:
    """``fill="url(#g) #0a0"``: the gradient or a shape's pattern when printkit draws it, else the
    fallback colour, as browsers paint a missing reference (a pattern's fallback is warned about)."""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue

        def choose(name: str, value: str, element=element) -> str | None:
            if name not in ("fill", "stroke"):
                return None
            match = _URL_PAINT.fullmatch(value.strip())
            if match is None or not match.group(3).strip():
                return None
            target, fallback = ids.get(match.group(2)), match.group(3).strip()
            kind = _local(getattr(target, "tag", ""))
            if kind in ("linearGradient", "radialGradient") and name == "fill":
                return f"url(#{match.group(2)})"
            if kind == "pattern" and name == "fill" and (_local(element.tag) in _GEOMETRY
                                                         or _local(element.tag) in _GROUPS):
                return None  # drawn, or else its fallback, when the shape (a group's: each) is filled (_Patterns)
            if target is not None:
                say(element, f"its {name} url(#{match.group(2)}) is not drawn (printkit draws plain colours, linear "
                             f"and radial gradients as fills, and patterns as a shape's fill); its fallback "
                             f"{fallback} is drawn instead")
            return fallback

        _edit_properties(element, choose)


def _singular(transform: list[tuple[str, list[str]]]) -> bool:
    """Whether the transform squashes the plane to a line or a point (``scale(0)``), or takes it
    beyond any number: what it transforms shows nothing, and no inverse exists to draw it with."""
    a, b, c, d = 1.0, 0.0, 0.0, 1.0  # the linear part suffices: a translation inverts always
    for name, written in transform:
        n = [float(number) for number in written]
        if name == "matrix":
            m = n[:4]
        elif name == "scale":
            m = [n[0], 0.0, 0.0, n[-1]]
        elif name == "rotate":
            turn = math.radians(n[0])
            m = [math.cos(turn), math.sin(turn), -math.sin(turn), math.cos(turn)]
        elif name in ("skewX", "skewY"):
            slope = math.tan(math.radians(n[0]))
            m = [1.0, 0.0, slope, 1.0] if name == "skewX" else [1.0, slope, 0.0, 1.0]
        else:
            continue
        a, b, c, d = a * m[0] + c * m[1], b * m[0] + d * m[1], a * m[2] + c * m[3], b * m[2] + d * m[3]
    determinant = a * d - b * c
    return not (math.isfinite(determinant) and determinant != 0 and all(map(math.isfinite, (a, b, c, d))))


def _fix_transforms(element, say) -> bool:
    """The element's transforms as svglib reads them; True when its transform is singular (the
    element then shows nothing)."""
    for name in _TRANSFORMS:
        value = element.get(name)
        if value is None:
            continue
        parsed = parse_transform(value)
        if parsed is None:
            say(element, f"its {name} {_shown(value)!r} cannot be read and is left out; write it as SVG "
                         "transform functions, such as translate(10 20) rotate(45)")
            element.attrib.pop(name)
        elif name == "transform" and _singular(parsed):
            element.attrib.pop(name)
            return True
        elif _written(parsed) != value.strip() and parsed:
            element.set(name, _written(parsed))
    origin = _property(element, "transform-origin")
    if origin is None:
        return False
    numbers = [_length(part, 0.0) for part in origin.split()]
    if len(numbers) in (1, 2) and "%" not in origin and None not in numbers:
        _drop_property(element, "transform-origin")
        transform = element.get("transform")
        ox, oy = numbers[0], numbers[1] if len(numbers) == 2 else 0.0
        if transform and (ox or oy):
            element.set("transform", f"translate({_number_text(ox)} {_number_text(oy)}) {transform} "
                                     f"translate({_number_text(-ox)} {_number_text(-oy)})")
    elif element.get("transform"):
        say(element, f"its transform-origin {_shown(origin)!r} is not drawn (only lengths, as "
                     "transform-origin=\"50 50\"); write the origin into the transform")
    return False


def _fix_radii(element, viewport: tuple[float, float]) -> None:
    """An ellipse given one radius takes it for both (SVG 2); ``r``, ``rx``, ``ry`` percentages
    are of the viewport (``r``: of its normalised diagonal), which svglib reads as numbers."""
    tag = _local(element.tag)
    if tag == "ellipse":
        rx, ry = element.get("rx"), element.get("ry")
        if rx is not None and (ry is None or ry.strip() == "auto"):
            element.set("ry", rx)
        elif ry is not None and (rx is None or rx.strip() == "auto"):
            element.set("rx", ry)
        for name in ("rx", "ry"):
            if (element.get(name) or "").strip() == "auto":  # both auto: no radius, nothing drawn
                element.attrib.pop(name)
    width, height = viewport
    for name, of in (("r", math.hypot(width, height) / math.sqrt(2)), ("rx", width), ("ry", height)):
        value = element.get(name)
        if value is not None and value.strip().endswith("%") and tag in ("circle", "ellipse", "rect"):
            number = _length(value, of)
            if number is not None:
                element.set(name, _number_text(number))


def view_box(value: str | None) -> tuple[float, float, float, float] | None:
    """A ``viewBox`` as its four numbers (None: not four finite numbers)."""
    parts = re.split(r"[\s,]+", (value or "").strip())
    try:
        box = tuple(float(p) for p in parts)
    except ValueError:
        return None
    return box if len(box) == 4 and all(map(math.isfinite, box)) else None


def _box(element) -> tuple[float, float, float, float] | None:
    """The element's viewBox, when it has one that shows something."""
    box = view_box(element.get("viewBox"))
    return box if box is not None and box[2] > 0 and box[3] > 0 else None


def _fit(box, placement: str | None, width: float, height: float) -> str | None:
    """The transform taking a viewBox into a viewport of ``width`` x ``height`` at (0, 0), as
    ``preserveAspectRatio`` says; None when it scales the box to nothing or beyond any number."""
    bx, by, bw, bh = box
    align, covers = picture_placement(placement)
    sx, sy = width / bw, height / bh
    tx = ty = 0.0
    if align is not None:
        ax, ay = align
        sx = sy = (max if covers else min)(sx, sy)
        tx, ty = ax * (width - bw * sx), ay * (height - bh * sy)
    if not all(map(math.isfinite, (sx, sy, tx, ty))) or sx == 0 or sy == 0:
        return None
    return (f"translate({_number_text(tx)} {_number_text(ty)}) scale({_number_text(sx)} {_number_text(sy)}) "
            f"translate({_number_text(-bx)} {_number_text(-by)})")


class _Viewports:
    """Nested ``<svg>`` and ``<use>`` of a ``<symbol viewBox>`` as groups: translated, scaled into
    their viewport as ``preserveAspectRatio`` says, and clipped to it unless overflow is visible."""

    def __init__(self, root, ids: dict) -> None:
        self.root, self.ids = root, ids
        self.defs = None
        self.clips: dict[tuple[float, float], str] = {}  # one clip path per viewport size
        self.made = 0  # clip paths made

    def clip(self, w: float, h: float) -> str:
        """A clip path to the viewport (0, 0, ``w``, ``h``), as ``url(#...)``."""
        known = self.clips.get((w, h))
        if known is None:
            self.clips[(w, h)] = known = self.clip_to(
                self.root.makeelement(self._tag("rect"), width=_number_text(w), height=_number_text(h)))
        return known

    def clip_to(self, shape) -> str:
        """A new clip path holding ``shape``, as ``url(#...)``."""
        from lxml import etree

        if self.defs is None:
            self.defs = etree.Element(self._tag("defs"))
            self.root.insert(0, self.defs)  # svglib knows a clip path once it has met it
        self.made += 1
        name = f"printkit-viewport-{self.made}"
        while name in self.ids:
            name += "-"
        etree.SubElement(self.defs, self._tag("clipPath"), id=name).append(shape)
        return f"url(#{name})"

    def _tag(self, name: str) -> str:
        namespace = self.root.nsmap.get(None)
        return f"{{{namespace}}}{name}" if namespace else name

    def group(self, element, viewport: tuple[float, float], box, placement, overflow_of) -> tuple:
        """``element`` (an ``<svg>`` or ``<use>``) turned into ``<g>`` > ``<g clip-path>`` > ``<g
        transform>``; returns (the innermost group, its viewport size)."""
        from lxml import etree

        width_of, height_of = viewport
        x = _length(element.get("x"), width_of, 0.0)
        y = _length(element.get("y"), height_of, 0.0)
        w = max(0.0, _length(element.get("width"), width_of, width_of))  # a negative size shows nothing
        h = max(0.0, _length(element.get("height"), height_of, height_of))
        for name in ("x", "y", "width", "height", "viewBox", "preserveAspectRatio"):
            element.attrib.pop(name, None)
        overflow = (_property(overflow_of, "overflow") or "hidden").strip()
        _drop_property(element, "overflow")
        element.tag = element.tag[:-len(_local(element.tag))] + "g"
        if x or y:
            transform = element.get("transform")
            element.set("transform", f"{transform} translate({_number_text(x)} {_number_text(y)})" if transform
                        else f"translate({_number_text(x)} {_number_text(y)})")
        children = list(element)
        inner = etree.SubElement(element, element.tag)
        if overflow not in ("visible", "auto"):
            inner.set("clip-path", self.clip(w, h))
        fit = _fit(box, placement, w, h) if box is not None else ""
        if fit is None or w == 0 or h == 0:  # an empty viewport (or one no number holds) shows nothing
            for child in children:
                element.remove(child)
            return inner, (w, h)
        if fit:
            inner = etree.SubElement(inner, element.tag, transform=fit)
        for child in children:
            inner.append(child)
        return inner, ((box[2], box[3]) if box is not None else (w, h))


_SHAPES = ("path", "rect", "circle", "ellipse", "line", "polyline", "polygon")
# What moves from a shape to the group its paints become: what applies to it as a whole.
_WHOLE = ("id", "transform", "opacity", "clip-path", "mask", "filter", "mix-blend-mode")


def _taken_whole(element) -> dict[str, str]:
    """The properties of ``element`` that apply to the shape as a whole (:data:`_WHOLE`), taken off
    it (its attributes and its style alike), for the group that stands in its place."""
    whole = {name: element.attrib.pop(name) for name in _WHOLE if name in element.attrib}
    for name in _WHOLE:
        value = _property(element, name)
        if value is not None:
            whole[name] = value
            _drop_property(element, name)
    return whole


def _paint_order(value: str | None) -> list[str]:
    """``paint-order`` as the full order of fill, stroke and markers ('normal': that order)."""
    words = [word for word in (value or "normal").split() if word in ("fill", "stroke", "markers")]
    return words + [word for word in ("fill", "stroke", "markers") if word not in words]


def _split_paints(element, order: list[str], say) -> None:
    """A shape whose ``paint-order`` paints the stroke first, as a group of its stroke, then its
    fill (each a copy of the shape painting only that), the group taking what applies to the
    shape as a whole (its transform, opacity, clip): markers stay last, on the second copy."""
    import copy

    marked = any(_property(element, name) not in (None, "none")
                 for name in ("marker", "marker-start", "marker-mid", "marker-end"))
    if marked and order.index("markers") != 2:
        say(element, f"its paint-order {' '.join(order)!r} is not drawn (markers are painted last); "
                     "draw the markers as separate shapes")
        return
    whole = _taken_whole(element)
    _drop_property(element, "paint-order")
    first = copy.deepcopy(element)
    second = copy.deepcopy(element)
    for name in ("marker", "marker-start", "marker-mid", "marker-end"):
        _drop_property(first, name)
    first.set("fill" if order[0] == "stroke" else "stroke", "none")
    second.set("stroke" if order[0] == "stroke" else "fill", "none")
    for copied in (first, second):
        for name in ("fill", "stroke"):
            if copied.get(name) == "none":
                _drop_property(copied, name)
                copied.set(name, "none")
    element.tag = element.tag[:-len(_local(element.tag))] + "g"
    element.attrib.clear()
    element.attrib.update(whole)
    element.append(first)
    element.append(second)


# Pattern fills become tiles: at most this many in one picture, holding at most this many copied
# elements in all (as images.MAX_SVG_ELEMENTS bounds what <use> repeats); past either, warned.
MAX_PATTERN_TILES = 5_000
MAX_PATTERN_ELEMENTS = 20_000
_PATTERN_ATTRIBUTES = ("patternUnits", "patternContentUnits", "patternTransform", "x", "y", "width", "height",
                       "viewBox", "preserveAspectRatio")
# Inherited properties a pattern's tiles take from the pattern, not from the shape they fill:
# where the shape's parents set one, the tiles get the pattern's value or the initial one.
_TILE_INHERITS = {
    "fill": "#000000", "fill-opacity": "1", "fill-rule": "nonzero", "stroke": "none", "stroke-width": "1",
    "stroke-opacity": "1", "stroke-dasharray": "none", "stroke-dashoffset": "0", "stroke-linecap": "butt",
    "stroke-linejoin": "miter", "stroke-miterlimit": "4", "color": "#000000", "paint-order": "normal",
    "marker-start": "none", "marker-mid": "none", "marker-end": "none"}
# A shape's geometry: what its copy in a clip path keeps.
_GEOMETRY = {"path": ("d",), "rect": ("x", "y", "width", "height", "rx", "ry"), "circle": ("cx", "cy", "r"),
             "ellipse": ("cx", "cy", "rx", "ry"), "polygon": ("points",), "polyline": ("points",)}
_GROUPS = ("g", "a", "switch", "svg")


def _matrix(transform: list[tuple[str, list[str]]]) -> tuple[float, ...]:
    """A parsed transform list as the affine matrix (a, b, c, d, e, f)."""
    current: tuple[float, ...] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, written in transform:
        n = [float(number) for number in written]
        if name == "matrix":
            m = n
        elif name == "translate":
            m = [1.0, 0.0, 0.0, 1.0, n[0], n[1] if len(n) == 2 else 0.0]
        elif name == "scale":
            m = [n[0], 0.0, 0.0, n[-1], 0.0, 0.0]
        elif name == "rotate":
            turn = math.radians(n[0])
            cos, sin = math.cos(turn), math.sin(turn)
            cx, cy = (n[1], n[2]) if len(n) == 3 else (0.0, 0.0)
            m = [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy]
        else:
            slope = math.tan(math.radians(n[0]))
            m = [1.0, 0.0, slope, 1.0, 0.0, 0.0] if name == "skewX" else [1.0, slope, 0.0, 1.0, 0.0, 0.0]
        current = _multiply(current, m)
    return current


def _cubic_extent(p0: float, p1: float, p2: float, p3: float) -> tuple[float, float]:
    """The least and greatest value of a cubic Bézier along one axis (its ends and turning points)."""
    values = [p0, p3]
    a, b, c = -p0 + 3 * p1 - 3 * p2 + p3, 2 * (p0 - 2 * p1 + p2), p1 - p0  # the derivative / 3
    if abs(a) < 1e-12:
        roots = [-c / b] if abs(b) > 1e-12 else []
    else:
        disc = b * b - 4 * a * c
        roots = [(-b + sign * math.sqrt(disc)) / (2 * a) for sign in (1, -1)] if disc >= 0 else []
    for t in roots:
        if 0 < t < 1:
            u = 1 - t
            values.append(u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3)
    return min(values), max(values)


def _path_box(d: str) -> tuple[float, float, float, float] | None:
    """The exact bounding box (x0, y0, x1, y1) of path data, as svglib reads it."""
    from reportlab.graphics.shapes import Path
    from svglib.svglib import NodeTracker, Svg2RlgAttributeConverter, Svg2RlgShapeConverter
    from lxml import etree

    converted = Svg2RlgShapeConverter(None, Svg2RlgAttributeConverter()).convertPath(
        NodeTracker.from_xml_root(etree.Element("path", d=d)))
    paths, items = [], [converted]
    while items:
        item = items.pop()
        if isinstance(item, Path):
            paths.append(item)
        items.extend(getattr(item, "contents", ()))
    xs: list[float] = []
    ys: list[float] = []
    for path in paths:
        points, at, last = path.points, 0, None
        for operator in path.operators:
            if operator in (0, 1):
                last = points[at:at + 2]
                xs.append(last[0])
                ys.append(last[1])
                at += 2
            elif operator == 2:
                segment = points[at:at + 6]
                at += 6
                start = last if last is not None else segment[:2]
                for axis, found in ((0, xs), (1, ys)):
                    found.extend(_cubic_extent(start[axis], segment[axis], segment[2 + axis], segment[4 + axis]))
                last = segment[4:6]
    if not xs or not all(map(math.isfinite, xs + ys)):
        return None
    return min(xs), min(ys), max(xs), max(ys)


def _shape_box(element, viewport: tuple[float, float]) -> tuple[float, float, float, float] | None:
    """A shape's bounding box (x0, y0, x1, y1) in its own user space (None: it has none)."""
    tag = _local(element.tag)
    width, height = viewport
    across = lambda name: _length(element.get(name), width, 0.0)  # noqa: E731
    down = lambda name: _length(element.get(name), height, 0.0)  # noqa: E731
    if tag == "rect":
        x, y, w, h = across("x"), down("y"), across("width"), down("height")
        return (x, y, x + w, y + h) if w > 0 and h > 0 else None
    if tag == "circle":
        r = _length(element.get("r"), math.hypot(width, height) / math.sqrt(2), 0.0)
        return (across("cx") - r, down("cy") - r, across("cx") + r, down("cy") + r) if r > 0 else None
    if tag == "ellipse":
        rx, ry = across("rx"), down("ry")
        return (across("cx") - rx, down("cy") - ry, across("cx") + rx, down("cy") + ry) if rx > 0 and ry > 0 else None
    if tag in ("polygon", "polyline"):
        numbers = [float(n) for n in _NUMBER_AT.findall(element.get("points") or "")]
        xs, ys = numbers[0:len(numbers) - 1:2], numbers[1::2]
        return (min(xs), min(ys), max(xs), max(ys)) if xs and ys and all(map(math.isfinite, numbers)) else None
    if tag == "path":
        return _path_box(element.get("d") or "")
    return None  # a line encloses nothing


class _Patterns:
    """Shapes filled with a ``<pattern>`` as groups svglib draws: the pattern's tiles, copies of
    its content, laid over the shape's bounding box and clipped to the shape, the shape's stroke
    on top. All tiles of a picture count against :data:`MAX_PATTERN_TILES` and
    :data:`MAX_PATTERN_ELEMENTS`."""

    def __init__(self, ids: dict, viewports: _Viewports) -> None:
        self.ids, self.viewports = ids, viewports
        self.tiles = self.elements = 0
        self.found: dict[str, tuple | None] = {}  # each pattern read once, however many shapes it fills

    def pattern(self, name: str):
        """(the pattern's attributes through its href chain, the element holding its content,
        the number of elements a tile copies) for the pattern ``name`` (None: no pattern)."""
        if name not in self.found:
            self.found[name] = self._read(name)
        return self.found[name]

    def _read(self, name: str):
        element = self.ids.get(name)
        if element is None or _local(element.tag) != "pattern":
            return None
        attributes: dict[str, str] = {}
        content, seen = None, set()
        while element is not None and _local(element.tag) == "pattern" and id(element) not in seen:
            seen.add(id(element))
            for key in _PATTERN_ATTRIBUTES:
                if key not in attributes and element.get(key) is not None:
                    attributes[key] = element.get(key)
            if content is None and any(isinstance(child.tag, str) for child in element):
                content = element
            href = (element.get(_XLINK_HREF) or element.get("href") or "").strip()
            element = self.ids.get(href[1:]) if href.startswith("#") else None
        copied = 0 if content is None else sum(1 for child in content.iter() if isinstance(child.tag, str)) - 1
        return attributes, content, copied

    def push_down(self, element) -> None:
        """A group's pattern fill given to each child that does not set its own, as it inherits
        it (the shapes among them are then filled one by one)."""
        fill = (_property(element, "fill") or "").strip()
        match = _URL_PAINT.fullmatch(fill)
        if match is None or _local(getattr(self.ids.get(match.group(2)), "tag", "")) != "pattern":
            return
        _drop_property(element, "fill")
        for child in element:
            if isinstance(child.tag, str) and (_property(child, "fill") or "inherit").strip() == "inherit":
                _drop_property(child, "fill")
                child.set("fill", fill)

    def fill(self, element, viewport: tuple[float, float], in_tile: bool, stroke_first: bool, say):
        """When the shape ``element`` is filled with a pattern: the group of tiles that now fills
        it (to be normalised as the rest of the picture), or None when it draws nothing or it
        cannot be drawn (said; a fallback colour then fills it)."""
        fill = (_property(element, "fill") or "").strip()
        match = _URL_PAINT.fullmatch(fill)
        found = self.pattern(match.group(2)) if match else None
        if found is None:
            return None
        name, fallback = match.group(2), match.group(3).strip()
        reason = self._reason(element, in_tile)
        tiles = None
        if reason is None:
            tiles, reason = self._tiles(element, viewport, *found)
        if reason is not None:
            _drop_property(element, "fill")
            element.set("fill", fallback or "none")
            instead = f"its fallback {fallback} is drawn instead" if fallback else \
                "fill it with a colour, or expand the pattern into paths"
            say(element, f"its fill url(#{name}) is not drawn ({reason}); {instead}")
            return None
        if tiles is None:  # nothing to fill (an empty box, no content)
            _drop_property(element, "fill")
            element.set("fill", "none")
            return None
        self._replace(element, tiles, stroke_first)
        return tiles

    def _reason(self, element, in_tile: bool) -> str | None:
        """Why the pattern fill of ``element`` is not drawn (None: it is)."""
        if in_tile:
            return "a pattern inside a pattern's tile"
        clip = _URL_PAINT.fullmatch((_property(element, "clip-path") or "").strip())
        target = self.ids.get(clip.group(2)) if clip else None
        if target is not None and (target.get("clipPathUnits") or "").strip() == "objectBoundingBox":
            return "with a clip path in objectBoundingBox units"
        return None

    def _tiles(self, element, viewport, attributes: dict, content, per_tile: int) -> tuple:
        """(the group of tiles filling the shape, or None when nothing shows; why it cannot be
        drawn, or None)."""
        from lxml import etree
        import copy

        box = _shape_box(element, viewport)
        if box is None or content is None:
            return None, None
        x0, y0, x1, y1 = box
        bw, bh = x1 - x0, y1 - y0
        on_box = (attributes.get("patternUnits") or "").strip() != "userSpaceOnUse"
        if on_box and (bw <= 0 or bh <= 0):
            return None, None
        if on_box:
            x, y = x0 + _length(attributes.get("x"), 1.0, 0.0) * bw, y0 + _length(attributes.get("y"), 1.0, 0.0) * bh
            w, h = _length(attributes.get("width"), 1.0, 0.0) * bw, _length(attributes.get("height"), 1.0, 0.0) * bh
        else:
            width_of, height_of = viewport
            x, y = _length(attributes.get("x"), width_of, 0.0), _length(attributes.get("y"), height_of, 0.0)
            w, h = _length(attributes.get("width"), width_of, 0.0), _length(attributes.get("height"), height_of, 0.0)
        view = _box(attributes) if attributes.get("viewBox") is not None else None
        fit = _fit(view, attributes.get("preserveAspectRatio"), w, h) if view is not None and w > 0 and h > 0 else ""
        if not (w > 0 and h > 0) or fit is None or not all(map(math.isfinite, (x, y, w, h))):
            return None, "its tile has no width or height"
        if not fit and (attributes.get("patternContentUnits") or "").strip() == "objectBoundingBox":
            if not (bw > 0 and bh > 0):
                return None, None
            fit = f"scale({_number_text(bw)} {_number_text(bh)})"
        written = parse_transform(attributes.get("patternTransform") or "") or []
        a, b, c, d, e, f = _matrix(written)
        determinant = a * d - b * c
        if not (math.isfinite(determinant) and determinant != 0):
            return None, None  # squashed flat: nothing shows
        # The shape's box in the pattern's space, where the tiles are laid in rows and columns.
        corners = [((d * (px - e) - c * (py - f)) / determinant, (a * (py - f) - b * (px - e)) / determinant)
                   for px, py in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        too_many = (f"its tiles would pass {MAX_PATTERN_TILES:,} tiles or {MAX_PATTERN_ELEMENTS:,} elements "
                    "in this picture, in all; use larger tiles")
        # A tile tiny against the shape makes these counts too large for any number (infinite).
        reach = [(min(p[0] for p in corners) - x) / w, (max(p[0] for p in corners) - x) / w,
                 (min(p[1] for p in corners) - y) / h, (max(p[1] for p in corners) - y) / h]
        if not all(map(math.isfinite, reach)) or max(reach[1] - reach[0], reach[3] - reach[2]) > MAX_PATTERN_TILES:
            return None, too_many
        first_column, last_column = math.floor(reach[0]), math.ceil(reach[1])
        first_row, last_row = math.floor(reach[2]), math.ceil(reach[3])
        count = (last_column - first_column) * (last_row - first_row)
        if self.tiles + count > MAX_PATTERN_TILES or self.elements + count * per_tile > MAX_PATTERN_ELEMENTS:
            return None, too_many
        self.tiles += count
        self.elements += count * per_tile
        group = element.makeelement(element.tag[:-len(_local(element.tag))] + "g", {})
        if written:
            group.set("transform", _written(written))
        for key, initial in _TILE_INHERITS.items():
            own = _inherited_property(content, key)
            if own is not None or _inherited_property(element.getparent(), key) is not None:
                group.set(key, own if own is not None else initial)
        clip = self.viewports.clip(w, h)
        children = [child for child in content if isinstance(child.tag, str)]
        for row in range(first_row, last_row):
            for column in range(first_column, last_column):
                tile = etree.SubElement(group, group.tag, {
                    "transform": f"translate({_number_text(x + column * w)} {_number_text(y + row * h)})",
                    "clip-path": clip})
                holder = etree.SubElement(tile, group.tag, transform=fit) if fit else tile
                for child in children:
                    made = copy.deepcopy(child)
                    for part in made.iter():
                        if isinstance(part.tag, str):
                            part.attrib.pop("id", None)  # ids stay unique: the pattern keeps its own
                    holder.append(made)
        return group, None

    def _replace(self, element, tiles, stroke_first: bool) -> None:
        """The shape turned into a group (taking what applies to it as a whole) of its tiles
        clipped to its outline, and a copy of it painting its stroke and markers."""
        import copy

        tag = _local(element.tag)
        outline = element.makeelement(element.tag[:-len(tag)] + ("polygon" if tag == "polyline" else tag),
                                      {key: element.get(key) for key in _GEOMETRY[tag] if element.get(key) is not None})
        rule = _inherited_property(element, "fill-rule")
        if rule:
            outline.set("clip-rule", rule)
        opacity = _inherited_property(element, "fill-opacity")
        whole = _taken_whole(element)
        stroke = copy.deepcopy(element)
        _drop_property(stroke, "fill")
        _drop_property(stroke, "paint-order")
        stroke.set("fill", "none")
        clipped = element.makeelement(tiles.tag, {"clip-path": self.viewports.clip_to(outline)})
        if opacity is not None and opacity != "1":
            clipped.set("opacity", opacity)
        clipped.append(tiles)
        element.tag = tiles.tag
        element.attrib.clear()
        element.attrib.update(whole)
        for child in list(element):
            element.remove(child)
        element.extend([stroke, clipped] if stroke_first else [clipped, stroke])


def normalise(root) -> list[str]:
    """Rewrite the checked SVG ``root`` in place (see the module); what it found but cannot
    draw as written, one located message each."""
    found: list[str] = []
    seen: set = set()

    def say(element, what: str) -> None:
        message = f"<{_local(element.tag)}>{_at(element)}: {what}"
        if message not in seen:
            seen.add(message)
            found.append(message)

    _fold_stylesheet(root)
    _resolve_variables(root)
    ids = {element.get("id"): element for element in root.iter() if isinstance(element.tag, str)
           and element.get("id") is not None}
    _paint_fallbacks(root, ids, say)
    viewports = _Viewports(root, ids)
    patterns = _Patterns(ids, viewports)
    box = _box(root)
    start = (box[2], box[3]) if box else (_length(root.get("width"), 100.0, 100.0),
                                          _length(root.get("height"), 100.0, 100.0))
    used = {href[1:] for element in root.iter() if _local(element.tag) == "use"
            for href in [(element.get(_XLINK_HREF) or element.get("href") or "").strip()] if href.startswith("#")}
    # shared: whether a <use> shows this element, or an ancestor below where its paint-order is
    # set, where that paint-order does not apply (a split shape would take it there too).
    # in_tile: inside a pattern, whose shapes' own pattern fills are not drawn.
    stack = [(root, start, False, "normal", False, False)]
    while stack:
        element, viewport, nested, painting, shared, in_tile = stack.pop()
        if not isinstance(element.tag, str):
            continue
        tag = _local(element.tag)
        if tag == "clipPath" or painting == "clip":
            painting = "clip"  # a clip path's shapes paint nothing: their outline is the clip
        elif order := _property(element, "paint-order"):
            painting, shared = order, False
        else:
            shared = shared or element.get("id") in used
        _edit_properties(element, _fix_importance)
        _edit_properties(element, lambda name, value: _fix_colours(name, value) or _fix_opacity(name, value))
        _drop_unreadable_colours(element, say)
        if _fix_transforms(element, say):  # a singular transform: nothing of it shows
            if element is root or tag == "clipPath":
                for child in list(element):
                    element.remove(child)
                if tag == "clipPath":  # clipping to nothing (svglib draws an empty clip path's shapes whole)
                    element.append(element.makeelement(element.tag[:-len(tag)] + "rect", {"width": "0", "height": "0"}))
            else:
                element.getparent().remove(element)
            continue
        _fix_radii(element, viewport)
        if tag == "clipPath" and element.get("transform") and element.get("clipPathUnits") != "objectBoundingBox":
            # svglib ignores a clip path's own transform: each shape in it takes it first (one in
            # objectBoundingBox units applies after the box, which the renderer does).
            transform = element.attrib.pop("transform")
            for child in element:
                if isinstance(child.tag, str):
                    child.set("transform", f"{transform} {child.get('transform') or ''}".strip())
        if nested:
            for name in _ACROSS + _DOWN:  # percentages of a nested viewport (svglib: of the outer one)
                value = element.get(name)
                if value is not None and value.strip().endswith("%") and tag not in ("svg", "use"):
                    number = _length(value, viewport[0] if name in _ACROSS else viewport[1])
                    if number is not None:
                        element.set(name, _number_text(number))
        if tag == "symbol" and (own := _box(element)) is not None:
            # its content's percentages are of its own viewBox, whatever <use> shows it (SVG 2)
            viewport, nested = (own[2], own[3]), True
        elif tag == "svg" and element is not root:
            element, viewport = viewports.group(element, viewport, _box(element),
                                                element.get("preserveAspectRatio"), element)
            nested = True
        elif tag == "use":
            href = (element.get(_XLINK_HREF) or element.get("href") or "").strip()
            target = ids.get(href[1:]) if href.startswith("#") else None
            symbol_box = _box(target) if target is not None and _local(target.tag) == "symbol" else None
            if symbol_box is not None:
                use = element.makeelement(element.tag, {key: value for key, value in element.attrib.items()
                                                        if key in (_XLINK_HREF, "href")})
                for key in (_XLINK_HREF, "href"):
                    element.attrib.pop(key, None)
                inner, _ = viewports.group(element, viewport, symbol_box, target.get("preserveAspectRatio"), target)
                inner.append(use)
                continue
        order = _paint_order(painting)
        if painting != "clip" and tag in _GROUPS:
            patterns.push_down(element)
        elif painting != "clip" and tag in _GEOMETRY:
            tiles = patterns.fill(element, viewport, in_tile, order.index("stroke") < order.index("fill"), say)
            if tiles is not None:
                stack.append((tiles, viewport, nested, "normal", shared, True))
                continue
        in_tile = in_tile or tag == "pattern"
        if order[0] != "fill" and order.index("stroke") < order.index("fill"):
            if tag in _SHAPES and shared:
                say(element, f"its paint-order {' '.join(order)!r}, from a parent, is not drawn (a <use> shows "
                             "the shape where it does not apply); draw the stroke as a shape of its own")
            elif tag in _SHAPES:
                _split_paints(element, order, say)
                continue
            if tag == "use":
                say(element, f"its paint-order {' '.join(order)!r} is not drawn (the fill is painted first); "
                             "give the paint-order to the shapes it shows")
        stack.extend((child, viewport, nested, painting, shared, in_tile) for child in reversed(element))
    return found
