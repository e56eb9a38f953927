import gc
import shutil

import pytest

from printkit import fonts


def test_parsing_a_font_leaves_the_cycle_collector_as_it_was(tmp_path):
    copy = tmp_path / "Copy.ttf"
    shutil.copy(fonts.SYMBOLS, copy)
    broken = tmp_path / "Broken.ttf"
    broken.write_bytes(b"not a font")
    assert gc.isenabled()
    assert fonts.ttfont(copy).face.charToGlyph
    assert gc.isenabled()
    with pytest.raises(fonts.FontError, match="not a usable TrueType font"):
        fonts.ttfont(broken)
    assert gc.isenabled()
    gc.disable()
    try:
        other = tmp_path / "Other.ttf"
        shutil.copy(fonts.SYMBOLS, other)
        fonts.ttfont(other)
        assert not gc.isenabled()
    finally:
        gc.enable()
