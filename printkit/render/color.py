"""Colour tagging: the sRGB ICC profile printkit's PNGs carry and its PDFs name as OutputIntent.

printkit draws in sRGB (every ``#rrggbb`` of a spec is an sRGB colour). Untagged files leave
the reader to guess; these bytes say it. The profile is Pillow's built-in sRGB (LittleCMS's
``cmsCreate_sRGBProfile``), with the creation date in its header fixed so that the same input
gives the same output bytes (LittleCMS stamps the current time into every profile it writes).
"""

from __future__ import annotations

from functools import lru_cache

# ICC header: bytes 24..35 hold the creation date and time (six big-endian 16-bit numbers).
_DATE = slice(24, 36)
_FIXED_DATE = b"".join(n.to_bytes(2, "big") for n in (2000, 1, 1, 0, 0, 0))  # 2000-01-01 00:00:00

SRGB_NAME = "sRGB IEC61966-2.1"


@lru_cache(maxsize=1)
def srgb_icc() -> bytes:
    """The sRGB ICC profile as bytes, the same on every run."""
    from PIL import ImageCms

    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    data[_DATE] = _FIXED_DATE
    if any(data[84:100]):  # a profile ID is an MD5 over the header too: zero it rather than keep a stale one
        data[84:100] = bytes(16)
    return bytes(data)
