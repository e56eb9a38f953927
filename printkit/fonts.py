"""Fonts: printkit loads TrueType fonts only from its own ``fonts/`` folder or a path a spec names.

A CFF-flavoured OpenType font (``.otf``) is loaded as the TrueType font :mod:`printkit.cff_fonts`
makes of it.
"""

from __future__ import annotations

import gc
import hashlib
import io
import sys
import threading
from array import array
from collections.abc import Callable, Sequence
from fnmatch import fnmatch
from functools import cached_property, lru_cache
from itertools import compress
from pathlib import Path
from struct import unpack_from

from printkit.errors import FontError
from printkit.memo import FileIdentity, file_identity
from printkit.resources import bundled_dir
from printkit.safe_read import UnsafeFileError, read_limited

MAX_FONT_BYTES = 40_000_000
OTF_MAGIC = b"OTTO"  # the sfnt version of an OpenType font with CFF outlines

FONTS_DIR = bundled_dir("fonts")

# printkit's one type family, for cards, score sheets and rulebooks in both languages: Pretendard
# has Hangul, Latin, the minus sign U+2212, ×, curly quotes and the dashes; its bold cut is for
# headings, card titles and indices.
KOREAN = FONTS_DIR / "Pretendard-Regular.ttf"
KOREAN_BOLD = FONTS_DIR / "Pretendard-Bold.ttf"
# Only for symbols the family lacks (the suits ♠ ♦ ♣, arrows, dingbats ...).
SYMBOLS = FONTS_DIR / "DejaVuSans.ttf"
SYMBOLS_BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"
# Bundled fonts printkit no longer ships, by the file name a spec may still give: their successors.
RENAMED = {"NanumGothic.ttf": KOREAN.name, "NanumGothicBold.ttf": KOREAN_BOLD.name}


def bundled_font(name: str) -> Path | None:
    """The bundled font a spec names by file name (``Pretendard-Bold.ttf``), or None.

    A font printkit used to bundle (``NanumGothicBold.ttf``) names its successor, so older specs
    still build.
    """
    if "/" in name or "\\" in name:
        return None
    path = FONTS_DIR / RENAMED.get(name, name)
    return path if path.is_file() else None


def font_path(name: str | Path) -> Path:
    """Resolve a bundled font by file name (``Pretendard-Regular.ttf``) or return an absolute path."""
    path = Path(name)
    if not path.is_absolute():
        path = bundled_font(str(name)) or FONTS_DIR / path
    if not path.is_file():
        raise FontError(f"font not found: {path}")
    return path


def ttfont(path: Path):
    """The font parsed by reportlab, once per process: metrics for layout, embedding for PDFs.

    One object per font however many threads ask at once: reportlab keeps each document's subsets
    in the font object registered, which must not be replaced by a second parse midway."""
    with _PARSING:
        return _parsed_font(path)


_PARSING = threading.Lock()
_SEEN: dict[Path, FileIdentity | None] = {}  # each font file parsed -> its identity when read
_ON_CHANGE: list[Callable[[], None]] = []  # what other modules keep of fonts by path, to let go of


def when_fonts_change(forget: Callable[[], None]) -> None:
    """Have ``forget`` called whenever :func:`forget_changed_fonts` finds a font file changed
    (for a module that keeps something of fonts by their path)."""
    _ON_CHANGE.append(forget)


def forget_changed_fonts() -> bool:
    """Let go of everything kept of fonts when a font file parsed so far changed on disk (its
    :func:`~printkit.memo.file_identity`), so the next build reads it afresh; True when one did.

    A build asks first, so ``printkit watch`` picks up a spec's own font rewritten in place.
    """
    with _PARSING:
        if all(_identity(path) == seen for path, seen in list(_SEEN.items())):
            return False
        _SEEN.clear()
        for kept in (_parsed_font, font_name, glyph_set, _advance_sum):
            kept.cache_clear()
    for forget in _ON_CHANGE:
        forget()
    return True


def _identity(path: Path) -> FileIdentity | None:
    try:
        return file_identity(path)
    except OSError:
        return None


