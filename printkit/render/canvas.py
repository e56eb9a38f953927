"""Layout ops drawn onto a reportlab canvas, as vectors, one millimetre to a unit.

Only this module and :mod:`printkit.render.pdf` speak points. :func:`draw_ops` sets up a transform
so that one user-space unit is one millimetre with y pointing down (the card frame of
:mod:`printkit.layout.ops`), then draws each op literally: shapes as path code (the same call
written once per process, :data:`_PATHS`), text in TrueType fonts registered with reportlab once
per process, PNG and JPEG pictures through :mod:`printkit.render.pictures`, SVG art as one form
XObject per document (its commands kept per content and press by :mod:`printkit.render.svg`).
Colours and pictures follow the document's press (:func:`printkit.render.cmyk.press_of`).

Several threads may draw at once, each on its own canvas: what is kept between documents lives
in :class:`printkit.memo.Memo` stores.
"""

from __future__ import annotations

import io
import re
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from printkit.errors import BuildError, ImageError, SvgRefused
from printkit.fonts import font_name, ttfont, when_fonts_change
from printkit.layout.geometry import Box, fit_image
from printkit.layout.ops import Ellipse, Image, Line, Op, Polygon, Rect, Text
from printkit.memo import Memo
from printkit.render import pdfx
from printkit.render.cmyk import DEFAULT_PRESS, Press, press_of
from printkit.render.forms import end_form
from printkit.units import mm_to_pt

PT_PER_MM = mm_to_pt(1.0)


def draw_ops(canvas: Canvas, ops: Iterable[Op], x_mm: float, y_mm: float, page_height_mm: float,
             scale: float = 1.0, clip_mm: Box | None = None, _images: "DocumentImages | None" = None) -> None:
    """Draw ``ops`` (card frame, mm) with the frame's origin at ``(x_mm, y_mm)`` from the page's top-left.

    ``scale`` enlarges or shrinks the drawing about that origin (a figure in a rulebook);
    ``clip_mm`` (card frame) limits painting to a box, e.g. a card's trim on a sheet.
    The canvas state is restored afterwards.
    """
    canvas.saveState()
    enter_card_frame(canvas, x_mm, y_mm, page_height_mm, scale, clip_mm)
    draw_all(canvas, ops, _images if _images is not None else _document_images(canvas))
    canvas.restoreState()


def _document_images(canvas: Canvas) -> "DocumentImages":
    """The pictures drawn so far in ``canvas``'s document: each SVG becomes one form per document,
    however many separate drawings (a rulebook's figures) use it."""
    images = getattr(canvas, "_printkit_images", None)
    if images is None:
        images = DocumentImages()
        canvas._printkit_images = images
    return images


def enter_card_frame(canvas: Canvas, x_mm: float, y_mm: float, page_height_mm: float, scale: float,
                      clip_mm: Box | None, clockwise_deg: float = 0) -> None:
    """Make one user unit a millimetre, y downwards, origin at the card's trim corner; turn; clip."""
    canvas.translate(mm_to_pt(x_mm), mm_to_pt(page_height_mm - y_mm))
    canvas.scale(PT_PER_MM * scale, -PT_PER_MM * scale)
    if clockwise_deg:
        canvas.rotate(clockwise_deg)  # in this y-down frame a positive angle turns clockwise
    if clip_mm is not None:
        path = canvas.beginPath()
        path.rect(clip_mm.x_mm, clip_mm.y_mm, clip_mm.w_mm, clip_mm.h_mm)
        canvas.clipPath(path, stroke=0, fill=0)


def draw_all(canvas: Canvas, ops: Iterable[Op], images: "DocumentImages") -> None:
    pen = _Pen(canvas)
    for op in ops:
        _DRAW[type(op)](pen, op, images)


