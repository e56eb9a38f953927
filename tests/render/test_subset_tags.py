"""Font subset tags: each file's own, from its content; the same file rebuilt is the same bytes.

Also the reportlab names :mod:`printkit.render.subset_tags` relies on: if reportlab changes them,
these tests fail rather than the tags silently going back to ``AAAAAA+``.
"""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
from pypdf import PdfReader

from printkit.fonts import KOREAN, KOREAN_BOLD
from printkit.layout.geometry import Size
from printkit.layout.imposition import Page
from printkit.layout.ops import Text
from printkit.render.pdf import render_pages, write_pages

A6 = Size(105, 148)


def _page(*lines: str) -> Page:
    return Page(A6, ops=tuple(Text(10, 20 + 10 * i, line, KOREAN_BOLD if i % 2 else KOREAN, 4.0)
                              for i, line in enumerate(lines)))


def _subsets(data: bytes) -> list[tuple[str, str, str]]:
    """Each embedded TrueType subset: its BaseFont, its descriptor's FontName, its ToUnicode CMap's name."""
    found = []
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            (cmap_name,) = re.findall(r"/CMapName /(\S+) def", cmap)
            found.append((str(font["/BaseFont"])[1:], str(font["/FontDescriptor"]["/FontName"])[1:], cmap_name))
    return found


def test_each_file_tags_its_subsets_from_its_content():
    one = render_pages([_page("Calc sheet 1", "카드 앞면")])
    other = render_pages([_page("Calc sheet 2", "카드 뒷면")])
    tags_one, tags_other = _subsets(one), _subsets(other)
    assert len(tags_one) == 2  # Pretendard regular and bold
    for base, descriptor, cmap in tags_one + tags_other:
        assert base == descriptor == cmap  # one name wherever the subset is named
        assert re.fullmatch(r"[A-Z]{6}\+Pretendard-(Regular|Bold)", base)
        assert not base.startswith("AAAAAA+")
    # Another file: other tags, for the same fonts.
    assert {b[:6] for b, _, _ in tags_one}.isdisjoint({b[:6] for b, _, _ in tags_other})
    assert {b[7:] for b, _, _ in tags_one} == {b[7:] for b, _, _ in tags_other}
    # The same file rebuilt, drawn whole or streamed: the same bytes.
    assert render_pages([_page("Calc sheet 1", "카드 앞면")]) == one
    out = io.BytesIO()
    write_pages([_page("Calc sheet 1", "카드 앞면")], out)
    assert out.getvalue() == one


def test_renamed_subsets_still_read_as_their_text():
    data = render_pages([_page("Print at 100%", "한국어 카드")])
    text = pdfium.PdfDocument(data)[0].get_textpage().get_text_range()
    assert "Print at 100%" in text and "한국어 카드" in text


def test_the_reportlab_names_relied_on_exist():
    from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
    from reportlab.pdfgen.canvas import Canvas

    from printkit.render.canvas import register_font

    canvas = Canvas(io.BytesIO(), invariant=1)
    doc = canvas._doc
    assert hasattr(canvas, "_code") and hasattr(doc, "delayedFonts") and hasattr(doc, "idToObject")
    assert hasattr(doc.Pages, "pages")
    font = pdfmetrics.getFont(register_font(KOREAN))
    assert isinstance(font, ttfonts.TTFont) and hasattr(font.state, "get")
    assert hasattr(ttfonts.TTFont.State(0), "subsets")
    assert issubclass(pdfdoc.PDFTrueTypeFont, pdfdoc.PDFObject) and hasattr(pdfdoc.PDFObjectReference("x"), "name")