@lru_cache(maxsize=None)
def _parsed_font(path: Path):
    _SEEN[Path(path)] = _identity(Path(path))  # before reading: a write during the read shows as a change
    try:
        data = read_limited(Path(path), MAX_FONT_BYTES)
    except (OSError, UnsafeFileError) as exc:
        raise FontError(f"{Path(path).name} cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    if is_cff_font(data):
        from printkit.cff_fonts import ConversionError, FontBytes, truetype_outlines  # only for such a font

        try:
            data = truetype_outlines(FontBytes(hashlib.sha256(data).hexdigest(), data))
        except ConversionError as exc:
            raise FontError(f"{Path(path).name} is an OpenType (CFF) font that cannot be converted to "
                            f"TrueType outlines: {exc}") from None
    # Parsing makes a list per glyph (tens of thousands, none in a cycle); with the cycle
    # collector running, Python walks the whole heap partway through, ~15 ms of a one-deck build.
    collecting = gc.isenabled()
    gc.disable()
    try:
        font = _reportlab_font(font_name(path), data)
        font.face.shown = Path(path).name
        # Embedding reads the glyph outlines, which parsing does not: a damaged 'glyf' table is
        # refused now, where the spec names the font, rather than partway through writing a PDF.
        # printkit's own fonts are embedded whole by its tests and skip this trial subset (a
        # subset costs some 2 ms however few its glyphs).
        if not is_bundled(path):
            font.face.makeSubset([code for code in range(32, 127) if code in font.face.charToGlyph][:16] or [32])
        return font
    except FontError:
        raise
    except Exception as exc:  # reportlab raises bare TTFError / struct errors for bad files
        raise FontError(f"{path.name} is not a usable TrueType font ({exc})") from None
    finally:
        if collecting:
            gc.enable()


def is_cff_font(data: bytes) -> bool:
    """Whether ``data`` starts as an OpenType font with CFF outlines (converted by
    :mod:`printkit.cff_fonts`, which only such a font imports)."""
    return data[:4] == OTF_MAGIC


def _reportlab_font(name: str, data: bytes):
    """reportlab's TTFont for the font file ``data``, registered as ``name``.

    Built as reportlab's own constructor builds it, except that the face reads its glyph tables
    with :func:`_read_glyph_tables`.
    """
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFont

    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = _face_class()(io.BytesIO(data))
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, glob) for glob in rl_config.unShapedFontGlob)
    return font


@lru_cache(maxsize=None)
def _face_class():
    """reportlab's TrueType face, reading the glyph tables in bulk (a class made once, on first use,
    so that importing printkit does not import reportlab)."""
    from reportlab.pdfbase.ttfonts import TTFontFace

    class Face(TTFontFace):
        @cached_property
        def glyphToChar(self) -> dict[int, list[int]]:  # noqa: N802 (reportlab's name)
            # Only reportlab's text shaping asks for it: made from the character map when asked.
            return _glyph_to_chars(*self.cmap_pairs)

        def extractInfo(self, charInfo=1):
            super().extractInfo(charInfo=0)  # names, vertical metrics, flags: as reportlab reads them
            if charInfo and not _read_glyph_tables(self):
                super().extractInfo(charInfo)  # a table this reader does not cover: reportlab's way

        def makeSubset(self, subset):
            try:
                return super().makeSubset(subset)
            except Exception as exc:  # a glyph's outline is damaged: say which font, not where
                raise FontError(f"font {getattr(self, 'shown', 'file')!r} cannot be embedded: its glyph data "
                                f"is damaged ({type(exc).__name__}: {exc})") from None

    return Face


def _read_glyph_tables(face) -> bool:
    """Set ``face``'s character map, advance widths and glyph offsets as reportlab's
    ``TTFontFile.extractInfo`` does, reading each table with one struct call instead of a Python
    call per entry (a Hangul font of 15,000 to 20,000 glyphs is read in about 10 ms instead of 25).
    The same values, kept leaner: metrics and offsets in arrays, ``glyphToChar`` made only when
    asked for (some 6 MB less for the two Pretendard faces).

    Returns False, leaving the work to reportlab, for a character map in any format but 4 and 12
    or anything unexpected (reportlab then reads it or says what is wrong).
    """
    try:
        return _read_glyph_tables_unchecked(face)
    except Exception:
        return False