class _Pen:
    """Sets colours and line width only when they change (a face repeats the same few)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.press = press_of(canvas)
        self.cmyk = self.press is not None
        self.fill: str | tuple[str, bool] | None = None
        self.stroke: str | None = None
        self.width: float | None = None

    def set_fill(self, color: str, large: bool = False) -> None:
        """The fill colour, in the document's colour space (sRGB, or the press's CMYK; ``large``:
        for a large solid area, which may take a rich black)."""
        if self.cmyk:
            self.canvas.setFillColorCMYK(*_cmyk(color, self.press, large))
        else:
            self.canvas.setFillColorRGB(*_rgb(color))

    def colors(self, fill: str | None, stroke: str | None, stroke_mm: float,
               extent_mm: float = 0.0) -> tuple[int, int]:
        """Set the fill and stroke of a shape whose box is ``extent_mm`` on its shorter side (a press
        gives a large one's black fill its rich black); strokes are thin: K alone for a grey."""
        if fill is not None:
            large = self.cmyk and self.press.rich_black is not None and extent_mm >= self.press.rich_black_from_mm
            # In sRGB the colour alone says what is set (the bytes stay as they were).
            key = (fill, large) if self.cmyk else fill
            if key != self.fill:
                self.set_fill(fill, large)
                self.fill = key
        if stroke is not None:
            if stroke != self.stroke:
                if self.cmyk:
                    self.canvas.setStrokeColorCMYK(*_cmyk(stroke, self.press))
                else:
                    self.canvas.setStrokeColorRGB(*_rgb(stroke))
                self.stroke = stroke
            if stroke_mm != self.width:
                self.canvas.setLineWidth(stroke_mm)
                self.width = stroke_mm
        return int(fill is not None), int(stroke is not None)


@lru_cache(maxsize=256)
def _rgb(color: str) -> tuple[float, float, float]:
    """``#rrggbb`` as reportlab's 0..1 floats."""
    try:
        value = int(color[1:], 16)
        if len(color) != 7 or color[0] != "#":
            raise ValueError
    except ValueError:
        raise BuildError(f"not a colour: {color!r} (expected #rrggbb)") from None
    return ((value >> 16) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255)


def _cmyk(color: str, press: Press | None = None, large: bool = False) -> tuple[float, float, float, float]:
    """``#rrggbb`` as ``press``'s ink values 0..1 (checked as :func:`_rgb` checks it): a grey on
    K alone unless ``large`` (:func:`printkit.render.cmyk.ink_of`)."""
    from printkit.render.cmyk import ink_of

    r, g, b = _rgb(color)
    return ink_of(round(r * 255), round(g * 255), round(b * 255), press or DEFAULT_PRESS, large)


def _rect(pen: _Pen, op: Rect, _images) -> None:
    canvas = pen.canvas
    # Templates squeezed onto tiny cards can compute empty or inverted boxes: nothing to draw
    # (reportlab would draw them mirrored), and corners round at most half the shorter side.
    if not (op.w_mm > 0 and op.h_mm > 0):
        return
    fill, stroke = pen.colors(op.fill, op.stroke, op.stroke_mm, min(op.w_mm, op.h_mm))
    if not (fill or stroke):
        return
    radius_mm = min(op.radius_mm, op.w_mm / 2, op.h_mm / 2)
    if radius_mm > 0:
        _path(canvas, canvas.roundRect, (op.x_mm, op.y_mm, op.w_mm, op.h_mm, radius_mm), stroke, fill)
    else:
        _path(canvas, canvas.rect, (op.x_mm, op.y_mm, op.w_mm, op.h_mm), stroke, fill)


# The path code reportlab writes for a shape, by its call. A layout draws its frames, bands and
# badges at the same place on every card: written out once, then repeated.
_PATHS = Memo("path code", entries=4096)


def _path(canvas: Canvas, draw, numbers: tuple[float, ...], *paint: int) -> None:
    """``draw(*numbers, *paint)`` (a canvas method whose code depends on nothing but its arguments
    and the fill rule), or the code it wrote for the same call before."""
    if 0 in numbers:  # 0.0 and -0.0 are one key but may print differently: drawn every time
        draw(*numbers, *paint)
        return
    key = (draw.__name__, canvas._fillMode, numbers, paint)
    code = _PATHS.get(key)
    if code is not None:
        canvas._code.extend(code)
        return
    start = len(canvas._code)
    draw(*numbers, *paint)
    _PATHS.put(key, tuple(canvas._code[start:]))


# The code of a polygon, by its points and paint: a face's symbols, drawn on a card's sheet, are
# drawn again on its proof page and often on other cards.
_POLYGONS = Memo("polygon code", entries=4096, max_bytes=16 << 20)


def _polygon(pen: _Pen, op: Polygon, _images) -> None:
    canvas = pen.canvas
    fill, stroke = pen.colors(op.fill, op.stroke, op.stroke_mm, _extent(op.points) if pen.cmyk else 0.0)
    if not (fill or stroke) or len(op.points) < 2:
        return
    key = (op.points, fill, stroke)  # 0.0 and -0.0, one key, both print as "0"
    code = _POLYGONS.get(key)
    if code is None:
        # Shapes arrive as many flattened points: written here directly (0.01 mm is finer than
        # any printer dot), which is several times faster and smaller than one reportlab call per
        # point.
        (x0, y0), rest = op.points[0], op.points[1:]
        parts = [f"{_num(x0)} {_num(y0)} m"]
        parts.extend(f"{_num(x)} {_num(y)} l" for x, y in rest)
        parts.append(_PAINT[fill, stroke])
        code = " ".join(parts)
        _POLYGONS.put(key, code, size=2 * len(code) + 40 * len(op.points))
    canvas.addLiteral(code)


def _extent(points) -> float:
    """The shorter side of the box around ``points`` (0 for none)."""
    if not points:
        return 0.0
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(max(xs) - min(xs), max(ys) - min(ys))


# Close the path, then fill (even-odd, as reportlab does), stroke, or both.
_PAINT = {(1, 0): "h f*", (0, 1): "h S", (1, 1): "h B*"}


def _num(value: float) -> str:
    """A coordinate for the content stream, to 0.01 of a unit, without trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _ellipse(pen: _Pen, op: Ellipse, _images) -> None:
    canvas = pen.canvas
    if not (op.rx_mm > 0 and op.ry_mm > 0):
        return
    fill, stroke = pen.colors(op.fill, op.stroke, op.stroke_mm, 2 * min(op.rx_mm, op.ry_mm))
    if fill or stroke:
        _path(canvas, canvas.ellipse, (op.cx_mm - op.rx_mm, op.cy_mm - op.ry_mm, op.cx_mm + op.rx_mm,
                                       op.cy_mm + op.ry_mm), stroke, fill)


def _line(pen: _Pen, op: Line, _images) -> None:
    pen.colors(None, op.color, op.width_mm)
    _path(pen.canvas, pen.canvas.line, (op.x1_mm, op.y1_mm, op.x2_mm, op.y2_mm))


def _text(pen: _Pen, op: Text, _images) -> None:
    canvas = pen.canvas
    name = register_font(op.font)
    if not (op.rotate_deg or op.slant_deg) and op.anchor == "start":
        code = _upright_text(canvas, name, op)
        if code is not None:
            canvas._code.extend(code)
            return
    canvas.saveState()  # the fill colour set here ends with restoreState, so the pen is unchanged
    canvas.translate(op.x_mm, op.y_mm)
    canvas.scale(1, -1)  # text upright again inside the y-down frame
    if op.rotate_deg:
        canvas.rotate(op.rotate_deg)
    if op.slant_deg:
        canvas.skew(0, op.slant_deg)  # x moves right by tan(slant) per unit above the baseline
    pen.set_fill(op.color)
    canvas.setFont(name, op.size_mm)
    if op.anchor == "middle":
        canvas.drawCentredString(0, 0, op.text)
    elif op.anchor == "end":
        canvas.drawRightString(0, 0, op.text)
    else:
        canvas.drawString(0, 0, op.text)
    canvas.restoreState()


def _upright_text(canvas: Canvas, name: str, op: Text) -> tuple[str, ...] | None:
    """The content-stream lines the canvas calls of :func:`_text` write for an upright, left-anchored
    text in a TrueType font, written directly; None where that shortcut does not apply.

    Cards set thousands of lines of text, and reportlab's way there (a saved state, two transforms
    merged by re-parsing the first, a text object, a width measured and thrown away) costs several
    times the writing. These are the very bytes it writes: the merged ``cm`` is formatted from the
    numbers as the first transform printed them, the font's subsets are looked up through the
    document as ``drawString`` does (so subsets and resource names come out the same), and
    ``tests/render/test_pdf.py`` compares the two ways. The canvas's own state is left as its
    ``restoreState`` would leave it.
    """
    font = pdfmetrics.getFont(name)
    if not getattr(font, "_dynamicFont", False) or getattr(canvas, "_enforceColorSpace", None) or not canvas.bottomup:
        return None
    doc = canvas._doc
    size = op.size_mm
    escape = canvas._escape
    text = op.text
    first = _first_subset(canvas, font)
    if first[0].issuperset(text):  # every character already has a code in the first subset
        shown = [f"{first[2]} {fp_str(size)} Tf {fp_str(size * 1.2)} TL",
                 f"({escape(text.translate(first[1]).encode('latin-1'))}) Tj"]
    else:
        canvas._printkit_first_subsets.pop(name, None)  # codes may be given now: look again next time
        shown = []
        current = -1
        for subset, chunk in font.splitString(text, doc):
            if subset != current:
                shown.append(f"{font.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf {fp_str(size * 1.2)} TL")
                current = subset
            shown.append(f"({escape(chunk)}) Tj")
    # translate(x, y) prints "1 0 0 1 x y cm"; scale(1, -1) reads those numbers back and merges.
    _, _, _, _, e0, f0 = map(float, fp_str(1, 0, 0, 1, op.x_mm, op.y_mm).split())
    a0, b0, c0, d0 = 1.0, 0.0, 0.0, 1.0
    a, b, c, d, e, f = 1, 0, 0, -1, 0, 0
    matrix = fp_str(a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d, a0 * e + c0 * f + e0,
                    b0 * e + d0 * f + f0)
    color = f"{fp_str(_cmyk(op.color, press_of(canvas)))} k" if (press_of(canvas) is not None) else f"{fp_str(_rgb(op.color))} rg"
    return ("q", f"{matrix} cm", color,
            f"BT {'1 0 0 1 %s Tm' % fp_str(0, 0)} {' '.join(shown)} T* ET", "Q")


def _first_subset(canvas: Canvas, font) -> tuple[frozenset[str], dict[int, int], str]:
    """The characters ``font`` codes in its first subset in this document, their codes (a table
    for ``str.translate``) and the subset's name.

    What ``splitString`` gives a text whose characters are all there, read without its loop over
    characters in Python: once a document's fonts are seeded (:func:`_seed_fonts`), every text of
    a card is.
    """
    found = getattr(canvas, "_printkit_first_subsets", None)
    if found is None:
        found = canvas._printkit_first_subsets = {}
    entry = found.get(font.fontName)
    if entry is None:
        doc = canvas._doc
        state = font.state.get(doc)
        codes = {cp: n for cp, n in state.assignments.items() if n < 256 and cp != 0xA0} if state else {}
        # No subset yet (nothing coded): an empty set sends every text the long way, which makes one.
        name = font.getSubsetInternalName(0, doc) if state else ""
        entry = found[font.fontName] = (frozenset(map(chr, codes)), codes, name)
    return entry


def _image(pen: _Pen, op: Image, images: "DocumentImages") -> None:
    canvas = pen.canvas
    px_w, px_h = images.size(op.path)
    turns = op.quarter_turns % 4
    if turns % 2:
        px_w, px_h = px_h, px_w  # the turned picture's proportions are fitted
    if not (op.w_mm > 0 and op.h_mm > 0):
        return  # an empty box (a template squeezed onto a tiny card) shows nothing
    box = Box(op.x_mm, op.y_mm, op.w_mm, op.h_mm)
    drawn = fit_image(px_w, px_h, box, op.fit)
    canvas.saveState()
    if op.fit == "cover":
        path = canvas.beginPath()
        path.rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm)
        canvas.clipPath(path, stroke=0, fill=0)
    # Images are placed upright: flip the y-down frame back locally around the image's box.
    canvas.translate(drawn.x_mm, drawn.bottom_mm)
    canvas.scale(1, -1)
    w_mm, h_mm = drawn.w_mm, drawn.h_mm
    if turns:
        # Turn counter-clockwise about the drawn box's corner, then move the picture back into it.
        canvas.translate(*((0, 0), (w_mm, 0), (w_mm, h_mm), (0, h_mm))[turns])
        canvas.rotate(90 * turns)
        if turns % 2:
            w_mm, h_mm = h_mm, w_mm
    images.draw(canvas, op.path, w_mm, h_mm, op.color)
    canvas.restoreState()


# EXIF orientation -> the matrix (a, b, c, d, e, f) placing a picture's stored pixels, drawn in
# the unit square, into a w x h box (y up) as Pillow's ImageOps.exif_transpose shows them.
_ORIENTED = {
    2: lambda w, h: (-w, 0, 0, h, w, 0),  # mirrored left to right
    3: lambda w, h: (-w, 0, 0, -h, w, h),  # half a turn
    4: lambda w, h: (w, 0, 0, -h, 0, h),  # mirrored top to bottom
    5: lambda w, h: (0, -h, -w, 0, w, h),  # transposed
    6: lambda w, h: (0, -h, w, 0, 0, h),  # a quarter turn clockwise
    7: lambda w, h: (0, h, w, 0, 0, 0),  # transversed
    8: lambda w, h: (0, h, -w, 0, w, 0),  # a quarter turn anticlockwise
}


@contextmanager
def oriented(canvas: Canvas, orientation: int, x: float, y: float, w: float, h: float):
    """The box (x, y, w, h) to draw a picture's stored pixels in, for the picture to show in the
    box (x, y, w, h) of the current (y-up) frame as its EXIF ``orientation`` says: that box when it
    is upright, else the unit square of a frame turned or mirrored into it (for the ``with``)."""
    if orientation == 1:
        yield x, y, w, h
        return
    # Stored pixels embedded as they are, turned or mirrored into the box as shown.
    a, b, c, d, e, f = _ORIENTED[orientation](w, h)
    canvas.saveState()
    canvas.transform(a, b, c, d, e + x, f + y)
    try:
        yield 0, 0, 1, 1
    finally:
        canvas.restoreState()


class DocumentImages:
    """The images of one document: their sizes, read once per path, and how each is drawn.

    A PNG or JPEG is drawn by file name (reportlab embeds it once per document). An SVG is drawn
    as vectors: its checked drawing (:func:`printkit.images.svg_art`) becomes one form XObject per
    document, placed wherever the art appears.
    """

    def __init__(self) -> None:
        self._sizes: dict[Path, tuple[float, float]] = {}
        self._svgs: dict[Path, object] = {}  # path -> SvgArt
        self._svg_forms: set[str] = set()

    def size(self, path: Path) -> tuple[float, float]:
        """Pixels of a picture, points of an SVG: only the ratio matters for fitting."""
        if path not in self._sizes:
            # Pictures' modules are imported by the documents that draw one (most cards draw none).
            from printkit.images import is_svg, picture

            if is_svg(path):
                width, height, _, _ = self._svg_commands(path, None)
                self._sizes[path] = (width, height)
            else:
                try:
                    checked = picture(path)
                except ImageError as exc:
                    raise BuildError(f"image {str(path)!r} {exc}") from None
                self._sizes[path] = (checked.width, checked.height)
        return self._sizes[path]

    def draw(self, canvas: Canvas, path: Path, w: float, h: float, color: str | None = None) -> None:
        """The image upright in the box from (0, 0) to (w, h) of the current (y-up) frame; an
        SVG's ``currentColor`` painting ``color`` when one is given."""
        from printkit.images import is_svg, picture
        from printkit.render.pictures import refuse_transparency, register_cmyk_picture, register_jpeg, register_picture

        if not is_svg(path):
            try:
                checked = picture(path)  # the bytes checked when the spec was read
            except ImageError as exc:
                raise BuildError(f"image {str(path)!r} {exc}") from None
            with oriented(canvas, checked.orientation, 0, 0, w, h) as (x, y, w, h):
                if (press_of(canvas) is not None):
                    canvas.drawImage(register_cmyk_picture(canvas, path, checked.digest, checked.data),
                                     x, y, w, h, mask="auto")
                    refuse_transparency(canvas, path)
                elif checked.png:
                    # Embedded as it is, or decoded once.
                    canvas.drawImage(register_picture(canvas, path, checked), x, y, w, h,
                                     mask="auto")
                else:  # a JPEG: embedded as its own bytes, read from the file when the PDF is written
                    canvas.drawImage(register_jpeg(canvas, path, checked), x, y, w, h, mask="auto")
            return
        art = self._svg(path)
        if color is not None:
            art = art.tinted(color)
        name = f"svg-{art.digest[:20]}"
        width, height, _, version = self._svg_commands(path, press_of(canvas))  # refused here, before the form
        if getattr(press_of(canvas), "pdfx", False) and tuple(version) > pdfx.PDF_VERSION:
            raise pdfx.refuse_transparency(str(path), canvas._doc.info.title)
        if name not in self._svg_forms:
            _svg_form(canvas, name, art)
            self._svg_forms.add(name)
        canvas.saveState()
        canvas.scale(w / width, h / height)
        canvas.doForm(name)
        canvas.restoreState()

    def _svg_commands(self, path: Path, press: "Press | None"):
        try:
            return _svg_commands(self._svg(path), press)
        except ImageError as exc:
            raise BuildError(f"image {str(path)!r} {exc}") from None

    def _svg(self, path: Path):
        # Read again and checked in full unless these very bytes were checked already (the parse
        # is cached by content): a file swapped since the spec was checked is never drawn unchecked.
        if path not in self._svgs:
            from printkit.images import read_image, svg_art

            try:
                self._svgs[path] = svg_art(read_image(path))
            except ImageError as exc:
                raise BuildError(f"image {str(path)!r} {exc}") from None
        return self._svgs[path]


