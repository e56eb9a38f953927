"""Colour tagging: the sRGB ICC profile printkit's PNGs carry and its PDFs name as OutputIntent.

printkit draws in sRGB (every ``#rrggbb`` of a spec is an sRGB colour). Untagged files leave
the reader to guess; these bytes say it. The profile (``icc/sRGB.icc``) is Pillow's built-in
sRGB (LittleCMS's ``cmsCreate_sRGBProfile``), with the creation date in its header fixed to
2000-01-01 and the profile ID zeroed, so that the same input gives the same output bytes. It is
kept as a file rather than made when needed, which imported Pillow's colour management into every
build (4 ms); a test checks that it is still what Pillow makes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from printkit.errors import BuildError

SRGB_NAME = "sRGB IEC61966-2.1"
SRGB_PATH = Path(__file__).with_name("icc") / "sRGB.icc"


@lru_cache(maxsize=1)
def srgb_icc() -> bytes:
    """The sRGB ICC profile as bytes, the same on every run."""
    try:
        return SRGB_PATH.read_bytes()
    except OSError as exc:
        raise BuildError(f"{SRGB_PATH}: the sRGB profile cannot be read ({exc.strerror or exc}); "
                         "reinstall printkit") from None
