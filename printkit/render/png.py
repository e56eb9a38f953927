"""PNG backend: draws the same layout ops as the PDF backend with Pillow.

Only this module speaks pixels. A face is drawn at ``SUPERSAMPLE`` times the target resolution
and then reduced with a box filter, which antialiases edges and text the way a printer's RIP would.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from printkit.deck import CardSize
from printkit.errors import BuildError
from printkit.layout.geometry import Box, fit_image
from printkit.layout.ops import Ellipse, Face, Image, Line, Op, Polygon, Rect, Text
from printkit.units import mm_to_px

DPI = 300
# Drawn at 3x and reduced: smooth edges at a fraction of the cost of 4x.
SUPERSAMPLE = 3


def card_pixel_size(size: CardSize, dpi: float = DPI) -> tuple[int, int]:
    """Pixel size of a card image with bleed, e.g. 825 x 1125 for 2.5 x 3.5 in with 1/8 in bleed."""
    return round(mm_to_px(size.bleed_width_mm, dpi)), round(mm_to_px(size.bleed_height_mm, dpi))


def render_face(face: Face, size: CardSize, dpi: float = DPI) -> PILImage.Image:
    """The face with its bleed as an RGB image (the trim box starts ``bleed`` from the edges)."""
    width_px, height_px = card_pixel_size(size, dpi)
    big = PILImage.new("RGB", (width_px * SUPERSAMPLE, height_px * SUPERSAMPLE), "#ffffff")
    # Exact scale per axis so the rounded pixel size still maps the bleed box edge to edge.
    sx = big.width / size.bleed_width_mm
    sy = big.height / size.bleed_height_mm
    _Painter(big, sx, sy, size.bleed_mm, size.bleed_mm).draw(face.ops)
    return big.reduce(SUPERSAMPLE)


def png_bytes(image: PILImage.Image) -> bytes:
    """PNG bytes without timestamps or other varying chunks (the same image gives the same bytes)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6, dpi=(DPI, DPI))
    return buffer.getvalue()