def _svg_form(canvas: Canvas, name: str, art) -> None:
    """Define the form XObject ``name`` drawing ``art`` in its own box, (0, 0) to its size, y up."""
    width, height, commands, version = _svg_commands(art, press_of(canvas))
    canvas.beginForm(name, 0, 0, width, height)
    if commands is None:
        _draw_svg(canvas, art)
    else:
        canvas._code.extend(commands)
        # What drawing it would have asked of the document (PDF 1.4 for its transparency settings).
        canvas._doc._pdfVersion = max(canvas._doc._pdfVersion, version)
    end_form(canvas)


def check_svg_drawing(art) -> None:
    """Refuse (ImageError) SVG art this backend cannot draw, by drawing it as a document would:
    the drawing is kept, so a build after the check draws nothing twice."""
    _svg_commands(art, None)


def _draw_checked(canvas: Canvas, art) -> None:
    """:func:`_draw_svg`, where a number no PDF can hold (reportlab refuses 1e308), a transform
    with no inverse or nesting deeper than Python's stack is the art's ImageError, not a failure
    of the build."""
    try:
        _draw_svg(canvas, art)
    except ImageError:
        raise
    except SvgRefused as exc:  # a gradient past a limit, found as it is drawn
        raise ImageError(str(exc)) from None
    except (ValueError, OverflowError) as exc:
        number = re.search(r"too large (\S+)", str(exc))
        raise ImageError(f"cannot be drawn: a number in it{f' ({number.group(1)})' if number else ''} "
                         "is too large for a PDF") from None
    except RecursionError:
        raise ImageError("cannot be drawn: it nests groups and <use> too deeply") from None
    except ZeroDivisionError:  # reportlab undoes each transform by its inverse
        raise ImageError("cannot be drawn: its transforms together scale a group to nothing; "
                         "leave out the group that is scaled to nothing") from None


