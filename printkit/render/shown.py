"""A decoded picture's pixels as viewers show them, in a mode whose bytes are what they look like.

Pillow opens a 16-bit grey PNG as 0..65535 samples (mode ``I;16``) that its conversions clip to
0..255 (near-white throughout), and it keeps a grey or RGB PNG's one transparent colour (its
``tRNS`` chunk) aside in ``info``, where reportlab does not look. Both are made plain here: 16-bit
samples scaled to 8 bits, the transparent colour made an alpha channel (a 16-bit RGB PNG's is
matched on the top 8 bits Pillow keeps: :func:`printkit.images.picture_warnings` says so).
"""

from __future__ import annotations

from printkit.render.pngfile import PNG_SIGNATURE

_SIXTEEN_BITS = ("I;16", "I;16B", "I;16L", "I;16N", "I")


def png_bit_depth(data: bytes) -> int:
    """The bit depth in a PNG's header (8 for anything else)."""
    return data[24] if data.startswith(PNG_SIGNATURE) and len(data) > 24 else 8


def needs_showing(image) -> bool:
    """Whether :func:`as_shown` changes the Pillow image ``image`` (known from its header, before
    its pixels are decoded)."""
    return image.mode in _SIXTEEN_BITS or ("transparency" in image.info and image.mode in ("1", "L", "RGB"))


def as_shown(image, bit_depth: int = 8):
    """``image`` (a loaded Pillow image of a picture whose samples had ``bit_depth`` bits) in a mode
    whose bytes are what a viewer shows (``1``, ``L``, ``LA``, ``RGB``, ``RGBA``, ``P`` or
    ``CMYK``); ``image`` itself when it is one already."""
    from PIL import Image

    if not needs_showing(image):
        return image  # no transparent colour, or a palette's or an alpha channel (drawn as it is)
    transparent = image.info.get("transparency")
    if image.mode in _SIXTEEN_BITS:
        samples = image.convert("I")
        # 0..65535 to the nearest of 256 greys (x / 257, rounded)
        grey = samples.point(lambda x: x * (255 / 65535) + 0.5).convert("L")
        if isinstance(transparent, int):
            return Image.merge("LA", (grey, _mask(samples, transparent)))
        return grey
    if image.mode == "RGB":
        if bit_depth == 16:  # Pillow keeps the top 8 bits of each sample, and the colour as 16 bits
            transparent = tuple(value >> 8 for value in transparent)
        red, green, blue = image.split()
        alpha = _mask(red.convert("I"), transparent[0], green.convert("I"), transparent[1],
                      blue.convert("I"), transparent[2])
        return Image.merge("RGBA", (red, green, blue, alpha))
    grey = image.convert("L")
    if image.mode == "L" and bit_depth < 8:  # Pillow spreads 1-, 2- and 4-bit samples over 0..255, not the colour
        transparent = transparent * 255 // ((1 << bit_depth) - 1)
    return Image.merge("LA", (grey, _mask(grey.convert("I"), transparent)))


def _mask(*bands_and_values):
    """An ``L`` mask: 0 where each ``I`` band holds the value after it, 255 elsewhere."""
    from PIL import ImageMath

    names = {f"b{n}": band for n, band in enumerate(bands_and_values[::2])}
    values = bands_and_values[1::2]

    def opaque(env):
        same = None
        for n, value in enumerate(values):
            equal = env[f"b{n}"] == value
            same = equal if same is None else same & equal
        return (same == 0) * 255

    return ImageMath.lambda_eval(opaque, **names).convert("L")
