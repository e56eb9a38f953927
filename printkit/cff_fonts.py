"""CFF-flavoured OpenType fonts (``.otf``) made TrueType: reportlab embeds only ``glyf`` outlines.

A font's cubic outlines become quadratic ones (fontTools' cu2qu, within :data:`MAX_ERROR` font
units), in ``glyf`` and ``loca`` tables that replace ``CFF``; everything else of the font (metrics,
character map, names) stays. The font is untrusted: its glyph count is limited, charstrings may
nest subroutines no deeper than the CFF specification allows, and the charstring bytes run for
all glyphs together are limited in proportion to the file's size, so a font of a few kilobytes
cannot make the conversion run for hours.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache
from printkit.errors import ConversionError

MAX_GLYPHS = 65_535  # the most a font can index; Noto Sans CJK has as many
MAX_ERROR = 1.0  # font units a quadratic curve may stray from the cubic it replaces (1/1000 em)
MAX_SUBR_DEPTH = 10  # the Type 2 charstring format's own nesting limit
# Charstring bytes run per byte of the font file, beyond a fixed allowance: subroutines are shared,
# so a real font runs a few times its size; nested calls repeated at will would run far more.
WORK_PER_BYTE = 32
WORK_ALLOWANCE = 1_000_000


@dataclass(frozen=True)
class FontBytes:
    """A font file's bytes, known (compared and hashed) by their sha256 alone."""

    digest: str
    data: bytes = field(compare=False, repr=False)


@lru_cache(maxsize=2)  # the font's face keeps the bytes while in use: a couple more at most
def truetype_outlines(font: FontBytes) -> bytes:
    """The TrueType font with ``font``'s glyphs as quadratic outlines, made once per content.

    Raises :class:`ConversionError` for a font that is damaged or over a limit.
    """
    try:
        return _convert(font.data)
    except ConversionError:
        raise
    except RecursionError:
        raise ConversionError("its charstrings call subroutines without end") from None
    except Exception as exc:  # fontTools raises what its parsers meet: struct, index, assertion errors
        raise ConversionError(f"its CFF data is damaged ({type(exc).__name__}: {exc})") from None


def _convert(data: bytes) -> bytes:
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(io.BytesIO(data), lazy=True)
    if "CFF " not in font:
        kind = "variable CFF2" if "CFF2" in font else "no CFF"
        raise ConversionError(f"it has {kind} outlines; printkit converts CFF (version 1) outlines only")
    order = font.getGlyphOrder()
    if len(order) > MAX_GLYPHS:
        raise ConversionError(f"it has {len(order)} glyphs; the limit is {MAX_GLYPHS}")
    charstrings = font["CFF "].cff.topDictIndex[0].CharStrings
    extractor = _bounded_extractor(WORK_ALLOWANCE + WORK_PER_BYTE * len(data))
    glyphs = {}
    for name in order:
        charstring = charstrings[name]
        # The charstring runs in the extractor class it names (fontTools' T2CharString.draw).
        charstring.outlineExtractor = extractor
        pen = TTGlyphPen(None)
        # CFF contours run counter-clockwise, TrueType's clockwise: reversed, the same shapes.
        charstring.draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
        glyphs[name] = pen.glyph()

    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, glyphs
    font["loca"] = newTable("loca")
    del font["CFF "]
    if "VORG" in font:  # vertical origins belong to CFF outlines
        del font["VORG"]
    font["head"].glyphDataFormat = 0
    _maxp_for_truetype(font["maxp"])
    post = font["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}  # glyph names kept, as TrueType keeps them
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)  # recalculates maxp's point and contour counts and the bounding boxes
    return out.getvalue()


def _maxp_for_truetype(maxp) -> None:
    """Make ``maxp`` version 1.0, the TrueType one: no instructions, the counts worked out on save."""
    maxp.tableVersion = 0x00010000
    for name in ("maxPoints", "maxContours", "maxCompositePoints", "maxCompositeContours",
                 "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements", "maxComponentDepth"):
        setattr(maxp, name, 0)
    maxp.maxZones = 1  # no twilight zone: nothing is hinted


def _bounded_extractor(budget: int):
    """fontTools' outline extractor refusing subroutines nested too deep and, over all the glyphs
    it draws, more than ``budget`` charstring bytes run."""
    from fontTools.misc.psCharStrings import T2OutlineExtractor

    left = [budget]

    class BoundedExtractor(T2OutlineExtractor):
        def execute(self, charString):  # noqa: N803 (fontTools' name)
            if len(self.callingStack) > MAX_SUBR_DEPTH:
                raise ConversionError(f"its charstrings nest subroutines deeper than {MAX_SUBR_DEPTH}")
            left[0] -= len(charString.bytecode) if charString.bytecode is not None else len(charString.program)
            if left[0] < 0:
                raise ConversionError(f"its charstrings run more than {budget} bytes in all")
            super().execute(charString)

    return BoundedExtractor
