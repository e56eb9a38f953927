"""The table of contents: rows made and sized a few at a time, split page by page, and reused by
the next pass when only their page numbers moved."""

from __future__ import annotations

import math
import re
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

from printkit import fonts
from printkit.rulebook.paragraphs import NBSP, BookParagraph

_TAG = re.compile(r"<[^>]*>")


class BookContents(TableOfContents):
    """The table of contents. An entry too long for its line wraps before the column of page
    numbers, its further lines under its title, where reportlab's would shrink the page number
    to fit what room is left (down to a point or so)."""

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self._styles = list(self.levelStyles)
        self._made: tuple | None = None  # (entries, width, height), rows, heights: of the last wrap
        self._parsed: dict[tuple, list] = {}  # an entry's parsed text, for the next pass

    def wrap(self, availWidth, availHeight):  # noqa: N803 (reportlab's names)
        self.levelStyles = [self._fitted(level, style) for level, style in enumerate(self._styles)]
        # reportlab sizes a table's rows in time growing with the square of their number (and
        # again for what is left after each page), so the rows are made and sized a few at a time
        # here; the table of them all is given the heights found. A row does not show its page
        # number until it is drawn (entry_end looks it up), so a pass listing the same entries
        # in the same styles as the pass before, if on other pages, takes that pass's rows; in other
        # styles (page numbers of other widths), its parsed texts.
        entries = self._lastEntries or [(0, "Placeholder for table of contents", 0, None)]
        self._drawn = entries
        self.canv.setNamedCB("bookContentsEnd", self._entry_end(availWidth, availHeight))
        made = (tuple((level, text, key) for level, text, _, key in entries),
                tuple((s.leftIndent, s.firstLineIndent, s.rightIndent) for s in self.levelStyles),
                availWidth, availHeight)
        if self._made is not None and self._made[0] == made:
            rows, heights = self._made[1], self._made[2]
        else:
            rows, heights = [], []
            for start in range(0, len(entries), _CONTENTS_ROWS):
                part = [row for i in range(start, min(start + _CONTENTS_ROWS, len(entries)))
                        for row in self._entry_rows(i, entries[i])]
                table = Table(part, colWidths=(availWidth,), style=self.tableStyle)
                table.wrapOn(self.canv, availWidth, availHeight)
                rows += table._cellvalues
                heights += table._rowHeights
        self._made = (made, rows, heights)
        self._table = Table(rows, colWidths=(availWidth,), rowHeights=heights, style=self.tableStyle)
        self._rows = _ContentsRows(rows, heights, availWidth, self.tableStyle)
        self.width, self.height = self._table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height

    def _entry_rows(self, index: int, entry) -> list:
        """The row of one entry (after a row of space when its style asks space before it), as
        reportlab's contents make it; its end names the entry by ``index``."""
        level, text, _, key = entry
        style = self.getLevelStyle(level)
        if key:
            text = f'<a href="#{key}">{text}</a>'
        markup = f'{text}<onDraw name="bookContentsEnd" label="{index}"/>'
        parsed = (markup, self._styles[level])  # what the parse depends on: not the fitted indents
        frags = self._parsed.get(parsed)
        para = BookParagraph(markup, style, frags=frags)
        self._parsed[parsed] = para.frags
        return ([[Spacer(1, style.spaceBefore)]] if style.spaceBefore else []) + [[para]]

    def _entry_end(self, availWidth, availHeight):  # noqa: N803
        """What draws an entry's leader dots and page number, as reportlab's contents do, from the
        entries this pass lists."""
        def draw(canvas, kind, label):
            level, _, page, key = self._drawn[int(label)]
            style = self.getLevelStyle(level)
            dot = " . " if self.dotsMinLevel >= 0 and level >= self.dotsMinLevel else ""
            if self.formatter:
                page = self.formatter(page)
            drawPageNumbers(canvas, style, [(page, key)], availWidth, availHeight, dot)
        return draw

    def split(self, availWidth, availHeight):  # noqa: N803
        return self._rows.split(availWidth, availHeight)

    def _fitted(self, level: int, style: ParagraphStyle) -> ParagraphStyle:
        bold = fonts.font_name(fonts.KOREAN_BOLD)
        entries = [(text, page) for lvl, text, page, _ in self._lastEntries if lvl == level]
        numbers = [_TAG.sub("", text).replace("&nbsp;", NBSP).split(NBSP)[0] for text, _ in entries]
        hang = max((pdfmetrics.stringWidth(n, bold, style.fontSize) for n in numbers), default=0.0)
        hang += 2 * pdfmetrics.stringWidth(" ", style.fontName, style.fontSize)
        widest_page = max((str(page) for _, page in entries), key=len, default="0")
        # the page number and two dots of the leader stay clear of the entry's last line
        numbers_column = pdfmetrics.stringWidth(" . . " + widest_page, style.fontName, style.fontSize)
        return ParagraphStyle(style.name + "-fitted", parent=style, leftIndent=style.leftIndent + hang,
                              firstLineIndent=-hang, rightIndent=numbers_column)


_CONTENTS_ROWS = 64  # rows of the contents reportlab sizes at once


class _ContentsRows(Flowable):
    """The rows of the contents from ``start`` on, sized already: each page takes the rows that
    fit as a table of their own, as reportlab's table splits, and the rest stay rows, so no row
    is looked at again after its page."""

    def __init__(self, rows: list, heights: list[float], width: float, style: TableStyle, start: int = 0) -> None:
        super().__init__()
        self._all, self._heights, self._width, self._style, self._start = rows, heights, width, style, start
        self._left = math.fsum(heights[start:])  # the height of the rows left (a sum at C speed)

    def _part(self, end: int) -> Table:
        return Table(self._all[self._start:end], colWidths=(self._width,), rowHeights=self._heights[self._start:end],
                     style=self._style)

    def wrap(self, availWidth, availHeight):  # noqa: N803
        return self._width, self._left

    def split(self, availWidth, availHeight):  # noqa: N803
        end, used = self._start, 0.0
        for height in self._heights[self._start:]:  # as reportlab's table finds where to split
            if used + height > availHeight:
                break
            used += height
            end += 1
        if end == self._start:
            return []
        if end == len(self._heights):
            return [self._part(end)]
        return [self._part(end), _ContentsRows(self._all, self._heights, self._width, self._style, end)]

    def drawOn(self, canvas, x, y, _sW=0):  # noqa: N803
        part = self._part(len(self._heights))
        part.wrapOn(canvas, self._width, self._left)
        part.drawOn(canvas, x, y, _sW)
