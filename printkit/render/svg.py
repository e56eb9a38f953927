"""SVG art as reportlab vectors: svglib's conversion, with gradients drawn as the SVG says.

svglib converts a checked SVG tree (:mod:`printkit.images`), rewritten where svglib would misread
it (:mod:`printkit.render.svg_normal`), into a reportlab Drawing. Its own
gradients lose what most exported art uses (``gradientTransform``, focal points, ``reflect`` and
``repeat``, stop opacity, a bounding box that is not square) and paint the shape black beneath
them, so :class:`Converter` reads gradients itself and draws each as a PDF shading, clipped to
its shape, in the document's colour space; varying stop opacity becomes a soft mask.

What neither can draw is found by :func:`unsupported` before conversion, as warnings that name
the element and its line, so nothing is silently drawn otherwise.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from printkit.errors import SvgRefused
from printkit.memo import Memo
from printkit.render.cmyk import press_of
from printkit.render.forms import svg_form_store

# At most this many repeats of a `reflect` or `repeat` gradient across its shape (one shading
# each), and this many stops in one gradient.
MAX_SPREAD_REPEATS = 256
MAX_STOPS = 1024
MAX_MARKERS = 20_000  # markers placed in one picture, as images.MAX_SVG_ELEMENTS counts elements
MAX_COORDINATE = 1e7  # beyond this a gradient's transform is no drawing a PDF can hold

_DATA_PICTURE = re.compile(r"data:image/(png|jpe?g);base64,", re.IGNORECASE)
_ALIGN = re.compile(r"x(Min|Mid|Max)Y(Min|Mid|Max)")
_SHARE = {"Min": 0.0, "Mid": 0.5, "Max": 1.0}
_GRADIENT_URL = re.compile(r"""url\(\s*(['"]?)#([^'")]+?)\1\s*\)""")
NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"  # an SVG number, one way to match: linear time
_PERCENT_OR_NUMBER = re.compile(rf"\s*({NUMBER})\s*(%?)\s*")
_GEOMETRY = ("x1", "y1", "x2", "y2", "cx", "cy", "r", "fx", "fy")
_INHERITED = _GEOMETRY + ("gradientUnits", "gradientTransform", "spreadMethod")

# What printkit cannot draw as written, with what to do instead: elements that paint, and
# attributes that refer to definitions (a <filter> or <mask> that nothing uses changes nothing).
_UNSUPPORTED_ELEMENTS = {
    "foreignObject": "foreign content (HTML) is not drawn; convert it to paths",
}
_UNSUPPORTED_ATTRIBUTES = {
    "filter": "its filter is not drawn; flatten the effect into paths or a picture",
    "mask": "its mask is not drawn; use a clipPath, or flatten the effect into paths",
    "mix-blend-mode": "its blend mode is not drawn; flatten the effect",
}


# Elements that paint (outside definitions).
PAINTED = frozenset(("path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "image", "use"))


def local_name(tag) -> str:
    """An element's tag without its namespace ("" for a comment or an entity)."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def data_picture(href: str) -> bytes | None:
    """The bytes of the PNG or JPEG that a ``data:image/png`` or ``data:image/jpeg`` base64 URI
    holds; None for any other reference (binascii.Error when its base64 is not)."""
    href = href.strip()
    match = _DATA_PICTURE.match(href)
    return base64.b64decode(href[match.end():], validate=False) if match else None


@dataclass(frozen=True)
class PlacedPicture:
    """A picture embedded in SVG art as its ``<image>`` places it: ``picture`` (with its ``size``
    as viewers show it) fitted into the image's box as ``preserveAspectRatio`` says: stretched over
    it (``align`` None), else scaled whole into it (``meet``) or over all of it and clipped to it
    (``slice``), at ``align``: the shares of the room left across and down (0.5, 0.5: centred)."""

    picture: Any
    align: tuple[float, float] | None = (0.5, 0.5)
    slice: bool = False

    def within(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """The box the picture fills, for the image's box (x, y, w, h) of a y-up frame."""
        iw, ih = self.picture.size
        if self.align is None or not (iw > 0 and ih > 0):
            return x, y, w, h
        scale = (max if self.slice else min)(w / iw, h / ih)
        fw, fh = iw * scale, ih * scale
        return x + self.align[0] * (w - fw), y + (1 - self.align[1]) * (h - fh), fw, fh


def picture_placement(value: str | None) -> tuple[tuple[float, float] | None, bool]:
    """A ``preserveAspectRatio`` (of an ``<image>``, a viewport, a symbol) as (align, slice):
    ``none`` stretches; a value it cannot read is ``xMidYMid meet``, as browsers take it."""
    words = (value or "").split()
    if words[:1] == ["defer"]:
        words = words[1:]
    if not words or len(words) > 2 or (len(words) == 2 and words[1] not in ("meet", "slice")):
        return (0.5, 0.5), False
    if words[0] == "none":
        return None, False
    align = _ALIGN.fullmatch(words[0])
    if align is None:
        return (0.5, 0.5), False
    return (_SHARE[align.group(1)], _SHARE[align.group(2)]), words[1:] == ["slice"]


def style_declarations(style: str) -> list[tuple[str, str]]:
    """A ``style`` attribute's declarations as (name, value), in order."""
    found = []
    for declaration in style.split(";"):
        name, colon, value = declaration.partition(":")
        if colon and name.strip():
            found.append((name.strip(), value.strip()))
    return found


def _styles(element) -> dict[str, str]:
    """An element's presentation attributes, then its ``style`` attribute over them (the
    stylesheet's rules are already written onto the elements: :mod:`printkit.render.svg_normal`)."""
    found = {key: value for key, value in element.attrib.items() if isinstance(key, str)}
    found.update(style_declarations(element.get("style") or ""))
    return found


def own_property(element, name: str) -> str | None:
    """The element's own value of ``name``: its style declaration, else its attribute."""
    style = element.get("style")
    if not style or name not in style:  # no declaration of it (most elements have no style at all)
        return element.get(name)
    for key, value in reversed(style_declarations(style)):
        if key == name:
            return value
    return element.get(name)


def inherited_property(element, name: str) -> str | None:
    """The value of the inherited property ``name`` at ``element`` (its own, else its nearest
    ancestor's)."""
    while element is not None:
        value = (own_property(element, name) or "").strip()
        if value and value != "inherit":
            return value
        element = element.getparent()
    return None


def unsupported(root) -> list[str]:
    """What in the checked, normalised SVG ``root`` printkit cannot draw as written, one located message each
    (``<filter> at line 12: ...``), in document order; each kind of problem once per line."""
    ids = {element.get("id"): element for element in root.iter() if isinstance(element.tag, str)
           and element.get("id") is not None}
    found: list[str] = []
    seen: set[tuple[int | None, str]] = set()

    def say(element, what: str) -> None:
        key = (element.sourceline, what)
        if key not in seen:
            seen.add(key)
            found.append(f"<{local_name(element.tag)}>{at_line(element.sourceline)}: {what}")

    for element in root.iter():
        tag = local_name(element.tag)
        if not tag:
            continue
        if tag in _UNSUPPORTED_ELEMENTS:
            say(element, _UNSUPPORTED_ELEMENTS[tag])
        styles = _styles(element)
        for name, what in _UNSUPPORTED_ATTRIBUTES.items():
            value = styles.get(name, "").strip()
            if value and value not in ("none", "normal"):
                say(element, what)
        for name, value in styles.items():
            if "var(" in value:
                say(element, f"its {name} uses a CSS variable ({value.strip()[:40]}) that is not defined; "
                             "define it (--name: value) or write the value")
        stroke = _GRADIENT_URL.fullmatch(styles.get("stroke", "").strip())
        if stroke:
            say(element, "a stroke painted with a gradient or pattern is not drawn; give the stroke "
                         "a plain colour, or convert it to a filled path (Inkscape: Path > Stroke to Path)")
        fill = _GRADIENT_URL.fullmatch(styles.get("fill", "").strip())
        kind = local_name(getattr(ids.get(fill.group(2)), "tag", "")) if fill else ""
        if fill and kind == "pattern":
            say(element, f"its fill url(#{fill.group(2)}) is not drawn (printkit fills shapes with patterns, not "
                         f"<{tag}>); fill it with a colour, or expand the pattern into paths")
        elif fill and kind not in ("linearGradient", "radialGradient"):
            say(element, f"its fill url(#{fill.group(2)}) is not drawn (printkit draws plain colours, "
                         "linear and radial gradients and patterns)")
    return found


def _number(value: str | None, default: float, percent_of: float = 1.0) -> float:
    """A gradient length: a number, or a percentage of ``percent_of``."""
    if value is None:
        return default
    match = _PERCENT_OR_NUMBER.fullmatch(value)
    if not match:
        return default
    number = float(match.group(1))
    if not math.isfinite(number):
        return default
    return number / 100.0 * percent_of if match.group(2) else number


def _offset(value: str | None) -> float:
    return min(1.0, max(0.0, _number(value, 0.0)))


class Gradient:
    """A gradient resolved through its ``href`` chain: geometry, units, transform, spread, stops
    as (offset, reportlab colour with alpha)."""

    def __init__(self, kind: str, attributes: dict[str, str], stops: list[tuple[float, Any]], line: int | None):
        self.kind = kind
        self.attributes = attributes
        self.stops = stops
        self.line = line


def _read_gradient(node, ids: dict, convert_color: Callable[[str], Any]) -> Gradient:
    """The gradient ``node`` with what it inherits (``href``) filled in."""
    chain, seen = [node], {id(node)}
    while True:
        href = (chain[-1].get("{http://www.w3.org/1999/xlink}href") or chain[-1].get("href") or "").strip()
        target = ids.get(href[1:]) if href.startswith("#") else None
        if target is None or id(target) in seen or local_name(target.tag) not in ("linearGradient", "radialGradient"):
            break
        seen.add(id(target))
        chain.append(target)
    attributes: dict[str, str] = {}
    for element in reversed(chain):  # the referring gradient's own attributes win
        attributes.update({key: value for key, value in element.attrib.items() if key in _INHERITED})
    stops: list[tuple[float, Any]] = []
    source = next((element for element in chain if any(local_name(child.tag) == "stop" for child in element)), None)
    from reportlab.lib import colors

    last = 0.0
    for child in (source if source is not None else ()):
        if local_name(child.tag) != "stop":
            continue
        styles = _styles(child)
        offset = max(last, _offset(styles.get("offset")))
        last = offset
        color = convert_color(styles.get("stop-color", "black")) or colors.black
        if color == "currentColor":  # the stop's colour property, inherited as any other
            color = convert_color(inherited_property(child, "color") or "black")
            color = colors.black if color in (None, "currentColor") else color
        color = color.clone()
        try:
            opacity = float(styles.get("stop-opacity", "1"))
        except ValueError:
            opacity = 1.0
        # A colour's own alpha (rgba(), #rrggbbaa) and the stop's opacity multiply.
        alpha = float(getattr(color, "alpha", 1.0) if getattr(color, "alpha", None) is not None else 1.0)
        color.alpha = min(1.0, max(0.0, alpha * (opacity if math.isfinite(opacity) else 1.0)))
        stops.append((offset, color))
    if len(stops) > MAX_STOPS:
        raise SvgRefused(f"<{local_name(node.tag)}>{at_line(node.sourceline)} has {len(stops)} stops, "
                         f"over {MAX_STOPS}; "
                         "use fewer")
    return Gradient(local_name(node.tag), attributes, stops, node.sourceline)


def _multiply(a: tuple, b: tuple) -> tuple:
    """The affine matrix ``a`` then... as PDF writes it: ``b`` applied first, then ``a``."""
    return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1],
            a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
            a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5])


def _invert(m: tuple) -> tuple | None:
    det = m[0] * m[3] - m[1] * m[2]
    if not det or not math.isfinite(det):
        return None
    return (m[3] / det, -m[1] / det, -m[2] / det, m[0] / det,
            (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det)


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


class GradientFill:
    """A reportlab DirectDraw node: ``shape``'s area painted with ``gradient``."""

    def __init__(self, shape, gradient: Gradient, matrix_of: Callable[[str], tuple], even_odd: bool,
                 opacity: float, viewport: tuple[float, float]) -> None:
        self.shape = shape
        self.viewport = viewport  # the SVG's width and height: what userSpaceOnUse percentages are of
        self.gradient = gradient
        self.matrix_of = matrix_of
        self.even_odd = even_odd
        self.opacity = opacity

    def getBounds(self):  # noqa: N802 (reportlab's name)
        return self.shape.getBounds()

    def drawDirectly(self, renderer) -> None:  # noqa: N802
        from svglib.svglib import _shape_to_pdf_path
        from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO

        canvas = renderer._canvas
        geometry = self._geometry()
        if geometry is None:
            return
        matrix, pieces, stops, extend, paint_last = geometry
        path = _shape_to_pdf_path(canvas, self.shape)
        if path is None:
            return
        canvas.saveState()
        canvas.clipPath(path, stroke=0, fill=0, fillMode=FILL_EVEN_ODD if self.even_odd else FILL_NON_ZERO)
        if paint_last is not None:  # a gradient of no length paints its last stop
            renderer.setFillColor(paint_last)
            canvas.setFillAlpha(paint_last.alpha * self.opacity)
            bounds = self.shape.getBounds()
            canvas.rect(bounds[0], bounds[1], bounds[2] - bounds[0], bounds[3] - bounds[1], stroke=0, fill=1)
            canvas.restoreState()
            return
        canvas.transform(*matrix)
        _paint(canvas, self.gradient.kind == "radialGradient", pieces, stops, extend, self.opacity)
        canvas.restoreState()

    def _geometry(self):
        """(gradient space -> user space matrix, the shadings as (coordinates, backwards), the
        stops, whether the ends extend, or a colour to paint flat), or None for nothing to paint.

        A ``pad`` gradient is one shading extended at both ends; ``reflect`` and ``repeat`` are
        one shading per repeat the shape reaches (every other one backwards for reflect), each
        over the stops alone: a rasteriser samples each as finely as a single one."""
        gradient, a = self.gradient, self.gradient.attributes
        stops = gradient.stops
        if not stops:
            return None  # no stops: paints nothing (SVG: as if 'none')
        if len(stops) == 1:
            return (None, None, None, None, stops[0][1])
        bounding = a.get("gradientUnits", "objectBoundingBox") != "userSpaceOnUse"
        x0, y0, x1, y1 = self.shape.getBounds()
        if bounding:
            if not (x1 - x0 > 0 and y1 - y0 > 0):
                return None  # SVG: a bounding box of no area paints nothing
            # Shapes keep the SVG's own coordinates (svglib flips y in an outer group), so the
            # box's corner (x0, y0) is its top left, as objectBoundingBox's (0, 0).
            base = (x1 - x0, 0.0, 0.0, y1 - y0, x0, y0)
            scale_w = scale_h = 1.0
        else:
            base = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            scale_w, scale_h = self.viewport
        own = self.matrix_of(a.get("gradientTransform", ""))
        if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in own):
            raise SvgRefused(f"<{gradient.kind}>{at_line(gradient.line)} has a gradientTransform too large to "
                             f"print (over {MAX_COORDINATE:g}); use a smaller one")
        matrix = _multiply(base, own)
        if _invert(matrix) is None:
            return None  # a gradient squashed flat paints nothing
        diagonal = math.hypot(scale_w, scale_h) / math.sqrt(2)
        spread = a.get("spreadMethod", "pad")
        if gradient.kind == "linearGradient":
            gx0 = _number(a.get("x1"), 0.0, scale_w)
            gy0 = _number(a.get("y1"), 0.0, scale_h)
            gx1 = _number(a.get("x2", "100%"), 1.0, scale_w)
            gy1 = _number(a.get("y2"), 0.0, scale_h)
            if gx0 == gx1 and gy0 == gy1:
                return (None, None, None, None, stops[-1][1])
            low, high = self._spread_range(matrix, spread, lambda x, y: _axis_t(gx0, gy0, gx1, gy1, x, y))
            dx, dy = gx1 - gx0, gy1 - gy0
            pieces = [((gx0 + k * dx, gy0 + k * dy, gx0 + (k + 1) * dx, gy0 + (k + 1) * dy),
                       spread == "reflect" and k % 2 != 0) for k in range(low, high)]
        else:
            cx = _number(a.get("cx"), 0.5, scale_w)
            cy = _number(a.get("cy"), 0.5, scale_h)
            r = _number(a.get("r"), 0.5, diagonal)
            fx = _number(a.get("fx"), cx, scale_w) if "fx" in a else cx
            fy = _number(a.get("fy"), cy, scale_h) if "fy" in a else cy
            if not r > 0:
                return (None, None, None, None, stops[-1][1])
            # The circle at t holds every point within t * (r - |focus to centre|) of the focus:
            # a bound on the repeats that reach a point (the distance from the centre, when the
            # focus is on or outside the circle).
            inside = r - math.hypot(cx - fx, cy - fy)
            low, high = self._spread_range(matrix, spread, (lambda x, y: math.hypot(x - fx, y - fy) / inside)
                                           if inside > 1e-9 * r else (lambda x, y: math.hypot(x - cx, y - cy) / r))

            def circle(t: float) -> tuple[float, float, float]:
                # Circles of a focal gradient grow linearly from the focus (t = 0) to the outer
                # circle (t = 1), and on past it.
                return fx + t * (cx - fx), fy + t * (cy - fy), t * r

            pieces = [((*circle(k), *circle(k + 1)), spread == "reflect" and k % 2 != 0) for k in range(high)]
        return matrix, pieces, stops, spread == "pad", None

    def _spread_range(self, matrix: tuple, spread: str, t_of: Callable[[float, float], float]) -> tuple[int, int]:
        """The whole repeats of the gradient (0..1 each) that a reflect or repeat gradient needs
        to cover its shape; (0, 1) for pad."""
        if spread not in ("reflect", "repeat"):
            return 0, 1
        inverse = _invert(matrix)
        if inverse is None:
            return 0, 1
        x0, y0, x1, y1 = self.shape.getBounds()
        ts = [t_of(*_apply(inverse, x, y)) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        if not all(map(math.isfinite, ts)):
            return 0, 1
        low, high = math.floor(min(ts)), math.ceil(max(ts))
        high = max(high, low + 1)
        if high - low > MAX_SPREAD_REPEATS:
            high = low + MAX_SPREAD_REPEATS
        return low, high


_FILLABLE = ("Path", "Rect", "Circle", "Ellipse", "Polygon")
_OUTLINES = ("Path", "Line", "PolyLine", "Polygon")


def _locate(item, kinds: tuple[str, ...]):
    """(the group holding it, its index there, the shape): the first shape of ``kinds`` (reportlab
    class names) in ``item``, a clip path not counted; (None, None, item) when ``item`` is one,
    (None, None, None) when there is none. svglib puts a shape with its own transform or clip
    into a group, the clip path first."""
    if type(item).__name__ in kinds and not getattr(item, "isClipPath", 0):
        return None, None, item
    for index, child in enumerate(getattr(item, "contents", ())):
        if type(child).__name__ in kinds and not getattr(child, "isClipPath", 0):
            return item, index, child
        found = _locate(child, kinds) if hasattr(child, "contents") else (None, None, None)
        if found[2] is not None:
            return found
    return None, None, None


def _vertices(shape) -> list[tuple[float, float, float, float]]:
    """A path's or line's vertices, each with the angles (radians) of the segment coming in and
    going out (the tangent at a curve's end), as SVG places markers."""
    from reportlab.graphics.shapes import Line, Path, PolyLine, Polygon

    if isinstance(shape, Line):
        points, operators = [shape.x1, shape.y1, shape.x2, shape.y2], [0, 1]
    elif isinstance(shape, (PolyLine, Polygon)):
        points = list(shape.points)
        operators = [0] + [1] * (len(points) // 2 - 1) + ([3] if isinstance(shape, Polygon) else [])
    elif isinstance(shape, Path):
        points, operators = list(shape.points), list(shape.operators)
    else:
        return []
    # (vertex, direction in, direction out) with directions as (dx, dy) of the neighbouring control point
    found: list[list] = []
    index, start = 0, None
    for operator in operators:
        if operator == 0:  # move
            x, y = points[index:index + 2]
            index += 2
            found.append([x, y, None, None])
            start = (x, y, len(found) - 1)
        elif operator in (1, 2):  # line, curve
            count = 2 if operator == 1 else 6
            segment = points[index:index + count]
            index += count
            if not found:
                continue
            px, py = found[-1][0], found[-1][1]
            first = (segment[0], segment[1])
            last_control = (segment[-4], segment[-3]) if operator == 2 else (px, py)
            x, y = segment[-2], segment[-1]
            found[-1][3] = math.atan2(first[1] - py, first[0] - px)
            found.append([x, y, math.atan2(y - last_control[1], x - last_control[0]), None])
        elif operator == 3 and start is not None and found:  # close: a line back to the start
            x, y, at = start
            px, py = found[-1][0], found[-1][1]
            if (px, py) != (x, y):
                found[-1][3] = math.atan2(y - py, x - px)
                found.append([x, y, math.atan2(y - py, x - px), found[at][3]])
    out = []
    for x, y, incoming, outgoing in found:
        incoming = outgoing if incoming is None else incoming
        outgoing = incoming if outgoing is None else outgoing
        if incoming is None:
            incoming = outgoing = 0.0
        out.append((x, y, incoming, outgoing))
    return out


def at_line(line: int | None) -> str:
    """`` at line 12``, or nothing when the line is not known."""
    return f" at line {line}" if line else ""


def _axis_t(x0: float, y0: float, x1: float, y1: float, x: float, y: float) -> float:
    dx, dy = x1 - x0, y1 - y0
    return ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)


@lru_cache(maxsize=1)
def converter_class():
    """svglib's SvgRenderer with printkit's gradients, markers, opacity and embedded pictures (made
    when art is first drawn: svglib is imported only then)."""
    from reportlab.graphics.shapes import Group
    from svglib.svglib import SvgRenderer

    class Converter(SvgRenderer):
        """svglib's renderer whose gradient fills are :class:`GradientFill` nodes, and whose
        ``<image>`` of a ``data:`` URI draws what ``picture_of(its bytes)`` gives (an object
        with the ``size`` svglib gives an ``<image>`` without a width or height)."""

        def __init__(self, picture_of: Callable[[bytes], Any]) -> None:
            super().__init__(io.BytesIO())  # no file path: svglib resolves no outside reference
            self._printkit_picture_of = picture_of

        def xlink_href_target(self, node, group=None):
            data = data_picture(node.attrib.get("{http://www.w3.org/1999/xlink}href") or node.attrib.get("href") or "")
            if data is None:
                return super().xlink_href_target(node, group)
            return self._printkit_picture_of(data)

        def render(self, svg_root):
            self._printkit_in_marker = 0  # markers being drawn: none are drawn inside them
            self._printkit_placed = 0  # markers placed so far
            self._printkit_ids = {element.get("id"): element for element in svg_root.iter()
                                  if isinstance(element.tag, str) and element.get("id") is not None}
            self._printkit_gradients: dict[str, Gradient | None] = {}
            # Clip paths to fit to the shape they clip, with their own transform.
            self._printkit_bounding_clips: dict[int, tuple] = {}
            self._printkit_viewport = _viewport_of(svg_root)
            return super().render(svg_root)

        def renderGradient(self, node) -> None:  # noqa: N802 (svglib's name)
            pass  # read when a shape refers to it, with its whole href chain

        def _resolve_gradient(self, grad_id):
            return None  # svglib's own gradient fill is never used

        def _printkit_gradient(self, name: str) -> Gradient | None:
            if name not in self._printkit_gradients:
                node = self._printkit_ids.get(name)
                gradient = None
                if node is not None and local_name(node.tag) in ("linearGradient", "radialGradient"):
                    gradient = _read_gradient(node, self._printkit_ids, self.attrConverter.convertColor)
                self._printkit_gradients[name] = gradient
            return self._printkit_gradients[name]

        def _matrix_of(self, transform: str) -> tuple:
            group = Group()
            if transform.strip():
                self.shape_converter.applyTransformOnGroup(transform, group)
            return tuple(group.transform)

        def renderSvg(self, node, outermost=False):  # noqa: N802
            if outermost:  # the tree svglib walks (its own copy): markers are drawn from it
                self._printkit_nodes = {wrapper.etree_element.get("id"): wrapper for wrapper in node.iter_subtree()
                                        if wrapper.etree_element.get("id") is not None}
            return super().renderSvg(node, outermost=outermost)

        def renderNode(self, node, parent=None):  # noqa: N802
            name = local_name(getattr(node, "tag", ""))
            if name in ("linearGradient", "radialGradient", "marker"):
                return None
            if parent is None:
                return super().renderNode(node, parent=parent)
            first = len(parent.contents)
            result = super().renderNode(node, parent=parent)
            if self._printkit_bounding_clips:  # a clip in objectBoundingBox units waits for its shape
                for item in parent.contents[first:]:
                    self._fit_clip(item)
            if name == "image" and len(parent.contents) > first:
                self._place_picture(parent.contents[first], node)
            if name in self.handled_shapes and name != "image" and len(parent.contents) > first:
                fill = self.attrConverter.findAttr(node, "fill")
                match = _GRADIENT_URL.fullmatch(fill.strip()) if fill else None
                gradient = self._printkit_gradient(match.group(2)) if match else None
                if gradient is not None:
                    parent.contents[first] = self._filled(parent.contents[first], node, gradient)
                if name in ("path", "line", "polyline", "polygon") and not self._printkit_in_marker:
                    parent.contents[first] = self._markers(node, parent.contents[first])
            opacity = _opacity(_styles(node).get("opacity"))
            if opacity < 1 and len(parent.contents) > first:
                # The element, its fill, stroke and markers, is painted as one, then made
                # translucent (a transparency group): its parts never show through each other.
                group = Group()
                for item in parent.contents[first:]:
                    group.add(item)
                del parent.contents[first:]
                parent.add(_translucent(group, opacity))
            return result

        def get_clippath(self, node):  # noqa: N802 (svglib's name)
            clipping = super().get_clippath(node)
            match = _GRADIENT_URL.fullmatch((node.getAttribute("clip-path") or "").strip())
            target = self._printkit_ids.get(match.group(2)) if match and clipping is not None else None
            if target is not None and (target.get("clipPathUnits") or "").strip() == "objectBoundingBox":
                self._printkit_bounding_clips[id(clipping)] = (clipping, self._matrix_of(target.get("transform") or ""))
            return clipping

        def _fit_clip(self, item) -> None:
            """A clip path in ``clipPathUnits="objectBoundingBox"`` (svglib draws it in user
            units) scaled onto the bounding box of what it clips: the item's other parts, which
            svglib puts in one group with it."""
            contents = getattr(item, "contents", ())
            clip = next((part for part in contents if id(part) in self._printkit_bounding_clips), None)
            if clip is None:
                return
            _, matrix = self._printkit_bounding_clips.pop(id(clip))
            boxes = [part.getBounds() for part in contents if part is not clip]
            boxes = [box for box in boxes if box and all(map(math.isfinite, box))]
            x0 = min((box[0] for box in boxes), default=0.0)
            y0 = min((box[1] for box in boxes), default=0.0)
            width = max((box[2] for box in boxes), default=0.0) - x0
            height = max((box[3] for box in boxes), default=0.0) - y0
            # The clip path's own transform applies after the box: in the element's user space.
            whole = _multiply(matrix, (width, 0.0, 0.0, height, x0, y0))
            points = clip.points
            clip.points = [coordinate for index in range(0, len(points) - 1, 2)
                           for coordinate in _apply(whole, points[index], points[index + 1])]

        def _place_picture(self, item, node) -> None:
            """The picture of the ``<image>`` ``node`` (svglib's ``item``, which stretches it over
            the image's box) placed as its ``preserveAspectRatio`` says (:class:`PlacedPicture`)."""
            _, _, image = _locate(item, ("Image",))
            if image is not None and hasattr(image.path, "size"):
                image.path = PlacedPicture(image.path, *picture_placement(node.attrib.get("preserveAspectRatio")))

        def _markers(self, node, item):
            """``item`` with the markers ``node`` names at the vertices of its shape, drawn after
            the shape inside its transform and clip. Markers inside a marker are not drawn (as in
            other renderers), and all placements together count against :data:`MAX_MARKERS`."""
            styles = _styles(node)
            wanted = {}
            for position in ("start", "mid", "end"):
                value = styles.get(f"marker-{position}") or styles.get("marker") or ""
                match = _GRADIENT_URL.fullmatch(value.strip())
                target = self._printkit_nodes.get(match.group(2)) if match else None
                if target is not None and local_name(target.tag) == "marker":
                    wanted[position] = target
            if not wanted:
                return item
            container, index, shape = _locate(item, _OUTLINES)
            if shape is None:
                return item
            vertices = _vertices(shape)
            self._printkit_placed += len(vertices)
            if self._printkit_placed > MAX_MARKERS:
                raise SvgRefused(f"places more than {MAX_MARKERS} markers; draw fewer, or convert them to paths")
            width = float(getattr(shape, "strokeWidth", 1.0) or 0.0)
            groups = []
            for number, (x, y, incoming, outgoing) in enumerate(vertices):
                position = "start" if number == 0 else "end" if number == len(vertices) - 1 else "mid"
                target = wanted.get(position)
                if target is None:
                    continue
                if position == "start":
                    angle = outgoing
                elif position == "end":
                    angle = incoming
                else:
                    angle = math.atan2(math.sin(incoming) + math.sin(outgoing), math.cos(incoming) + math.cos(outgoing))
                group = self._marker_group(target, x, y, math.degrees(angle), width, position == "start")
                if group is not None:
                    groups.append(group)
            if container is None:  # a plain shape: it and its markers become a group
                container, index = Group(), 0
                container.add(item)
                item = container
            container.contents[index + 1:index + 1] = groups
            return item

        def _marker_group(self, marker, x: float, y: float, angle: float, stroke_width: float, start: bool):
            orient = (marker.get("orient") or "0").strip()
            if orient == "auto-start-reverse":
                turn = angle + 180 if start else angle
            elif orient == "auto":
                turn = angle
            else:
                turn = _number(orient.removesuffix("deg"), 0.0)
            width = _number(marker.get("markerWidth"), 3.0)
            height = _number(marker.get("markerHeight"), 3.0)
            ref_x, ref_y = _number(marker.get("refX"), 0.0), _number(marker.get("refY"), 0.0)
            group = Group()
            group.translate(x, y)
            group.rotate(turn)
            if (marker.get("markerUnits") or "strokeWidth").strip() != "userSpaceOnUse":
                group.scale(stroke_width, stroke_width)
            box = marker.get("viewBox")
            if box:
                try:
                    bx, by, bw, bh = (float(v) for v in re.split(r"[\s,]+", box.strip()))
                except ValueError:
                    return None
                if not (bw > 0 and bh > 0):
                    return None
                scale = min(width / bw, height / bh)  # preserveAspectRatio xMidYMid meet
                group.translate((width - bw * scale) / 2, (height - bh * scale) / 2)
                group.scale(scale, scale)
                group.translate(-bx, -by)
            group.translate(-ref_x, -ref_y)
            self._printkit_in_marker += 1
            try:
                for child in marker.iter_children():
                    self.renderNode(child, parent=group)
            finally:
                self._printkit_in_marker -= 1
            return group

        def _filled(self, item, node, gradient: Gradient):
            """``item`` with its shape painted with ``gradient``: a fill drawn just beneath the
            shape, inside its transform and clip, the shape itself then only stroking."""
            container, index, shape = _locate(item, _FILLABLE)
            if shape is None:
                return item
            rule = (self.attrConverter.findAttr(node, "fill-rule") or "nonzero").strip()
            opacity = _opacity(self.attrConverter.findAttr(node, "fill-opacity"))
            fill = GradientFill(shape, gradient, self._matrix_of, rule == "evenodd", opacity, self._printkit_viewport)
            shape.fillColor = None  # the gradient is the fill; the shape still strokes
            if container is None:  # a plain shape: it and its fill become a group
                container, index = Group(), 0
                container.add(item)
                item = container
            container.contents.insert(index, _direct(fill))
            return item

    return Converter


def _direct(fill: GradientFill):
    """``fill`` as a node reportlab's renderer draws directly (a DirectDraw shape)."""
    from reportlab.graphics.shapes import DirectDraw

    node = DirectDraw()
    node.getBounds = fill.getBounds
    node.drawDirectly = fill.drawDirectly
    return node


def _paint(canvas, radial: bool, pieces: list[tuple[tuple, bool]], stops: list[tuple[float, Any]],
           extend: bool, opacity: float) -> None:
    """Paint ``pieces`` (shading coordinates, whether backwards) over the clip, in the document's
    colour space; stops' alphas (times ``opacity``) as one constant alpha where they agree, else
    as a soft mask painting the same pieces in grey."""
    from reportlab.pdfbase.pdfdoc import PDFAxialShading, PDFRadialShading

    press = press_of(canvas)
    shading_class = PDFRadialShading if radial else PDFAxialShading
    extended = "[true true]" if extend else "[false false]"
    space = "DeviceCMYK" if press else "DeviceRGB"

    def shadings(components: list[tuple[float, tuple[float, ...]]], colour_space: str) -> list:
        forward = _function(components)
        backward = _function([(1.0 - offset, value) for offset, value in reversed(components)]) \
            if any(back for _, back in pieces) else None
        return [shading_class(*coords, Function=backward if back else forward, ColorSpace=colour_space,
                              Extend=extended) for coords, back in pieces]

    alphas = [min(1.0, max(0.0, float(getattr(color, "alpha", 1.0) or 0.0))) * opacity for _, color in stops]
    if len(set(alphas)) == 1:
        if alphas[0] < 1:
            canvas.setFillAlpha(alphas[0])
    else:
        _soft_mask(canvas, shadings([(offset, (alpha,)) for (offset, _), alpha in zip(stops, alphas)], "DeviceGray"))
    for shading in shadings([(offset, _components(color, press)) for offset, color in stops], space):
        canvas.shade(shading)


def _components(color, cmyk) -> tuple[float, ...]:
    """A stop's colour in the document's space: sRGB (``cmyk`` false), or the inks of ``cmyk``'s
    press (a :class:`~printkit.render.cmyk.Press`, True for the default one)."""
    if not cmyk:
        return color.rgb()
    inks = press_color(color, cmyk if not isinstance(cmyk, bool) else None)
    return (inks.cyan, inks.magenta, inks.yellow, inks.black)


def press_color(color, press=None):
    """A reportlab colour of SVG art as the inks of ``press`` (a :class:`~printkit.render.cmyk.Press`;
    None: the default one), one already CMYK kept. Art's shapes are taken as small: a grey prints
    on K alone (the renderer does not say how large a shape is)."""
    from reportlab.lib.colors import CMYKColor, Color

    if isinstance(color, CMYKColor) or not isinstance(color, Color):
        return color
    from printkit.render.cmyk import DEFAULT_PRESS, ink_of

    c, m, y, k = ink_of(*(round(min(1.0, max(0.0, v)) * 255) for v in (color.red, color.green, color.blue)),
                        press or DEFAULT_PRESS)
    return CMYKColor(c, m, y, k, alpha=color.alpha)


def _function(stops: list[tuple[float, tuple[float, ...]]]):
    """A PDF function from 0..1 to colours, linear between ``stops`` (offsets rising, a repeated
    offset a hard edge)."""
    from reportlab.pdfbase.pdfdoc import PDFExponentialFunction, PDFStitchingFunction

    if stops[0][0] > 0:
        stops = [(0.0, stops[0][1])] + stops
    if stops[-1][0] < 1:
        stops = stops + [(1.0, stops[-1][1])]
    pieces, bounds = [], []
    for (start, first), (end, second) in zip(stops, stops[1:]):
        if end <= start:
            continue  # no width: the next piece starts with the other colour, a hard edge
        if pieces:
            bounds.append(start)
        pieces.append(PDFExponentialFunction(C0=list(first), C1=list(second), N=1))
    if not pieces:
        return PDFExponentialFunction(C0=list(stops[-1][1]), C1=list(stops[-1][1]), N=1)
    if len(pieces) == 1:
        return pieces[0]
    return PDFStitchingFunction(pieces, bounds, [0, 1] * len(pieces), Domain="[0 1]")


def _soft_mask(canvas, shadings: list) -> None:
    """Set a luminosity soft mask painting ``shadings`` in grey (in the current coordinates)."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObjectReference, PDFStream

    doc = canvas._doc
    names = [doc.addShading(shading) for shading in shadings]
    group = PDFStream(PDFDictionary({
        "Type": PDFName("XObject"), "Subtype": PDFName("Form"), "FormType": 1,
        "BBox": PDFArray([-1e6, -1e6, 1e6, 1e6]),
        "Group": PDFDictionary({"Type": PDFName("Group"), "S": PDFName("Transparency"),
                                "CS": PDFName("DeviceGray")}),
        "Resources": PDFDictionary({"Shading": PDFDictionary({name: PDFObjectReference(name) for name in names})}),
    }), "\n".join(f"/{name} sh" for name in names).encode("latin-1"))
    from printkit.render.forms import extra_states

    states = extra_states(canvas)
    number = getattr(canvas, "_printkit_masks", 0) + 1
    canvas._printkit_masks = number
    state_name = f"pkSM{number}"
    states[state_name] = PDFDictionary({
        "Type": PDFName("ExtGState"),
        "SMask": PDFDictionary({"Type": PDFName("Mask"), "S": PDFName("Luminosity"), "G": doc.Reference(group)}),
    })
    canvas._code.append(f"/{state_name} gs")
    doc._pdfVersion = max(tuple(doc._pdfVersion), (1, 4))  # soft masks are PDF 1.4


def _translucent(group, opacity: float):
    """A node drawing ``group`` into a transparency group painted at ``opacity``: what SVG's
    ``opacity`` on an element or a group means."""
    from reportlab.graphics.shapes import DirectDraw

    node = DirectDraw()
    node.getBounds = group.getBounds
    node.drawDirectly = lambda renderer: _draw_translucent(renderer, group, opacity)
    return node


def _draw_translucent(renderer, group, opacity: float) -> None:
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName, PDFStream

    canvas = renderer._canvas
    doc = canvas._doc
    number = getattr(canvas, "_printkit_groups", 0) + 1  # counted per document: nested groups differ
    canvas._printkit_groups = number
    name = f"pkgroup{number}"
    canvas.beginForm(name, -1e6, -1e6, 1e6, 1e6)
    drawing = Drawing(1, 1)
    drawing.add(group)
    kept = canvas.__dict__.get("_drawing")  # the outer renderer's, which the inner one removes
    type(renderer)().draw(drawing, canvas, 0, 0, showBoundary=False)
    canvas.__dict__["_drawing"] = kept
    from printkit.render.forms import end_form

    end_form(canvas)
    form = doc.idToObject[doc.getXObjectName(name)]
    contents = PDFStream()
    contents.content = form.stream
    contents.dictionary["Group"] = PDFDictionary({"Type": PDFName("Group"), "S": PDFName("Transparency")})
    form.Contents = contents
    canvas.saveState()
    canvas.setFillAlpha(opacity)
    canvas.setStrokeAlpha(opacity)
    canvas.doForm(name)
    canvas.restoreState()


def _opacity(value: str | None) -> float:
    try:
        number = float(value) if value not in (None, "") else 1.0
    except ValueError:
        return 1.0
    return min(1.0, max(0.0, number)) if math.isfinite(number) else 1.0


def _viewport_of(root) -> tuple[float, float]:
    view_box = root.get("viewBox")
    if view_box:
        parts = re.split(r"[\s,]+", view_box.strip())
        try:
            return float(parts[2]), float(parts[3])
        except (IndexError, ValueError):
            pass
    return _number(root.get("width"), 100.0), _number(root.get("height"), 100.0)


# An SVG's form, as (width, height, drawing commands, least PDF version), per content and colour
# space: converting an SVG to vectors and drawing them is most of what a page of SVG art costs,
# and the commands of a form that names nothing (no picture, no transparency: no "/Name" in its
# stream) read the same in every document. Kept for the process here (bounded: a long
# `printkit watch` meets many versions of its art), and between builds in the store a build
# lends (:data:`svg_form_store`).
_FORMS = Memo("SVG forms", entries=256)


def kept_form(digest: str, press) -> tuple | None:
    """The form of the SVG art of sha256 ``digest`` in sRGB (``press`` None) or for ``press``, as
    this process or the build's store keeps it; None when neither does."""
    key = (digest, press)
    known = _FORMS.get(key)
    if known is not None:
        return known
    store = svg_form_store.get()
    data = store.get(_stored_name(digest, press)) if store is not None else None
    if data is None:
        return None
    try:
        raw = json.loads(data)
        major, minor = map(int, raw["version"])
        known = (float(raw["width"]), float(raw["height"]),
                 None if raw["commands"] is None else tuple(map(str, raw["commands"])), (major, minor))
    except (ValueError, KeyError, TypeError):
        return None
    _FORMS.put(key, known)
    return known


def keep_form(digest: str, press, form: tuple) -> None:
    """Keep ``form``, just drawn, for the process and in the build's store."""
    store = svg_form_store.get()
    if store is not None:
        store.put(_stored_name(digest, press), json.dumps({"width": form[0], "height": form[1], "commands": form[2],
                                                           "version": form[3]}).encode())
    _FORMS.put((digest, press), form)


def _stored_name(digest: str, press) -> str:
    return f"{digest} {'rgb' if press is None else 'cmyk ' + press.key()}"