def _draw_svg(canvas: Canvas, art) -> None:
    from reportlab.graphics import renderPDF

    _vector_renderer()().draw(renderPDF.renderScaledDrawing(art.drawing), canvas, 0, 0, showBoundary=False)


def _svg_commands(art, press: Press | None) -> tuple[float, float, tuple[str, ...] | None, tuple[int, int]]:
    """``art``'s size in points, its form's commands (None: it names document resources and is
    drawn afresh in each document) and the least PDF version drawing it asks for (for a PDF/X
    press, above 1.3 when it uses transparency), in sRGB (``press`` None) or for ``press``: kept
    (:func:`printkit.render.svg.kept_form`), else drawn now and kept."""
    from printkit.render.svg import keep_form, kept_form

    known = kept_form(art.digest, press)
    if known is None:
        scratch = Canvas(io.BytesIO(), invariant=1)
        if press is not None:
            scratch._printkit_cmyk = press
            if press.pdfx:
                scratch._doc._pdfVersion = pdfx.PDF_VERSION
        scratch.beginForm("scratch", 0, 0, art.width, art.height)
        start = len(scratch._code)
        _draw_checked(scratch, art)
        commands = tuple(scratch._code[start:])
        if press is not None and press.pdfx:  # the version says whether the art is transparent
            scratch._doc._pdfVersion = (1, 4) if pdfx.transparent(scratch) else pdfx.PDF_VERSION
        known = (art.width, art.height, None if any("/" in line for line in commands) else commands,
                 tuple(scratch._doc._pdfVersion))
        keep_form(art.digest, press, known)
    return known