def _read_glyph_tables_unchecked(face) -> bool:
    data, table = face._ttf_data, face.table
    loca_format, glyph_format = unpack_from(">HH", data, table["head"]["offset"] + 50)
    if glyph_format != 0 or loca_format not in (0, 1):
        return False
    found = _cmap_subtable(data, table["cmap"]["offset"])
    if found is None:
        return False
    codes, glyphs = found
    char_to_glyph = dict(zip(codes, glyphs))

    # hmtx: (advance, left side bearing) for the first numberOfHMetrics glyphs, then bearings only;
    # those glyphs repeat the last advance, which reportlab keeps already scaled.
    scale = face._pdfScale
    num_glyphs = face.numGlyphs
    num_metrics = unpack_from(">H", data, table["hhea"]["offset"] + 34)[0]
    hmtx = table["hmtx"]["offset"]
    pairs = _big_endian("H", data, hmtx, 2 * num_metrics)
    raw_advances = pairs[0::2]
    scaled = {advance: scale(advance) for advance in set(raw_advances)}  # a font has few distinct advances
    advances = list(map(scaled.__getitem__, raw_advances))
    last = advances[-1]
    bearings = _big_endian("H", data, hmtx + 4 * num_metrics, max(num_glyphs - num_metrics, 0))
    hmetrics = _HMetrics(pairs, bearings, last)
    # Each character's width, in reportlab's order: by glyph, a glyph's characters in map order
    # (a stable sort of the map's entries by glyph); glyphs past the tables have none.
    widths = advances + [last] * (max(num_metrics, num_glyphs) - num_metrics)
    order = sorted(range(len(glyphs)), key=glyphs.__getitem__)
    while order and glyphs[order[-1]] >= len(widths):
        order.pop()
    char_widths = dict(zip(map(codes.__getitem__, order),
                           map(widths.__getitem__, map(glyphs.__getitem__, order))))

    loca = table["loca"]["offset"]
    if loca_format == 0:
        glyph_pos = array(_UINT32, (offset << 1 for offset in _big_endian("H", data, loca, num_glyphs + 1)))
    else:
        glyph_pos = _big_endian(_UINT32, data, loca, num_glyphs + 1)

    if 0x20 in char_to_glyph:  # reportlab draws a no-break space as a space, and the reverse
        char_to_glyph[0xA0] = char_to_glyph[0x20]
        char_widths[0xA0] = char_widths[0x20]
    elif 0xA0 in char_to_glyph:
        char_to_glyph[0x20] = char_to_glyph[0xA0]
        char_widths[0x20] = char_widths[0xA0]
    face.charToGlyph, face.charWidths = char_to_glyph, char_widths
    face.cmap_pairs = (array(_UINT32, codes), array(_UINT32, glyphs))
    face.defaultWidth, face.hmetrics, face.glyphPos = advances[0], hmetrics, glyph_pos
    face._pos = loca + (num_glyphs + 1) * (2 if loca_format == 0 else 4)  # where reportlab stops reading
    return True


_UINT32 = "I" if array("I").itemsize == 4 else "L"


def _big_endian(kind: str, data: bytes, offset: int, count: int) -> array:
    """``count`` unsigned numbers of the array type ``kind`` stored big-endian at ``offset``."""
    out = array(kind)
    out.frombytes(data[offset:offset + count * out.itemsize])
    if len(out) != count:
        raise ValueError("table ends early")
    if sys.byteorder == "little":
        out.byteswap()
    return out


def _glyph_to_chars(codes, glyphs) -> dict[int, list[int]]:
    """Each glyph's characters in character-map order, as reportlab's ``glyphToChar``."""
    glyph_to_chars: dict[int, list[int]] = {}
    for code, glyph in zip(codes, glyphs):
        chars = glyph_to_chars.get(glyph)
        if chars is None:
            glyph_to_chars[glyph] = [code]
        else:
            chars.append(code)
    return glyph_to_chars


class _HMetrics(Sequence):
    """reportlab's ``hmetrics`` (a glyph's advance and left side bearing) read from two arrays of
    16-bit numbers, as a pair only when asked: a Hangul font's 20,000 tuples cost ~2 MB."""

    __slots__ = ("_pairs", "_bearings", "_last", "_metrics")

    def __init__(self, pairs: array, bearings: array, last: float) -> None:
        self._pairs, self._bearings, self._last = pairs, bearings, last
        self._metrics = len(pairs) // 2

    def __len__(self) -> int:
        return self._metrics + len(self._bearings)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index < 0:
            raise IndexError("glyph index out of range")
        if index < self._metrics:
            return self._pairs[2 * index], self._pairs[2 * index + 1]
        return self._last, self._bearings[index - self._metrics]  # IndexError past the last glyph