class _Painter:
    """Draws ops on one image; ``(ox_mm, oy_mm)`` is where the card frame's origin lies."""

    def __init__(self, image: PILImage.Image, sx: float, sy: float, ox_mm: float, oy_mm: float) -> None:
        self.image = image
        self.draw_ctx = ImageDraw.Draw(image)
        self.sx, self.sy = sx, sy
        self.ox_mm, self.oy_mm = ox_mm, oy_mm

    def x(self, x_mm: float) -> float:
        return (x_mm + self.ox_mm) * self.sx

    def y(self, y_mm: float) -> float:
        return (y_mm + self.oy_mm) * self.sy

    def width(self, mm: float) -> int:
        return max(1, round(mm * (self.sx + self.sy) / 2))

    def draw(self, ops: Iterable[Op]) -> None:
        for op in ops:
            getattr(self, "_" + type(op).__name__.lower())(op)

    def _box(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float, stroke_mm: float) -> list[float]:
        # Pillow draws outlines inside the box; PDF centres them on the path. Grow by half a stroke.
        # The last pixel is inclusive (hence -1); a box under one pixel still covers one.
        half = stroke_mm / 2
        x0, y0 = self.x(x_mm - half), self.y(y_mm - half)
        return [x0, y0, max(x0, self.x(x_mm + w_mm + half) - 1), max(y0, self.y(y_mm + h_mm + half) - 1)]

    def _rect(self, op: Rect) -> None:
        # Templates squeezed onto tiny cards can compute empty or inverted boxes: nothing to draw.
        if (op.fill is None and op.stroke is None) or not (op.w_mm > 0 and op.h_mm > 0):
            return
        # As in the PDF backend: corners at most half the shorter side round.
        radius = max(0.0, min(op.radius_mm, op.w_mm / 2, op.h_mm / 2)) * (self.sx + self.sy) / 2
        if op.fill is not None:
            box = self._box(op.x_mm, op.y_mm, op.w_mm, op.h_mm, 0.0)
            self.draw_ctx.rounded_rectangle(box, radius, fill=op.fill) if radius else \
                self.draw_ctx.rectangle(box, fill=op.fill)
        if op.stroke is not None:
            box = self._box(op.x_mm, op.y_mm, op.w_mm, op.h_mm, op.stroke_mm)
            width = self.width(op.stroke_mm)
            r = radius + width / 2 if radius else 0
            if r:
                self.draw_ctx.rounded_rectangle(box, r, outline=op.stroke, width=width)
            else:
                self.draw_ctx.rectangle(box, outline=op.stroke, width=width)

    def _polygon(self, op: Polygon) -> None:
        points = [(self.x(px), self.y(py)) for px, py in op.points]
        if len(points) < 2:
            return
        if op.fill is not None:
            self.draw_ctx.polygon(points, fill=op.fill)
        if op.stroke is not None:
            self.draw_ctx.line(points + [points[0]], fill=op.stroke, width=self.width(op.stroke_mm), joint="curve")

    def _ellipse(self, op: Ellipse) -> None:
        if not (op.rx_mm > 0 and op.ry_mm > 0):
            return
        if op.fill is not None:
            box = self._box(op.cx_mm - op.rx_mm, op.cy_mm - op.ry_mm, 2 * op.rx_mm, 2 * op.ry_mm, 0.0)
            self.draw_ctx.ellipse(box, fill=op.fill)
        if op.stroke is not None:
            box = self._box(op.cx_mm - op.rx_mm, op.cy_mm - op.ry_mm, 2 * op.rx_mm, 2 * op.ry_mm, op.stroke_mm)
            self.draw_ctx.ellipse(box, outline=op.stroke, width=self.width(op.stroke_mm))

    def _line(self, op: Line) -> None:
        self.draw_ctx.line([(self.x(op.x1_mm), self.y(op.y1_mm)), (self.x(op.x2_mm), self.y(op.y2_mm))],
                           fill=op.color, width=self.width(op.width_mm))

    def _text(self, op: Text) -> None:
        font = _font(Path(op.font), round(op.size_mm * self.sy))
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[op.anchor]
        x, y = self.x(op.x_mm), self.y(op.y_mm)
        if not (op.rotate_deg or op.slant_deg):
            self.draw_ctx.text((x, y), op.text, font=font, fill=op.color, anchor=anchor)
            return
        # Rotated or slanted text: draw on a transparent layer centred on the anchor, shear and
        # turn it there, composite.
        left, top, right, bottom = font.getbbox(op.text, anchor=anchor)
        lean = math.tan(math.radians(op.slant_deg))
        reach = int(max(abs(left), abs(top), abs(right), abs(bottom)) * (1 + abs(lean))) + 2
        layer = PILImage.new("RGBA", (2 * reach, 2 * reach), (0, 0, 0, 0))
        ImageDraw.Draw(layer).text((reach, reach), op.text, font=font, fill=op.color, anchor=anchor)
        if op.slant_deg:
            # Pillow maps each output pixel back to its source: x_in = x_out + lean * (y_out - baseline).
            layer = layer.transform(layer.size, PILImage.AFFINE, (1, lean, -lean * reach, 0, 1, 0),
                                    resample=PILImage.BICUBIC)
        # The layer is square around the anchor, so turning about its centre turns about the
        # anchor; Pillow turns by multiples of 90 degrees exactly and fast.
        layer = layer.rotate(op.rotate_deg, resample=PILImage.BICUBIC)
        self.image.paste(layer, (round(x) - reach, round(y) - reach), layer)

    def _image(self, op: Image) -> None:
        try:
            with PILImage.open(op.path) as src:
                picture = src.convert("RGBA")
        except OSError as exc:
            raise BuildError(f"cannot read image {str(op.path)!r}: {exc}") from None
        if not (op.w_mm > 0 and op.h_mm > 0):
            return
        if op.quarter_turns % 4:
            picture = picture.rotate(90 * (op.quarter_turns % 4), expand=True)  # counter-clockwise
        box = Box(op.x_mm, op.y_mm, op.w_mm, op.h_mm)
        drawn = fit_image(picture.width, picture.height, box, op.fit)
        left, top = round(self.x(drawn.x_mm)), round(self.y(drawn.y_mm))
        size = (max(1, round(drawn.w_mm * self.sx)), max(1, round(drawn.h_mm * self.sy)))
        picture = picture.resize(size, PILImage.LANCZOS)
        if op.fit == "cover":
            # Crop to the box, as the PDF backend clips to it.
            bl, bt = round(self.x(box.x_mm)), round(self.y(box.y_mm))
            br, bb = round(self.x(box.right_mm)), round(self.y(box.bottom_mm))
            if br <= bl or bb <= bt:
                return  # a box under one pixel shows nothing of the picture
            picture = picture.crop((bl - left, bt - top, br - left, bb - top))
            left, top = bl, bt
        self.image.paste(picture, (left, top), picture)


@lru_cache(maxsize=64)
def _font(path: Path, size_px: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(str(path), max(1, size_px))
    except OSError as exc:
        raise BuildError(f"cannot read font {str(path)!r}: {exc}") from None
