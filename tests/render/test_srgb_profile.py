"""The sRGB profile printkit tags its PDFs and PNGs with is kept as a file: it must still be what
Pillow's colour management makes (LittleCMS's built-in sRGB), with the date fixed and no ID."""

import io

from PIL import ImageCms

from printkit.render.color import SRGB_PATH, srgb_icc


def test_the_kept_profile_is_pillows_srgb_with_a_fixed_date_and_no_id():
    made = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    made[24:36] = b"".join(n.to_bytes(2, "big") for n in (2000, 1, 1, 0, 0, 0))  # the creation date
    made[84:100] = bytes(16)  # the profile ID: an MD5 over the header, date included
    assert srgb_icc() == SRGB_PATH.read_bytes() == bytes(made)
    profile = ImageCms.ImageCmsProfile(io.BytesIO(srgb_icc()))
    assert profile.profile.xcolor_space.strip() == "RGB"
