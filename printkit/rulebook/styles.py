"""A rulebook's page sizes (with margins and a base type size that suit each) and its paragraph styles."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle

from printkit import fonts
from printkit.errors import BuildError
from printkit.layout.geometry import paper_size


@dataclass(frozen=True)
class Paper:
    """A page size for the book's pages, with margins and a base font size that suit it."""

    name: str
    width_mm: float
    height_mm: float
    margin_mm: float
    body_pt: float


def _paper(name: str, margin_mm: float, body_pt: float) -> Paper:
    size = paper_size(name)
    return Paper(name, size.width_mm, size.height_mm, margin_mm, body_pt)


# Sizes from the one paper table (layout.geometry); margins and type sizes suit each page.
PAPERS = {
    "a4": _paper("a4", 20.0, 10.5),
    "a5": _paper("a5", 14.0, 9.0),
    "letter": _paper("letter", 19.0, 10.5),
    "half-letter": _paper("half-letter", 13.0, 9.0),
}


def paper(name: str) -> Paper:
    try:
        return PAPERS[name]
    except KeyError:
        raise BuildError(f"unknown rulebook paper {name!r} (known: {', '.join(PAPERS)})") from None


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h: tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle]
    toc_title: ParagraphStyle
    toc: tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle]
    cell: ParagraphStyle
    header_cell: ParagraphStyle
    caption: ParagraphStyle
    footer_pt: float


def make_styles(p: Paper) -> Styles:
    base = p.body_pt
    regular, bold = fonts.font_name(fonts.KOREAN), fonts.font_name(fonts.KOREAN_BOLD)
    # No paragraph leaves a single line at the foot of a page or carries one over to the next.
    body = ParagraphStyle("body", fontName=regular, fontSize=base, leading=base * 1.55, spaceAfter=base * 0.6,
                          allowWidows=0, allowOrphans=0)
    h1 = ParagraphStyle("h1", parent=body, fontName=bold, fontSize=base * 1.7, leading=base * 2.1,
                        spaceBefore=base * 1.2, spaceAfter=base * 0.8, textColor=colors.HexColor("#1f3b5a"))
    h2 = ParagraphStyle("h2", parent=body, fontName=bold, fontSize=base * 1.3, leading=base * 1.7,
                        spaceBefore=base * 1.0, spaceAfter=base * 0.5, textColor=colors.HexColor("#1f3b5a"))
    h3 = ParagraphStyle("h3", parent=body, fontName=bold, fontSize=base * 1.08, leading=base * 1.5,
                        spaceBefore=base * 0.7, spaceAfter=base * 0.3)
    toc = tuple(
        ParagraphStyle(f"toc{i}", parent=body, fontName=bold if i == 0 else regular, fontSize=base * s,
                       leading=base * s * 1.5, leftIndent=base * 1.6 * i, spaceBefore=base * (0.5 if i == 0 else 0))
        for i, s in enumerate((1.1, 1.0, 0.95))
    )
    return Styles(
        body=body,
        title=ParagraphStyle("title", parent=body, fontName=bold, fontSize=base * 4, leading=base * 4.8,
                             alignment=TA_CENTER, spaceAfter=base * 1.5, textColor=colors.HexColor("#1f3b5a")),
        subtitle=ParagraphStyle("subtitle", parent=body, fontSize=base * 1.5, leading=base * 2.2, alignment=TA_CENTER),
        h=(h1, h2, h3),
        toc_title=ParagraphStyle("toc_title", parent=h1, spaceBefore=0),
        toc=toc,  # type: ignore[arg-type]
        cell=ParagraphStyle("cell", parent=body, fontSize=base * 0.92, leading=base * 1.3, spaceAfter=0),
        header_cell=ParagraphStyle("header_cell", parent=body, fontName=bold, fontSize=base * 0.92,
                                   leading=base * 1.3, spaceAfter=0),
        caption=ParagraphStyle("caption", parent=body, fontSize=base * 0.88, leading=base * 1.3, spaceBefore=base * 0.4,
                               alignment=TA_CENTER, textColor=colors.HexColor("#444444")),
        footer_pt=base * 0.85,
    )
