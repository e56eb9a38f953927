"""CMYK for a press: printkit's sRGB colours and pictures converted through one bundled profile.

The profile is "ISO Coated v2 300% (basICColor)" (``icc/ISOcoated_v2_300_bas.icc``, zlib licence,
beside this file with its licence): offset on coated paper, FOGRA39 data, at most 300 % ink. Every
conversion goes sRGB -> that profile with relative colorimetric intent and black point
compensation (LittleCMS through Pillow), so a vector colour and the same colour in a picture come
out as the same ink values.

Black: a vector colour of exactly ``#000000`` (text, rules, crop marks) becomes 100 % K alone, so
thin type prints with one ink and cannot show colour fringes when the plates shift. Every other
colour, near-blacks included, and every pixel of a picture goes through the profile (a rich
black there, at most 300 % ink).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

PROFILE_PATH = Path(__file__).with_name("icc") / "ISOcoated_v2_300_bas.icc"
# What a PDF's OutputIntent names: the characterisation data the profile is made from (ICC registry).
CONDITION = "FOGRA39"
PURE_BLACK = (0.0, 0.0, 0.0, 1.0)


@lru_cache(maxsize=1)
def press_icc() -> bytes:
    """The CMYK profile's bytes (embedded as the PDF's output intent)."""
    try:
        return PROFILE_PATH.read_bytes()
    except OSError as exc:
        from printkit.errors import BuildError

        raise BuildError(f"{PROFILE_PATH}: the CMYK profile cannot be read ({exc.strerror or exc}); "
                         "reinstall printkit") from None


@lru_cache(maxsize=1)
def profile_name() -> str:
    """The profile's own description: ``ISO Coated v2 300% (basICColor)``."""
    from PIL import ImageCms

    return ImageCms.getProfileDescription(_press_profile()).strip()


def _press_profile():
    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(io.BytesIO(press_icc()))


@lru_cache(maxsize=8)
def _transform(mode: str, source: bytes | None = None):
    """A transform from ``mode`` pixels (RGB, or CMYK with ``source``) in ``source``'s profile
    (sRGB when None) to the press profile."""
    from PIL import ImageCms

    src = ImageCms.ImageCmsProfile(io.BytesIO(source)) if source else ImageCms.createProfile("sRGB")
    return ImageCms.buildTransform(src, _press_profile(), mode, "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


@lru_cache(maxsize=4096)
def cmyk_of(r: int, g: int, b: int) -> tuple[float, float, float, float]:
    """An sRGB colour (0..255 each) as ink values 0..1; pure black is K alone."""
    if r == g == b == 0:
        return PURE_BLACK
    from PIL import Image, ImageCms

    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)), _transform("RGB"))
    return tuple(round(v / 255, 4) for v in pixel.getpixel((0, 0)))


def cmyk_picture(data: bytes):
    """A PNG or JPEG's pixels as a CMYK image for the press, and its alpha channel (or None).

    A picture with its own ICC profile is converted from that profile, any other from sRGB; a
    CMYK JPEG without a profile is taken as ink values already.
    """
    from PIL import Image, ImageCms

    with Image.open(io.BytesIO(data)) as opened:
        opened.load()
        icc = opened.info.get("icc_profile") or None
        image, alpha = _with_alpha(opened)
        if image.mode == "CMYK":
            if not icc:
                return image.copy(), None
            return ImageCms.applyTransform(image, _transform("CMYK", icc)), None
        rgb = image.convert("RGB")
        try:
            converted = ImageCms.applyTransform(rgb, _transform("RGB", icc))
        except (ImageCms.PyCMSError, OSError):  # a profile not for RGB (a grey PNG's), or unreadable: sRGB
            converted = ImageCms.applyTransform(rgb, _transform("RGB"))
        return converted, alpha


def cmyk_shape(data: bytes) -> tuple[int, int, bool]:
    """The width and height of :func:`cmyk_picture`'s image of ``data`` and whether it has an
    alpha channel, without converting any colour."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as opened:
        if "A" not in opened.getbands() and not (opened.mode == "P" and "transparency" in opened.info):
            return opened.size[0], opened.size[1], False  # no alpha to test: the header says it all
        opened.load()
        image, alpha = _with_alpha(opened)
        return image.size[0], image.size[1], alpha is not None


def _with_alpha(opened):
    """The loaded picture to convert and its alpha channel (None when it is opaque throughout)."""
    if opened.mode == "CMYK":
        return opened, None
    image = opened
    if image.mode == "P":
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    alpha = image.getchannel("A") if "A" in image.getbands() else None
    if alpha is not None and alpha.getextrema() == (255, 255):
        alpha = None  # opaque throughout: no mask
    return image, alpha
