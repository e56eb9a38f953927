"""CMYK for a press: printkit's sRGB colours and pictures converted through one bundled profile.

The profile is "ISO Coated v2 300% (basICColor)" (``icc/ISOcoated_v2_300_bas.icc``, zlib licence,
beside this file with its licence): offset on coated paper, FOGRA39 data, at most 300 % ink. Every
conversion goes sRGB -> that profile with relative colorimetric intent and black point
compensation (LittleCMS through Pillow), so a vector colour and the same colour in a picture come
out as the same ink values.

Black and greys (:func:`ink_of`): a neutral vector colour (black, a dark grey such as ``#1d1d1f``,
any grey, a near-black whose hue hardly shows such as ``#2b2118``) prints on K alone, as the K
tint of the same lightness (100 % K where K alone cannot print it as dark), so type, rules and
small shapes cannot show colour fringes when the plates shift. Only a large solid area
(:class:`Press`) of a black K alone cannot reach takes the press's rich black. Every other colour
and every pixel of a picture goes through the profile, then is held to the press's total ink
limit (:func:`limit_ink`, :func:`limit_picture`).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from printkit.render.shown import as_shown, png_bit_depth

PROFILE_PATH = Path(__file__).with_name("icc") / "ISOcoated_v2_300_bas.icc"
# What a PDF's OutputIntent names: the characterisation data the profile is made from (ICC registry).
CONDITION = "FOGRA39"
PURE_BLACK = (0.0, 0.0, 0.0, 1.0)
# A colour whose CIE a*, b* lie within this distance of grey is neutral: it prints on K alone.
NEUTRAL_CHROMA = 4.0
# A near-black (darker than K alone prints) whose hue hardly shows, such as a warm ink-black
# #2b2118, is black too up to this chroma.
NEAR_BLACK_CHROMA = 10.0


@dataclass(frozen=True)
class Press:
    """How one press (a service's profile) takes ink: what :func:`ink_of` and the PDF writer follow.

    ``ink_limit`` is the most total ink (1.0 = 100 %) any colour or pixel may carry;
    ``rich_black`` the inks of a black a large solid area takes (None: K alone everywhere);
    ``rich_black_from_mm`` how large: a filled shape whose box is at least this long on its shorter
    side; ``pdfx`` writes PDF/X-1a:2001 (:mod:`printkit.render.pdfx`).
    """

    ink_limit: float = 3.0
    rich_black: tuple[float, float, float, float] | None = (0.6, 0.4, 0.4, 1.0)
    rich_black_from_mm: float = 12.0
    pdfx: bool = False

    def key(self) -> str:
        """The settings as text (a cache key): equal presses give equal keys."""
        black = "none" if self.rich_black is None else " ".join(f"{v:g}" for v in self.rich_black)
        return f"ink {self.ink_limit:g}; rich black {black} from {self.rich_black_from_mm:g} mm; pdfx {self.pdfx}"


DEFAULT_PRESS = Press()


def press_of(canvas) -> Press | None:
    """The press a canvas's document takes ink for (:func:`printkit.render.pdf.new_canvas` says
    it), None for an sRGB document."""
    return getattr(canvas, "_printkit_cmyk", False) or None


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


@lru_cache(maxsize=4096)
def ink_of(r: int, g: int, b: int, press: Press = DEFAULT_PRESS,
           large: bool = False) -> tuple[float, float, float, float]:
    """An sRGB colour as the inks ``press`` prints it with: a neutral colour (black or grey) on K
    alone unless ``large`` (a big solid area) and darker than K alone prints, which takes the
    press's rich black; any other colour through the profile, held to the ink limit."""
    lightness, chroma = _lab(r, g, b)
    darkest = _k_lightness()[-1]
    if chroma <= NEUTRAL_CHROMA or (lightness <= darkest and chroma <= NEAR_BLACK_CHROMA):
        if lightness <= darkest and large and press.rich_black is not None:
            return limit_ink(press.rich_black, press.ink_limit)
        return (0.0, 0.0, 0.0, _k_tint(lightness))
    return limit_ink(cmyk_of(r, g, b), press.ink_limit)


def limit_ink(inks: tuple[float, float, float, float], limit: float) -> tuple[float, float, float, float]:
    """``inks`` with at most ``limit`` in all: cyan, magenta and yellow taken down together, K kept
    (the darkness a limit costs least of)."""
    c, m, y, k = inks
    colour = c + m + y
    if c + m + y + k <= limit + 1e-9 or colour <= 0:
        return inks
    scale = max(0.0, limit - k) / colour
    # Rounded down to whole 1/255 steps (what an 8-bit plate holds): rounding up, or a plate
    # rounding later, could put the sum back over the limit.
    c, m, y = (round(math.floor(v * scale * 255 + 1e-6) / 255, 4) for v in (c, m, y))
    return (c, m, y, min(k, limit))