@lru_cache(maxsize=1)
def _vector_renderer():
    from reportlab.graphics import renderPDF

    from reportlab.lib.utils import ImageReader

    from printkit.images import EmbeddedPicture
    from printkit.render.pictures import register_cmyk_picture, shown_source
    from printkit.render.svg import PlacedPicture, press_color

    class VectorRenderer(renderPDF._PDFRenderer):
        """reportlab's Drawing renderer without its font state: a checked SVG has no text, and the
        font renderPDF would select first (Helvetica, never embedded) must not reach the PDF."""

        def applyStateChanges(self, delta, newState):
            delta = {k: v for k, v in delta.items() if k not in ("fontName", "fontSize")}
            super().applyStateChanges(delta, newState)

        def setStrokeColor(self, c):
            self._canvas.setStrokeColor(press_color(c, press_of(self._canvas)) if (press_of(self._canvas) is not None) else c)

        def setFillColor(self, c):
            self._canvas.setFillColor(press_color(c, press_of(self._canvas)) if (press_of(self._canvas) is not None) else c)

        def drawImage(self, image):
            # A picture embedded in the SVG (a data: URI, checked: images.EmbeddedPicture), shown
            # as a browser shows it: placed as its <image> says (svg.PlacedPicture), turned as its
            # EXIF says, its pixels as viewers show them. An image XObject, as reportlab cannot put
            # inline images in a form. svglib gives nothing else here.
            placed = image.path
            if not (isinstance(placed, PlacedPicture) and isinstance(placed.picture, EmbeddedPicture)):
                return
            picture, canvas = placed.picture, self._canvas
            if placed.slice:  # the picture covers the image's box: clipped to it
                canvas.saveState()
                path = canvas.beginPath()
                path.rect(image.x, image.y, image.width, image.height)
                canvas.clipPath(path, stroke=0, fill=0)
            box = placed.within(image.x, image.y, image.width, image.height)
            with oriented(canvas, picture.orientation, *box) as (x, y, w, h):
                if (press_of(canvas) is not None):
                    key = register_cmyk_picture(canvas, f"svg-picture-{picture.digest}", picture.digest, picture.data)
                    canvas.drawImage(key, x, y, w, h, mask="auto")
                else:
                    canvas.drawImage(ImageReader(shown_source(picture.data)), x, y, w, h, mask="auto")
            if placed.slice:
                canvas.restoreState()

    return VectorRenderer


def register_font(path: Path) -> str:
    """Register a TrueType font with reportlab (once per process) and return its PDF name.

    reportlab embeds a subset of each registered TrueType font per document that uses it.
    """
    key = str(path)  # a Path's text is kept, its hash is not: cheaper to look up by text
    name = _FONT_NAMES.get(key)
    if name is None:
        name = font_name(Path(path))
        _FONT_NAMES.put(key, name)
    if name not in pdfmetrics._fonts:  # (its public list of names is made afresh on every call)
        with _REGISTERING:  # registered once: a second registration would replace the font in use
            if name not in pdfmetrics._fonts:
                pdfmetrics.registerFont(ttfont(Path(path)))
    return name


_REGISTERING = threading.Lock()


_FONT_NAMES = Memo("font names", entries=1024)  # font file -> its PDF name (fonts.font_name, by path)
when_fonts_change(_FONT_NAMES.clear)


_DRAW = {Rect: _rect, Polygon: _polygon, Ellipse: _ellipse, Line: _line, Text: _text, Image: _image}
