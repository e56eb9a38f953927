"""SVG art as printkit prints it, in pixels, and how far two pictures of it differ (shared by the
tests that compare printkit's drawing with resvg's)."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image as PILImage, ImageChops, ImageFilter

from printkit.deck import CardSize
from printkit.images import svg_art
from printkit.layout.ops import Face, Image
from printkit.render.png import render_face

MAX_MEAN = 8.0
MAX_SHARE_OFF = 0.004
OFF = 48


def printkit_picture(path: Path) -> PILImage.Image:
    """``path`` stretched over a card of its own aspect, 60 mm wide, no bleed, as printkit draws it."""
    x, y, w, h = (float(v) for v in re.split(r"[\s,]+", svg_art(path.read_bytes())._root.get("viewBox").strip()))
    size = CardSize(60.0, 60.0 * h / w, bleed_mm=0)
    face = Face((Image(0, 0, size.width_mm, size.height_mm, path, fit="stretch"),))
    return render_face(face, size).convert("RGB")


def difference(ours: PILImage.Image, theirs: PILImage.Image) -> tuple[float, float]:
    """(mean difference per channel, share of pixels away from ``theirs``'s edges off by more
    than OFF in some channel)."""
    diff = ImageChops.difference(ours, theirs)
    bands = diff.split()
    pixels = ours.width * ours.height
    mean = sum(i * count for band in bands for i, count in enumerate(band.histogram())) / (3 * pixels)
    worst = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    edges = theirs.convert("L").filter(ImageFilter.FIND_EDGES).point(lambda v: 255 if v > 24 else 0)
    worst = ImageChops.subtract(worst, edges.filter(ImageFilter.MaxFilter(5)))
    off = sum(worst.histogram()[OFF + 1:]) / pixels
    return mean, off
