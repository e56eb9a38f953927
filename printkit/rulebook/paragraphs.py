"""The book's paragraphs: line breaks kept per width, inline code that breaks at its spaces only
when it is wider than a line, and headings that report to the contents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

NBSP = "\u00a0"  # ties a paragraph's last short word, and a contents entry's number, to the word before

_CANNOT_FIT = 0x7FFFFFFF  # the height Paragraph.wrap answers for a width it cannot set anything in


@dataclass(frozen=True)
class CodeBreaks:
    """The inline code of a paragraph that has spaces: ``widths``, each code span's width in points
    set whole (its spaces no-break, with the text it touches), and ``markup(breaking)``, the
    paragraph's markup in which the code spans of those indices break at their spaces."""

    widths: tuple[float, ...]
    markup: Callable[[frozenset[int]], str]


class BookParagraph(Paragraph):
    """A paragraph that breaks its lines once per width.

    Platypus wraps the same paragraph many times: a table sizes its cells on every wrap and again
    to draw them, and ``multiBuild`` sets the whole book twice. The line breaks depend only on the
    text, its style and the width, so later wraps at a width already seen reuse them.

    With ``code``, a code span is set whole (moved to the next line if it does not fit the rest of
    one) where it fits a line, and broken at its spaces, never between its letters, where it is
    wider than the line: the markup set is chosen by the width of the lines.
    """

    def __init__(self, text, style=None, bulletText=None, frags=None, *args,  # noqa: N803 (reportlab's names)
                 code: CodeBreaks | None = None, **kwargs):
        super().__init__(text, style, bulletText, frags, *args, **kwargs)
        self.code = code
        self.breaking: frozenset[int] = frozenset()

    def _break_code(self, avail_width: float) -> None:
        """Set the markup whose code spans wider than a line at ``avail_width`` break at their spaces."""
        style = self.style
        line = avail_width - style.leftIndent - style.rightIndent - max(style.firstLineIndent, 0.0)
        breaking = frozenset(i for i, width in enumerate(self.code.widths) if width > line + 1e-6)
        if breaking != self.breaking:
            super().__init__(self.code.markup(breaking), style)
            self.breaking = breaking

    def wrap(self, availWidth, availHeight):  # noqa: N803 (reportlab's names)
        if self.code is not None:
            self._break_code(availWidth)
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
