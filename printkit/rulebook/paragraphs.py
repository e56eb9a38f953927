"""The book's paragraphs: line breaks kept per width, and headings that report to the contents."""

from __future__ import annotations

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

NBSP = "\u00a0"  # ties a paragraph's last short word, and a contents entry's number, to the word before

_CANNOT_FIT = 0x7FFFFFFF  # the height Paragraph.wrap answers for a width it cannot set anything in


class BookParagraph(Paragraph):
    """A paragraph that breaks its lines once per width.

    Platypus wraps the same paragraph many times: a table sizes its cells on every wrap and again
    to draw them, and ``multiBuild`` sets the whole book twice. The line breaks depend only on the
    text, its style and the width, so later wraps at a width already seen reuse them.
    """

    def wrap(self, availWidth, availHeight):  # noqa: N803 (reportlab's names)
        known = self.__dict__.setdefault("_lines_by_width", {})
        hit = known.get(availWidth)
        if hit is None:
            size = super().wrap(availWidth, availHeight)
            if size[1] != _CANNOT_FIT:  # a width too small to set anything leaves no lines to keep
                known[availWidth] = (self.blPara, list(self._wrapWidths), self.height)
            return size
        self.blPara, wrap_widths, self.height = hit
        self.width = availWidth
        self._wrapWidths = list(wrap_widths)
        return self.width, self.height


class HeadingParagraph(BookParagraph):
    """A numbered heading that reports itself to the table of contents and the PDF outline."""

    def __init__(self, markup: str, style: ParagraphStyle, level: int, toc_markup: str, outline: str, key: str):
        super().__init__(markup, style)
        self.toc_level = level
        self.toc_markup = toc_markup
        self.outline = outline
        self.key = key