def _cmap_subtable(data: bytes, cmap: int) -> tuple[list[int], list[int]] | None:
    """Character codes and their glyphs, in table order, from the subtable reportlab picks
    (the last Unicode one); None for a format other than 4 (16-bit) or 12 (32-bit)."""
    version, count = unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:
        count = version
    chosen, kind = None, 0
    for i in range(count):
        platform, encoding, offset = unpack_from(">HHL", data, cmap + 4 + 8 * i)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            chosen, kind = offset, 1
        elif platform == 1 and encoding == 0 and kind != 1:
            chosen, kind = offset, 2
    if chosen is None:
        return None
    sub = cmap + chosen
    fmt = unpack_from(">H", data, sub)[0]
    codes: list[int] = []
    glyphs: list[int] = []
    if fmt == 4:
        length, _, seg_x2 = unpack_from(">HHH", data, sub + 2)
        segs = seg_x2 // 2
        ends = unpack_from(f">{segs}H", data, sub + 14)
        starts = unpack_from(f">{segs}H", data, sub + 16 + 2 * segs)
        deltas = unpack_from(f">{segs}h", data, sub + 16 + 4 * segs)
        range_at = sub + 16 + 6 * segs
        range_offsets = unpack_from(f">{segs}H", data, range_at)
        limit = sub + length
        for n in range(segs):
            seg_codes = range(starts[n], ends[n] + 1)
            delta = deltas[n]
            if not seg_codes:
                continue
            if range_offsets[n] == 0:
                seg_glyphs = [(code + delta) & 0xFFFF for code in seg_codes]
            else:
                # Glyph ids sit in the glyphIdArray at an offset counted from this very entry;
                # entries past the subtable's end (broken fonts) mean glyph 0, as reportlab reads them.
                first = range_at + 2 * n + range_offsets[n]
                end = first + 2 * len(seg_codes)
                if end <= limit:
                    raw = unpack_from(f">{len(seg_codes)}H", data, first)
                else:
                    raw = [unpack_from(">H", data, at)[0] if at < limit else 0 for at in range(first, end, 2)]
                seg_glyphs = [(glyph + delta) & 0xFFFF if glyph else 0 for glyph in raw]
            codes += seg_codes
            glyphs += seg_glyphs
    elif fmt == 12:
        groups = unpack_from(">L", data, sub + 12)[0]
        values = unpack_from(f">{3 * groups}L", data, sub + 16)
        for i in range(0, 3 * groups, 3):
            start, end, first_glyph = values[i:i + 3]
            codes += range(start, end + 1)
            glyphs += range(first_glyph, first_glyph + end + 1 - start)
    else:
        return None
    return codes, glyphs


@lru_cache(maxsize=None)
def font_name(path: Path) -> str:
    """The name a font is registered under in PDFs.

    Bundled fonts go by their file stem; any other font also carries a digest of its bytes, so a
    spec's own ``Pretendard-Regular.ttf`` can never be mistaken for the bundled one.
    """
    path = Path(path)
    if is_bundled(path):
        return path.resolve().stem  # a link to a bundled font is that font, under its one name
    digest = hashlib.sha256(read_limited(path, MAX_FONT_BYTES)).hexdigest()[:10]
    return f"{path.stem}-{digest}"


def is_bundled(path: str | Path) -> bool:
    """Whether ``path`` is one of printkit's own fonts: a file whose real place is printkit's
    fonts folder. Links are followed on both sides, the file's and the folder's (printkit may be
    installed under a linked prefix)."""
    return Path(path).resolve().parent == FONTS_DIR.resolve()


@lru_cache(maxsize=None)
def glyph_set(path: Path) -> frozenset[int]:
    """Unicode code points the font has glyphs for."""
    char_to_glyph = ttfont(Path(path)).face.charToGlyph
    return frozenset(compress(char_to_glyph, char_to_glyph.values()))  # those not mapped to glyph 0


def missing_glyphs(text: str, path: Path) -> str:
    """Characters of ``text`` (other than whitespace) that the font cannot draw."""
    have = glyph_set(_as_path(path))
    if have.issuperset(map(ord, text)):  # the usual answer, found without a loop in Python
        return ""
    return "".join(sorted({ch for ch in text if not ch.isspace() and ord(ch) not in have}))


def text_width_mm(text: str, path: Path, size_mm: float) -> float:
    """Advance width of ``text`` set in the font at ``size_mm`` (em size in millimetres)."""
    # reportlab's stringWidth arithmetic, to the last bit, in the unit of the size (mm in, mm
    # out). Its C accelerator sums the advances in ems and multiplies by the size; its Python
    # fallback sums thousandths of an em and multiplies by 0.001 * size. The sum is kept per text
    # and font, as fitting measures the same words at many sizes.
    if _c_widths():
        return _advance_sum(text, _as_path(path)) * size_mm
    return 0.001 * size_mm * _advance_sum(text, _as_path(path))


@lru_cache(maxsize=1)
def _c_widths() -> bool:
    """Whether reportlab measures strings with its C accelerator (asked when text is first
    measured: a build with nothing to lay out does not load reportlab)."""
    from reportlab.lib import rl_accel

    return type(rl_accel.instanceStringWidthTTF).__name__ == "builtin_function_or_method"


@lru_cache(maxsize=1 << 16)
def _advance_sum(text: str, path: Path) -> float:
    face = ttfont(path).face
    width, default = face.charWidths.get, face.defaultWidth
    if _c_widths():
        return sum(width(ord(ch), default) / 1000.0 for ch in text)
    return sum(width(ord(ch), default) for ch in text)


def _as_path(path: str | Path) -> Path:
    # Layout measures text thousands of times per deck: skip rebuilding a Path it already has.
    return path if isinstance(path, Path) else Path(path)
