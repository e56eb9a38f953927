"""High Card's glyph: a crown, offered to every spec's layouts and rule texts as ``:crown:``."""

from types import MappingProxyType

from printkit.layout.icons import ShapeIcon


def crown(cx, cy, size_mm):
    """A crown with three points, as tall as ``size_mm``, centred on (cx, cy)."""
    h = size_mm / 2
    points = [(-1.0, 1.0), (-1.0, -0.6), (-0.5, 0.1), (0.0, -1.0), (0.5, 0.1), (1.0, -0.6), (1.0, 1.0)]
    return (tuple((cx + x * h, cy + y * h) for x, y in points),)


ICONS = MappingProxyType({"crown": ShapeIcon(crown, "#c99a06")})
