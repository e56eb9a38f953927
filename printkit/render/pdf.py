"""PDF backend: draws layout ops with reportlab, as vectors, with embedded subset TrueType fonts.

Only this module speaks points. :func:`draw_ops` sets up a transform so that one user-space unit is
one millimetre with y pointing down (the card frame of :mod:`printkit.layout.ops`), then draws each
op literally. Documents are made with reportlab's ``invariant`` mode, so the same pages give the
same bytes. Images are drawn by file name, which reportlab embeds once per document however often
they are drawn.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Iterable, Sequence

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from printkit.errors import BuildError
from printkit.fonts import SYMBOLS, _ttfont, font_name
from printkit.layout.geometry import Box
from printkit.layout.imposition import Page
from printkit.layout.ops import Ellipse, Image, Line, Op, Polygon, Rect, Text
from printkit.units import mm_to_pt

PT_PER_MM = mm_to_pt(1.0)


def new_canvas(target, page_width_mm: float, page_height_mm: float, title: str = "") -> Canvas:
    """A reportlab canvas with reproducible output (no dates or random IDs in the file)."""
    # A TrueType initial font: reportlab's default (Helvetica) would be referenced on every page
    # without being embedded, which print shops' preflight checks reject.
    canvas = Canvas(target, pagesize=(mm_to_pt(page_width_mm), mm_to_pt(page_height_mm)),
                    invariant=1, pageCompression=1, initialFontName=register_font(SYMBOLS))
    canvas.setCreator("printkit")
    canvas.setProducer("printkit (reportlab)")
    if title:
        canvas.setTitle(title)
    return canvas


def render_pages(pages: Sequence[Page], title: str = "") -> bytes:
    """One PDF holding ``pages`` (each with its own size and page boxes), as bytes."""
    if not pages:
        raise BuildError(f"nothing to render for {title or 'a PDF'!r}: no pages")
    buffer = io.BytesIO()
    first = pages[0].size
    canvas = new_canvas(buffer, first.width_mm, first.height_mm, title)
    images = _ImageSizes()
    for page in pages:
        w, h = page.size.width_mm, page.size.height_mm
        canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        canvas.setTrimBox(_box_pt(page.trim or Box(0, 0, w, h), h))
        canvas.setBleedBox(_box_pt(page.bleed or Box(0, 0, w, h), h))
        for placement in page.placements:
            draw_ops(canvas, placement.face.ops, placement.x_mm, placement.y_mm, h,
                     clip_mm=placement.clip, _images=images)
        if page.ops:
            draw_ops(canvas, page.ops, 0.0, 0.0, h, _images=images)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _box_pt(box: Box, page_height_mm: float) -> list[float]:
    """A page-frame box (y down, mm) as a PDF box array [x1 y1 x2 y2] in points (y up)."""
    return [round(mm_to_pt(v), 4) for v in
            (box.x_mm, page_height_mm - box.bottom_mm, box.right_mm, page_height_mm - box.y_mm)]


def draw_ops(canvas: Canvas, ops: Iterable[Op], x_mm: float, y_mm: float, page_height_mm: float,
             scale: float = 1.0, clip_mm: Box | None = None, _images: "_ImageSizes | None" = None) -> None:
    """Draw ``ops`` (card frame, mm) with the frame's origin at ``(x_mm, y_mm)`` from the page's top-left.

    ``scale`` enlarges or shrinks the drawing about that origin (a figure in a rulebook);
    ``clip_mm`` (card frame) limits painting to a box, e.g. a card's trim on a sheet.
    The canvas state is restored afterwards.
    """
    images = _images if _images is not None else _ImageSizes()
    canvas.saveState()
    canvas.translate(mm_to_pt(x_mm), mm_to_pt(page_height_mm - y_mm))
    canvas.scale(PT_PER_MM * scale, -PT_PER_MM * scale)
    if clip_mm is not None:
        path = canvas.beginPath()
        path.rect(clip_mm.x_mm, clip_mm.y_mm, clip_mm.w_mm, clip_mm.h_mm)
        canvas.clipPath(path, stroke=0, fill=0)
    for op in ops:
        _DRAW[type(op)](canvas, op, images)
    canvas.restoreState()


def _set_colors(canvas: Canvas, fill: str | None, stroke: str | None, stroke_mm: float) -> tuple[int, int]:
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(stroke_mm)
    return int(fill is not None), int(stroke is not None)


def _rect(canvas: Canvas, op: Rect, _images) -> None:
    fill, stroke = _set_colors(canvas, op.fill, op.stroke, op.stroke_mm)
    if not (fill or stroke):
        return
    if op.radius_mm > 0:
        canvas.roundRect(op.x_mm, op.y_mm, op.w_mm, op.h_mm, op.radius_mm, stroke=stroke, fill=fill)
    else:
        canvas.rect(op.x_mm, op.y_mm, op.w_mm, op.h_mm, stroke=stroke, fill=fill)


def _polygon(canvas: Canvas, op: Polygon, _images) -> None:
    fill, stroke = _set_colors(canvas, op.fill, op.stroke, op.stroke_mm)
    if not (fill or stroke) or len(op.points) < 2:
        return
    path = canvas.beginPath()
    path.moveTo(*op.points[0])
    for point in op.points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.drawPath(path, stroke=stroke, fill=fill)


def _ellipse(canvas: Canvas, op: Ellipse, _images) -> None:
    fill, stroke = _set_colors(canvas, op.fill, op.stroke, op.stroke_mm)
    if fill or stroke:
        canvas.ellipse(op.cx_mm - op.rx_mm, op.cy_mm - op.ry_mm, op.cx_mm + op.rx_mm, op.cy_mm + op.ry_mm,
                       stroke=stroke, fill=fill)


def _line(canvas: Canvas, op: Line, _images) -> None:
    canvas.setStrokeColor(op.color)
    canvas.setLineWidth(op.width_mm)
    canvas.line(op.x1_mm, op.y1_mm, op.x2_mm, op.y2_mm)


def _text(canvas: Canvas, op: Text, _images) -> None:
    name = register_font(op.font)
    canvas.saveState()
    canvas.translate(op.x_mm, op.y_mm)
    canvas.scale(1, -1)  # text upright again inside the y-down frame
    if op.rotate_deg:
        canvas.rotate(op.rotate_deg)
    canvas.setFillColor(op.color)
    canvas.setFont(name, op.size_mm)
    if op.anchor == "middle":
        canvas.drawCentredString(0, 0, op.text)
    elif op.anchor == "end":
        canvas.drawRightString(0, 0, op.text)
    else:
        canvas.drawString(0, 0, op.text)
    canvas.restoreState()


def _image(canvas: Canvas, op: Image, images: "_ImageSizes") -> None:
    px_w, px_h = images.size(op.path)
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
    canvas.drawImage(str(op.path), 0, 0, drawn.w_mm, drawn.h_mm, mask="auto")
    canvas.restoreState()


def fit_image(px_w: int, px_h: int, box: Box, fit: str) -> Box:
    """Where an image of ``px_w`` x ``px_h`` pixels goes to ``cover``, ``contain`` or ``stretch`` ``box``."""
    if fit == "stretch" or px_w <= 0 or px_h <= 0:
        return box
    ratio = px_w / px_h
    scale = max if fit == "cover" else min
    w = scale(box.w_mm, box.h_mm * ratio)
    h = w / ratio
    return Box(box.cx_mm - w / 2, box.cy_mm - h / 2, w, h)


class _ImageSizes:
    """Pixel sizes of the images drawn in one document, read once per path."""

    def __init__(self) -> None:
        self._sizes: dict[Path, tuple[int, int]] = {}

    def size(self, path: Path) -> tuple[int, int]:
        if path not in self._sizes:
            from PIL import Image as PILImage

            try:
                with PILImage.open(path) as img:
                    self._sizes[path] = img.size
            except OSError as exc:
                raise BuildError(f"cannot read image {str(path)!r}: {exc}") from None
        return self._sizes[path]


def register_font(path: Path) -> str:
    """Register a TrueType font with reportlab (once per process) and return its PDF name.

    reportlab embeds a subset of each registered TrueType font per document that uses it.
    """
    name = font_name(Path(path))
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(_ttfont(Path(path)))
    return name


_DRAW = {Rect: _rect, Polygon: _polygon, Ellipse: _ellipse, Line: _line, Text: _text, Image: _image}