@lru_cache(maxsize=1)
def _k_lightness() -> tuple[float, ...]:
    """CIE L* of K alone at 0/255 .. 255/255 on the press (relative to the paper), lightest first."""
    from PIL import Image, ImageCms

    ramp = Image.new("CMYK", (256, 1))
    ramp.putdata([(0, 0, 0, k) for k in range(256)])
    transform = ImageCms.buildTransform(_press_profile(), ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    lab = ImageCms.applyTransform(ramp, transform)
    return tuple(lab.getpixel((k, 0))[0] * 100 / 255 for k in range(256))


def _k_tint(lightness: float) -> float:
    """The K alone (0..1) that prints CIE L* ``lightness``: 1.0 for anything darker than 100 % K."""
    ramp = _k_lightness()
    if lightness >= ramp[0]:
        return 0.0
    for k in range(1, 256):
        if ramp[k] <= lightness:  # between k - 1 and k: interpolated
            upper, lower = ramp[k - 1], ramp[k]
            share = (upper - lightness) / (upper - lower) if upper > lower else 1.0
            return round((k - 1 + share) / 255, 4)
    return 1.0


@lru_cache(maxsize=4096)
def _lab(r: int, g: int, b: int) -> tuple[float, float]:
    """CIE L* and chroma (distance of a*, b* from grey) of an sRGB colour."""
    from PIL import Image, ImageCms

    lightness, a, b_ = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)), _lab_transform()).getpixel((0, 0))
    return lightness * 100 / 255, math.hypot(a - 128, b_ - 128)


@lru_cache(maxsize=1)
def _lab_transform():
    from PIL import ImageCms

    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


# Rows of a picture held to the ink limit at a time: five float copies of a strip, not of the picture.
LIMIT_ROWS = 256


def limit_picture(image, limit: float):
    """A CMYK picture with no pixel over ``limit`` total ink (as :func:`limit_ink` does a colour);
    the picture itself when none is."""
    most = limit * 255
    limited = None
    for top in range(0, image.size[1], LIMIT_ROWS):
        box = (0, top, image.size[0], min(top + LIMIT_ROWS, image.size[1]))
        strip = _limited_strip(image.crop(box), most)
        if strip is not None:
            limited = limited or image.copy()
            limited.paste(strip, box)
    return limited if limited is not None else image


def _limited_strip(strip, most: float):
    """``strip`` (CMYK) with no pixel over ``most`` (0..1020) in all, or None when none is."""
    from PIL import Image, ImageMath

    c, m, y, k = (band.convert("F") for band in strip.split())
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    if total.getextrema()[1] <= most:
        return None
    # Per pixel: the share of C, M and Y kept, 1 where the pixel is within the limit.
    zero, one = Image.new("F", strip.size, 0.0), Image.new("F", strip.size, 1.0)
    keep = ImageMath.lambda_eval(
        lambda e: e["min"](e["one"], e["max"](e["zero"], most - e["k"]) / e["max"](e["c"] + e["m"] + e["y"], e["one"])),
        c=c, m=m, y=y, k=k, zero=zero, one=one)
    # Converting to 8 bits truncates: rounded down, never back over the limit.
    bands = [ImageMath.lambda_eval(lambda e: e["v"] * e["keep"], v=v, keep=keep).convert("L") for v in (c, m, y)]
    return Image.merge("CMYK", (*bands, strip.getchannel("K")))


def cmyk_picture(data: bytes):
    """A PNG or JPEG's pixels as a CMYK image for the press, and its alpha channel (or None).

    A picture with its own ICC profile is converted from that profile, any other from sRGB; a
    CMYK JPEG without a profile is taken as ink values already.
    """
    from PIL import Image, ImageCms

    with Image.open(io.BytesIO(data)) as opened:
        opened.load()
        icc = opened.info.get("icc_profile") or None
        image, alpha = _with_alpha(as_shown(opened, png_bit_depth(data)))
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
        if "A" not in opened.getbands() and "transparency" not in opened.info:
            return opened.size[0], opened.size[1], False  # no alpha to test: the header says it all
        opened.load()
        image, alpha = _with_alpha(as_shown(opened, png_bit_depth(data)))
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
