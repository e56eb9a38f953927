"""Fonts: printkit loads TrueType fonts only from its own ``fonts/`` folder or a path a spec names."""

from __future__ import annotations

import gc
import hashlib
import io
from functools import lru_cache
from pathlib import Path

from printkit.errors import PrintkitError
from printkit.resources import bundled_dir
from printkit.safe_read import UnsafeFileError, read_limited

MAX_FONT_BYTES = 40_000_000

FONTS_DIR = bundled_dir("fonts")

# Hangul and Latin text; its bold cut for headings and card titles.
KOREAN = FONTS_DIR / "NanumGothic.ttf"
KOREAN_BOLD = FONTS_DIR / "NanumGothicBold.ttf"
# Latin, digits and symbols that Nanum lacks (U+2212 minus, U+2666 diamond, ...).
SYMBOLS = FONTS_DIR / "DejaVuSans.ttf"
SYMBOLS_BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"


class FontError(PrintkitError):
    """A font is missing, unreadable or lacks glyphs the text needs."""


def font_path(name: str | Path) -> Path:
    """Resolve a bundled font by file name (``NanumGothic.ttf``) or return an absolute path."""
    path = Path(name)
    if not path.is_absolute():
        path = FONTS_DIR / path
    if not path.is_file():
        raise FontError(f"font not found: {path}")
    return path


@lru_cache(maxsize=None)
def ttfont(path: Path):
    """The font parsed by reportlab, once per process: metrics for layout, embedding for PDFs."""
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        data = read_limited(Path(path), MAX_FONT_BYTES)
    except (OSError, UnsafeFileError) as exc:
        raise FontError(f"{Path(path).name} cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    # Parsing makes a list per glyph (tens of thousands, none in a cycle); with the cycle
    # collector running, Python walks the whole heap partway through, ~15 ms of a one-deck build.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return TTFont(font_name(path), io.BytesIO(data))
    except Exception as exc:  # reportlab raises bare TTFError / struct errors for bad files
        raise FontError(f"{path.name} is not a usable TrueType font ({exc})") from None
    finally:
        if collecting:
            gc.enable()


@lru_cache(maxsize=None)
def font_name(path: Path) -> str:
    """The name a font is registered under in PDFs.

    Bundled fonts go by their file stem; any other font also carries a digest of its bytes, so a
    spec's own ``NanumGothic.ttf`` can never be mistaken for the bundled one.
    """
    path = Path(path)
    if path.parent.resolve() == FONTS_DIR:
        return path.stem
    digest = hashlib.sha256(read_limited(path, MAX_FONT_BYTES)).hexdigest()[:10]
    return f"{path.stem}-{digest}"


@lru_cache(maxsize=None)
def glyph_set(path: Path) -> frozenset[int]:
    """Unicode code points the font has glyphs for."""
    face = ttfont(Path(path)).face
    return frozenset(cp for cp, glyph in face.charToGlyph.items() if glyph)


def missing_glyphs(text: str, path: Path) -> str:
    """Characters of ``text`` (other than whitespace) that the font cannot draw."""
    have = glyph_set(_as_path(path))
    if have.issuperset(map(ord, text)):  # the usual answer, found without a loop in Python
        return ""
    return "".join(sorted({ch for ch in text if not ch.isspace() and ord(ch) not in have}))


def text_width_mm(text: str, path: Path, size_mm: float) -> float:
    """Advance width of ``text`` set in the font at ``size_mm`` (em size in millimetres)."""
    font = ttfont(_as_path(path))
    # stringWidth works in the unit of the size it is given, so mm in gives mm out.
    return font.stringWidth(text, size_mm)


def _as_path(path: str | Path) -> Path:
    # Layout measures text thousands of times per deck: skip rebuilding a Path it already has.
    return path if isinstance(path, Path) else Path(path)
